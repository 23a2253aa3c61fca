// Floating-point errors in Python: the engine's events become NumPy's RuntimeWarnings,
// FloatingPointErrors and seterrcall callbacks, and its per-thread modes are read and set
// by tessera.seterr (python/tessera/_errstate.py).

#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>

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

void deliver(std::span<const FpEvent> events) {
  for (const FpEvent& e : events) {
    const std::string words(fp_error_words(e.error));
    const std::string op(e.op);
    switch (e.mode) {
      case FpMode::Ignore:
        break;
      case FpMode::Warn:
        if (PyErr_WarnEx(PyExc_RuntimeWarning, (words + " encountered in " + op).c_str(), 1) < 0) {
          throw nb::python_error();
        }
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
