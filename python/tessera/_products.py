"""Matrix and tensor products: matmul and the @ operator, dot, vdot, inner, tensordot,
vecdot, einsum and einsum_path. Every contraction ends in one matmul, which the backend
hands to its BLAS (integer and bool ones to its own loop), so sums of products never
store the broadcast product."""

import builtins
import math
import operator

import numpy as np

from . import _core
from ._core import ndarray
from . import _elementwise
from ._creation import operand
from ._elementwise import conjugate, multiply
from ._errstate import errstate
from ._joining import _axis
from ._manipulation import broadcast_to, moveaxis


def _as_axes_pair(api, axes, ndim):
    """One operand's two core axes of matmul's axes= argument."""
    try:
        pair = tuple(operator.index(v) for v in axes)
    except TypeError:
        raise TypeError(f"[{api}] axes item must be a tuple of ints, got {axes!r}") from None
    if len(pair) != builtins.min(ndim, 2):
        raise ValueError(f"[{api}] axes item {axes!r} must have {builtins.min(ndim, 2)} "
                         f"entries for an operand of {ndim} dimensions")
    return pair


def _into(result, out):
    """result, or out holding it."""
    if out is None:
        return result
    out[...] = result
    return out


def matmul(x1, x2, /, out=None, *, casting="same_kind", order="K", dtype=None, subok=True,
           signature=None, axes=None, axis=None):
    """The matrix product, as numpy.matmul: stacks of matrices broadcast together, and a
    1-d operand is a vector (its added axis is removed from the result)."""
    if isinstance(out, tuple):
        if len(out) != 1:
            raise ValueError("[matmul] The 'out' tuple must have exactly one entry")
        out = out[0]
    if out is not None and not isinstance(out, ndarray):
        raise TypeError(f"[matmul] return arrays must be of ArrayType (tessera.ndarray), "
                        f"got {type(out).__name__}")
    if signature is not None:
        raise NotImplementedError("[matmul] signature= is not supported; use dtype=")
    a, b = operand(x1), operand(x2)
    if axis is not None:
        axes = [(axis,), (axis,), ()]
    if axes is None:
        return _core._matmul(a, b, dtype, out, casting)
    if len(axes) != 3:
        raise ValueError(f"[matmul] axes must be a list of 3 tuples, got {axes!r}")
    a = moveaxis(a, _as_axes_pair("matmul", axes[0], a.ndim), (-2, -1)[2 - builtins.min(a.ndim, 2):])
    b = moveaxis(b, _as_axes_pair("matmul", axes[1], b.ndim), (-2, -1)[2 - builtins.min(b.ndim, 2):])
    result = _core._matmul(a, b, dtype, None, casting)
    if result.ndim:
        core = _as_axes_pair("matmul", axes[2], builtins.min(result.ndim, 2)) if axes[2] else ()
        result = moveaxis(result, (-2, -1)[2 - len(core):], core) if core else result
    return _into(result, out)


# Operands the @ operator takes; for others Python tries the other operand's method.
_OPERANDS = (ndarray, np.ndarray, np.generic, list, tuple, int, float, complex)


def _matmul_operator(self, other):
    if not isinstance(other, _OPERANDS):
        return NotImplemented
    return matmul(self, other)


def _rmatmul_operator(self, other):
    if not isinstance(other, _OPERANDS):
        return NotImplemented
    return matmul(other, self)


def _imatmul_operator(self, other):
    """a @= b writes into a, as NumPy does, when the product has a's shape."""
    if not isinstance(other, _OPERANDS):
        return NotImplemented
    result = matmul(self, other)
    if not np.can_cast(result.dtype, self.dtype, "same_kind"):
        raise TypeError(f"[matmul] Cannot cast ufunc 'matmul' output from {result.dtype!r} to "
                        f"{self.dtype!r} with casting rule 'same_kind'")
    if result.shape != self.shape:
        raise ValueError(f"[matmul] a @= b needs a result of a's shape {self.shape}; "
                         f"the product has shape {result.shape}")
    self[...] = result
    return self


def dot(a, b, out=None):
    """numpy.dot: a product for 0-d operands, matmul when b has at most 2 dimensions, else
    the sum over a's last axis and b's second-to-last."""
    a, b = operand(a), operand(b)
    if a.ndim == 0 or b.ndim == 0:
        result = multiply(a, b)
    elif b.ndim <= 2:
        result = _core._matmul(a, b, None, None, "same_kind")
    else:
        result = tensordot(a, b, axes=([a.ndim - 1], [b.ndim - 2]))
    if out is None:
        return result
    if (not isinstance(out, ndarray) or out.dtype != result.dtype
            or out.shape != result.shape or not out.flags.c_contiguous):
        raise ValueError("[dot] output array is not acceptable (must have the right datatype, "
                         f"number of dimensions, and be a C-Array): the result has shape "
                         f"{result.shape} and dtype {result.dtype}")
    return _into(result, out)


# NumPy's vdot and einsum loops never check the floating-point status: they report nothing.
@errstate(all="ignore")
def vdot(a, b, /):
    """The dot product of the flattened arrays, conjugating the first."""
    a, b = operand(a).ravel(), operand(b).ravel()
    if a.size != b.size:
        raise ValueError(f"[vdot] vectors have different lengths: {a.size} and {b.size}")
    if a.dtype.kind == "c":
        a = conjugate(a)
    return _core._matmul(a, b, None, None, "same_kind")


def inner(a, b, /):
    """The sum over the last axes of a and b of their products (0-d operands multiply)."""
    a, b = operand(a), operand(b)
    if a.ndim == 0 or b.ndim == 0:
        return multiply(a, b)
    if a.shape[-1] != b.shape[-1]:
        raise ValueError(f"[inner] shapes {a.shape} and {b.shape} not aligned: {a.shape[-1]} "
                         f"(dim {a.ndim - 1}) != {b.shape[-1]} (dim {b.ndim - 1})")
    return tensordot(a, b, axes=([a.ndim - 1], [b.ndim - 1]))


def _tensordot_axes(axes):
    """axes= as two lists: an int n names a's last n axes and b's first n."""
    try:
        n = operator.index(axes)
    except TypeError:
        try:
            axes_a, axes_b = axes
        except (TypeError, ValueError):
            raise TypeError(f"[tensordot] axes must be an int or a pair of sequences, "
                            f"got {axes!r}") from None
        as_list = (lambda v: [operator.index(v)] if np.ndim(v) == 0
                   else [operator.index(x) for x in v])
        return as_list(axes_a), as_list(axes_b)
    return list(range(-n, 0)), list(range(n))


def tensordot(a, b, axes=2):
    """The sum of products over the given axes of a and b: the contracted axes are moved
    together, both operands become matrices, and one matmul does the sum."""
    a, b = operand(a), operand(b)
    axes_a, axes_b = _tensordot_axes(axes)
    if isinstance(axes, int) and axes < 0:
        raise ValueError(f"[tensordot] axes must be non-negative, got {axes}")
    if len(axes_a) != len(axes_b):
        raise ValueError(f"[tensordot] shape-mismatch for sum: {len(axes_a)} axes of a and "
                         f"{len(axes_b)} of b")
    # AxisError is an IndexError, as NumPy's tensordot raises for a bad axis.
    axes_a = [_axis("tensordot", x, a.ndim) for x in axes_a]
    axes_b = [_axis("tensordot", x, b.ndim) for x in axes_b]
    for x, y in zip(axes_a, axes_b):
        if a.shape[x] != b.shape[y]:
            raise ValueError(f"[tensordot] shape-mismatch for sum: axis {x} of a has length "
                             f"{a.shape[x]}, axis {y} of b has {b.shape[y]}")
    if len(set(axes_a)) != len(axes_a) or len(set(axes_b)) != len(axes_b):
        raise ValueError("[tensordot] repeated axis in the contraction")
    free_a = [i for i in range(a.ndim) if i not in axes_a]
    free_b = [i for i in range(b.ndim) if i not in axes_b]
    summed = 1
    for x in axes_a:
        summed *= a.shape[x]
    left = a.transpose(free_a + axes_a).reshape(
        (math.prod(a.shape[i] for i in free_a), summed))
    right = b.transpose(axes_b + free_b).reshape(
        (summed, math.prod(b.shape[i] for i in free_b)))
    result = _core._matmul(left, right, None, None, "same_kind")
    return result.reshape(tuple(a.shape[i] for i in free_a) + tuple(b.shape[i] for i in free_b))


def vecdot(x1, x2, /, *, axis=-1, out=None, dtype=None):
    """The dot product of vectors along `axis`, conjugating x1, broadcast over the rest."""
    a, b = operand(x1), operand(x2)
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError("[vecdot] Input operand does not have enough dimensions (has 0, "
                         "gufunc core with signature (n),(n)->() requires 1)")
    a, b = moveaxis(a, axis, -1), moveaxis(b, axis, -1)
    if a.shape[-1] != b.shape[-1]:
        raise ValueError(f"[vecdot] Input operand 1 has a mismatch in its core dimension 0 "
                         f"(size {b.shape[-1]} is different from {a.shape[-1]})")
    if a.dtype.kind == "c":
        a = conjugate(a)
    result = _core._matmul(a[..., None, :], b[..., :, None], dtype, None, "same_kind")
    return _into(result[..., 0, 0], out)


def matvec(x1, x2, /, *, out=None, dtype=None):
    """The matrix-vector product over the last axes, broadcast over the rest."""
    a, b = operand(x1), operand(x2)
    if a.ndim < 2 or b.ndim < 1:
        raise ValueError("[matvec] Input operand does not have enough dimensions (gufunc core "
                         "with signature (m,n),(n)->(m) requires 2 and 1)")
    return _into(_core._matmul(a, b[..., :, None], dtype, None, "same_kind")[..., 0], out)


def vecmat(x1, x2, /, *, out=None, dtype=None):
    """The vector-matrix product over the last axes, conjugating the vector."""
    a, b = operand(x1), operand(x2)
    if a.ndim < 1 or b.ndim < 2:
        raise ValueError("[vecmat] Input operand does not have enough dimensions (gufunc core "
                         "with signature (n),(n,m)->(m) requires 1 and 2)")
    if a.dtype.kind == "c":
        a = conjugate(a)
    return _into(_core._matmul(a[..., None, :], b, dtype, None, "same_kind")[..., 0, :], out)


# einsum: subscripts are parsed here; the order of the pairwise contractions is NumPy's own
# einsum_path (computed from the shapes alone, on zero-stride NumPy stand-ins), and each
# contraction is one tensordot-style matmul over the shared labels.

def _interleaved(operands):
    """einsum(a, [0, 1], b, [1, 2], [0, 2]) as a subscripts string and the arrays."""
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

    def label(v):
        if v is Ellipsis:
            return "..."
        try:
            return letters[operator.index(v)]
        except (TypeError, IndexError):
            raise ValueError(f"[einsum] subscript {v!r} is not an int in [0, 52)") from None

    arrays, terms = list(operands[0::2]), list(operands[1::2])
    output = None
    if len(arrays) == len(terms) + 1:
        output = arrays.pop()
        output = "".join(label(v) for v in output)
    subscripts = ",".join("".join(label(v) for v in t) for t in terms)
    if output is not None:
        subscripts += "->" + output
    return subscripts, arrays


def _parse_subscripts(subscripts, shapes):
    """The input label strings and the output one, with each '...' replaced by labels of
    its own (characters outside a-zA-Z) for the broadcast axes it stands for."""
    subscripts = subscripts.replace(" ", "")
    if "->" in subscripts:
        inputs, output = subscripts.split("->")
        if "->" in output or "-" in output or ">" in output:
            raise ValueError("[einsum] subscripts may contain '->' only once")
    else:
        inputs, output = subscripts, None
    terms = inputs.split(",")
    if len(terms) != len(shapes):
        raise ValueError(f"[einsum] {len(terms)} subscript terms for {len(shapes)} operands")
    ellipsis_ndim = 0
    for term, shape in zip(terms, shapes):
        named = len(term.replace("...", ""))
        if "..." in term:
            ellipsis_ndim = builtins.max(ellipsis_ndim, len(shape) - named)
    broadcast_labels = "".join(chr(0x100 + i) for i in range(ellipsis_ndim))
    expanded = []
    for term, shape in zip(terms, shapes):
        bare = term.replace("...", "")
        if term.count("...") > 1 or "." in bare:
            raise ValueError(f"[einsum] invalid ellipsis in subscripts {term!r}")
        for c in bare:
            if not c.isalpha() or not c.isascii():
                raise ValueError(f"[einsum] invalid subscript {c!r} in einstein sum "
                                 "subscripts string, subscripts must be letters")
        if "..." in term:
            n = len(shape) - len(bare)
            if n < 0:
                raise ValueError(f"[einsum] operand has more dimensions than subscripts "
                                 f"given in einstein sum, {term!r} for shape {shape}")
            term = term.replace("...", broadcast_labels[ellipsis_ndim - n:])
        elif len(term) != len(shape):
            raise ValueError(f"[einsum] operand has {len(shape)} dimensions but the "
                             f"subscripts {term!r} name {len(term)}")
        expanded.append(term)
    if output is None:
        counts = {}
        for term in expanded:
            for c in term:
                counts[c] = counts.get(c, 0) + 1
        output = broadcast_labels + "".join(
            sorted(c for c, n in counts.items() if n == 1 and c not in broadcast_labels))
    else:
        if output.count("...") > 1:
            raise ValueError("[einsum] output subscript has more than one ellipsis")
        bare = output.replace("...", "")
        if "..." not in output and ellipsis_ndim and broadcast_labels:
            output = bare  # the broadcast axes are summed
        output = output.replace("...", broadcast_labels)
        seen = set()
        for c in bare:
            if c in seen:
                raise ValueError(f"[einsum] output subscript {c!r} appears more than once")
            seen.add(c)
            if not any(c in t for t in expanded):
                raise ValueError(f"[einsum] output subscript {c!r} does not appear in the "
                                 "input subscripts")
    return expanded, output


def _take_diagonals(a, labels):
    """An operand whose labels repeat (a[i, i]) as its diagonal view, labels unique."""
    while True:
        for i, c in enumerate(labels):
            j = labels.find(c, i + 1)
            if j >= 0:
                break
        else:
            return a, labels
        if a.shape[i] != a.shape[j]:
            raise ValueError(f"[einsum] dimensions in operand for collapsing index '{c}' "
                             f"don't match ({a.shape[i]} != {a.shape[j]})")
        a = a.diagonal(0, i, j)
        labels = labels[:i] + labels[i + 1:j] + labels[j + 1:] + c


def _contract(a, la, b, lb, keep):
    """a and b with labels la and lb, summed over the shared labels not in `keep`."""
    shared = [c for c in la if c in lb]
    batch = [c for c in shared if c in keep]
    summed = [c for c in shared if c not in keep]
    left = [c for c in la if c not in lb]
    right = [c for c in lb if c not in la]
    size = {}  # each label's length: the one that is not a broadcast 1
    for labels, x in ((la, a), (lb, b)):
        for c, n in zip(labels, x.shape):
            if n != 1 or c not in size:
                size[c] = n
    for c in batch + summed:
        na, nb = a.shape[la.index(c)], b.shape[lb.index(c)]
        if na != nb and 1 not in (na, nb):
            raise ValueError(f"[einsum] operands could not be broadcast together: label "
                             f"'{c}' has sizes {na} and {nb}")
    order_a = batch + left + summed
    order_b = batch + summed + right
    a = a.transpose([la.index(c) for c in order_a])
    b = b.transpose([lb.index(c) for c in order_b])
    a = broadcast_to(a, tuple(size[c] for c in batch) + a.shape[len(batch):len(batch) + len(left)]
                     + tuple(size[c] for c in summed))
    b = broadcast_to(b, tuple(size[c] for c in batch) + tuple(size[c] for c in summed)
                     + b.shape[len(batch) + len(summed):])
    bshape = tuple(size[c] for c in batch)
    m = math.prod(a.shape[len(batch):len(batch) + len(left)])
    k = math.prod(size[c] for c in summed)
    n = math.prod(b.shape[len(batch) + len(summed):])
    product = _core._matmul(a.reshape(bshape + (m, k)), b.reshape(bshape + (k, n)), None, None,
                            "same_kind")
    shape = bshape + a.shape[len(batch):len(batch) + len(left)] + b.shape[len(batch) + len(summed):]
    return product.reshape(shape), "".join(batch + left + right)


def _stand_in(a):
    """A NumPy array of a's shape and dtype that occupies no memory."""
    return np.broadcast_to(np.zeros((), a.dtype), a.shape)


def einsum_path(*operands, optimize="greedy", einsum_call=False):
    """NumPy's contraction order for these operands (it depends only on their shapes)."""
    if einsum_call:
        raise NotImplementedError("[einsum_path] einsum_call= is internal to NumPy")
    subscripts, arrays = _einsum_operands(operands)
    try:
        return np.einsum_path(subscripts, *[_stand_in(a) for a in arrays], optimize=optimize)
    except (ValueError, TypeError, KeyError) as error:
        raise type(error)(f"[einsum_path] {error}") from None


def _einsum_operands(operands):
    if not operands:
        raise ValueError("[einsum] No input operands")
    if isinstance(operands[0], str):
        return operands[0], [operand(a) for a in operands[1:]]
    subscripts, arrays = _interleaved(operands)
    return subscripts, [operand(a) for a in arrays]


@errstate(all="ignore")
def einsum(*operands, out=None, dtype=None, order="K", casting="safe", optimize=False):
    """The Einstein summation over the given subscripts."""
    subscripts, arrays = _einsum_operands(operands)
    terms, output = _parse_subscripts(subscripts, [a.shape for a in arrays])
    if len(arrays) == 1 and out is None and set(terms[0]) == set(output):
        # Nothing is summed: NumPy returns a view (transposed, diagonal) of the operand and
        # ignores dtype= and casting=.
        view, labels = _take_diagonals(arrays[0], terms[0])
        view._writeable = arrays[0]._writeable  # a diagonal too, unlike ndarray.diagonal's
        return view.transpose([labels.index(c) for c in output]) if labels else view
    if dtype is not None:
        result_dtype = np.dtype(dtype)
    elif out is not None and optimize is False:
        # NumPy's direct loop accumulates in the output's dtype.
        result_dtype = np.result_type(*[a.dtype for a in arrays], out.dtype)
    else:
        result_dtype = np.result_type(*[a.dtype for a in arrays])
    if dtype is not None:
        for a in arrays:
            if not np.can_cast(a.dtype, result_dtype, casting):
                raise TypeError(f"[einsum] Cannot cast array data from {a.dtype!r} to "
                                f"{result_dtype!r} according to the rule {casting!r}")
    arrays = [a if a.dtype == result_dtype else a.astype(result_dtype) for a in arrays]
    labelled = [_take_diagonals(a, t) for a, t in zip(arrays, terms)]

    if optimize is not False and len(labelled) > 2:
        path = np.einsum_path(_letters(terms, output), *[_stand_in(a) for a in arrays],
                              optimize=optimize)[0][1:]
    else:
        path = [(0, 1)] * (len(labelled) - 1)

    def needed(skip):
        return set(output).union(*(t for i, (_, t) in enumerate(labelled) if i not in skip))

    labelled = [_sum_unshared(a, t, needed({i})) for i, (a, t) in enumerate(labelled)]
    for step in path:
        group = sorted(step)
        others = set(output).union(*(t for k, (_, t) in enumerate(labelled) if k not in group))
        a, la = labelled[group[0]]
        for r, k in enumerate(group[1:], start=1):
            later = set().union(*(labelled[q][1] for q in group[r + 1:]))
            b, lb = labelled[k]
            a, la = _contract(a, la, b, lb, others | later)
        labelled = [x for k, x in enumerate(labelled) if k not in group] + [(a, la)]
    result, labels = labelled[0]
    result, labels = _sum_unshared(result, labels, set(output))
    result = result.transpose([labels.index(c) for c in output]) if labels else result
    if result.dtype != result_dtype:
        result = result.astype(result_dtype)
    if out is not None and not np.can_cast(result_dtype, out.dtype, casting):
        raise TypeError(f"[einsum] Cannot cast the result from {result_dtype!r} to "
                        f"{out.dtype!r} according to the rule {casting!r}")
    return _into(result, out)


def _letters(terms, output):
    """The subscripts with every label (the broadcast axes' private ones too) renamed to a
    letter, for NumPy's einsum_path."""
    names = {}
    for c in "".join(terms) + output:
        names.setdefault(c, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"[len(names)])
    rename = lambda t: "".join(names[c] for c in t)  # noqa: E731
    return ",".join(rename(t) for t in terms) + "->" + rename(output)


def _sum_unshared(a, labels, needed):
    """Sums away the axes whose labels no other operand or the output needs."""
    gone = [i for i, c in enumerate(labels) if c not in needed]
    if not gone:
        return a, labels
    return a.sum(axis=tuple(gone)), "".join(c for c in labels if c in needed)


_elementwise._GUFUNCS.update(matmul=matmul, vecdot=vecdot, matvec=matvec, vecmat=vecmat)
for _name, _method in (("__matmul__", _matmul_operator), ("__rmatmul__", _rmatmul_operator),
                       ("__imatmul__", _imatmul_operator)):
    setattr(ndarray, _name, _method)
ndarray.dot = lambda self, b, out=None: dot(self, b, out)
