"""tessera: GPU computing for Python programmers.

A NumPy-compatible array whose data lives on a device (the CPU, or a CUDA GPU). The dtype
objects are NumPy's own (``tessera.float32 is numpy.float32``).
"""

import numpy as _np

from . import _core
from ._core import Device, get_num_threads, ndarray, set_num_threads
from . import _ndarray  # noqa: F401  (installs the Python-side ndarray methods)
from . import _array_function  # noqa: F401  (NumPy's __array_function__ and like=)
from ._array_api import (  # the array API standard's names NumPy lacks or spells differently
    __array_api_version__,
    __array_namespace_info__,
    astype,
    concat,
    finfo,
    iinfo,
    isdtype,
    unstack,
)
from ._creation import (
    arange,
    array,
    asanyarray,
    asarray,
    ascontiguousarray,
    asfortranarray,
    copy,
    empty,
    empty_like,
    eye,
    from_dlpack,
    fromfunction,
    full,
    full_like,
    identity,
    linspace,
    ones,
    ones_like,
    zeros,
    zeros_like,
)
from ._manipulation import (
    atleast_1d,
    atleast_2d,
    atleast_3d,
    broadcast_arrays,
    broadcast_shapes,
    broadcast_to,
    expand_dims,
    matrix_transpose,
    moveaxis,
    ndim,
    permute_dims,
    ravel,
    reshape,
    rollaxis,
    shape,
    size,
    squeeze,
    swapaxes,
    transpose,
)
from ._errstate import errstate, geterr, geterrcall, seterr, seterrcall
from ._memory import MemoryPool, get_default_memory_pool
from . import _elementwise
from ._elementwise import (
    allclose,
    angle,
    around,
    array_equal,
    array_equiv,
    can_cast,
    clip,
    common_type,
    fix,
    imag,
    isclose,
    isneginf,
    isposinf,
    min_scalar_type,
    nan_to_num,
    promote_types,
    real,
    result_type,
    round,
    ufunc,
    where,
)
from ._ndarray import asnumpy
from ._sorting import argpartition, argsort, partition, sort, sort_complex
from ._indexing import (
    argwhere,
    choose,
    compress,
    copyto,
    diag_indices,
    diag_indices_from,
    extract,
    fill_diagonal,
    flatnonzero,
    indices,
    ix_,
    mask_indices,
    nonzero,
    place,
    put,
    put_along_axis,
    putmask,
    ravel_multi_index,
    searchsorted,
    select,
    take,
    take_along_axis,
    tril_indices,
    tril_indices_from,
    triu_indices,
    triu_indices_from,
    unravel_index,
)
from ._joining import (
    append,
    array_split,
    column_stack,
    concatenate,
    delete,
    dsplit,
    dstack,
    flip,
    fliplr,
    flipud,
    hsplit,
    hstack,
    insert,
    repeat,
    resize,
    roll,
    rot90,
    row_stack,
    split,
    stack,
    tile,
    trim_zeros,
    vsplit,
    vstack,
)
from ._nanfunctions import (
    nanargmax,
    nanargmin,
    nancumprod,
    nancumsum,
    nanmax,
    nanmean,
    nanmin,
    nanprod,
    nanstd,
    nansum,
    nanvar,
)
from ._quantiles import median, nanmedian, nanpercentile, nanquantile, percentile, quantile
from ._statistics import average, diff
from ._pad import pad
from ._sets import (
    ediff1d,
    intersect1d,
    isin,
    lexsort,
    setdiff1d,
    setxor1d,
    union1d,
    unique,
    unique_all,
    unique_counts,
    unique_inverse,
    unique_values,
)
from ._type_checks import *  # noqa: F403  (the names of its __all__)
from ._broadcast_object import *  # noqa: F403  (the names of its __all__)
from ._bit_packing import *  # noqa: F403  (the names of its __all__)
from ._signal import *  # noqa: F403  (the names of its __all__)
from ._ranges import *  # noqa: F403  (the names of its __all__)
from ._from_host import *  # noqa: F403  (the names of its __all__)
from ._index_tricks import *  # noqa: F403  (the names of its __all__)
from ._histograms import (
    bincount,
    digitize,
    histogram,
    histogram2d,
    histogram_bin_edges,
    histogramdd,
)
from ._numerics import (
    convolve,
    corrcoef,
    correlate,
    cov,
    cross,
    gradient,
    interp,
    kron,
    outer,
    trapezoid,
)
from ._products import (
    dot,
    einsum,
    einsum_path,
    inner,
    matmul,
    matvec,
    tensordot,
    vdot,
    vecdot,
    vecmat,
)
from ._polynomial import (
    poly,
    poly1d,
    polyadd,
    polyder,
    polydiv,
    polyfit,
    polyint,
    polymul,
    polysub,
    polyval,
    roots,
    vander,
)
from ._matrices import diag, diagflat, diagonal, meshgrid, trace, tri, tril, triu
from ._reduction import (
    all,
    amax,
    amin,
    any,
    argmax,
    argmin,
    count_nonzero,
    cumprod,
    cumsum,
    cumulative_prod,
    cumulative_sum,
    max,
    mean,
    min,
    prod,
    ptp,
    std,
    sum,
    var,
)

from . import cuda, fft, lib, linalg, random
from ._kernels import RawKernel, RawModule
from ._user_kernels import ElementwiseKernel, ReductionKernel, fuse
from .jit import TypingError, guvectorize, jit, njit, prange, stencil, vectorize
from .cuda import get_default_pinned_memory_pool

__version__ = "0.1.0"

# Dask's arrays (or distributed: a Dask worker) already imported: tessera's chunk type,
# functions and serializers join Dask's dispatch now (tessera.dask does it when imported, as
# Dask's backend entry point does). Not while Dask is still importing itself (its sizeof
# entry point imports this package): then the first tessera array Dask measures registers.
def _dask_is_imported():
    import sys
    return (hasattr(sys.modules.get("dask.array"), "Array")
            or hasattr(sys.modules.get("distributed"), "Client"))


if _dask_is_imported():
    from . import dask as _dask  # noqa: F401

# Every ufunc (tessera.add, tessera.sin, ...) and NumPy's aliases for them.
globals().update({name: getattr(_elementwise, name)
                  for name in (*_elementwise._UFUNCS, *_elementwise._ALIASES)})

# NumPy's dtype objects and scalar types, re-exported as they are.
dtype = _np.dtype
bool_ = _np.bool_
bool = _np.bool  # noqa: A001  (NumPy 2 spells it numpy.bool too)
int8, int16, int32, int64 = _np.int8, _np.int16, _np.int32, _np.int64
uint8, uint16, uint32, uint64 = _np.uint8, _np.uint16, _np.uint32, _np.uint64
float16, float32, float64 = _np.float16, _np.float32, _np.float64
complex64, complex128 = _np.complex64, _np.complex128
intp, uintp, int_, uint = _np.intp, _np.uintp, _np.int_, _np.uint
byte, ubyte, short, ushort = _np.byte, _np.ubyte, _np.short, _np.ushort
intc, uintc, long, ulong = _np.intc, _np.uintc, _np.long, _np.ulong
longlong, ulonglong = _np.longlong, _np.ulonglong
half, single, double = _np.half, _np.single, _np.double
csingle, cdouble = _np.csingle, _np.cdouble
number, integer, signedinteger, unsignedinteger = (
    _np.number, _np.integer, _np.signedinteger, _np.unsignedinteger)
floating, complexfloating, inexact, generic = (
    _np.floating, _np.complexfloating, _np.inexact, _np.generic)
issubdtype = _np.issubdtype

newaxis = None
pi, e, inf, nan, euler_gamma = _np.pi, _np.e, _np.inf, _np.nan, _np.euler_gamma


def get_device():
    """The device new arrays are created on (changed with ``with tessera.Device(...)``)."""
    return _core._current_device()
