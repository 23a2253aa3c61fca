#include "backend/cpu/fused_pair.h"

#include <array>

#include "kernels/ops_arithmetic.h"

namespace tessera::cpu {
namespace {

// op1's result is op2's first argument (`a * b + c`) or its second (`c + a * b`).
template <class T, class Op1, class Op2, bool Op1First>
void fused_loop(const std::byte* x, const std::byte* y, const std::byte* z, std::byte* out,
                int64_t n) {
  const T* a = reinterpret_cast<const T*>(x);
  const T* b = reinterpret_cast<const T*>(y);
  const T* c = reinterpret_cast<const T*>(z);
  T* o = reinterpret_cast<T*>(out);
  const Op1 op1{};
  const Op2 op2{};
  for (int64_t i = 0; i < n; ++i) {
    const T t = op1(a[i], b[i]);
    o[i] = Op1First ? op2(t, c[i]) : op2(c[i], t);
  }
}

constexpr std::array<Ufunc, 4> kOps = {Ufunc::Add, Ufunc::Subtract, Ufunc::Multiply,
                                       Ufunc::Divide};
using kernels::Add, kernels::Subtract, kernels::Multiply, kernels::TrueDivide;

template <class T, class Op1, bool Op1First>
constexpr std::array<FusedPairFn, 4> by_second_op() {
  return {&fused_loop<T, Op1, Add, Op1First>, &fused_loop<T, Op1, Subtract, Op1First>,
          &fused_loop<T, Op1, Multiply, Op1First>, &fused_loop<T, Op1, TrueDivide, Op1First>};
}

template <class T, bool Op1First>
constexpr std::array<std::array<FusedPairFn, 4>, 4> by_ops() {
  return {by_second_op<T, Add, Op1First>(), by_second_op<T, Subtract, Op1First>(),
          by_second_op<T, Multiply, Op1First>(), by_second_op<T, TrueDivide, Op1First>()};
}

int op_index(Ufunc op) {
  for (size_t i = 0; i < kOps.size(); ++i) {
    if (kOps[i] == op) return static_cast<int>(i);
  }
  return -1;
}

// The Load step that fills `slot`, or nullptr.
const Step* load_of(const Program& p, int slot) {
  for (const Step& s : p.steps) {
    if (s.kind == Step::Load && s.results[0] == slot) return &s;
  }
  return nullptr;
}

}  // namespace

FusedPair match_fused_pair(const Program& p) {
  FusedPair fused;
  const DType dtype = p.slot_dtypes[p.roots[0]];
  if (dtype != DType::Float64 && dtype != DType::Float32) return fused;
  int runs[2], nruns = 0;
  for (int i = 0; i < static_cast<int>(p.steps.size()); ++i) {
    const Step& s = p.steps[i];
    if (s.kind == Step::Run) {
      if (nruns == 2) return fused;
      runs[nruns++] = i;
    } else if (s.kind != Step::Load || s.converts) {
      return fused;
    }
  }
  if (nruns != 2) return fused;
  const Step& first = p.steps[runs[0]];
  const Step& second = p.steps[runs[1]];
  const int op1 = op_index(first.op), op2 = op_index(second.op);
  if (op1 < 0 || op2 < 0 || second.results[0] != p.roots[0]) return fused;
  const bool op1_first = second.args[0] == first.results[0];
  const int other = second.args[op1_first ? 1 : 0];
  if (second.args[op1_first ? 0 : 1] != first.results[0]) return fused;
  const Step* loads[3] = {load_of(p, first.args[0]), load_of(p, first.args[1]),
                          load_of(p, other)};
  for (int k = 0; k < 3; ++k) {
    if (!loads[k] || p.slot_dtypes[loads[k]->results[0]] != dtype) return fused;
    fused.operands[k] = loads[k]->operand;
  }
  static constexpr auto f64 = std::array{by_ops<double, false>(), by_ops<double, true>()};
  static constexpr auto f32 = std::array{by_ops<float, false>(), by_ops<float, true>()};
  fused.fn = (dtype == DType::Float64 ? f64 : f32)[op1_first][op1][op2];
  fused.steps[0] = runs[0];
  fused.steps[1] = runs[1];
  return fused;
}

}  // namespace tessera::cpu
