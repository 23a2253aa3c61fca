#include "backend/cuda/render_cuda.h"

#include <algorithm>
#include <cstdlib>

#include "backend/cpu/strided_loop.h"
#include "backend/cuda/render_values.h"
#include "jit/kernel_text.h"

namespace tessera::cuda {
namespace {

using detail::type_of;
using detail::var;
using detail::value_statements;
using detail::word;
using detail::WordMap;
using expr::KernelPlan;

// Strided walks of up to this many axes are written out axis by axis.
constexpr int kUnrolledAxes = 4;

class Renderer {
 public:
  Renderer(const KernelPlan& plan, int axes, std::string name)
      : plan_(plan), axes_(axes), words_(plan, axes), name_(std::move(name)) {}

  std::string render() const {
    const std::string params = name_ + "_params";
    const std::string count = std::to_string(plan_.operands.size());
    std::string s = "#line 1 \"[tessera] elementwise kernel " + name_ + "\"\n";
    s += "struct " + params + " { TsWord w[" + std::to_string(words_.total) + "]; };\n";
    // The values of one element, its operands at `at`.
    s += "__device__ __forceinline__ void " + name_ + "_element(const " + params +
         "& p, char* const* at) {\n";
    s += value_statements(plan_, words_);
    for (int j = 0; j < plan_.outputs; ++j) {
      s += "  *reinterpret_cast<" + type_of(plan_.operands[j].dtype()) + "*>(at[" +
           std::to_string(j) + "]) = " + var(plan_.roots[j]) + ";\n";
    }
    s += "}\n";
    // The grid-stride walk in index type I: one axis, or up to axes_ of them.
    s += "template <class I>\n__device__ __forceinline__ void " + name_ + "_walk(const " +
         params + "& p) {\n";
    s += "  const I n = static_cast<I>(" + word(WordMap::kCount) + ".i);\n";
    s += "  const I first = static_cast<I>(blockIdx.x) * static_cast<I>(blockDim.x) + "
         "static_cast<I>(threadIdx.x);\n";
    s += "  const I step = static_cast<I>(blockDim.x) * static_cast<I>(gridDim.x);\n";
    s += "  char* at[" + count + "];\n";
    if (axes_ > 1) s += "  if (" + word(WordMap::kNdim) + ".i == 1) {\n";
    s += "    for (I i = first; i < n; i += step) {\n";
    for (size_t k = 0; k < plan_.operands.size(); ++k) {
      const int op = static_cast<int>(k);
      s += "      at[" + std::to_string(k) + "] = " + word(words_.address(op)) +
           ".a + i * static_cast<I>(" + word(words_.stride(op, 0)) + ".i);\n";
    }
    s += "      " + name_ + "_element(p, at);\n    }\n";
    if (axes_ > 1) s += "  } else {\n" + strided_walk() + "  }\n";
    s += "}\n";
    s += "extern \"C\" __global__ void __launch_bounds__(256) " + name_ + "(const " + params +
         " p) {\n";
    s += "  if (" + word(WordMap::kWide) + ".i) " + name_ + "_walk<long long>(p);\n";
    s += "  else " + name_ + "_walk<int>(p);\n}\n";
    return s;
  }

 private:
  // Each element's coordinates from the last axis to the first, the axes this call has
  // (merged axes come first: ndim of them), each adding coordinate * stride to addresses.
  // Up to 4 axes the steps are written out, so every word's index is a constant; beyond,
  // a loop (rare: few layouts keep more than 4 axes once merged).
  std::string strided_walk() const {
    std::string s = "    const int nd = static_cast<int>(" + word(WordMap::kNdim) + ".i);\n";
    s += "    for (I i = first; i < n; i += step) {\n      I rest = i;\n";
    for (size_t k = 0; k < plan_.operands.size(); ++k) {
      s += "      at[" + std::to_string(k) + "] = " +
           word(words_.address(static_cast<int>(k))) + ".a;\n";
    }
    const auto axis = [&](const std::string& d, const std::string& indent) {
      std::string a = indent + "const I extent = static_cast<I>(p.w[" +
                      std::to_string(WordMap::kShape) + " + " + d + "].i);\n";
      a += indent + "const I c = rest % extent;\n" + indent + "rest /= extent;\n";
      for (size_t k = 0; k < plan_.operands.size(); ++k) {
        a += indent + "at[" + std::to_string(k) + "] += c * static_cast<I>(p.w[" +
             std::to_string(words_.stride(static_cast<int>(k), 0)) + " + " + d + "].i);\n";
      }
      return a;
    };
    if (axes_ <= kUnrolledAxes) {
      for (int d = axes_ - 1; d >= 0; --d) {
        s += "      if (" + std::to_string(d) + " < nd) {\n" + axis(std::to_string(d), "        ") +
             "      }\n";
      }
    } else {
      s += "      for (int d = nd - 1; d >= 0; --d) {\n" + axis("d", "        ") + "      }\n";
    }
    s += "      " + name_ + "_element(p, at);\n    }\n";
    return s;
  }

  const KernelPlan& plan_;
  int axes_;
  WordMap words_;
  std::string name_;
};

// The parameter's word (every field 8 bytes, so host and device agree on where each lies
// without struct layout rules), and reading an element of a dtype known only at run time
// as T: a switch over the dtypes, uniform across a launch. It is not inlined: inlined, the
// switch is invariant in the walk's loop, and compilers copy the loop once per case of
// every such load (GCC took minutes and 6 GB on a tree with four of them).
std::string prologue() {
  std::string s = jit::kernel_functors_text();
  s += "#line 1 \"[tessera] kernel support\"\n";
  s += "union TsWord { long long i; unsigned long long u; double f; char* a; };\n";
  s += "namespace tessera::kernels {\ntemplate <class T>\n"
       "__device__ __noinline__ T load_as(const char* at, long long dtype) {\n"
       "  switch (dtype) {\n";
  for (int d = 0; d < kNumDTypes; ++d) {
    const std::string from = type_of(static_cast<DType>(d));
    s += "    case " + std::to_string(d) + ": return cast_value<T>(*reinterpret_cast<const " + from +
         "*>(at));\n";
  }
  s += "  }\n  return T();\n}\n}  // namespace tessera::kernels\n";
  // The loop of the device files' kernels whose elements are independent: f(i) for every i
  // in [0, n), spread over the grid's threads in index type I.
  s += "namespace tessera::device {\ntemplate <class I, class F>\n"
       "__device__ __forceinline__ void grid_stride(I n, F&& f) {\n"
       "  const I step = static_cast<I>(blockDim.x) * static_cast<I>(gridDim.x);\n"
       "  for (I i = static_cast<I>(blockIdx.x) * static_cast<I>(blockDim.x) +\n"
       "             static_cast<I>(threadIdx.x);\n"
       "       i < n; i += step) {\n"
       "    f(i);\n  }\n}\n}  // namespace tessera::device\n";
  return s;
}

}  // namespace

KernelLayout layout_of(const KernelPlan& plan) {
  const int count = static_cast<int>(plan.operands.size());
  std::vector<Dims> all(count);
  for (int k = 0; k < count; ++k) all[k] = plan.operands[k].strides();
  const cpu::StridedLayout merged =
      cpu::simplify_layout(plan.operands[0].shape(), all.data(), count, 0);
  KernelLayout layout;
  layout.ndim = std::max(1, static_cast<int>(merged.shape.size()));
  layout.axes = detail::axes_bucket(layout.ndim);
  layout.shape.assign(layout.ndim, 1);
  for (int d = 0; d < static_cast<int>(merged.shape.size()); ++d) layout.shape[d] = merged.shape[d];
  layout.strides.assign(count, std::vector<int64_t>(layout.ndim, 0));
  int64_t n = 1;
  for (const int64_t e : layout.shape) n *= e;
  bool fits = n < (int64_t{1} << 30);
  for (int k = 0; k < count; ++k) {
    int64_t span = plan.operands[k].itemsize();
    for (int d = 0; d < static_cast<int>(merged.shape.size()); ++d) {
      layout.strides[k][d] = merged.strides[k][d];
      span += (layout.shape[d] - 1) * std::llabs(layout.strides[k][d]);
    }
    if (span >= (int64_t{1} << 31)) fits = false;
  }
  layout.wide_index = !fits;
  return layout;
}

const std::string& render_cuda_prologue() {
  static const std::string text = prologue();
  return text;
}

std::string render_cuda_kernel(const KernelPlan& plan, int axes, const std::string& name) {
  return Renderer(plan, axes, name).render();
}

std::string render_cuda(const KernelPlan& plan, int axes) {
  return render_cuda_prologue() + render_cuda_kernel(plan, axes, kExprKernelName);
}

std::vector<uint64_t> kernel_params(const KernelPlan& plan, const KernelLayout& layout) {
  return detail::plan_words(plan, WordMap(plan, layout.axes), layout.shape, layout.strides,
                            layout.wide_index);
}

}  // namespace tessera::cuda
