#include "backend/cpu/expr_program.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <stdexcept>

#include "backend/cpu/element_bytes.h"
#include "backend/cpu/fp_flags.h"
#include "backend/cpu/strided_loop.h"
#include "jit/python_raise.h"
#include "tessera/errors.h"

namespace tessera::cpu {
namespace {

class Compiler {
 public:
  explicit Compiler(Program& p) : p_(p) {}

  int compile(const expr::Node& n) {
    for (const auto& [node, slot] : memo_) {
      if (node == &n) return slot;
    }
    int slot = emit(n);
    memo_.emplace_back(&n, slot);
    return slot;
  }

 private:
  static void check_errors(Step& step, std::string_view name, const expr::Node& n,
                           unsigned reported) {
    bool any = false;
    for (int k = 0; k < kNumFpErrors; ++k) {
      const auto error = static_cast<FpError>(k);
      any |= n.fp_modes[error] != FpMode::Ignore && (reported & fp_bit(error));
    }
    if (!any) return;
    step.fp_name = name;
    step.fp_modes = n.fp_modes;
    step.fp_origin = n.fp_origin;
    step.fp_reported = reported;
  }

  int new_slot(DType dtype) {
    p_.slot_dtypes.push_back(dtype);
    return static_cast<int>(p_.slot_dtypes.size()) - 1;
  }

  int emit(const expr::Node& n) {
    Step step{};
    switch (n.kind) {
      case expr::Node::Kind::Input: {
        if (is_one_value(n.input)) {
          // One value broadcast over the tree (a mean, a 0-d array): a constant, filled
          // once per row instead of gathered block after block.
          step.kind = Step::Constant;
          step.value = Scalar(n.input.dtype(), n.input.data()).cast(n.dtype);
          step.results[0] = new_slot(n.dtype);
          break;
        }
        step.kind = Step::Load;
        step.operand = static_cast<int>(p_.operands.size());
        p_.operands.push_back(n.input);
        step.cast = cast_row_for(n.input.dtype(), n.dtype);
        step.converts = n.input.dtype() != n.dtype;
        if (step.converts) check_errors(step, "cast", n, ~0u);
        step.results[0] = new_slot(n.dtype);
        break;
      }
      case expr::Node::Kind::Constant:
        step.kind = Step::Constant;
        step.value = n.constant;
        step.results[0] = new_slot(n.dtype);
        break;
      case expr::Node::Kind::Cast: {
        const expr::Node& from = *n.args[0];
        step.kind = Step::Convert;
        step.args[0] = compile(from);
        step.nargs = 1;
        step.cast = cast_row_for(from.dtype, n.dtype);
        step.results[0] = new_slot(n.dtype);
        check_errors(step, n.output_of ? ufunc_info(*n.output_of).name : "cast", n, ~0u);
        break;
      }
      case expr::Node::Kind::Dot:
        // Its two Inputs are read in place by the step, never loaded into slots.
        step.kind = Step::Dot;
        step.operand = static_cast<int>(p_.operands.size());
        p_.operands.push_back(n.args[0]->input);
        p_.operands.push_back(n.args[1]->input);
        step.dot = small_dot_for(n.dtype);
        step.dot_terms = n.dot_terms;
        step.dot_steps[0] = n.dot_steps[0];
        step.dot_steps[1] = n.dot_steps[1];
        step.results[0] = new_slot(n.dtype);
        check_errors(step, "matmul", n, ~0u);
        break;
      case expr::Node::Kind::User: {
        // Floating-point flags its code raises are not reported, as Numba's ufuncs do not.
        if (n.args.size() > static_cast<size_t>(kMaxStepArgs)) {
          throw std::logic_error(
              "eval_expr: a user's function of more arguments than a step takes");
        }
        step.kind = Step::User;
        step.user = n.user.get();
        for (const expr::NodePtr& a : n.args) step.args[step.nargs++] = compile(*a);
        step.results[0] = new_slot(n.dtype);
        break;
      }
      case expr::Node::Kind::Op: {
        const UfuncInfo& info = ufunc_info(n.op);
        step.kind = Step::Run;
        step.op = n.op;
        step.loop = loop_for(n.op, n.loop);
        check_errors(step, info.name, n, reported_fp_errors(n.op, info.loops[n.loop].in[0]));
        for (const expr::NodePtr& a : n.args) step.args[step.nargs++] = compile(*a);
        for (int k = 0; k < info.nout; ++k) {
          step.results[step.nresults++] = new_slot(info.loops[n.loop].out[k]);
        }
        p_.steps.push_back(step);
        return step.results[n.output];
      }
    }
    step.nresults = 1;
    p_.steps.push_back(step);
    return step.results[0];
  }

  Program& p_;
  std::vector<std::pair<const expr::Node*, int>> memo_;  // trees are small: linear search
};

}  // namespace

void compile_program(Program& p, const expr::Node& root, bool both_outputs) {
  static std::atomic<uint64_t> compilations{0};
  p.id = ++compilations;
  Compiler compiler(p);
  if (both_outputs) {
    compiler.compile(root);
    const Step& last = p.steps.back();
    p.roots[0] = last.results[0];
    p.roots[1] = last.results[1];
  } else {
    p.roots[0] = compiler.compile(root);
  }
  const auto half = [](DType t) { return t == DType::Float16; };
  p.check_every_step = std::any_of(p.steps.begin(), p.steps.end(),
                                   [](const Step& s) { return s.kind == Step::User; });
  p.half_precision = std::any_of(p.slot_dtypes.begin(), p.slot_dtypes.end(), half) ||
                     std::any_of(p.operands.begin(), p.operands.end(),
                                 [&](const Array& a) { return half(a.dtype()); });
  if (p.slot_dtypes.size() > kMaxSlots || p.operands.size() > StridedLayout::kMaxOperands ||
      p.steps.size() > std::size(p.step_errors)) {
    throw std::logic_error("eval_expr: expression tree larger than the evaluator's limits");
  }
}

void walk_tree(TreeWalk& walk, const expr::Node& root, const Array& first, const Dims* marker) {
  walk.program.operands.push_back(first);
  compile_program(walk.program, root);
  const std::vector<Array>& operands = walk.program.operands;
  const int nops = static_cast<int>(operands.size());
  if (nops + (marker ? 1 : 0) > StridedLayout::kMaxOperands) {
    throw std::logic_error("eval_expr: expression tree larger than the evaluator's limits");
  }
  walk.operands = nops;
  Dims strides[StridedLayout::kMaxOperands];
  for (int k = 0; k < nops; ++k) {
    strides[k] = operands[k].strides();
    walk.base[k] = operands[k].data();
  }
  if (marker) strides[nops] = *marker;
  walk.layout = simplify_layout(first.shape(), strides, nops + (marker ? 1 : 0), nops > 1 ? 1 : 0);
}

void record_walk_errors(const TreeWalk& walk, std::string_view fold_name, Ufunc op, DType dtype) {
  record_program_errors(walk.program);
  const unsigned folds = (walk.fold_errors.load(std::memory_order_relaxed) |
                          walk.program.entry_errors.load(std::memory_order_relaxed)) &
                         reported_fp_errors(op, dtype);
  if (folds) record_fp_errors(fold_name, folds, fp_modes());
}

void add_offsets(const TreeWalk& walk, const std::vector<int>& axes, int64_t flat,
                 std::byte** ptrs) {
  for (int i = static_cast<int>(axes.size()) - 1; i >= 0 && flat > 0; --i) {
    const int a = axes[i];
    const int64_t idx = flat % walk.layout.shape[a];
    flat /= walk.layout.shape[a];
    for (int k = 0; k < walk.operands; ++k) ptrs[k] += idx * walk.layout.strides[k][a];
  }
}

std::byte* program_scratch(const Program& p) {
  thread_local std::vector<std::byte> memory;
  const size_t bytes = p.slot_dtypes.size() * kSlotStride;
  if (memory.size() < bytes + 64) memory.resize(bytes + 64);
  auto addr = reinterpret_cast<uintptr_t>(memory.data());
  return memory.data() + ((64 - addr % 64) % 64);
}

namespace {

template <typename E>
void fill_slot(std::byte* slot, const void* value, int64_t m) {
  E v;
  std::memcpy(&v, value, sizeof(E));
  std::fill(reinterpret_cast<E*>(slot), reinterpret_cast<E*>(slot) + m, v);
}

}  // namespace

namespace {

[[noreturn]] void throw_user_raise(const expr::UserFunction& f, int code) {
  const jit::RaiseInfo info = jit::raise_info(code);
  const std::string message = "[" + f.name + "] " + std::string(info.message);
  switch (info.kind) {
    case jit::RaiseKind::ZeroDivision:
      throw FloatingPointError(message);
    case jit::RaiseKind::Value:
      throw ValueError(message);
    case jit::RaiseKind::LinAlg:
      throw LinAlgError(message);
    case jit::RaiseKind::Index:
      throw IndexError(message);
    case jit::RaiseKind::Memory:
      throw OutOfMemoryError(message);
    case jit::RaiseKind::Unknown:
      break;
  }
  throw std::runtime_error(message + " " + std::to_string(code));
}

}  // namespace

void fill_constants(const Program& p, std::byte* memory, int64_t m) {
  // The slots are per thread: this thread's last fill may already be this program's.
  thread_local uint64_t filled_id = 0;
  thread_local int64_t filled_count = 0;
  thread_local const std::byte* filled_memory = nullptr;
  if (filled_id == p.id && filled_memory == memory && filled_count >= m) return;
  for (const Step& s : p.steps) {
    if (s.kind != Step::Constant) continue;
    std::byte* slot = memory + s.results[0] * kSlotStride;
    visit_element_size(itemsize(s.value.dtype()), [&](auto element) {
      fill_slot<decltype(element)>(slot, s.value.data(), m);
    });
  }
  filled_id = p.id;
  filled_memory = memory;
  filled_count = m;
}

void run_block(const Program& p, std::byte* const* ptrs, const int64_t* strides, int64_t off,
               int64_t m, std::byte* memory, std::byte** slot_ptr,
               std::span<std::byte* const> direct) {
  // One step of the program; what it computes goes to slots (or a direct output).
  const auto run_step = [&](size_t i) {
    const Step& s = p.steps[i];
    std::byte* own = memory + s.results[0] * kSlotStride;
    switch (s.kind) {
      case Step::Load: {
        const int k = s.operand;
        std::byte* src = ptrs[k] + off * strides[k];
        if (!s.converts && strides[k] == p.operands[k].itemsize()) {
          slot_ptr[s.results[0]] = src;
        } else {
          s.cast(src, strides[k], own, itemsize(p.slot_dtypes[s.results[0]]), m);
          slot_ptr[s.results[0]] = own;
        }
        break;
      }
      case Step::Constant:
        slot_ptr[s.results[0]] = own;
        break;
      case Step::Dot: {
        const int k = s.operand;
        std::byte* target = direct.empty() ? nullptr : direct[s.results[0]];
        std::byte* dst = target ? target : own;
        s.dot(ptrs[k] + off * strides[k], strides[k], ptrs[k + 1] + off * strides[k + 1],
              strides[k + 1], s.dot_steps, s.dot_terms, dst, m);
        slot_ptr[s.results[0]] = dst;
        break;
      }
      case Step::Convert:
        s.cast(slot_ptr[s.args[0]], itemsize(p.slot_dtypes[s.args[0]]), own,
               itemsize(p.slot_dtypes[s.results[0]]), m);
        slot_ptr[s.results[0]] = own;
        break;
      case Step::User: {
        // The function's block loop over 1-d arrays: each argument slot, then the result.
        uint64_t words[3 * (kMaxStepArgs + 1)];
        const auto view = [&](int at, const std::byte* data, int slot) {
          words[3 * at] = reinterpret_cast<uint64_t>(data);
          words[3 * at + 1] = static_cast<uint64_t>(m);
          words[3 * at + 2] = static_cast<uint64_t>(itemsize(p.slot_dtypes[slot]));
        };
        for (int a = 0; a < s.nargs; ++a) view(a, slot_ptr[s.args[a]], s.args[a]);
        const int slot = s.results[0];
        std::byte* target = direct.empty() ? nullptr : direct[slot];
        std::byte* dst = target ? target : own;
        view(s.nargs, dst, slot);
        slot_ptr[slot] = dst;
        uint64_t result[2];
        if (const int code = s.user->host_loop(words, result)) {
          int none = 0;
          if (p.user_raise.compare_exchange_strong(none, code)) {
            p.user_raise_step.store(static_cast<int>(i));
          }
        }
        break;
      }
      case Step::Run: {
        const std::byte* in[3];
        std::byte* out[2];
        for (int a = 0; a < s.nargs; ++a) in[a] = slot_ptr[s.args[a]];
        for (int r = 0; r < s.nresults; ++r) {
          const int slot = s.results[r];
          std::byte* target = direct.empty() ? nullptr : direct[slot];
          out[r] = target ? target : memory + slot * kSlotStride;
          slot_ptr[slot] = out[r];
        }
        s.loop(in, out, m);
        break;
      }
    }
  };
  collect_fp_errors(p.entry_errors, p.half_precision);
  // The flags are read once per block: a step that raised none leaves none to attribute
  // (reading them serializes the FPU, which after every step cost as much as a step over
  // a short row). A block that raised some runs again, step by step, to attribute them:
  // the same values again, unless the program must check every step (check_every_step).
  if (!p.check_every_step) {
    for (size_t i = 0; i < p.steps.size(); ++i) run_step(i);
    if (!raised_fp_errors(p.half_precision)) return;
    clear_fp_errors();
  }
  for (size_t i = 0; i < p.steps.size(); ++i) {
    run_step(i);
    const Step& s = p.steps[i];
    // Every computing step leaves clean flags behind, reported or not, so none is taken
    // for another's (a reduction's fold reads what is raised between blocks).
    if (s.kind != Step::Constant && (s.kind != Step::Load || s.converts)) {
      if (const unsigned raised = raised_fp_errors(p.half_precision)) {
        if (!s.fp_name.empty()) {
          p.step_errors[i].fetch_or(static_cast<uint8_t>(raised), std::memory_order_relaxed);
        }
        clear_fp_errors();
      }
    }
  }
}

void record_program_errors(const Program& p) {
  if (const int code = p.user_raise.load()) {
    throw_user_raise(*p.steps[p.user_raise_step.load()].user, code);
  }
  for (size_t i = 0; i < p.steps.size(); ++i) {
    const unsigned raised = p.step_errors[i].load(std::memory_order_relaxed);
    if (raised & p.steps[i].fp_reported) {
      const Step& s = p.steps[i];
      record_fp_errors(s.fp_name, raised & s.fp_reported, s.fp_modes, s.fp_origin);
    }
  }
}

}  // namespace tessera::cpu
