"""Triangles, diagonals, traces and grids: tri, tril, triu, diag, diagflat, diagonal,
trace and meshgrid. Masks are elementwise trees and diagonals are views, so everything
runs on the array's device."""

import builtins

from ._convert import INT64_MAX, INT64_MIN, c_long, dimension, index, range_length
from ._core import ndarray
from ._creation import arange, operand, zeros
from ._elementwise import greater_equal, subtract, where
from ._manipulation import broadcast_shapes, broadcast_to


def _offset(api, k, columns):
    """The offset k of a triangle mask with `columns` columns (triu's is its k - 1). NumPy
    builds the mask's columns as arange(-k, columns - k) of int64, which converts its first
    value and, from two columns on, its second: OverflowError where one is past int64.
    (Its later values then wrap around, for an offset just above -2**63; tessera's mask
    stays the true one, all zeros.)"""
    converted = (-k, -k + 1)[:builtins.min(columns, 2)]
    if not builtins.all(INT64_MIN <= value <= INT64_MAX for value in converted):
        raise OverflowError(f"[{api}] k: the mask's column offsets from -k are outside int64 "
                            "(Python int too large to convert to C long)")
    return k


def tri(N, M=None, k=0, dtype=float, *, device=None):
    """Ones at and below the k-th diagonal of an (N, M) array, zeros above."""
    N = range_length(N, "tri", "N")
    M = N if M is None else range_length(M, "tri", "M")
    k = _offset("tri", index(k, "tri", "k"), M)
    # A diagonal past the edge gives all ones or all zeros (clamped to fit the engine's int64).
    k = builtins.max(-N - 1, builtins.min(k, M + 1))
    mask = greater_equal(arange(N, device=device).reshape(N, 1),
                         subtract(arange(M, device=device), k).reshape(1, M))
    return mask.astype(dtype)


def _triangle_mask(m, k):
    n, cols = m.shape[-2:]
    return tri(n, cols, k, dtype=bool, device=m.device)


def tril(m, k=0):
    """m with the elements above the k-th diagonal zeroed (over the last two axes)."""
    m = operand(m)
    if m.ndim < 2:
        m = broadcast_to(m, (m.shape[0], m.shape[0]) if m.ndim else (1, 1))
    k = _offset("tril", index(k, "tril", "k"), m.shape[-1])
    return where(_triangle_mask(m, k), m, zeros(1, dtype=m.dtype))


def triu(m, k=0):
    """m with the elements below the k-th diagonal zeroed (over the last two axes)."""
    m = operand(m)
    if m.ndim < 2:
        m = broadcast_to(m, (m.shape[0], m.shape[0]) if m.ndim else (1, 1))
    k = _offset("triu", index(k, "triu", "k") - 1, m.shape[-1])
    return where(_triangle_mask(m, k), zeros(1, dtype=m.dtype), m)


def _diagonal(api, a, offset, axis1, axis2):
    # Checked here (TypeError, OverflowError past int64, as NumPy's) for the engine's
    # int64 arguments.
    offset, axis1, axis2 = (c_long(v, api, name) for v, name in
                            ((offset, "offset"), (axis1, "axis1"), (axis2, "axis2")))
    return operand(a)._diagonal(offset, axis1, axis2)


def diagonal(a, offset=0, axis1=0, axis2=1):
    """The diagonal as a read-only view; its axis is the last."""
    return _diagonal("diagonal", a, offset, axis1, axis2)


def diag(v, k=0):
    """The k-th diagonal of a 2-d array, or a 2-d array with the 1-d v on its k-th diagonal."""
    v = operand(v)
    k = index(k, "diag", "k")
    if v.ndim == 2:
        return _diagonal("diag", v, k, 0, 1)
    if v.ndim != 1:
        raise ValueError("[diag] Input must be 1- or 2-d.")
    return _diagonal_matrix("diag", v, k)


def diagflat(v, k=0):
    """A 2-d array with the flattened v on its k-th diagonal."""
    return _diagonal_matrix("diagflat", operand(v).ravel(), index(k, "diagflat", "k"))


def _diagonal_matrix(api, v, k):
    """A 2-d array with the 1-d v on its k-th diagonal."""
    # NumPy's zeros((n, n)) refuses a dimension past int64, then a size past it in bytes
    # (checked here, so that the error names `api`, not zeros).
    n = dimension(v.shape[0] + abs(k), api, "len(v) + abs(k)")
    if n * n * v.dtype.itemsize > INT64_MAX:
        raise ValueError(f"[{api}] array is too big; shape ({n}, {n}) times the item size "
                         f"{v.dtype.itemsize} is larger than the maximum possible size.")
    out = zeros((n, n), dtype=v.dtype, device=v.device)
    rows = arange(v.shape[0], device=v.device)
    out[(rows, rows + k) if k >= 0 else (rows - k, rows)] = v
    return out


def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    """Sum along the diagonal (summed as sum() would: small integers as int64)."""
    return _diagonal("trace", a, offset, axis1, axis2).sum(-1, dtype=dtype, out=out)


def meshgrid(*xi, copy=True, sparse=False, indexing="xy"):
    """Coordinate arrays from 1-d coordinate vectors ('xy': Cartesian, 'ij': matrix)."""
    if indexing not in ("xy", "ij"):
        raise ValueError("[meshgrid] Valid values for `indexing` are 'xy' and 'ij'.")
    nd = len(xi)
    vectors = [operand(x).ravel() for x in xi]
    shapes = []
    for i, x in enumerate(vectors):
        shape = [1] * nd
        shape[i] = x.size
        shapes.append(shape)
    if indexing == "xy" and nd > 1:
        for shape in shapes:
            shape[0], shape[1] = shape[1], shape[0]
    grids = [x.reshape(tuple(s)) for x, s in zip(vectors, shapes)]
    if not sparse:
        full = broadcast_shapes(*(g.shape for g in grids))
        grids = [broadcast_to(g, full) for g in grids]
    return tuple(g.copy() for g in grids) if copy else tuple(grids)


ndarray.diagonal = lambda self, offset=0, axis1=0, axis2=1: diagonal(self, offset, axis1, axis2)
ndarray.trace = lambda self, offset=0, axis1=0, axis2=1, dtype=None, out=None: trace(
    self, offset, axis1, axis2, dtype, out)
