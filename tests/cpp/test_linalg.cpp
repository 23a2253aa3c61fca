// The BLAS descriptor layer and linalg from C++. plan_matmul's transposes, leading
// dimensions and batch strides are what cuBLAS will be handed too, so they are checked
// here field by field; the products and factorizations are checked by their values.

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "backend/gemm_call.h"
#include "tessera/tessera.h"

namespace tessera {
namespace {

const Device kCpu = Device::cpu();

Array f64(const std::vector<double>& v, Dims shape) {
  Array a = Array::empty(shape, DType::Float64, kCpu);
  a.copy_from_host(v.data());
  return a;
}

std::vector<double> values(const Array& a) {
  std::vector<double> v(a.size());
  a.astype(DType::Float64, Order::C).copy_to_host(v.data());
  return v;
}

TEST(GemmCall, RowMajorProductIsTheTransposedColumnMajorOne) {
  const Array x = Array::empty(Dims{2, 3}, DType::Float64, kCpu);
  const Array y = Array::empty(Dims{3, 4}, DType::Float64, kCpu);
  const Array out = Array::empty(Dims{2, 4}, DType::Float64, kCpu);
  const std::vector<GemmCall> calls = plan_matmul(x, y, out);
  ASSERT_EQ(calls.size(), 1u);
  const GemmCall& c = calls[0];
  // out^T (4x2) = y^T (4x3) x^T (3x2): BLAS's A is y, its B is x, neither transposed.
  EXPECT_EQ(c.m, 4);
  EXPECT_EQ(c.n, 2);
  EXPECT_EQ(c.k, 3);
  EXPECT_FALSE(c.trans_a);
  EXPECT_FALSE(c.trans_b);
  EXPECT_EQ(c.lda, 4);
  EXPECT_EQ(c.ldb, 3);
  EXPECT_EQ(c.ldc, 4);
  EXPECT_EQ(c.batch, 1);
}

TEST(GemmCall, TransposedViewsBecomeTransposeFlags) {
  const Array xt = Array::empty(Dims{3, 2}, DType::Float64, kCpu).transpose();  // 2x3
  const Array yt = Array::empty(Dims{4, 3}, DType::Float64, kCpu).transpose();  // 3x4
  const Array out = Array::empty(Dims{2, 4}, DType::Float64, kCpu);
  ASSERT_TRUE(gemm_readable(xt));
  const GemmCall c = plan_matmul(xt, yt, out)[0];
  EXPECT_TRUE(c.trans_a);
  EXPECT_TRUE(c.trans_b);
  EXPECT_EQ(c.lda, 3);  // y^T's memory is y (4x3 row-major): column-major 3x4, ld 3
  EXPECT_EQ(c.ldb, 2);
}

TEST(GemmCall, UnreadableLayoutsAreReportedForCopying) {
  const Array base = Array::empty(Dims{4, 6}, DType::Float64, kCpu);
  EXPECT_FALSE(gemm_readable(base.index({IndexItem::slice(std::nullopt, std::nullopt, 2),
                                         IndexItem::slice(std::nullopt, std::nullopt, 2)})));
  EXPECT_FALSE(gemm_readable(base.index({IndexItem::slice(std::nullopt, std::nullopt, -1),
                                         IndexItem::slice(std::nullopt, std::nullopt, 1)})));
  EXPECT_TRUE(gemm_readable(base.index({IndexItem::slice(std::nullopt, std::nullopt, 2),
                                        IndexItem::slice(std::nullopt, std::nullopt, 1)})));
}

TEST(GemmCall, StacksMergeIntoOneStridedBatchWhenTheyCan) {
  const Array x = Array::empty(Dims{5, 6, 2, 3}, DType::Float64, kCpu);
  const Array y = Array::empty(Dims{5, 6, 3, 4}, DType::Float64, kCpu);
  const Array out = Array::empty(Dims{5, 6, 2, 4}, DType::Float64, kCpu);
  std::vector<GemmCall> calls = plan_matmul(x, y, out);
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0].batch, 30);
  EXPECT_EQ(calls[0].stride_a, 12);
  EXPECT_EQ(calls[0].stride_b, 6);
  EXPECT_EQ(calls[0].stride_c, 8);

  // y broadcast along the outer stack axis: that axis cannot merge, so it is iterated.
  const Array y1 = Array::empty(Dims{1, 6, 3, 4}, DType::Float64, kCpu).broadcast_to(y.shape());
  calls = plan_matmul(x, y1, out);
  ASSERT_EQ(calls.size(), 5u);
  EXPECT_EQ(calls[0].batch, 6);
  EXPECT_EQ(calls[0].stride_a, 12);
}

TEST(Linalg, MatmulMatchesHandComputedProducts) {
  const Array x = f64({1, 2, 3, 4, 5, 6}, Dims{2, 3});
  const Array y = f64({7, 8, 9, 10, 11, 12}, Dims{3, 2});
  EXPECT_EQ(values(matmul(x, y)), (std::vector<double>{58, 64, 139, 154}));
  EXPECT_EQ(values(matmul(x.astype(DType::Int8), y.astype(DType::Int8))),
            (std::vector<double>{58, 64, -117, -102}));  // int8 wraps as NumPy's
  EXPECT_THROW(matmul(x, x), ValueError);
}

TEST(Linalg, SolveAndSingularMatrices) {
  const Array a = f64({2, 1, 1, 3}, Dims{2, 2});
  const Array b = f64({3, 5}, Dims{2});
  const std::vector<double> x = values(solve(a, b));
  EXPECT_NEAR(x[0], 0.8, 1e-15);
  EXPECT_NEAR(x[1], 1.4, 1e-15);
  EXPECT_THROW(solve(f64({1, 2, 2, 4}, Dims{2, 2}), b), LinAlgError);
  EXPECT_THROW(cholesky(f64({1, 2, 2, 1}, Dims{2, 2}), false), LinAlgError);
}

TEST(Linalg, SingularValuesAndEigenvalues) {
  const Array a = f64({3, 0, 0, -4}, Dims{2, 2});
  EXPECT_EQ(values(svd(a, false, false).s), (std::vector<double>{4, 3}));
  EXPECT_EQ(values(eigh(a, false, false).w), (std::vector<double>{-4, 3}));
  const Eigen e = eig(f64({0, -1, 1, 0}, Dims{2, 2}), false);  // a rotation: +-i
  std::vector<std::complex<double>> w(2);
  e.w.copy_to_host(w.data());
  EXPECT_NEAR(std::abs(w[0].imag()), 1.0, 1e-15);
  EXPECT_NEAR(w[0].real(), 0.0, 1e-15);
  EXPECT_THROW(linalg_dtype(DType::Float16, "svd"), TypeError);
}

}  // namespace
}  // namespace tessera
