#include "expr/kernel_plan.h"

#include <map>
#include <stdexcept>
#include <tuple>

namespace tessera::expr {
namespace {

using Value = KernelPlan::Value;

class Lowering {
 public:
  explicit Lowering(KernelPlan& plan) : plan_(plan) {}

  int value_of(const Node& n) {
    if (auto it = done_.find(&n); it != done_.end()) return it->second;
    const int v = make(n);
    done_.emplace(&n, v);
    return v;
  }

  // The call an Op node belongs to: nodes for each output of one op over the same
  // arguments (divmod's quotient and remainder) share it.
  int call_of(const Node& n) {
    std::vector<int> args;
    for (const NodePtr& a : n.args) args.push_back(value_of(*a));
    const auto key = std::make_tuple(n.op, n.loop, args);
    if (auto it = calls_.find(key); it != calls_.end()) return it->second;
    Value call{Value::Kind::Call, ufunc_info(n.op).loops[n.loop].out[0]};
    call.op = n.op;
    call.loop = n.loop;
    call.nargs = static_cast<int>(args.size());
    for (int k = 0; k < call.nargs; ++k) call.args[k] = args[k];
    const int v = push(call);
    calls_.emplace(key, v);
    return v;
  }

 private:
  int make(const Node& n) {
    switch (n.kind) {
      case Node::Kind::Input: {
        Value load{Value::Kind::Load, n.dtype};
        load.operand = operand_of(n.input);
        return push(load);
      }
      case Node::Kind::Constant: {
        Value c{Value::Kind::Constant, n.dtype};
        c.constant = static_cast<int>(plan_.constants.size());
        plan_.constants.push_back(n.constant);
        return push(c);
      }
      case Node::Kind::Op: {
        const int call = call_of(n);
        if (ufunc_info(n.op).nout == 1) return call;
        Value pick{Value::Kind::Pick, n.dtype};
        pick.args[0] = call;
        pick.nargs = 1;
        pick.output = n.output;
        return push(pick);
      }
      case Node::Kind::Cast: {
        Value cast{Value::Kind::Cast, n.dtype};
        cast.args[0] = value_of(*n.args[0]);
        cast.nargs = 1;
        return push(cast);
      }
      case Node::Kind::User: {
        Value call{Value::Kind::User, n.dtype};
        if (n.args.size() > std::size(call.args)) {
          throw std::logic_error("[eval] a user's function of more arguments than a kernel value takes");
        }
        for (const NodePtr& a : n.args) call.args[call.nargs++] = value_of(*a);
        call.user = user_of(n.user.get());
        return push(call);
      }
      case Node::Kind::Dot: {
        Value dot{Value::Kind::Dot, n.dtype};
        // The two arrays go in as adjacent operands, whatever else reads them.
        dot.operand = static_cast<int>(plan_.operands.size());
        plan_.operands.push_back(n.args[0]->input);
        plan_.operands.push_back(n.args[1]->input);
        dot.dot_terms = n.dot_terms;
        dot.dot = static_cast<int>(plan_.dot_steps.size());
        plan_.dot_steps.push_back({n.dot_steps[0], n.dot_steps[1]});
        return push(dot);
      }
    }
    throw std::logic_error("[eval] unknown expression node");
  }

  // One operand per distinct view, so an array read twice (x * x) is loaded once.
  int operand_of(const Array& a) {
    for (int k = plan_.outputs; k < static_cast<int>(plan_.operands.size()); ++k) {
      const Array& b = plan_.operands[k];
      if (b.buffer() == a.buffer() && b.offset() == a.offset() && b.dtype() == a.dtype() &&
          b.shape() == a.shape() && b.strides() == a.strides()) {
        return k;
      }
    }
    plan_.operands.push_back(a);
    return static_cast<int>(plan_.operands.size()) - 1;
  }

  int user_of(const UserFunction* f) {
    for (size_t i = 0; i < plan_.users.size(); ++i) {
      if (plan_.users[i] == f) return static_cast<int>(i);
    }
    plan_.users.push_back(f);
    return static_cast<int>(plan_.users.size()) - 1;
  }

  int push(const Value& v) {
    plan_.values.push_back(v);
    return static_cast<int>(plan_.values.size()) - 1;
  }

  KernelPlan& plan_;
  std::map<const Node*, int> done_;
  std::map<std::tuple<Ufunc, int, std::vector<int>>, int> calls_;
};

}  // namespace

KernelPlan lower(const Node& root, std::span<const Array> outs) {
  KernelPlan plan;
  plan.operands.assign(outs.begin(), outs.end());
  plan.outputs = static_cast<int>(outs.size());
  Lowering lowering(plan);
  if (outs.size() == 1) {
    plan.roots.push_back(lowering.value_of(root));
    return plan;
  }
  // Both outputs of one op: its call, picked once per output.
  const int call = lowering.call_of(root);
  for (int j = 0; j < plan.outputs; ++j) {
    Value pick{Value::Kind::Pick, ufunc_info(root.op).loops[root.loop].out[j]};
    pick.args[0] = call;
    pick.nargs = 1;
    pick.output = j;
    plan.values.push_back(pick);
    plan.roots.push_back(static_cast<int>(plan.values.size()) - 1);
  }
  return plan;
}

bool read_only_converted(const KernelPlan& plan, int k) {
  if (k < plan.outputs) return false;
  for (const Value& v : plan.values) {
    if (v.kind == Value::Kind::Dot && (v.operand == k || v.operand + 1 == k)) return false;
    if (v.kind == Value::Kind::Load && v.operand == k && v.dtype == plan.operands[k].dtype()) {
      return false;
    }
  }
  return true;
}

std::string plan_signature(const KernelPlan& plan) {
  std::string s = "o";
  const auto add = [&s](auto... parts) { ((s += parts), ...); };
  for (int k = 0; k < static_cast<int>(plan.operands.size()); ++k) {
    add(read_only_converted(plan, k) ? std::string_view("*") : dtype_name(plan.operands[k].dtype()),
        ",");
  }
  for (const Value& v : plan.values) {
    add("|", std::to_string(static_cast<int>(v.kind)), ":", dtype_name(v.dtype));
    switch (v.kind) {
      case Value::Kind::Load: add("@", std::to_string(v.operand)); break;
      case Value::Kind::Call: add(ufunc_info(v.op).name, "#", std::to_string(v.loop)); break;
      case Value::Kind::Pick: add(".", std::to_string(v.output)); break;
      case Value::Kind::Dot:
        add("@", std::to_string(v.operand), "x", std::to_string(v.dot_terms));
        break;
      case Value::Kind::User:
        add(plan.users[v.user]->device_entry, "#", plan.users[v.user]->device_key);
        break;
      case Value::Kind::Constant:
      case Value::Kind::Cast: break;
    }
    for (int k = 0; k < v.nargs; ++k) add(" ", std::to_string(v.args[k]));
  }
  add("|r");
  for (const int r : plan.roots) add(" ", std::to_string(r));
  return s;
}

}  // namespace tessera::expr
