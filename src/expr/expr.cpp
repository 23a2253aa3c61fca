#include "expr/expr.h"

#include <algorithm>

#include "core/fp_events.h"

namespace tessera::expr {

NodePtr input(const Array& a, DType as) {
  auto n = std::make_shared<Node>();
  n->kind = Node::Kind::Input;
  n->dtype = as;
  n->input = a;
  n->inputs = 1;
  n->fp_modes = fp_modes();
  n->fp_origin = pending_fp_origin();
  return n;
}

NodePtr constant(const Scalar& value) {
  auto n = std::make_shared<Node>();
  n->kind = Node::Kind::Constant;
  n->dtype = value.dtype();
  n->constant = value;
  return n;
}

namespace {

// A node computing from `args`: its counts include theirs.
std::shared_ptr<Node> node_of(Node::Kind kind, DType dtype, std::vector<NodePtr> args) {
  auto n = std::make_shared<Node>();
  n->kind = kind;
  n->dtype = dtype;
  n->fp_modes = fp_modes();
  n->fp_origin = pending_fp_origin();
  for (const NodePtr& a : args) {
    n->size += a->size;
    n->depth = std::max(n->depth, a->depth + 1);
    n->inputs += a->inputs;
  }
  n->args = std::move(args);
  return n;
}

}  // namespace

NodePtr op(Ufunc op, int loop, int output, std::vector<NodePtr> args) {
  auto n = node_of(Node::Kind::Op, ufunc_info(op).loops[loop].out[output], std::move(args));
  n->op = op;
  n->loop = loop;
  n->output = output;
  return n;
}

NodePtr user(UserFunctionPtr f, std::vector<NodePtr> args) {
  auto n = node_of(Node::Kind::User, f->out, std::move(args));
  n->user = std::move(f);
  return n;
}

NodePtr cast(const NodePtr& node, DType dtype, std::optional<Ufunc> output_of) {
  if (node->dtype == dtype) return node;
  if (node->kind == Node::Kind::Input) return input(node->input, dtype);
  if (node->kind == Node::Kind::Constant) return constant(node->constant.cast(dtype));
  auto n = std::make_shared<Node>();
  n->kind = Node::Kind::Cast;
  n->dtype = dtype;
  n->args = {node};
  n->size = node->size + 1;
  n->depth = node->depth + 1;
  n->inputs = node->inputs;
  n->fp_modes = fp_modes();
  n->fp_origin = pending_fp_origin();
  n->output_of = output_of;
  return n;
}

NodePtr dot(const Array& rows, const Array& cols, int terms, const int64_t (&steps)[2]) {
  auto n = std::make_shared<Node>();
  n->kind = Node::Kind::Dot;
  n->dtype = rows.dtype();
  n->args = {input(rows, rows.dtype()), input(cols, cols.dtype())};
  n->dot_terms = terms;
  n->dot_steps[0] = steps[0];
  n->dot_steps[1] = steps[1];
  n->size = 3;
  n->depth = 2;
  n->inputs = 2;
  n->fp_modes = fp_modes();
  n->fp_origin = pending_fp_origin();
  return n;
}

std::vector<const Node*> collect_inputs(const Node& root) {
  // Trees are small (kMaxNodes), so linear searches beat hashing.
  std::vector<const Node*> found, seen, stack = {&root};
  while (!stack.empty()) {
    const Node* n = stack.back();
    stack.pop_back();
    if (std::find(seen.begin(), seen.end(), n) != seen.end()) continue;
    seen.push_back(n);
    if (n->kind == Node::Kind::Input) found.push_back(n);
    for (const NodePtr& a : n->args) stack.push_back(a.get());
  }
  return found;
}

}  // namespace tessera::expr
