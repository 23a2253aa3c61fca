// Value conversion between dtypes as NumPy's unsafe cast does it (astype): truncation,
// wraparound, x86 results for values an integer cannot hold, complex to real, bool, and
// float16 rounding. Then Array::astype over every dtype pair and Scalar::cast.

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "kernels/cast.h"
#include "kernels/types.h"
#include "tessera/tessera.h"

namespace tessera {
namespace {

using kernels::cast_value;
using kernels::half;
using c64 = std::complex<float>;
using c128 = std::complex<double>;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr int32_t kI32Min = std::numeric_limits<int32_t>::min();
constexpr int64_t kI64Min = std::numeric_limits<int64_t>::min();
constexpr uint64_t kU64Max = std::numeric_limits<uint64_t>::max();
constexpr uint64_t kTwo63 = uint64_t{1} << 63;

float f(half h) { return static_cast<float>(h); }
half h(float v) { return static_cast<half>(v); }

TEST(CastValue, FloatToIntTruncatesTowardZero) {
  EXPECT_EQ(cast_value<int32_t>(2.9), 2);
  EXPECT_EQ(cast_value<int32_t>(-2.9), -2);
  EXPECT_EQ(cast_value<int64_t>(-0.5), 0);
  EXPECT_EQ(cast_value<int64_t>(0.99999), 0);
  EXPECT_EQ(cast_value<int64_t>(-1e15 - 0.5), -1000000000000000);
  EXPECT_EQ(cast_value<int64_t>(4503599627370495.5), 4503599627370495);
  EXPECT_EQ(cast_value<int8_t>(-127.9), -127);
  EXPECT_EQ(cast_value<int16_t>(32767.99), 32767);
  EXPECT_EQ(cast_value<uint8_t>(255.9), 255);
  EXPECT_EQ(cast_value<uint16_t>(0.7), 0);
  EXPECT_EQ(cast_value<uint32_t>(4294967295.5), 4294967295u);
  EXPECT_EQ(cast_value<uint64_t>(1e19), 10000000000000000000u);
  EXPECT_EQ(cast_value<int32_t>(3.99f), 3);
  EXPECT_EQ(cast_value<int32_t>(-3.99f), -3);
  EXPECT_EQ(cast_value<int64_t>(h(-7.5f)), -7);
  EXPECT_EQ(cast_value<uint8_t>(h(200.5f)), 200);
  EXPECT_EQ(cast_value<int32_t>(-0.0), 0);
}

TEST(CastValue, IntegersWrapAround) {
  EXPECT_EQ(cast_value<int8_t>(int64_t{300}), 44);
  EXPECT_EQ(cast_value<int8_t>(int64_t{-300}), -44);
  EXPECT_EQ(cast_value<int8_t>(int64_t{128}), -128);
  EXPECT_EQ(cast_value<int8_t>(int64_t{-129}), 127);
  EXPECT_EQ(cast_value<uint8_t>(int64_t{-1}), 255);
  EXPECT_EQ(cast_value<uint8_t>(int8_t{-56}), 200);
  EXPECT_EQ(cast_value<int8_t>(uint8_t{200}), -56);
  EXPECT_EQ(cast_value<uint16_t>(int32_t{65541}), 5);
  EXPECT_EQ(cast_value<int16_t>(int32_t{kI32Min}), 0);
  EXPECT_EQ(cast_value<uint32_t>(int64_t{(int64_t{1} << 32) + 7}), 7u);
  EXPECT_EQ(cast_value<uint32_t>(int8_t{-1}), 4294967295u);
  EXPECT_EQ(cast_value<int64_t>(kU64Max), -1);
  EXPECT_EQ(cast_value<int64_t>(kTwo63), kI64Min);
  EXPECT_EQ(cast_value<uint64_t>(int64_t{-1}), kU64Max);
  EXPECT_EQ(cast_value<uint64_t>(int8_t{-128}), kU64Max - 127);
  EXPECT_EQ(cast_value<int32_t>(uint32_t{4294967295u}), -1);
  // Floats wrap the same way once truncated, for the narrow integer types.
  EXPECT_EQ(cast_value<int8_t>(300.7), 44);
  EXPECT_EQ(cast_value<int8_t>(-300.7), -44);
  EXPECT_EQ(cast_value<uint8_t>(-1.0), 255);
  EXPECT_EQ(cast_value<uint16_t>(-1.5), 65535);
  EXPECT_EQ(cast_value<uint32_t>(-1.0), 4294967295u);
  EXPECT_EQ(cast_value<uint64_t>(-1.0), kU64Max);
}

// Values an integer type cannot hold: x86's cvttsd2si gives the minimum ("integer
// indefinite"); numpy on x86-64 gives the same.
TEST(CastValue, NanInfAndOutOfRangeGiveTheMinimumForInt32AndInt64) {
  for (double v : {kNaN, kInf, -kInf, 3e9, -3e9, 2147483648.0, -2147483649.0, 1e300}) {
    EXPECT_EQ(cast_value<int32_t>(v), kI32Min) << v;
    EXPECT_EQ(cast_value<int32_t>(static_cast<float>(v)), kI32Min) << v;
  }
  EXPECT_EQ(cast_value<int32_t>(2147483647.0), 2147483647);
  EXPECT_EQ(cast_value<int32_t>(-2147483648.0), kI32Min);
  EXPECT_EQ(cast_value<int32_t>(-2147483648.9), kI32Min);
  for (double v : {kNaN, kInf, -kInf, 1e19, -1e19, 9223372036854775808.0, 1e300}) {
    EXPECT_EQ(cast_value<int64_t>(v), kI64Min) << v;
    EXPECT_EQ(cast_value<int64_t>(static_cast<float>(v)), kI64Min) << v;
  }
  EXPECT_EQ(cast_value<int64_t>(-9223372036854775808.0), kI64Min);
  EXPECT_EQ(cast_value<int64_t>(9223372036854774784.0), 9223372036854774784);
  EXPECT_EQ(cast_value<int64_t>(3e9), 3000000000);
  EXPECT_EQ(cast_value<int64_t>(-3e9), -3000000000);
  // float16: 65504 is the largest finite value; inf and nan as above.
  EXPECT_EQ(cast_value<int32_t>(h(65504.f)), 65504);
  EXPECT_EQ(cast_value<int32_t>(h(INFINITY)), kI32Min);
  EXPECT_EQ(cast_value<int64_t>(h(-INFINITY)), kI64Min);
  EXPECT_EQ(cast_value<int64_t>(h(NAN)), kI64Min);
  // The narrow types truncate the 32-bit indefinite value: 0 (numpy: nan -> int8 gives 0).
  EXPECT_EQ(cast_value<int8_t>(kNaN), 0);
  EXPECT_EQ(cast_value<int16_t>(kInf), 0);
  EXPECT_EQ(cast_value<uint8_t>(kNaN), 0);
  EXPECT_EQ(cast_value<uint16_t>(-kInf), 0);
  EXPECT_EQ(cast_value<int8_t>(1e20), 0);
  // Complex sources take the same path through their real part.
  EXPECT_EQ(cast_value<int32_t>(c128(kNaN, 0)), kI32Min);
  EXPECT_EQ(cast_value<int64_t>(c64(INFINITY, 1)), kI64Min);
}

// uint64 follows the compiler's unsigned conversion (below 2^63 a signed conversion, else
// subtract 2^63 and set the top bit); numpy on x86-64 gives these.
TEST(CastValue, FloatToUInt64AboveTwoTo63) {
  EXPECT_EQ(cast_value<uint64_t>(9223372036854775808.0), kTwo63);
  EXPECT_EQ(cast_value<uint64_t>(9223372036854779904.0), kTwo63 + 4096);
  EXPECT_EQ(cast_value<uint64_t>(18446744073709549568.0), 18446744073709549568u);
  EXPECT_EQ(cast_value<uint64_t>(1.5e19), 15000000000000000000u);
  EXPECT_EQ(cast_value<uint64_t>(9223372036854774784.0), 9223372036854774784u);
  EXPECT_EQ(cast_value<uint64_t>(3e9), 3000000000u);
  EXPECT_EQ(cast_value<uint64_t>(static_cast<float>(1.5e19)), 15000000520515485696u);
  EXPECT_EQ(cast_value<uint64_t>(18446744073709551616.0), 0u);  // 2^64
  EXPECT_EQ(cast_value<uint64_t>(kInf), 0u);
  EXPECT_EQ(cast_value<uint64_t>(-kInf), kTwo63);
  EXPECT_EQ(cast_value<uint64_t>(-1e20), kTwo63);
  EXPECT_EQ(cast_value<uint64_t>(-3e9), 18446744070709551616u);
}

// nan is unordered: the compiler's "v < 2^63" test fails for it and takes the signed path,
// cvttsd2si(nan) = 0x8000000000000000. numpy gives 9223372036854775808 for
// np.array([np.nan]).astype(np.uint64), contiguous or strided, float64/32/16 alike.
TEST(CastValue, NanToUInt64IsTwoTo63) {
  EXPECT_EQ(cast_value<uint64_t>(kNaN), kTwo63);
  EXPECT_EQ(cast_value<uint64_t>(std::numeric_limits<float>::quiet_NaN()), kTwo63);
  EXPECT_EQ(cast_value<uint64_t>(h(NAN)), kTwo63);
}

TEST(CastValue, ComplexToRealKeepsTheRealPart) {
  EXPECT_EQ(cast_value<double>(c128(3.5, -2)), 3.5);
  EXPECT_EQ(cast_value<float>(c128(0.1, 5)), 0.1f);
  EXPECT_EQ(cast_value<double>(c64(-1.25f, 7)), -1.25);
  EXPECT_EQ(cast_value<int32_t>(c128(3.9, 100)), 3);
  EXPECT_EQ(cast_value<uint8_t>(c128(-1.5, 9)), 255);
  EXPECT_EQ(cast_value<int64_t>(c64(0, 1)), 0);
  EXPECT_EQ(f(cast_value<half>(c128(2049, 1))), 2048.f);
  // complex -> complex narrows both parts.
  c64 n = cast_value<c64>(c128(0.1, 1e40));
  EXPECT_EQ(n.real(), 0.1f);
  EXPECT_TRUE(std::isinf(n.imag()));
  c128 w = cast_value<c128>(c64(0.1f, -2.5f));
  EXPECT_EQ(w.real(), static_cast<double>(0.1f));
  EXPECT_EQ(w.imag(), -2.5);
  // real -> complex has a zero imaginary part.
  EXPECT_EQ(cast_value<c128>(int64_t{-3}), c128(-3, 0));
  EXPECT_EQ(cast_value<c64>(0.1), c64(0.1f, 0));
  EXPECT_EQ(cast_value<c128>(kU64Max), c128(18446744073709551616.0, 0));
  EXPECT_EQ(cast_value<c64>(h(0.5f)), c64(0.5f, 0));
}

TEST(CastValue, AnythingToBoolIsNonZero) {
  EXPECT_FALSE(cast_value<bool>(0.0));
  EXPECT_FALSE(cast_value<bool>(-0.0));
  EXPECT_TRUE(cast_value<bool>(0.5));
  EXPECT_TRUE(cast_value<bool>(-1e-300));
  EXPECT_TRUE(cast_value<bool>(5e-324));
  EXPECT_TRUE(cast_value<bool>(kNaN));
  EXPECT_TRUE(cast_value<bool>(-kInf));
  EXPECT_TRUE(cast_value<bool>(1e-45f));
  EXPECT_FALSE(cast_value<bool>(h(0.f)));
  EXPECT_FALSE(cast_value<bool>(h(-0.f)));
  EXPECT_TRUE(cast_value<bool>(h(6e-8f)));  // the smallest float16 subnormal
  // Not a wrap to a byte: 256 is true.
  EXPECT_TRUE(cast_value<bool>(int64_t{256}));
  EXPECT_TRUE(cast_value<bool>(int16_t{-32768}));
  EXPECT_TRUE(cast_value<bool>(kTwo63));
  EXPECT_FALSE(cast_value<bool>(uint64_t{0}));
  EXPECT_FALSE(cast_value<bool>(int8_t{0}));
  // Complex: true when either part is non-zero.
  EXPECT_TRUE(cast_value<bool>(c128(0, 1)));
  EXPECT_TRUE(cast_value<bool>(c64(0, -1e-40f)));
  EXPECT_TRUE(cast_value<bool>(c128(2, 0)));
  EXPECT_TRUE(cast_value<bool>(c128(0, kNaN)));
  EXPECT_FALSE(cast_value<bool>(c128(0, 0)));
  EXPECT_FALSE(cast_value<bool>(c128(-0.0, -0.0)));
  EXPECT_FALSE(cast_value<bool>(c64(0, 0)));
  EXPECT_TRUE(cast_value<bool>(true));
}

TEST(CastValue, BoolToNumbers) {
  EXPECT_EQ(cast_value<int8_t>(true), 1);
  EXPECT_EQ(cast_value<uint8_t>(true), 1);
  EXPECT_EQ(cast_value<int64_t>(true), 1);
  EXPECT_EQ(cast_value<uint64_t>(true), 1u);
  EXPECT_EQ(cast_value<int32_t>(false), 0);
  EXPECT_EQ(cast_value<double>(true), 1.0);
  EXPECT_EQ(cast_value<float>(false), 0.0f);
  EXPECT_EQ(f(cast_value<half>(true)), 1.0f);
  EXPECT_EQ(cast_value<c128>(true), c128(1, 0));
  EXPECT_EQ(cast_value<c64>(false), c64(0, 0));
}

// IEEE round to nearest, ties to even, straight from the source (no double rounding).
TEST(CastValue, HalfRoundsToNearestEven) {
  EXPECT_EQ(f(cast_value<half>(2049.0)), 2048.f);  // tie: to even
  EXPECT_EQ(f(cast_value<half>(2051.0)), 2052.f);  // tie: to even
  EXPECT_EQ(f(cast_value<half>(2050.0)), 2050.f);
  EXPECT_EQ(f(cast_value<half>(2049.0000009536743)), 2050.f);  // 2049 + 2^-20: not a tie
  EXPECT_EQ(f(cast_value<half>(2049.0f)), 2048.f);
  EXPECT_EQ(f(cast_value<half>(2049.0009765625f)), 2050.f);
  EXPECT_EQ(f(cast_value<half>(0.1)), 0.0999755859375f);
  EXPECT_EQ(f(cast_value<half>(65504.0)), 65504.f);
  EXPECT_EQ(f(cast_value<half>(65519.99)), 65504.f);
  EXPECT_TRUE(std::isinf(f(cast_value<half>(65520.0))));  // halfway to 65536 rounds up
  EXPECT_GT(f(cast_value<half>(65520.0)), 0.f);
  EXPECT_TRUE(std::isinf(f(cast_value<half>(65520.0f))));
  EXPECT_LT(f(cast_value<half>(-65520.0)), -65504.f);
  EXPECT_TRUE(std::isinf(f(cast_value<half>(1e300))));
  // Subnormals: 2^-24 is the smallest; 2^-25 ties to 0, 3 * 2^-26 rounds up to 2^-24.
  EXPECT_EQ(f(cast_value<half>(std::ldexp(1.0, -24))), std::ldexp(1.f, -24));
  EXPECT_EQ(f(cast_value<half>(std::ldexp(1.0, -25))), 0.f);
  EXPECT_EQ(f(cast_value<half>(std::ldexp(3.0, -26))), std::ldexp(1.f, -24));
  EXPECT_EQ(f(cast_value<half>(std::ldexp(3.0, -25))), std::ldexp(1.f, -23));  // 1.5 ulp
  EXPECT_TRUE(std::isnan(f(cast_value<half>(kNaN))));
  // Integers.
  EXPECT_EQ(f(cast_value<half>(int64_t{2049})), 2048.f);
  EXPECT_EQ(f(cast_value<half>(int32_t{2051})), 2052.f);
  EXPECT_EQ(f(cast_value<half>(int64_t{65519})), 65504.f);
  EXPECT_TRUE(std::isinf(f(cast_value<half>(int64_t{65520}))));
  EXPECT_TRUE(std::isinf(f(cast_value<half>(kU64Max))));
  EXPECT_EQ(f(cast_value<half>(int8_t{-128})), -128.f);
  // half -> wider types is exact.
  EXPECT_EQ(cast_value<double>(cast_value<half>(0.1)), 0.0999755859375);
  EXPECT_EQ(cast_value<float>(h(65504.f)), 65504.f);
  EXPECT_EQ(cast_value<int16_t>(h(-2048.f)), -2048);
}

TEST(CastValue, FloatAndIntegerPrecision) {
  EXPECT_EQ(cast_value<float>(0.1), 0.1f);
  EXPECT_TRUE(std::isinf(cast_value<float>(1e40)));
  EXPECT_EQ(cast_value<float>(1e-50), 0.f);
  EXPECT_EQ(cast_value<float>(int64_t{16777217}), 16777216.f);
  EXPECT_EQ(cast_value<float>(int64_t{16777219}), 16777220.f);
  EXPECT_EQ(cast_value<double>(int64_t{(int64_t{1} << 53) + 1}), 9007199254740992.0);
  EXPECT_EQ(cast_value<double>(kU64Max), 18446744073709551616.0);
  EXPECT_EQ(cast_value<double>(int64_t{kI64Min}), -9223372036854775808.0);
  EXPECT_TRUE(std::isnan(cast_value<double>(std::numeric_limits<float>::quiet_NaN())));
}

// ---------------------------------------------------------------------------------------
// Array::astype against cast_value, every pair of dtypes

const DType kAll[] = {DType::Bool,    DType::Int8,    DType::Int16,     DType::Int32,
                      DType::Int64,   DType::UInt8,   DType::UInt16,    DType::UInt32,
                      DType::UInt64,  DType::Float16, DType::Float32,   DType::Float64,
                      DType::Complex64, DType::Complex128};

// Byte equality, except that any two NaNs of a float or complex component are equal.
template <typename T>
bool same_value(T a, T b) {
  if constexpr (kernels::is_complex_type<T>::value) {
    return same_value(a.real(), b.real()) && same_value(a.imag(), b.imag());
  } else if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, half>) {
    if (std::isnan(static_cast<double>(a)) && std::isnan(static_cast<double>(b))) return true;
    return std::memcmp(&a, &b, sizeof(T)) == 0;
  } else {
    return a == b;
  }
}

const std::vector<double> kSample = {0,    1,     -1,    2.5,     -2.5,    0.1,    -0.0,
                                     127,  128,   255,   256,     -129,    300.75, 65504,
                                     70000, 1e10, -1e10, 4e9,     -3e9,    1e19,   kNaN,
                                     kInf, -kInf, 2049,  65520,   32767.5, -32768.5};

// A float64 source of `rows` x `cols` holding kSample cyclically, then cast to `dtype` with a
// non-zero imaginary part for complex dtypes.
Array make_source(DType dtype, int64_t rows, int64_t cols) {
  Array d = Array::empty({rows, cols}, DType::Float64, Device::cpu());
  std::vector<double> v(static_cast<size_t>(rows * cols));
  for (size_t i = 0; i < v.size(); ++i) v[i] = kSample[i % kSample.size()];
  d.copy_from_host(v.data());
  Array out = d.astype(dtype);
  if (is_complex(dtype)) {
    Array im = out.imag();
    Array evens = im.index({IndexItem::slice(std::nullopt, std::nullopt, 2)});
    evens.fill(Scalar(0.75));
  }
  return out;
}

void check_astype(const Array& src, DType to, const std::string& what) {
  Array out = src.astype(to);
  ASSERT_EQ(out.dtype(), to) << what;
  ASSERT_EQ(out.shape(), src.shape()) << what;
  ASSERT_NE(out.buffer(), src.buffer()) << what;
  const int64_t n = src.size();
  std::vector<unsigned char> in_bytes(static_cast<size_t>(n * src.itemsize()) + 16);
  std::vector<unsigned char> out_bytes(static_cast<size_t>(n * out.itemsize()) + 16);
  src.copy_to_host(in_bytes.data());
  out.copy_to_host(out_bytes.data());
  kernels::visit_dtype(src.dtype(), [&](auto from_tag) {
    using From = decltype(from_tag);
    kernels::visit_dtype(to, [&](auto to_tag) {
      using To = decltype(to_tag);
      int bad = 0;
      for (int64_t i = 0; i < n && bad < 3; ++i) {
        From x;
        To got;
        std::memcpy(&x, in_bytes.data() + i * sizeof(From), sizeof(From));
        std::memcpy(&got, out_bytes.data() + i * sizeof(To), sizeof(To));
        const To want = cast_value<To>(x);
        if (!same_value(got, want)) {
          ++bad;
          ADD_FAILURE() << what << ": element " << i << " of " << dtype_name(src.dtype())
                        << " -> " << dtype_name(to) << " differs from cast_value";
        }
      }
    });
  });
}

TEST(Astype, EveryDTypePairOnAStridedArrayMatchesCastValue) {
  for (DType from : kAll) {
    Array base = make_source(from, 9, 6);
    // Every other column of every row, rows reversed: strides (-2 * 6 * itemsize, 2 * itemsize).
    Array strided = base.index({IndexItem::slice(std::nullopt, std::nullopt, -1),
                                IndexItem::slice(std::nullopt, std::nullopt, 2)});
    ASSERT_FALSE(strided.is_c_contiguous());
    Array transposed = base.transpose();
    for (DType to : kAll) {
      const std::string pair = std::string(dtype_name(from)) + "->" + std::string(dtype_name(to));
      check_astype(strided, to, "strided " + pair);
      check_astype(transposed, to, "transposed " + pair);
      check_astype(base, to, "contiguous " + pair);
    }
  }
}

TEST(Astype, LongContiguousAndBroadcastSources) {
  // Long enough to be split over threads.
  for (DType from : {DType::Float64, DType::Int64, DType::Complex64, DType::Float16}) {
    Array base = make_source(from, 1, 300000);
    for (DType to : {DType::Int8, DType::UInt64, DType::Float32, DType::Bool, DType::Float16}) {
      check_astype(base, to, "long");
    }
  }
  // A broadcast (zero-stride) source.
  Array one = make_source(DType::Float64, 1, 11).index({IndexItem::integer(0),
                                                         IndexItem::integer(10)});
  Array wide = one.broadcast_to({5, 7});
  for (DType to : kAll) check_astype(wide, to, "broadcast");
}

TEST(Astype, LayoutOfTheResult) {
  Array a = make_source(DType::Float64, 3, 4);
  EXPECT_TRUE(a.astype(DType::Int32).is_c_contiguous());
  EXPECT_EQ(a.astype(DType::Int32).strides(), (Dims{16, 4}));
  // order K keeps the source's axis order: a transposed source gives an F-ordered result.
  Array t = a.transpose().astype(DType::Float32);
  EXPECT_EQ(t.strides(), (Dims{4, 16}));
  EXPECT_EQ(a.transpose().astype(DType::Float32, Order::C).strides(), (Dims{12, 4}));
  EXPECT_EQ(a.astype(DType::Int16, Order::F).strides(), (Dims{2, 6}));
}

// ---------------------------------------------------------------------------------------
// Scalar::cast

TEST(ScalarCast, ConvertsAsArraysDo) {
  Scalar s = Scalar(int64_t{300}).cast(DType::Int8);
  EXPECT_EQ(s.dtype(), DType::Int8);
  EXPECT_EQ(s.get<int8_t>(), 44);
  EXPECT_EQ(Scalar(int64_t{-1}).cast(DType::UInt8).get<uint8_t>(), 255);
  EXPECT_EQ(Scalar(-2.5).cast(DType::Int16).get<int16_t>(), -2);
  EXPECT_EQ(Scalar(kNaN).cast(DType::Int64).get<int64_t>(), kI64Min);
  EXPECT_EQ(Scalar(kInf).cast(DType::Int32).get<int32_t>(), kI32Min);
  EXPECT_EQ(Scalar(1.5e19).cast(DType::UInt64).get<uint64_t>(), 15000000000000000000u);
  EXPECT_TRUE(Scalar(c128(0, 1)).cast(DType::Bool).get<bool>());
  EXPECT_FALSE(Scalar(c128(-0.0, 0)).cast(DType::Bool).get<bool>());
  EXPECT_TRUE(Scalar(int64_t{256}).cast(DType::Bool).get<bool>());
  EXPECT_EQ(Scalar(kU64Max).cast(DType::Float64).get<double>(), 18446744073709551616.0);
  EXPECT_EQ(Scalar(true).cast(DType::Complex64).get<c64>(), c64(1, 0));
  EXPECT_EQ(Scalar(c128(2.5, -1)).cast(DType::Float32).get<float>(), 2.5f);
  EXPECT_EQ(f(Scalar(2049.0).cast(DType::Float16).get<half>()), 2048.f);
  EXPECT_TRUE(std::isinf(f(Scalar(65520.0).cast(DType::Float16).get<half>())));
  // Casting to the same dtype keeps the value and the dtype.
  Scalar same = Scalar(0.1).cast(DType::Float64);
  EXPECT_EQ(same.dtype(), DType::Float64);
  EXPECT_EQ(same.get<double>(), 0.1);
}

TEST(ScalarCast, ConstructorsAndConvenienceAccessors) {
  EXPECT_EQ(Scalar(true).dtype(), DType::Bool);
  EXPECT_EQ(Scalar(int64_t{1}).dtype(), DType::Int64);
  EXPECT_EQ(Scalar(uint64_t{1}).dtype(), DType::UInt64);
  EXPECT_EQ(Scalar(1.0).dtype(), DType::Float64);
  EXPECT_EQ(Scalar(c128(1, 2)).dtype(), DType::Complex128);
  EXPECT_EQ(Scalar().dtype(), DType::Bool);
  EXPECT_FALSE(Scalar().get<bool>());
  int16_t raw = -300;
  Scalar r(DType::Int16, &raw);
  EXPECT_EQ(r.dtype(), DType::Int16);
  EXPECT_EQ(r.get<int16_t>(), -300);
  EXPECT_EQ(r.to_int64(), -300);
  EXPECT_EQ(r.to_double(), -300.0);
  EXPECT_EQ(r.to_complex(), c128(-300, 0));
  EXPECT_EQ(r.cast(DType::UInt8).get<uint8_t>(), 212);  // -300 mod 256
  half hv = h(0.5f);
  Scalar hs(DType::Float16, &hv);
  EXPECT_EQ(hs.to_double(), 0.5);
  EXPECT_EQ(hs.cast(DType::Complex128).get<c128>(), c128(0.5, 0));
  EXPECT_EQ(Scalar(-7.9).to_int64(), -7);
  EXPECT_EQ(Scalar(c128(3.5, 9)).to_double(), 3.5);
}

}  // namespace
}  // namespace tessera
