// FFT bindings. The Python layer (tessera/fft/) handles NumPy's n=, s=, axes= and norm=;
// these take tessera arrays and non-negative, distinct axes.

#include <nanobind/stl/vector.h>

#include "convert.h"
#include "ndarray.h"
#include "tessera/fft.h"

namespace tessera::py {

void bind_fft(nb::module_& m) {
  m.def("_fft_c2c", [](nb::handle a, std::vector<int> axes, bool forward) {
    const Array& x = unwrap(a).array;
    return wrap(without_gil([&] { return fft_c2c(x, axes, forward); }));
  });
  m.def("_fft_r2c", [](nb::handle a, std::vector<int> axes) {
    const Array& x = unwrap(a).array;
    return wrap(without_gil([&] { return fft_r2c(x, axes); }));
  });
  m.def("_fft_c2r", [](nb::handle a, std::vector<int> axes, int64_t n_last) {
    const Array& x = unwrap(a).array;
    return wrap(without_gil([&] { return fft_c2r(x, axes, n_last); }));
  });
}

}  // namespace tessera::py
