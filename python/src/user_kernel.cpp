// tessera._core._ElementwiseKernel and _ReductionKernel: CuPy's user kernels
// (tessera/user_kernel.h); python/tessera/_user_kernels.py gives them CuPy's signatures.

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "convert.h"
#include "ndarray.h"
#include "tessera/errors.h"
#include "tessera/user_kernel.h"

namespace tessera::py {
namespace {

// An argument as the engine takes it: a tessera array, a NumPy array (a CPU array over its
// memory, written in place when it is an output), or a number (a Python number in NumPy's
// type for it, a NumPy scalar in its dtype); the parameter's type converts it.
KernelArg kernel_arg(nb::handle obj, const std::string& api, size_t index) {
  if (NdArray* a = as_ndarray(obj)) return a->array;
  PyObject* o = obj.ptr();
  if (PyBool_Check(o)) return Scalar(o == Py_True);
  if (PyLong_Check(o)) return Scalar(int64_t{to_int64(obj, api.c_str(), "argument")});
  if (PyFloat_Check(o)) return Scalar(PyFloat_AsDouble(o));
  if (PyComplex_Check(o)) {
    return Scalar(std::complex<double>(PyComplex_RealAsDouble(o), PyComplex_ImagAsDouble(o)));
  }
  nb::module_& np = numpy();
  if (nb::isinstance(obj, np.attr("ndarray"))) return array_from_host(obj, api.c_str());
  if (nb::isinstance(obj, np.attr("generic"))) {
    const Array a = array_from_host(np.attr("asarray")(obj), api.c_str());
    return Scalar(a.dtype(), a.data());
  }
  throw TypeError("[" + api + "] argument " + std::to_string(index) + " is a " +
                  nb::inst_name(obj).c_str() + "; a kernel takes arrays and numbers");
}

std::vector<KernelArg> kernel_args(nb::sequence args, const std::string& api) {
  std::vector<KernelArg> out;
  size_t index = 0;
  for (nb::handle a : args) out.push_back(kernel_arg(a, api, index++));
  return out;
}

LaunchOptions launch_options(int block_size, std::optional<int> stream_device,
                             uintptr_t stream_handle) {
  LaunchOptions o;
  o.block_size = block_size;
  if (stream_device) o.stream = Stream(Device::cuda(*stream_device), stream_handle);
  return o;
}

nb::list wrap_all(std::vector<Array> arrays) {
  nb::list out;
  for (Array& a : arrays) out.append(wrap(std::move(a)));
  return out;
}

}  // namespace

void bind_user_kernels(nb::module_& m) {
  nb::class_<ElementwiseKernel>(m, "_ElementwiseKernel")
      .def("__init__", [](ElementwiseKernel* self, const std::string& in, const std::string& out,
                          std::string operation, std::string name, bool reduce_dims,
                          std::string preamble, std::string loop_prep, std::string after_loop,
                          std::vector<std::string> options) {
        new (self) ElementwiseKernel(in, out, std::move(operation), std::move(name), reduce_dims,
                                     {std::move(preamble), std::move(loop_prep),
                                      std::move(after_loop)},
                                     std::move(options));
      })
      .def("__call__", [](const ElementwiseKernel& k, nb::sequence args,
                          std::optional<int64_t> size, int block_size,
                          std::optional<int> stream_device, uintptr_t stream_handle) {
        std::vector<KernelArg> a = kernel_args(args, "ElementwiseKernel " + k.name());
        const bool outputs_given = a.size() == static_cast<size_t>(k.nin() + k.nout());
        std::vector<Array> outs = without_gil([&] {
          return k(std::move(a), size, launch_options(block_size, stream_device, stream_handle));
        });
        // Outputs the caller gave are returned as the caller's own objects (Python side):
        // no wrapper is made for them.
        return outputs_given ? nb::object(nb::none()) : nb::object(wrap_all(std::move(outs)));
      }, nb::arg("args"), nb::arg("size").none(), nb::arg("block_size"),
         nb::arg("stream_device").none(), nb::arg("stream_handle"))
      .def("source", [](const ElementwiseKernel& k, nb::sequence args,
                        std::optional<int64_t> size) {
        return k.source_for(kernel_args(args, "ElementwiseKernel " + k.name()), size);
      }, nb::arg("args"), nb::arg("size").none())
      .def_prop_ro("nin", &ElementwiseKernel::nin)
      .def_prop_ro("nout", &ElementwiseKernel::nout);

  nb::class_<ReductionKernel>(m, "_ReductionKernel")
      .def("__init__", [](ReductionKernel* self, const std::string& in, const std::string& out,
                          std::string map_expr, std::string reduce_expr,
                          std::string post_map_expr, std::optional<std::string> identity,
                          std::string name, std::optional<std::string> reduce_type,
                          bool reduce_dims, std::string preamble,
                          std::vector<std::string> options) {
        new (self) ReductionKernel(in, out, std::move(map_expr), std::move(reduce_expr),
                                   std::move(post_map_expr), std::move(identity),
                                   std::move(name), std::move(reduce_type), reduce_dims,
                                   std::move(preamble), std::move(options));
      }, nb::arg("in_params"), nb::arg("out_params"), nb::arg("map_expr"),
         nb::arg("reduce_expr"), nb::arg("post_map_expr"), nb::arg("identity").none(),
         nb::arg("name"), nb::arg("reduce_type").none(), nb::arg("reduce_dims"),
         nb::arg("preamble"), nb::arg("options"))
      .def("__call__", [](const ReductionKernel& k, nb::sequence inputs, nb::sequence outputs,
                          std::optional<std::vector<int>> axes, bool keepdims,
                          std::optional<int> stream_device, uintptr_t stream_handle) {
        const std::string api = "ReductionKernel " + k.name();
        std::vector<KernelArg> in = kernel_args(inputs, api);
        std::vector<Array> out;
        for (const KernelArg& a : kernel_args(outputs, api)) {
          if (!std::holds_alternative<Array>(a)) {
            throw TypeError("[" + api + "] Output arguments type must be an array");
          }
          out.push_back(std::get<Array>(a));
        }
        return wrap_all(without_gil([&] {
          return k(std::move(in), std::move(out), axes, keepdims,
                   launch_options(128, stream_device, stream_handle));
        }));
      }, nb::arg("inputs"), nb::arg("outputs"), nb::arg("axes").none(), nb::arg("keepdims"),
         nb::arg("stream_device").none(), nb::arg("stream_handle"))
      .def_prop_ro("nin", &ReductionKernel::nin)
      .def_prop_ro("nout", &ReductionKernel::nout);
}

}  // namespace tessera::py
