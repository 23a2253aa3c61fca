#include "backend/cuda/render_cuda.h"

#include <bit>
#include <complex>
#include <cstdlib>
#include <limits>

#include "backend/cpu/strided_loop.h"
#include "jit/kernel_text.h"

namespace tessera::cuda {
namespace {

using expr::KernelPlan;
using Value = KernelPlan::Value;

// The words a plan's parameter holds before each part.
struct WordMap {
  int shape = 1;  // after the element count
  int operands;   // each: its address, then ndim strides
  std::vector<int> constants;  // each one word, complex ones two
  int dots;                    // each two steps
  int total;

  WordMap(const KernelPlan& plan, int ndim) {
    operands = shape + ndim;
    dots = operands + static_cast<int>(plan.operands.size()) * (1 + ndim);
    for (const Scalar& c : plan.constants) {
      constants.push_back(dots);
      dots += is_complex(c.dtype()) ? 2 : 1;
    }
    total = dots + 2 * static_cast<int>(plan.dot_steps.size());
  }
};

std::string type_of(DType d) { return std::string(jit::element_type(d)); }

std::string var(int v) { return "v" + std::to_string(v); }

// A constant's value read from its word(s) as its dtype; NVRTC's __half converts from float.
std::string constant_expr(DType d, int word) {
  const std::string w = "p.w[" + std::to_string(word) + "]";
  switch (d) {
    case DType::Bool: return "(" + w + ".i != 0)";
    case DType::UInt64: return w + ".u";
    case DType::Float16: return "tessera::kernels::half(static_cast<float>(" + w + ".f))";
    case DType::Float32: return "static_cast<float>(" + w + ".f)";
    case DType::Float64: return w + ".f";
    case DType::Complex64:
      return "tessera::kernels::complex64(static_cast<float>(" + w + ".f), static_cast<float>(p.w[" +
             std::to_string(word + 1) + "].f))";
    case DType::Complex128:
      return "tessera::kernels::complex128(" + w + ".f, p.w[" + std::to_string(word + 1) + "].f)";
    default: return "static_cast<" + type_of(d) + ">(" + w + ".i)";
  }
}

class Renderer {
 public:
  Renderer(const KernelPlan& plan, const KernelLayout& layout)
      : plan_(plan), layout_(layout), words_(plan, layout.ndim) {}

  std::string render(const std::string& name) {
    const std::string I = layout_.wide_index ? "long long" : "int";
    const std::string params = name + "_params";
    std::string s = "#line 1 \"[tessera] elementwise kernel " + name + "\"\n";
    s += "struct " + params + " { TsWord w[" + std::to_string(words_.total) + "]; };\n";
    s += "extern \"C\" __global__ void __launch_bounds__(256) " + name + "(const " + params +
         " p) {\n";
    s += "  typedef " + I + " I;\n";
    s += "  const I n = static_cast<I>(p.w[0].i);\n";
    for (size_t k = 0; k < plan_.operands.size(); ++k) {
      const int base = words_.operands + static_cast<int>(k) * (1 + layout_.ndim);
      s += "  char* const a" + std::to_string(k) + " = p.w[" + std::to_string(base) + "].a;\n";
      if (layout_.access[k] != Access::Strided) continue;
      for (int d = 0; d < layout_.ndim; ++d) {
        s += "  const I s" + std::to_string(k) + "_" + std::to_string(d) + " = static_cast<I>(p.w[" +
             std::to_string(base + 1 + d) + "].i);\n";
      }
    }
    if (strided()) {
      for (int d = 1; d < layout_.ndim; ++d) {
        s += "  const I n" + std::to_string(d) + " = static_cast<I>(p.w[" +
             std::to_string(words_.shape + d) + "].i);\n";
      }
    }
    // Constants are read once, before the loop.
    for (size_t v = 0; v < plan_.values.size(); ++v) {
      const Value& val = plan_.values[v];
      if (val.kind != Value::Kind::Constant) continue;
      s += "  const " + type_of(val.dtype) + " " + var(static_cast<int>(v)) + " = " +
           constant_expr(val.dtype, words_.constants[val.constant]) + ";\n";
    }
    s += "  for (I i = static_cast<I>(blockIdx.x) * static_cast<I>(blockDim.x) + "
         "static_cast<I>(threadIdx.x); i < n; i += static_cast<I>(blockDim.x) * "
         "static_cast<I>(gridDim.x)) {\n";
    if (strided()) s += coordinates();
    for (size_t v = 0; v < plan_.values.size(); ++v) s += statement(static_cast<int>(v));
    for (int j = 0; j < plan_.outputs; ++j) {
      s += "    *reinterpret_cast<" + type_of(plan_.operands[j].dtype()) + "*>(" + address(j) +
           ") = " + var(plan_.roots[j]) + ";\n";
    }
    s += "  }\n}\n";
    return s;
  }

 private:
  bool strided() const {
    for (const Access a : layout_.access) {
      if (a == Access::Strided) return true;
    }
    return false;
  }

  // i's coordinates c0..c{ndim-1} in the merged shape (the last fastest).
  std::string coordinates() const {
    const int nd = layout_.ndim;
    std::string s = "    I rest = i;\n";
    for (int d = nd - 1; d >= 1; --d) {
      const std::string dim = std::to_string(d);
      s += "    const I c" + dim + " = rest % n" + dim + ";\n";
      s += "    rest /= n" + dim + ";\n";
    }
    s += "    const I c0 = rest;\n";
    return s;
  }

  std::string address(int k) const {
    const std::string a = "a" + std::to_string(k);
    switch (layout_.access[k]) {
      case Access::Broadcast: return a;
      case Access::Contiguous:
        return a + " + i * " + std::to_string(plan_.operands[k].itemsize());
      case Access::Strided: {
        std::string off;
        for (int d = 0; d < layout_.ndim; ++d) {
          off += (d ? " + c" : "c") + std::to_string(d) + " * s" + std::to_string(k) + "_" +
                 std::to_string(d);
        }
        return a + " + (" + off + ")";
      }
    }
    return a;
  }

  std::string load(int k) const {
    return "*reinterpret_cast<const " + type_of(plan_.operands[k].dtype()) + "*>(" + address(k) +
           ")";
  }

  std::string statement(int v) const {
    const Value& val = plan_.values[v];
    const std::string T = type_of(val.dtype);
    const std::string decl = "    const " + T + " " + var(v) + " = ";
    switch (val.kind) {
      case Value::Kind::Constant: return "";
      case Value::Kind::Load:
        if (plan_.operands[val.operand].dtype() == val.dtype) return decl + load(val.operand) + ";\n";
        return decl + "tessera::kernels::cast_value<" + T + ">(" + load(val.operand) + ");\n";
      case Value::Kind::Cast:
        return decl + "tessera::kernels::cast_value<" + T + ">(" + var(val.args[0]) + ");\n";
      case Value::Kind::Call: {
        std::string call = jit::functor_name(val.op) + "{}(";
        for (int k = 0; k < val.nargs; ++k) call += (k ? ", " : "") + var(val.args[k]);
        call += ")";
        if (ufunc_info(val.op).nout == 2) return "    const auto " + var(v) + " = " + call + ";\n";
        return decl + "static_cast<" + T + ">(" + call + ");\n";
      }
      case Value::Kind::Pick:
        return decl + "static_cast<" + T + ">(" + var(val.args[0]) +
               (val.output == 0 ? ".first" : ".second") + ");\n";
      case Value::Kind::Dot: {
        // As the CPU's product rows: the first product, then one fused multiply-add per term.
        const int steps = words_.dots + 2 * val.dot;
        const std::string x = "x" + std::to_string(v), y = "y" + std::to_string(v);
        std::string s = "    const char* const " + x + " = " + address(val.operand) + ";\n";
        s += "    const char* const " + y + " = " + address(val.operand + 1) + ";\n";
        s += "    " + T + " " + var(v) + " = *reinterpret_cast<const " + T + "*>(" + x +
             ") * *reinterpret_cast<const " + T + "*>(" + y + ");\n";
        s += "    for (int t = 1; t < " + std::to_string(val.dot_terms) + "; ++t) " + var(v) +
             " = std::fma(*reinterpret_cast<const " + T + "*>(" + x + " + t * p.w[" +
             std::to_string(steps) + "].i), *reinterpret_cast<const " + T + "*>(" + y +
             " + t * p.w[" + std::to_string(steps + 1) + "].i), " + var(v) + ");\n";
        return s;
      }
    }
    return "";
  }

  const KernelPlan& plan_;
  const KernelLayout& layout_;
  WordMap words_;
};

}  // namespace

std::string KernelLayout::key() const {
  std::string k = std::to_string(ndim) + (wide_index ? "L" : "i");
  for (const Access a : access) k += static_cast<char>(a);
  return k;
}

KernelLayout layout_of(const KernelPlan& plan, std::vector<int64_t>& shape,
                       std::vector<std::vector<int64_t>>& strides) {
  const int count = static_cast<int>(plan.operands.size());
  std::vector<Dims> all(count);
  for (int k = 0; k < count; ++k) all[k] = plan.operands[k].strides();
  const cpu::StridedLayout merged =
      cpu::simplify_layout(plan.operands[0].shape(), all.data(), count, 0);
  KernelLayout layout;
  layout.ndim = std::max(1, static_cast<int>(merged.shape.size()));
  shape.assign(layout.ndim, 1);
  for (int d = 0; d < static_cast<int>(merged.shape.size()); ++d) shape[d] = merged.shape[d];
  strides.assign(count, std::vector<int64_t>(layout.ndim, 0));
  int64_t n = 1;
  for (const int64_t e : shape) n *= e;
  bool fits = n < (int64_t{1} << 30);
  for (int k = 0; k < count; ++k) {
    for (int d = 0; d < static_cast<int>(merged.shape.size()); ++d) {
      strides[k][d] = merged.strides[k][d];
    }
    // Contiguous when the strides are those of a C-ordered array of this shape.
    bool contiguous = true, broadcast = true;
    int64_t expected = plan.operands[k].itemsize(), span = 0;
    for (int d = layout.ndim - 1; d >= 0; --d) {
      if (shape[d] > 1 && strides[k][d] != expected) contiguous = false;
      if (shape[d] > 1 && strides[k][d] != 0) broadcast = false;
      expected *= shape[d];
      span += (shape[d] - 1) * std::llabs(strides[k][d]);
    }
    layout.access.push_back(broadcast ? Access::Broadcast
                                      : contiguous ? Access::Contiguous : Access::Strided);
    if (span + plan.operands[k].itemsize() >= (int64_t{1} << 31)) fits = false;
  }
  layout.wide_index = !fits;
  return layout;
}

// The kernel parameter's word: every field is 8 bytes, so host and device agree on where
// each lies without any struct layout rules.
constexpr const char* kWordType =
    "union TsWord { long long i; unsigned long long u; double f; char* a; };\n";

const std::string& render_cuda_prologue() {
  static const std::string text = jit::kernel_functors_text() + kWordType;
  return text;
}

std::string render_cuda(const KernelPlan& plan, const KernelLayout& layout) {
  return render_cuda_prologue() + render_cuda_kernel(plan, layout, kExprKernelName);
}

std::string render_cuda_kernel(const KernelPlan& plan, const KernelLayout& layout,
                               const std::string& name) {
  return Renderer(plan, layout).render(name);
}

std::vector<uint64_t> kernel_params(const KernelPlan& plan, const KernelLayout& layout,
                                    const std::vector<int64_t>& shape,
                                    const std::vector<std::vector<int64_t>>& strides) {
  const WordMap words(plan, layout.ndim);
  std::vector<uint64_t> w(words.total, 0);
  int64_t n = 1;
  for (const int64_t e : shape) n *= e;
  w[0] = static_cast<uint64_t>(n);
  for (int d = 0; d < layout.ndim; ++d) w[words.shape + d] = static_cast<uint64_t>(shape[d]);
  for (size_t k = 0; k < plan.operands.size(); ++k) {
    const int base = words.operands + static_cast<int>(k) * (1 + layout.ndim);
    w[base] = reinterpret_cast<uint64_t>(plan.operands[k].data());
    for (int d = 0; d < layout.ndim; ++d) w[base + 1 + d] = static_cast<uint64_t>(strides[k][d]);
  }
  for (size_t i = 0; i < plan.constants.size(); ++i) {
    const Scalar& c = plan.constants[i];
    int word = words.constants[i];
    switch (c.dtype()) {
      case DType::Bool:
      case DType::Int8:
      case DType::Int16:
      case DType::Int32:
      case DType::Int64:
      case DType::UInt8:
      case DType::UInt16:
      case DType::UInt32: w[word++] = static_cast<uint64_t>(c.to_int64()); break;
      case DType::UInt64: w[word++] = c.get<uint64_t>(); break;
      case DType::Complex64:
      case DType::Complex128: {
        const std::complex<double> z = c.to_complex();
        w[word++] = std::bit_cast<uint64_t>(z.real());
        w[word++] = std::bit_cast<uint64_t>(z.imag());
        break;
      }
      default: w[word++] = std::bit_cast<uint64_t>(c.to_double()); break;
    }
  }
  int word = words.dots;
  for (const auto& steps : plan.dot_steps) {
    w[word++] = static_cast<uint64_t>(steps[0]);
    w[word++] = static_cast<uint64_t>(steps[1]);
  }
  return w;
}

}  // namespace tessera::cuda
