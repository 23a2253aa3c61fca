// The fused loop of a Dot node and its elementwise chain (dot_chain.h), through Highway
// with runtime dispatch. Each vector of a row is the Dot's multiply-adds, then the chain's
// steps in order, then one store: the same operations, in the same order and precision,
// as the evaluator's passes over slots (small_dot.cpp's loop and the ufunc loops), so the
// values are the same bits.
//
// Compiled once per target by Highway's foreach_target; HWY_ONCE holds the matcher, the
// row runner and the dispatch.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "backend/cpu/dot_chain.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include <cstdint>
#include <cstring>

#include "backend/cpu/dot_chain.h"
#include "backend/cpu/fp_flags.h"
#include "backend/cpu/product_row-inl.h"
#include "backend/cpu/stream_store.h"

#ifndef TESSERA_CPU_DOT_CHAIN_ROW
#define TESSERA_CPU_DOT_CHAIN_ROW
namespace tessera::cpu {

// One row's work, in the row runner's terms: the Dot's x (one element per term, the same
// for the whole row) and y (a contiguous row per term), then each link's op and other
// operand (a contiguous row, or one value when `row` is null).
struct ChainRow {
  const std::byte* x = nullptr;
  const std::byte* y = nullptr;
  int64_t steps[2] = {};
  int terms = 0;
  int links = 0;
  ChainOp op[DotChain::kMaxLinks] = {};
  bool running_first[DotChain::kMaxLinks] = {};
  const std::byte* row[DotChain::kMaxLinks] = {};
  std::byte value[DotChain::kMaxLinks][8] = {};
  std::byte* out = nullptr;
  int64_t n = 0;
  bool stream = false;
};

}  // namespace tessera::cpu
#endif  // TESSERA_CPU_DOT_CHAIN_ROW

HWY_BEFORE_NAMESPACE();
namespace tessera::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

template <class T>
T apply(ChainOp op, T a, T b) {
  switch (op) {
    case ChainOp::Add: return a + b;
    case ChainOp::Subtract: return a - b;
    case ChainOp::Multiply: return a * b;
    case ChainOp::Divide: return a / b;
  }
  return a;
}

template <class V>
HWY_INLINE V apply_vec(ChainOp op, V a, V b) {
  switch (op) {
    case ChainOp::Add: return hn::Add(a, b);
    case ChainOp::Subtract: return hn::Sub(a, b);
    case ChainOp::Multiply: return hn::Mul(a, b);
    case ChainOp::Divide: return hn::Div(a, b);
  }
  return a;
}

// The row with `Terms` known at compile time, the links' single values held in registers.
// With `r.stream`, elements before the first vector-aligned one are stored singly so that
// every vector store can stream.
template <class T, int Terms>
void ChainRowOf(const ChainRow& r) {
  const ProductRow<T, Terms> product(r.x, r.y, r.steps);
  const auto d = product.d;
  using V = hn::Vec<decltype(d)>;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  const T* rows[DotChain::kMaxLinks];
  T values[DotChain::kMaxLinks];
  V value_vecs[DotChain::kMaxLinks];
  for (int l = 0; l < r.links; ++l) {
    rows[l] = reinterpret_cast<const T*>(r.row[l]);
    values[l] = element<T>(r.value[l]);
    value_vecs[l] = hn::Set(d, values[l]);
  }
  T* o = reinterpret_cast<T*>(r.out);
  const auto one = [&](int64_t j) {
    T acc = dot_at<T>(r.x, r.y + j * static_cast<int64_t>(sizeof(T)), r.steps, Terms);
    for (int l = 0; l < r.links; ++l) {
      const T other = rows[l] ? rows[l][j] : values[l];
      acc = r.running_first[l] ? apply(r.op[l], acc, other) : apply(r.op[l], other, acc);
    }
    o[j] = acc;
  };
  const int64_t n = r.n;
  const auto vector_bytes = static_cast<uintptr_t>(lanes) * sizeof(T);
  int64_t j = 0;
  if (r.stream) {
    for (; j < n && reinterpret_cast<uintptr_t>(o + j) % vector_bytes != 0; ++j) one(j);
  }
  for (; j + lanes <= n; j += lanes) {
    V acc = product.at(j);
    for (int l = 0; l < r.links; ++l) {
      const V other = rows[l] ? hn::LoadU(d, rows[l] + j) : value_vecs[l];
      acc = r.running_first[l] ? apply_vec(r.op[l], acc, other) : apply_vec(r.op[l], other, acc);
    }
    if (r.stream) {
      hn::Stream(acc, d, o + j);
    } else {
      hn::StoreU(acc, d, o + j);
    }
  }
  for (; j < n; ++j) one(j);
}

template <class T>
void ChainRowLoop(const ChainRow& r) {
  with_terms(r.terms, [&](auto count) { ChainRowOf<T, decltype(count)::value>(r); });
}

void ChainRowFloat(const ChainRow& r) { ChainRowLoop<float>(r); }
void ChainRowDouble(const ChainRow& r) { ChainRowLoop<double>(r); }

}  // namespace tessera::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace tessera::cpu {

HWY_EXPORT(ChainRowFloat);
HWY_EXPORT(ChainRowDouble);

namespace {

bool chain_op(Ufunc op, ChainOp* out) {
  switch (op) {
    case Ufunc::Add: *out = ChainOp::Add; return true;
    case Ufunc::Subtract: *out = ChainOp::Subtract; return true;
    case Ufunc::Multiply: *out = ChainOp::Multiply; return true;
    case Ufunc::Divide: *out = ChainOp::Divide; return true;
    default: return false;
  }
}

// The Load or Constant step that fills `slot` with values of `dtype` as they are, or null.
const Step* plain_value_of(const Program& p, int slot, DType dtype) {
  if (p.slot_dtypes[slot] != dtype) return nullptr;
  for (const Step& s : p.steps) {
    if (s.results[0] != slot) continue;
    if (s.kind == Step::Load && !s.converts) return &s;
    if (s.kind == Step::Constant && s.value.dtype() == dtype) return &s;
    return nullptr;
  }
  return nullptr;
}

}  // namespace

DotChain match_dot_chain(const Program& p) {
  const DType dtype = p.slot_dtypes[p.roots[0]];
  if (dtype != DType::Float64 && dtype != DType::Float32) return {};
  DotChain chain;
  int running = -1;  // the slot holding the chain's value so far
  for (int i = 0; i < static_cast<int>(p.steps.size()); ++i) {
    const Step& s = p.steps[i];
    if (s.kind == Step::Load || s.kind == Step::Constant) continue;
    if (s.kind == Step::Dot && running < 0 && p.slot_dtypes[s.results[0]] == dtype) {
      chain.dot_step = i;
      chain.fp_reported |= s.fp_reported;
      running = s.results[0];
      continue;
    }
    if (s.kind != Step::Run || running < 0 || chain.links == DotChain::kMaxLinks ||
        s.nargs != 2 || s.nresults != 1 || p.slot_dtypes[s.results[0]] != dtype) {
      return {};
    }
    DotChain::Link& link = chain.link[chain.links];
    if (!chain_op(s.op, &link.op)) return {};
    link.running_first = s.args[0] == running;
    const int other = s.args[link.running_first ? 1 : 0];
    if (s.args[link.running_first ? 0 : 1] != running || other == running) return {};
    const Step* value = plain_value_of(p, other, dtype);
    if (!value) return {};
    if (value->kind == Step::Load) {
      link.operand = value->operand;
    } else {
      std::memcpy(link.constant, value->value.data(), itemsize(dtype));
    }
    chain.fp_reported |= s.fp_reported;
    running = s.results[0];
    ++chain.links;
  }
  chain.matched = running >= 0 && running == p.roots[0];
  return chain;
}

bool run_dot_chain_row(const Program& p, const DotChain& chain, std::byte* const* ptrs,
                       const int64_t* strides, int64_t n, bool streaming) {
  const Step& dot = p.steps[chain.dot_step];
  const int k = dot.operand;
  const int64_t item = p.operands[0].itemsize();
  if (strides[0] != item || strides[k] != 0 || strides[k + 1] != item) return false;
  ChainRow r;
  r.x = ptrs[k];
  r.y = ptrs[k + 1];
  r.steps[0] = dot.dot_steps[0];
  r.steps[1] = dot.dot_steps[1];
  r.terms = dot.dot_terms;
  r.links = chain.links;
  for (int l = 0; l < chain.links; ++l) {
    const DotChain::Link& link = chain.link[l];
    r.op[l] = link.op;
    r.running_first[l] = link.running_first;
    if (link.operand < 0) {
      std::memcpy(r.value[l], link.constant, item);
    } else if (strides[link.operand] == item) {
      r.row[l] = ptrs[link.operand];
    } else if (strides[link.operand] == 0) {
      std::memcpy(r.value[l], ptrs[link.operand], item);
    } else {
      return false;
    }
  }
  r.out = ptrs[0];
  r.n = n;
  r.stream = streaming && reinterpret_cast<uintptr_t>(ptrs[0]) % item == 0;
  clear_stale_fp_errors();
  if (item == 4) {
    HWY_DYNAMIC_DISPATCH(ChainRowFloat)(r);
  } else {
    HWY_DYNAMIC_DISPATCH(ChainRowDouble)(r);
  }
  if (r.stream) stream_store_fence();
  const unsigned raised = raised_fp_errors();
  if (!raised) return true;
  clear_fp_errors();
  return !(raised & chain.fp_reported);
}

}  // namespace tessera::cpu
#endif  // HWY_ONCE
