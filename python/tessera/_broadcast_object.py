"""NumPy's broadcast object: the shape that operands broadcast to, and an iterator over
their elements taken together, position by position in C order."""

import numpy as np

from ._convert import prefixed
from ._creation import operand
from ._manipulation import broadcast_to
from ._ndarray import flatiter

__all__ = ["broadcast"]

# NumPy's limit on the operands of one broadcast object (NPY_MAXARGS).
_MAX_OPERANDS = 64


class _OperandIter(flatiter):
    """One operand's iterator in a broadcast object: a flatiter over the operand broadcast to
    the common shape. (NumPy's flatiter of a broadcast object has the operand itself as its
    base; here base is the broadcast view, so that what it holds is what it iterates.)"""

    def __getitem__(self, key):
        # One element is read at its coordinates: flatiter's reshape(-1) would copy a
        # broadcast view whole for every element.
        if isinstance(key, int) and not isinstance(key, bool):
            return self.base[self._coords_of(key)]
        return super().__getitem__(key)

    def _coords_of(self, position):
        size = self.base.size
        if not -size <= position < size:
            raise IndexError(f"[broadcast] index {position} is out of bounds for an iterator "
                             f"of size {size}")
        return tuple(int(c) for c in np.unravel_index(position % size, self.base.shape))


def _operands(args):
    """The arguments as tessera arrays; a broadcast object stands for its own operands, as
    in NumPy."""
    operands = []
    for arg in args:
        if isinstance(arg, broadcast):
            operands.extend(arg._operands)
        else:
            operands.append(operand(arg))
    return operands


class broadcast:  # noqa: N801  (NumPy's name)
    """NumPy's `broadcast(*args)`: the shape the operands broadcast to (shape, ndim, nd,
    size), one flatiter per operand (iters, numiter), and an iterator yielding, at each
    position in C order, the tuple of the operands' elements there (0-d arrays on their
    devices, as `a.flat` gives them). `index` counts the positions taken; reset() starts
    over."""

    def __init__(self, *args, **kwargs):
        if kwargs:
            raise ValueError(f"[broadcast] keyword arguments not accepted; got "
                             f"{', '.join(map(repr, kwargs))}")
        operands = _operands(args)
        if len(operands) > _MAX_OPERANDS:
            raise ValueError(f"[broadcast] Need at least 0 and at most {_MAX_OPERANDS} array "
                             f"objects; got {len(operands)}")
        try:
            shape = np.broadcast_shapes(*(a.shape for a in operands))
        except ValueError as error:
            raise prefixed("broadcast", error) from None
        self._operands = operands
        self._shape = shape
        self._iters = tuple(_OperandIter(broadcast_to(a, shape)) for a in operands)
        self._index = 0

    @property
    def shape(self):
        return self._shape

    @property
    def ndim(self):
        return len(self._shape)

    @property
    def nd(self):
        """ndim under its older name (NumPy 2 keeps it)."""
        return self.ndim

    @property
    def size(self):
        return int(np.prod(self._shape, dtype=np.int64))

    @property
    def numiter(self):
        return len(self._iters)

    @property
    def iters(self):
        return self._iters

    @property
    def index(self):
        return self._index

    def reset(self):
        """Back to the first position, the operands' iterators too."""
        self._set_index(0)

    def _set_index(self, position):
        self._index = position
        for it in self._iters:
            it.index = position

    def __iter__(self):
        return self

    def __next__(self):
        position = self._index
        if position >= self.size:
            raise StopIteration
        values = tuple(it[position] for it in self._iters)
        self._set_index(position + 1)
        return values
