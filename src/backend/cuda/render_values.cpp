#include "backend/cuda/render_values.h"

#include <algorithm>
#include <bit>
#include <complex>
#include <stdexcept>

#include "backend/cuda/device_text.h"
#include "jit/kernel_text.h"
#include "jit/render_python.h"

namespace tessera::cuda::detail {
namespace {

using expr::KernelPlan;
using Value = KernelPlan::Value;

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

std::string load(const KernelPlan& plan, const WordMap& words, int k, DType as) {
  if (!expr::read_only_converted(plan, k) && plan.operands[k].dtype() == as) {
    return "*reinterpret_cast<const " + type_of(as) + "*>(at[" + std::to_string(k) + "])";
  }
  return "tessera::kernels::load_as<" + type_of(as) + ">(at[" + std::to_string(k) + "], " +
         word(words.dtype(k)) + ".i)";
}

std::string statement(const KernelPlan& plan, const WordMap& words, int v) {
  const Value& val = plan.values[v];
  const std::string T = type_of(val.dtype);
  const std::string decl = "  const " + T + " " + var(v) + " = ";
  switch (val.kind) {
    case Value::Kind::Constant:
      return decl + constant_expr(val.dtype, words.constants[val.constant]) + ";\n";
    case Value::Kind::Load: return decl + load(plan, words, val.operand, val.dtype) + ";\n";
    case Value::Kind::Cast:
      return decl + "tessera::kernels::cast_value<" + T + ">(" + var(val.args[0]) + ");\n";
    case Value::Kind::Call: {
      std::string call = jit::functor_name(val.op) + "{}(";
      for (int k = 0; k < val.nargs; ++k) call += (k ? ", " : "") + var(val.args[k]);
      call += ")";
      if (ufunc_info(val.op).nout == 2) return "  const auto " + var(v) + " = " + call + ";\n";
      return decl + "static_cast<" + T + ">(" + call + ");\n";
    }
    case Value::Kind::User: {
      std::string call = plan.users[val.user]->device_entry + "(";
      for (int k = 0; k < val.nargs; ++k) call += (k ? ", " : "") + var(val.args[k]);
      return decl + "static_cast<" + T + ">(" + call + "));\n";
    }
    case Value::Kind::Pick:
      return decl + "static_cast<" + T + ">(" + var(val.args[0]) +
             (val.output == 0 ? ".first" : ".second") + ");\n";
    case Value::Kind::Dot: {
      // As the CPU's product rows: the first product, then one fused multiply-add per term.
      const int steps = words.dots + 2 * val.dot;
      const std::string x = "at[" + std::to_string(val.operand) + "]";
      const std::string y = "at[" + std::to_string(val.operand + 1) + "]";
      const auto element = [&](const std::string& base, int w) {
        return "*reinterpret_cast<const " + T + "*>(" + base + " + t * " + word(w) + ".i)";
      };
      std::string s = "  " + T + " " + var(v) + " = *reinterpret_cast<const " + T + "*>(" + x +
                      ") * *reinterpret_cast<const " + T + "*>(" + y + ");\n";
      s += "  for (int t = 1; t < " + std::to_string(val.dot_terms) + "; ++t) " + var(v) +
           " = std::fma(" + element(x, steps) + ", " + element(y, steps + 1) + ", " + var(v) +
           ");\n";
      return s;
    }
  }
  return "";
}

}  // namespace

WordMap::WordMap(const KernelPlan& plan, int axes, int extra_words) : axes_(axes) {
  operands = kShape + axes;
  dots = operands + static_cast<int>(plan.operands.size()) * (2 + axes);
  for (const Scalar& c : plan.constants) {
    constants.push_back(dots);
    dots += is_complex(c.dtype()) ? 2 : 1;
  }
  extras = dots + 2 * static_cast<int>(plan.dot_steps.size());
  total = extras + extra_words;
}

int axes_bucket(int ndim) {
  for (const int axes : {1, 4, 16}) {
    if (ndim <= axes) return axes;
  }
  return kMaxDims;
}

std::string type_of(DType d) { return std::string(jit::element_type(d)); }
std::string var(int v) { return "v" + std::to_string(v); }
std::string word(int w) { return "p.w[" + std::to_string(w) + "]"; }

std::string user_function_text(const KernelPlan& plan) {
  if (plan.users.empty()) return "";
  std::string s = jit::python_cuda_runtime_text();
  // Two functions may call one helper: each function is defined once.
  std::vector<std::string_view> defined;
  for (const expr::UserFunction* f : plan.users) {
    for (const auto& [name, text] : f->device_functions) {
      if (std::find(defined.begin(), defined.end(), name) != defined.end()) continue;
      defined.push_back(name);
      s += text;
    }
  }
  return s;
}

std::string device_file(std::string_view path) {
  for (size_t i = 0; i < kDeviceFilesCount; ++i) {
    if (kDeviceFiles[i].path == path) {
      return "#line 1 \"" + std::string(path) + "\"\n" + kDeviceFiles[i].text + "\n";
    }
  }
  throw std::logic_error("[eval] no device file " + std::string(path));
}

std::string value_statements(const KernelPlan& plan, const WordMap& words) {
  std::string s;
  for (size_t v = 0; v < plan.values.size(); ++v) s += statement(plan, words, static_cast<int>(v));
  return s;
}

std::vector<uint64_t> plan_words(const KernelPlan& plan, const WordMap& words,
                                 const std::vector<int64_t>& shape,
                                 const std::vector<std::vector<int64_t>>& strides,
                                 bool wide_index) {
  std::vector<uint64_t> w(words.total, 0);
  int64_t n = 1;
  for (const int64_t e : shape) n *= e;
  w[WordMap::kCount] = static_cast<uint64_t>(n);
  w[WordMap::kNdim] = static_cast<uint64_t>(shape.size());
  w[WordMap::kWide] = wide_index ? 1 : 0;
  for (size_t d = 0; d < shape.size(); ++d) w[WordMap::kShape + d] = static_cast<uint64_t>(shape[d]);
  for (size_t k = 0; k < plan.operands.size(); ++k) {
    const int op = static_cast<int>(k);
    w[words.address(op)] = reinterpret_cast<uint64_t>(plan.operands[k].data());
    w[words.dtype(op)] = static_cast<uint64_t>(plan.operands[k].dtype());
    for (size_t d = 0; d < shape.size(); ++d) {
      w[words.stride(op, static_cast<int>(d))] = static_cast<uint64_t>(strides[k][d]);
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

}  // namespace tessera::cuda::detail
