// Every kernel the code generator (expr/kernel_plan.h, backend/cuda/render_cuda.h) can emit
// for one op compiles with NVRTC and assembles with ptxas for sm_80 and sm_90, the check
// DESIGN.md ("CUDA without a GPU") asks of generated kernels: each ufunc loop, reading
// arrays and constants, for walks along 1, 4 and all axes; every conversion between dtypes
// (a load that converts, and a Cast node); the few-term product. One program per ufunc keeps the
// compiler runs few.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "backend/cuda/expr_kernel.h"
#include "backend/cuda/nvrtc.h"
#include "backend/cuda/ptxas.h"
#include "backend/cuda/render_cuda.h"
#include "expr/kernel_plan.h"

namespace tessera {
namespace {

const Dims kShape{4, 8};

Array host_array(DType dtype) { return Array::empty(kShape, dtype, Device::cpu()); }

// The walks every plan is rendered with: up to 4 axes (written out) and up to kMaxDims (a
// loop), each with the walk along one axis and both index widths, chosen at run time. The
// kernel for one axis holds exactly that one-axis walk, and is left out to halve the time.
const int kAxes[] = {4, kMaxDims};

class Program {
 public:
  // Rendered for every walk of kAxes, or only the first (`every_walk` false: a variant whose
  // walks are the same text as another's, such as a constant in place of an array).
  void add(const expr::Node& root, std::span<const Array> outs, bool every_walk = true) {
    const expr::KernelPlan plan = expr::lower(root, outs);
    for (const int axes : kAxes) {
      source_ += cuda::render_cuda_kernel(plan, axes, "k" + std::to_string(kernels_++));
      if (!every_walk) break;
    }
  }

  // Compiles for compute_80 and assembles the PTX for sm_80 and sm_90.
  void check(const std::string& name) const {
    SCOPED_TRACE(name);
    const std::string source = cuda::render_cuda_prologue() + source_;
    cuda::NvrtcResult result;
    try {
      result = cuda::nvrtc_compile(source, name + ".cu", cuda::generated_kernel_options(), {},
                                   "sm_80");
    } catch (const cuda::CompileError& e) {
      FAIL() << e.what();
    }
    for (const char* arch : {"sm_80", "sm_90"}) {
      EXPECT_NO_THROW(cuda::ptxas_assemble(result.ptx, arch)) << arch;
    }
  }

  int kernels() const { return kernels_; }

 private:
  std::string source_;
  int kernels_ = 0;
};

class CodegenNvrtc : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!cuda::nvrtc_available() || !cuda::ptxas_available()) {
      GTEST_SKIP() << "NVRTC or ptxas not found";
    }
  }
};

// The ufuncs in kShards interleaved parts, so that ctest runs them side by side.
constexpr int kShards = 4;
class CodegenNvrtcUfuncs : public CodegenNvrtc, public ::testing::WithParamInterface<int> {};

TEST_P(CodegenNvrtcUfuncs, EveryLoopCompilesAndAssembles) {
  for (int u = GetParam(); u < kNumUfuncs; u += kShards) {
    const Ufunc op = static_cast<Ufunc>(u);
    const UfuncInfo& info = ufunc_info(op);
    Program program;
    for (int loop = 0; loop < static_cast<int>(info.loops.size()); ++loop) {
      const LoopSignature& sig = info.loops[loop];
      std::vector<Array> outs;
      for (int j = 0; j < info.nout; ++j) outs.push_back(host_array(sig.out[j]));
      std::vector<expr::NodePtr> arrays, with_constant;
      for (int k = 0; k < info.nin; ++k) {
        arrays.push_back(expr::input(host_array(sig.in[k]), sig.in[k]));
        // The last input a constant, as `x + 1` makes it.
        with_constant.push_back(k == info.nin - 1 && k > 0
                                    ? expr::constant(Scalar(int64_t{1}).cast(sig.in[k]))
                                    : arrays.back());
      }
      program.add(*expr::op(op, loop, 0, arrays), outs);
      if (info.nin > 1) program.add(*expr::op(op, loop, 0, with_constant), outs, false);
    }
    program.check(std::string(info.name));
    EXPECT_GT(program.kernels(), 0) << info.name;
  }
}

INSTANTIATE_TEST_SUITE_P(Shards, CodegenNvrtcUfuncs, ::testing::Range(0, kShards));

TEST_F(CodegenNvrtc, EveryConversionCompilesAndAssembles) {
  Program program;
  for (int from = 0; from < kNumDTypes; ++from) {
    for (int to = 0; to < kNumDTypes; ++to) {
      const DType f = static_cast<DType>(from), t = static_cast<DType>(to);
      const Array out = host_array(t);
      // An input read as another dtype, and a computed value converted (a Cast node).
      program.add(*expr::input(host_array(f), t), std::span(&out, 1));
      const auto& loops = ufunc_info(Ufunc::Positive).loops;
      for (int loop = 0; loop < static_cast<int>(loops.size()); ++loop) {
        if (loops[loop].in[0] != f || f == t) continue;
        const auto computed = expr::op(Ufunc::Positive, loop, 0, {expr::input(host_array(f), f)});
        program.add(*expr::cast(computed, t), std::span(&out, 1));
      }
    }
  }
  program.check("conversions");
}

TEST_F(CodegenNvrtc, FewTermProductCompilesAndAssembles) {
  Program program;
  for (const DType d : {DType::Float32, DType::Float64}) {
    const Array out = host_array(d);
    const int64_t steps[2] = {itemsize(d), 8 * itemsize(d)};
    for (int terms = 1; terms <= expr::kMaxDotTerms; ++terms) {
      program.add(*expr::dot(host_array(d), host_array(d), terms, steps), std::span(&out, 1));
    }
  }
  program.check("dot");
}

}  // namespace
}  // namespace tessera
