#pragma once
// One loop for the commonest three-input trees, `a * b + c` and its kin: op2(op1(x, y), z)
// or op2(z, op1(x, y)) with op1, op2 among + - * / and every value of one float dtype.
// The blocked evaluator runs such a tree in two passes per block (op1 into a slot, then
// op2 into the output), which interrupts the hardware prefetcher's streams at every block;
// one loop over the four arrays keeps them streaming (a third faster at 1e7 float64).

#include <cstddef>
#include <cstdint>

#include "backend/cpu/expr_program.h"

namespace tessera::cpu {

using FusedPairFn = void (*)(const std::byte* x, const std::byte* y, const std::byte* z,
                             std::byte* out, int64_t n);

struct FusedPair {
  FusedPairFn fn = nullptr;
  int operands[3] = {};  // the program operands read as x, y, z
  int steps[2] = {};     // the program steps of op1 and op2
};

// The fused loop for `p` when it is such a tree with one output, else fn == nullptr.
FusedPair match_fused_pair(const Program& p);

}  // namespace tessera::cpu
