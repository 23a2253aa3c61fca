#pragma once
// The CUDA renderer of kernel plans (expr/kernel_plan.h): one kernel, `ts_expr`, that walks
// every element of the plan's shape with a grid-stride loop and computes the plan's values
// with the functors of src/kernels/ (included as text, jit/kernel_text.h). The same source
// compiles with NVRTC for a GPU and with the host compiler for the simulator.
//
// The kernel takes one parameter, a struct of 8-byte words (KernelParams packs it): the
// element count, the merged shape, each operand's address and byte strides, the constants
// and the products' steps. What varies between calls is there; what the source depends on
// is the plan's signature and the KernelLayout.

#include <cstdint>
#include <string>
#include <vector>

#include "expr/kernel_plan.h"

namespace tessera::cuda {

// How each operand is addressed, after the host merged what axes it could.
enum class Access : char {
  Contiguous = 'c',  // element i at address + i * itemsize
  Broadcast = 'b',   // one element for all
  Strided = 's',     // the merged shape's coordinates times its byte strides
};

struct KernelLayout {
  int ndim = 1;                 // of the merged shape (at least 1)
  std::vector<Access> access;   // one per operand
  bool wide_index = false;      // 64-bit index arithmetic; 32-bit when every span fits

  std::string key() const;
};

// The layout of `plan`'s operands over their common shape, merged; `shape` and `strides`
// receive the merged shape and each operand's byte strides along it (plan order).
KernelLayout layout_of(const expr::KernelPlan& plan, std::vector<int64_t>& shape,
                       std::vector<std::vector<int64_t>>& strides);

// The kernel's source: the functors (jit/kernel_text.h), then the kernel, kExprKernelName.
std::string render_cuda(const expr::KernelPlan& plan, const KernelLayout& layout);
// What every program of such kernels starts with (the functors and the parameter's word
// type), and one kernel named `name` to follow it: several kernels make one program.
const std::string& render_cuda_prologue();
std::string render_cuda_kernel(const expr::KernelPlan& plan, const KernelLayout& layout,
                               const std::string& name);

// The words of the kernel's parameter, in the order render_cuda declares them.
std::vector<uint64_t> kernel_params(const expr::KernelPlan& plan, const KernelLayout& layout,
                                    const std::vector<int64_t>& shape,
                                    const std::vector<std::vector<int64_t>>& strides);

// The name of the kernel render_cuda emits.
inline constexpr const char* kExprKernelName = "ts_expr";

}  // namespace tessera::cuda
