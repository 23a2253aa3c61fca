#include "core/pending.h"

#include "backend/backend.h"
#include "core/fp_events.h"
#include "core/overlap.h"

namespace tessera {
namespace {

class PendingExpr final : public PendingWork {
 public:
  PendingExpr(expr::NodePtr root, Dims shape, Dims strides)
      : root(std::move(root)), shape(std::move(shape)), strides(std::move(strides)) {}

  void run(const std::shared_ptr<Buffer>& target) override {
    Array out(target, root->dtype, shape, strides, 0);
    backend_for(target->device()).eval_expr(*root, {&out, 1});
  }

  const expr::NodePtr root;
  const Dims shape, strides;
};

}  // namespace

Array make_pending(expr::NodePtr root, const Dims& shape, const Dims& strides, Device device) {
  const DType dtype = root->dtype;
  const int64_t bytes = shape.product() * itemsize(dtype);
  auto work = std::make_shared<PendingExpr>(root, shape, strides);
  auto buffer = Buffer::pending(device, static_cast<size_t>(bytes), work);
  bool eager = false;
  for (const expr::Node* in : expr::collect_inputs(*root)) {
    const auto& source = in->input.buffer();
    eager |= source->exported();
    source->add_reader(buffer);
  }
  Array result(std::move(buffer), dtype, shape, strides, 0);
  if (eager) result.data();
  return result;
}

expr::NodePtr pending_tree(const Array& a, const Dims& shape) {
  if (!a.buffer()->is_pending() || a.shape() != shape || a.offset() != 0) return nullptr;
  auto work = std::dynamic_pointer_cast<PendingExpr>(a.buffer()->pending_work());
  if (!work || work->shape != a.shape() || work->strides != a.strides() ||
      work->root->dtype != a.dtype()) {
    return nullptr;
  }
  return work->root;
}

void evaluate_into(const expr::NodePtr& root, std::span<const Array> outs) {
  bool conflict = false;
  for (const expr::Node* in : expr::collect_inputs(*root)) {
    for (const Array& out : outs) {
      conflict |= may_overlap(in->input, out) && !same_view(in->input, out);
    }
  }
  Backend& backend = backend_for(outs[0].device());
  if (!conflict) {
    backend.eval_expr(*root, outs);
  } else {
    std::vector<Array> temps;
    for (const Array& out : outs) temps.push_back(Array::empty_like(out, out.dtype()));
    backend.eval_expr(*root, temps);
    for (size_t j = 0; j < outs.size(); ++j) backend.copy(temps[j], outs[j]);
  }
  report_fp_events();
}

}  // namespace tessera
