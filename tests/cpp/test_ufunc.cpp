// The elementwise engine from C++: promotion (NumPy 2 / NEP 50), apply_ufunc and the
// tessera::add-style wrappers, errors, laziness (pending results, mutation safety, tree
// caps), out=/where=, a two-output ufunc, and the SIMD transcendental loops' accuracy.
// Expected values are numpy 2.4's for the same calls.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <type_traits>
#include <vector>

#include "tessera/tessera.h"
#include "tessera/ufunc.h"

namespace tessera {
namespace {

const Device kCpu = Device::cpu();
using D = DType;
template <typename T>
using V = std::vector<T>;
using VD = V<double>;

template <typename T>
constexpr DType dtype_of() {
  if constexpr (std::is_same_v<T, int8_t>) return D::Int8;
  if constexpr (std::is_same_v<T, uint8_t>) return D::UInt8;
  if constexpr (std::is_same_v<T, int16_t>) return D::Int16;
  if constexpr (std::is_same_v<T, int32_t>) return D::Int32;
  if constexpr (std::is_same_v<T, int64_t>) return D::Int64;
  if constexpr (std::is_same_v<T, float>) return D::Float32;
  return D::Float64;
}

// A new array holding `v` (C order), of T's dtype unless `dtype` says otherwise.
template <typename T>
Array arr(const V<T>& v, Dims shape = {}, std::optional<DType> dtype = {}) {
  if (shape.size() == 0) shape = Dims{static_cast<int64_t>(v.size())};
  Array a = Array::empty(shape, dtype.value_or(dtype_of<T>()), kCpu);
  EXPECT_EQ(sizeof(T), static_cast<size_t>(a.itemsize()));
  a.copy_from_host(v.data());
  return a;
}

template <typename T>
V<T> vals(const Array& a) {
  EXPECT_EQ(a.dtype(), dtype_of<T>());
  V<T> v(static_cast<size_t>(a.size()));
  a.copy_to_host(v.data());
  return v;
}

Operand weak(int64_t v) { return Operand::weak_int(Scalar(v)); }
bool pending(const Array& a) { return a.buffer()->is_pending(); }
Array slice(const Array& a, std::optional<int64_t> start, std::optional<int64_t> stop,
            int64_t step = 1) {
  return a.index({IndexItem::slice(start, stop, step)});
}

// Sets the laziness threshold for one test and restores the old one, even on failure.
struct LazyScope {
  int64_t old = lazy_min_elements();
  explicit LazyScope(int64_t n) { set_lazy_min_elements(n); }
  ~LazyScope() { set_lazy_min_elements(old); }
};

// Promotion

TEST(UfuncPromotion, PromoteTypesMatchesNumPy) {
  const struct {
    D a, b, want;
  } cases[] = {{D::Int8, D::UInt8, D::Int16},
               {D::UInt64, D::Int64, D::Float64},
               {D::Int16, D::Float16, D::Float32},
               {D::Float32, D::Complex64, D::Complex64},
               {D::UInt32, D::Float32, D::Float64},
               {D::Int64, D::Float16, D::Float64},
               {D::Bool, D::Int8, D::Int8},
               {D::UInt16, D::Float16, D::Float32},
               {D::Float64, D::Complex64, D::Complex128},
               {D::UInt8, D::UInt16, D::UInt16}};
  for (const auto& c : cases) {
    EXPECT_EQ(promote_types(c.a, c.b), c.want) << dtype_name(c.a) << " + " << dtype_name(c.b);
    EXPECT_EQ(promote_types(c.b, c.a), c.want) << dtype_name(c.b) << " + " << dtype_name(c.a);
  }
}

TEST(UfuncPromotion, CanCastMatchesNumPy) {
  using C = Casting;
  const struct {
    D from, to;
    Casting casting;
    bool ok;
  } cases[] = {
      {D::Int64, D::Float64, C::Safe, true},      {D::Int32, D::Float32, C::Safe, false},
      {D::UInt8, D::Int8, C::Safe, false},        {D::UInt8, D::Int16, C::Safe, true},
      {D::UInt64, D::Float64, C::Safe, true},     {D::Float16, D::Complex64, C::Safe, true},
      {D::Float64, D::Float32, C::Safe, false},   {D::Float64, D::Float32, C::SameKind, true},
      {D::Float64, D::Int64, C::SameKind, false}, {D::Int64, D::UInt8, C::SameKind, false},
      {D::UInt64, D::Int8, C::SameKind, true},    {D::Complex64, D::Float64, C::SameKind, false},
      {D::Int64, D::Int64, C::No, true},          {D::Int32, D::Float64, C::Equiv, false},
      {D::Float64, D::Bool, C::Unsafe, true}};
  for (const auto& c : cases) {
    EXPECT_EQ(can_cast(c.from, c.to, c.casting), c.ok)
        << dtype_name(c.from) << " -> " << dtype_name(c.to) << " casting " << int(c.casting);
  }
}

TEST(UfuncPromotion, ResultTypeWithWeakScalars) {
  auto rt = [](DType array_dtype, Operand other) {
    V<Operand> ops = {Array::empty({2}, array_dtype, kCpu), other};
    return result_type(ops);
  };
  EXPECT_EQ(rt(D::Int8, weak(1)), D::Int8);
  EXPECT_EQ(rt(D::UInt8, Operand::weak_float(1.5)), D::Float64);
  EXPECT_EQ(rt(D::Float32, Operand::weak_complex({0, 1})), D::Complex64);
  EXPECT_EQ(rt(D::Float64, Operand::weak_complex({0, 1})), D::Complex128);
  EXPECT_EQ(rt(D::Float16, Operand::weak_complex({0, 1})), D::Complex64);
  EXPECT_EQ(rt(D::Int16, Operand::weak_float(1.0)), D::Float64);
  EXPECT_EQ(rt(D::Bool, weak(1)), D::Int64);
  EXPECT_EQ(rt(D::Int8, Operand::scalar(Scalar(int64_t{1}))), D::Int64);  // strong scalar
}

// Applying ufuncs

TEST(UfuncApply, ValuesDTypeAndBroadcasting) {
  Array s = add(arr<int8_t>({-100, 5, 127}), arr<uint8_t>({200, 7, 255}));
  EXPECT_EQ(s.shape(), (Dims{3}));
  EXPECT_EQ(vals<int16_t>(s), (V<int16_t>{100, 12, 382}));

  Operand in[2] = {arr<int32_t>({0, 1, 2}, {3, 1}), arr<int16_t>({10, 20, 30, 40})};
  Array m = apply_ufunc1(Ufunc::Add, in);
  EXPECT_EQ(m.shape(), (Dims{3, 4}));
  EXPECT_EQ(vals<int32_t>(m), (V<int32_t>{10, 20, 30, 40, 11, 21, 31, 41, 12, 22, 32, 42}));
}

TEST(UfuncApply, ScalarOperands) {
  // A weak int takes the array's dtype (and wraps there, as NumPy's uint8 add does).
  EXPECT_EQ(vals<uint8_t>(add(arr<uint8_t>({250, 5}), weak(10))), (V<uint8_t>{4, 15}));
  EXPECT_EQ(vals<double>(add(arr<int8_t>({1, 2}), Operand::weak_float(1.5))), (VD{2.5, 3.5}));
  // A typed (NumPy) scalar is strong.
  Array m = multiply(arr<int8_t>({1, 2, 3}), Operand::scalar(Scalar(int64_t{2})));
  EXPECT_EQ(vals<int64_t>(m), (V<int64_t>{2, 4, 6}));
  // Two Python ints: a 0-d int64.
  Array z = add(weak(2), weak(3));
  EXPECT_EQ(z.ndim(), 0);
  EXPECT_EQ(vals<int64_t>(z), (V<int64_t>{5}));
}

TEST(UfuncApply, ErrorsAreRaisedAtOnce) {
  LazyScope lazy(0);  // even when results would be pending
  Array f3 = arr<double>({1, 2, 3});
  EXPECT_THROW(add(f3, arr<double>({1, 2, 3, 4})), ValueError);
  EXPECT_THROW(bitwise_and(f3, f3), TypeError);
  EXPECT_THROW(add(arr<uint8_t>({1, 2}), weak(300)), OverflowError);
  Array i3 = arr<int64_t>({2, 3, -2});
  EXPECT_THROW(power(i3, weak(-1)), ValueError);
  EXPECT_THROW(power(i3, arr<int64_t>({1, -1, 2})), ValueError);
  EXPECT_EQ(vals<int64_t>(power(i3, arr<int64_t>({3, 0, 3}))), (V<int64_t>{8, 1, -8}));
}

// Floating-point errors (numpy.seterr)

// Sets this thread's modes for one test and restores the old ones.
struct ModesScope {
  FpModes old = fp_modes();
  explicit ModesScope(const FpModes& m) { set_fp_modes(m); }
  ~ModesScope() { set_fp_modes(old); }
};

TEST(UfuncFpErrors, RaiseModeThrowsAtTheCallEvenForLargeArrays) {
  FpModes raise_divide;
  raise_divide[FpError::Divide] = FpMode::Raise;
  Array zeros = Array::empty(Dims{10000}, D::Float64, kCpu);
  zeros.fill(Scalar(0.0));
  {
    ModesScope scope(raise_divide);
    EXPECT_THROW(log(zeros), FloatingPointError);
    EXPECT_THROW(log(arr<double>({0.0, 1.0})), FloatingPointError);
    EXPECT_THROW(floor_divide(arr<int64_t>({1, 2}), arr<int64_t>({0, 1})), FloatingPointError);
    EXPECT_NO_THROW(log(arr<double>({1.0, 2.0})));
  }
  // Made under the default modes (warn, which the C++ default handler drops), a pending
  // result computed under raise still reports as its caller asked.
  const Array pending_log = log(zeros);
  ModesScope scope(raise_divide);
  EXPECT_NO_THROW(pending_log.data());
}

TEST(UfuncFpErrors, ModesAreNumPysDefaults) {
  const FpModes m;
  EXPECT_EQ(m[FpError::Divide], FpMode::Warn);
  EXPECT_EQ(m[FpError::Overflow], FpMode::Warn);
  EXPECT_EQ(m[FpError::Underflow], FpMode::Ignore);
  EXPECT_EQ(m[FpError::Invalid], FpMode::Warn);
  EXPECT_FALSE(m.acts_at_once());
  FpModes call = m;
  call[FpError::Invalid] = FpMode::Call;
  EXPECT_TRUE(call.acts_at_once());
  EXPECT_EQ(fp_error_words(FpError::Invalid), "invalid value");
}

// Laziness

// The lean path of small arrays

TEST(UfuncSmall, SameResultAsApplyUfuncOrDeclines) {
  const Array a = arr<double>({1.5, -2.0, 4.0});
  const Array b = arr<double>({0.5, 3.0, -1.0});
  for (int repeat = 0; repeat < 2; ++repeat) {  // the second call reads the loop cache
    const Array* ab[2] = {&a, &b};
    std::optional<Array> sum = apply_ufunc_small(Ufunc::Add, ab);
    ASSERT_TRUE(sum.has_value());
    EXPECT_FALSE(pending(*sum));
    EXPECT_EQ(vals<double>(*sum), (VD{2.0, 1.0, 3.0}));
    const Array* one[1] = {&a};
    std::optional<Array> neg = apply_ufunc_small(Ufunc::Negative, one);
    ASSERT_TRUE(neg.has_value());
    EXPECT_EQ(vals<double>(*neg), (VD{-1.5, 2.0, -4.0}));
  }
}

TEST(UfuncSmall, DeclinesWhatNeedsTheGeneralPath) {
  const Array f = arr<double>({1.0, 2.0, 3.0, 4.0});
  const Array i32 = arr<int32_t>({1, 2, 3, 4});
  const Array strided = slice(arr<double>({1, 2, 3, 4, 5, 6, 7, 8}), 0, 8, 2);
  const Array shorter = arr<double>({1.0, 2.0});
  const Array flags = arr<uint8_t>({1, 0, 1, 1}, {}, D::Bool);
  const Array ints = arr<int64_t>({2, 3, 4, 5});
  const Array empty = Array::empty(Dims{0}, D::Float64, kCpu);
  auto declines = [](Ufunc op, std::initializer_list<const Array*> in) {
    return !apply_ufunc_small(op, {in.begin(), in.size()}).has_value();
  };
  EXPECT_TRUE(declines(Ufunc::Add, {&f, &i32}));       // int32 is cast: a tree does that
  EXPECT_TRUE(declines(Ufunc::Add, {&f, &strided}));   // not contiguous
  EXPECT_TRUE(declines(Ufunc::Add, {&f, &shorter}));   // shapes differ (apply_ufunc raises)
  EXPECT_TRUE(declines(Ufunc::Add, {&f}));             // too few inputs
  EXPECT_TRUE(declines(Ufunc::Subtract, {&flags, &flags}));  // bool - bool raises
  EXPECT_TRUE(declines(Ufunc::Power, {&ints, &ints}));  // negative powers are checked
  EXPECT_TRUE(declines(Ufunc::Divmod, {&f, &f}));       // two outputs
  EXPECT_TRUE(declines(Ufunc::Add, {&empty, &empty}));
  {
    LazyScope lazy(1);
    const Array p = apply_ufunc1(Ufunc::Add, std::vector<Operand>{f, f});
    ASSERT_TRUE(pending(p));
    EXPECT_TRUE(declines(Ufunc::Add, {&p, &f}));  // pending input
  }
  const Operand bools[2] = {flags, flags};
  EXPECT_THROW(apply_ufunc(Ufunc::Subtract, bools), TypeError);
}

TEST(UfuncLazy, PendingUntilRead) {
  LazyScope lazy(0);
  Array y = add(arr<double>({1, 2, 3}), weak(1));
  EXPECT_TRUE(pending(y));
  EXPECT_EQ(vals<double>(y), (VD{2, 3, 4}));
  EXPECT_FALSE(pending(y));

  Array z = sqrt(multiply(y, Operand::weak_float(4.0)));
  EXPECT_TRUE(pending(z));
  evaluate(z);
  EXPECT_FALSE(pending(z));
  EXPECT_EQ(vals<double>(z), (VD{std::sqrt(8.0), std::sqrt(12.0), 4.0}));
}

TEST(UfuncLazy, ThresholdAndExportedInputsEvaluateAtOnce) {
  LazyScope lazy(16);
  Array x = arr<float>(V<float>(16, 1.f));
  EXPECT_TRUE(pending(add(x, x)));
  EXPECT_FALSE(pending(add(slice(x, 0, 15), weak(1))));
  x.buffer()->mark_exported();  // outside code may now write x at any time
  Array y = add(x, x);
  EXPECT_FALSE(pending(y));
  EXPECT_EQ(vals<float>(y), V<float>(16, 2.f));
}

TEST(UfuncLazy, ChainsOfMixedDTypesAndLayouts) {
  LazyScope lazy(0);
  Array x = arr<int32_t>({1, 2, 3, 4});
  Array y = subtract(multiply(add(x, weak(1)), x), Operand::weak_float(0.5));  // (x+1)*x-0.5
  Array z = negative(divide(y, arr<float>({2, 2, 2, 2})));
  EXPECT_TRUE(pending(z));
  EXPECT_EQ(vals<double>(z), (VD{-0.75, -2.75, -5.75, -9.75}));

  // Several evaluator blocks: a transposed (strided) input and a broadcast row.
  VD t(50 * 40), row(50), want;
  for (size_t i = 0; i < t.size(); ++i) t[i] = static_cast<double>(i);
  for (size_t j = 0; j < row.size(); ++j) row[j] = 0.5 * j;
  for (int i = 0; i < 40; ++i)
    for (int j = 0; j < 50; ++j) want.push_back((t[j * 40 + i] + row[j]) * 2);
  Array w = multiply(add(arr<double>(t, {50, 40}).transpose(), arr<double>(row)), weak(2));
  EXPECT_TRUE(pending(w));
  EXPECT_EQ(w.shape(), (Dims{40, 50}));
  EXPECT_EQ(vals<double>(w), want);
}

TEST(UfuncLazy, WritesToInputsDoNotChangePendingResults) {
  LazyScope lazy(0);
  Array x = arr<double>({1, 2, 3});
  Array y = add(x, weak(1));
  Array z = multiply(y, weak(2));  // inlines y's tree: reads x directly
  ASSERT_TRUE(pending(y) && pending(z));
  x.fill(Scalar(10.0));
  EXPECT_EQ(vals<double>(y), (VD{2, 3, 4}));
  EXPECT_EQ(vals<double>(z), (VD{4, 6, 8}));

  Array w = add(x, weak(1));
  ASSERT_TRUE(pending(w));
  x.assign(arr<double>({7, 8, 9}));
  EXPECT_EQ(vals<double>(w), (VD{11, 11, 11}));

  Array v = add(x, weak(1));  // a write through a view of x
  ASSERT_TRUE(pending(v));
  slice(x, 1, std::nullopt).fill(Scalar(0.0));
  EXPECT_EQ(vals<double>(v), (VD{8, 9, 10}));
  EXPECT_EQ(vals<double>(x), (VD{7, 0, 0}));

  Array u = add(x, weak(1));  // a write by out=
  ASSERT_TRUE(pending(u));
  UfuncOptions opts;
  opts.out = {x};
  Operand in[2] = {x, weak(5)};
  apply_ufunc(Ufunc::Add, in, opts);
  EXPECT_EQ(vals<double>(u), (VD{8, 1, 1}));
  EXPECT_EQ(vals<double>(x), (VD{12, 5, 5}));
}

TEST(UfuncLazy, LongChainsStayWithinTheTreeCaps) {
  LazyScope lazy(0);
  const V<int64_t> xs = {0, 1, 2, 3, 4, 5, 6, -7};
  Array x = arr<int64_t>(xs), y = x;
  V<int64_t> want = xs;
  for (int i = 0; i < 500; ++i) {
    if (i % 3 == 0) {
      y = add(y, x);  // many inputs
      for (size_t k = 0; k < xs.size(); ++k) want[k] += xs[k];
    } else {
      y = negative(add(y, weak(i)));  // depth
      for (size_t k = 0; k < xs.size(); ++k) want[k] = -(want[k] + i);
    }
  }
  EXPECT_TRUE(pending(y));
  EXPECT_EQ(vals<int64_t>(y), want);
}

// out= and where=

TEST(UfuncOut, WritesIntoTheGivenArray) {
  Array out = zeros({3}, D::Float64, kCpu);
  UfuncOptions opts;
  opts.out = {out};
  Operand in[2] = {arr<int32_t>({1, 2, 3}), arr<int32_t>({10, 20, 30})};
  V<Array> r = apply_ufunc(Ufunc::Add, in, opts);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].buffer(), out.buffer());
  EXPECT_EQ(vals<double>(out), (VD{11, 22, 33}));

  opts.out = {zeros({3}, D::Int8, kCpu)};  // float64 -> int8 is not same_kind
  Operand fin[2] = {arr<double>({1, 2, 3}), weak(1)};
  EXPECT_THROW(apply_ufunc(Ufunc::Add, fin, opts), TypeError);
  opts.out = {zeros({2}, D::Float64, kCpu)};
  EXPECT_THROW(apply_ufunc(Ufunc::Add, fin, opts), ValueError);

  Array keep = arr<int64_t>({-1, -1, -1, -1});  // where=: false keeps out's values
  opts.out = {keep};
  opts.where = Operand(arr<uint8_t>({1, 0, 1, 0}, {}, D::Bool));
  Operand win[2] = {arr<int64_t>({1, 2, 3, 4}), weak(5)};
  apply_ufunc(Ufunc::Add, win, opts);
  EXPECT_EQ(vals<int64_t>(keep), (V<int64_t>{6, -1, 8, -1}));
}

TEST(UfuncOut, AliasedInputsAreReadBeforeWriting) {
  LazyScope lazy(0);
  Array x = arr<double>({1, 2, 3, 4, 5});
  Array before = add(x, weak(0));  // pending, reads x
  UfuncOptions opts;
  opts.out = {x};
  Operand in[2] = {x, slice(x, std::nullopt, std::nullopt, -1)};  // x += x[::-1]
  apply_ufunc(Ufunc::Add, in, opts);
  EXPECT_EQ(vals<double>(x), VD(5, 6.0));
  EXPECT_EQ(vals<double>(before), (VD{1, 2, 3, 4, 5}));

  // x[2:] = x[:6] + x[2:] with x = arange(8): NumPy reads all inputs first.
  Array a = arr<int32_t>({0, 1, 2, 3, 4, 5, 6, 7});
  Array tail = slice(a, 2, std::nullopt);
  opts.out = {tail};
  Operand in2[2] = {slice(a, std::nullopt, 6), tail};
  apply_ufunc(Ufunc::Add, in2, opts);
  EXPECT_EQ(vals<int32_t>(a), (V<int32_t>{0, 1, 2, 4, 6, 8, 10, 12}));
}

// Two outputs

TEST(UfuncDivmod, TwoOutputsWithNumPysValues) {
  V<Array> r =
      divmod(arr<int32_t>({7, -7, 7, -7, 0, 7, INT32_MIN}), arr<int32_t>({2, 2, -2, -2, 3, 0, -1}));
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(vals<int32_t>(r[0]), (V<int32_t>{3, -4, -4, 3, 0, 0, INT32_MIN}));
  EXPECT_EQ(vals<int32_t>(r[1]), (V<int32_t>{1, 1, -1, -1, 0, 0, 0}));

  V<Array> f = divmod(arr<double>({7.5, -7.5, 5.0}), weak(2));
  EXPECT_EQ(vals<double>(f[0]), (VD{3, -4, 2}));
  EXPECT_EQ(vals<double>(f[1]), (VD{1.5, 0.5, 1}));
  const double m = vals<double>(divmod(arr<double>({5.0}), Operand::weak_float(-2.5))[1])[0];
  EXPECT_TRUE(m == 0.0 && std::signbit(m));  // NumPy: (-2.0, -0.0)
}

// Accuracy of the SIMD float64 sin/exp/log

int64_t ulp_distance(double a, double b) {
  if (a == b) return 0;
  int64_t ia, ib;
  std::memcpy(&ia, &a, 8);
  std::memcpy(&ib, &b, 8);
  if (ia < 0) ia = INT64_MIN - ia;  // monotonic integer order
  if (ib < 0) ib = INT64_MIN - ib;
  return ia > ib ? ia - ib : ib - ia;
}

// `n` values spread over [lo, hi] by a fixed linear congruential sequence.
VD spread(int n, double lo, double hi) {
  VD v;
  uint64_t s = 12345;
  for (int i = 0; i < n; ++i) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    v.push_back(lo + (hi - lo) * static_cast<double>(s >> 11) * 0x1p-53);
  }
  return v;
}

void expect_within_4_ulp(Array (*op)(const Operand&), double (*ref)(double), const VD& xs,
                         const char* what) {
  const VD got = vals<double>(op(arr<double>(xs)));
  int64_t worst = 0;
  size_t at = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    const int64_t d = ulp_distance(got[i], ref(xs[i]));
    if (d > worst) worst = d, at = i;
  }
  EXPECT_LE(worst, 4) << what << "(" << xs[at] << ") = " << got[at] << ", want " << ref(xs[at]);
}

TEST(UfuncAccuracy, SinExpLogFloat64WithinFourUlp) {
  LazyScope lazy(0);
  VD xs = spread(2001, -50, 50), big = spread(1001, -39000, 39000);
  xs.insert(xs.end(), big.begin(), big.end());
  expect_within_4_ulp(
      &tessera::sin, [](double x) { return std::sin(x); }, xs, "sin");
  expect_within_4_ulp(
      &tessera::exp, [](double x) { return std::exp(x); }, spread(3001, -745, 710), "exp");
  VD pos = spread(2000, 1e-3, 100);  // near 1, where log is hardest
  for (double e : spread(1001, -700, 700)) pos.push_back(std::exp(e));
  pos.push_back(1e-310);  // subnormal: the scalar path
  expect_within_4_ulp(
      &tessera::log, [](double x) { return std::log(x); }, pos, "log");
}

TEST(UfuncAccuracy, SinKeepsNegativeZero) {
  // A whole vector of in-range values (the SIMD path) and a lone value (the scalar path).
  VD xs(64, 0.5);
  xs[0] = -0.0;
  xs[1] = 0.0;
  const VD got = vals<double>(sin(arr<double>(xs)));
  EXPECT_TRUE(got[0] == 0.0 && std::signbit(got[0]));
  EXPECT_TRUE(got[1] == 0.0 && !std::signbit(got[1]));
  EXPECT_NEAR(got[2], std::sin(0.5), 1e-15);
  const double lone = vals<double>(sin(arr<double>(VD{-0.0})))[0];
  EXPECT_TRUE(lone == 0.0 && std::signbit(lone));
}

}  // namespace
}  // namespace tessera
