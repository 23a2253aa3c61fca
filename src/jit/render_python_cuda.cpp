#include <string>

#include "jit/kernel_text.h"
#include "jit/python_kernel_text.h"
#include "jit/render_python.h"
#include "jit/render_python_body.h"
#include "jit/sexpr.h"

namespace tessera::jit {

const std::string& python_cuda_runtime_text() {
  static const std::string text = [] {
    std::string s;
    for (size_t i = 0; i < kPythonKernelFilesCount; ++i) {
      s += "#line 1 \"" + std::string(kPythonKernelFiles[i].path) + "\"\n" +
           std::string(kPythonKernelFiles[i].text) + "\n";
    }
    for (size_t i = 0; i < kPythonCudaFilesCount; ++i) {
      s += "#line 1 \"" + std::string(kPythonCudaFiles[i].path) + "\"\n" +
           std::string(kPythonCudaFiles[i].text) + "\n";
    }
    return s;
  }();
  return text;
}

namespace {

// A kernel parameter of type `t` named `name`: each number and array a parameter of its own
// (appended to `declared`), a tuple's depth first as the launch passes them
// (cuda_dispatcher.py), so that no tuple's C++ layout is packed on the host; returns the
// expression that makes the parameter's value of them.
std::string kernel_parameter(const SExpr& t, const std::string& name, std::string& declared) {
  if (t.is_list() && t.head() == "tuple") {
    std::string items, close;
    for (size_t k = 1; k < t.size(); ++k) {
      items += kernel_parameter(t.at(k), name + "_" + std::to_string(k - 1), declared) + ", {";
      close += "}";
    }
    return python_ir::cpp_type(t) + "{" + items + close + "}";
  }
  declared += python_ir::cpp_type(t) + " " + name + ", ";
  return name;
}

}  // namespace

std::string render_python_cuda(std::string_view ir_text, std::string_view foreign) {
  const SExpr module = parse_sexpr(ir_text);
  if (module.head() != "module" || module.size() < 2) python_ir::bad(module, "expected a module");
  // The functors first (what NVRTC takes as its precompiled header), then the runtimes.
  std::string s = kernel_functors_text() + python_cuda_runtime_text();
  // cuda.cg.this_grid().sync(): CUDA's cooperative groups, included only by the kernels that
  // synchronize their grid (they are launched cooperatively; the simulator's prelude has
  // its own cooperative_groups).
  if (ir_text.find("(intrinsic grid_sync ") != std::string_view::npos) {
    s += "#line 1 \"[tessera] grid synchronization\"\n#include <cooperative_groups.h>\n"
         "namespace tessera::pyjit::gpu {\n"
         "__device__ inline void grid_sync() { cooperative_groups::this_grid().sync(); }\n"
         "}  // namespace tessera::pyjit::gpu\n";
  }
  if (!foreign.empty()) s += "#line 1 \"[tessera] linked device functions\"\n" + std::string(foreign);
  const size_t last = module.size() - 1;
  for (size_t i = 1; i <= last; ++i) {
    s += python_ir::render_function(module.at(i), python_ir::Target::kCuda, ErrorModel::kNumpy,
                                    i == last);
  }
  // The kernel: its parameters by value, as the launch packs them (jit/render_python.h).
  const SExpr& f = module.at(last);
  const SExpr& params = f.at(3);
  std::string declared, passed;
  for (size_t i = 0; i < params.size(); ++i) {
    passed += kernel_parameter(params.at(i).at(1), "a" + std::to_string(i), declared) + ", ";
  }
  s += "#line 1 \"[tessera] python kernel entry\"\n";
  s += "extern \"C\" __global__ void " + std::string(kPythonKernelName) + "(" + declared +
       "long long dynamic_shared_bytes) {\n";
  s += "  ts_python_" + f.at(1).text + "(" + passed + "dynamic_shared_bytes);\n}\n";
  return s;
}

std::vector<std::pair<std::string, std::string>> render_python_cuda_functions(
    std::string_view ir_text) {
  const SExpr module = parse_sexpr(ir_text);
  if (module.head() != "module" || module.size() < 2) python_ir::bad(module, "expected a module");
  std::vector<std::pair<std::string, std::string>> functions;
  for (size_t i = 1; i < module.size(); ++i) {
    const SExpr& f = module.at(i);
    functions.emplace_back("ts_python_" + f.at(1).text,
                           python_ir::render_function(f, python_ir::Target::kCuda,
                                                      ErrorModel::kNumpy));
  }
  return functions;
}

}  // namespace tessera::jit
