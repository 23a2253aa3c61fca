// Linear algebra bindings. The Python layer (tessera/linalg/, tessera/_products.py) turns
// arguments into tessera arrays and handles NumPy's argument forms; these take arrays.

#include "convert.h"
#include "ndarray.h"
#include "tessera/linalg.h"

namespace tessera::py {

void bind_linalg(nb::module_& m) {
  m.def("_matmul", [](nb::handle x, nb::handle y, nb::handle dtype, nb::handle out,
                      nb::handle casting) {
    const Array& a = unwrap(x).array;
    const Array& b = unwrap(y).array;
    std::optional<DType> work;
    if (!dtype.is_none()) work = to_dtype(dtype, DType::Float64, "matmul");
    std::optional<Array> dst;
    if (!out.is_none()) dst = unwrap(out).array;
    const Casting rule = to_casting(casting, "matmul");
    Array r = without_gil([&] { return matmul(a, b, work, dst, rule); });
    return out.is_none() ? wrap(std::move(r)) : nb::borrow(out);
  }, nb::arg("x"), nb::arg("y"), nb::arg("dtype").none(), nb::arg("out").none(),
     nb::arg("casting"));

  m.def("_lu_factor", [](nb::handle a) {
    const Array& x = unwrap(a).array;
    LuFactors f = without_gil([&] { return lu_factor(x); });
    return nb::make_tuple(wrap(std::move(f.lu)), wrap(std::move(f.pivots)));
  });
  m.def("_solve", [](nb::handle a, nb::handle b) {
    const Array& x = unwrap(a).array;
    const Array& y = unwrap(b).array;
    return wrap(without_gil([&] { return solve(x, y); }));
  });
  m.def("_cholesky", [](nb::handle a, bool upper) {
    const Array& x = unwrap(a).array;
    return wrap(without_gil([&] { return cholesky(x, upper); }));
  });
  m.def("_qr", [](nb::handle a, bool compute_q, bool complete) {
    const Array& x = unwrap(a).array;
    auto [f, q] = without_gil([&] {
      QrFactors factors = qr_factor(x);
      Array q = compute_q ? qr_q(factors, complete) : Array();
      return std::make_pair(factors, q);
    });
    nb::object q_obj = q.valid() ? wrap(std::move(q)) : nb::none();
    return nb::make_tuple(wrap(std::move(f.a)), wrap(std::move(f.tau)), q_obj);
  });
  m.def("_svd", [](nb::handle a, bool full_matrices, bool compute_uv) {
    const Array& x = unwrap(a).array;
    Svd r = without_gil([&] { return svd(x, full_matrices, compute_uv); });
    if (!compute_uv) return nb::make_tuple(wrap(std::move(r.s)));
    return nb::make_tuple(wrap(std::move(r.u)), wrap(std::move(r.s)), wrap(std::move(r.vh)));
  });
  m.def("_eigh", [](nb::handle a, bool upper, bool vectors) {
    const Array& x = unwrap(a).array;
    Eigen r = without_gil([&] { return eigh(x, upper, vectors); });
    if (!vectors) return nb::make_tuple(wrap(std::move(r.w)));
    return nb::make_tuple(wrap(std::move(r.w)), wrap(std::move(r.v)));
  });
  m.def("_eig", [](nb::handle a, bool vectors) {
    const Array& x = unwrap(a).array;
    Eigen r = without_gil([&] { return eig(x, vectors); });
    if (!vectors) return nb::make_tuple(wrap(std::move(r.w)));
    return nb::make_tuple(wrap(std::move(r.w)), wrap(std::move(r.v)));
  });
  m.def("_lstsq", [](nb::handle a, nb::handle b, double rcond) {
    const Array& x = unwrap(a).array;
    const Array& y = unwrap(b).array;
    Lstsq r = without_gil([&] { return lstsq(x, y, rcond); });
    return nb::make_tuple(wrap(std::move(r.x)), wrap(std::move(r.rank)), wrap(std::move(r.s)));
  });
  m.def("_linalg_dtype", [](nb::handle dtype, const char* api) {
    return to_numpy_dtype(linalg_dtype(to_dtype(dtype, DType::Float64, api), api));
  });
}

}  // namespace tessera::py
