// Kernels written as CUDA C++ snippets (tessera/user_kernel.h) from C++: their declarations,
// their values on the CPU device, and — the check DESIGN.md asks of generated kernels — the
// text the renderer makes (jit/render_user_kernel.h) for elementwise and reduction kernels of
// every kind of element type compiles with NVRTC and assembles with ptxas for sm_80 and
// sm_90.

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "backend/cuda/nvrtc.h"
#include "backend/cuda/ptxas.h"
#include "gpu_compile_check.h"
#include "jit/render_user_kernel.h"
#include "tessera/errors.h"
#include "tessera/user_kernel.h"

namespace tessera {
namespace {

Array filled(const std::vector<double>& values, Dims shape) {
  Array a = Array::empty(shape, DType::Float64, Device::cpu());
  a.copy_from_host(values.data());
  return a;
}

std::vector<double> values_of(const Array& a) {
  std::vector<double> out(a.size());
  a.astype(DType::Float64).copy_to_host(out.data());
  return out;
}

TEST(UserKernel, ParsesCupyDeclarations) {
  const auto p = parse_kernel_params("float32 x, raw T y,  int64  n", true, "test");
  ASSERT_EQ(p.size(), 3u);
  EXPECT_EQ(p[0].name, "x");
  EXPECT_EQ(p[0].dtype, DType::Float32);
  EXPECT_TRUE(p[1].raw);
  EXPECT_EQ(p[1].placeholder, "T");
  EXPECT_EQ(p[2].dtype, DType::Int64);
  EXPECT_TRUE(parse_kernel_params("  ", true, "test").empty());
  EXPECT_THROW(parse_kernel_params("float32", true, "test"), ValueError);
  EXPECT_THROW(parse_kernel_params("const float32 x", true, "test"), ValueError);
  EXPECT_THROW(parse_kernel_params("flaot32 x", true, "test"), TypeError);
  EXPECT_THROW(parse_kernel_params("float32 1x", true, "test"), ValueError);
}

TEST(UserKernel, ElementwiseOnTheCpuBroadcastsAndTypes) {
  const ElementwiseKernel k("T x, T y", "T z", "z = (x - y) * (x - y)", "squared_diff");
  const Array x = filled({0, 1, 2, 3, 4, 5}, {2, 3});
  const Array y = filled({1, 2, 3}, {3});
  const std::vector<Array> out = k({x, y});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].shape(), (Dims{2, 3}));
  EXPECT_EQ(out[0].dtype(), DType::Float64);
  EXPECT_EQ(values_of(out[0]), (std::vector<double>{1, 1, 1, 4, 4, 4}));
  // A number takes the placeholder's type; a fixed type must match the array exactly.
  EXPECT_EQ(values_of(k({x, Scalar(2.0)})[0]), (std::vector<double>{4, 1, 0, 1, 4, 9}));
  const ElementwiseKernel fixed("float32 x", "float32 z", "z = x", "copy32");
  EXPECT_THROW(fixed({x}), TypeError);
  EXPECT_THROW(k({x, y, y, y}), TypeError);
}

TEST(UserKernel, ReductionOnTheCpuIsPairwiseAccurate) {
  const ReductionKernel sum("T x", "T y", "x", "a + b", "y = a", "0", "my_sum");
  const int n = 1 << 20;
  Array x = Array::empty({n}, DType::Float32, Device::cpu());
  std::vector<float> ones(n, 0.1f);
  x.copy_from_host(ones.data());
  const Array total = sum({x}, {}, std::nullopt, false)[0];
  const double exact = double{0.1f} * n;
  // Serial float32 accumulation is off by about 1e-3 here; pairwise by about 1e-7.
  EXPECT_LT(std::abs(values_of(total)[0] - exact) / exact, 1e-6);
}

class UserKernelNvrtc : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!cuda::nvrtc_available() || !cuda::ptxas_available()) {
      GTEST_SKIP() << "NVRTC or ptxas not found";
    }
  }
};

jit::UserKernelParam array_param(const std::string& name, const std::string& type, DType dtype,
                                 int ndim, bool contiguous, bool raw = false,
                                 bool is_const = true) {
  jit::UserKernelParam p;
  p.name = name;
  p.type = type;
  p.dtype = dtype;
  p.ndim = ndim;
  p.c_contiguous = contiguous;
  p.raw = raw;
  p.is_const = is_const;
  return p;
}

// For each kind of element: arrays of 0, 1 and 3 dimensions (contiguous or not), a raw array
// indexed by a flat index and by an index tuple, a number, the preamble's device function
// and the loop's prologue and epilogue.
TEST_F(UserKernelNvrtc, ElementwiseKernelsCompileAndAssemble) {
  for (DType t : {DType::Bool, DType::Int8, DType::UInt64, DType::Float16, DType::Float32,
                  DType::Float64, DType::Complex64, DType::Complex128}) {
    for (int ndim : {0, 1, 3}) {
      jit::ElementwiseKernelText k;
      k.name = "k_" + std::string(dtype_name(t)) + "_" + std::to_string(ndim);
      k.typedefs = {{"T", t}};
      k.params = {array_param("x", "T", t, ndim, ndim == 1),
                  array_param("y", "T", t, 2, false, /*raw=*/true, /*is_const=*/false)};
      jit::UserKernelParam scalar;
      scalar.name = "s";
      scalar.type = "T";
      scalar.dtype = t;
      scalar.kind = jit::UserKernelParam::Kind::Scalar;
      k.params.push_back(scalar);
      k.params.push_back(array_param("z", "T", t, ndim, false, false, /*is_const=*/false));
      k.index_ndim = ndim;
      k.preamble = "template <class U> __device__ U pick(U a, U b, bool first) { return first ? a : b; }";
      k.loop_prep = "const bool first = threadIdx.x == 0";
      k.operation = "z = pick<T>(x, y[i % y.size()], first); z = pick<T>(z, s, false)";
      k.after_loop = "if (first) y[0] = y[_ind.size() > 1 ? 1 : 0]";
      expect_compiles(jit::render_elementwise_kernel(k), k.name);
    }
  }
}

// Sums, products and extrema, with and without an identity, for real, complex and integer
// reduce types; a map over two inputs.
TEST_F(UserKernelNvrtc, ReductionKernelsCompileAndAssemble) {
  struct Case {
    DType t;
    std::string reduce_type, reduce, identity;
  };
  for (const Case& c : {Case{DType::Float32, "T", "a + b", "0"},
                        Case{DType::Float64, "double", "max(a, b)", ""},
                        Case{DType::Complex64, "T", "a * b", "1"},
                        Case{DType::Int64, "long long", "a < b ? a : b", ""},
                        Case{DType::Float16, "float", "a + b", "0"}}) {
    for (int block : {1, 256}) {
      jit::ReductionKernelText k;
      k.name = "r_" + std::string(dtype_name(c.t)) + "_" + std::to_string(block);
      k.typedefs = {{"T", c.t}};
      k.params = {array_param("x", "T", c.t, 2, true), array_param("w", "T", c.t, 2, false),
                  array_param("y", "T", c.t, 1, false, false, /*is_const=*/false)};
      k.nin = 2;
      k.in_ndim = 2;
      k.out_ndim = 1;
      k.reduce_type = c.reduce_type;
      if (!c.identity.empty()) k.identity = c.identity;
      k.map_expr = "x * w";
      k.reduce_expr = c.reduce;
      k.post_map_expr = "y = a";
      k.block = block;
      expect_compiles(jit::render_reduction_kernel(k), k.name);
    }
  }
}

}  // namespace
}  // namespace tessera
