#pragma once
// CUDA C++ for kernels written as snippets (tessera/user_kernel.h): CuPy's kernel text, the
// user's code placed where CuPy places it, after the functors of src/kernels/ and CuPy's
// CArray/CIndexer (jit/user_kernel_runtime.h). One text for every device: NVRTC compiles it
// for a GPU, the host compiler for the simulator and for the CPU device. Each snippet is
// under a #line of its own ("squared_diff/operation"), so a compile error names it.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "jit/embedded_file.h"
#include "tessera/dtype.h"

namespace tessera::jit {

// jit/user_kernel_runtime.h as text (cmake/kernel_text.cmake).
extern const EmbeddedFile kUserKernelFiles[];
extern const size_t kUserKernelFilesCount;

// A parameter as the kernel receives it.
struct UserKernelParam {
  enum class Kind { Array, Scalar };
  std::string name;
  std::string type;     // as the snippet names it: a placeholder ("T") or a C type
  DType dtype;          // the argument's element type
  Kind kind = Kind::Array;
  bool raw = false;     // the snippet indexes the array itself
  bool is_const = true;
  int ndim = 0;
  bool c_contiguous = false;
};

// `typedef <C type of dtype> <placeholder>;` for each type placeholder.
struct UserKernelTypedef {
  std::string placeholder;
  DType dtype;
};

struct ElementwiseKernelText {
  std::string name;
  std::vector<UserKernelTypedef> typedefs;
  std::vector<UserKernelParam> params;  // inputs, then outputs
  int index_ndim = 0;                   // of the loop's shape
  std::string preamble, loop_prep, operation, after_loop;
};
std::string render_elementwise_kernel(const ElementwiseKernelText& kernel);

// A reduction: each output element reduces the input elements whose flat index (in the
// inputs' shape, kept axes first) runs over [out * reduce_size, (out + 1) * reduce_size).
struct ReductionKernelText {
  std::string name;
  std::vector<UserKernelTypedef> typedefs;
  std::vector<UserKernelParam> params;  // inputs, then outputs
  size_t nin = 0;
  int in_ndim = 0, out_ndim = 0;
  std::string reduce_type;              // C type of `a` and `b`
  std::optional<std::string> identity;  // C++ text; none: no empty reductions reach here
  std::string map_expr, reduce_expr, post_map_expr, preamble;
  int block = 256;  // threads of a block, a power of two: 1 on the CPU device
};
std::string render_reduction_kernel(const ReductionKernelText& kernel);

// How user kernels spell the element type of `dtype`: C's names as CuPy's ("float",
// "long long", "complex<double>"), the functors' half for float16.
std::string user_c_type(DType dtype);

}  // namespace tessera::jit
