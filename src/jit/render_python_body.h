#pragma once
// The body of a function of Python functions' typed IR (python/tessera/jit/ir.py, as
// jit/sexpr.h's text) as C++, shared by the host renderer (jit/render_python.h) and the CUDA
// one: the statements and expressions are the same C++ for both targets; the CUDA target
// adds what only kernels have (intrinsics, shared and local arrays) and Numba's CUDA error
// model (no exceptions: a zero divisor divides as NumPy does).

#include <string>
#include <string_view>

#include "jit/render_python.h"
#include "jit/sexpr.h"
#include "tessera/dtype.h"

namespace tessera::jit::python_ir {

enum class Target { kHost, kCuda };

[[noreturn]] void bad(const SExpr& e, const std::string& what);

// The dtype of an IR scalar type, NumPy's name ("float64"), as the IR, a module's services
// and the call path's result descriptions spell it; std::invalid_argument for another name.
DType dtype_named(std::string_view name);

// A type of the IR as C++: a scalar's element type, a tuple, an array's view.
std::string cpp_type(const SExpr& t);

// A Python variable's C++ name.
std::string ident(const std::string& name);

bool is_complex_type(const SExpr& t);

// One function of a module, `(function name file params result (locals ...) body)`, as
// `static R ts_python_<name>(params) { ... }` (__device__ on CUDA). A CUDA kernel's
// function (`kernel`) takes one more parameter, the bytes of dynamic shared memory its
// launch gave (the length of `cuda.shared.array(0, dtype)`).
std::string render_function(const SExpr& f, Target target, ErrorModel errors, bool kernel = false);

// The dynamic shared memory parameter's name.
inline constexpr const char* kDynamicSharedBytes = "ts_dynamic_shared_bytes";

}  // namespace tessera::jit::python_ir
