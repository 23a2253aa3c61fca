#pragma once
// Kernels written as CUDA C++ snippets, CuPy's ElementwiseKernel and ReductionKernel, on
// every device: NVRTC for a GPU, the simulator on a simulated one, and the host compiler
// with the simulator's executor on the CPU. Parameters are declared as CuPy declares them,
// "float32 x, T y, raw T z": a dtype name or a one-letter type placeholder bound from the
// arguments, `raw` for an array the snippet indexes itself. Errors are CuPy's: TypeError
// for a wrong argument count or a dtype that does not match, ValueError for shapes and
// malformed declarations, cuda::CompileError for a snippet that does not compile.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "tessera/array.h"
#include "tessera/scalar.h"
#include "tessera/stream.h"

namespace tessera {

namespace user_kernel {
class KernelVariants;  // the kernels compiled so far, by call signature
}

// One declared parameter.
struct KernelParam {
  std::string name;
  std::optional<DType> dtype;  // a fixed type, or
  std::string placeholder;     // a one-letter type bound at the call ("T")
  bool raw = false;
  bool is_const = true;  // inputs are read-only in the snippet
};

// CuPy's declaration syntax: parameters separated by commas, each "[raw] type name" with the
// type a NumPy dtype name ("float32", "int64", "complex128", "bool") or one letter.
// ValueError naming `api` for anything else.
std::vector<KernelParam> parse_kernel_params(const std::string& text, bool is_const,
                                             const std::string& api);

// An argument: an array, or a number that becomes the parameter's type.
using KernelArg = std::variant<Array, Scalar>;

struct LaunchOptions {
  std::optional<Stream> stream;  // a CUDA device's stream; the current one by default
  int block_size = 128;          // threads per block on CUDA devices
};

class ElementwiseKernel {
 public:
  struct Code {
    std::string preamble;    // before the kernel: device functions, constants
    std::string loop_prep;   // in the kernel, before the loop
    std::string after_loop;  // in the kernel, after it
  };
  ElementwiseKernel(const std::string& in_params, const std::string& out_params,
                    std::string operation, std::string name = "kernel",
                    bool reduce_dims = true, Code code = {},
                    std::vector<std::string> compile_options = {});

  // Runs `operation` for every element of the arguments' broadcast shape (or of `size`
  // when every array is raw). `args` are the inputs, or the inputs then the outputs; the
  // outputs are returned, allocated where not given, on the arrays' device (the current
  // device when there is no array).
  std::vector<Array> operator()(std::vector<KernelArg> args, std::optional<int64_t> size = {},
                                const LaunchOptions& launch = {}) const;

  // The CUDA C++ the arguments `args` would run (CuPy's cached_code).
  std::string source_for(std::vector<KernelArg> args, std::optional<int64_t> size = {}) const;

  const std::string& name() const { return name_; }
  int nin() const { return static_cast<int>(in_.size()); }
  int nout() const { return static_cast<int>(out_.size()); }

 private:
  struct Prepared;
  // launching: false for source_for, which only renders (outputs are not made writable,
  // so asking for the source evaluates nothing pending on them).
  Prepared prepare(std::vector<KernelArg> args, std::optional<int64_t> size,
                   bool launching = true) const;
  std::string render(const Prepared& p) const;

  std::vector<KernelParam> in_, out_;
  std::string operation_, name_, api_;
  bool reduce_dims_;
  Code code_;
  std::vector<std::string> options_;
  std::shared_ptr<user_kernel::KernelVariants> variants_;
};

class ReductionKernel {
 public:
  // `identity` is C++ text ("0", "-CUDART_INF"); none means an empty reduction is an error.
  // `reduce_type` is the C++ type `a` and `b` have; by default the first output's type.
  ReductionKernel(const std::string& in_params, const std::string& out_params,
                  std::string map_expr, std::string reduce_expr, std::string post_map_expr,
                  std::optional<std::string> identity, std::string name = "reduce_kernel",
                  std::optional<std::string> reduce_type = {}, bool reduce_dims = true,
                  std::string preamble = {}, std::vector<std::string> compile_options = {});

  // Reduces the inputs' broadcast shape over `axes` (all of them when empty-optional), into
  // `outputs` when given; keepdims keeps the reduced axes with length 1.
  std::vector<Array> operator()(std::vector<KernelArg> inputs, std::vector<Array> outputs,
                                std::optional<std::vector<int>> axes, bool keepdims,
                                const LaunchOptions& launch = {}) const;

  const std::string& name() const { return name_; }
  int nin() const { return static_cast<int>(in_.size()); }
  int nout() const { return static_cast<int>(out_.size()); }

 private:
  std::vector<KernelParam> in_, out_;
  std::string map_expr_, reduce_expr_, post_map_expr_;
  std::optional<std::string> identity_;
  std::string name_;
  std::optional<std::string> reduce_type_;
  bool reduce_dims_;
  std::string preamble_;
  std::vector<std::string> options_;
  std::shared_ptr<user_kernel::KernelVariants> variants_;
};

}  // namespace tessera
