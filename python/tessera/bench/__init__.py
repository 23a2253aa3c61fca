"""tessera's benchmark suite: each case checks its result against NumPy, then times
tessera and NumPy interleaved in one process and reports NumPy's time over tessera's.

Run it with ``make bench`` or ``python -m tessera.bench [--quick] [--cases PATTERN]``.
"""
