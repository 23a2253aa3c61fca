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

// The entry point of function `f`: the words unpacked into its parameters' types.
std::string render_entry(const SExpr& f) {
  const SExpr& params = f.at(3);
  const std::string R = cpp_type(f.at(4));
  std::string s = "#line 1 \"[tessera] python function entry\"\n";
  s += "extern \"C\" int " + std::string(kPythonEntryName) +
       "(const TsWord* w, void* result) {\n  int at = 0;\n";
  std::string args;
  for (size_t i = 0; i < params.size(); ++i) {
    const SExpr& t = params.at(i).at(1);
    const std::string a = "a" + std::to_string(i);
    const std::string T = cpp_type(t);
    if (t.is_list()) {  // an array: data, shape, strides
      const std::string ndim = t.at(2).text;
      s += "  " + T + " " + a + ";\n  " + a + ".data = w[at++].a;\n";
      s += "  for (int d = 0; d < " + ndim + "; ++d) " + a + ".shape[d] = w[at++].i;\n";
      s += "  for (int d = 0; d < " + ndim + "; ++d) " + a + ".strides[d] = w[at++].i;\n";
    } else if (is_complex_type(t)) {
      s += "  const " + T + " " + a + "(w[at].f, w[at + 1].f);\n  at += 2;\n";
    } else if (t.text == "uint64") {
      s += "  const " + T + " " + a + " = w[at++].u;\n";
    } else if (t.text == "float16" || t.text == "float32" || t.text == "float64") {
      s += "  const " + T + " " + a + " = static_cast<" + T + ">(w[at++].f);\n";
    } else {
      s += "  const " + T + " " + a + " = static_cast<" + T + ">(w[at++].i);\n";
    }
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
    // Each number in a 16-byte slot, each array as its words (data, shape, strides) rounded
    // up to 16 bytes: the layout python/src/jit.cpp reads.
    s += "    const auto r = " + call + ";\n";
    size_t offset = 0;
    for (size_t i = 1; i < result_type.size(); ++i) {
      const SExpr& item = result_type.at(i);
      const std::string at = "static_cast<char*>(result) + " + std::to_string(offset);
      const std::string value = "tessera::pyjit::get<" + std::to_string(i - 1) + ">(r)";
      if (item.is_list() && item.head() == "array") {
        const int ndim = std::stoi(item.at(2).text);
        s += "    {\n      const auto a = tessera::pyjit::returned_array(arrays, " + value + ");\n";
        s += "      TsWord* out = reinterpret_cast<TsWord*>(" + at + ");\n      out[0].a = a.data;\n";
        s += "      for (int d = 0; d < " + std::to_string(ndim) + "; ++d) out[1 + d].i = a.shape[d];\n";
        s += "      for (int d = 0; d < " + std::to_string(ndim) + "; ++d) out[" +
             std::to_string(1 + ndim) + " + d].i = a.strides[d];\n    }\n";
        offset += (8 * (1 + 2 * static_cast<size_t>(ndim)) + 15) / 16 * 16;
      } else {
        s += "    *reinterpret_cast<" + cpp_type(item) + "*>(" + at + ") = " + value + ";\n";
        offset += 16;
      }
    }
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
       "tessera::pyjit::MatmulService matmul) {\n"
       "  tessera::pyjit::parallel_for = parallel_for;\n"
       "  tessera::pyjit::pool_threads = threads;\n"
       "  tessera::pyjit::print_text = print_text;\n"
       "  tessera::pyjit::random_states = random_states;\n"
       "  tessera::pyjit::matmul_service = matmul;\n}\n";
  return s + render_entry(module.at(module.size() - 1));
}

}  // namespace tessera::jit
