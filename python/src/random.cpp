// The engine's Generator for tessera/random/. The Python layer turns NumPy's arguments
// (size, dtype, array parameters) into shapes and arrays; these draw.

#include "convert.h"
#include "ndarray.h"
#include "tessera/random.h"

namespace tessera::py {

void bind_random(nb::module_& m) {
  nb::class_<Generator>(m, "_Generator")
      .def(nb::init<uint64_t>())
      .def(nb::init<uint64_t, uint64_t>())
      .def_prop_ro("key", &Generator::key)
      .def_prop_ro("calls", &Generator::calls)
      .def("random", [](Generator& g, nb::handle shape, nb::handle dtype) {
        const Dims s = to_shape(shape, "random");
        const DType t = to_dtype(dtype, DType::Float64, "random");
        return wrap(without_gil([&] { return g.random(s, t, current_device()); }));
      })
      .def("standard_normal", [](Generator& g, nb::handle shape, nb::handle dtype) {
        const Dims s = to_shape(shape, "standard_normal");
        const DType t = to_dtype(dtype, DType::Float64, "standard_normal");
        return wrap(without_gil([&] { return g.standard_normal(s, t, current_device()); }));
      })
      .def("standard_exponential", [](Generator& g, nb::handle shape, nb::handle dtype) {
        const Dims s = to_shape(shape, "standard_exponential");
        const DType t = to_dtype(dtype, DType::Float64, "standard_exponential");
        return wrap(without_gil([&] { return g.standard_exponential(s, t, current_device()); }));
      })
      .def("integers", [](Generator& g, uint64_t low, uint64_t range, nb::handle shape,
                          nb::handle dtype) {
        const Dims s = to_shape(shape, "integers");
        const DType t = to_dtype(dtype, DType::Int64, "integers");
        return wrap(without_gil([&] { return g.integers(low, range, s, t, current_device()); }));
      })
      .def("standard_gamma", [](Generator& g, nb::handle shape) {
        const Array& a = unwrap(shape).array;
        return wrap(without_gil([&] { return g.standard_gamma(a); }));
      })
      .def("poisson", [](Generator& g, nb::handle lam) {
        const Array& a = unwrap(lam).array;
        return wrap(without_gil([&] { return g.poisson(a); }));
      })
      .def("binomial", [](Generator& g, nb::handle n, nb::handle p) {
        const Array& a = unwrap(n).array;
        const Array& b = unwrap(p).array;
        return wrap(without_gil([&] { return g.binomial(a, b); }));
      });
}

}  // namespace tessera::py
