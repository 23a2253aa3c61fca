#include "jit/render_python.h"

#include <array>
#include <stdexcept>

#include "jit/kernel_text.h"
#include "jit/python_kernel_text.h"
#include "jit/render_python_body.h"
#include "jit/sexpr.h"

namespace tessera::jit {
namespace {

using python_ir::bad;
using python_ir::cpp_type;
using python_ir::ident;
using python_ir::is_complex_type;

// Code declaring `name`, a parameter of type `t`, from the words at w[at] on: a number in
// one word (a complex in two), an array as its data, shape and strides, a tuple as its
// items' words in order (python/src/jit.cpp's key_of packs them so).
std::string unpack_argument(const SExpr& t, const std::string& name) {
  const std::string T = cpp_type(t);
  if (t.is_list() && t.head() == "tuple") {
    std::string s, items, close;
    for (size_t k = 1; k < t.size(); ++k) {
      const std::string item = name + "_" + std::to_string(k - 1);
      s += unpack_argument(t.at(k), item);
      items += item + ", {";
      close += "}";
    }
    return s + "  const " + T + " " + name + "{" + items + close + "};\n";
  }
  if (t.is_list()) {  // an array: data, shape, strides
    const std::string ndim = t.at(2).text;
    return "  " + T + " " + name + ";\n  " + name + ".data = w[at++].a;\n" +
           "  for (int d = 0; d < " + ndim + "; ++d) " + name + ".shape[d] = w[at++].i;\n" +
           "  for (int d = 0; d < " + ndim + "; ++d) " + name + ".strides[d] = w[at++].i;\n";
  }
  if (is_complex_type(t)) return "  const " + T + " " + name + "(w[at].f, w[at + 1].f);\n  at += 2;\n";
  if (t.text == "uint64") return "  const " + T + " " + name + " = w[at++].u;\n";
  if (t.text == "float16" || t.text == "float32" || t.text == "float64") {
    return "  const " + T + " " + name + " = static_cast<" + T + ">(w[at++].f);\n";
  }
  return "  const " + T + " " + name + " = static_cast<" + T + ">(w[at++].i);\n";
}

// The bytes of an array's words (data, shape, strides) rounded up to 16.
size_t array_slot_bytes(int ndim) { return (8 * (1 + 2 * static_cast<size_t>(ndim)) + 15) / 16 * 16; }

// Code storing `value`, a returned tuple's item of type `t`, at `offset` bytes into the
// result: each number in a 16-byte slot, each array as its words (data, shape, strides)
// rounded up to 16 bytes, a tuple's items in order: the layout python/src/jit.cpp reads.
std::string store_result_item(const SExpr& t, const std::string& value, size_t& offset) {
  const std::string at = "static_cast<char*>(result) + " + std::to_string(offset);
  if (t.is_list() && t.head() == "tuple") {
    std::string s;
    for (size_t k = 1; k < t.size(); ++k) {
      s += store_result_item(t.at(k), "tessera::pyjit::get<" + std::to_string(k - 1) + ">(" + value + ")",
                             offset);
    }
    return s;
  }
  if (t.is_list()) {  // an array; its block is the caller's from now on
    const int ndim = std::stoi(t.at(2).text);
    offset += array_slot_bytes(ndim);
    const std::string n = std::to_string(ndim);
    return "    {\n      const auto a = tessera::pyjit::returned_array(arrays, " + value + ");\n" +
           "      TsWord* out = reinterpret_cast<TsWord*>(" + at + ");\n      out[0].a = a.data;\n" +
           "      for (int d = 0; d < " + n + "; ++d) out[1 + d].i = a.shape[d];\n" +
           "      for (int d = 0; d < " + n + "; ++d) out[" + std::to_string(1 + ndim) +
           " + d].i = a.strides[d];\n    }\n";
  }
  offset += 16;
  return "    *reinterpret_cast<" + cpp_type(t) + "*>(" + at + ") = " + value + ";\n";
}

// The entry point of function `f`: the words unpacked into its parameters' types.
std::string render_entry(const SExpr& f) {
  const SExpr& params = f.at(3);
  const std::string R = cpp_type(f.at(4));
  std::string s = "#line 1 \"[tessera] python function entry\"\n";
  s += "extern \"C\" int " + std::string(kPythonEntryName) +
       "(const TsWord* w, void* result) {\n  int at = 0;\n  (void)at;\n";
  std::string args;
  for (size_t i = 0; i < params.size(); ++i) {
    const std::string a = "a" + std::to_string(i);
    s += unpack_argument(params.at(i).at(1), a);
    args += (i ? ", " : "") + a;
  }
  const std::string call = "ts_python_" + f.at(1).text + "(" + args + ")";
  s += "  tessera::pyjit::ArenaScope arrays;\n  try {\n";
  const SExpr& result_type = f.at(4);
  if (result_type.head() == "array") {  // data, shape, strides as words; its block is kept
    const std::string ndim = result_type.at(2).text;
    s += "    const auto r = tessera::pyjit::returned_array(arrays, " + call + ");\n";
    s += "    TsWord* out = static_cast<TsWord*>(result);\n    out[0].a = r.data;\n";
    s += "    for (int d = 0; d < " + ndim + "; ++d) out[1 + d].i = r.shape[d];\n";
    s += "    for (int d = 0; d < " + ndim + "; ++d) out[1 + " + ndim + " + d].i = r.strides[d];\n";
  } else if (result_type.head() == "tuple") {
    s += "    const auto r = " + call + ";\n";
    size_t offset = 0;
    s += store_result_item(result_type, "r", offset);
  } else if (R == "void") {
    s += "    " + call + ";\n    (void)result;\n";
  } else {
    s += "    *static_cast<" + R + "*>(result) = " + call + ";\n";
  }
  s += "  } catch (const tessera::pyjit::Raised& e) {\n    return static_cast<int>(e.code);\n  }\n";
  return s + "  return 0;\n}\n";
}

}  // namespace

const std::string& python_host_prefix(bool fast_math) {
  static const std::array<std::string, 2> prefixes = [] {
    std::string common =
        "#include <algorithm>\n#include <cmath>\n#include <cstdio>\n#include <cstdlib>\n"
        "#include <cstring>\n" +
        kernel_functors_text();
    for (size_t i = 0; i < kPythonKernelFilesCount; ++i) {
      common += "#line 1 \"" + std::string(kPythonKernelFiles[i].path) + "\"\n" +
                std::string(kPythonKernelFiles[i].text) + "\n";
    }
    common += "union TsWord { long long i; unsigned long long u; double f; char* a; };\n";
    // Before everything, so that the functors inlined into the functions compile alike (GCC
    // does not inline across different optimization options).
    return std::array<std::string, 2>{
        common, "#pragma GCC optimize(\"fast-math\", \"fp-contract=fast\")\n" + common};
  }();
  return prefixes[fast_math ? 1 : 0];
}

std::string render_python_host(std::string_view ir_text, ErrorModel errors, bool fast_math) {
  const SExpr module = parse_sexpr(ir_text);
  if (module.head() != "module" || module.size() < 2) bad(module, "expected a module");
  std::string s = python_host_prefix(fast_math);
  for (size_t i = 1; i < module.size(); ++i) {
    s += python_ir::render_function(module.at(i), python_ir::Target::kHost, errors);
  }
  s += "extern \"C\" void " + std::string(kPythonBindName) +
       "(tessera::pyjit::ParallelFor parallel_for, int threads, "
       "tessera::pyjit::PrintText print_text, tessera::pyjit::RandomStates random_states, "
       "tessera::pyjit::MatmulService matmul, tessera::pyjit::LinalgService linalg) {\n"
       "  tessera::pyjit::parallel_for = parallel_for;\n"
       "  tessera::pyjit::pool_threads = threads;\n"
       "  tessera::pyjit::print_text = print_text;\n"
       "  tessera::pyjit::random_states = random_states;\n"
       "  tessera::pyjit::matmul_service = matmul;\n"
       "  tessera::pyjit::linalg_service = linalg;\n}\n";
  return s + render_entry(module.at(module.size() - 1));
}

}  // namespace tessera::jit
