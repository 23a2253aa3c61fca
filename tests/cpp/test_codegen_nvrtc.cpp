// Every kernel the code generator (expr/kernel_plan.h, backend/cuda/render_cuda.h) can emit
// for one op compiles with NVRTC and assembles with ptxas for sm_80 and sm_90, the check
// DESIGN.md ("CUDA without a GPU") asks of generated kernels: each ufunc loop, reading
// arrays and constants, for walks along 1, 4 and all axes; every conversion between dtypes
// (a load that converts, and a Cast node); the few-term product. One program per ufunc keeps the
// compiler runs few.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "backend/cuda/cusolver.h"
#include "backend/cuda/expr_kernel.h"
#include "backend/cuda/fill_kernel.h"
#include "backend/cuda/index_kernel.h"
#include "backend/cuda/nvrtc.h"
#include "backend/cuda/ptxas.h"
#include "backend/cuda/render_cuda.h"
#include "backend/cuda/product_kernel.h"
#include "backend/cuda/render_fold.h"
#include "backend/cuda/sort_kernel.h"
#include "expr/kernel_plan.h"
#include "gpu_compile_check.h"
#include "jit/render_python.h"

namespace tessera {
namespace {

const Dims kShape{4, 8};

Array host_array(DType dtype) { return Array::empty(kShape, dtype, Device::cpu()); }

// The walks a plan is rendered with: up to 4 axes (written out) and up to kMaxDims (a loop),
// each with the walk along one axis and both index widths, chosen at run time. The walks'
// text is the same for every op and dtype but for the element function it calls and the
// number of operands, so a sweep renders the loop over kMaxDims axes for the first loop of
// each op (every operand count) and the written-out walk for every loop. The kernel for one
// axis holds that one-axis walk and the packed walk (wide loads), whose text differs between
// plans only in the packs' types: PackedWalksCompileAndAssemble renders it for every dtype
// and pack width, and the sweeps leave it out.
constexpr int kWrittenOutAxes = 4;

class Program {
 public:
  // Rendered for the walk along up to 4 axes, and with `all_axes` for the one along up to
  // kMaxDims too.
  void add(const expr::Node& root, std::span<const Array> outs, bool all_axes = false) {
    const expr::KernelPlan plan = expr::lower(root, outs);
    add_walk(plan, kWrittenOutAxes);
    if (all_axes) add_walk(plan, kMaxDims);
  }

  void add_walk(const expr::KernelPlan& plan, int axes) {
    source_ += cuda::render_cuda_kernel(plan, axes, "k" + std::to_string(kernels_++));
  }

  // Compiles for compute_80 and assembles the PTX for sm_80 and sm_90.
  void check(const std::string& name) const {
    expect_compiles(cuda::render_cuda_prologue() + source_, name);
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
      program.add(*expr::op(op, loop, 0, arrays), outs, /*all_axes=*/loop == 0);
      if (info.nin > 1) program.add(*expr::op(op, loop, 0, with_constant), outs);
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

// The one-axis kernel, whose packed walk reads and writes packs of the operands' own
// dtypes: every loop of add and multiply (every dtype, so every pack type and width),
// divmod's two outputs, ldexp's mixed dtypes, an input read as another dtype (not packed)
// and a product's operands (not packed).
TEST_F(CodegenNvrtc, PackedWalksCompileAndAssemble) {
  Program program;
  int packed = 0;
  const auto add = [&](const expr::NodePtr& root, std::span<const Array> outs) {
    const expr::KernelPlan plan = expr::lower(*root, outs);
    if (cuda::pack_width(plan) > 1) ++packed;
    program.add_walk(plan, 1);
  };
  for (const Ufunc op : {Ufunc::Add, Ufunc::Multiply, Ufunc::Divmod, Ufunc::Ldexp}) {
    const UfuncInfo& info = ufunc_info(op);
    for (int loop = 0; loop < static_cast<int>(info.loops.size()); ++loop) {
      const LoopSignature& sig = info.loops[loop];
      std::vector<Array> outs;
      for (int j = 0; j < info.nout; ++j) outs.push_back(host_array(sig.out[j]));
      std::vector<expr::NodePtr> args;
      for (int k = 0; k < info.nin; ++k) args.push_back(expr::input(host_array(sig.in[k]), sig.in[k]));
      add(expr::op(op, loop, 0, args), outs);
    }
  }
  const Array out = host_array(DType::Float64);
  add(expr::input(host_array(DType::Int8), DType::Float64), std::span(&out, 1));
  const int64_t steps[2] = {8, 64};
  add(expr::dot(host_array(DType::Float64), host_array(DType::Float64), 3, steps),
      std::span(&out, 1));
  program.check("packed walks");
  EXPECT_GT(packed, 30);
}

TEST_F(CodegenNvrtc, FewTermProductCompilesAndAssembles) {
  Program program;
  for (const DType d : {DType::Float32, DType::Float64}) {
    const Array out = host_array(d);
    const int64_t steps[2] = {itemsize(d), 8 * itemsize(d)};
    for (int terms = 1; terms <= expr::kMaxDotTerms; ++terms) {
      program.add(*expr::dot(host_array(d), host_array(d), terms, steps), std::span(&out, 1),
                  /*all_axes=*/terms == 1);
    }
  }
  program.check("dot");
}

// The folds (render_fold.h) over every dtype their kinds take: reorderable and ordered
// reductions with each loop of add, maximum and subtract whose first input is the
// accumulator's dtype (ldexp's mixed one too), argmax and argmin, scans. The walks, the
// same text for every op, are rendered for 4 axes, and for all axes with add's first loop
// and an argmax (as in the sweeps above); the ops' functors themselves compiled above.
TEST_F(CodegenNvrtc, FoldsCompileAndAssemble) {
  std::string source = cuda::render_fold_prologue();
  int kernels = 0;
  const auto add = [&](const expr::Node& root, const Array& out, const cuda::FoldSpec& spec,
                       bool all_axes = false) {
    const expr::KernelPlan plan = expr::lower(root, std::span(&out, 1));
    source += cuda::render_fold_kernel(plan, kWrittenOutAxes, spec, "f" + std::to_string(kernels++));
    if (all_axes) {
      source += cuda::render_fold_kernel(plan, kMaxDims, spec, "f" + std::to_string(kernels++));
    }
  };
  for (const Ufunc op : {Ufunc::Add, Ufunc::Maximum, Ufunc::Subtract, Ufunc::Ldexp}) {
    const auto& loops = ufunc_info(op).loops;
    bool all_axes = op == Ufunc::Add;  // for the first loop of add's that is folded
    for (int loop = 0; loop < static_cast<int>(loops.size()); ++loop) {
      const LoopSignature& sig = loops[loop];
      if (sig.in[0] != sig.out[0]) continue;
      const Array acc = host_array(sig.out[0]);
      const auto values = expr::input(host_array(sig.in[1]), sig.in[1]);
      if (sig.in[1] == sig.in[0]) {
        add(*values, acc, {cuda::FoldKind::Reduce, op, loop}, all_axes);
        add(*values, acc, {cuda::FoldKind::Scan, op, loop}, all_axes);
      }
      add(*values, acc, {cuda::FoldKind::OrderedReduce, op, loop}, all_axes);
      all_axes = false;
    }
  }
  const Array index = host_array(DType::Int64);
  for (int d = 0; d < kNumDTypes; ++d) {
    const DType dtype = static_cast<DType>(d);
    const auto values = expr::input(host_array(dtype), dtype);
    add(*values, index, {cuda::FoldKind::ArgMax}, /*all_axes=*/d == 0);
    add(*values, index, {cuda::FoldKind::ArgMin});
  }
  expect_compiles(source, "folds");
  EXPECT_GT(kernels, 80);
}

// The indexing program (device/index.cuh, every element size), and ufunc.at's kernel for a
// binary and a unary op, of integers, floats and complex values, one stored as another
// dtype than the loop's.
TEST_F(CodegenNvrtc, IndexingCompilesAndAssembles) {
  expect_compiles(cuda::render_index(), "index");
  const auto loop_of = [](Ufunc op, DType dtype) {
    const auto& loops = ufunc_info(op).loops;
    for (int k = 0; k < static_cast<int>(loops.size()); ++k) {
      if (loops[k].in[0] == dtype) return k;
    }
    return -1;
  };
  for (const DType dtype : {DType::Int64, DType::Float64, DType::Complex128}) {
    expect_compiles(cuda::render_apply_at(Ufunc::Add, loop_of(Ufunc::Add, dtype), dtype), "at");
  }
  expect_compiles(cuda::render_apply_at(Ufunc::Negative, loop_of(Ufunc::Negative, DType::Float32),
                                        DType::Float32), "at");
  expect_compiles(cuda::render_apply_at(Ufunc::Add, loop_of(Ufunc::Add, DType::Float64),
                                        DType::Float16), "at");
}

// The sort kernels (device/sort.cuh) for every dtype.
TEST_F(CodegenNvrtc, SortsCompileAndAssemble) {
  for (int d = 0; d < kNumDTypes; ++d) {
    const DType dtype = static_cast<DType>(d);
    expect_compiles(cuda::render_sort(dtype), "sort-" + std::string(dtype_name(dtype)));
  }
}

// The integer and bool matrix product (device/product.cuh) for every dtype cuBLAS does not
// multiply.
TEST_F(CodegenNvrtc, IntegerProductsCompileAndAssemble) {
  for (int d = 0; d < kNumDTypes; ++d) {
    const DType dtype = static_cast<DType>(d);
    if (is_integer(dtype) || dtype == DType::Bool) {
      expect_compiles(cuda::render_integer_product(dtype), "product-" + std::string(dtype_name(dtype)));
    }
  }
}

// The unpacking of a real matrix's eigenvalues and vectors from cuSOLVER's geev
// (device/linalg.cuh), for both real precisions.
TEST_F(CodegenNvrtc, EigenUnpackingCompilesAndAssembles) {
  expect_compiles(cuda::render_eigen_unpack(DType::Float32, DType::Complex64), "eigen-float32");
  expect_compiles(cuda::render_eigen_unpack(DType::Float64, DType::Complex128), "eigen-float64");
}

// Every fill (device/fill.cuh) for every dtype it takes: arange for all, linspace for the
// inexact ones, each random sampler; one program each, as they are launched.
TEST_F(CodegenNvrtc, FillsCompileAndAssemble) {
  std::vector<std::string> bodies = {"gamma_fill", "poisson_fill", "binomial_fill"};
  for (int d = 0; d < kNumDTypes; ++d) {
    const DType dtype = static_cast<DType>(d);
    bodies.push_back(cuda::fill_body("arange_fill", dtype));
    if (is_floating(dtype) || is_complex(dtype)) bodies.push_back(cuda::fill_body("linspace_fill", dtype));
    if (is_integer(dtype)) bodies.push_back(cuda::fill_body("integers_fill", dtype));
  }
  for (const DType dtype : {DType::Float32, DType::Float64}) {
    for (const char* fill : {"uniform_fill", "normal_fill", "exponential_fill"}) {
      bodies.push_back(cuda::fill_body(fill, dtype));
    }
  }
  for (const std::string& body : bodies) expect_compiles(cuda::render_fill(body), body);
}

// Users' scalar functions (tessera.vectorize's, expr/user_function.h) inside elementwise
// kernels and folds: their device functions, from the Python-function compiler's IR, spliced
// in with its runtime; two functions calling one helper define it once. The IR is what
// python/tessera/jit renders for these functions:
//   def helper(x): return math.exp(-x * x)                     (cuda.jit(device=True))
//   def f(x, y): return helper(x) * y + 1.0 if x > 0 else y - x  (float32, int64)
//   def g(x): return helper(x) + x                               (float32)
//   def h(z, k): return z * z + k                                (complex64, int64)
//   def fib(n): return n if n < 2 else fib(n - 1) + fib(n - 2)   (int64: calls itself)
constexpr const char* kHelperIr = R"((function helper_c2cbbda0 "t.py" ((x float32)) float32
  (locals )
  (block (line 5) (return (call exp float32 (binary multiply float32 (unary neg float32 (var x float32)) (var x float32)))))))";
constexpr const char* kFIr = R"((function f_66d1cb49 "t.py" ((x float32) (y int64)) float64
  (locals )
  (block (line 8) (return (select float64 (compare gt (cast float64 (var x float32)) (cast float64 (const int64 0))) (binary add float64 (binary multiply float64 (cast float64 (call_function helper_c2cbbda0 float32 (var x float32))) (cast float64 (var y int64))) (const float64 1.0)) (binary subtract float64 (cast float64 (var y int64)) (cast float64 (var x float32))))))))";
constexpr const char* kGIr = R"((function g_0000beef "t.py" ((x float32)) float32
  (locals )
  (block (line 9) (return (binary add float32 (call_function helper_c2cbbda0 float32 (var x float32)) (var x float32))))))";
constexpr const char* kHIr = R"((function h_9574457a "t.py" ((z complex64) (k int64)) complex128
  (locals )
  (block (line 11) (return (binary add complex128 (cast complex128 (binary multiply complex64 (var z complex64) (var z complex64))) (cast complex128 (var k int64)))))))";

constexpr const char* kFibIr = R"((function fib_00e1bc66 "t.py" ((n int64)) int64
  (locals )
  (block (line 4) (if (compare lt (var n int64) (const int64 2)) (block (line 5) (return (var n int64))) (block )) (line 6) (return (binary add int64 (call_function fib_00e1bc66 int64 (binary subtract int64 (var n int64) (const int64 1))) (call_function fib_00e1bc66 int64 (binary subtract int64 (var n int64) (const int64 2))))))))";

expr::UserFunctionPtr user_function(std::string name, std::vector<DType> in, DType out,
                                    const std::string& module) {
  auto f = std::make_shared<expr::UserFunction>();
  f->name = std::move(name);
  f->in = std::move(in);
  f->out = out;
  f->device_functions = jit::render_python_cuda_functions(module);
  f->device_entry = f->device_functions.back().first;
  f->device_key = f->device_entry;
  return f;
}

int add_loop(DType dtype) {
  const auto& loops = ufunc_info(Ufunc::Add).loops;
  for (int loop = 0; loop < static_cast<int>(loops.size()); ++loop) {
    if (loops[loop].in[0] == dtype && loops[loop].in[1] == dtype) return loop;
  }
  throw std::logic_error("no add loop");
}

TEST_F(CodegenNvrtc, UserFunctionsCompileAndAssemble) {
  const auto f = user_function("f", {DType::Float32, DType::Int64}, DType::Float64,
                               "(module " + std::string(kHelperIr) + kFIr + ")");
  const auto g = user_function("g", {DType::Float32}, DType::Float32,
                               "(module " + std::string(kHelperIr) + kGIr + ")");
  const auto h = user_function("h", {DType::Complex64, DType::Int64}, DType::Complex128,
                               "(module " + std::string(kHIr) + ")");
  const auto x = expr::input(host_array(DType::Float32), DType::Float32);
  const auto k = expr::input(host_array(DType::Int64), DType::Int64);
  const auto fx = expr::user(f, {x, k});
  // f(x, k) + g(x), both calling helper: one kernel, one definition of helper.
  const auto both = expr::op(Ufunc::Add, add_loop(DType::Float64), 0,
                             {fx, expr::cast(expr::user(g, {x}), DType::Float64)});
  const Array out64 = host_array(DType::Float64);
  const expr::KernelPlan plan = expr::lower(*both, std::span(&out64, 1));
  ASSERT_EQ(plan.users.size(), 2u);
  expect_compiles(cuda::render_cuda(plan, 4), "user-functions");

  const Array out128 = host_array(DType::Complex128);
  const auto z = expr::input(host_array(DType::Complex64), DType::Complex64);
  const expr::KernelPlan complex_plan =
      expr::lower(*expr::user(h, {z, expr::constant(Scalar(int64_t{3}))}), std::span(&out128, 1));
  expect_compiles(cuda::render_cuda(complex_plan, 1), "user-function-complex");

  // A function calling itself (CUDA keeps its frames on the thread's stack).
  const auto fib = user_function("fib", {DType::Int64}, DType::Int64,
                                 "(module " + std::string(kFibIr) + ")");
  const Array out_int = host_array(DType::Int64);
  const expr::KernelPlan fib_plan = expr::lower(*expr::user(fib, {k}), std::span(&out_int, 1));
  expect_compiles(cuda::render_cuda(fib_plan, 1), "user-function-recursive");

  // sum(f(x, k)) as a fold.
  const expr::KernelPlan fold_plan = expr::lower(*fx, std::span(&out64, 1));
  expect_compiles(cuda::render_fold(fold_plan, 4,
                                    {cuda::FoldKind::Reduce, Ufunc::Add, add_loop(DType::Float64)}),
                  "user-function-fold");
}

}  // namespace
}  // namespace tessera
