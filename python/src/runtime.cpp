// Devices, the current device, memory pools and CPU threads.

#include <nanobind/stl/string.h>

#include <string>
#include <vector>

#include "backend/cpu/fma_peak.h"
#include "backend/cpu/openblas.h"
#include "backend/cpu/parallel.h"
#include "backend/cpu/stream_triad.h"
#include "convert.h"
#include "ndarray.h"
#include "tessera/memory.h"
#include "tessera/stream.h"

namespace tessera::py {
namespace {

thread_local std::vector<Device> device_stack;  // devices replaced by `with Device(...)`

std::string kind_name(const Device& d) { return d.is_cpu() ? "cpu" : "cuda"; }

}  // namespace

void bind_runtime(nb::module_& m) {
  nb::class_<Device>(m, "Device", "A place where arrays live: the CPU or a CUDA device.")
      .def("__init__",
           [](Device* self, nb::handle spec) { new (self) Device(to_device(spec, "Device")); },
           nb::arg("spec").none() = nb::none())
      .def_prop_ro("kind", &kind_name)
      .def_prop_ro("id", [](const Device& d) { return d.index; })
      .def("__repr__", [](const Device& d) { return "Device('" + d.str() + "')"; })
      .def("__str__", &Device::str)
      .def("__eq__", [](const Device& a, nb::handle b) {
        return nb::isinstance<Device>(b) && a == nb::cast<Device>(b);
      })
      .def("__hash__", [](const Device& d) { return static_cast<int>(d.kind) * 1000003 + d.index; })
      .def("__reduce__", [](nb::handle self) {
        return nb::make_tuple(self.type(), nb::make_tuple(nb::cast<Device>(self).str()));
      })
      .def("__enter__", [](nb::handle self) {
        device_stack.push_back(current_device());
        set_current_device(nb::cast<Device>(self));
        return nb::borrow(self);
      })
      .def("__exit__", [](const Device&, nb::args) {
        set_current_device(device_stack.back());
        device_stack.pop_back();
      })
      .def("synchronize", [](const Device& d) { current_stream(d).synchronize(); },
           "Waits until all work queued on this device has finished.")
      .attr("__module__") = "tessera";

  m.def("_current_device", [] { return current_device(); });
  m.def("_set_current_device", [](const Device& d) { set_current_device(d); });
  m.def("_memory_stats", [](nb::handle device) {
    AllocatorStats s = memory_stats(to_device(device, "memory_pool"));
    nb::dict d;
    d["used_bytes"] = s.used_bytes;
    d["cached_bytes"] = s.cached_bytes;
    d["peak_used_bytes"] = s.peak_used_bytes;
    d["limit_cached_bytes"] = s.limit_cached_bytes;
    d["allocations"] = s.allocations;
    d["cache_hits"] = s.cache_hits;
    return d;
  }, nb::arg("device").none());
  m.def("_release_cached", [](nb::handle device) {
    release_cached_memory(to_device(device, "memory_pool"));
  }, nb::arg("device").none());
  m.def("_fma_peak_flops", [](bool single, int reps) {
    return without_gil([&] { return cpu::fma_peak_flops(single, reps); });
  });
  m.def("_blas_config", [] { return cpu::openblas_description(); });
  m.def("_stream_triad_bandwidth", [](int64_t n, int reps) {
    return without_gil([&] { return cpu::stream_triad_bandwidth(n, reps); });
  }, nb::arg("n"), nb::arg("reps"), "STREAM triad bytes/s on the CPU pool threads (benchmarks).");
  m.def("get_num_threads", &cpu::num_threads, "Threads the CPU device computes with.");
  m.def("set_num_threads", &cpu::set_num_threads, nb::arg("n"),
        "Sets the threads the CPU device computes with (default: TESSERA_NUM_THREADS, else "
        "one per core).");
}

}  // namespace tessera::py
