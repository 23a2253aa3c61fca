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

// The elementwise kernel's own parameter word: whether this launch takes the packed walk.
constexpr int kPackedWord = 0;

// Whether operand k is read and written in packs on the packed walk: its dtype is the
// kernel's (outputs, inputs read as their own dtype), and no product walks past its
// element.
bool packable(const KernelPlan& plan, int k) {
  for (const KernelPlan::Value& v : plan.values) {
    if (v.kind == KernelPlan::Value::Kind::Dot && (v.operand == k || v.operand + 1 == k)) {
      return false;
    }
  }
  return k < plan.outputs || !expr::read_only_converted(plan, k);
}

bool loaded(const KernelPlan& plan, int k) {
  return std::any_of(plan.values.begin(), plan.values.end(), [k](const KernelPlan::Value& v) {
    return v.kind == KernelPlan::Value::Kind::Load && v.operand == k;
  });
}

WordMap expr_words(const KernelPlan& plan, int axes) { return WordMap(plan, axes, 1); }

class Renderer {
 public:
  Renderer(const KernelPlan& plan, int axes, std::string name)
      : plan_(plan),
        axes_(axes),
        words_(expr_words(plan, axes)),
        name_(std::move(name)),
        pack_(axes == 1 ? pack_width(plan) : 1) {}

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
    s += "  I start = 0;\n";
    if (pack_ > 1) s += packed_walk();
    if (axes_ > 1) s += "  if (" + word(WordMap::kNdim) + ".i == 1) {\n";
    s += "    for (I i = start + first; i < n; i += step) {\n";
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
  // Wide loads, on launches where every packable operand is contiguous and aligned to its
  // pack: each thread takes `pack_` neighbouring elements, reads each packable input as
  // one load of pack_ items (16 bytes where the widest item allows) into registers, runs
  // the element's code on them, and writes each output as one store; other operands (read
  // through a conversion, walked by a product) are addressed per element. The element's
  // code is the same function as on the plain walk, given addresses inside the packs,
  // which NVRTC keeps in registers once `#pragma unroll` has unrolled the loop. The
  // elements past the last whole pack are left to the plain walk (`start`).
  std::string packed_walk() const {
    const std::string V = std::to_string(pack_);
    std::string s = "  if (" + word(words_.extra(kPackedWord)) + ".i) {\n";
    s += "    const I groups = n / " + V + ";\n";
    s += "    for (I g = first; g < groups; g += step) {\n      const I i = g * " + V + ";\n";
    const auto pack = [&](int k) {
      return "tessera::device::Pack<" + type_of(plan_.operands[k].dtype()) + ", " + V + ">";
    };
    const auto address = [&](int k) {
      return word(words_.address(k)) + ".a + i * static_cast<I>(" + word(words_.stride(k, 0)) +
             ".i)";
    };
    const int count = static_cast<int>(plan_.operands.size());
    for (int k = 0; k < count; ++k) {
      if (!packable(plan_, k)) continue;
      s += "      " + pack(k) + " pack" + std::to_string(k);
      if (loaded(plan_, k)) s += " = *reinterpret_cast<const " + pack(k) + "*>(" + address(k) + ")";
      s += ";\n";
    }
    s += "#pragma unroll\n      for (int j = 0; j < " + V + "; ++j) {\n";
    for (int k = 0; k < count; ++k) {
      const std::string K = std::to_string(k);
      s += "        at[" + K + "] = ";
      if (packable(plan_, k)) {
        s += "reinterpret_cast<char*>(&pack" + K + ".v[j]);\n";
      } else {
        s += word(words_.address(k)) + ".a + (i + j) * static_cast<I>(" +
             word(words_.stride(k, 0)) + ".i);\n";
      }
    }
    s += "        " + name_ + "_element(p, at);\n      }\n";
    for (int k = 0; k < plan_.outputs; ++k) {
      s += "      *reinterpret_cast<" + pack(k) + "*>(" + address(k) + ") = pack" +
           std::to_string(k) + ";\n";
    }
    s += "    }\n    start = groups * " + V + ";\n  }\n";
    return s;
  }

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
  int pack_;
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
  s += "namespace tessera::device {\n"
       "template <class T, int V>\nstruct alignas(sizeof(T) * V) Pack {\n  T v[V];\n};\n"
       "template <class I, class F>\n"
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
  const int width = pack_width(plan);
  layout.packed = layout.ndim == 1 && width > 1 && n >= width;
  for (int k = 0; k < count && layout.packed; ++k) {
    if (!packable(plan, k)) continue;
    const int64_t item = plan.operands[k].itemsize();
    layout.packed = layout.strides[k][0] == item &&
                    reinterpret_cast<uintptr_t>(plan.operands[k].data()) % (item * width) == 0;
  }
  return layout;
}

int pack_width(const KernelPlan& plan) {
  int64_t widest = 0;
  for (int k = 0; k < static_cast<int>(plan.operands.size()); ++k) {
    if (packable(plan, k)) widest = std::max(widest, plan.operands[k].itemsize());
  }
  if (widest == 0) return 1;
  return static_cast<int>(std::clamp<int64_t>(kPackBytes / widest, 1, kMaxPack));
}

const std::string& render_cuda_prologue() {
  static const std::string text = prologue();
  return text;
}

std::string render_cuda_kernel(const KernelPlan& plan, int axes, const std::string& name) {
  return Renderer(plan, axes, name).render();
}

std::string render_cuda(const KernelPlan& plan, int axes) {
  return render_cuda_prologue() + detail::user_function_text(plan) +
         render_cuda_kernel(plan, axes, kExprKernelName);
}

std::vector<uint64_t> kernel_params(const KernelPlan& plan, const KernelLayout& layout) {
  const WordMap words = expr_words(plan, layout.axes);
  std::vector<uint64_t> w =
      detail::plan_words(plan, words, layout.shape, layout.strides, layout.wide_index);
  w[words.extra(kPackedWord)] = layout.packed ? 1 : 0;
  return w;
}

}  // namespace tessera::cuda
