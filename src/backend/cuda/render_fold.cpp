#include "backend/cuda/render_fold.h"

#include <algorithm>
#include <cstdlib>
#include <numeric>

#include "backend/cuda/render_cuda.h"
#include "backend/cuda/render_values.h"
#include "jit/kernel_text.h"

namespace tessera::cuda {
namespace {

using detail::type_of;
using detail::var;
using detail::WordMap;
using expr::KernelPlan;

// The fold's own words, after the plan's (device/fold.cuh's Traits::k*).
enum Extra { kKept, kOutputs, kWalked, kChunks, kPartials, kExtraWords };

bool is_arg(FoldKind kind) { return kind == FoldKind::ArgMax || kind == FoldKind::ArgMin; }

const std::string& fold_prologue() {
  static const std::string text =
      render_cuda_prologue() + detail::device_file("backend/cuda/device/fold.cuh");
  return text;
}

}  // namespace

FoldLayout fold_layout(const KernelPlan& plan, const std::vector<bool>& walked) {
  const int count = static_cast<int>(plan.operands.size());
  const Dims& shape = plan.operands[0].shape();
  const int order = plan.outputs < count ? plan.outputs : 0;
  const auto stride = [&](int k, int d) { return plan.operands[k].strides()[d]; };
  std::vector<int> kept_axes, walked_axes;
  int innermost = -1;
  for (int d = 0; d < static_cast<int>(shape.size()); ++d) {
    if (shape[d] == 1) continue;
    (walked[d] ? walked_axes : kept_axes).push_back(d);
    if (innermost < 0 || std::llabs(stride(order, d)) <= std::llabs(stride(order, innermost))) {
      innermost = d;
    }
  }
  const auto outer_first = [&](int a, int b) {
    return std::llabs(stride(order, a)) > std::llabs(stride(order, b));
  };
  std::stable_sort(kept_axes.begin(), kept_axes.end(), outer_first);
  std::stable_sort(walked_axes.begin(), walked_axes.end(), outer_first);

  FoldLayout layout;
  layout.inner_walked = innermost >= 0 && walked[innermost];
  layout.strides.assign(count, {});
  // Appends axis d, merged into the previous one (of the same kind) where every operand's
  // strides allow.
  const auto append = [&](int d, bool mergeable) {
    bool merge = mergeable && !layout.shape.empty();
    for (int k = 0; merge && k < count; ++k) {
      merge = layout.strides[k].back() == stride(k, d) * shape[d];
    }
    if (merge) {
      layout.shape.back() *= shape[d];
      for (int k = 0; k < count; ++k) layout.strides[k].back() = stride(k, d);
      return;
    }
    layout.shape.push_back(shape[d]);
    for (int k = 0; k < count; ++k) layout.strides[k].push_back(stride(k, d));
  };
  for (size_t i = 0; i < kept_axes.size(); ++i) append(kept_axes[i], i > 0);
  layout.kept = static_cast<int>(layout.shape.size());
  for (size_t i = 0; i < walked_axes.size(); ++i) append(walked_axes[i], i > 0);
  const auto product = [](auto begin, auto end) {
    return std::accumulate(begin, end, int64_t{1}, std::multiplies<>());
  };
  layout.outputs = product(layout.shape.begin(), layout.shape.begin() + layout.kept);
  layout.walked = product(layout.shape.begin() + layout.kept, layout.shape.end());
  layout.axes = detail::axes_bucket(static_cast<int>(layout.shape.size()));
  bool fits = layout.outputs * layout.walked < (int64_t{1} << 30);
  for (int k = 0; k < count; ++k) {
    int64_t span = plan.operands[k].itemsize();
    for (size_t d = 0; d < layout.shape.size(); ++d) {
      span += (layout.shape[d] - 1) * std::llabs(layout.strides[k][d]);
    }
    if (span >= (int64_t{1} << 31)) fits = false;
  }
  layout.wide_index = !fits;
  return layout;
}

const std::string& render_fold_prologue() { return fold_prologue(); }

std::string render_fold(const KernelPlan& plan, int axes, const FoldSpec& spec) {
  return fold_prologue() + detail::user_function_text(plan) +
         render_fold_kernel(plan, axes, spec, kFoldKernelName);
}

std::string render_fold_kernel(const KernelPlan& plan, int axes, const FoldSpec& spec,
                               const std::string& name) {
  const WordMap words(plan, axes, kExtraWords);
  const std::string params = name + "_params", traits = name + "_traits";
  const std::string value_type = type_of(plan.values[plan.roots[0]].dtype);
  const std::string acc = type_of(plan.operands[0].dtype());
  std::string s = "#line 1 \"[tessera] fold kernel " + name + "\"\n";
  s += "struct " + params + " { TsWord w[" + std::to_string(words.total) + "]; };\n";
  s += "extern __shared__ __align__(16) unsigned char " + name + "_shared[];\n";
  if (!is_arg(spec.kind)) {
    s += "struct " + name + "_combine {\n  __device__ __forceinline__ " + acc + " operator()(" +
         acc + " a, " + value_type + " b) const {\n    return static_cast<" + acc + ">(" +
         (spec.accumulate_product ? std::string("tessera::kernels::AccumulateMultiply")
                                  : jit::functor_name(spec.op)) +
         "{}(a, b));\n  }\n};\n";
  }
  s += "struct " + traits + " {\n  using Params = " + params + ";\n";
  s += "  using Acc = " + acc + ";\n";
  switch (spec.kind) {
    case FoldKind::ArgMax:
    case FoldKind::ArgMin:
      s += "  using Fold = tessera::device::ArgFold<" + value_type + ", " +
           (spec.kind == FoldKind::ArgMax ? "true" : "false") + ">;\n";
      break;
    default:
      s += "  using Fold = tessera::device::SumFold<" + acc + ", " + name + "_combine>;\n";
      break;
  }
  s += "  static constexpr int kOperands = " + std::to_string(plan.operands.size()) +
       ", kAxes = " + std::to_string(axes) + ", kOperandWords = " +
       std::to_string(words.address(0)) + ";\n";
  s += "  static constexpr int kKept = " + std::to_string(words.extra(kKept)) +
       ", kOutputs = " + std::to_string(words.extra(kOutputs)) +
       ", kWalked = " + std::to_string(words.extra(kWalked)) +
       ", kChunks = " + std::to_string(words.extra(kChunks)) +
       ", kPartials = " + std::to_string(words.extra(kPartials)) + ";\n";
  s += "  __device__ static __forceinline__ " + value_type + " value(const Params& p, " +
       "char* const* at) {\n" + detail::value_statements(plan, words) + "  return " +
       var(plan.roots[0]) + ";\n  }\n";
  if (is_arg(spec.kind)) {
    s += "  __device__ static __forceinline__ void finish(const Params&, char* const* base, "
         "const tessera::device::Folded<" + value_type + ">& f) {\n"
         "    *reinterpret_cast<long long*>(base[0]) = f.index;\n  }\n";
  } else {
    s += "  __device__ static __forceinline__ Acc combine(Acc a, " + value_type +
         " v) { return " + name + "_combine{}(a, v); }\n";
    s += "  __device__ static __forceinline__ void finish(const Params&, char* const* base, "
         "const tessera::device::Folded<Acc>& f) {\n"
         "    Acc* acc = reinterpret_cast<Acc*>(base[0]);\n"
         "    *acc = Fold::finish(*acc, f.value);\n  }\n";
  }
  s += "};\n";
  // A kernel running device/fold.cuh's `body` with 64- or 32-bit indices, as the word says.
  const auto kernel = [&](const std::string& kernel_name, const std::string& body,
                          bool shared) {
    const std::string args = shared ? "(p, " + name + "_shared);\n" : std::string("(p);\n");
    const std::string fold = "tessera::device::" + body + "<" + traits;
    return "extern \"C\" __global__ void __launch_bounds__(256) " + kernel_name + "(const " +
           params + " p) {\n  if (" + detail::word(WordMap::kWide) + ".i) " + fold +
           ", long long>" + args + "  else " + fold + ", int>" + args + "}\n";
  };
  switch (spec.kind) {
    case FoldKind::OrderedReduce: s += kernel(name, "fold_ordered", false); break;
    case FoldKind::Scan:
      s += kernel(name, "scan_lines", false);
      if (scan_reorders_exactly(plan, spec)) s += kernel(name + "_tiles", "scan_tiles", true);
      break;
    default:
      s += kernel(name, "fold_block", true);
      s += kernel(name + "_partials", "fold_partials", false);
      break;
  }
  return s;
}

bool scan_reorders_exactly(const KernelPlan& plan, const FoldSpec& spec) {
  const DType acc = plan.operands[0].dtype();
  if (spec.kind != FoldKind::Scan || spec.accumulate_product ||
      plan.values[plan.roots[0]].dtype != acc || !(is_integer(acc) || acc == DType::Bool)) {
    return false;
  }
  switch (spec.op) {
    case Ufunc::Add: case Ufunc::Multiply: case Ufunc::Maximum: case Ufunc::Minimum:
    case Ufunc::Fmax: case Ufunc::Fmin: case Ufunc::BitwiseAnd: case Ufunc::BitwiseOr:
    case Ufunc::BitwiseXor: case Ufunc::LogicalAnd: case Ufunc::LogicalOr:
    case Ufunc::LogicalXor:
      return true;
    default: return false;
  }
}

std::string fold_signature(const KernelPlan& plan, const FoldSpec& spec) {
  std::string s = "fold" + std::to_string(static_cast<int>(spec.kind));
  if (!is_arg(spec.kind)) {
    s += ":" + std::string(ufunc_info(spec.op).name) + "#" + std::to_string(spec.loop);
    if (spec.accumulate_product) s += "*";
  }
  return s + "/" + expr::plan_signature(plan);
}

std::vector<uint64_t> fold_params(const KernelPlan& plan, const FoldLayout& layout,
                                  int64_t chunks, const void* partials) {
  const WordMap words(plan, layout.axes, kExtraWords);
  std::vector<uint64_t> w =
      detail::plan_words(plan, words, layout.shape, layout.strides, layout.wide_index);
  w[words.extra(kKept)] = static_cast<uint64_t>(layout.kept);
  w[words.extra(kOutputs)] = static_cast<uint64_t>(layout.outputs);
  w[words.extra(kWalked)] = static_cast<uint64_t>(layout.walked);
  w[words.extra(kChunks)] = static_cast<uint64_t>(chunks);
  w[words.extra(kPartials)] = reinterpret_cast<uint64_t>(partials);
  return w;
}

}  // namespace tessera::cuda
