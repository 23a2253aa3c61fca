// FFT and random numbers from C++: the FFT descriptor's axes and strides, transforms
// checked against sums computed here, Philox against the Random123 known answers, and
// generator streams that do not depend on the thread count.

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <vector>

#include "backend/cpu/parallel.h"
#include "backend/fft_call.h"
#include "kernels/philox.h"
#include "tessera/tessera.h"

namespace tessera {
namespace {

const Device kCpu = Device::cpu();

TEST(Philox, MatchesRandom123KnownAnswers) {
  const kernels::Philox4 zero = kernels::philox4x32_10({{0, 0, 0, 0}}, 0, 0);
  EXPECT_EQ(zero.v[0], 0x6627e8d5u);
  EXPECT_EQ(zero.v[1], 0xe169c58du);
  EXPECT_EQ(zero.v[2], 0xbc57ac4cu);
  EXPECT_EQ(zero.v[3], 0x9b00dbd8u);
  const kernels::Philox4 ones = kernels::philox4x32_10(
      {{0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu}}, 0xffffffffu, 0xffffffffu);
  EXPECT_EQ(ones.v[0], 0x408f276du);
  EXPECT_EQ(ones.v[1], 0x41c83b0eu);
  EXPECT_EQ(ones.v[2], 0xa20bc7c6u);
  EXPECT_EQ(ones.v[3], 0x6d5451fdu);
}

TEST(FftCall, AxesAndBatchInElementStrides) {
  const Array in = Array::empty(Dims{4, 6, 8}, DType::Complex128, kCpu);
  const Array out = Array::empty(Dims{4, 6, 8}, DType::Complex128, kCpu);
  const FftCall c = plan_fft(in, out, {2, 0}, FftKind::ComplexToComplex, true);
  ASSERT_EQ(c.axes.size(), 2u);
  EXPECT_EQ(c.axes[0].n, 8);
  EXPECT_EQ(c.axes[0].in_stride, 1);
  EXPECT_EQ(c.axes[1].n, 4);
  EXPECT_EQ(c.axes[1].in_stride, 48);
  ASSERT_EQ(c.batch.size(), 1u);
  EXPECT_EQ(c.batch[0].n, 6);
  EXPECT_EQ(c.batch[0].out_stride, 8);
  EXPECT_FALSE(fft_readable(in.index({IndexItem::slice(std::nullopt, std::nullopt, -1)})));
}

TEST(Fft, MatchesTheDefiningSum) {
  const int64_t n = 12;
  std::vector<std::complex<double>> x(n);
  for (int64_t i = 0; i < n; ++i) x[i] = {std::sin(0.3 * i), std::cos(1.7 * i)};
  Array a = Array::empty(Dims{n}, DType::Complex128, kCpu);
  a.copy_from_host(x.data());
  std::vector<std::complex<double>> got(n);
  fft_c2c(a, {0}, true).copy_to_host(got.data());
  for (int64_t k = 0; k < n; ++k) {
    std::complex<double> want = 0;
    for (int64_t j = 0; j < n; ++j) want += x[j] * std::polar(1.0, -2 * M_PI * j * k / n);
    EXPECT_NEAR(std::abs(got[k] - want), 0.0, 1e-12) << "k=" << k;
  }
  // The real transforms invert each other (unnormalized: n times the signal).
  Array r = Array::empty(Dims{n}, DType::Float64, kCpu);
  std::vector<double> signal(n);
  for (int64_t i = 0; i < n; ++i) signal[i] = std::sin(0.3 * i) + i;
  r.copy_from_host(signal.data());
  std::vector<double> back(n);
  fft_c2r(fft_r2c(r, {0}), {0}, n).copy_to_host(back.data());
  for (int64_t i = 0; i < n; ++i) EXPECT_NEAR(back[i], n * signal[i], 1e-11);
}

std::vector<double> draw_normals(int threads) {
  cpu::set_num_threads(threads);
  Generator g(42);
  const Array a = g.standard_normal(Dims{100003}, DType::Float64, kCpu);
  std::vector<double> v(a.size());
  a.copy_to_host(v.data());
  return v;
}

TEST(Generator, SameStreamForAnyThreadCount) {
  const int saved = cpu::num_threads();
  const std::vector<double> one = draw_normals(1);
  const std::vector<double> two = draw_normals(2);
  cpu::set_num_threads(saved);
  EXPECT_EQ(one, two);
  double mean = 0;
  for (double v : one) mean += v;
  EXPECT_NEAR(mean / one.size(), 0.0, 0.02);
}

TEST(Generator, IntegersStayInRange) {
  Generator g(7);
  const Array a = g.integers(static_cast<uint64_t>(-5), 11, Dims{10000}, DType::Int8, kCpu);
  std::vector<int8_t> v(a.size());
  a.copy_to_host(v.data());
  int seen[11] = {};
  for (int8_t x : v) {
    ASSERT_GE(x, -5);
    ASSERT_LE(x, 5);
    ++seen[x + 5];
  }
  for (int c : seen) EXPECT_GT(c, 700);  // each value ~909 times
}

}  // namespace
}  // namespace tessera
