"""More of NumPy inside jit functions, as Numba has it, each function lowered to loops of
the typed IR by the lowering of its family: functions_shape.py (arrays of shapes and
diagonals, new shapes and orders), functions_search.py (counting, finding, binning),
functions_statistics.py (comparing, rounding, NaN-skipping reductions, interpolation,
percentiles), functions_products.py (Kronecker and cross products, convolution and
correlation)."""

from .functions_products import ProductFunctions
from .functions_search import SearchFunctions
from .functions_shape import ShapeFunctions
from .functions_statistics import StatisticsFunctions

FUNCTIONS = ("eye", "identity", "diag", "trace", "triu", "tril", "array", "asarray",
             "ascontiguousarray", "flip", "fliplr", "flipud", "count_nonzero", "nonzero",
             "flatnonzero", "argwhere", "searchsorted", "bincount", "isclose", "allclose",
             "round", "around", "round_", "nansum", "nanprod", "nanmean", "nanvar", "nanstd",
             "nanmin", "nanmax", "interp", "digitize", "histogram", "percentile", "quantile",
             "nanpercentile", "nanquantile", "expand_dims", "atleast_1d", "atleast_2d",
             "atleast_3d", "swapaxes", "roll", "repeat", "take", "append", "vdot", "logspace",
             "tri", "kron", "cross", "convolve", "correlate")


class ArrayFunctions(ShapeFunctions, SearchFunctions, StatisticsFunctions, ProductFunctions):
    """np.<name>(...) for each name of FUNCTIONS (its method np_<name>), and the methods
    fill and item."""
