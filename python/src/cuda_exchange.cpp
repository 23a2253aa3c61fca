// The CUDA array interface (version 3), both ways: tessera's CUDA arrays export it, so CuPy,
// Numba and PyTorch take them without a copy, and asarray takes another library's device
// arrays through it. Each side names the stream its work is queued on; the consumer orders
// its own stream after the producer's with an event, never by waiting on the host.

#include <nanobind/stl/string.h>

#include <string>

#include "convert.h"
#include "ndarray.h"
#include "tessera/buffer.h"
#include "tessera/cuda.h"
#include "tessera/device.h"
#include "tessera/errors.h"
#include "tessera/stream.h"

namespace tessera::py {
namespace {

// The interface's stream value for a tessera stream: the driver's handle, with the default
// stream (handle 0 to the driver, which means the legacy default stream) spelled 1, as the
// interface asks (0 is not allowed there).
nb::int_ interface_stream(const Stream& s) { return nb::int_(s.handle() == 0 ? 1 : s.handle()); }

nb::dict export_interface(const NdArray& self) {
  const Array& a = self.array;
  if (a.device().is_cpu()) {
    throw nb::attribute_error("[__cuda_array_interface__] only CUDA arrays have one; this array "
                              "is on the CPU (it has __array_interface__)");
  }
  // Reading the address computes a pending array: its kernel is queued on the current
  // stream, which is the stream exported.
  const bool empty = a.size() == 0;
  const auto ptr = empty ? uintptr_t{0} : reinterpret_cast<uintptr_t>(a.data());
  a.buffer()->mark_exported();
  nb::dict d;
  d["shape"] = to_tuple(a.shape());
  d["typestr"] = typestr(a.dtype());
  d["descr"] = nb::make_tuple(nb::make_tuple("", typestr(a.dtype())));
  d["data"] = nb::make_tuple(ptr, !a.writeable());
  d["strides"] = a.is_c_contiguous() ? nb::none() : nb::object(to_tuple(a.strides()));
  d["version"] = 3;
  d["stream"] = interface_stream(current_stream(a.device()));
  return d;
}

template <typename T>
T entry(const nb::dict& d, const char* key, const char* api) {
  if (!d.contains(key)) {
    throw ValueError(std::string("[") + api + "] the __cuda_array_interface__ has no '" + key +
                     "' entry");
  }
  return nb::cast<T>(d[key]);
}

// An array over another library's device memory, which `owner` keeps alive.
Array import_interface(nb::handle owner, const char* api) {
  nb::object got = owner.attr("__cuda_array_interface__");
  if (!nb::isinstance<nb::dict>(got)) {
    throw TypeError(std::string("[") + api + "] __cuda_array_interface__ must be a dict, got " +
                    nb::inst_name(got).c_str());
  }
  nb::dict d = nb::borrow<nb::dict>(got);
  const int version = entry<int>(d, "version", api);
  if (version < 0 || version > 3) {
    throw ValueError(std::string("[") + api + "] __cuda_array_interface__ version " +
                     std::to_string(version) + " is not supported (versions 0 to 3 are)");
  }
  if (d.contains("mask") && !d["mask"].is_none()) {
    throw ValueError(std::string("[") + api + "] a __cuda_array_interface__ with a mask is "
                     "not supported: masked arrays have no tessera equivalent");
  }
  const Dims shape = to_shape(entry<nb::object>(d, "shape", api), api);
  const DType dtype = to_dtype(numpy().attr("dtype")(entry<nb::object>(d, "typestr", api)),
                               DType::Float64, api);
  const auto data = entry<nb::tuple>(d, "data", api);
  if (data.size() != 2) {
    throw ValueError(std::string("[") + api + "] __cuda_array_interface__ 'data' must be "
                     "(pointer, read_only)");
  }
  const auto ptr = nb::cast<uintptr_t>(data[0]);
  const bool readonly = nb::cast<bool>(data[1]);
  const int64_t itemsize = dtype_info(dtype).itemsize;
  const bool strided = d.contains("strides") && !d["strides"].is_none();
  const Dims strides = strided ? to_shape(d["strides"], api)
                               : contiguous_strides(shape, itemsize, Order::C);
  if (strides.size() != shape.size()) {
    throw ValueError(std::string("[") + api + "] __cuda_array_interface__ strides " +
                     strides.str() + " do not match shape " + shape.str());
  }
  const int device = cuda::pointer_device(ptr);
  if (shape.product() == 0) {  // no memory to share (the pointer may well be 0)
    const Device here = current_device();
    return Array::empty(shape, dtype, device >= 0 ? Device::cuda(device)
                                      : here.is_cpu() ? Device::cuda(0) : here);
  }
  if (device < 0) {
    throw ValueError(std::string("[") + api + "] the __cuda_array_interface__ pointer " +
                     std::to_string(ptr) + " is not in the memory of any CUDA device");
  }
  // The producer's pending work on its stream comes before anything tessera queues on the
  // current stream of that device.
  if (version >= 3 && d.contains("stream") && !d["stream"].is_none()) {
    const auto stream = nb::cast<uintptr_t>(d["stream"]);
    if (stream == 0) {
      throw ValueError(std::string("[") + api + "] __cuda_array_interface__ stream 0 is "
                       "ambiguous and not allowed (1 is the legacy default stream)");
    }
    cuda::wait_for_stream(current_stream(Device::cuda(device)), stream);
  }
  // The buffer spans the lowest to the highest address the strides reach.
  int64_t lo = 0, hi = itemsize;
  for (size_t i = 0; i < shape.size(); ++i) {
    const int64_t span = (shape[i] - 1) * strides[i];
    (span < 0 ? lo : hi) += span;
  }
  auto buffer = Buffer::wrap(Device::cuda(device), reinterpret_cast<std::byte*>(ptr) + lo,
                             static_cast<size_t>(hi - lo), keep_alive(owner));
  Array a(std::move(buffer), dtype, shape, strides, -lo);
  a.set_writeable(!readonly);
  return a;
}

}  // namespace

void bind_cuda_exchange(nb::module_& m, nb::class_<NdArray>& cls) {
  cls.def_prop_ro("__cuda_array_interface__", &export_interface,
                  "The CUDA array interface (version 3) of a CUDA array: no copy; 'stream' "
                  "is the current stream, where the array's pending work is queued.");
  m.def("_from_cuda_interface", [](nb::handle obj, const std::string& api) {
    return nb::cast(NdArray{import_interface(obj, api.c_str()), nb::borrow(obj)});
  }, nb::arg("obj"), nb::arg("api"));
}

}  // namespace tessera::py
