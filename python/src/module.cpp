// tessera._core: the engine's Python binding.

#include <nanobind/nanobind.h>

#include "convert.h"
#include "backend/cuda/nvrtc.h"
#include "ndarray.h"
#include "tessera/errors.h"

namespace nb = nanobind;

namespace tessera::py {
namespace {

// Engine exceptions become the Python exceptions NumPy raises for the same mistake.
void translate_exception(const std::exception_ptr& p, void*) {
  try {
    std::rethrow_exception(p);
  } catch (const AxisError& e) {
    nb::object cls = numpy().attr("exceptions").attr("AxisError");
    PyErr_SetObject(cls.ptr(), nb::str(e.what()).ptr());
  } catch (const LinAlgError& e) {
    nb::object cls = numpy().attr("linalg").attr("LinAlgError");
    PyErr_SetObject(cls.ptr(), nb::str(e.what()).ptr());
  } catch (const TypeError& e) {
    PyErr_SetString(PyExc_TypeError, e.what());
  } catch (const ValueError& e) {
    PyErr_SetString(PyExc_ValueError, e.what());
  } catch (const IndexError& e) {
    PyErr_SetString(PyExc_IndexError, e.what());
  } catch (const NotImplementedError& e) {
    PyErr_SetString(PyExc_NotImplementedError, e.what());
  } catch (const OverflowError& e) {
    PyErr_SetString(PyExc_OverflowError, e.what());
  } catch (const DeviceOutOfMemoryError& e) {
    nb::object cls = nb::module_::import_("tessera.cuda").attr("OutOfMemoryError");
    PyErr_SetObject(cls.ptr(), nb::str(e.what()).ptr());
  } catch (const OutOfMemoryError& e) {
    PyErr_SetString(PyExc_MemoryError, e.what());
  } catch (const CudaRuntimeError& e) {
    nb::object cls = nb::module_::import_("tessera.cuda").attr("CUDARuntimeError");
    PyErr_SetObject(cls.ptr(), nb::str(e.what()).ptr());
  } catch (const cuda::CompileError& e) {
    nb::object cls = nb::module_::import_("tessera.cuda.compiler").attr("CompileException");
    PyErr_SetObject(cls.ptr(), nb::make_tuple(nb::str(e.what()), nb::str(e.log().c_str()),
                                              nb::str(e.source().c_str()))
                                   .ptr());
  } catch (const FloatingPointError& e) {
    PyErr_SetString(PyExc_FloatingPointError, e.what());
  }
}

}  // namespace
}  // namespace tessera::py

NB_MODULE(_core, m) {
  using namespace tessera::py;
  nb::register_exception_translator(&translate_exception);
  bind_runtime(m);
  bind_cuda(m);
  bind_errstate(m);
  bind_ndarray(m);
  bind_creation(m);
  bind_jit(m);
  bind_user_kernels(m);
}
