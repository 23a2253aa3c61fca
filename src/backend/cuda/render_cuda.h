#pragma once
// The CUDA renderer of kernel plans (expr/kernel_plan.h): one kernel that walks every
// element of the plan's shape with a grid-stride loop and computes the plan's values with
// the functors of src/kernels/ (included as text, jit/kernel_text.h). The same source
// compiles with NVRTC for a GPU and with the host compiler for the simulator.
//
// The kernel takes one parameter, a struct of 8-byte words (kernel_params packs it): the
// element count, the number of merged axes, the index width, the merged shape, each
// operand's address, byte strides and dtype, the constants and the products' steps.
//
// What the source depends on is what a kernel's speed depends on: the values' dtypes and
// ops, and how many axes its strided walk may need (KernelLayout). The rest is decided at
// run time by uniform branches: a walk with one axis (each operand's address a + i * step:
// contiguous, broadcast or evenly strided), the same with wide loads and stores where the
// operands are contiguous and aligned (pack_width), or with several (coordinates times
// strides);
// 32- or 64-bit index arithmetic; the source dtype of an input read as another dtype (a
// switch over the 14 dtypes, jit/kernel_text.h). So one compiled kernel serves `x + y`
// over every layout, and `x + 1.5` for x of any dtype read as float64: the code generator
// compiles kernels by the thousand, and each costs a compile the first time.

#include <cstdint>
#include <string>
#include <vector>

#include "expr/kernel_plan.h"

namespace tessera::cuda {

struct KernelLayout {
  int axes = 1;              // the merged axes the kernel can walk: 1, 4, 16 or kMaxDims
  int ndim = 1;              // of this call's merged shape (at least 1)
  bool wide_index = false;   // 64-bit index arithmetic; 32-bit when every span fits
  bool packed = false;       // the packed walk: wide loads and stores (pack_width)
  std::vector<int64_t> shape;                 // merged, ndim of them
  std::vector<std::vector<int64_t>> strides;  // per operand, bytes, ndim of them
};

// The layout of `plan`'s operands over their common shape, axes merged where every
// operand's strides allow (the CPU backend's simplify_layout).
KernelLayout layout_of(const expr::KernelPlan& plan);

// Elements per thread on the packed walk of a one-axis launch, 1 where the plan has none:
// as many as fill kPackBytes of the widest operand read or written in packs (outputs and
// inputs of the kernel's own dtypes), at most kMaxPack (more would unroll the element's
// code further for little gain). A launch takes that walk when every such operand is
// contiguous and aligned to its pack.
inline constexpr int64_t kPackBytes = 16, kMaxPack = 4;
int pack_width(const expr::KernelPlan& plan);

// What every program of such kernels starts with (the functors and the parameter's word
// type); render_cuda_kernel gives one kernel to follow it, named `name`: several kernels
// can make one program. render_cuda is the two together, the kernel named kExprKernelName.
const std::string& render_cuda_prologue();
std::string render_cuda_kernel(const expr::KernelPlan& plan, int axes, const std::string& name);
std::string render_cuda(const expr::KernelPlan& plan, int axes);

// The words of the kernel's parameter, in the order render_cuda declares them.
std::vector<uint64_t> kernel_params(const expr::KernelPlan& plan, const KernelLayout& layout);

// The name of the kernel render_cuda emits.
inline constexpr const char* kExprKernelName = "ts_expr";

}  // namespace tessera::cuda
