#include "backend/cuda/render_cuda.h"

#include <algorithm>
#include <bit>
#include <complex>
#include <cstdlib>

#include "backend/cpu/strided_loop.h"
#include "jit/kernel_text.h"

namespace tessera::cuda {
namespace {

using expr::KernelPlan;
using Value = KernelPlan::Value;

// Strided walks of up to this many axes are written out axis by axis.
constexpr int kUnrolledAxes = 4;

// Where each part of a plan's parameter lies, in words, for a kernel walking `axes` axes.
struct WordMap {
  static constexpr int kCount = 0, kNdim = 1, kWide = 2, kShape = 3;
  int operands;                // each: address, dtype, then `axes` strides
  std::vector<int> constants;  // each one word, complex ones two
  int dots;                    // each two steps
  int total;

  WordMap(const KernelPlan& plan, int axes) : axes_(axes) {
    operands = kShape + axes;
    dots = operands + static_cast<int>(plan.operands.size()) * (2 + axes);
    for (const Scalar& c : plan.constants) {
      constants.push_back(dots);
      dots += is_complex(c.dtype()) ? 2 : 1;
    }
    total = dots + 2 * static_cast<int>(plan.dot_steps.size());
  }
  int address(int k) const { return operands + k * (2 + axes_); }
  int dtype(int k) const { return address(k) + 1; }
  int stride(int k, int d) const { return address(k) + 2 + d; }

 private:
  int axes_;
};

std::string type_of(DType d) { return std::string(jit::element_type(d)); }
std::string var(int v) { return "v" + std::to_string(v); }
std::string word(int w) { return "p.w[" + std::to_string(w) + "]"; }

// A constant's value read from its word(s) as its dtype; NVRTC's __half converts from float.
std::string constant_expr(DType d, int w) {
  switch (d) {
    case DType::Bool: return "(" + word(w) + ".i != 0)";
    case DType::UInt64: return word(w) + ".u";
    case DType::Float16: return "tessera::kernels::half(static_cast<float>(" + word(w) + ".f))";
    case DType::Float32: return "static_cast<float>(" + word(w) + ".f)";
    case DType::Float64: return word(w) + ".f";
    case DType::Complex64:
      return "tessera::kernels::complex64(static_cast<float>(" + word(w) +
             ".f), static_cast<float>(" + word(w + 1) + ".f))";
    case DType::Complex128:
      return "tessera::kernels::complex128(" + word(w) + ".f, " + word(w + 1) + ".f)";
    default: return "static_cast<" + type_of(d) + ">(" + word(w) + ".i)";
  }
}

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
    for (size_t v = 0; v < plan_.values.size(); ++v) s += statement(static_cast<int>(v));
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

  std::string load(int k, DType as) const {
    if (!expr::read_only_converted(plan_, k) && plan_.operands[k].dtype() == as) {
      return "*reinterpret_cast<const " + type_of(as) + "*>(at[" + std::to_string(k) + "])";
    }
    return "tessera::kernels::load_as<" + type_of(as) + ">(at[" + std::to_string(k) + "], " +
           word(words_.dtype(k)) + ".i)";
  }

  std::string statement(int v) const {
    const Value& val = plan_.values[v];
    const std::string T = type_of(val.dtype);
    const std::string decl = "  const " + T + " " + var(v) + " = ";
    switch (val.kind) {
      case Value::Kind::Constant:
        return decl + constant_expr(val.dtype, words_.constants[val.constant]) + ";\n";
      case Value::Kind::Load: return decl + load(val.operand, val.dtype) + ";\n";
      case Value::Kind::Cast:
        return decl + "tessera::kernels::cast_value<" + T + ">(" + var(val.args[0]) + ");\n";
      case Value::Kind::Call: {
        std::string call = jit::functor_name(val.op) + "{}(";
        for (int k = 0; k < val.nargs; ++k) call += (k ? ", " : "") + var(val.args[k]);
        call += ")";
        if (ufunc_info(val.op).nout == 2) return "  const auto " + var(v) + " = " + call + ";\n";
        return decl + "static_cast<" + T + ">(" + call + ");\n";
      }
      case Value::Kind::Pick:
        return decl + "static_cast<" + T + ">(" + var(val.args[0]) +
               (val.output == 0 ? ".first" : ".second") + ");\n";
      case Value::Kind::Dot: {
        // As the CPU's product rows: the first product, then one fused multiply-add per term.
        const int steps = words_.dots + 2 * val.dot;
        const std::string x = "at[" + std::to_string(val.operand) + "]";
        const std::string y = "at[" + std::to_string(val.operand + 1) + "]";
        const auto element = [&](const std::string& base, int w) {
          return "*reinterpret_cast<const " + T + "*>(" + base + " + t * " + word(w) + ".i)";
        };
        std::string s = "  " + T + " " + var(v) + " = *reinterpret_cast<const " + T + "*>(" +
                        x + ") * *reinterpret_cast<const " + T + "*>(" + y + ");\n";
        s += "  for (int t = 1; t < " + std::to_string(val.dot_terms) + "; ++t) " + var(v) +
             " = std::fma(" + element(x, steps) + ", " + element(y, steps + 1) + ", " + var(v) +
             ");\n";
        return s;
      }
    }
    return "";
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
  layout.axes = layout.ndim == 1 ? 1 : layout.ndim <= kUnrolledAxes ? kUnrolledAxes : kMaxDims;
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
  const WordMap words(plan, layout.axes);
  std::vector<uint64_t> w(words.total, 0);
  int64_t n = 1;
  for (const int64_t e : layout.shape) n *= e;
  w[WordMap::kCount] = static_cast<uint64_t>(n);
  w[WordMap::kNdim] = static_cast<uint64_t>(layout.ndim);
  w[WordMap::kWide] = layout.wide_index ? 1 : 0;
  for (int d = 0; d < layout.ndim; ++d) w[WordMap::kShape + d] = static_cast<uint64_t>(layout.shape[d]);
  for (size_t k = 0; k < plan.operands.size(); ++k) {
    const int op = static_cast<int>(k);
    w[words.address(op)] = reinterpret_cast<uint64_t>(plan.operands[k].data());
    w[words.dtype(op)] = static_cast<uint64_t>(plan.operands[k].dtype());
    for (int d = 0; d < layout.ndim; ++d) {
      w[words.stride(op, d)] = static_cast<uint64_t>(layout.strides[k][d]);
    }
  }
  for (size_t i = 0; i < plan.constants.size(); ++i) {
    const Scalar& c = plan.constants[i];
    const int at = words.constants[i];
    switch (c.dtype()) {
      case DType::UInt64: w[at] = c.get<uint64_t>(); break;
      case DType::Float16:
      case DType::Float32:
      case DType::Float64: w[at] = std::bit_cast<uint64_t>(c.to_double()); break;
      case DType::Complex64:
      case DType::Complex128: {
        const std::complex<double> z = c.to_complex();
        w[at] = std::bit_cast<uint64_t>(z.real());
        w[at + 1] = std::bit_cast<uint64_t>(z.imag());
        break;
      }
      default: w[at] = static_cast<uint64_t>(c.to_int64()); break;
    }
  }
  int at = words.dots;
  for (const auto& steps : plan.dot_steps) {
    w[at++] = static_cast<uint64_t>(steps[0]);
    w[at++] = static_cast<uint64_t>(steps[1]);
  }
  return w;
}

}  // namespace tessera::cuda
