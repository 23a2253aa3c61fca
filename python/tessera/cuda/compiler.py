"""Kernel compilation errors (CuPy's ``cupy.cuda.compiler.CompileException``)."""


class CompileException(Exception):
    """NVRTC (or, on the simulator, the host compiler) rejected a kernel's source. The
    message holds the compiler's log and the source lines its errors point at."""

    def __init__(self, message, log="", source=""):
        super().__init__(message)
        self.log = log
        self.source = source

    def __str__(self):
        return self.args[0]
