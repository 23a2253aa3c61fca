#pragma once
// One loop for a small matrix product and the elementwise chain that consumes it: a Dot
// node (small_dot.h) followed by + - * / steps, each taking the running value and one
// more operand that is a row of an array or one value along the row (a constant, a
// broadcast column). The distance matrix x2[:, None] - 2 * x @ y.T + y2[None, :] is such a
// chain. The blocked evaluator runs it as a pass per step over cache-resident slots, then
// copies the last slot out; the chain keeps the running value in registers and writes
// each vector of the output once, streaming it past the caches when the output is big.

#include <cstddef>
#include <cstdint>

#include "backend/cpu/expr_program.h"

namespace tessera::cpu {

enum class ChainOp : uint8_t { Add, Subtract, Multiply, Divide };

struct DotChain {
  static constexpr int kMaxLinks = 6;
  struct Link {
    ChainOp op{};
    bool running_first = true;  // running value op other, else other op running value
    int operand = -1;           // the program operand read as `other`, or -1: `constant`
    std::byte constant[8] = {};
  };
  bool matched = false;
  int dot_step = 0;  // the program's Dot step
  int links = 0;
  Link link[kMaxLinks];
  unsigned fp_reported = 0;  // the errors the chain's steps report (their union)
};

// The chain `p` computes when its one output is such a chain in float32 or float64.
DotChain match_dot_chain(const Program& p);

// Runs the chain over one row of n elements (ptrs/strides per program operand, the output
// first; with `streaming`, a contiguous output row is written with streaming stores).
// False when the row's layout does not suit the loop, or when it raised floating-point
// errors its steps report: the caller then runs the program on the row, which attributes
// them (and which the caller made safe: the output overlaps no input).
bool run_dot_chain_row(const Program& p, const DotChain& chain, std::byte* const* ptrs,
                       const int64_t* strides, int64_t n, bool streaming);

}  // namespace tessera::cpu
