// Device arrays shared with other libraries without a copy, both ways, through the two
// exchange formats: the CUDA array interface (version 3) and DLPack (1.x capsules; nanobind
// builds and reads them). Streams are ordered with events, never by waiting on the host:
// with the interface the producer names its stream and the consumer waits for it; with
// DLPack the consumer names its stream and the producer makes it wait.

#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>

#include <string>
#include <vector>

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
    const Device dev = Device::cuda(device);
    cuda::stream_wait(current_stream(dev), Stream(dev, stream));
  }
  Array a = Array::over_memory(Device::cuda(device), reinterpret_cast<void*>(ptr), dtype, shape,
                               strides, keep_alive(owner));
  a.set_writeable(!readonly);
  return a;
}

// DLPack's device types (DLDeviceType).
constexpr int kDLCUDA = 2;

nb::dlpack::dtype dlpack_dtype(DType dtype) {
  using nb::dlpack::dtype_code;
  const DTypeInfo& info = dtype_info(dtype);
  const dtype_code code = info.kind == 'b'   ? dtype_code::Bool
                          : info.kind == 'i' ? dtype_code::Int
                          : info.kind == 'u' ? dtype_code::UInt
                          : info.kind == 'f' ? dtype_code::Float
                                             : dtype_code::Complex;
  return {static_cast<uint8_t>(code), static_cast<uint8_t>(info.itemsize * 8), 1};
}

DType dtype_of(nb::dlpack::dtype d, const char* api) {
  using nb::dlpack::dtype_code;
  char kind = 0;
  switch (static_cast<dtype_code>(d.code)) {
    case dtype_code::Bool: kind = 'b'; break;
    case dtype_code::Int: kind = 'i'; break;
    case dtype_code::UInt: kind = 'u'; break;
    case dtype_code::Float: kind = 'f'; break;
    case dtype_code::Complex: kind = 'c'; break;
    default: break;
  }
  if (kind && d.lanes == 1) {
    const std::string name = std::string(1, kind) + std::to_string(d.bits / 8);
    return to_dtype(numpy().attr("dtype")(nb::str(name.c_str())), DType::Float64, api);
  }
  throw nb::buffer_error((std::string("[") + api + "] DLPack dtype (code " +
                          std::to_string(d.code) + ", " + std::to_string(d.bits) + " bits, " +
                          std::to_string(d.lanes) + " lanes) has no tessera equivalent")
                             .c_str());
}

// A DLPack capsule of a CUDA array. `stream` is the consumer's (None: the legacy default
// stream, -1: the consumer orders nothing), which is made to wait for the current one.
nb::object export_dlpack(nb::handle obj, nb::handle stream, bool versioned) {
  const Array& a = unwrap(obj).array;
  const Device dev = a.device();
  void* data = a.size() ? static_cast<void*>(a.data()) : nullptr;  // queues pending work
  a.buffer()->mark_exported();
  const int64_t consumer = stream.is_none() ? 1 : nb::cast<int64_t>(stream);
  if (consumer != -1) {
    if (consumer <= 0) {
      throw ValueError("[__dlpack__] stream " + std::to_string(consumer) + " is not a CUDA "
                       "stream (0 is ambiguous; 1 is the legacy default stream, -1 orders "
                       "nothing)");
    }
    cuda::stream_wait(Stream(dev, static_cast<uintptr_t>(consumer)), current_stream(dev));
  }
  const int64_t itemsize = dtype_info(a.dtype()).itemsize;
  std::vector<size_t> shape(a.shape().begin(), a.shape().end());
  std::vector<int64_t> strides;
  for (int64_t s : a.strides()) strides.push_back(s / itemsize);  // DLPack counts elements
  const nb::dlpack::dtype dt = dlpack_dtype(a.dtype());
  // nanobind's array-API object, whose __dlpack__ builds the capsule.
  nb::object tensor =
      a.writeable()
          ? nb::cast(nb::ndarray<nb::array_api>(data, shape.size(), shape.data(), obj,
                                                strides.data(), dt, kDLCUDA, dev.index))
          : nb::cast(nb::ndarray<nb::array_api, nb::ro>(data, shape.size(), shape.data(), obj,
                                                        strides.data(), dt, kDLCUDA,
                                                        dev.index));
  if (versioned) return tensor.attr("__dlpack__")(nb::arg("max_version") = nb::make_tuple(1, 0));
  return tensor.attr("__dlpack__")();
}

// An array over the CUDA memory a DLPack capsule describes, which the capsule's producer
// keeps alive until the array lets go.
nb::object import_dlpack(nb::handle capsule, nb::handle owner, const char* api) {
  nb::ndarray<> tensor;
  bool readonly = false;
  if (!nb::try_cast(capsule, tensor)) {
    nb::ndarray<nb::ro> frozen;
    if (!nb::try_cast(capsule, frozen)) {
      throw TypeError(std::string("[") + api + "] not a DLPack capsule tessera can read (or "
                      "one already consumed)");
    }
    tensor = nb::ndarray<>(frozen);
    readonly = true;
  }
  if (tensor.device_type() != kDLCUDA) {
    throw nb::buffer_error((std::string("[") + api + "] the capsule is for DLPack device type " +
                            std::to_string(tensor.device_type()) + ", not CUDA")
                               .c_str());
  }
  const int device = tensor.device_id();
  if (device < 0 || device >= cuda::device_count()) {
    throw nb::buffer_error((std::string("[") + api + "] the capsule is for cuda:" +
                            std::to_string(device) + ", which this machine does not have")
                               .c_str());
  }
  const DType dtype = dtype_of(tensor.dtype(), api);
  const int64_t itemsize = dtype_info(dtype).itemsize;
  Dims shape, strides;
  for (size_t i = 0; i < tensor.ndim(); ++i) {
    shape.push_back(static_cast<int64_t>(tensor.shape(i)));
    strides.push_back(tensor.stride(i) * itemsize);
  }
  if (shape.product() == 0) return wrap(Array::empty(shape, dtype, Device::cuda(device)));
  // The capsule's deleter may run Python code of its producer: drop it with the GIL held.
  auto* held = new nb::ndarray<>(std::move(tensor));
  void* first = held->data();
  Array a = Array::over_memory(Device::cuda(device), first, dtype, shape, strides,
                               std::shared_ptr<void>(held, [](void* p) {
                                 nb::gil_scoped_acquire gil;
                                 delete static_cast<nb::ndarray<>*>(p);
                               }));
  a.set_writeable(!readonly);
  return nb::cast(NdArray{std::move(a), nb::borrow(owner)});
}

}  // namespace

void bind_cuda_exchange(nb::module_& m, nb::class_<NdArray>& cls) {
  cls.def_prop_ro("__cuda_array_interface__", &export_interface,
                  "The CUDA array interface (version 3) of a CUDA array: no copy; 'stream' "
                  "is the current stream, where the array's pending work is queued.");
  m.def("_from_cuda_interface", [](nb::handle obj, const std::string& api) {
    return nb::cast(NdArray{import_interface(obj, api.c_str()), nb::borrow(obj)});
  }, nb::arg("obj"), nb::arg("api"));
  m.def("_dlpack_export", &export_dlpack, nb::arg("array"), nb::arg("stream").none(),
        nb::arg("versioned"));
  m.def("_dlpack_import", [](nb::handle capsule, nb::handle owner, const std::string& api) {
    return import_dlpack(capsule, owner, api.c_str());
  }, nb::arg("capsule"), nb::arg("owner"), nb::arg("api"));
}

}  // namespace tessera::py
