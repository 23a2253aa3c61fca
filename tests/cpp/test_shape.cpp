// Shape and stride arithmetic of the engine, checked against values NumPy gives.

#include <gtest/gtest.h>

#include "tessera/array.h"
#include "tessera/errors.h"

namespace tessera {
namespace {

TEST(ContiguousStrides, COrderCountsZeroLengthAxesAsOne) {
  EXPECT_EQ(contiguous_strides(Dims{2, 3, 4}, 8, Order::C), (Dims{96, 32, 8}));
  EXPECT_EQ(contiguous_strides(Dims{0, 3}, 8, Order::C), (Dims{24, 8}));
  EXPECT_EQ(contiguous_strides(Dims{3, 0}, 8, Order::C), (Dims{8, 8}));
  EXPECT_EQ(contiguous_strides(Dims{}, 8, Order::C), (Dims{}));
}

TEST(ContiguousStrides, FOrder) {
  EXPECT_EQ(contiguous_strides(Dims{2, 3, 4}, 4, Order::F), (Dims{4, 8, 24}));
}

TEST(BroadcastShapes, NumPyRules) {
  EXPECT_EQ(broadcast_shapes({Dims{3, 1}, Dims{4}}, "t"), (Dims{3, 4}));
  EXPECT_EQ(broadcast_shapes({Dims{0, 1}, Dims{1, 5}}, "t"), (Dims{0, 5}));
  EXPECT_EQ(broadcast_shapes({Dims{}, Dims{2}}, "t"), (Dims{2}));
  EXPECT_THROW(broadcast_shapes({Dims{3}, Dims{4}}, "t"), ValueError);
}

TEST(NormalizeAxis, NegativeAndOutOfRange) {
  EXPECT_EQ(normalize_axis(-1, 3, "t"), 2);
  EXPECT_EQ(normalize_axis(0, 1, "t"), 0);
  EXPECT_THROW(normalize_axis(3, 3, "t"), AxisError);
  EXPECT_THROW(normalize_axis(-4, 3, "t"), AxisError);
  EXPECT_THROW(normalize_axis(0, 0, "t"), AxisError);
}

TEST(CheckedSize, NegativeAndOverflowingShapes) {
  EXPECT_EQ(checked_size(Dims{2, 3}, 8, "t"), 6);
  EXPECT_EQ(checked_size(Dims{0, 3}, 8, "t"), 0);
  EXPECT_EQ(checked_size(Dims{}, 8, "t"), 1);
  EXPECT_THROW(checked_size(Dims{-1}, 8, "t"), ValueError);
  EXPECT_THROW(checked_size(Dims{int64_t{1} << 40, int64_t{1} << 40}, 8, "t"), ValueError);
  // NumPy checks the byte count even when another axis is empty.
  EXPECT_THROW(checked_size(Dims{0, int64_t{1} << 62, 4}, 8, "t"), ValueError);
  EXPECT_THROW(checked_size(Dims(kMaxDims + 1, 1), 8, "t"), ValueError);
}

TEST(Dims, InlineAndHeapStorageBehaveAlike) {
  Dims d;
  for (int i = 0; i < 20; ++i) d.push_back(i);
  EXPECT_EQ(d.size(), 20);
  EXPECT_EQ(d[19], 19);
  Dims copy = d;
  d.erase(0);
  EXPECT_EQ(copy[0], 0);
  EXPECT_EQ(d[0], 1);
  d.insert(0, 7);
  EXPECT_EQ(d[0], 7);
  Dims moved = std::move(copy);
  EXPECT_EQ(moved.size(), 20);
  EXPECT_EQ((Dims{4}).str(), "(4,)");
  EXPECT_EQ((Dims{2, 3}).str(), "(2, 3)");
  EXPECT_EQ(Dims{}.str(), "()");
}

}  // namespace
}  // namespace tessera
