// Array creation with NumPy's semantics: zeros/ones/full for every dtype, arange as
// NumPy's `fill` computes it, linspace as numpy.linspace computes it, eye, memory layouts.

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "kernels/cast.h"
#include "kernels/types.h"
#include "tessera/tessera.h"

namespace tessera {
namespace {

using kernels::half;
using c64 = std::complex<float>;
using c128 = std::complex<double>;

const Device kCpu = Device::cpu();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

const DType kAll[] = {DType::Bool,    DType::Int8,    DType::Int16,     DType::Int32,
                      DType::Int64,   DType::UInt8,   DType::UInt16,    DType::UInt32,
                      DType::UInt64,  DType::Float16, DType::Float32,   DType::Float64,
                      DType::Complex64, DType::Complex128};

// The elements of `a` (of element type T) in C order.
template <typename T>
std::vector<T> host(const Array& a) {
  EXPECT_EQ(sizeof(T), static_cast<size_t>(a.itemsize()));
  std::vector<unsigned char> raw(static_cast<size_t>(a.nbytes()));
  a.copy_to_host(raw.data());
  std::vector<T> v;
  for (int64_t i = 0; i < a.size(); ++i) {
    T x;
    std::memcpy(&x, raw.data() + i * sizeof(T), sizeof(T));
    v.push_back(x);
  }
  return v;
}

// Every element of `a`, whatever its dtype, as a complex double (exact for these tests).
std::vector<c128> as_complex(const Array& a) {
  std::vector<c128> out;
  kernels::visit_dtype(a.dtype(), [&](auto tag) {
    using T = decltype(tag);
    for (const T& x : host<T>(a)) out.push_back(kernels::cast_value<c128>(x));
  });
  return out;
}

std::string name(DType t) { return std::string(dtype_name(t)); }

// ---------------------------------------------------------------------------------------
// zeros / ones / full

TEST(Zeros, EveryDTypeIsAllZeroBytes) {
  for (DType t : kAll) {
    Array z = zeros({2, 3}, t, kCpu);
    EXPECT_EQ(z.dtype(), t);
    EXPECT_EQ(z.shape(), (Dims{2, 3}));
    EXPECT_TRUE(z.is_c_contiguous());
    std::vector<unsigned char> bytes(static_cast<size_t>(z.nbytes()), 0xCD);
    z.copy_to_host(bytes.data());
    for (unsigned char b : bytes) ASSERT_EQ(b, 0) << name(t);  // +0.0, not -0.0
  }
}

TEST(Zeros, ClearsReusedMemory) {
  // Dirty a block, free it to the cache, then ask for zeros of the same size.
  const Dims shape{256, 256};
  {
    Array dirty = full(shape, Scalar(-1.0), DType::Float64, kCpu);
  }
  Array z = zeros(shape, DType::Float64, kCpu);
  for (double v : host<double>(z)) ASSERT_EQ(v, 0.0);
}

TEST(Ones, EveryDType) {
  for (DType t : kAll) {
    Array o = ones({3, 2}, t, kCpu);
    EXPECT_EQ(o.dtype(), t);
    for (c128 v : as_complex(o)) ASSERT_EQ(v, c128(1, 0)) << name(t);
  }
  for (bool b : host<bool>(ones({4}, DType::Bool, kCpu))) EXPECT_TRUE(b);
  for (half h : host<half>(ones({4}, DType::Float16, kCpu))) EXPECT_EQ(static_cast<float>(h), 1.f);
}

TEST(Full, EveryDTypeConvertsTheValueAsACast) {
  for (DType t : kAll) {
    Array a = full({2, 2}, Scalar(2.75), t, kCpu);
    c128 want = t == DType::Bool ? c128(1, 0) : is_integer(t) ? c128(2, 0) : c128(2.75, 0);
    for (c128 v : as_complex(a)) ASSERT_EQ(v, want) << name(t);
  }
  // -1 into unsigned types wraps (numpy.full copies with casting='unsafe').
  EXPECT_EQ(host<uint8_t>(full({3}, Scalar(int64_t{-1}), DType::UInt8, kCpu)),
            (std::vector<uint8_t>{255, 255, 255}));
  EXPECT_EQ(host<uint64_t>(full({1}, Scalar(int64_t{-1}), DType::UInt64, kCpu))[0],
            std::numeric_limits<uint64_t>::max());
  EXPECT_EQ(host<int8_t>(full({2}, Scalar(int64_t{300}), DType::Int8, kCpu)),
            (std::vector<int8_t>{44, 44}));
  EXPECT_EQ(host<int32_t>(full({2}, Scalar(-7.9), DType::Int32, kCpu)),
            (std::vector<int32_t>{-7, -7}));
  EXPECT_EQ(host<uint64_t>(full({1}, Scalar(uint64_t{1} << 63), DType::UInt64, kCpu))[0],
            uint64_t{1} << 63);
  // Complex values: real targets keep the real part, bool tests both parts.
  EXPECT_EQ(host<c64>(full({2}, Scalar(c128(1.5, -2)), DType::Complex64, kCpu))[1],
            c64(1.5f, -2.f));
  EXPECT_EQ(host<double>(full({2}, Scalar(c128(1.5, -2)), DType::Float64, kCpu))[0], 1.5);
  EXPECT_EQ(host<int32_t>(full({2}, Scalar(c128(0, 3)), DType::Int32, kCpu))[0], 0);
  EXPECT_TRUE(host<bool>(full({2}, Scalar(c128(0, 3)), DType::Bool, kCpu))[0]);
  EXPECT_FALSE(host<bool>(full({2}, Scalar(0.0), DType::Bool, kCpu))[1]);
  // nan: stays nan in floats, the minimum in int64 (x86).
  EXPECT_TRUE(std::isnan(static_cast<float>(host<half>(full({1}, Scalar(kNaN), DType::Float16,
                                                                kCpu))[0])));
  EXPECT_EQ(host<int64_t>(full({1}, Scalar(kNaN), DType::Int64, kCpu))[0],
            std::numeric_limits<int64_t>::min());
  // 0-d and empty results.
  Array s = full({}, Scalar(int64_t{5}), DType::Int16, kCpu);
  EXPECT_EQ(s.ndim(), 0);
  EXPECT_EQ(host<int16_t>(s), (std::vector<int16_t>{5}));
  EXPECT_EQ(full({0, 4}, Scalar(1.0), DType::Float64, kCpu).size(), 0);
}

TEST(Full, LargeArraysAreFilledCompletely) {
  Array a = full({1000, 1000}, Scalar(3.0), DType::Float32, kCpu);
  std::vector<float> v = host<float>(a);
  for (size_t i = 0; i < v.size(); ++i) ASSERT_EQ(v[i], 3.0f) << i;
  Array f = full({777, 1001}, Scalar(int64_t{-2}), DType::Int16, kCpu, Order::F);
  for (int16_t x : host<int16_t>(f)) ASSERT_EQ(x, -2);
}

TEST(Creation, FortranOrderStrides) {
  EXPECT_EQ(zeros({2, 3, 4}, DType::Int16, kCpu, Order::F).strides(), (Dims{2, 4, 12}));
  EXPECT_EQ(zeros({2, 3, 4}, DType::Int16, kCpu, Order::C).strides(), (Dims{24, 8, 2}));
  Array o = ones({2, 3}, DType::Float64, kCpu, Order::F);
  EXPECT_EQ(o.strides(), (Dims{8, 16}));
  EXPECT_TRUE(o.is_f_contiguous());
  EXPECT_FALSE(o.is_c_contiguous());
  for (double v : host<double>(o)) EXPECT_EQ(v, 1.0);
  Array f = full({3, 2}, Scalar(c128(1, 1)), DType::Complex128, kCpu, Order::F);
  EXPECT_EQ(f.strides(), (Dims{16, 48}));
  Array e = Array::empty({5, 1, 2}, DType::Float32, kCpu, Order::F);
  EXPECT_EQ(e.strides(), (Dims{4, 20, 20}));
  EXPECT_EQ(Array::empty({5, 1, 2}, DType::Float32, kCpu).strides(), (Dims{8, 8, 4}));
  EXPECT_EQ(Array::empty({}, DType::Float32, kCpu).strides(), (Dims{}));
  EXPECT_EQ(Array::empty({}, DType::Float32, kCpu).size(), 1);
}

TEST(Creation, EmptyOfAZeroSizeShapeHasAllZeroStrides) {
  // NumPy 2.4: np.empty((0, 3)).strides == (0, 0), and likewise for zeros/ones/full.
  EXPECT_EQ(Array::empty({0, 3}, DType::Float64, kCpu).strides(), (Dims{0, 0}));
  EXPECT_EQ(Array::empty({3, 0}, DType::Float64, kCpu, Order::F).strides(), (Dims{0, 0}));
  EXPECT_EQ(Array::empty({2, 0, 3}, DType::Int32, kCpu).strides(), (Dims{0, 0, 0}));
  EXPECT_EQ(Array::empty({0}, DType::Complex128, kCpu).strides(), (Dims{0}));
  EXPECT_EQ(zeros({0, 3}, DType::Float64, kCpu).strides(), (Dims{0, 0}));
  EXPECT_EQ(ones({2, 0}, DType::UInt8, kCpu, Order::F).strides(), (Dims{0, 0}));
  Array e = Array::empty({0, 3}, DType::Float64, kCpu);
  EXPECT_EQ(e.size(), 0);
  EXPECT_EQ(e.nbytes(), 0);
  EXPECT_EQ(e.shape(), (Dims{0, 3}));
  EXPECT_THROW(Array::empty({-1, 3}, DType::Float64, kCpu), ValueError);
  EXPECT_THROW(zeros({2, -3}, DType::Float64, kCpu), ValueError);
}

// ---------------------------------------------------------------------------------------
// arange: first, second, then first + i * (second - first) in the dtype's arithmetic

TEST(Arange, Float64) {
  const double first = 0.1, second = 0.4;
  Array a = arange(10, Scalar(first), Scalar(second), DType::Float64, kCpu);
  EXPECT_EQ(a.shape(), (Dims{10}));
  std::vector<double> v = host<double>(a);
  const double delta = second - first;
  EXPECT_EQ(v[0], first);
  EXPECT_EQ(v[1], second);
  for (int i = 2; i < 10; ++i) EXPECT_EQ(v[i], first + i * delta) << i;
}

TEST(Arange, LongFloat64AndInt64) {
  const int64_t n = 200001;
  std::vector<double> v = host<double>(arange(n, Scalar(-3.0), Scalar(-2.9), DType::Float64, kCpu));
  const double delta = -2.9 - -3.0;
  for (int64_t i = 2; i < n; ++i) ASSERT_EQ(v[i], -3.0 + static_cast<double>(i) * delta) << i;
  std::vector<int64_t> w =
      host<int64_t>(arange(n, Scalar(int64_t{-7}), Scalar(int64_t{-4}), DType::Int64, kCpu));
  for (int64_t i = 0; i < n; ++i) ASSERT_EQ(w[i], -7 + 3 * i) << i;
}

TEST(Arange, Float32ComputesInFloat) {
  // first and second are converted to float32 first; the rest is float arithmetic (for
  // 0.1, 0.2 a quarter of the values differ from the same sum formed in double).
  for (auto [a, b] : {std::pair{0.1, 0.35}, std::pair{0.1, 0.2}, std::pair{-0.7, 0.13}}) {
    std::vector<float> v = host<float>(arange(60, Scalar(a), Scalar(b), DType::Float32, kCpu));
    const float first = static_cast<float>(a), second = static_cast<float>(b);
    const float delta = second - first;
    EXPECT_EQ(v[0], first);
    EXPECT_EQ(v[1], second);
    for (int i = 2; i < 60; ++i) {
      volatile float prod = static_cast<float>(i) * delta;
      EXPECT_EQ(v[i], first + prod) << a << " " << b << " " << i;
    }
  }
}

TEST(Arange, Float16ComputesInFloatAndRounds) {
  Array a = arange(30, Scalar(0.1), Scalar(0.3), DType::Float16, kCpu);
  std::vector<half> v = host<half>(a);
  const float first = static_cast<float>(static_cast<half>(0.1));
  const float second = static_cast<float>(static_cast<half>(0.3));
  const float delta = second - first;
  EXPECT_EQ(static_cast<float>(v[0]), first);
  EXPECT_EQ(static_cast<float>(v[1]), second);
  for (int i = 2; i < 30; ++i) {
    volatile float prod = static_cast<float>(i) * delta;
    EXPECT_EQ(static_cast<float>(v[i]), static_cast<float>(static_cast<half>(first + prod))) << i;
  }
}

TEST(Arange, Int8WrapsAround) {
  // np.arange(120, 132, dtype=np.int8) fills 120..127, -128, ..., -125.
  std::vector<int8_t> up =
      host<int8_t>(arange(12, Scalar(int64_t{120}), Scalar(int64_t{121}), DType::Int8, kCpu));
  for (int i = 0; i < 12; ++i) EXPECT_EQ(up[i], static_cast<int8_t>(120 + i)) << i;
  EXPECT_EQ(up[8], -128);
  EXPECT_EQ(up[11], -125);
  std::vector<int8_t> down =
      host<int8_t>(arange(6, Scalar(int64_t{-120}), Scalar(int64_t{-125}), DType::Int8, kCpu));
  EXPECT_EQ(down, (std::vector<int8_t>{-120, -125, 126, 121, 116, 111}));
  // uint8 counting down: delta is 254 in uint8, the sums wrap.
  std::vector<uint8_t> u =
      host<uint8_t>(arange(5, Scalar(int64_t{3}), Scalar(int64_t{1}), DType::UInt8, kCpu));
  EXPECT_EQ(u, (std::vector<uint8_t>{3, 1, 255, 253, 251}));
  // first and second are converted to the dtype before anything else: 300 -> 44.
  std::vector<int8_t> c =
      host<int8_t>(arange(3, Scalar(int64_t{300}), Scalar(int64_t{301}), DType::Int8, kCpu));
  EXPECT_EQ(c, (std::vector<int8_t>{44, 45, 46}));
  std::vector<int16_t> s =
      host<int16_t>(arange(4, Scalar(int64_t{32766}), Scalar(int64_t{32767}), DType::Int16, kCpu));
  EXPECT_EQ(s, (std::vector<int16_t>{32766, 32767, -32768, -32767}));
}

TEST(Arange, UInt64AboveTwoTo63) {
  const uint64_t base = uint64_t{1} << 63;
  std::vector<uint64_t> v =
      host<uint64_t>(arange(4, Scalar(base), Scalar(base + 5), DType::UInt64, kCpu));
  EXPECT_EQ(v, (std::vector<uint64_t>{base, base + 5, base + 10, base + 15}));
}

TEST(Arange, FloatBoundsConvertedToAnIntegerDType) {
  // np.arange(0.5, 5.5, 1.2, dtype=int): first = int(0.5) = 0, second = int(1.7) = 1.
  std::vector<int64_t> v = host<int64_t>(arange(5, Scalar(0.5), Scalar(1.7), DType::Int64, kCpu));
  EXPECT_EQ(v, (std::vector<int64_t>{0, 1, 2, 3, 4}));
  std::vector<int32_t> w = host<int32_t>(arange(4, Scalar(-0.5), Scalar(2.9), DType::Int32, kCpu));
  EXPECT_EQ(w, (std::vector<int32_t>{0, 2, 4, 6}));
}

TEST(Arange, Complex) {
  std::vector<c128> v = host<c128>(
      arange(5, Scalar(c128(1, 2)), Scalar(c128(1.5, 1)), DType::Complex128, kCpu));
  for (int i = 0; i < 5; ++i) EXPECT_EQ(v[i], c128(1 + 0.5 * i, 2 - 1.0 * i)) << i;
  std::vector<c64> w = host<c64>(arange(4, Scalar(0.1), Scalar(0.3), DType::Complex64, kCpu));
  const float first = 0.1f, delta = 0.3f - 0.1f;
  for (int i = 2; i < 4; ++i) {
    volatile float prod = static_cast<float>(i) * delta;
    EXPECT_EQ(w[i], c64(first + prod, 0.f)) << i;
  }
}

TEST(Arange, BoolAndShortLengths) {
  EXPECT_EQ(host<bool>(arange(2, Scalar(false), Scalar(true), DType::Bool, kCpu)),
            (std::vector<bool>{false, true}));
  EXPECT_THROW(arange(3, Scalar(false), Scalar(true), DType::Bool, kCpu), TypeError);
  Array e = arange(0, Scalar(1.0), Scalar(2.0), DType::Float64, kCpu);
  EXPECT_EQ(e.shape(), (Dims{0}));
  EXPECT_EQ(arange(-4, Scalar(1.0), Scalar(2.0), DType::Float64, kCpu).shape(), (Dims{0}));
  EXPECT_EQ(host<double>(arange(1, Scalar(7.5), Scalar(8.5), DType::Float64, kCpu)),
            (std::vector<double>{7.5}));
  EXPECT_EQ(host<int32_t>(arange(2, Scalar(int64_t{9}), Scalar(int64_t{4}), DType::Int32, kCpu)),
            (std::vector<int32_t>{9, 4}));
}

// ---------------------------------------------------------------------------------------
// linspace: the arguments as numpy.linspace forms them, in float64 or float32

LinspaceArgs args64(double start, double stop, int64_t num, bool endpoint = true) {
  LinspaceArgs a;
  a.num = num;
  a.endpoint = endpoint;
  a.div = endpoint ? num - 1 : num;
  const double delta = stop - start;
  const double step = a.div > 0 ? delta / static_cast<double>(a.div) : kNaN;
  a.step_is_zero = a.div > 0 && step == 0;
  a.start = Scalar(start);
  a.stop = Scalar(stop);
  a.delta = Scalar(delta);
  a.step = Scalar(a.div > 0 ? step : delta);  // numpy multiplies by delta when div == 0
  return a;
}

LinspaceArgs args32(float start, float stop, int64_t num, bool endpoint = true) {
  LinspaceArgs a;
  a.num = num;
  a.endpoint = endpoint;
  a.div = endpoint ? num - 1 : num;
  const float delta = stop - start;
  const float step = a.div > 0 ? delta / static_cast<float>(a.div) : NAN;
  a.step_is_zero = a.div > 0 && step == 0;
  a.start = Scalar(static_cast<double>(start)).cast(DType::Float32);
  a.stop = Scalar(static_cast<double>(stop)).cast(DType::Float32);
  a.delta = Scalar(static_cast<double>(delta)).cast(DType::Float32);
  a.step = Scalar(static_cast<double>(a.div > 0 ? step : delta)).cast(DType::Float32);
  return a;
}

TEST(Linspace, EndpointIncluded) {
  Array a = linspace(args64(0, 1, 5), DType::Float64, kCpu);
  EXPECT_EQ(a.shape(), (Dims{5}));
  EXPECT_EQ(host<double>(a), (std::vector<double>{0, 0.25, 0.5, 0.75, 1}));
  Array b = linspace(args64(-1.3, 0.7, 8), DType::Float64, kCpu);
  std::vector<double> v = host<double>(b);
  const double step = (0.7 - -1.3) / 7;
  for (int i = 0; i < 7; ++i) EXPECT_EQ(v[i], i * step + -1.3) << i;
  EXPECT_EQ(v[7], 0.7);
}

TEST(Linspace, SetLastGivesExactlyStop) {
  // numpy.linspace(0, 0.9, 4): 3 * (0.9 / 3) is 0.8999999999999999; the last value is 0.9.
  const double step = 0.9 / 3;
  ASSERT_NE(3 * step, 0.9);
  std::vector<double> v = host<double>(linspace(args64(0, 0.9, 4), DType::Float64, kCpu));
  EXPECT_EQ(v[0], 0.0);
  EXPECT_EQ(v[1], step);
  EXPECT_EQ(v[2], 2 * step);
  EXPECT_EQ(v[3], 0.9);
}

TEST(Linspace, EndpointExcluded) {
  // numpy.linspace(0, 1, 5, endpoint=False).
  std::vector<double> v =
      host<double>(linspace(args64(0, 1, 5, false), DType::Float64, kCpu));
  EXPECT_EQ(v, (std::vector<double>{0.0, 0.2, 0.4, 0.6000000000000001, 0.8}));
  // The last value is not stop, and not forced to anything.
  const double step = 0.9 / 3;
  std::vector<double> w =
      host<double>(linspace(args64(0, 0.9, 3, false), DType::Float64, kCpu));
  EXPECT_EQ(w, (std::vector<double>{0.0, step, 2 * step}));
}

TEST(Linspace, ZeroAndOneSamples) {
  for (bool endpoint : {true, false}) {
    Array z = linspace(args64(3, 9, 0, endpoint), DType::Float64, kCpu);
    EXPECT_EQ(z.shape(), (Dims{0}));
    EXPECT_EQ(z.size(), 0);
    // numpy.linspace(3, 9, 1) == [3.] with or without the endpoint.
    Array one = linspace(args64(3, 9, 1, endpoint), DType::Float64, kCpu);
    EXPECT_EQ(host<double>(one), (std::vector<double>{3.0})) << endpoint;
  }
  EXPECT_EQ(host<int32_t>(linspace(args64(-2.5, 9, 1), DType::Int32, kCpu)),
            (std::vector<int32_t>{-3}));
}

TEST(Linspace, IntegerTargetsAreFlooredFirst) {
  // numpy.linspace(-2.5, 2.5, 6, dtype=np.int64) == [-3, -2, -1, 0, 1, 2] (astype alone
  // would truncate toward zero: [-2, -1, 0, 0, 1, 2]).
  EXPECT_EQ(host<int64_t>(linspace(args64(-2.5, 2.5, 6), DType::Int64, kCpu)),
            (std::vector<int64_t>{-3, -2, -1, 0, 1, 2}));
  // numpy.linspace(-1, 1, 5, dtype=np.uint8) == [255, 255, 0, 0, 1].
  EXPECT_EQ(host<uint8_t>(linspace(args64(-1, 1, 5), DType::UInt8, kCpu)),
            (std::vector<uint8_t>{255, 255, 0, 0, 1}));
  EXPECT_EQ(host<int8_t>(linspace(args64(0, 10, 4), DType::Int8, kCpu)),
            (std::vector<int8_t>{0, 3, 6, 10}));
  EXPECT_EQ(host<int16_t>(linspace(args64(10, 0, 4, false), DType::Int16, kCpu)),
            (std::vector<int16_t>{10, 7, 5, 2}));
  // Float targets are not floored.
  std::vector<float> f = host<float>(linspace(args64(-2.5, 2.5, 6), DType::Float32, kCpu));
  EXPECT_EQ(f, (std::vector<float>{-2.5f, -1.5f, -0.5f, 0.5f, 1.5f, 2.5f}));
  // bool is not a numpy integer type: no floor, so 0.5 becomes True.
  EXPECT_EQ(host<bool>(linspace(args64(0, 1, 3), DType::Bool, kCpu)),
            (std::vector<bool>{false, true, true}));
}

TEST(Linspace, Float32ComputesInFloat) {
  Array a = linspace(args32(0.1f, 0.7f, 7), DType::Float32, kCpu);
  EXPECT_EQ(a.dtype(), DType::Float32);
  std::vector<float> v = host<float>(a);
  const float step = (0.7f - 0.1f) / 6.f;
  for (int i = 0; i < 6; ++i) {
    volatile float prod = static_cast<float>(i) * step;
    EXPECT_EQ(v[i], prod + 0.1f) << i;
  }
  EXPECT_EQ(v[6], 0.7f);
  // Converted to float64 afterwards: the float32 values, widened.
  std::vector<double> w = host<double>(linspace(args32(0.1f, 0.7f, 7), DType::Float64, kCpu));
  for (int i = 0; i < 7; ++i) EXPECT_EQ(w[i], static_cast<double>(v[i])) << i;
}

TEST(Linspace, DenormalStepDividesFirst) {
  // numpy gh-5437: when delta / div underflows to 0, y = (i / div) * delta + start.
  const double stop = 10 * 4.9406564584124654e-324;
  LinspaceArgs args = args64(0, stop, 100);
  ASSERT_TRUE(args.step_is_zero);
  std::vector<double> v = host<double>(linspace(args, DType::Float64, kCpu));
  for (int i = 0; i < 99; ++i) {
    EXPECT_EQ(v[i], (static_cast<double>(i) / 99) * stop + 0.0) << i;
  }
  EXPECT_GT(v[50], 0.0);
  EXPECT_EQ(v[99], stop);
}

TEST(Linspace, Complex) {
  LinspaceArgs a;
  a.num = 3;
  a.div = 2;
  a.start = Scalar(c128(0, 0));
  a.stop = Scalar(c128(1, 2));
  a.delta = Scalar(c128(1, 2));
  a.step = Scalar(c128(0.5, 1));
  std::vector<c128> v = host<c128>(linspace(a, DType::Complex128, kCpu));
  EXPECT_EQ(v, (std::vector<c128>{{0, 0}, {0.5, 1}, {1, 2}}));
}

TEST(Linspace, BadArgumentsRaise) {
  EXPECT_THROW(linspace(args64(0, 1, -1), DType::Float64, kCpu), ValueError);
  LinspaceArgs ints = args64(0, 1, 5);
  ints.start = Scalar(int64_t{0});
  EXPECT_THROW(linspace(ints, DType::Float64, kCpu), TypeError);
}

// ---------------------------------------------------------------------------------------
// eye

TEST(Eye, OnesOnTheKthDiagonal) {
  const std::vector<std::pair<int64_t, int64_t>> shapes = {{3, 3}, {3, 5}, {5, 3}, {4, 4},
                                                           {1, 4}, {4, 1}, {0, 3}, {2, 0}};
  for (DType t : {DType::Float64, DType::Int32, DType::Bool, DType::Complex64, DType::Float16,
                  DType::UInt8}) {
    for (auto [n, m] : shapes) {
      for (int64_t k : {-2, -1, 0, 1, 2, 5, -6}) {
        for (Order order : {Order::C, Order::F}) {
          Array e = eye(n, m, k, t, kCpu, order);
          ASSERT_EQ(e.shape(), (Dims{n, m}));
          ASSERT_EQ(e.dtype(), t);
          std::vector<c128> v = as_complex(e);
          for (int64_t i = 0; i < n; ++i) {
            for (int64_t j = 0; j < m; ++j) {
              ASSERT_EQ(v[i * m + j], c128(j - i == k ? 1 : 0, 0))
                  << name(t) << " " << n << "x" << m << " k=" << k << " order "
                  << static_cast<char>(order) << " at (" << i << ", " << j << ")";
            }
          }
        }
      }
    }
  }
}

TEST(Eye, Layout) {
  EXPECT_EQ(eye(3, 4, 0, DType::Float64, kCpu).strides(), (Dims{32, 8}));
  EXPECT_EQ(eye(3, 4, 0, DType::Float64, kCpu, Order::F).strides(), (Dims{8, 24}));
  EXPECT_EQ(eye(3, 4, 1, DType::Int16, kCpu, Order::F).strides(), (Dims{2, 6}));
  EXPECT_EQ(eye(0, 4, 0, DType::Float64, kCpu).strides(), (Dims{0, 0}));
  EXPECT_THROW(eye(-1, 3, 0, DType::Float64, kCpu), ValueError);
}

}  // namespace
}  // namespace tessera
