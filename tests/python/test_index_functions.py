"""Index functions checked against NumPy: take and put (modes, out=), take_along_axis and
put_along_axis, choose, compress, extract, place, putmask, nonzero, flatnonzero, argwhere,
where(cond), select, searchsorted (side, sorter, NaN last), indices, ix_, unravel_index,
ravel_multi_index and the diagonal/triangle index helpers, with the ndarray methods.

Results are compared by value, dtype and shape (NumPy scalars against tessera's 0-d arrays);
functions that write in place leave the array NumPy leaves; bad input raises NumPy's exception
type. Inputs are NumPy arrays, Python lists and tessera arrays, in several memory layouts.
nonzero and flatnonzero on large and special-valued inputs are in test_advanced_indexing.py."""

import numpy as np
import pytest

import tessera as tp

from conftest import ALL_DTYPES, assert_same, sample
from oracle import (assert_raises_type, assert_refuses_host_data, compact_id, data, is_host_data,
                    make, public_type, refuses_host_data)
from ufunc_oracle import dtype_id, outcome_like_numpy

SHAPES = [(), (0,), (7,), (3, 4), (2, 3, 5)]
LAYOUTS = ["contiguous", "fortran", "strided", "negative", "transposed_negative", "broadcast"]
MODES = ["raise", "wrap", "clip"]
INDEX_DTYPES = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64]
NAN, INF = np.nan, np.inf


# --------------------------------------------------------------------------------------------
# helpers


def raises_like(error, tp_call):
    """tp_call raises the public type of NumPy's `error`, with the "[api]" message prefix."""
    __tracebackhide__ = True
    assert_raises_type(public_type(error), tp_call)


def to_tp(x):
    """x with its NumPy arrays, also inside lists and tuples, as tessera arrays (Python
    numbers and lists stay as they are: they are inputs too)."""
    if isinstance(x, np.ndarray):
        return tp.array(x)
    if isinstance(x, (list, tuple)):
        return type(x)(to_tp(i) for i in x)
    return x


def assert_like(got, expected):
    """`got` is NumPy's `expected`: an array (a NumPy scalar matches a 0-d array), a tuple or
    list of them (the same container type), or None."""
    __tracebackhide__ = True
    if expected is None:
        assert got is None, f"NumPy returns None, tessera returns {got!r}"
    elif isinstance(expected, (tuple, list)):
        assert type(got) is type(expected), \
            f"NumPy returns a {type(expected).__name__}, tessera a {type(got).__name__}"
        assert len(got) == len(expected), f"{len(got)} items != {len(expected)}"
        for g, e in zip(got, expected):
            assert_like(g, e)
    else:
        assert_same(got, expected)


# The arguments of each function checked through same_call or device_inputs (here and in
# test_joining.py), in order. "*name": a data operand, which a device refusing host data
# (CUDA) refuses when it is NumPy data (an array, list, tuple or other array-like; scalars are
# accepted); "**name": a sequence of such operands (each item is one, as a whole NumPy array
# is); "name...": every remaining positional argument. The others are parameters that are
# host values by nature (indices, masks, counts, shapes, values written into an array),
# accepted as NumPy data on every device, or arrays written into.
SIGNATURES = {
    # test_index_functions.py
    "take": "*a indices axis out mode",
    "take_along_axis": "*arr indices axis",
    "choose": "a **choices out mode",
    "compress": "condition *a axis out",
    "extract": "condition *arr",
    "place": "arr mask vals",
    "putmask": "a mask values",
    "nonzero": "*a",
    "flatnonzero": "*a",
    "argwhere": "*a",
    "where": "*condition *x *y",
    "select": "**condlist **choicelist *default",
    "searchsorted": "*a *v side sorter",
    "indices": "dimensions dtype sparse",
    "ix_": "args...",
    "unravel_index": "indices shape order",
    "ravel_multi_index": "multi_index dims mode order",
    "diag_indices": "n ndim",
    "diag_indices_from": "arr",
    "tril_indices": "n k m",
    "triu_indices": "n k m",
    "tril_indices_from": "arr k",
    "triu_indices_from": "arr k",
    "ndarray.nonzero": "*self",
    "ndarray.take": "*self indices axis out mode",
    "ndarray.compress": "*self condition axis out",
    "ndarray.searchsorted": "*self *v side sorter",
    # test_joining.py
    "concatenate": "**arrays axis out dtype casting",
    "stack": "**arrays axis out dtype casting",
    "vstack": "**tup dtype casting",
    "hstack": "**tup dtype casting",
    "dstack": "**tup",
    "column_stack": "**tup",
    "split": "*ary indices_or_sections axis",
    "array_split": "*ary indices_or_sections axis",
    "hsplit": "*ary indices_or_sections",
    "vsplit": "*ary indices_or_sections",
    "dsplit": "*ary indices_or_sections",
    "tile": "*A reps",
    "repeat": "*a repeats axis",
    "flip": "*m axis",
    "fliplr": "*m",
    "flipud": "*m",
    "rot90": "*m k axes",
    "roll": "*a shift axis",
    "append": "*arr *values axis",
    "insert": "*arr obj values axis",
    "delete": "*arr obj axis",
    "resize": "*a new_shape",
    "trim_zeros": "*filt trim axis",
    "tri": "N M k dtype",
    "tril": "*m k",
    "triu": "*m k",
    "diag": "*v k",
    "diagflat": "*v k",
    "diagonal": "*a offset axis1 axis2",
    "trace": "*a offset axis1 axis2 dtype out",
    "meshgrid": "*xi...",
}


def convert_operands(name, args, kwargs, convert):
    """(args, kwargs) with `convert` applied to the NumPy data among the operands of
    tp.<name> (see SIGNATURES), and to each NumPy data item of a sequence of operands;
    parameters, scalars and tessera arrays are left as they are."""
    params = SIGNATURES[name].split()
    if params and params[-1].endswith("..."):
        params[-1] = params[-1][:-3]
        params += params[-1:] * max(0, len(args) - len(params))
    names = [p.lstrip("*") for p in params]

    def converted(param, x):
        if param.startswith("**") and isinstance(x, (list, tuple)):
            return type(x)(convert(i) if is_host_data(i) else i for i in x)
        if param.startswith("*") and is_host_data(x):
            return convert(x)
        return x

    return (tuple(converted(params[i], a) if i < len(params) else a for i, a in enumerate(args)),
            {k: converted(params[names.index(k)], v) if k in names else v
             for k, v in kwargs.items()})


def host_operands(name, args, kwargs):
    """The NumPy data among the operands of tp.<name>(*args, **kwargs)."""
    found = []
    convert_operands(name, args, kwargs, lambda x: found.append(x) or x)
    return found


def device_inputs(name, tp_func, args, kwargs):
    """The NumPy inputs (args, kwargs) on which tp_func (tp.<name> or the ndarray method
    "ndarray.<name>", called on the tessera forms of the inputs, see to_tp) is compared with
    NumPy. On the CPU, and wherever the operands hold no NumPy data: args and kwargs as
    given. On a device that refuses host data, given NumPy data (a list, say) as an operand:
    asserts that tp_func refuses it, then returns args and kwargs with those operands
    converted by numpy.asarray, so that the computation is still compared with NumPy's on
    that device (as tessera.asarray would bring them there)."""
    __tracebackhide__ = True
    if refuses_host_data():
        targs, tkwargs = to_tp(args), {k: to_tp(v) for k, v in kwargs.items()}
        if host_operands(name, targs, tkwargs):
            assert_refuses_host_data(lambda: tp_func(*targs, **tkwargs))
            return convert_operands(name, args, kwargs, np.asarray)
    return args, kwargs


def same_call(name, *args, **kwargs):
    """tp.<name> on the tessera forms of args returns what np.<name> returns on args, or
    raises its exception type. Returns tessera's result. On a device that refuses host data,
    NumPy data given as an operand (see SIGNATURES) must be refused; the call is then compared
    with those operands as arrays (see device_inputs)."""
    __tracebackhide__ = True
    args, kwargs = device_inputs(name, getattr(tp, name), args, kwargs)
    targs, tkwargs = to_tp(args), {k: to_tp(v) for k, v in kwargs.items()}
    return outcome_like_numpy(lambda: getattr(np, name)(*args, **kwargs),
                              lambda: getattr(tp, name)(*targs, **tkwargs),
                              assert_like, raises_like)


def same_in_place(np_call, tp_call, n, t):
    """np_call() and tp_call() both return None and leave n and t equal, or raise alike
    (NumPy may have written part of the data before it raised: not compared)."""
    __tracebackhide__ = True

    def check(got, expected):
        assert got is None, f"expected None, got {got!r}"
        assert_same(t, n)

    outcome_like_numpy(np_call, tp_call, check, raises_like)


def index_values(dtype, signed, unsigned):
    """An index array of `dtype`: the `signed` values, or `unsigned` for unsigned dtypes."""
    return np.array(signed if np.dtype(dtype).kind == "i" else unsigned, dtype)


# --------------------------------------------------------------------------------------------
# take

TAKE_INDICES = {
    "list": [0, -1, 2],
    "2d": np.array([[1, 0], [-2, 1]]),
    "int": 1,
    "np_int": np.int16(-1),
    "empty": [],
    "empty_2d": np.zeros((2, 0), np.intp),
}


@pytest.mark.parametrize("shape", SHAPES[1:], ids=compact_id)
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_take(device, dtype, shape):
    """Every dtype, shape, index form and axis; indices out of bounds for the small shapes
    raise IndexError."""
    n = data(shape, dtype)
    for idx in TAKE_INDICES.values():
        for axis in (None, 0, -1):
            same_call("take", n, idx, axis=axis)


@pytest.mark.parametrize("axis", [None, 0, -1, 1])
def test_take_0d(device, axis):
    """NumPy takes from a 0-d array as from a 1-d array of one element: axis 0 and -1 are
    valid, axis 1 raises AxisError."""
    n = data((), np.float32)
    for idx in TAKE_INDICES.values():
        same_call("take", n, idx, axis=axis)


@pytest.mark.parametrize("shape", SHAPES[1:], ids=compact_id)
def test_take_bad_axis(device, shape):
    for axis in (len(shape), -len(shape) - 1):
        same_call("take", data(shape, np.int8), [0], axis=axis)


@pytest.mark.parametrize("index_dtype", INDEX_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("mode", MODES)
def test_take_modes(device, mode, index_dtype):
    """Out-of-bounds indices of every integer dtype: 'raise' raises IndexError, 'wrap' takes
    them modulo the length, 'clip' clamps them; an empty axis has nothing to wrap or clip."""
    inside = index_values(index_dtype, [4, -5, 0, -1], [4, 0, 3, 1])
    outside = index_values(index_dtype, [-8, 7, 3, -1, 20, 0], [200, 7, 3, 5, 20, 0])
    n = data((3, 5), np.float64)
    for idx in (inside, outside):
        same_call("take", n, idx, mode=mode)
        same_call("take", n, idx, axis=1, mode=mode)
        same_call("take", n, idx.reshape(2, -1), axis=-1, mode=mode)
        same_call("take", np.zeros((0, 3)), idx, axis=0, mode=mode)
    same_call("take", np.zeros((0, 3)), [], axis=0, mode=mode)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_take_layouts(device, layout):
    _, _, n, t = make((4, 5, 6), np.int16, layout)
    for axis in (None, 0, 1, 2):
        outcome_like_numpy(lambda: np.take(n, [3, -1, 0, 0], axis=axis),
                           lambda: tp.take(t, [3, -1, 0, 0], axis=axis), assert_like, raises_like)


def test_take_inputs(device):
    """Python lists as the array, tessera and NumPy index arrays, non-contiguous indices."""
    nested = [[1, 2, 3], [4, 5, 6]]
    same_call("take", nested, [2, 0], axis=1)
    same_call("take", nested, 4)
    n = data((6,), np.complex64)
    idx = np.array([5, 4, 3, 2, 1, 0])
    assert_same(tp.take(tp.array(n), tp.array(idx)[::-2]), np.take(n, idx[::-2]))
    assert_same(tp.take(tp.array(n), idx[::2]), np.take(n, idx[::2]))


# out= must have the result's shape; with mode='raise' NumPy buffers out and accepts only a
# dtype that casts safely to the source's (int8 out for an int64 source, not float64).
TAKE_OUTS = [(np.int64, (2, 2)), (np.int8, (2, 2)), (np.float64, (2, 2)), (np.int64, (4,)),
             (np.int64, (2, 3))]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("out_dtype,out_shape", TAKE_OUTS,
                         ids=[f"{dtype_id(d)}{compact_id(s)}" for d, s in TAKE_OUTS])
def test_take_out(device, out_dtype, out_shape, mode):
    n = data((2, 3), np.int64)
    nout, tout = np.zeros(out_shape, out_dtype), tp.zeros(out_shape, dtype=out_dtype)
    got = outcome_like_numpy(lambda: np.take(n, [2, -1], axis=1, out=nout, mode=mode),
                             lambda: tp.take(tp.array(n), [2, -1], axis=1, out=tout, mode=mode),
                             assert_like, raises_like)
    if got is not None:
        assert got is tout, "take(out=...) must return out"


@pytest.mark.parametrize("name", ["float_array", "bad_mode", "complex"])
def test_take_errors(device, name):
    """Non-integer index arrays: TypeError; an unknown mode: ValueError."""
    idx, mode = {"float_array": (np.array([0.5]), "clip"), "bad_mode": ([0], "bogus"),
                 "complex": (np.array([1j]), "wrap")}[name]
    same_call("take", data((4,), np.int32), idx, mode=mode)


@pytest.mark.parametrize("name", ["take", "put"])
def test_float_index_lists(device, name):
    """NumPy converts a list of Python floats to intp directly (truncating), where a float
    array would be refused."""
    n = data((6,), np.int64)
    t = tp.array(n)
    if name == "take":
        same_call("take", n, [1.7, 4.0])
    else:
        same_in_place(lambda: np.put(n, [1.7, 4.0], [8, 9]), lambda: tp.put(t, [1.7, 4.0], [8, 9]),
                      n, t)


# --------------------------------------------------------------------------------------------
# put

PUT_CASES = {
    "list": ([0, 2, -1], [10, 20, 30]),
    "values_repeated": ([0, 1, 2, 3, 4], [7, 8]),
    "more_values": ([0, 1], [5, 6, 7, 8]),
    "int": (3, 9),
    "duplicates_last_wins": ([1, 1, 1], [1, 2, 3]),
    "2d_index": ([[0, 1], [2, 3]], [5, 6, 7, 8]),
    "out_of_bounds": ([0, 12], [1, 2]),
    "negative_out_of_bounds": ([-13], [1]),
    "empty_index": ([], [1]),
    "empty_values": ([0], []),
    "float_values": ([0, 1], [2.9, -2.9]),
    "tessera_values": ([5, 6], np.array([-4, 4], np.int16)),
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", PUT_CASES)
def test_put(device, name, mode):
    """a.flat[ind] = v under each mode, v repeated or cut to the number of indices."""
    ind, v = PUT_CASES[name]
    n = data((3, 4), np.int32)
    t = tp.array(n)
    same_in_place(lambda: np.put(n, ind, v, mode=mode), lambda: tp.put(t, ind, to_tp(v), mode=mode),
                  n, t)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_put_dtypes(device, dtype):
    n = data((2, 5), dtype)
    t = tp.array(n)
    values = sample((3,), dtype, seed=1)
    for v in (values, values[::-1]):
        same_in_place(lambda: np.put(n, [9, 0, -3], v), lambda: tp.put(t, [9, 0, -3], tp.array(v)),
                      n, t)
    same_in_place(lambda: np.put(n, [4], values[0]), lambda: tp.put(t, [4], values[0]), n, t)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_put_layouts(device, layout):
    """put writes through the view's strides in flat C order (the owner sees it); broadcast
    views are read-only: ValueError."""
    nbase, tbase, n, t = make((3, 4, 5), np.float32, layout)
    for ind in ([0, 7, 30, 59], [-1, -60, 3]):
        same_in_place(lambda: np.put(n, ind, [1.5, -2.5]), lambda: tp.put(t, ind, [1.5, -2.5]),
                      nbase, tbase)
        assert_same(t, n)


# value casts: Python numbers out of range raise OverflowError, complex into real TypeError
PUT_CASTS = [(np.int8, [300]), (np.uint8, [-1]), (np.int32, [1 + 1j]), (np.bool_, [2, 0]),
             (np.float16, [1e10]), (np.uint8, np.array([-1, 256]))]


@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")
@pytest.mark.parametrize("dtype,values", PUT_CASTS,
                         ids=[f"{dtype_id(d)}-{compact_id(list(v))}" for d, v in PUT_CASTS])
def test_put_casts(device, dtype, values):
    n = data((4,), dtype)
    t = tp.array(n)
    same_in_place(lambda: np.put(n, [1, 2], values), lambda: tp.put(t, [1, 2], to_tp(values)),
                  n, t)


PUT_ERRORS = {
    "list_target": lambda m, a: m.put([1, 2, 3], [0], [5]),
    "bad_mode": lambda m, a: m.put(a, [0], [5], mode="bogus"),
    "float_index_array": lambda m, a: m.put(a, m.asarray([1.0]), [5]),
}


@pytest.mark.parametrize("name", PUT_ERRORS)
def test_put_errors(device, name):
    """Lists are not arrays to write into, float index arrays are not indices (TypeError);
    an unknown mode: ValueError."""
    n = data((4,), np.int64)
    call = PUT_ERRORS[name]
    outcome_like_numpy(lambda: call(np, n), lambda: call(tp, tp.array(n)), assert_like,
                       raises_like)


# --------------------------------------------------------------------------------------------
# take_along_axis and put_along_axis


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_take_along_axis(device, dtype):
    """The argsort indices of each axis give the sorted array; axis=None takes from the
    flattened array with 1-d indices."""
    n = data((3, 4, 5), dtype)
    for axis in (0, 1, 2, -1):
        idx = np.argsort(n, axis=axis, kind="stable")
        same_call("take_along_axis", n, idx, axis=axis)
        same_call("take_along_axis", n, idx[..., ::-2], axis=axis)
    same_call("take_along_axis", n, np.argsort(n, axis=None, kind="stable"), axis=None)


TAKE_ALONG_CASES = {
    "broadcast_indices": ((3, 4), np.array([[0, -1, 2]]), 1),
    "broadcast_both": ((3, 1), np.array([[0], [0]]).T, 0),
    "default_axis": ((2, 3), np.array([[2, 0], [1, 1]]), None),
    "empty_indices": ((3, 4), np.zeros((3, 0), np.intp), 1),
    "empty_array": ((0, 4), np.zeros((0, 2), np.intp), 1),
    "1d": ((6,), np.array([5, 0, -6]), 0),
    "uint8_indices": ((3, 4), np.ones((3, 2), np.uint8), 1),
    # errors
    "out_of_bounds": ((3, 4), np.array([[4]]), 1),
    "float_indices": ((3, 4), np.array([[1.0]]), 1),
    "ndim_mismatch": ((3, 4), np.array([0, 1]), 1),
    "bad_axis": ((3, 4), np.array([[0]]), 2),
    "none_axis_2d_indices": ((3, 4), np.array([[0]]), "none"),
    "not_broadcastable": ((2, 3), np.array([[0], [1], [0]]), 1),
}


@pytest.mark.parametrize("name", TAKE_ALONG_CASES)
def test_take_along_axis_cases(device, name):
    shape, idx, axis = TAKE_ALONG_CASES[name]
    n = data(shape, np.float32)
    if axis is None:
        same_call("take_along_axis", n, idx)
    else:
        same_call("take_along_axis", n, idx, axis=None if axis == "none" else axis)


PUT_ALONG_CASES = {
    "scalar_value": ((3, 4), np.array([[0], [3], [1]]), 7, 1),
    "broadcast_values": ((3, 4), np.array([[0, 2]]), np.array([[10, 20]]), 1),
    "row_of_values": ((3, 4), np.array([[1, 1, 1, 1]]), np.arange(4), 0),
    "full": ((2, 3), np.array([[2, 1, 0], [0, 1, 2]]), np.arange(6).reshape(2, 3), 1),
    "negative_indices": ((2, 3), np.array([[-1], [-3]]), -5, -1),
    "axis_none": ((2, 3), np.array([5, 0]), [8, 9], None),
    "float_values": ((2, 3), np.array([[0], [1]]), 2.7, 1),
    "duplicates_last_wins": ((4,), np.array([1, 1, 1]), np.array([5, 6, 7]), 0),
    # errors
    "out_of_bounds": ((2, 3), np.array([[3]]), 0, 1),
    "float_indices": ((2, 3), np.array([[0.0]]), 0, 1),
    "ndim_mismatch": ((2, 3), np.array([0]), 0, 1),
    "bad_axis": ((2, 3), np.array([[0]]), 0, -3),
    "values_not_broadcastable": ((2, 3), np.array([[0], [1]]), np.arange(3), 1),
}


@pytest.mark.parametrize("name", PUT_ALONG_CASES)
def test_put_along_axis(device, name):
    shape, idx, values, axis = PUT_ALONG_CASES[name]
    n = data(shape, np.int64)
    t = tp.array(n)
    same_in_place(lambda: np.put_along_axis(n, idx, values, axis),
                  lambda: tp.put_along_axis(t, tp.array(idx), to_tp(values), axis), n, t)


@pytest.mark.parametrize("layout", ["fortran", "strided", "negative"])
def test_put_along_axis_layouts(device, layout):
    nbase, tbase, n, t = make((3, 4), np.float64, layout)
    idx = np.array([[3, 0], [1, 1], [0, 2]])
    np.put_along_axis(n, idx, -1.5, axis=1)
    tp.put_along_axis(t, tp.array(idx), -1.5, axis=1)
    assert_same(tbase, nbase)


# --------------------------------------------------------------------------------------------
# choose


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_choose_dtypes(device, dtype):
    choices = [data((3, 4), dtype, seed=s) for s in range(3)]
    a = np.array([[0, 1, 2, 0], [2, 2, 1, 0], [1, 0, 0, 2]])
    same_call("choose", a, choices)
    same_call("choose", a[::-1, ::2], [c[::-1, 1::2] for c in choices])


CHOOSE_CASES = {
    "broadcast": (np.array([[0], [1], [1]]), [np.arange(4), np.full((3, 1), -1)]),
    "scalar_choices": ([0, 1, 1, 0], [np.array(10), np.array(20)]),
    "scalar_index": (1, [np.arange(3), np.arange(3) * 10]),
    "lists": ([[0, 1], [1, 0]], [[1, 2], [3, 4]]),
    "promotion": ([0, 1, 0], [np.arange(3, dtype=np.int8), np.arange(3, dtype=np.float32)]),
    "promotion_uint_int": ([1, 0], [np.array([200, 100], np.uint8), np.array([-1, 1], np.int8)]),
    "bool_choices": ([1, 0, 1], [np.zeros(3, bool), np.ones(3, bool)]),
    "empty": (np.zeros((0,), np.intp), [np.arange(1), np.arange(1)]),
    "uint8_index": (np.array([1, 0, 1], np.uint8), [np.arange(3), -np.arange(3)]),
    "one_choice": ([0, 0], [np.array([5, 6])]),
    # out-of-range entries, under the modes
    "out_of_range": ([0, 3, -1, 7, 1], [np.arange(5), np.arange(5) * 10, np.arange(5) * 100]),
    # errors (float_index's choices are arrays, so that its float index array's TypeError is
    # what every device checks)
    "no_choices": ([0, 1], []),
    "float_index": (np.array([0.0, 1.0]), [np.array([1, 2]), np.array([3, 4])]),
    "not_broadcastable": ([0, 1], [[1, 2, 3], [3, 4]]),
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", CHOOSE_CASES)
def test_choose(device, name, mode):
    """choices[a] broadcast together, under each mode; invalid entries with mode='raise':
    ValueError."""
    a, choices = CHOOSE_CASES[name]
    same_call("choose", a, choices, mode=mode)


@pytest.mark.parametrize("out_dtype", [np.int64, np.float64, np.int8])
def test_choose_out(device, out_dtype):
    a, choices = [[0, 1], [1, 0]], [np.arange(2), np.arange(2) * 10]
    nout, tout = np.zeros((2, 2), out_dtype), tp.zeros((2, 2), dtype=out_dtype)
    got = outcome_like_numpy(lambda: np.choose(a, choices, out=nout),
                             lambda: tp.choose(a, to_tp(choices), out=tout), assert_like,
                             raises_like)
    if got is not None:
        assert got is tout, "choose(out=...) must return out"


# --------------------------------------------------------------------------------------------
# compress, extract, place, putmask

COMPRESS_CONDITIONS = {
    "bool": [True, False, True],
    "int": [1, 0, 2],
    "all_false": [False, False, False],
    "short": [False, True],
    "empty": [],
    "long": [True, False, True, False, True, True, True, True],
    "bool_array_false_tail": np.array([False, True, True, False]),
    "2d": [[True, False]],
}


@pytest.mark.parametrize("name", COMPRESS_CONDITIONS)
def test_compress(device, name):
    """A condition shorter than the axis selects among its first slices; a longer one may
    only be False past the axis (NumPy takes the positions of its True entries: IndexError
    beyond); a 2-d one raises ValueError."""
    cond = COMPRESS_CONDITIONS[name]
    for dtype in (np.int16, np.complex64):
        n = data((4, 3), dtype)
        for axis in (None, 0, 1, -1, 2):
            same_call("compress", cond, n, axis=axis)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_compress_layouts(device, layout):
    _, _, n, t = make((4, 5, 6), np.float64, layout)
    cond = [True, False, True, True]
    for axis in (0, 1, 2, None):
        outcome_like_numpy(lambda: np.compress(cond, n, axis=axis),
                           lambda: tp.compress(cond, t, axis=axis), assert_like, raises_like)


def test_compress_out(device):
    n = data((3, 4), np.float32)
    nout, tout = np.zeros((3, 2), np.float32), tp.zeros((3, 2), dtype=np.float32)
    got = tp.compress([0, 1, 1], tp.array(n), axis=1, out=tout)
    np.compress([0, 1, 1], n, axis=1, out=nout)
    assert got is tout
    assert_same(tout, nout)


EXTRACT_CASES = {
    "comparison": lambda n: n > 0,
    "int_condition": lambda n: (n * 10).astype(int) % 3,
    "other_shape_same_size": lambda n: (n > 0).reshape(-1)[::-1].reshape(4, 3),
    "short_condition": lambda n: [True, False, True],
    "long_condition": lambda n: np.ones(14, bool),
    "all_false": lambda n: np.zeros(n.shape, bool),
}


@pytest.mark.parametrize("name", EXTRACT_CASES)
def test_extract(device, name):
    """Elements where the flattened condition is non-zero; a condition longer than the array
    raises IndexError."""
    n = data((3, 4), np.float64)
    same_call("extract", EXTRACT_CASES[name](n), n)


PLACE_CASES = {
    "repeat_values": (lambda n: n > 0, [1.5, -2.5]),
    "more_values": (lambda n: n < 0, np.arange(20.0)),
    "scalar": (lambda n: n < 0, 0.25),
    "nothing_selected": (lambda n: n > 1e9, []),
    "int_mask": (lambda n: (n > 0).astype(int), [3]),
}


@pytest.mark.parametrize("layout", ["contiguous", "fortran", "negative"])
@pytest.mark.parametrize("name", PLACE_CASES)
def test_place(device, name, layout):
    """arr[mask] = vals cycled through; the owner of a view sees the writes."""
    mask_of, vals = PLACE_CASES[name]
    nbase, tbase, n, t = make((3, 4), np.float64, layout)
    mask = mask_of(n)
    same_in_place(lambda: np.place(n, mask, vals), lambda: tp.place(t, to_tp(mask), to_tp(vals)),
                  nbase, tbase)


PUTMASK_CASES = {
    "repeat_values": (lambda n: n > 0, [10, 20, 30]),
    "scalar": (lambda n: n < 0, 0),
    "full_values": (lambda n: n % 2 == 0, lambda n: -n),
    "float_values": (lambda n: n > 0, [1.5, -1.5]),
    "empty_values": (lambda n: n > 0, []),
    "int_mask": (lambda n: (n > 0).astype(np.int8), [7]),
}


@pytest.mark.parametrize("layout", ["contiguous", "fortran", "strided"])
@pytest.mark.parametrize("name", PUTMASK_CASES)
def test_putmask(device, name, layout):
    """a.flat[i] = values.flat[i % values.size] where mask.flat[i] (values are indexed by
    position, not by selection order as in place)."""
    mask_of, values = PUTMASK_CASES[name]
    nbase, tbase, n, t = make((3, 4), np.int32, layout)
    mask = mask_of(n)
    values = values(n) if callable(values) else values
    same_in_place(lambda: np.putmask(n, mask, values),
                  lambda: tp.putmask(t, to_tp(mask), to_tp(values)), nbase, tbase)


# Masks are compared with the array by size, not shape; place needs values when the mask
# selects anything (ValueError).
MASK_CASES = {
    "other_shape_same_size": (np.ones((4, 3), bool), [1]),
    "flat_same_size": (np.arange(12) % 5 == 0, [1, 2]),
    "other_size": (np.ones(3, bool), [1]),
    "empty_values": (np.ones((3, 4), bool), []),
}


@pytest.mark.parametrize("name", MASK_CASES)
@pytest.mark.parametrize("function", ["place", "putmask"])
def test_mask_shapes(device, function, name):
    mask, values = MASK_CASES[name]
    n = data((3, 4), np.int32)
    t = tp.array(n)
    same_in_place(lambda: getattr(np, function)(n, mask, values),
                  lambda: getattr(tp, function)(t, tp.array(mask), values), n, t)


@pytest.mark.parametrize("function", ["place", "putmask"])
def test_in_place_requires_array(device, function):
    """Writing into a list: TypeError."""
    same_call(function, [1, 2, 3], [True, False, True], [0])


# --------------------------------------------------------------------------------------------
# nonzero, flatnonzero, argwhere, where(cond)

NONZERO_FORMS = {
    "nonzero": (np.nonzero, tp.nonzero),
    "flatnonzero": (np.flatnonzero, tp.flatnonzero),
    "argwhere": (np.argwhere, tp.argwhere),
    "where": (np.where, tp.where),
    "ndarray.nonzero": (np.ndarray.nonzero, tp.ndarray.nonzero),
}


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("form", NONZERO_FORMS)
def test_nonzero_forms(device, form, dtype):
    """Every dtype and shape; 0-d arrays: nonzero and where(cond) raise ValueError,
    argwhere gives (1, 0) or (0, 0), flatnonzero [0] or []."""
    np_call, tp_call = NONZERO_FORMS[form]
    for shape in [(), (7,), (3, 4), (2, 3, 5), (0, 3), (3, 0, 2)]:
        n = data(shape, dtype)
        outcome_like_numpy(lambda: np_call(n), lambda: tp_call(tp.array(n)), assert_like,
                           raises_like)
    for n in (np.array(0, dtype), np.zeros((2, 2), dtype)):
        outcome_like_numpy(lambda: np_call(n), lambda: tp_call(tp.array(n)), assert_like,
                           raises_like)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("form", ["argwhere", "where"])
def test_nonzero_layouts(device, form, layout):
    np_call, tp_call = NONZERO_FORMS[form]
    _, _, n, t = make((4, 5, 6), np.bool_, layout)
    outcome_like_numpy(lambda: np_call(n), lambda: tp_call(t), assert_like, raises_like)


@pytest.mark.parametrize("form", ["nonzero", "flatnonzero", "argwhere", "where"])
def test_nonzero_lists(device, form):
    """Python lists and scalars as input: converted as NumPy converts them."""
    for x in ([[0, 1.5], [-0.0, np.nan]], [True, False, True], [], 3):
        same_call(form, x)


# --------------------------------------------------------------------------------------------
# select


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_select_dtypes(device, dtype):
    """The default 0 is a Python scalar: it does not widen the choices' dtype."""
    x = data((3, 4), np.float64)
    conds = [x > 5, x < -5, x > 0]
    choices = [data((3, 4), dtype, seed=s) for s in (1, 2, 3)]
    same_call("select", conds, choices)
    same_call("select", conds, choices, default=data((), dtype, seed=4))


SELECT_CASES = {
    # the first condition that holds wins
    "overlapping": ([[True, True, False], [True, False, True]], [1, 2], -1),
    "broadcast": ([np.array([[True], [False]]), np.array([False, True, True])],
                  [np.arange(3), np.array([[10], [20]])], np.array(-1)),
    "scalar_choices": ([np.array([True, False, False]), np.array([False, True, False])],
                       [1.5, 2], 0),
    "default_array": ([np.array([True, False, False])], [np.arange(3)], np.array([7, 8, 9])),
    "default_list": ([np.array([True, False])], [np.array([1, 2])], [7, 8]),
    "promotion": ([np.array([True, False])], [np.array([1, 2], np.int8)], 2.5),
    "promotion_arrays": ([np.array([True, False])], [np.array([1, 2], np.int8)],
                         np.array([3, 4], np.uint16)),
    "complex_default": ([np.array([True, False])], [np.array([1, 2], np.float32)], 1j),
    "bool_choices": ([np.array([True, False])], [np.array([True, True])], False),
    "empty": ([np.zeros(0, bool)], [np.zeros(0, np.float32)], 0),
    "0d": ([np.array(False), np.array(True)], [np.array(1), np.array(2)], 3),
    # errors
    "lengths_differ": ([np.array([True])], [1, 2], 0),
    "nothing": ([], [], 0),
    "int_condition": ([np.array([1, 0])], [np.array([1, 2])], 0),
    "not_broadcastable": ([np.array([True, False])], [np.arange(3)], 0),
}


@pytest.mark.parametrize("name", SELECT_CASES)
def test_select(device, name):
    conds, choices, default = SELECT_CASES[name]
    same_call("select", conds, choices, default=default)


# --------------------------------------------------------------------------------------------
# searchsorted


@pytest.mark.parametrize("side", ["left", "right"])
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_searchsorted_dtypes(device, dtype, side):
    """Values between, equal to (duplicates: the side decides) and outside the sorted array."""
    a = np.sort(np.concatenate([data((9,), dtype), data((3,), dtype)[:2]]))
    v = np.concatenate([data((6,), dtype, seed=1), a[::3]])
    same_call("searchsorted", a, v, side=side)
    same_call("searchsorted", a, v.reshape(2, 5), side=side)
    same_call("searchsorted", a, v[0], side=side)
    same_call("searchsorted", a[:0], v, side=side)


# NaN sorts last, after +inf; complex values order lexicographically with NaN parts last.
NAN_CASES = {
    "float": (np.array([-INF, -1.0, 0.0, 2.0, INF, NAN, NAN]),
              np.array([NAN, 2.0, INF, -INF, 0.0])),
    "float16": (np.array([-1, 0, 1, NAN], np.float16), np.array([NAN, 1, 5], np.float16)),
    "float32": (np.array([0, INF, NAN, NAN], np.float32), np.array([INF, NAN, -0.0], np.float32)),
    "signed_zeros": (np.array([-1.0, -0.0, 0.0, 1.0]), np.array([0.0, -0.0])),
    "complex": (np.array([1 + 1j, 1 + 2j, 2 + 0j, complex(2, NAN), complex(NAN, 0)]),
                np.array([complex(2, NAN), complex(NAN, 0), complex(NAN, NAN), 1 + 1.5j, 2 + 5j])),
}


@pytest.mark.parametrize("side", ["left", "right"])
@pytest.mark.parametrize("name", NAN_CASES)
def test_searchsorted_nan(device, name, side):
    a, v = NAN_CASES[name]
    same_call("searchsorted", a, v, side=side)


@pytest.mark.parametrize("side", ["left", "right"])
@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.float32, np.float64, np.complex64],
                         ids=dtype_id)
def test_searchsorted_sorter(device, dtype, side):
    """An unsorted array with the permutation that sorts it, as NumPy and tessera arrays, of
    several integer dtypes, and non-contiguous."""
    a = data((10,), dtype)
    v = data((7,), dtype, seed=1)
    order = np.argsort(a, kind="stable")
    for sorter in (order, order.astype(np.int32), list(order)):
        same_call("searchsorted", a, v, side=side, sorter=sorter)
    big = np.arange(20)
    big[::2] = order
    same_call("searchsorted", a, v, side=side, sorter=big[::2])


# Views of a sorted array: every other element, and an ascending view of a descending array.
SEARCH_LAYOUTS = {
    "strided": lambda m, x: m.sort(x)[::2],
    "negative": lambda m, x: m.sort(x)[::-1].copy()[::-1],
}


@pytest.mark.parametrize("name", SEARCH_LAYOUTS)
def test_searchsorted_layouts(device, name):
    """Non-contiguous sorted arrays and values (transposed, reversed and strided)."""
    view = SEARCH_LAYOUTS[name]
    a = data((21,), np.float64)
    v = data((4, 6), np.float64, seed=2)
    for nv, tv in ((v.T, tp.array(v).T), (v[::-1, ::2], tp.array(v)[::-1, ::2])):
        outcome_like_numpy(lambda: np.searchsorted(view(np, a), nv),
                           lambda: tp.searchsorted(view(tp, tp.array(a)), tv), assert_like,
                           raises_like)


SEARCH_CASES = {
    "int_array_float_values": (np.arange(5), [1.5, -0.5, 4.0, 9]),
    "float_array_int_values": (np.array([0.5, 1.5, 2.5]), [1, 2, 3]),
    "uint8_negative_python_int": (np.arange(5, dtype=np.uint8), -1),
    "uint8_big_python_int": (np.arange(5, dtype=np.uint8), 300),
    "uint8_int8_values": (np.arange(5, dtype=np.uint8), np.array([-1, 3], np.int8)),
    "int64_uint64_values": (np.array([-5, 0, 5]), np.array([2**63, 1], np.uint64)),
    "bool_array": (np.array([False, False, True]), [True, False]),
    "list_array": ([1, 2, 2, 3], [2, 0]),
    "0d_values": (np.arange(5), np.array(3)),
    "empty_values": (np.arange(5), np.zeros((2, 0))),
    "large": (np.arange(0, 200_000, 2), np.arange(-1, 200_001, 7)),
    # errors
    "2d_array": (np.ones((2, 2)), 1),
    "0d_array": (np.array(5), 1),
}


@pytest.mark.parametrize("side", ["left", "right"])
@pytest.mark.parametrize("name", SEARCH_CASES)
def test_searchsorted_cases(device, name, side):
    a, v = SEARCH_CASES[name]
    same_call("searchsorted", a, v, side=side)


@pytest.mark.parametrize("name", ["side_x", "side_R", "sorter_size", "sorter_float",
                                  "sorter_2d"])
def test_searchsorted_errors(device, name):
    """Bad side= and sorter= (a list: accepted on every device, as a parameter); the values
    are an array, so that these errors are checked on every device."""
    a = np.array([3, 1, 2])
    kwargs = {"side_x": {"side": "x"}, "side_R": {"side": "R"},
              "sorter_size": {"sorter": [1, 2]}, "sorter_float": {"sorter": [1.0, 2.0, 0.0]},
              "sorter_2d": {"sorter": [[1, 2, 0]]}}[name]
    same_call("searchsorted", a, np.array([2]), **kwargs)


# --------------------------------------------------------------------------------------------
# indices, ix_


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("dtype", [int, np.int8, np.uint16, np.float32, np.complex64],
                         ids=dtype_id)
@pytest.mark.parametrize("dims", [(), (0,), (3,), (2, 3), (2, 0, 3), (2, 3, 4)], ids=compact_id)
def test_indices(device, dims, dtype, sparse):
    same_call("indices", dims, dtype=dtype, sparse=sparse)


IX_CASES = {
    "two": ([0, 2], [1, 0, 3]),
    "three": ([1], np.array([0, 1], np.int8), [2, 2, 0]),
    "bool": ([True, False, True], [0, 1]),
    "bool_array": (np.array([False, True]),),
    "uint16": (np.array([3, 1], np.uint16),),
    "float": ([1.5, 2.0],),
    "empty_list": ([], [1]),
    "empty_int8": (np.array([], np.int8),),
    "none": (),
    # errors
    "2d": ([[0, 1]],),
    "0d": (np.array(1),),
}


@pytest.mark.parametrize("name", IX_CASES)
def test_ix_(device, name):
    """Open meshes: dtypes kept (booleans become their non-zero positions, empty lists
    intp); multi-dimensional sequences raise ValueError."""
    same_call("ix_", *IX_CASES[name])


def test_ix_indexes_like_numpy(device):
    n = data((4, 5), np.float32)
    key = np.ix_([3, 0], [True, False, True, True, False])
    assert_same(tp.array(n)[tp.ix_([3, 0], [True, False, True, True, False])], n[key])


# --------------------------------------------------------------------------------------------
# unravel_index, ravel_multi_index

UNRAVEL_INDICES = {
    "int": 5,
    "list": [0, 5, 11],
    "2d": np.array([[3], [7]]),
    "int8": np.array([1, 2], np.int8),
    "empty_array": np.array([], np.intp),
    # errors
    "out_of_bounds": [12],
    "negative": [-1],
    "float": [1.0],
}


@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("shape", [12, (3, 4), (2, 3, 2), (12,), (1, 12, 1), (3, 0)],
                         ids=compact_id)
@pytest.mark.parametrize("name", UNRAVEL_INDICES)
def test_unravel_index(device, name, shape, order):
    same_call("unravel_index", UNRAVEL_INDICES[name], shape, order=order)


UNRAVEL_ERRORS = {
    "order_K": ((1, (2, 3)), {"order": "K"}),
    "shape_0d": ((0, ()), {}),
    "shape_float": ((1, (2.0, 3)), {}),
    "shape_negative": ((1, (-2, 3)), {}),
    # NumPy infers float64 for an empty list, and refuses it as indices (TypeError)
    "empty_list": (([], (3, 4)), {}),
}


@pytest.mark.parametrize("name", UNRAVEL_ERRORS)
def test_unravel_index_errors(device, name):
    args, kwargs = UNRAVEL_ERRORS[name]
    same_call("unravel_index", *args, **kwargs)


RAVEL_CASES = {
    "lists": (([0, 1, 2], [3, 0, 1]), (3, 4)),
    "ints": ((1, 2), (3, 4)),
    "2d": ((np.array([[0], [2]]), np.array([[1, 3]])), (3, 4)),
    "three": (([1, 0], [2, 2], [0, 4]), (2, 3, 5)),
    "one": (([4, 0],), (5,)),
    "int8": ((np.array([1], np.int8), np.array([2], np.int8)), (3, 4)),
    "out_of_bounds": (([0, 3], [3, -1]), (3, 4)),
    "far_out": (([-7, 10], [9, -13]), (3, 4)),
    # errors
    "length_mismatch": (([0], [1], [2]), (3, 4)),
    "float": (([0.0], [1]), (3, 4)),
    "not_broadcastable": (([0, 1], [0, 1, 2]), (3, 4)),
}


@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("mode", MODES + [("wrap", "clip")])
@pytest.mark.parametrize("name", RAVEL_CASES)
def test_ravel_multi_index(device, name, mode, order):
    """Coordinates out of bounds: ValueError under 'raise', wrapped or clipped otherwise (one
    mode per axis when a tuple)."""
    multi, dims = RAVEL_CASES[name]
    if isinstance(mode, tuple):
        mode = tuple(mode[i % 2] for i in range(len(dims)))
    same_call("ravel_multi_index", multi, dims, mode=mode, order=order)


def test_ravel_unravel_round_trip(device):
    """unravel_index then ravel_multi_index gives the flat indices back, in either order."""
    flat = np.arange(24)[::-5]
    for order in ("C", "F"):
        coords = tp.unravel_index(tp.array(flat), (2, 3, 4), order=order)
        assert_same(tp.ravel_multi_index(coords, (2, 3, 4), order=order), flat)


# --------------------------------------------------------------------------------------------
# diag_indices, tril_indices, triu_indices and their _from forms


@pytest.mark.parametrize("ndim", [1, 2, 3])
@pytest.mark.parametrize("n", [0, 1, 4])
def test_diag_indices(device, n, ndim):
    same_call("diag_indices", n, ndim)


@pytest.mark.parametrize("shape", [(3, 3), (2, 2, 2), (0, 0), (3, 4), (3,), ()], ids=compact_id)
def test_diag_indices_from(device, shape):
    """Square arrays of 2 or more dimensions; others raise ValueError."""
    same_call("diag_indices_from", np.zeros(shape))


@pytest.mark.parametrize("name", ["tril_indices", "triu_indices"])
@pytest.mark.parametrize("m", [None, 0, 2, 6])
@pytest.mark.parametrize("k", [-5, -1, 0, 2, 10])
@pytest.mark.parametrize("n", [0, 1, 4])
def test_triangle_indices(device, name, n, k, m):
    same_call(name, n, k, m)


@pytest.mark.parametrize("k", [-2, 0, 1])
@pytest.mark.parametrize("shape", [(3, 5), (4, 4), (5, 2), (0, 3), (4,), (2, 3, 3)],
                         ids=compact_id)
@pytest.mark.parametrize("name", ["tril_indices_from", "triu_indices_from"])
def test_triangle_indices_from(device, name, shape, k):
    """2-d arrays only: others raise ValueError."""
    same_call(name, np.zeros(shape), k)


def test_index_helpers_index_like_numpy(device):
    """The index tuples select what NumPy's select."""
    n = data((4, 4), np.int32)
    t = tp.array(n)
    assert_same(t[tp.diag_indices_from(t)], n[np.diag_indices_from(n)])
    assert_same(t[tp.tril_indices_from(t, -1)], n[np.tril_indices_from(n, -1)])
    assert_same(t[tp.triu_indices(4, 1)], n[np.triu_indices(4, 1)])


# --------------------------------------------------------------------------------------------
# ndarray methods

METHOD_CALLS = {
    "nonzero": ((), {}),
    "take": (([2, 0, -1],), {"axis": 1}),
    "take_flat_clip": (([20, -3],), {"mode": "clip"}),
    "take_out_of_bounds": (([20],), {}),
    "compress": (([True, False, True],), {"axis": 0}),
    "compress_flat": (([0, 1, 1, 0, 1],), {}),
    "searchsorted": (([0, 1, 5],), {"side": "right"}),
}


@pytest.mark.parametrize("name", METHOD_CALLS)
def test_methods(device, name):
    args, kwargs = METHOD_CALLS[name]
    method = name.split("_")[0]
    n = data((3, 4), np.int16) if method != "searchsorted" else np.arange(6)

    def call(x, *args, **kwargs):
        return getattr(x, method)(*args, **kwargs)

    # the searchsorted values are an operand: refused as a list where host data is
    args, kwargs = device_inputs(f"ndarray.{method}", call, (n,) + args, kwargs)
    targs = to_tp(args)
    outcome_like_numpy(lambda: call(*args, **kwargs), lambda: call(*targs, **kwargs),
                       assert_like, raises_like)


def test_method_choose(device):
    a = np.array([[1, 0], [2, 1]])
    choices = [np.arange(2), np.arange(2) * 10, np.full((2, 1), -1)]
    assert_same(tp.array(a).choose(to_tp(choices)), a.choose(choices))
    assert_same(tp.array(a).choose(to_tp(choices[:2]), mode="wrap"),
                a.choose(choices[:2], mode="wrap"))
    outcome_like_numpy(lambda: a.choose(choices[:2]),
                       lambda: tp.array(a).choose(to_tp(choices[:2])), assert_like, raises_like)


@pytest.mark.parametrize("mode", MODES)
def test_method_put(device, mode):
    n = data((3, 4), np.float32)
    t = tp.array(n)
    same_in_place(lambda: n.put([0, 13, -1], [9.5, 8.5], mode=mode),
                  lambda: t.put([0, 13, -1], [9.5, 8.5], mode=mode), n, t)
