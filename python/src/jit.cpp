// Python functions compiled by tessera.jit: the IR text from the Python front end
// (python/tessera/jit/) rendered as host C++ (jit/render_python.h), compiled, loaded, and
// called with its arguments packed as 8-byte words.
//
// The call path is here, in C++, because it runs on every call (Numba's dispatcher is C
// too): the arguments' type key, the lookup of the compiled specialization, the packing of
// the words and the conversion of the result cost well under a microsecond. Compiling a new
// specialization is the Python front end's work; it registers the entry under the key.

#include <nanobind/stl/string.h>

#include <bit>
#include <algorithm>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

#include "backend/cpu/parallel.h"
#include "core/user_ufunc.h"
#include "jit/host_compiler.h"
#include "jit/host_function.h"
#include "jit/host_services.h"
#include "jit/render_python.h"
#include "jit/render_python_body.h"
#include "jit/python_raise.h"
#include "jit/sha256.h"
#include "convert.h"
#include "ndarray.h"
#include "tessera/errors.h"
#include "tessera/linalg.h"
#include "tessera/scalar.h"

namespace tessera::py {
namespace {

// NumPy's contiguity flags from a shape and byte strides (its _UpdateContiguousFlags: axes
// of length 1 do not count, an empty array is both).
void contiguity(int ndim, const int64_t* shape, const int64_t* strides, int64_t itemsize,
                bool* c, bool* f) {
  *c = *f = true;
  int64_t expected = itemsize;
  for (int d = ndim - 1; d >= 0; --d) {
    if (shape[d] == 0) return;
    if (shape[d] != 1) {
      if (strides[d] != expected) *c = false;
      expected *= shape[d];
    }
  }
  expected = itemsize;
  for (int d = 0; d < ndim; ++d) {
    if (shape[d] != 1) {
      if (strides[d] != expected) *f = false;
      expected *= shape[d];
    }
  }
}

char layout_code(bool c, bool f) { return c ? 'C' : f ? 'F' : 'A'; }

// A returned tuple's shape: its leaves (numbers and arrays, depth first) and, in preorder,
// each node: a leaf's index, or -1 - n for a tuple of n items.
struct Entry {
  uintptr_t address = 0;
  std::vector<DType> result;  // one dtype, or a tuple's leaves'
  // A tuple's leaves: the number of dimensions of each (-1 for a number) and where in the
  // result buffer it lies (a number in a 16-byte slot, an array as its words rounded up to
  // 16 bytes: the layout jit/render_python.cpp writes).
  std::vector<int> item_ndim;
  std::vector<size_t> item_offset;
  std::vector<int> tuple_nodes;
  bool returns_tuple = false;
  int returns_array_ndim = -1;  // a new array: its data, shape and strides as words
  bool returns_nothing = false;
  int returns_argument = -1;
  bool release_gil = false;  // jit(nogil=True): other Python threads run meanwhile
};

// The most leaves a returned tuple may have (the result buffer's 16-byte slots).
constexpr size_t kMostResultItems = 64;
constexpr size_t kResultBytes = 16 * kMostResultItems;

// What tessera.jit.Dispatcher keeps in C++: its specializations by the arguments' type key.
class HostDispatcher {
 public:
  // Python scalar types (NumPy's) and their dtypes, registered once from Python.
  static std::unordered_map<PyTypeObject*, DType>& scalar_types() {
    static auto* types = new std::unordered_map<PyTypeObject*, DType>();
    return *types;
  }

  // The key of `args`' types, appending their words to `words` when given; false when an
  // argument is of no type a specialization takes (the Python front end then says why).
  static bool key_of(nb::handle args_tuple, std::string& key, std::vector<uint64_t>* words) {
    PyObject* args = args_tuple.ptr();
    const Py_ssize_t n = PyTuple_GET_SIZE(args);
    for (Py_ssize_t i = 0; i < n; ++i) {
      if (!value_key(PyTuple_GET_ITEM(args, i), key, words)) return false;
      key += ';';
    }
    return true;
  }

  void add(const std::string& key, uintptr_t address, const std::string& result,
           int returns_argument, bool release_gil) {
    Entry e;
    e.address = address;
    e.release_gil = release_gil;
    e.returns_nothing = result == "none";
    e.returns_tuple = result.rfind("tuple:", 0) == 0;
    if (result.rfind("array:", 0) == 0) {
      const size_t colon = result.find(':', 6);
      e.result.push_back(jit::python_ir::dtype_named(result.substr(6, colon - 6)));
      e.returns_array_ndim = std::stoi(result.substr(colon + 1));
    } else if (e.returns_tuple) {
      size_t at = 6, offset = 0;
      parse_tuple_items(result, at, '\0', e, offset);
      if (e.result.size() > kMostResultItems || offset > kResultBytes) {
        throw std::invalid_argument("[jit] a function returns a tuple of more than " +
                                    std::to_string(kResultBytes) + " bytes (" +
                                    std::to_string(e.result.size()) + " numbers and arrays)");
      }
    } else if (!e.returns_nothing) {
      e.result.push_back(jit::python_ir::dtype_named(result));
    }
    e.returns_argument = returns_argument;
    entries_[key] = e;
  }

  // The call, or None (the object `miss`) when no specialization has the arguments' key.
  // The call of the specialization for the arguments' types; a null object when there is
  // none yet.
  nb::object try_call(nb::handle args) {
    key_.clear();
    words_.clear();
    if (!key_of(args, key_, &words_)) return {};
    const auto it = entries_.find(key_);
    if (it == entries_.end()) return {};
    const Entry& e = it->second;
    using Function = int (*)(const void*, void*);
    alignas(16) unsigned char result[kResultBytes];  // holds 2 * 32 + 1 words too
    words_.push_back(0);  // never empty
    const auto run = [&] { return reinterpret_cast<Function>(e.address)(words_.data(), result); };
    // As Numba's: the GIL stays held unless the function was compiled with nogil=True
    // (releasing it costs more than a small function's whole call).
    const int code = e.release_gil ? without_gil(run) : run();
    if (code != 0) raise_python(code);
    if (e.returns_array_ndim >= 0) return new_array(e.result[0], e.returns_array_ndim, result);
    if (e.returns_argument >= 0) return nb::borrow(args[static_cast<size_t>(e.returns_argument)]);
    if (e.returns_nothing) return nb::none();
    if (!e.returns_tuple) return python_number(e.result[0], result);
    size_t node = 0;
    return returned_tuple(e, result, node);
  }

 private:

  // Items of a result's tuple, as dispatcher.py's _result_code writes them (a dtype name,
  // array:<dtype>:<ndim>, a tuple's items in parentheses), separated by commas, from `at`
  // up to `end`: their leaves and nodes appended to `e`, `offset` past their slots.
  static void parse_tuple_items(const std::string& text, size_t& at, char end, Entry& e,
                                size_t& offset) {
    const size_t node = e.tuple_nodes.size();
    e.tuple_nodes.push_back(-1);
    int count = 0;
    while (at < text.size() && text[at] != end) {
      if (text[at] == '(') {
        ++at;
        parse_tuple_items(text, at, ')', e, offset);
        ++at;  // the ')'
      } else {
        const size_t stop = std::min({text.find(',', at), text.find(')', at), text.size()});
        std::string item = text.substr(at, stop - at);
        at = stop;
        int ndim = -1;
        if (item.rfind("array:", 0) == 0) {  // array:<dtype>:<ndim>
          const size_t colon = item.find(':', 6);
          ndim = std::stoi(item.substr(colon + 1));
          item = item.substr(6, colon - 6);
        }
        e.tuple_nodes.push_back(static_cast<int>(e.result.size()));
        e.result.push_back(jit::python_ir::dtype_named(item));
        e.item_ndim.push_back(ndim);
        e.item_offset.push_back(offset);
        offset += ndim < 0 ? 16 : (8 * (1 + 2 * static_cast<size_t>(ndim)) + 15) / 16 * 16;
      }
      ++count;
      if (at < text.size() && text[at] == ',') ++at;
    }
    e.tuple_nodes[node] = -1 - count;
  }

  // The Python value of the result's node `node` (advanced past it and its items).
  static nb::object returned_tuple(const Entry& e, const unsigned char* result, size_t& node) {
    const int code = e.tuple_nodes[node++];
    if (code >= 0) {
      const unsigned char* item = result + e.item_offset[code];
      return e.item_ndim[code] < 0 ? python_number(e.result[code], item)
                                   : new_array(e.result[code], e.item_ndim[code], item);
    }
    PyObject* t = PyTuple_New(-1 - code);
    if (t == nullptr) throw nb::python_error();
    nb::object owner = nb::steal(t);
    for (int i = 0; i < -1 - code; ++i) {
      PyTuple_SET_ITEM(t, i, returned_tuple(e, result, node).release().ptr());
    }
    return owner;
  }

  // A number, an array, or a plain tuple of them: its key appended to `key` (a tuple's in
  // parentheses), its words, depth first, to `words`.
  static bool value_key(PyObject* a, std::string& key, std::vector<uint64_t>* words) {
    if (!PyTuple_CheckExact(a)) return scalar_key(a, key, words) || array_key(a, key, words);
    key += '(';
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(a); ++i) {
      if (!value_key(PyTuple_GET_ITEM(a, i), key, words)) return false;
      key += ',';
    }
    key += ')';
    return true;
  }

  static bool scalar_key(PyObject* a, std::string& key, std::vector<uint64_t>* words) {
    if (PyBool_Check(a)) {
      key += "?";
      if (words) words->push_back(a == Py_True ? 1 : 0);
      return true;
    }
    if (PyLong_CheckExact(a)) {
      int overflow = 0;
      const long long v = PyLong_AsLongLongAndOverflow(a, &overflow);
      if (!overflow) {
        key += "q";
        if (words) words->push_back(static_cast<uint64_t>(v));
        return true;
      }
      const unsigned long long u = PyLong_AsUnsignedLongLong(a);
      if (PyErr_Occurred()) {
        PyErr_Clear();
        return false;
      }
      key += "Q";
      if (words) words->push_back(u);
      return true;
    }
    if (PyFloat_CheckExact(a)) {
      key += "d";
      if (words) words->push_back(std::bit_cast<uint64_t>(PyFloat_AS_DOUBLE(a)));
      return true;
    }
    if (PyComplex_CheckExact(a)) {
      key += "D";
      if (words) {
        words->push_back(std::bit_cast<uint64_t>(PyComplex_RealAsDouble(a)));
        words->push_back(std::bit_cast<uint64_t>(PyComplex_ImagAsDouble(a)));
      }
      return true;
    }
    const auto it = scalar_types().find(Py_TYPE(a));
    if (it == scalar_types().end()) return false;
    // A NumPy scalar: its value through the buffer protocol (0-d, its own dtype).
    Py_buffer view;
    if (PyObject_GetBuffer(a, &view, PyBUF_SIMPLE) != 0) {
      PyErr_Clear();
      return false;
    }
    key += "s" + std::to_string(static_cast<int>(it->second));
    if (words) push_scalar(it->second, view.buf, *words);
    PyBuffer_Release(&view);
    return true;
  }

  // A scalar of `dtype` at `p` as the entry point reads it: integers and bools as int64
  // (uint64 as its bits), floats as double, complex as two doubles.
  static void push_scalar(DType dtype, const void* p, std::vector<uint64_t>& words) {
    const auto push_double = [&](double v) { words.push_back(std::bit_cast<uint64_t>(v)); };
    switch (dtype) {
      case DType::Bool: words.push_back(*static_cast<const bool*>(p)); break;
      case DType::Int8: words.push_back(static_cast<uint64_t>(*static_cast<const int8_t*>(p))); break;
      case DType::Int16: words.push_back(static_cast<uint64_t>(*static_cast<const int16_t*>(p))); break;
      case DType::Int32: words.push_back(static_cast<uint64_t>(*static_cast<const int32_t*>(p))); break;
      case DType::Int64: words.push_back(static_cast<uint64_t>(*static_cast<const int64_t*>(p))); break;
      case DType::UInt8: words.push_back(*static_cast<const uint8_t*>(p)); break;
      case DType::UInt16: words.push_back(*static_cast<const uint16_t*>(p)); break;
      case DType::UInt32: words.push_back(*static_cast<const uint32_t*>(p)); break;
      case DType::UInt64: words.push_back(*static_cast<const uint64_t*>(p)); break;
      case DType::Float32: push_double(*static_cast<const float*>(p)); break;
      case DType::Float64: push_double(*static_cast<const double*>(p)); break;
      case DType::Complex64: {
        const auto z = *static_cast<const std::complex<float>*>(p);
        push_double(z.real());
        push_double(z.imag());
        break;
      }
      case DType::Complex128: {
        const auto z = *static_cast<const std::complex<double>*>(p);
        push_double(z.real());
        push_double(z.imag());
        break;
      }
      default: push_double(Scalar(dtype, p).to_double()); break;  // float16
    }
  }

  static bool array_key(PyObject* a, std::string& key, std::vector<uint64_t>* words) {
    // NumPy's arrays first, by their exact type (the common case, and the cheap test).
    static PyTypeObject* const numpy_array =
        reinterpret_cast<PyTypeObject*>(numpy().attr("ndarray").ptr());
    if (Py_TYPE(a) != numpy_array) {
      if (const NdArray* t = as_ndarray(nb::handle(a))) return tessera_array_key(t->array, key, words);
      if (!PyObject_CheckBuffer(a)) return false;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(a, &view, PyBUF_RECORDS_RO) != 0) {
      PyErr_Clear();
      return false;
    }
    if (view.ndim > 64) {
      PyBuffer_Release(&view);
      return false;
    }
    int64_t shape[64], strides[64];
    for (int d = 0; d < view.ndim; ++d) {
      shape[d] = view.shape[d];
      strides[d] = view.strides[d];
    }
    bool c, f;
    contiguity(view.ndim, shape, strides, view.itemsize, &c, &f);
    // B, the buffer's format, its item size and dimensions (as characters), the layout and
    // the writability: enough to tell every specialization apart.
    key += 'B';
    key += view.format ? view.format : "B";
    key += ',';
    key += static_cast<char>('0' + view.itemsize);
    key += static_cast<char>('0' + view.ndim);
    key += layout_code(c, f);
    key += view.readonly ? 'r' : 'w';
    if (words) {
      words->push_back(reinterpret_cast<uint64_t>(view.buf));
      for (int d = 0; d < view.ndim; ++d) words->push_back(static_cast<uint64_t>(shape[d]));
      for (int d = 0; d < view.ndim; ++d) words->push_back(static_cast<uint64_t>(strides[d]));
    }
    PyBuffer_Release(&view);  // the caller's tuple keeps the object, so its memory, alive
    return true;
  }

  static bool tessera_array_key(const Array& x, std::string& key, std::vector<uint64_t>* words) {
    if (!x.device().is_cpu()) return false;
    const bool c = x.is_c_contiguous(), f = x.is_f_contiguous();
    key += "T" + std::to_string(static_cast<int>(x.dtype())) + "," + std::to_string(x.ndim()) +
           layout_code(c, f) + (x.writeable() ? "w" : "r");
    if (words) {
      x.buffer()->mark_exported();  // the compiled code may write it
      words->push_back(reinterpret_cast<uint64_t>(x.data()));
      for (int d = 0; d < x.ndim(); ++d) words->push_back(static_cast<uint64_t>(x.shape()[d]));
      for (int d = 0; d < x.ndim(); ++d) words->push_back(static_cast<uint64_t>(x.strides()[d]));
    }
    return true;
  }

  // The Python exception of a pyjit::Raise code.
  [[noreturn]] static void raise_python(int code) {
    const jit::RaiseInfo info = jit::raise_info(code);
    const std::string message(info.message);
    switch (info.kind) {
      case jit::RaiseKind::ZeroDivision: PyErr_SetString(PyExc_ZeroDivisionError, message.c_str()); break;
      case jit::RaiseKind::Value: PyErr_SetString(PyExc_ValueError, message.c_str()); break;
      case jit::RaiseKind::Index: PyErr_SetString(PyExc_IndexError, message.c_str()); break;
      case jit::RaiseKind::Memory:
        if (code == 4) {  // the arena's own limit, not the allocator's
          PyErr_SetString(PyExc_MemoryError, ("[jit] " + message).c_str());
          break;
        }
        [[fallthrough]];
      case jit::RaiseKind::LinAlg:
        PyErr_SetString(numpy().attr("linalg").attr("LinAlgError").ptr(), message.c_str());
        break;
      case jit::RaiseKind::Unknown: PyErr_NoMemory(); break;
    }
    throw nb::python_error();
  }

  // A new array the call returns, as NumPy's (Numba returns NumPy arrays): a tessera array
  // owning the block (freed with free(), as it was allocated), seen through NumPy.
  static nb::object new_array(DType dtype, int ndim, const unsigned char* result) {
    const auto* words = reinterpret_cast<const int64_t*>(result);
    void* data = reinterpret_cast<void*>(words[0]);
    Dims shape(ndim), strides(ndim);
    int64_t count = 1;
    for (int d = 0; d < ndim; ++d) {
      shape[d] = words[1 + d];
      strides[d] = words[1 + ndim + d];
      count *= shape[d];
    }
    const size_t bytes = static_cast<size_t>(count) * itemsize(dtype);
    auto owner = std::shared_ptr<void>(data, [](void* p) { std::free(p); });
    Array a(Buffer::wrap(Device::cpu(), data, bytes, owner), dtype, shape, strides, 0);
    return numpy().attr("asarray")(wrap(std::move(a)));
  }

  std::unordered_map<std::string, Entry> entries_;
  std::string key_;
  std::vector<uint64_t> words_;
};

// What a module's prange loops run on (jit/python_runtime.h's ParallelFor): the chunks of
// a loop spread over tessera's CPU thread pool.
using ChunkBody = void (*)(void* context, long long begin, long long end, int chunk);
void pool_parallel_for(long long count, int chunks, ChunkBody body, void* context) {
  cpu::parallel_for(chunks, 1, [&](int64_t first, int64_t last) {
    for (int64_t c = first; c < last; ++c) {
      body(context, count * c / chunks, count * (c + 1) / chunks, static_cast<int>(c));
    }
  });
}

struct UserFunctionObject {
  expr::UserFunctionPtr function;
};

// Where print() in jit functions writes (jit/python_runtime.h's PrintText): Python's
// sys.stdout when the printing thread holds the GIL (the function's own thread, as Numba
// prints), so the lines interleave with Python's own; from a prange chunk on tessera's
// pool (whose caller may hold the GIL while it waits for the chunk) or a nogil function,
// the C library's stdout, flushed at once.
void print_text(const char* text, long long size) {
  if (PyGILState_Check()) {
    PyObject* out = PySys_GetObject("stdout");  // borrowed
    if (out != nullptr && out != Py_None) {
      PyObject* written = PyObject_CallMethod(out, "write", "s#", text, static_cast<Py_ssize_t>(size));
      if (written != nullptr) {
        Py_DECREF(written);
        return;
      }
      PyErr_Clear();
    }
  }
  std::fwrite(text, 1, static_cast<size_t>(size), stdout);
  std::fflush(stdout);
}

}  // namespace

// The random states of jit functions (jit/python_runtime.h's RandomState, 4 KiB each,
// zeroed: not seeded yet): Python's random module's and np.random's, per thread, shared by
// every compiled module as Numba's are.
static void* random_state_storage(int which) {
  // On the heap: a shared library's static TLS block is too small for 8 KiB.
  thread_local std::unique_ptr<unsigned char[]> states(new unsigned char[2 * 4096]());
  return states.get() + 4096 * which;
}

void bind_jit(nb::module_& m) {
  // The host C++ of a module's IR (for tests and for the curious: inspect_cpp()).
  // python_errors: Python's error model (ZeroDivisionError), else NumPy's (render_python.h).
  m.def("_jit_render_host", [](const std::string& ir, bool python_errors, bool fast_math) {
    return jit::render_python_host(
        ir, python_errors ? jit::ErrorModel::kPython : jit::ErrorModel::kNumpy, fast_math);
  }, nb::arg("ir"), nb::arg("python_errors") = true, nb::arg("fastmath") = false);
  m.def("_jit_render_cuda", [](const std::string& ir, const std::string& foreign) {
    return jit::render_python_cuda(ir, foreign);
  }, nb::arg("ir"), nb::arg("foreign") = "");
  m.attr("_jit_python_kernel_name") = jit::kPythonKernelName;
  // The entry point's address.
  m.def("_jit_compile_host", [](const std::string& ir, bool python_errors, bool fast_math) {
    const std::string source = jit::render_python_host(
        ir, python_errors ? jit::ErrorModel::kPython : jit::ErrorModel::kNumpy, fast_math);
    return without_gil([&] {
      try {
        using Bind = void (*)(void (*)(long long, int, ChunkBody, void*), int,
                              void (*)(const char*, long long), void* (*)(int),
                              decltype(&jit::matmul_service), decltype(&jit::linalg_service));
        const std::string& prefix = jit::python_host_prefix(fast_math);
        reinterpret_cast<Bind>(jit::host_function(source, jit::kPythonBindName, prefix))(
            &pool_parallel_for, cpu::num_threads(), &print_text, &random_state_storage,
            &jit::matmul_service, &jit::linalg_service);
        return reinterpret_cast<uintptr_t>(
            jit::host_function(source, jit::kPythonEntryName, prefix));
      } catch (const jit::CompileError& e) {
        throw std::runtime_error(
            std::string("[jit] the C++ generated from a Python function did not compile, a bug "
                        "in tessera:\n") + e.what());
      }
    });
  }, nb::arg("ir"), nb::arg("python_errors") = true, nb::arg("fastmath") = false);
  m.def("_jit_register_scalar_type", [](nb::handle type, const std::string& dtype) {
    HostDispatcher::scalar_types()[reinterpret_cast<PyTypeObject*>(type.ptr())] =
        jit::python_ir::dtype_named(dtype);
  });
  nb::class_<HostDispatcher>(m, "_JitHostDispatcher")
      .def(nb::init<>())
      .def("key", [](const HostDispatcher&, nb::args args) -> nb::object {
        std::string key;
        if (!HostDispatcher::key_of(args, key, nullptr)) return nb::none();
        return nb::str(key.c_str());
      })
      .def("add", &HostDispatcher::add)
      .def("call", [](HostDispatcher& d, nb::tuple args, nb::handle miss) {
        nb::object r = d.try_call(args);
        return r.is_valid() ? r : nb::borrow(miss);
      })
      // A call of tessera.jit.Dispatcher (a subclass) stays in C++ when the arguments' types
      // have a specialization; a first call goes to its Python `_miss`, which compiles.
      .def("__call__", [](nb::handle self, nb::args args) {
        nb::object r = nb::cast<HostDispatcher&>(self).try_call(args);
        return r.is_valid() ? r : self.attr("_miss")(*args);
      });

  // A vectorized function as a node of elementwise trees (expr/user_function.h): its host
  // block loop's entry (0: none) and the IR module of its device function (None: none).
  nb::class_<UserFunctionObject>(m, "_UserFunction")
      .def("__init__", [](UserFunctionObject* self, const std::string& name, nb::list in,
                          nb::handle out, uintptr_t host_loop, nb::handle cuda_ir) {
        auto f = std::make_shared<expr::UserFunction>();
        f->name = name;
        for (nb::handle d : in) f->in.push_back(to_dtype(d, DType::Float64, "vectorize"));
        f->out = to_dtype(out, DType::Float64, "vectorize");
        f->host_loop = reinterpret_cast<expr::UserFunction::HostLoop>(host_loop);
        if (!cuda_ir.is_none()) {
          f->device_functions = jit::render_python_cuda_functions(nb::cast<std::string>(cuda_ir));
          f->device_entry = f->device_functions.back().first;
          jit::Sha256 hash;
          for (const auto& [fname, text] : f->device_functions) hash.update(text);
          f->device_key = hash.hex_digest();
        }
        new (self) UserFunctionObject{std::move(f)};
      }, nb::arg("name"), nb::arg("in_dtypes"), nb::arg("out_dtype"), nb::arg("host_loop"),
         nb::arg("cuda_ir").none());
  // The function of `args` (arrays on one device, and numbers), pending.
  m.def("_apply_user_function", [](const UserFunctionObject& f, nb::args args) {
    const std::string& name = f.function->name;
    Device device = current_device();
    for (nb::handle h : args) {
      if (is_ndarray(h)) {
        device = unwrap(h).array.device();
        break;
      }
    }
    std::vector<Operand> operands;
    for (nb::handle h : args) operands.push_back(to_operand_or_raise(h, device, name));
    const bool on_cuda = !device.is_cpu();
    if (on_cuda ? f.function->device_functions.empty() : !f.function->host_loop) {
      throw ValueError("[" + name + "] compiled without a form for " + device.str());
    }
    return wrap(apply_user_function(f.function, operands));
  });
}

}  // namespace tessera::py
