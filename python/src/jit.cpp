// Python functions compiled by tessera.jit: the IR text from the Python front end
// (python/tessera/jit/) rendered as host C++ (jit/render_python.h), compiled, loaded, and
// called with its arguments packed as 8-byte words.

#include <nanobind/stl/string.h>

#include <cstring>
#include <vector>

#include "jit/host_compiler.h"
#include "jit/host_function.h"
#include "jit/render_python.h"
#include "ndarray.h"
#include "tessera/errors.h"

namespace tessera::py {

void bind_jit(nb::module_& m) {
  // The host C++ of a function's IR (for tests and for the curious: tessera.jit's
  // inspect_cpp()).
  m.def("_jit_render_host", [](const std::string& ir) { return jit::render_python_host(ir); });
  // The entry point's address.
  m.def("_jit_compile_host", [](const std::string& ir) {
    const std::string source = jit::render_python_host(ir);
    return without_gil([&] {
      try {
        return reinterpret_cast<uintptr_t>(
            jit::host_function(source, jit::kPythonEntryName));
      } catch (const jit::CompileError& e) {
        throw std::runtime_error(
            std::string("[jit] the C++ generated from a Python function did not compile, a bug "
                        "in tessera:\n") + e.what());
      }
    });
  });
  // Calls an entry point with `words` (the packed arguments): (the Python exception code,
  // the result's 16 bytes).
  m.def("_jit_call_host", [](uintptr_t entry, nb::bytes words) {
    using Entry = int (*)(const void*, void*);
    alignas(16) unsigned char result[16] = {};
    std::vector<uint64_t> args(words.size() / 8 + 1);  // aligned, whatever the bytes' are
    std::memcpy(args.data(), words.c_str(), words.size());
    const int code =
        without_gil([&] { return reinterpret_cast<Entry>(entry)(args.data(), result); });
    return nb::make_tuple(code, nb::bytes(reinterpret_cast<const char*>(result), sizeof result));
  });
}

}  // namespace tessera::py
