#pragma once
// The Python object behind tessera.ndarray: an engine Array plus NumPy's `base` (the array
// whose memory a view shares), which only the Python side can know.

#include <nanobind/nanobind.h>

#include <string_view>
#include <type_traits>
#include <utility>

#include "tessera/array.h"
#include "tessera/ufunc.h"

namespace tessera::py {

namespace nb = nanobind;

struct NdArray {
  Array array;
  nb::object base;  // None when this array owns its memory
};

// A new Python array owning `a`.
nb::object wrap(Array a);
// A Python view of `parent`'s memory; its base is parent's base, or parent itself.
nb::object wrap_view(Array a, nb::handle parent);
// A CPU array over the memory of a host object with the buffer protocol (a NumPy array of
// a supported dtype, native byte order, aligned); it keeps the object alive. Zero-copy.
Array array_from_host(nb::handle obj, const char* api);
// The array inside a Python tessera.ndarray (TypeError if `obj` is not one).
NdArray& unwrap(nb::handle obj);
bool is_ndarray(nb::handle obj);
// The array inside `obj`, or nullptr when it is not an (initialized) tessera.ndarray.
NdArray* as_ndarray(nb::handle obj);

// `a` on the current device when that is another CUDA device than a's (copied device to
// device), else `a`: copy() and astype() make their copies there, as CuPy's do.
Array on_current_cuda_device(const Array& a);

// Delivers the floating-point errors of computations that ran without the GIL (they
// could not warn then); called as the GIL is taken back.
void report_deferred_fp_events();

// Runs `f` with the GIL released: for calls that move or compute data.
template <typename F>
auto without_gil(F&& f) {
  if constexpr (std::is_void_v<decltype(f())>) {
    {
      nb::gil_scoped_release release;
      f();
    }
    report_deferred_fp_events();
  } else {
    auto result = [&] {
      nb::gil_scoped_release release;
      return f();
    }();
    report_deferred_fp_events();
    return result;
  }
}

// Whether a call on `a` is worth releasing the GIL for: a large array, or any array of a
// CUDA device (whose calls may wait on a stream, and a stream's host callbacks take the
// GIL). Small work on the CPU takes less time than releasing and re-taking the GIL.
inline bool worth_releasing_gil(const Array& a) {
  return !a.device().is_cpu() || a.size() >= (int64_t{1} << 15);
}

// `f()`, with the GIL released when `release`.
template <typename F>
auto without_gil_if(bool release, F&& f) {
  return release ? without_gil(std::forward<F>(f)) : f();
}

// The key as basic items when every part of it is a Python int, a slice, None or `...`
// (t[1], t[1:-1, ::2]: the keys of users' loops); false when some part needs the general
// parse.
bool plain_basic_key(nb::handle key, std::vector<IndexItem>& items);
// `a[items] = value` when `items` are an integer for each dimension and `value` a Python
// number the element's dtype holds exactly (`t[i] = 1.0`, without a NumPy conversion and a
// copy): stored, and true. False, with nothing stored, for everything else (values NumPy
// would warn about and read-only targets too), which the general assignment takes.
bool store_exact_element(const Array& a, const std::vector<IndexItem>& items, nb::handle value);

// tessera.ndarray's protocol slots for indexing, len(), float(), int() and bool(), given to
// the type when it is made (ndarray_slots.cpp); find_slot_fallbacks, once every method is
// bound, finds the general methods their fast paths hand the rest to.
PyType_Slot* ndarray_slots();
void find_slot_fallbacks(nb::class_<NdArray>& cls);

void bind_ndarray(nb::module_& m);
void bind_indexing(nb::class_<NdArray>& cls);
void bind_creation(nb::module_& m);
void bind_runtime(nb::module_& m);
void bind_cuda(nb::module_& m);
void bind_errstate(nb::module_& m);
void bind_ufuncs(nb::module_& m, nb::class_<NdArray>& array_class);
void bind_cuda_exchange(nb::module_& m, nb::class_<NdArray>& array_class);
void bind_reductions(nb::module_& m);
void bind_reduction_methods(nb::class_<NdArray>& cls);
void bind_sorting(nb::module_& m);
void bind_jit(nb::module_& m);
void bind_user_kernels(nb::module_& m);
void bind_linalg(nb::module_& m);
void bind_fft(nb::module_& m);
void bind_random(nb::module_& m);
void bind_index_functions(nb::module_& m);

// A ufunc argument as the engine takes it: Python numbers weak (NEP 50), NumPy scalars
// typed, arrays and lists as arrays on `device`; TypeError naming `api` otherwise.
Operand to_operand_or_raise(nb::handle obj, Device device, std::string_view api);

// A where= mask as NumPy converts it: an array must be boolean (the engine checks, raising
// TypeError), anything else (lists, Python and NumPy scalars, None) is converted to bool
// element by element, as numpy.asarray(obj, dtype=bool) does.
Operand where_mask_operand(nb::handle obj, Device device, std::string_view api);

}  // namespace tessera::py
