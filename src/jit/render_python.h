#pragma once
// The C++ renderer of Python functions' typed IR (python/tessera/jit/ir.py, as the text of
// jit/sexpr.h): a function's body becomes C++ that calls the functors of src/kernels/ for
// its arithmetic and math (the same definitions as every other generated kernel), over
// array views and Python's error model of jit/python_runtime.h.
//
// The host entry point takes the arguments as 8-byte words (TsWord, as the CUDA kernels'
// parameters): a scalar one word (a complex two: real, imaginary), an array its data
// address then its shape then its byte strides; it writes the result at `result` and
// returns 0, or the code of the Python exception the function raised (pyjit::Raise).

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tessera::jit {

inline constexpr const char* kPythonEntryName = "ts_python_entry";
// Every module also has `extern "C" void ts_python_bind(ParallelFor, int threads,
// PrintText)` (jit/python_runtime.h), which tessera calls once it has loaded it: the thread
// pool that prange loops run on, and where print() writes.
inline constexpr const char* kPythonBindName = "ts_python_bind";

// The whole translation unit for the host compiler of a module of IR, `(module f1 ... fn)`
// (the functions a function calls come before it): the functors, the runtime, each
// function, and `extern "C" int ts_python_entry(const TsWord* args, void* result)` calling
// the last one. std::invalid_argument for IR it cannot read.
// Python's error model (Numba's default for jit): `/`, `//` and `%` by zero raise
// ZeroDivisionError. NumPy's (jit(error_model='numpy'), vectorize, every CUDA kernel): they
// give inf, nan or 0 as NumPy's ufuncs do.
enum class ErrorModel { kPython, kNumpy };

// fast_math: jit(fastmath=True), Numba's: the compiler may reassociate, contract and assume
// finite values (GCC's -ffast-math and FMA contraction for the whole module).
std::string render_python_host(std::string_view ir_text, ErrorModel errors = ErrorModel::kPython,
                               bool fast_math = false);

// The text every render_python_host translation unit begins with (the headers, the
// functors, the runtime), for fast_math or not: host_function's `prefix`, which the host
// compiler reads precompiled, so that a module's compile parses only its own functions.
const std::string& python_host_prefix(bool fast_math);

// The CUDA kernel `ts_python_kernel` of a module of IR whose last function is a
// `cuda.jit` kernel (it returns nothing): CUDA C++ for NVRTC or the simulator, with the
// functors' text first. The kernel takes each parameter by value — a scalar in its type
// (a complex as its two parts), an array as its view: the data address, then the extent
// and the byte stride of each dimension, 8 bytes each — then the launch's dynamic shared
// memory size (8 bytes). `foreign`, CUDA C++ placed before the module's functions: the
// declarations and definitions of the device functions written in C++ that they call
// (cuda.declare_device, cuda.jit(link=...)).
inline constexpr const char* kPythonKernelName = "ts_python_kernel";
std::string render_python_cuda(std::string_view ir_text, std::string_view foreign = {});

// The runtime CUDA code generated from Python functions needs after the functors
// (jit/python_runtime.h, jit/python_cuda_runtime.h), as text under #line directives.
const std::string& python_cuda_runtime_text();

// Each function of a module of IR as a CUDA `__device__` function, (its C++ name
// `ts_python_<name>`, its text), callees first, without the functors and runtime text a
// program puts before them (for a scalar function spliced into generated kernels:
// expr/user_function.h).
std::vector<std::pair<std::string, std::string>> render_python_cuda_functions(
    std::string_view ir_text);

}  // namespace tessera::jit
