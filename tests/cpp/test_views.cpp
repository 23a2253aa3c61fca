// Views: axis rearrangements, basic indexing, diagonals, real/imag, reshape and ravel.
// Expected shapes, strides and values are NumPy's (numpy 2.x) for the same operations;
// values are read back through copy_to_host, and writes through views prove that the
// views share memory with their base.

#include <gtest/gtest.h>

#include <complex>
#include <numeric>
#include <optional>
#include <vector>

#include "tessera/tessera.h"

namespace tessera {
namespace {

using V = std::vector<double>;
const Device kCpu = Device::cpu();

// 0, 1, 2, ... as float64 in C order.
Array iota(const Dims& shape) {
  Array a = Array::empty(shape, DType::Float64, kCpu);
  V v(static_cast<size_t>(a.size()));
  std::iota(v.begin(), v.end(), 0.0);
  a.copy_from_host(v.data());
  return a;
}

// The elements of a float64 array in C order.
V values(const Array& a) {
  EXPECT_EQ(a.dtype(), DType::Float64);
  V v(static_cast<size_t>(a.size()));
  a.copy_to_host(v.data());
  return v;
}

V range(double first, double stop, double step = 1) {
  V v;
  for (double x = first; step > 0 ? x < stop : x > stop; x += step) v.push_back(x);
  return v;
}

IndexItem all() { return IndexItem::slice(std::nullopt, std::nullopt, 1); }
IndexItem sl(std::optional<int64_t> start, std::optional<int64_t> stop, int64_t step = 1) {
  return IndexItem::slice(start, stop, step);
}
IndexItem at(int64_t i) { return IndexItem::integer(i); }

// ---------------------------------------------------------------------------------------
// transpose / swapaxes / moveaxis

TEST(Transpose, ReversesAxesAsAView) {
  Array a = iota({2, 3, 4});
  Array t = a.transpose();
  EXPECT_EQ(t.shape(), (Dims{4, 3, 2}));
  EXPECT_EQ(t.strides(), (Dims{8, 32, 96}));
  EXPECT_EQ(t.buffer(), a.buffer());
  EXPECT_EQ(t.offset(), a.offset());
  EXPECT_FALSE(t.is_c_contiguous());
  EXPECT_TRUE(t.is_f_contiguous());
  V tv = values(t);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 2; ++k) EXPECT_EQ(tv[(i * 3 + j) * 2 + k], k * 12 + j * 4 + i);
  // Writing through the transpose changes the base: t[3, 2, 1] is a[1, 2, 3].
  t.index({at(3), at(2), at(1)}).fill(Scalar(-1.0));
  EXPECT_EQ(values(a)[1 * 12 + 2 * 4 + 3], -1.0);
}

TEST(Transpose, OfZeroAndOneDimensionalArraysIsTheSameView) {
  Array a = iota({5});
  EXPECT_EQ(a.transpose().shape(), (Dims{5}));
  EXPECT_EQ(a.transpose().strides(), (Dims{8}));
  Array s = iota({5}).index({at(2)});
  EXPECT_EQ(s.transpose().ndim(), 0);
  EXPECT_EQ(values(s.transpose()), (V{2}));
}

TEST(Transpose, WithExplicitAxes) {
  Array a = iota({2, 3, 4});
  Array t = a.transpose({1, 0, 2});
  EXPECT_EQ(t.shape(), (Dims{3, 2, 4}));
  EXPECT_EQ(t.strides(), (Dims{32, 96, 8}));
  V tv = values(t);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 2; ++j)
      for (int k = 0; k < 4; ++k) EXPECT_EQ(tv[(i * 2 + j) * 4 + k], j * 12 + i * 4 + k);
  // Negative axes count from the end: (-1, 0, 1) == (2, 0, 1).
  Array n = a.transpose({-1, 0, 1});
  EXPECT_EQ(n.shape(), (Dims{4, 2, 3}));
  EXPECT_EQ(n.strides(), (Dims{8, 96, 32}));
  // The identity permutation is the same layout.
  EXPECT_EQ(a.transpose({0, 1, 2}).strides(), a.strides());
}

TEST(Transpose, BadAxesRaise) {
  Array a = iota({2, 3, 4});
  EXPECT_THROW(a.transpose({0, 1}), ValueError);        // axes don't match array
  EXPECT_THROW(a.transpose({0, 1, 2, 0}), ValueError);  // axes don't match array
  EXPECT_THROW(a.transpose({0, 0, 1}), ValueError);     // repeated axis in transpose
  EXPECT_THROW(a.transpose({0, 1, -3}), ValueError);    // -3 is axis 0 again
  EXPECT_THROW(a.transpose({0, 1, 3}), AxisError);
  EXPECT_THROW(a.transpose({0, 1, -4}), AxisError);
}

TEST(SwapAxes, ExchangesTwoAxes) {
  Array a = iota({2, 3, 4});
  Array s = a.swapaxes(0, 2);
  EXPECT_EQ(s.shape(), (Dims{4, 3, 2}));
  EXPECT_EQ(s.strides(), (Dims{8, 32, 96}));
  EXPECT_EQ(s.buffer(), a.buffer());
  Array n = a.swapaxes(-1, 1);
  EXPECT_EQ(n.shape(), (Dims{2, 4, 3}));
  EXPECT_EQ(n.strides(), (Dims{96, 8, 32}));
  V nv = values(n);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 3; ++k) EXPECT_EQ(nv[(i * 4 + j) * 3 + k], i * 12 + k * 4 + j);
  EXPECT_EQ(a.swapaxes(1, 1).strides(), a.strides());
  EXPECT_THROW(a.swapaxes(0, 3), AxisError);
  EXPECT_THROW(a.swapaxes(-4, 0), AxisError);
}

TEST(MoveAxis, NumPyDocumentationExamples) {
  Array a = iota({3, 4, 5});
  EXPECT_EQ(a.moveaxis({0}, {-1}).shape(), (Dims{4, 5, 3}));
  EXPECT_EQ(a.moveaxis({0}, {-1}).strides(), (Dims{40, 8, 160}));
  EXPECT_EQ(a.moveaxis({-1}, {0}).shape(), (Dims{5, 3, 4}));
  EXPECT_EQ(a.moveaxis({-1}, {0}).strides(), (Dims{8, 160, 40}));
  EXPECT_EQ(a.moveaxis({0, 1}, {-1, -2}).shape(), (Dims{5, 4, 3}));
  EXPECT_EQ(a.moveaxis({0, 2}, {2, 0}).shape(), (Dims{5, 4, 3}));
  Array b = iota({2, 3, 4, 5});
  Array m = b.moveaxis({3, 0}, {1, 2});
  EXPECT_EQ(m.shape(), (Dims{3, 5, 2, 4}));
  EXPECT_EQ(m.strides(), (Dims{160, 8, 480, 40}));
  EXPECT_EQ(m.buffer(), b.buffer());
}

TEST(MoveAxis, ValuesFollowTheAxes) {
  Array a = iota({2, 3});
  Array m = a.moveaxis({0}, {1});  // a.T
  EXPECT_EQ(values(m), (V{0, 3, 1, 4, 2, 5}));
}

TEST(MoveAxis, BadArgumentsRaise) {
  Array a = iota({3, 4, 5});
  EXPECT_THROW(a.moveaxis({0, 0}, {1, 2}), ValueError);   // repeated source axis
  EXPECT_THROW(a.moveaxis({0, 1}, {2, -1}), ValueError);  // repeated destination axis
  EXPECT_THROW(a.moveaxis({0, 1}, {2}), ValueError);      // different lengths
  EXPECT_THROW(a.moveaxis({3}, {0}), AxisError);
  EXPECT_THROW(a.moveaxis({0}, {-4}), AxisError);
}

// ---------------------------------------------------------------------------------------
// expand_dims / squeeze / broadcast_to

TEST(ExpandDims, InsertsLengthOneAxes) {
  Array a = iota({2, 3});
  Array e = a.expand_dims({0});
  EXPECT_EQ(e.shape(), (Dims{1, 2, 3}));
  EXPECT_EQ(e.strides()[1], 24);
  EXPECT_EQ(e.strides()[2], 8);
  EXPECT_EQ(a.expand_dims({-1}).shape(), (Dims{2, 3, 1}));
  EXPECT_EQ(a.expand_dims({1}).shape(), (Dims{2, 1, 3}));
  // Axes are positions in the result: (0, 3) and (0, -1) both give (1, 2, 3, 1).
  EXPECT_EQ(a.expand_dims({0, 3}).shape(), (Dims{1, 2, 3, 1}));
  EXPECT_EQ(a.expand_dims({0, -1}).shape(), (Dims{1, 2, 3, 1}));
  EXPECT_EQ(a.expand_dims({3, 0}).shape(), (Dims{1, 2, 3, 1}));
  Array f = a.expand_dims({0, 3});
  EXPECT_TRUE(f.is_c_contiguous());
  EXPECT_EQ(f.buffer(), a.buffer());
  EXPECT_EQ(values(f), range(0, 6));
  f.index({at(0), at(1), at(2), at(0)}).fill(Scalar(42.0));
  EXPECT_EQ(values(a)[5], 42.0);
}

TEST(ExpandDims, BadAxesRaise) {
  Array a = iota({2, 3});
  EXPECT_THROW(a.expand_dims({3}), AxisError);
  EXPECT_THROW(a.expand_dims({-4}), AxisError);
  EXPECT_THROW(a.expand_dims({0, 0}), ValueError);
  EXPECT_THROW(a.expand_dims({0, -4}), ValueError);  // -4 of 4 is axis 0 again
}

TEST(Squeeze, DropsLengthOneAxes) {
  Array a = iota({1, 3, 1, 2});
  Array s = a.squeeze();
  EXPECT_EQ(s.shape(), (Dims{3, 2}));
  EXPECT_EQ(s.strides(), (Dims{16, 8}));
  EXPECT_EQ(s.buffer(), a.buffer());
  EXPECT_EQ(values(s), range(0, 6));
  EXPECT_EQ(a.squeeze({0}).shape(), (Dims{3, 1, 2}));
  EXPECT_EQ(a.squeeze({-2}).shape(), (Dims{1, 3, 2}));
  EXPECT_EQ(a.squeeze({2, 0}).shape(), (Dims{3, 2}));
  Array all_ones = iota({1, 1});
  EXPECT_EQ(all_ones.squeeze().ndim(), 0);
  EXPECT_EQ(values(all_ones.squeeze()), (V{0}));
  // A strided source keeps its strides.
  Array b = iota({4, 1, 6}).index({sl(std::nullopt, std::nullopt, 2), all(), sl(1, 4)});
  EXPECT_EQ(b.squeeze().shape(), (Dims{2, 3}));
  EXPECT_EQ(b.squeeze().strides(), (Dims{96, 8}));
  EXPECT_EQ(values(b.squeeze()), (V{1, 2, 3, 13, 14, 15}));
}

TEST(Squeeze, BadAxesRaise) {
  Array a = iota({1, 3, 1, 2});
  EXPECT_THROW(a.squeeze({1}), ValueError);  // size 3
  EXPECT_THROW(a.squeeze({4}), AxisError);
  EXPECT_THROW(a.squeeze({-5}), AxisError);
  EXPECT_THROW(a.squeeze({0, 0}), ValueError);
}

TEST(BroadcastTo, UsesZeroStrides) {
  Array a = iota({3, 1});
  Array b = a.broadcast_to({2, 3, 4});
  EXPECT_EQ(b.shape(), (Dims{2, 3, 4}));
  EXPECT_EQ(b.strides(), (Dims{0, 8, 0}));
  EXPECT_EQ(b.buffer(), a.buffer());
  V bv = values(b);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 4; ++k) EXPECT_EQ(bv[(i * 3 + j) * 4 + k], j);
  // A 0-d array broadcasts anywhere.
  Array s = iota({4}).index({at(3)});
  Array sb = s.broadcast_to({2, 2});
  EXPECT_EQ(sb.strides(), (Dims{0, 0}));
  EXPECT_EQ(values(sb), (V{3, 3, 3, 3}));
  // Same shape keeps the strides; a length-1 axis may become length 0.
  EXPECT_EQ(iota({2, 3}).broadcast_to({2, 3}).strides(), (Dims{24, 8}));
  Array z = iota({1, 3}).broadcast_to({0, 3});
  EXPECT_EQ(z.shape(), (Dims{0, 3}));
  EXPECT_EQ(z.size(), 0);
}

TEST(BroadcastTo, IncompatibleShapesRaise) {
  Array a = iota({3});
  EXPECT_THROW(a.broadcast_to({4}), ValueError);
  EXPECT_THROW(a.broadcast_to({3, 2}), ValueError);
  EXPECT_THROW(iota({2, 3}).broadcast_to({3}), ValueError);  // fewer dimensions
  EXPECT_THROW(a.broadcast_to({-1, 3}), ValueError);
  EXPECT_THROW(iota({2}).broadcast_to({0}), ValueError);
}

// ---------------------------------------------------------------------------------------
// basic indexing

TEST(Index, IntegersDropAxes) {
  Array a = iota({4, 5});
  Array r = a.index({at(1)});
  EXPECT_EQ(r.shape(), (Dims{5}));
  EXPECT_EQ(r.strides(), (Dims{8}));
  EXPECT_EQ(r.offset(), 40);
  EXPECT_EQ(values(r), range(5, 10));
  EXPECT_EQ(values(a.index({at(-1)})), range(15, 20));
  Array c = a.index({all(), at(-2)});
  EXPECT_EQ(c.shape(), (Dims{4}));
  EXPECT_EQ(c.strides(), (Dims{40}));
  EXPECT_EQ(values(c), (V{3, 8, 13, 18}));
  Array e = a.index({at(2), at(3)});
  EXPECT_EQ(e.ndim(), 0);
  EXPECT_EQ(values(e), (V{13}));
  EXPECT_EQ(values(a.index({at(-4), at(-5)})), (V{0}));
}

TEST(Index, OutOfBoundsIntegersRaiseIndexError) {
  Array a = iota({4, 5});
  EXPECT_THROW(a.index({at(4)}), IndexError);
  EXPECT_THROW(a.index({at(-5)}), IndexError);
  EXPECT_THROW(a.index({all(), at(5)}), IndexError);
  EXPECT_THROW(a.index({at(0), at(0), at(0)}), IndexError);  // too many indices
  EXPECT_THROW(iota({0, 3}).index({at(0)}), IndexError);
  EXPECT_THROW(iota({2}).index({at(0), IndexItem::ellipsis(), IndexItem::ellipsis()}),
               IndexError);
}

TEST(Index, SlicesWithSteps) {
  Array a = iota({4, 5});
  Array s = a.index({sl(1, 3), sl(std::nullopt, std::nullopt, 2)});
  EXPECT_EQ(s.shape(), (Dims{2, 3}));
  EXPECT_EQ(s.strides(), (Dims{40, 16}));
  EXPECT_EQ(s.offset(), 40);
  EXPECT_EQ(values(s), (V{5, 7, 9, 10, 12, 14}));
  Array t = a.index({sl(std::nullopt, std::nullopt, 3), sl(1, std::nullopt, 3)});
  EXPECT_EQ(t.shape(), (Dims{2, 2}));
  EXPECT_EQ(values(t), (V{1, 4, 16, 19}));
}

TEST(Index, NegativeStepsAsPython) {
  Array x = iota({10});
  Array r = x.index({sl(std::nullopt, std::nullopt, -1)});
  EXPECT_EQ(r.shape(), (Dims{10}));
  EXPECT_EQ(r.strides(), (Dims{-8}));
  EXPECT_EQ(r.offset(), 72);
  EXPECT_EQ(values(r), range(9, -1, -1));
  EXPECT_EQ(values(x.index({sl(8, 2, -2)})), (V{8, 6, 4}));
  EXPECT_EQ(values(x.index({sl(-1, std::nullopt, -3)})), (V{9, 6, 3, 0}));
  EXPECT_EQ(values(x.index({sl(-2, -6, -1)})), (V{8, 7, 6, 5}));
  EXPECT_EQ(x.index({sl(2, 5, -1)}).size(), 0);
  // A slice of a reversed view.
  Array rr = r.index({sl(1, std::nullopt, 4)});
  EXPECT_EQ(rr.strides(), (Dims{-32}));
  EXPECT_EQ(values(rr), (V{8, 4, 0}));
  EXPECT_EQ(values(rr.index({sl(std::nullopt, std::nullopt, -1)})), (V{0, 4, 8}));
}

TEST(Index, OutOfRangeSliceBoundsClamp) {
  Array x = iota({10});
  EXPECT_EQ(values(x.index({sl(-100, 100)})), range(0, 10));
  EXPECT_EQ(values(x.index({sl(5, 100, 3)})), (V{5, 8}));
  EXPECT_EQ(values(x.index({sl(std::nullopt, -100, -1)})), range(9, -1, -1));
  EXPECT_EQ(values(x.index({sl(100, std::nullopt, -1)})), range(9, -1, -1));
  EXPECT_EQ(values(x.index({sl(100, -100, -4)})), (V{9, 5, 1}));
  Array past = x.index({sl(100, std::nullopt)});
  EXPECT_EQ(past.shape(), (Dims{0}));
  EXPECT_EQ(values(past), V{});
  Array before = x.index({sl(-100, -50, -1)});
  EXPECT_EQ(before.shape(), (Dims{0}));
  EXPECT_EQ(x.index({sl(3, 3)}).shape(), (Dims{0}));
  // An empty axis makes the whole result empty, whatever the other indices.
  Array a = iota({4, 5});
  Array e = a.index({sl(4, std::nullopt), at(4)});
  EXPECT_EQ(e.shape(), (Dims{0}));
  EXPECT_THROW(x.index({sl(1, 5, 0)}), ValueError);  // slice step cannot be zero
}

TEST(Index, NewAxesAndEllipsis) {
  Array a = iota({2, 3, 4});
  Array n = a.index({IndexItem::new_axis(), at(1), IndexItem::new_axis()});
  EXPECT_EQ(n.shape(), (Dims{1, 1, 3, 4}));
  EXPECT_EQ(n.strides()[2], 32);
  EXPECT_EQ(n.strides()[3], 8);
  EXPECT_EQ(values(n), range(12, 24));

  Array e = a.index({IndexItem::ellipsis(), at(1)});
  EXPECT_EQ(e.shape(), (Dims{2, 3}));
  EXPECT_EQ(e.strides(), (Dims{96, 32}));
  EXPECT_EQ(values(e), (V{1, 5, 9, 13, 17, 21}));

  EXPECT_EQ(a.index({at(0), IndexItem::ellipsis()}).shape(), (Dims{3, 4}));
  EXPECT_EQ(a.index({IndexItem::ellipsis()}).shape(), (Dims{2, 3, 4}));
  EXPECT_EQ(a.index({IndexItem::ellipsis(), IndexItem::new_axis()}).shape(),
            (Dims{2, 3, 4, 1}));
  Array mid = a.index({at(1), IndexItem::ellipsis(), sl(std::nullopt, std::nullopt, -2)});
  EXPECT_EQ(mid.shape(), (Dims{3, 2}));
  EXPECT_EQ(mid.strides(), (Dims{32, -16}));
  EXPECT_EQ(values(mid), (V{15, 13, 19, 17, 23, 21}));
  // An ellipsis that stands for no axes at all.
  Array full = a.index({at(1), at(2), IndexItem::ellipsis(), at(3)});
  EXPECT_EQ(full.ndim(), 0);
  EXPECT_EQ(values(full), (V{23}));
  // Indices without an ellipsis apply to the leading axes.
  EXPECT_EQ(a.index({sl(1, 2)}).shape(), (Dims{1, 3, 4}));
}

TEST(Index, WritesThroughViewsReachTheBase) {
  Array x = iota({10});
  x.index({sl(std::nullopt, std::nullopt, 2)}).fill(Scalar(-1.0));
  EXPECT_EQ(values(x), (V{-1, 1, -1, 3, -1, 5, -1, 7, -1, 9}));
  x.index({sl(std::nullopt, std::nullopt, -3)}).fill(Scalar(int64_t{100}));
  EXPECT_EQ(values(x), (V{100, 1, -1, 100, -1, 5, 100, 7, -1, 100}));

  Array a = iota({3, 4});
  Array row = iota({4}).index({sl(std::nullopt, std::nullopt, -1)});  // 3, 2, 1, 0
  a.index({sl(1, std::nullopt)}).assign(row);  // broadcast over two rows
  EXPECT_EQ(values(a), (V{0, 1, 2, 3, 3, 2, 1, 0, 3, 2, 1, 0}));
  a.index({all(), at(0)}).assign(iota({3}));
  EXPECT_EQ(values(a), (V{0, 1, 2, 3, 1, 2, 1, 0, 2, 2, 1, 0}));
  EXPECT_THROW(a.index({all(), at(0)}).assign(iota({4})), ValueError);
}

// NumPy's array assignment first strips leading length-1 axes from a source with more
// dimensions than the destination: a = np.zeros(3); a[:] = np.ones((1, 3)) works, and so
// does b[0] = np.full((1, 1, 3), 7.) for b of shape (2, 3).
TEST(Index, AssignmentStripsLeadingUnitAxesOfTheSource) {
  Array x = Array::empty({3}, DType::Float64, kCpu);
  x.fill(Scalar(-1.0));
  EXPECT_NO_THROW(x.index({all()}).assign(iota({1, 3})));
  EXPECT_EQ(values(x), (V{0, 1, 2}));
  Array b = Array::empty({2, 3}, DType::Float64, kCpu);
  b.fill(Scalar(0.0));
  Array seven = Array::empty({1, 1, 3}, DType::Float64, kCpu);
  seven.fill(Scalar(7.0));
  EXPECT_NO_THROW(b.index({at(0)}).assign(seven));
  EXPECT_EQ(values(b), (V{7, 7, 7, 0, 0, 0}));
  // Only length-1 axes are stripped.
  EXPECT_THROW(x.assign(iota({2, 3})), ValueError);
}

TEST(Index, OverlappingAssignmentReadsTheOldValues) {
  // a[::-1] = a reverses a, as if the source had been copied first.
  Array x = iota({7});
  x.index({sl(std::nullopt, std::nullopt, -1)}).assign(x);
  EXPECT_EQ(values(x), range(6, -1, -1));
  // a[1:] = a[:-1] shifts right.
  Array y = iota({6});
  y.index({sl(1, std::nullopt)}).assign(y.index({sl(std::nullopt, -1)}));
  EXPECT_EQ(values(y), (V{0, 0, 1, 2, 3, 4}));
  // a[:-1] = a[1:] shifts left.
  Array z = iota({6});
  z.index({sl(std::nullopt, -1)}).assign(z.index({sl(1, std::nullopt)}));
  EXPECT_EQ(values(z), (V{1, 2, 3, 4, 5, 5}));
  // a = a.T for a square matrix.
  Array m = iota({3, 3});
  m.assign(m.transpose());
  EXPECT_EQ(values(m), (V{0, 3, 6, 1, 4, 7, 2, 5, 8}));
}

// ---------------------------------------------------------------------------------------
// diagonal_view

TEST(DiagonalView, AllOffsetsOfAWideMatrix) {
  Array d = iota({3, 4});
  const std::vector<std::pair<int64_t, V>> expected = {
      {-3, {}},     {-2, {8}},       {-1, {4, 9}}, {0, {0, 5, 10}},
      {1, {1, 6, 11}}, {2, {2, 7}}, {3, {3}},    {4, {}},
      {-100, {}},   {100, {}}};
  for (const auto& [k, want] : expected) {
    Array g = d.diagonal_view(k);
    EXPECT_EQ(g.ndim(), 1) << "k=" << k;
    EXPECT_EQ(g.shape(), (Dims{static_cast<int64_t>(want.size())})) << "k=" << k;
    EXPECT_EQ(values(g), want) << "k=" << k;
    if (!want.empty()) {
      EXPECT_EQ(g.strides(), (Dims{40})) << "k=" << k;
      EXPECT_EQ(g.buffer(), d.buffer());
    }
  }
}

TEST(DiagonalView, OfATallTransposedAndStridedMatrix) {
  Array t = iota({3, 4}).transpose();  // (4, 3), strides (8, 32)
  EXPECT_EQ(values(t.diagonal_view(0)), (V{0, 5, 10}));
  EXPECT_EQ(values(t.diagonal_view(-1)), (V{1, 6, 11}));
  EXPECT_EQ(values(t.diagonal_view(1)), (V{4, 9}));
  EXPECT_EQ(t.diagonal_view(0).strides(), (Dims{40}));
  Array r = iota({4, 4}).index({sl(std::nullopt, std::nullopt, -1)});  // rows reversed
  EXPECT_EQ(values(r.diagonal_view(0)), (V{12, 9, 6, 3}));
  EXPECT_EQ(r.diagonal_view(0).strides(), (Dims{-24}));
  EXPECT_EQ(values(r.diagonal_view(-1)), (V{8, 5, 2}));
}

TEST(DiagonalView, WritesReachTheBaseAndNon2dRaises) {
  Array d = iota({3, 3});
  d.diagonal_view(0).fill(Scalar(-1.0));
  d.diagonal_view(1).fill(Scalar(-2.0));
  EXPECT_EQ(values(d), (V{-1, -2, 2, 3, -1, -2, 6, 7, -1}));
  EXPECT_THROW(iota({3}).diagonal_view(0), ValueError);
  EXPECT_THROW(iota({2, 2, 2}).diagonal_view(0), ValueError);
}

// ---------------------------------------------------------------------------------------
// real / imag

TEST(RealImag, ComplexViewsShareMemory) {
  Array c = Array::empty({3}, DType::Complex128, kCpu);
  std::complex<double> init[3] = {{1, 2}, {3, 4}, {5, 6}};
  c.copy_from_host(init);
  Array re = c.real(), im = c.imag();
  EXPECT_EQ(re.dtype(), DType::Float64);
  EXPECT_EQ(im.dtype(), DType::Float64);
  EXPECT_EQ(re.strides(), (Dims{16}));
  EXPECT_EQ(im.strides(), (Dims{16}));
  EXPECT_EQ(re.offset(), c.offset());
  EXPECT_EQ(im.offset(), c.offset() + 8);
  EXPECT_EQ(values(re), (V{1, 3, 5}));
  EXPECT_EQ(values(im), (V{2, 4, 6}));
  im.fill(Scalar(0.5));
  re.index({at(1)}).fill(Scalar(-7.0));
  std::complex<double> out[3];
  c.copy_to_host(out);
  EXPECT_EQ(out[0], std::complex<double>(1, 0.5));
  EXPECT_EQ(out[1], std::complex<double>(-7, 0.5));
  EXPECT_EQ(out[2], std::complex<double>(5, 0.5));
}

TEST(RealImag, OfAStridedComplex64View) {
  Array c = Array::empty({2, 3}, DType::Complex64, kCpu);
  std::complex<float> init[6] = {{0, 10}, {1, 11}, {2, 12}, {3, 13}, {4, 14}, {5, 15}};
  c.copy_from_host(init);
  Array t = c.transpose().index({sl(std::nullopt, std::nullopt, -2)});  // (2, 2)
  Array im = t.imag();
  EXPECT_EQ(im.dtype(), DType::Float32);
  EXPECT_EQ(im.shape(), (Dims{2, 2}));
  EXPECT_EQ(im.strides(), (Dims{-16, 24}));
  float got[4];
  im.copy_to_host(got);
  EXPECT_EQ(got[0], 12);
  EXPECT_EQ(got[1], 15);
  EXPECT_EQ(got[2], 10);
  EXPECT_EQ(got[3], 13);
  Array re = t.real();
  re.fill(Scalar(-1.0));
  std::complex<float> out[6];
  c.copy_to_host(out);
  EXPECT_EQ(out[0], std::complex<float>(-1, 10));
  EXPECT_EQ(out[1], std::complex<float>(1, 11));
  EXPECT_EQ(out[2], std::complex<float>(-1, 12));
  EXPECT_EQ(out[3], std::complex<float>(-1, 13));
  EXPECT_EQ(out[5], std::complex<float>(-1, 15));
}

TEST(RealImag, OfARealArray) {
  Array a = iota({2, 2});
  Array re = a.real();
  EXPECT_EQ(re.buffer(), a.buffer());
  EXPECT_EQ(re.dtype(), DType::Float64);
  re.index({at(0), at(0)}).fill(Scalar(9.0));
  EXPECT_EQ(values(a)[0], 9.0);
  // NumPy: the imaginary part of a real array is a read-only array of zeros.
  Array im = a.imag();
  EXPECT_EQ(im.shape(), (Dims{2, 2}));
  EXPECT_EQ(im.dtype(), DType::Float64);
  EXPECT_EQ(values(im), (V{0, 0, 0, 0}));
  EXPECT_FALSE(im.writeable());
  EXPECT_THROW(im.fill(Scalar(1.0)), ValueError);
  EXPECT_THROW(im.assign(a), ValueError);
}

// ---------------------------------------------------------------------------------------
// reshape / ravel

TEST(Reshape, ContiguousInputGetsFreshContiguousStrides) {
  Array a = iota({4, 6});
  Array r = a.reshape({2, 12});
  EXPECT_EQ(r.strides(), (Dims{96, 8}));
  EXPECT_EQ(r.buffer(), a.buffer());
  Array u = a.reshape({3, -1});
  EXPECT_EQ(u.shape(), (Dims{3, 8}));
  EXPECT_EQ(u.strides(), (Dims{64, 8}));
  EXPECT_EQ(a.reshape({-1}).strides(), (Dims{8}));
  EXPECT_EQ(a.reshape({2, 1, 3, 4}).strides(), (Dims{96, 96, 32, 8}));
  // A C-contiguous slice keeps its offset.
  Array rows = iota({3, 4}).index({sl(1, 3)});
  Array rr = rows.reshape({4, 2});
  EXPECT_EQ(rr.strides(), (Dims{16, 8}));
  EXPECT_EQ(rr.offset(), 32);
  EXPECT_EQ(values(rr), range(4, 12));
  // A length-1 axis may carry any stride and still be C-contiguous.
  Array odd = iota({6}).index({IndexItem::new_axis()});
  EXPECT_TRUE(odd.is_c_contiguous());
  EXPECT_EQ(odd.reshape({2, 3}).strides(), (Dims{24, 8}));
  // Writes through the reshaped view reach the base.
  r.index({at(1), at(11)}).fill(Scalar(-5.0));
  EXPECT_EQ(values(a)[23], -5.0);
}

TEST(Reshape, StridedViewReshapesWithoutCopying) {
  Array a = iota({4, 6});
  Array v = a.index({all(), sl(std::nullopt, std::nullopt, 2)});
  EXPECT_EQ(v.strides(), (Dims{48, 16}));
  Array r = v.reshape({2, 2, 3});
  EXPECT_EQ(r.shape(), (Dims{2, 2, 3}));
  EXPECT_EQ(r.strides(), (Dims{96, 48, 16}));
  EXPECT_EQ(r.buffer(), a.buffer());
  EXPECT_EQ(values(r), (V{0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22}));
  // Length-1 axes in the new shape, as NumPy strides them.
  EXPECT_EQ(v.reshape({1, 4, 3, 1}).strides(), (Dims{192, 48, 16, 16}));
  EXPECT_EQ(v.reshape({4, 1, 3}).strides(), (Dims{48, 48, 16}));
  EXPECT_EQ(v.reshape({2, 2, 1, 3}).strides(), (Dims{96, 48, 48, 16}));
  r.index({at(1), at(0), at(2)}).fill(Scalar(-1.0));  // v[2, 2] == a[2, 4]
  EXPECT_EQ(values(a)[2 * 6 + 4], -1.0);
  // reshape_view agrees.
  auto rv = v.reshape_view({2, 2, 3}, Order::C);
  ASSERT_TRUE(rv.has_value());
  EXPECT_EQ(rv->strides(), (Dims{96, 48, 16}));
}

TEST(Reshape, NegativeStridesReshapeWithoutCopying) {
  Array x = iota({6});
  Array r = x.index({sl(std::nullopt, std::nullopt, -1)}).reshape({2, 3});
  EXPECT_EQ(r.strides(), (Dims{-24, -8}));
  EXPECT_EQ(r.buffer(), x.buffer());
  EXPECT_EQ(values(r), (V{5, 4, 3, 2, 1, 0}));
}

TEST(Reshape, EvenlySpacedViewFlattensWithoutCopying) {
  // (4, 6)[:, ::2] has strides (48, 16): its elements are evenly 16 bytes apart.
  Array a = iota({4, 6});
  Array flat = a.index({all(), sl(std::nullopt, std::nullopt, 2)}).reshape({12});
  EXPECT_EQ(flat.buffer(), a.buffer());
  EXPECT_EQ(flat.strides(), (Dims{16}));
  EXPECT_EQ(values(flat), (V{0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22}));
}

TEST(Reshape, CopiesWhenStridesDoNotAllowAView) {
  Array a = iota({4, 6});
  Array v = a.index({all(), sl(1, 4)});  // strides (48, 8): a gap after every row
  EXPECT_FALSE(v.reshape_view({12}, Order::C).has_value());
  EXPECT_FALSE(v.reshape_view({2, 6}, Order::C).has_value());
  Array flat = v.reshape({12});
  EXPECT_NE(flat.buffer(), a.buffer());
  EXPECT_EQ(flat.strides(), (Dims{8}));
  EXPECT_EQ(values(flat), (V{1, 2, 3, 7, 8, 9, 13, 14, 15, 19, 20, 21}));
  flat.fill(Scalar(0.0));  // the copy is independent
  EXPECT_EQ(values(a)[2], 2.0);
  Array two = v.reshape({2, 6});
  EXPECT_NE(two.buffer(), a.buffer());
  EXPECT_EQ(two.strides(), (Dims{48, 8}));
  // Splitting off a length-1 axis is still a view.
  Array three = v.reshape({4, 3, 1});
  EXPECT_EQ(three.buffer(), a.buffer());
  EXPECT_EQ(three.strides(), (Dims{48, 8, 8}));

  Array t = iota({3, 4}).transpose();
  Array c = t.reshape({2, 6});
  EXPECT_NE(c.buffer(), t.buffer());
  EXPECT_EQ(c.strides(), (Dims{48, 8}));
  EXPECT_EQ(values(c), (V{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}));
}

TEST(Reshape, FortranOrder) {
  // a.reshape((3, 2), order='F') of arange(6).reshape(2, 3) is [[0, 4], [3, 2], [1, 5]].
  Array a = iota({2, 3});
  Array f = a.reshape({3, 2}, Order::F);
  EXPECT_EQ(values(f), (V{0, 4, 3, 2, 1, 5}));
  // An F-contiguous input reshapes in F order as a view.
  Array t = iota({3, 4}).transpose();
  Array g = t.reshape({2, 6}, Order::F);
  EXPECT_EQ(g.buffer(), t.buffer());
  EXPECT_EQ(g.strides(), (Dims{8, 16}));
  EXPECT_EQ(t.reshape({12}, Order::F).strides(), (Dims{8}));
  // Order A follows the layout: F here.
  Array h = t.reshape({12}, Order::A);
  EXPECT_EQ(h.buffer(), t.buffer());
  EXPECT_EQ(values(h), range(0, 12));
  EXPECT_THROW(a.reshape({6}, Order::K), ValueError);
}

TEST(Reshape, EmptyArrays) {
  Array e = Array::empty({0, 3}, DType::Float64, kCpu);
  Array r = e.reshape({3, 0});
  EXPECT_EQ(r.shape(), (Dims{3, 0}));
  EXPECT_EQ(r.strides(), (Dims{8, 8}));
  EXPECT_EQ(e.reshape({0, 1, 3}).strides(), (Dims{24, 24, 8}));
  // F order counts zero-length axes as length 1 too.
  EXPECT_EQ(e.reshape({3, 0}, Order::F).strides(), (Dims{8, 24}));
  EXPECT_EQ(e.reshape({2, 0, 3}, Order::F).strides(), (Dims{8, 16, 16}));
  EXPECT_EQ(e.reshape({-1, 5}).shape(), (Dims{0, 5}));
  EXPECT_THROW(e.reshape({-1, 0}), ValueError);  // unknown dimension is ambiguous
}

TEST(Reshape, BadShapesRaise) {
  Array a = iota({4, 6});
  EXPECT_THROW(a.reshape({5, 5}), ValueError);
  EXPECT_THROW(a.reshape({-1, -1}), ValueError);
  EXPECT_THROW(a.reshape({-2, -12}), ValueError);
  EXPECT_THROW(a.reshape({5, -1}), ValueError);
  EXPECT_THROW(a.reshape({25}), ValueError);
  Array same = a.reshape({4, 6});
  EXPECT_EQ(same.strides(), a.strides());
  EXPECT_EQ(same.buffer(), a.buffer());
}

TEST(Ravel, ContiguousInputsGiveViews) {
  Array a = iota({3, 4});
  for (Order o : {Order::C, Order::A, Order::K}) {
    Array r = a.ravel(o);
    EXPECT_EQ(r.buffer(), a.buffer());
    EXPECT_EQ(r.shape(), (Dims{12}));
    EXPECT_EQ(values(r), range(0, 12));
  }
  Array t = a.transpose();  // F-contiguous
  for (Order o : {Order::F, Order::A, Order::K}) {
    Array r = t.ravel(o);
    EXPECT_EQ(r.buffer(), a.buffer()) << static_cast<char>(o);
    EXPECT_EQ(values(r), range(0, 12)) << static_cast<char>(o);
  }
}

TEST(Ravel, OrderedCopies) {
  Array t = iota({3, 4}).transpose();
  Array c = t.ravel(Order::C);
  EXPECT_NE(c.buffer(), t.buffer());
  EXPECT_EQ(values(c), (V{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}));
  Array a = iota({3, 4});
  Array f = a.ravel(Order::F);
  EXPECT_NE(f.buffer(), a.buffer());
  EXPECT_EQ(values(f), (V{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}));
}

TEST(Ravel, KeepOrder) {
  // Axes permuted but still tiling memory: a view in memory order.
  Array a = iota({2, 3, 4});
  Array p = a.transpose({1, 0, 2});
  Array k = p.ravel(Order::K);
  EXPECT_EQ(k.buffer(), a.buffer());
  EXPECT_EQ(values(k), range(0, 24));
  EXPECT_EQ(values(p.ravel(Order::C)).at(4), 12.0);  // C order walks p's axes
  // A gap: memory order, copied.
  Array g = iota({4, 6}).index({all(), sl(std::nullopt, std::nullopt, 2)}).transpose();
  EXPECT_EQ(g.strides(), (Dims{16, 48}));
  EXPECT_EQ(values(g.ravel(Order::K)), (V{0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22}));
  // Negative strides: memory order with the data reversed along them (NumPy's doc).
  Array r = iota({6}).index({sl(std::nullopt, std::nullopt, -1)});
  EXPECT_EQ(values(r.ravel(Order::K)), (V{5, 4, 3, 2, 1, 0}));
  EXPECT_EQ(values(r.ravel(Order::C)), (V{5, 4, 3, 2, 1, 0}));
}

// ---------------------------------------------------------------------------------------
// the Array constructor

TEST(ArrayConstructor, RejectsViewsOutsideTheBuffer) {
  auto buf = Buffer::allocate(kCpu, 48);  // six float64
  EXPECT_NO_THROW(Array(buf, DType::Float64, Dims{6}, Dims{8}, 0));
  EXPECT_NO_THROW(Array(buf, DType::Float64, Dims{3}, Dims{16}, 8));
  EXPECT_NO_THROW(Array(buf, DType::Float64, Dims{3}, Dims{-16}, 40));
  EXPECT_NO_THROW(Array(buf, DType::Float64, Dims{2, 3}, Dims{24, 8}, 0));
  EXPECT_NO_THROW(Array(buf, DType::Float64, Dims{100}, Dims{0}, 40));
  EXPECT_NO_THROW(Array(buf, DType::Int8, Dims{48}, Dims{1}, 0));
  EXPECT_THROW(Array(buf, DType::Float64, Dims{6}, Dims{8}, 8), ValueError);
  EXPECT_THROW(Array(buf, DType::Float64, Dims{4}, Dims{16}, 0), ValueError);
  EXPECT_THROW(Array(buf, DType::Float64, Dims{3}, Dims{-8}, 0), ValueError);
  EXPECT_THROW(Array(buf, DType::Float64, Dims{3}, Dims{-16}, 24), ValueError);
  EXPECT_THROW(Array(buf, DType::Float64, Dims{}, Dims{}, 41), ValueError);
  EXPECT_THROW(Array(buf, DType::Float64, Dims{}, Dims{}, -8), ValueError);
  EXPECT_THROW(Array(buf, DType::Complex128, Dims{3}, Dims{16}, 8), ValueError);
  EXPECT_THROW(Array(buf, DType::Float64, Dims{2, 3}, Dims{24}, 0), ValueError);
  EXPECT_THROW(Array(buf, DType::Float64, Dims{2, 4}, Dims{24, 8}, 0), ValueError);
  // as_strided goes through the same check.
  Array a(buf, DType::Float64, Dims{6}, Dims{8}, 0);
  EXPECT_THROW(a.as_strided(Dims{7}, Dims{8}, 0), ValueError);
  EXPECT_THROW(a.as_strided(Dims{2}, Dims{8}, 40), ValueError);
  EXPECT_NO_THROW(a.as_strided(Dims{2, 2}, Dims{8, 16}, 8));
}

// A span whose byte count overflows int64 still reaches outside the buffer: 4 * 2^62 bytes
// is not 0 bytes.
TEST(ArrayConstructor, RejectsViewsWhoseExtentOverflows) {
  auto buf = Buffer::allocate(kCpu, 48);
  EXPECT_THROW(Array(buf, DType::Float64, Dims{5}, Dims{int64_t{1} << 62}, 0), ValueError);
  EXPECT_THROW(Array(buf, DType::Int8, Dims{(int64_t{1} << 62) + 1}, Dims{4}, 0), ValueError);
  EXPECT_THROW(Array(buf, DType::Float64, Dims{2, 5}, Dims{8, int64_t{1} << 62}, 0),
               ValueError);
  Array a(buf, DType::Float64, Dims{6}, Dims{8}, 0);
  EXPECT_THROW(a.as_strided(Dims{5}, Dims{int64_t{1} << 62}, 0), ValueError);
}

}  // namespace
}  // namespace tessera
