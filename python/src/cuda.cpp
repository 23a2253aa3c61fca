// tessera._core._cuda: CUDA devices, streams, events, memory pools, pinned memory and user
// kernels; python/tessera/cuda/ builds CuPy's API on these.

#include <nanobind/stl/map.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "backend/cuda/driver.h"
#include "backend/cuda/expr_kernel.h"
#include "backend/cuda/driver_memory.h"
#include "backend/cuda/nvrtc.h"
#include "backend/cuda/ptxas.h"
#include "backend/cuda/runtime.h"
#include "backend/cudasim/cpu_module.h"
#include "convert.h"
#include "ndarray.h"
#include "tessera/cuda.h"
#include "tessera/errors.h"

namespace tessera::py {
namespace {

cuda::LaunchDims to_dims(nb::handle obj, const char* what) {
  cuda::LaunchDims d;
  unsigned* fields[3] = {&d.x, &d.y, &d.z};
  if (nb::isinstance<nb::int_>(obj)) {
    d.x = nb::cast<unsigned>(obj);
    return d;
  }
  const nb::tuple t = nb::cast<nb::tuple>(obj);
  if (t.size() < 1 || t.size() > 3) {
    throw ValueError(std::string("[RawKernel] ") + what + " must be an int or a tuple of 1 to 3 "
                     "ints, got " + nb::repr(obj).c_str());
  }
  for (size_t i = 0; i < t.size(); ++i) *fields[i] = nb::cast<unsigned>(t[i]);
  return d;
}

// A kernel argument's bytes: a tessera array's device pointer, a NumPy scalar's value in its
// dtype, a Python bool/int/float/complex as NumPy's default type for it (as CuPy passes them).
std::string argument_bytes(nb::handle arg, Device device, size_t index) {
  if (NdArray* a = as_ndarray(arg)) {
    if (a->array.device() != device) {
      throw ValueError("[RawKernel] argument " + std::to_string(index) + " is on " +
                       a->array.device().str() + " but the kernel runs on " + device.str());
    }
    a->array.buffer()->before_write();  // the kernel may write it: pending readers go first
    const uintptr_t ptr = reinterpret_cast<uintptr_t>(a->array.data());
    return std::string(reinterpret_cast<const char*>(&ptr), sizeof ptr);
  }
  nb::object np = numpy();
  nb::object scalar;
  if (nb::isinstance(arg, np.attr("generic"))) {
    scalar = nb::borrow(arg);
  } else if (nb::isinstance<nb::bool_>(arg)) {
    scalar = np.attr("bool_")(arg);
  } else if (nb::isinstance<nb::int_>(arg)) {
    scalar = np.attr("int64")(arg);
  } else if (nb::isinstance<nb::float_>(arg)) {
    scalar = np.attr("float64")(arg);
  } else if (PyComplex_Check(arg.ptr())) {
    scalar = np.attr("complex128")(arg);
  } else {
    throw TypeError("[RawKernel] argument " + std::to_string(index) + " must be a tessera "
                    "array, a NumPy scalar or a Python scalar, got " +
                    nb::inst_name(arg).c_str());
  }
  nb::bytes b = nb::cast<nb::bytes>(scalar.attr("tobytes")());
  return std::string(b.c_str(), b.size());
}

// A kernel argument on the CPU device: a tessera CPU array's or a NumPy array's address, or
// a number as for a GPU. `held` keeps NumPy arrays' buffers for the launch.
std::string cpu_argument_bytes(nb::handle arg, size_t index, std::vector<Array>& held) {
  if (nb::isinstance(arg, numpy().attr("ndarray"))) {
    held.push_back(array_from_host(arg, "RawKernel"));
    if (!held.back().writeable()) {
      throw ValueError("[RawKernel] argument " + std::to_string(index) +
                       " is a read-only NumPy array; the kernel may write it");
    }
    const uintptr_t ptr = reinterpret_cast<uintptr_t>(held.back().data());
    return std::string(reinterpret_cast<const char*>(&ptr), sizeof ptr);
  }
  return argument_bytes(arg, Device::cpu(), index);
}

TsimDim3 to_sim_dims(nb::handle obj, const char* what) {
  const cuda::LaunchDims d = to_dims(obj, what);
  return {d.x, d.y, d.z};
}

struct PyStream {
  Stream stream;
  bool owned = false;
};

struct PinnedMemory {
  void* ptr = nullptr;
  size_t size = 0;
  explicit PinnedMemory(size_t bytes) : ptr(cuda::pinned_pool().allocate(bytes)), size(bytes) {}
  ~PinnedMemory() { cuda::pinned_pool().deallocate(ptr); }
};

// CuPy's PinnedMemoryPointer: a place in a block of pinned memory, kept alive by it.
struct PinnedPointer {
  std::shared_ptr<PinnedMemory> mem;
  size_t offset = 0;
  std::byte* address() const { return static_cast<std::byte*>(mem->ptr) + offset; }
};

// Pinned memory exposes the buffer protocol, so numpy.frombuffer views it without a copy.
int pinned_getbuffer(PyObject* self, Py_buffer* view, int flags) {
  const PinnedPointer* p = nb::inst_ptr<PinnedPointer>(self);
  return PyBuffer_FillInfo(view, self, p->address(),
                           static_cast<Py_ssize_t>(p->mem->size - p->offset), 0, flags);
}
PyType_Slot pinned_slots[] = {{Py_bf_getbuffer, reinterpret_cast<void*>(pinned_getbuffer)},
                              {0, nullptr}};

// Queues `function` with the arguments' bytes `values` on `stream` (the device's current
// stream when null).
void launch_values(uintptr_t function, Device device, nb::handle grid, nb::handle block,
                   std::vector<std::string>& values, size_t shared_mem, const PyStream* stream,
                   const char* api, bool cooperative = false) {
  std::vector<void*> params;
  for (std::string& v : values) params.push_back(v.data());
  const Stream s = stream ? stream->stream : current_stream(device);
  cuda::launch(function, to_dims(grid, "grid"), to_dims(block, "block"), shared_mem, s, params, api,
               cooperative);
}

}  // namespace

void bind_cuda(nb::module_& parent) {
  nb::module_ m = parent.def_submodule("_cuda", "CUDA devices (see tessera.cuda).");
  m.def("is_available", &cuda::is_available);
  m.def("is_simulated", &cuda::is_simulated);
  m.def("simulated_host_waits", &cuda::simulated_host_waits,
        "How many times the host has waited for the simulator's devices (tests count them).");
  m.def("device_count", &cuda::device_count);
  m.def("check_device", [](int device) { cuda::activate(device, "Device"); },
        "CUDARuntimeError unless CUDA device `device` exists.");
  m.def("device_properties", [](int device) {
    const cuda::DeviceProperties p = cuda::device_properties(device);
    nb::dict d;
    d["name"] = p.name;
    d["major"] = p.major;
    d["minor"] = p.minor;
    d["total_memory"] = p.total_memory;
    d["multiprocessors"] = p.multiprocessors;
    return d;
  });
  m.def("device_attributes", &cuda::device_attributes);
  m.def("mem_info", &cuda::mem_info);
  m.def("synchronize_device", [](int device) {
    without_gil([&] { cuda::synchronize_device(device); });
  });
  m.def("nvrtc_version", &cuda::nvrtc_version);
  m.def("nvrtc_available", &cuda::nvrtc_available);
  m.def("generated_kernel_options", &cuda::generated_kernel_options,
        "NVRTC's options for tessera's generated kernels (C++20, CCCL's headers, no FMA "
        "contraction).");
  m.def("ptxas_available", &cuda::ptxas_available);
  // What tests use to prove a kernel compiles for real GPUs: PTX from NVRTC, and the cubin
  // ptxas assembles from it.
  m.def("nvrtc_compile", [](const std::string& source, const std::vector<std::string>& options,
                            const std::vector<std::string>& name_expressions,
                            const std::string& arch) {
    const cuda::NvrtcResult r = without_gil([&] {
      return cuda::nvrtc_compile(source, "kernel.cu", options, name_expressions, arch);
    });
    return nb::make_tuple(r.ptx, r.lowered_names);
  });
  m.def("ptxas_assemble", [](const std::string& ptx, const std::string& arch) {
    const std::string cubin = without_gil([&] { return cuda::ptxas_assemble(ptx, arch); });
    return nb::bytes(cubin.data(), cubin.size());
  });

  nb::class_<PyStream>(m, "_Stream")
      .def_static("create", [](int device, bool non_blocking) {
        return PyStream{cuda::create_stream(device, non_blocking), true};
      })
      .def_static("null", [](int device) { return PyStream{Stream(Device::cuda(device)), false}; })
      .def_static("current", [](int device) {
        return PyStream{current_stream(Device::cuda(device)), false};
      })
      .def("destroy", [](PyStream& s) {
        if (s.owned) cuda::destroy_stream(s.stream);
        s.owned = false;
      })
      .def("make_current", [](const PyStream& s) { set_current_stream(s.stream); })
      .def("synchronize", [](const PyStream& s) { without_gil([&] { s.stream.synchronize(); }); })
      .def_prop_ro("done", [](const PyStream& s) { return cuda::stream_done(s.stream); })
      .def_prop_ro("ptr", [](const PyStream& s) { return s.stream.handle(); })
      .def_prop_ro("device_id", [](const PyStream& s) { return s.stream.device().index; });

  nb::class_<cuda::Event>(m, "_Event")
      .def(nb::init<int, bool, bool>(), nb::arg("device"), nb::arg("timing"), nb::arg("blocking"))
      .def("record", [](cuda::Event& e, const PyStream& s) { e.record(s.stream); })
      .def_prop_ro("done", &cuda::Event::done)
      .def("synchronize", [](const cuda::Event& e) { without_gil([&] { e.synchronize(); }); })
      .def_prop_ro("ptr", &cuda::Event::handle)
      .def_prop_ro("device_id", &cuda::Event::device);
  m.def("elapsed_ms", &cuda::elapsed_ms);
  m.def("wait_event", [](const PyStream& s, const cuda::Event& e) { cuda::wait_event(s.stream, e); });

  // A RawModule: the user's options, then the toolkit's headers, as CuPy adds them.
  nb::class_<cuda::Module>(m, "_Module")
      .def("__init__", [](cuda::Module* self, std::string code, std::vector<std::string> options,
                          std::vector<std::string> name_expressions) {
        const auto& include = cuda::toolkit_include_options();
        options.insert(options.end(), include.begin(), include.end());
        new (self) cuda::Module(std::move(code), std::move(options), std::move(name_expressions));
      })
      .def("function", [](cuda::Module& mod, const std::string& name, int device) {
        return without_gil([&] { return mod.function(name, device, "RawKernel"); });
      })
      .def_prop_ro("source", &cuda::Module::source);
  m.def("launch", [](uintptr_t function, int device, nb::handle grid, nb::handle block,
                     nb::sequence args, size_t shared_mem, const PyStream* stream,
                     bool cooperative) {
    const Device d = Device::cuda(device);
    std::vector<std::string> values;
    size_t i = 0;
    for (nb::handle arg : args) values.push_back(argument_bytes(arg, d, i++));
    launch_values(function, d, grid, block, values, shared_mem, stream, "RawKernel", cooperative);
  }, nb::arg("function"), nb::arg("device"), nb::arg("grid"), nb::arg("block"), nb::arg("args"),
     nb::arg("shared_mem"), nb::arg("stream").none(), nb::arg("cooperative") = false);
  // CUDA C++ on the CPU device (backend/cudasim/cpu_module.h): the launch waits for the
  // kernel, which reads and writes host memory.
  nb::class_<cudasim::CpuModule>(m, "_CpuModule")
      .def(nb::init<std::string, std::vector<std::string>, std::vector<std::string>>())
      .def("function", [](cudasim::CpuModule& mod, const std::string& name) {
        return without_gil([&] {
          return reinterpret_cast<uintptr_t>(&mod.kernel(name, "RawKernel"));
        });
      });
  m.def("launch_cpu", [](uintptr_t function, nb::handle grid, nb::handle block,
                         nb::sequence args, size_t shared_mem, bool cooperative) {
    const auto& kernel = *reinterpret_cast<const TsimKernel*>(function);
    std::vector<std::string> values;
    std::vector<Array> held;
    for (nb::handle arg : args) values.push_back(cpu_argument_bytes(arg, values.size(), held));
    if (values.size() != static_cast<size_t>(kernel.nparams)) {
      throw TypeError("[RawKernel] the kernel " + std::string(kernel.name) + " takes " +
                      std::to_string(kernel.nparams) + " arguments, got " +
                      std::to_string(values.size()));
    }
    for (size_t i = 0; i < values.size(); ++i) {
      if (values[i].size() < kernel.param_sizes[i]) {
        throw TypeError("[RawKernel] argument " + std::to_string(i) + " of the kernel " +
                        kernel.name + " has " + std::to_string(values[i].size()) +
                        " bytes where its parameter takes " +
                        std::to_string(kernel.param_sizes[i]));
      }
    }
    std::vector<void*> params;
    for (std::string& v : values) params.push_back(v.data());
    const TsimDim3 g = to_sim_dims(grid, "grid"), b = to_sim_dims(block, "block");
    without_gil([&] {
      cudasim::launch_on_cpu(kernel, g, b, shared_mem, params.data(), "RawKernel", cooperative);
    });
  }, nb::arg("function"), nb::arg("grid"), nb::arg("block"), nb::arg("args"),
     nb::arg("shared_mem"), nb::arg("cooperative") = false);
  m.def("max_cooperative_blocks", &cuda::max_cooperative_blocks, nb::arg("function"),
        nb::arg("device"), nb::arg("block_threads"), nb::arg("shared_mem"));

  // A tessera.cuda.jit kernel (jit/render_python.h's ts_python_kernel): a tessera array
  // argument goes as its view (data address, extents, byte strides), anything else as the
  // bytes given; the dynamic shared memory's size goes last.
  m.def("launch_python", [](uintptr_t function, int device, nb::handle grid, nb::handle block,
                            nb::sequence args, size_t shared_mem, const PyStream* stream,
                            bool cooperative) {
    const Device d = Device::cuda(device);
    std::vector<std::string> values;
    for (nb::handle arg : args) {
      if (NdArray* a = as_ndarray(arg)) {
        if (a->array.device() != d) {
          throw ValueError("[cuda.jit] argument " + std::to_string(values.size() + 1) + " is on " +
                           a->array.device().str() + " but the kernel runs on " + d.str());
        }
        a->array.buffer()->before_write();  // the kernel may write it: pending readers go first
        const char* data = reinterpret_cast<const char*>(a->array.data());
        std::string view(reinterpret_cast<const char*>(&data), sizeof data);
        const int n = a->array.ndim();
        std::vector<long long> words(n > 0 ? 2 * n : 2, 0);
        for (int k = 0; k < n; ++k) {
          words[k] = a->array.shape()[k];
          words[n + k] = a->array.strides()[k];
        }
        view.append(reinterpret_cast<const char*>(words.data()), words.size() * sizeof(long long));
        values.push_back(std::move(view));
      } else {
        const nb::bytes b = nb::cast<nb::bytes>(arg);
        values.emplace_back(b.c_str(), b.size());
      }
    }
    const long long dynamic = static_cast<long long>(shared_mem);
    values.emplace_back(reinterpret_cast<const char*>(&dynamic), sizeof dynamic);
    launch_values(function, d, grid, block, values, shared_mem, stream, "cuda.jit", cooperative);
  }, nb::arg("function"), nb::arg("device"), nb::arg("grid"), nb::arg("block"), nb::arg("args"),
     nb::arg("shared_mem"), nb::arg("stream").none(), nb::arg("cooperative") = false);

  // Memory pools, by device.
  m.def("pool_used_bytes", [](int d) { return cuda::device_pool(d).used_bytes(); });
  m.def("pool_total_bytes", [](int d) { return cuda::device_pool(d).total_bytes(); });
  m.def("pool_free_bytes", [](int d) { return cuda::device_pool(d).free_bytes(); });
  m.def("pool_n_free_blocks", [](int d) { return cuda::device_pool(d).n_free_blocks(); });
  m.def("pool_free_all_blocks", [](int d) { cuda::device_pool(d).free_all_blocks(); });
  m.def("pool_set_limit", [](int d, size_t bytes) { cuda::device_pool(d).set_limit(bytes); });
  m.def("pool_set_limit_fraction",
        [](int d, double f) { cuda::device_pool(d).set_limit_fraction(f); });
  m.def("pool_get_limit", [](int d) { return cuda::device_pool(d).get_limit(); });
  m.def("pool_set_gc_hook", [](int d, nb::callable hook) {
    cuda::device_pool(d).set_gc_hook([hook] {
      nb::gil_scoped_acquire gil;
      hook();
    });
  });

  nb::class_<PinnedPointer>(m, "PinnedMemoryPointer", nb::type_slots(pinned_slots),
                            "A pointer into page-locked host memory (numpy.frombuffer views it).")
      .def_prop_ro("ptr", [](const PinnedPointer& p) {
        return reinterpret_cast<uintptr_t>(p.address());
      })
      .def_prop_ro("size", [](const PinnedPointer& p) { return p.mem->size - p.offset; })
      .def("__int__", [](const PinnedPointer& p) { return reinterpret_cast<uintptr_t>(p.address()); })
      .def("__add__", [](const PinnedPointer& p, size_t offset) {
        if (offset > p.mem->size - p.offset) {
          throw ValueError("[PinnedMemoryPointer] offset " + std::to_string(offset) +
                           " is past the end of the block");
        }
        return PinnedPointer{p.mem, p.offset + offset};
      })
      .def("__repr__", [](const PinnedPointer& p) {
        return "<PinnedMemoryPointer " + std::to_string(reinterpret_cast<uintptr_t>(p.address())) +
               " (" + std::to_string(p.mem->size - p.offset) + " bytes)>";
      });
  m.def("alloc_pinned_memory", [](size_t bytes) {
    return PinnedPointer{std::make_shared<PinnedMemory>(bytes), 0};
  }, nb::arg("size"), "`size` bytes of page-locked host memory from the pinned pool.");
  m.def("host_device_pointer", [](uintptr_t host) { return cuda::host_device_pointer(host); });
  m.def("pinned_used_bytes", [] { return cuda::pinned_pool().used_bytes(); });
  m.def("pinned_total_bytes", [] { return cuda::pinned_pool().total_bytes(); });
  m.def("pinned_free_bytes", [] { return cuda::pinned_pool().free_bytes(); });
  m.def("pinned_n_free_blocks", [] { return cuda::pinned_pool().n_free_blocks(); });
  m.def("pinned_free_all_blocks", [] { cuda::pinned_pool().free_all_blocks(); });
}

}  // namespace tessera::py
