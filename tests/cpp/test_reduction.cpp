// Reductions, scans, sorting and advanced indexing from C++: the engine API a C++ program
// uses, fused with pending elementwise results. Expected values are numpy 2.4's for the
// same calls (the Python suite checks the rest against NumPy itself).

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "tessera/tessera.h"

namespace tessera {
namespace {

const Device kCpu = Device::cpu();

Array f64(const std::vector<double>& v, Dims shape = {}) {
  if (shape.size() == 0) shape = Dims{static_cast<int64_t>(v.size())};
  Array a = Array::empty(shape, DType::Float64, kCpu);
  a.copy_from_host(v.data());
  return a;
}

Array i64(const std::vector<int64_t>& v) {
  Array a = Array::empty(Dims{static_cast<int64_t>(v.size())}, DType::Int64, kCpu);
  a.copy_from_host(v.data());
  return a;
}

template <typename T>
std::vector<T> host(const Array& a) {
  std::vector<T> v(static_cast<size_t>(a.size()));
  a.copy_to_host(v.data());
  return v;
}

struct LazyScope {
  int64_t old = lazy_min_elements();
  explicit LazyScope(int64_t n) { set_lazy_min_elements(n); }
  ~LazyScope() { set_lazy_min_elements(old); }
};

TEST(Reduce, SumOverAxesWithKeepdims) {
  const Array a = f64({1, 2, 3, 4, 5, 6}, Dims{2, 3});
  ReduceOptions rows;
  rows.axis = std::vector<int64_t>{1};
  EXPECT_EQ(host<double>(reduce(Ufunc::Add, a, rows)), (std::vector<double>{6, 15}));
  ReduceOptions cols;
  cols.axis = std::vector<int64_t>{-2};
  cols.keepdims = true;
  const Array c = reduce(Ufunc::Add, a, cols);
  EXPECT_EQ(c.shape(), (Dims{1, 3}));
  EXPECT_EQ(host<double>(c), (std::vector<double>{5, 7, 9}));
  const Array all = reduce(Ufunc::Add, a);
  EXPECT_EQ(all.ndim(), 0);  // a full reduction is a 0-d array
  EXPECT_EQ(host<double>(all)[0], 21);
}

TEST(Reduce, SmallIntegersSumAsInt64) {
  Array a = Array::empty(Dims{3}, DType::Int8, kCpu);
  const int8_t v[3] = {100, 100, 100};
  a.copy_from_host(v);
  const Array s = reduce(Ufunc::Add, a);
  EXPECT_EQ(s.dtype(), DType::Int64);
  EXPECT_EQ(host<int64_t>(s)[0], 300);
}

TEST(Reduce, MaxPropagatesNaNAndEmptyNeedsInitial) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> v(1000, 1.0);
  v[700] = nan;
  EXPECT_TRUE(std::isnan(host<double>(reduce(Ufunc::Maximum, f64(v)))[0]));
  EXPECT_THROW(reduce(Ufunc::Maximum, f64({})), ValueError);
  ReduceOptions start;
  start.initial = Operand::weak_float(-5.0);
  EXPECT_EQ(host<double>(reduce(Ufunc::Maximum, f64({}), start))[0], -5.0);
}

TEST(Reduce, NotReorderableOpsFoldInOrder) {
  EXPECT_EQ(host<double>(reduce(Ufunc::Subtract, f64({10, 1, 2, 3})))[0], 4.0);
  ReduceOptions both;
  both.axis = std::vector<int64_t>{0, 1};
  EXPECT_THROW(reduce(Ufunc::Subtract, f64({1, 2, 3, 4}, Dims{2, 2}), both), ValueError);
}

TEST(Reduce, PendingInputIsFoldedWithoutBeingStored) {
  LazyScope lazy(0);
  const Array x = f64({1, 2, 3, 4});
  const Array squares = multiply(x, x);
  ASSERT_TRUE(squares.buffer()->is_pending());
  EXPECT_EQ(host<double>(reduce(Ufunc::Add, squares))[0], 30.0);
  EXPECT_TRUE(squares.buffer()->is_pending());  // folded from its tree, never computed
}

// any, all and the sum of bool arrays fold whole SIMD blocks and a tail: the one true (or
// false) element is found wherever it sits, in blocks, tails and rows of every length.
TEST(Reduce, AnyAllAndCountOfBoolsFindOneElementAnywhere) {
  for (const int64_t n : {1, 7, 63, 64, 65, 127, 128, 129, 1000, 4097, 100003}) {
    for (const int64_t at : {int64_t{0}, n / 2, n - 1}) {
      for (const bool value : {true, false}) {
        std::vector<uint8_t> v(static_cast<size_t>(n), value ? 0 : 1);
        v[static_cast<size_t>(at)] = value ? 1 : 0;
        Array a = Array::empty(Dims{n}, DType::Bool, kCpu);
        a.copy_from_host(v.data());
        const Ufunc op = value ? Ufunc::LogicalOr : Ufunc::LogicalAnd;
        const Ufunc same = value ? Ufunc::Maximum : Ufunc::Minimum;
        EXPECT_EQ(host<uint8_t>(reduce(op, a))[0], value ? 1 : 0) << n << " at " << at;
        EXPECT_EQ(host<uint8_t>(reduce(same, a))[0], value ? 1 : 0) << n << " at " << at;
        v[static_cast<size_t>(at)] = value ? 0 : 1;
        a.copy_from_host(v.data());
        EXPECT_EQ(host<uint8_t>(reduce(op, a))[0], value ? 0 : 1) << n << " without " << at;
        // The sum of bools counts them (a SIMD count of the bytes).
        const Array count = reduce(Ufunc::Add, a);
        ASSERT_EQ(count.dtype(), DType::Int64);
        EXPECT_EQ(host<int64_t>(count)[0], value ? 0 : n) << n << " at " << at;
        v[static_cast<size_t>(at)] = value ? 1 : 0;
        a.copy_from_host(v.data());
        EXPECT_EQ(host<int64_t>(reduce(Ufunc::Add, a))[0], value ? 1 : n - 1) << n << " at " << at;
      }
    }
  }
}

TEST(Reduce, MeanVarStdAsNumPy) {
  const Array a = f64({2, 4, 4, 4, 5, 5, 7, 9});
  EXPECT_DOUBLE_EQ(host<double>(mean(a))[0], 5.0);
  EXPECT_DOUBLE_EQ(host<double>(var(a))[0], 4.0);
  EXPECT_DOUBLE_EQ(host<double>(std_dev(a))[0], 2.0);
  EXPECT_DOUBLE_EQ(host<double>(var(a, {}, 1))[0], 32.0 / 7.0);
}

TEST(Reduce, ArgmaxFirstOccurrenceAndNaN) {
  EXPECT_EQ(host<int64_t>(argmax(f64({1, 5, 5, 2})))[0], 1);
  EXPECT_EQ(host<int64_t>(argmin(f64({3, 1, 1, 2})))[0], 1);
  EXPECT_EQ(host<int64_t>(argmax(f64({1, std::nan(""), 9})))[0], 1);
  const Array m = f64({1, 9, 3, 7, 2, 8}, Dims{2, 3});
  EXPECT_EQ(host<int64_t>(argmax(m, 0)), (std::vector<int64_t>{1, 0, 1}));
  EXPECT_THROW(argmax(f64({})), ValueError);
}

TEST(Scan, CumsumAlongEitherAxis) {
  const Array a = f64({1, 2, 3, 4, 5, 6}, Dims{2, 3});
  EXPECT_EQ(host<double>(accumulate(Ufunc::Add, a, 1)),
            (std::vector<double>{1, 3, 6, 4, 9, 15}));
  EXPECT_EQ(host<double>(accumulate(Ufunc::Add, a, 0)),
            (std::vector<double>{1, 2, 3, 5, 7, 9}));
  EXPECT_EQ(host<double>(accumulate(Ufunc::Subtract, f64({10, 1, 2}))),
            (std::vector<double>{10, 9, 7}));
}

TEST(Sort, NaNLastAndStableArgsort) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> s = host<double>(sort(f64({3, nan, -1, 2})));
  EXPECT_EQ(s[0], -1);
  EXPECT_EQ(s[1], 2);
  EXPECT_EQ(s[2], 3);
  EXPECT_TRUE(std::isnan(s[3]));
  EXPECT_EQ(host<int64_t>(argsort(f64({2, 1, 2, 1}))), (std::vector<int64_t>{1, 3, 0, 2}));
  const Array sorted = f64({1, 2, 2, 3});
  EXPECT_EQ(host<int64_t>(searchsorted(sorted, f64({2, 0, 9}))),
            (std::vector<int64_t>{1, 0, 4}));
  EXPECT_EQ(host<int64_t>(searchsorted(sorted, f64({2}), true)), (std::vector<int64_t>{3}));
}

TEST(Sort, LongRowIsSortedByAllThreads) {
  std::vector<double> v(1 << 20);
  for (size_t i = 0; i < v.size(); ++i) v[i] = std::sin(static_cast<double>(i));
  const std::vector<double> s = host<double>(sort(f64(v)));
  EXPECT_TRUE(std::is_sorted(s.begin(), s.end()));
}

TEST(AdvancedIndex, GatherScatterAndMasks) {
  const Array a = f64({0, 10, 20, 30, 40});
  EXPECT_EQ(host<double>(getitem(a, {KeyItem::of(i64({4, -1, 0}))})),
            (std::vector<double>{40, 40, 0}));
  EXPECT_THROW(getitem(a, {KeyItem::of(i64({5}))}), IndexError);
  Array b = f64({0, 0, 0});
  setitem(b, {KeyItem::of(i64({0, 0, 2}))}, f64({1, 2, 3}));
  EXPECT_EQ(host<double>(b), (std::vector<double>{2, 0, 3}));  // the last duplicate wins
  const Array mask = greater(a, Operand::weak_int(Scalar(int64_t{15})));
  EXPECT_EQ(host<double>(getitem(a, {KeyItem::of(mask)})), (std::vector<double>{20, 30, 40}));
  EXPECT_EQ(host<int64_t>(nonzero(mask)[0]), (std::vector<int64_t>{2, 3, 4}));
}

TEST(AdvancedIndex, UfuncAtRepeatsDuplicates) {
  Array counts = f64({0, 0, 0});
  ufunc_at(Ufunc::Add, counts, {KeyItem::of(i64({0, 2, 2, 2}))},
           Operand::weak_float(1.0));
  EXPECT_EQ(host<double>(counts), (std::vector<double>{1, 0, 3}));
}

}  // namespace
}  // namespace tessera
