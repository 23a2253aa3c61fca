// Floating-point errors in Python: the engine's events become NumPy's RuntimeWarnings,
// FloatingPointErrors and seterrcall callbacks, and its per-thread modes are read and set
// by tessera.seterr (python/tessera/_errstate.py). A warning names the user's line, as
// NumPy's do: the innermost frame outside the tessera package when the op ran at its call,
// or the line that called a pending op, captured then (the engine keeps it as the op's
// FpOrigin), when the op is computed later.

#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>

#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "ndarray.h"
#include "tessera/errors.h"
#include "tessera/errstate.h"

namespace tessera::py {
namespace {

constexpr const char* kModeNames[] = {"ignore", "warn", "raise", "call", "print", "log"};

// Events of computations that ran with the GIL released, kept until it is taken back.
thread_local std::vector<FpEvent> deferred;

// A line of user code, with the module warnings filter on (its __name__). Plain strings:
// an origin may outlive the GIL's holder (pending trees are dropped on any thread).
struct UserLine {
  std::string filename;
  int lineno = 0;
  std::string module;
};

// The directory of the tessera package, with a trailing separator.
const std::string& package_directory() {
  static const std::string dir = [] {
    nb::module_ path = nb::module_::import_("os.path");
    nb::object init = nb::module_::import_("tessera").attr("__file__");
    return nb::cast<std::string>(path.attr("join")(path.attr("dirname")(init), ""));
  }();
  return dir;
}

// The innermost frame of this thread whose code is not tessera's (an empty filename when
// there is none, e.g. on a thread that runs no Python).
UserLine innermost_user_line() {
  UserLine line;
  PyFrameObject* frame = PyEval_GetFrame();
  Py_XINCREF(frame);
  while (frame) {
    PyCodeObject* code = PyFrame_GetCode(frame);
    const char* filename = PyUnicode_AsUTF8(code->co_filename);
    Py_DECREF(code);
    if (!filename) {
      PyErr_Clear();
    } else if (!std::string_view(filename).starts_with(package_directory())) {
      line.filename = filename;
      line.lineno = PyFrame_GetLineNumber(frame);
      PyObject* globals = PyFrame_GetGlobals(frame);
      PyObject* name = PyDict_GetItemString(globals, "__name__");  // borrowed
      line.module = name && PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : "<string>";
      Py_DECREF(globals);
      Py_DECREF(frame);
      return line;
    }
    PyFrameObject* back = PyFrame_GetBack(frame);
    Py_DECREF(frame);
    frame = back;
  }
  return line;
}

// Called by the engine inside a call that released the GIL (most bindings do): it is taken
// back for the frame walk. A thread that never ran Python has no user line.
FpOrigin capture_origin() {
  if (!PyGILState_GetThisThreadState()) return {};
  nb::gil_scoped_acquire gil;
  UserLine line = innermost_user_line();
  if (line.filename.empty()) return {};
  return std::make_shared<const UserLine>(std::move(line));
}

// warnings.warn's registry for `module` (its __warningregistry__), so that the 'default'
// action shows a warning once per line; null when the module is not imported.
nb::object registry_of(const std::string& module) {
  nb::object modules = nb::module_::import_("sys").attr("modules");
  nb::object mod = modules.attr("get")(module);
  if (mod.is_none() || !nb::hasattr(mod, "__dict__")) return nb::none();
  return mod.attr("__dict__").attr("setdefault")("__warningregistry__", nb::dict());
}

void warn(const FpEvent& e, const std::string& message) {
  const UserLine line = e.origin ? *static_cast<const UserLine*>(e.origin.get())
                                 : innermost_user_line();
  int failed;
  if (line.filename.empty()) {
    failed = PyErr_WarnEx(PyExc_RuntimeWarning, message.c_str(), 1);
  } else {
    nb::object registry = registry_of(line.module);
    failed = PyErr_WarnExplicit(PyExc_RuntimeWarning, message.c_str(), line.filename.c_str(),
                                line.lineno, line.module.c_str(),
                                registry.is_none() ? nullptr : registry.ptr());
  }
  if (failed < 0) throw nb::python_error();
}

void deliver(std::span<const FpEvent> events) {
  for (const FpEvent& e : events) {
    const std::string words(fp_error_words(e.error));
    const std::string op(e.op);
    switch (e.mode) {
      case FpMode::Ignore:
        break;
      case FpMode::Warn:
        warn(e, words + " encountered in " + op);
        break;
      case FpMode::Raise:
        throw FloatingPointError(words + " encountered in " + op);
      default:
        nb::module_::import_("tessera._errstate")
            .attr("_report")(op, words, kModeNames[static_cast<int>(e.mode)], e.status);
    }
  }
}

void handle(std::span<const FpEvent> events) {
  if (!PyGILState_Check()) {
    deferred.insert(deferred.end(), events.begin(), events.end());
    return;
  }
  deliver(events);
}

}  // namespace

void report_deferred_fp_events() {
  if (deferred.empty()) return;
  std::vector<FpEvent> events;
  events.swap(deferred);
  deliver(events);
}

void bind_errstate(nb::module_& m) {
  set_fp_handler(&handle);
  set_fp_origin_provider(&capture_origin);
  m.def("_fp_modes", [] {
    const FpModes modes = fp_modes();
    return std::make_tuple(static_cast<int>(modes.mode[0]), static_cast<int>(modes.mode[1]),
                           static_cast<int>(modes.mode[2]), static_cast<int>(modes.mode[3]));
  }, "This thread's floating-point error modes (divide, over, under, invalid).");
  m.def("_set_fp_modes", [](std::tuple<int, int, int, int> values) {
    FpModes modes;
    const int v[] = {std::get<0>(values), std::get<1>(values), std::get<2>(values),
                     std::get<3>(values)};
    for (int k = 0; k < kNumFpErrors; ++k) {
      if (v[k] < 0 || v[k] > static_cast<int>(FpMode::Log)) {
        throw ValueError("[seterr] invalid error mode " + std::to_string(v[k]));
      }
      modes.mode[k] = static_cast<FpMode>(v[k]);
    }
    set_fp_modes(modes);
  });
}

}  // namespace tessera::py
