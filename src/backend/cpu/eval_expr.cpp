// The blocked expression evaluator: a whole elementwise tree in one pass over memory. The
// tree becomes a short program of steps over cache-resident slots of kBlock elements;
// each row of the iteration space runs the program block by block, rows and long rows'
// chunks spread over the thread pool. Inputs that are contiguous and already of the
// loop's dtype are read in place, and the last step writes straight into a contiguous
// output, so `a + b` is a single loop over the three arrays.

#include <algorithm>
#include <cstring>
#include <vector>

#include "backend/cpu/dot_chain.h"
#include "backend/cpu/expr_program.h"
#include "backend/cpu/fp_flags.h"
#include "backend/cpu/fused_pair.h"
#include "backend/cpu/stream_store.h"
#include "backend/cpu/strided_loop.h"
#include "core/overlap.h"

namespace tessera::cpu {
namespace {

// Runs `fused` on one row when its operands are contiguous there; false when the row is
// left to the program, also when the loop raised errors the program must attribute to
// its steps (the row is then computed again, which the caller made safe: the output
// overlaps no input).
bool run_fused_row(const Program& p, const FusedPair& fused, std::byte* const* ptrs,
                   const int64_t* strides, int64_t n) {
  if (!fused.fn || strides[0] != p.operands[0].itemsize()) return false;
  for (const int k : fused.operands) {
    if (strides[k] != p.operands[k].itemsize()) return false;
  }
  clear_stale_fp_errors();
  fused.fn(ptrs[fused.operands[0]], ptrs[fused.operands[1]], ptrs[fused.operands[2]], ptrs[0],
           n);
  const unsigned raised = raised_fp_errors();
  if (!raised) return true;
  clear_fp_errors();
  const unsigned reported =
      p.steps[fused.steps[0]].fp_reported | p.steps[fused.steps[1]].fp_reported;
  return !(raised & reported);
}

// Runs `p` on one row of n elements; ptrs/strides per operand (outputs first). With
// `streaming`, contiguous outputs are written from the slots with streaming stores
// (stream_store.h) instead of by the last step.
void run_row(const Program& p, std::span<const CastRow> store, bool streaming,
             std::byte* const* ptrs, const int64_t* strides, int64_t n) {
  const int nouts = static_cast<int>(store.size());
  std::byte* memory = program_scratch(p);
  std::byte* slot_ptr[kMaxSlots];
  std::byte* direct[kMaxSlots] = {};
  bool direct_store[2] = {false, false}, stream[2] = {false, false};
  int64_t out_size[2] = {};
  for (int j = 0; j < nouts; ++j) {
    out_size[j] = p.operands[j].itemsize();
    stream[j] = streaming && strides[j] == out_size[j];
    direct_store[j] = !stream[j] && strides[j] == out_size[j];
  }
  fill_constants(p, memory, std::min(n, kBlock));
  for (int64_t off = 0; off < n; off += kBlock) {
    const int64_t m = std::min(kBlock, n - off);
    for (int j = 0; j < nouts; ++j) {
      if (direct_store[j]) direct[p.roots[j]] = ptrs[j] + off * strides[j];
    }
    run_block(p, ptrs, strides, off, m, memory, slot_ptr, direct);
    for (int j = 0; j < nouts; ++j) {
      std::byte* dst = ptrs[j] + off * strides[j];
      if (slot_ptr[p.roots[j]] == dst) continue;  // written in place by the last step
      if (stream[j]) {
        stream_store(slot_ptr[p.roots[j]], dst, m * out_size[j]);
      } else {
        store[j](slot_ptr[p.roots[j]], out_size[j], dst, strides[j], m);
      }
    }
  }
  if (stream[0] || stream[1]) stream_store_fence();
}

}  // namespace

void eval_expr(const expr::Node& root, std::span<const Array> outs) {
  if (outs.empty() || outs[0].size() == 0) return;
  Program p;
  p.operands.assign(outs.begin(), outs.end());
  const int nouts = static_cast<int>(outs.size());
  compile_program(p, root, nouts == 2);
  for (int j = 0; j < nouts; ++j) {
    for (size_t k = nouts; k < p.operands.size(); ++k) {
      if (may_overlap(outs[j], p.operands[k])) p.check_every_step = true;
    }
  }
  FusedPair fused = nouts == 1 ? match_fused_pair(p) : FusedPair{};
  for (const int k : fused.operands) {
    if (fused.fn && may_overlap(outs[0], p.operands[k])) fused.fn = nullptr;
  }
  DotChain chain = nouts == 1 ? match_dot_chain(p) : DotChain{};
  for (size_t k = 1; k < p.operands.size() && chain.matched; ++k) {
    if (may_overlap(outs[0], p.operands[k])) chain.matched = false;
  }
  CastRow store[2] = {};  // copies a root slot to its output (same dtype, any stride)
  for (int j = 0; j < nouts; ++j) store[j] = cast_row_for(outs[j].dtype(), outs[j].dtype());
  int64_t out_bytes = 0;
  for (const Array& out : outs) out_bytes += out.size() * out.itemsize();
  const bool streaming = out_bytes >= streaming_store_min_bytes();
  const int nops = static_cast<int>(p.operands.size());
  Dims strides[StridedLayout::kMaxOperands];
  std::byte* base[StridedLayout::kMaxOperands];
  for (int k = 0; k < nops; ++k) {
    strides[k] = p.operands[k].strides();
    base[k] = p.operands[k].data();
  }
  StridedLayout layout = simplify_layout(outs[0].shape(), strides, nops);
  int64_t inner[StridedLayout::kMaxOperands];
  for (int k = 0; k < nops; ++k) inner[k] = layout.strides[k].back();
  for_each_row(layout, base, outs[0].itemsize(), [&](std::byte* const* ptrs, int64_t n) {
    if (run_fused_row(p, fused, ptrs, inner, n)) return;
    if (chain.matched && run_dot_chain_row(p, chain, ptrs, inner, n, streaming)) return;
    run_row(p, {store, static_cast<size_t>(nouts)}, streaming, ptrs, inner, n);
  });
  record_program_errors(p);
}

void run_loop_rows(Ufunc op, int loop, std::span<const void* const> in,
                   std::span<const bool> broadcast, std::span<const int64_t> row_strides,
                   int64_t rows, int64_t cols, void* out) {
  const LoopSignature& sig = ufunc_info(op).loops[loop];
  const FpModes modes = fp_modes();
  clear_stale_fp_errors();
  thread_local std::vector<std::byte> memory(3 * kSlotBytes);
  const std::byte* args[3];
  const int64_t out_size = itemsize(sig.out[0]);
  std::byte* outs[1];
  for (size_t k = 0; k < in.size(); ++k) {
    if (!broadcast[k]) continue;
    // A scalar operand: one slot of it, as long as the longest block.
    const int64_t size = itemsize(sig.in[k]);
    std::byte* slot = memory.data() + k * kSlotBytes;
    for (int64_t i = 0; i < std::min(kBlock, cols); ++i) std::memcpy(slot + i * size, in[k], size);
  }
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t off = 0; off < cols; off += kBlock) {
      const int64_t m = std::min(kBlock, cols - off);
      for (size_t k = 0; k < in.size(); ++k) {
        args[k] = broadcast[k] ? memory.data() + k * kSlotBytes
                               : static_cast<const std::byte*>(in[k]) + r * row_strides[k] +
                                     off * itemsize(sig.in[k]);
      }
      outs[0] = static_cast<std::byte*>(out) + (r * cols + off) * out_size;
      loop_for(op, loop)(args, outs, m);
    }
  }
  if (const unsigned raised = raised_fp_errors()) {
    record_fp_errors(ufunc_info(op).name, raised & reported_fp_errors(op, sig.in[0]), modes);
    clear_fp_errors();
  }
}

}  // namespace tessera::cpu
