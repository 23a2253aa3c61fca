#pragma once
// What the CUDA renderers share (render_cuda.cpp's elementwise kernels, render_fold.cpp's
// folds): where each part of a plan lies in the kernel's parameter, and the statements
// that compute a plan's values for one element from its operands' addresses.

#include <string>
#include <string_view>
#include <vector>

#include "expr/kernel_plan.h"

namespace tessera::cuda::detail {

// Where each part of a plan's parameter lies, in words, for a kernel walking `axes` axes:
// the element count, the number of axes, the index width, the shape; each operand's
// address, dtype and strides; the constants; the products' steps; then `extras` words of
// the kernel's own.
struct WordMap {
  static constexpr int kCount = 0, kNdim = 1, kWide = 2, kShape = 3;
  int operands;                // each: address, dtype, then `axes` strides
  std::vector<int> constants;  // each one word, complex ones two
  int dots;                    // each two steps
  int extras;
  int total;

  WordMap(const expr::KernelPlan& plan, int axes, int extra_words = 0);
  int address(int k) const { return operands + k * (2 + axes_); }
  int dtype(int k) const { return address(k) + 1; }
  int stride(int k, int d) const { return address(k) + 2 + d; }
  int extra(int i) const { return extras + i; }

 private:
  int axes_;
};

// The axes a kernel's parameter has words for, for a layout of `ndim` merged axes: 1, 4,
// 16 or kMaxDims. Each bucket is its own kernel; the middle one keeps a parameter of many
// operands within the 4 KB that drivers before CUDA 12.1 accept (64 axes take 66 words
// per operand).
int axes_bucket(int ndim);

std::string type_of(DType d);
// The name of value v, and word w of the parameter `p`.
std::string var(int v);
std::string word(int w);

// The statements that compute every value of `plan` (named var(v)) for the element whose
// operands lie at `at[k]`, reading constants from the parameter `p`.
std::string value_statements(const expr::KernelPlan& plan, const WordMap& words);

// What a program whose values call users' functions (expr/user_function.h) needs before its
// kernels: the runtime of code generated from Python functions, then each function once
// (callees first), as CUDA C++; empty when the plan calls none.
std::string user_function_text(const expr::KernelPlan& plan);

// A file of backend/cuda/device/ (device_text.h) under its #line, to include in a program.
std::string device_file(std::string_view path);

// The parameter words of `plan` walked over `shape` with per-operand `strides` (bytes),
// leaving the extra words zero.
std::vector<uint64_t> plan_words(const expr::KernelPlan& plan, const WordMap& words,
                                 const std::vector<int64_t>& shape,
                                 const std::vector<std::vector<int64_t>>& strides,
                                 bool wide_index);

}  // namespace tessera::cuda::detail
