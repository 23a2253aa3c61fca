#pragma once
// Highway SIMD folds of one block of contiguous values to one value, for the reductions
// that dominate time (sum, max, min of float32/float64). They read the block in one
// sequential stream with eight independent vector accumulators, which the memory system
// serves at full speed; the generic fold (pairwise halving through the op's loop) handles
// every other op and dtype.

#include <cstddef>
#include <cstdint>

#include "tessera/ufunc.h"

namespace tessera::cpu {

// Folds n >= 1 values at `values` into *out (all of the dtype given at lookup); sums run
// pairwise over blocks of 512, so one call may take a whole row.
using BlockFold = void (*)(const std::byte* values, int64_t n, std::byte* out);

// The SIMD fold of `op` over `dtype`, or null when there is none.
BlockFold simd_block_fold(Ufunc op, DType dtype);

// Folds n bools into their int64 count: the sum of a bool array, count_nonzero.
BlockFold simd_count_fold();

// Folds the sum of (v - center)^2 over n >= 1 contiguous values into *out (pairwise over
// blocks, as the sums): the second
// pass of var/std and sums of squares, read straight from memory. float32/float64 only.
using SquaresFold = void (*)(const std::byte* values, int64_t n, const std::byte* center,
                             std::byte* out);
SquaresFold simd_squares_fold(DType dtype);

}  // namespace tessera::cpu
