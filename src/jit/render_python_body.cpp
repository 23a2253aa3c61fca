#include "jit/render_python_body.h"

#include <map>
#include <stdexcept>

#include "jit/kernel_text.h"
#include "tessera/dtype.h"
#include "tessera/ufunc.h"

namespace tessera::jit::python_ir {

DType dtype_named(std::string_view name) {
  for (int d = 0; d < kNumDTypes; ++d) {
    if (dtype_name(static_cast<DType>(d)) == name) return static_cast<DType>(d);
  }
  throw std::invalid_argument("[jit] no scalar type '" + std::string(name) + "'");
}

[[noreturn]] void bad(const SExpr& e, const std::string& what) {
  throw std::invalid_argument("[jit] bad IR in (" + e.head() + " ...): " + what);
}

std::string cpp_type(const SExpr& t) {
  if (!t.is_list()) {
    if (t.text == "none") return "void";
    return std::string(element_type(dtype_named(t.text)));
  }
  if (t.head() == "tuple") {
    std::string s = "tessera::pyjit::Tuple<";
    for (size_t i = 1; i < t.size(); ++i) s += (i > 1 ? ", " : "") + cpp_type(t.at(i));
    return s + ">";
  }
  if (t.head() == "array") {
    const std::string& layout = t.at(3).text;
    return "tessera::pyjit::Array<" + cpp_type(t.at(1)) + ", " + t.at(2).text + ", tessera::pyjit::" +
           (layout == "C" ? "kCLayout" : layout == "F" ? "kFLayout" : "kAnyLayout") + ">";
  }
  bad(t, "a type that cannot be rendered yet");
}

// Prefixed, so that no Python name (`new`, `int`, `this`) is a C++ keyword or one of the
// generated code's own names.
std::string ident(const std::string& name) { return "v_" + name; }

bool is_complex_type(const SExpr& t) {
  return !t.is_list() && (t.text == "complex64" || t.text == "complex128");
}

namespace {

class BodyRenderer {
 public:
  BodyRenderer(Target target, ErrorModel errors) : target_(target), errors_(errors) {}

  std::string expr(const SExpr& e) {
    const std::string& h = e.head();
    if (h == "const") return constant(e);
    if (h == "var") return ident(e.at(1).text);
    if (h == "cast") {
      if (e.at(1).head() == "array") return cpp_type(e.at(1)) + "(" + expr(e.at(2)) + ")";
      return "tessera::kernels::cast_value<" + cpp_type(e.at(1)) + ">(" + expr(e.at(2)) + ")";
    }
    if (h == "new_array") {
      const SExpr& t = e.at(2);
      const std::string T = cpp_type(t.at(1));
      std::string dims;
      for (size_t i = 3; i < e.size(); ++i) dims += (i > 3 ? ", " : "") + expr(e.at(i));
      const std::string& fill = e.at(1).text;
      return "tessera::pyjit::new_array<" + T + ", " + t.at(2).text + ">({" + dims + "}, " +
             (fill == "empty" ? "true" : "false") + ", " + T + "(" + (fill == "ones" ? "1" : "0") +
             "))";
    }
    if (h == "binary") return binary(e);
    if (h == "compare") return compare(e);
    if (h == "unary") return unary(e);
    if (h == "select") {
      return "(" + expr(e.at(2)) + " ? " + expr(e.at(3)) + " : " + expr(e.at(4)) + ")";
    }
    if (h == "call") return call(e);
    if (h == "call_external") {
      // (call_external name abi type args...): Numba's ABI returns the result through a
      // pointer (jit/python_cuda_runtime.h's call_numba_abi), the C ABI as a value.
      if (target_ != Target::kCuda) bad(e, "CUDA device functions exist only in CUDA kernels");
      std::string args;
      for (size_t i = 4; i < e.size(); ++i) args += ", " + expr(e.at(i));
      if (e.at(2).text == "c") return e.at(1).text + "(" + args.substr(args.empty() ? 0 : 2) + ")";
      // The result in the declaration's C type (long long where the IR's int64 is long).
      return "static_cast<" + cpp_type(e.at(3)) + ">(tessera::pyjit::gpu::call_numba_abi(" +
             e.at(1).text + args + "))";
    }
    if (h == "call_function") {
      std::string s = "ts_python_" + e.at(1).text + "(";
      for (size_t i = 3; i < e.size(); ++i) s += (i > 3 ? ", " : "") + expr(e.at(i));
      return s + ")";
    }
    if (h == "tuple_make") {
      std::string s = "tessera::pyjit::Tuple<";
      const SExpr& t = e.at(1);
      for (size_t i = 1; i < t.size(); ++i) s += (i > 1 ? ", " : "") + cpp_type(t.at(i));
      s += ">{";
      // Nested braces: {head, {next, {...}}}.
      std::string close;
      for (size_t i = 2; i < e.size(); ++i) {
        s += expr(e.at(i)) + ", {";
        close += "}";
      }
      return s + close + "}";
    }
    if (h == "tuple_get") return "tessera::pyjit::get<" + e.at(3).text + ">(" + expr(e.at(2)) + ")";
    if (h == "tuple_at") return "tessera::pyjit::get_at(" + expr(e.at(2)) + ", " + expr(e.at(3)) + ")";
    if (h == "complex") return cpp_type(e.at(1)) + "(" + expr(e.at(2)) + ", " + expr(e.at(3)) + ")";
    if (h == "part") return "(" + expr(e.at(3)) + ")." + e.at(1).text + "()";
    if (h == "load") return load(e, "");
    if (h == "load_direct") return load(e, ".direct");
    if (h == "shape") {
      return "static_cast<" + std::string(element_type(DType::Int64)) + ">(" + expr(e.at(1)) +
             ".shape[" + e.at(2).text + "])";
    }
    if (h == "intrinsic") return intrinsic(e);
    if (h == "reshape") {  // (reshape type array dims...)
      std::string s = "tessera::pyjit::reshape<" + cpp_type(e.at(1)) + ">(" + expr(e.at(2)) + ", {";
      for (size_t i = 3; i < e.size(); ++i) s += (i > 3 ? ", " : "") + expr(e.at(i));
      return s + "})";
    }
    if (h == "matmul") {  // (matmul type a b): an array, or a number for two vectors
      const SExpr& t = e.at(1);
      const std::string dtype = t.is_list() ? t.at(1).text : t.text;
      return std::string(t.is_list() ? "tessera::pyjit::matmul<" : "tessera::pyjit::dot<") +
             cpp_type(t) + ">(" + expr(e.at(2)) + ", " + expr(e.at(3)) + ", \"" + dtype + "\")";
    }
    if (h == "part_view") {  // (part_view real|imag type array)
      return "tessera::pyjit::part_view<" + cpp_type(e.at(2)) + ">(" + expr(e.at(3)) + ", " +
             (e.at(1).text == "imag" ? "true" : "false") + ")";
    }
    if (h == "linalg") {  // (linalg op dtype type param inputs...): the linalg service
      if (target_ != Target::kHost) bad(e, "np.linalg exists only on the host");
      std::string s = "tessera::pyjit::linalg<" + cpp_type(e.at(3)) + ">(\"" + e.at(1).text +
                      "\", \"" + e.at(2).text + "\", static_cast<double>(" + expr(e.at(4)) + ")";
      for (size_t i = 5; i < e.size(); ++i) s += ", " + expr(e.at(i));
      return s + ")";
    }
    if (h == "runtime") {  // a function of the host runtime (python_runtime.h)
      if (target_ != Target::kHost) bad(e, "the host runtime's functions exist only on the host");
      std::string s = "tessera::pyjit::" + e.at(1).text + "(";
      for (size_t i = 3; i < e.size(); ++i) s += (i > 3 ? ", " : "") + expr(e.at(i));
      return s + ")";
    }
    if (h == "view") return view(e);
    if (h == "transpose") {  // (transpose type a [axis ...]): reversed, or permuted
      std::string axes;
      for (size_t i = 3; i < e.size(); ++i) axes += ", " + e.at(i).text;
      return (axes.empty() ? "tessera::pyjit::transpose<" + cpp_type(e.at(1))
                           : "tessera::pyjit::permute<" + cpp_type(e.at(1)) + axes) +
             ">(" + expr(e.at(2)) + ")";
    }
    if (h == "address") return "&" + load(e, "");
    if (h == "broadcast") {
      return "tessera::pyjit::broadcast_extent(" + expr(e.at(1)) + ", " + expr(e.at(2)) + ")";
    }
    if (h == "truth") return "tessera::pyjit::truth(" + expr(e.at(1)) + ")";
    bad(e, "unknown expression");
  }

  std::string block(const SExpr& b, const std::string& indent) {
    if (b.head() != "block") bad(b, "expected a block");
    std::string s;
    for (size_t i = 1; i < b.size(); ++i) s += statement(b.at(i), indent);
    return s;
  }

  std::string filename;

 private:
  std::string constant(const SExpr& e) {
    const std::string T = cpp_type(e.at(1));
    if (is_complex_type(e.at(1))) {
      return T + "(" + e.at(2).text + ", " + e.at(3).text + ")";
    }
    return literal(T, e.at(1).text, e.at(2).text);
  }

  // A real number `v` of the IR's scalar type `type` (C++ type T), as the IR's text spells it.
  static std::string literal(const std::string& T, const std::string& type, const std::string& v) {
    if (v == "inf") return "std::numeric_limits<" + T + ">::infinity()";
    if (v == "-inf") return "(-std::numeric_limits<" + T + ">::infinity())";
    if (v == "nan") return "std::numeric_limits<" + T + ">::quiet_NaN()";
    if (type == "int64") return "static_cast<" + T + ">(" + v + "LL)";
    if (type == "uint64") return "static_cast<" + T + ">(" + v + "ULL)";
    return "static_cast<" + T + ">(" + v + ")";
  }

  static std::string functor(const SExpr& e, const std::string& ufunc) {
    const auto op = find_ufunc(ufunc);
    if (!op) bad(e, "no ufunc '" + ufunc + "'");
    return functor_name(*op) + "{}";
  }

  std::string binary(const SExpr& e) {
    const std::string& op = e.at(1).text;
    const std::string a = expr(e.at(3)), b = expr(e.at(4));
    if (errors_ == ErrorModel::kPython && (op == "divide" || op == "floor_divide" || op == "remainder")) {
      return functor(e, op) + "(" + a + ", tessera::pyjit::checked_divisor(" + b + "))";
    }
    if (op == "left_shift" || op == "right_shift") {
      // NumPy's shift loops take both operands in one type.
      const std::string T = cpp_type(e.at(2));
      return functor(e, op) + "(" + a + ", static_cast<" + T + ">(" + b + "))";
    }
    return functor(e, op) + "(" + a + ", " + b + ")";
  }

  std::string compare(const SExpr& e) {
    static const std::map<std::string, std::string> ufuncs = {
        {"lt", "less"}, {"le", "less_equal"}, {"gt", "greater"},
        {"ge", "greater_equal"}, {"eq", "equal"}, {"ne", "not_equal"}};
    const auto it = ufuncs.find(e.at(1).text);
    if (it == ufuncs.end()) bad(e, "unknown comparison");
    return "static_cast<bool>(" + functor(e, it->second) + "(" + expr(e.at(2)) + ", " +
           expr(e.at(3)) + "))";
  }

  std::string unary(const SExpr& e) {
    const std::string& op = e.at(1).text;
    const std::string v = expr(e.at(3));
    if (op == "not") return "(!" + v + ")";
    if (op == "pos") return v;
    if (op == "neg") return functor(e, "negative") + "(" + v + ")";
    if (op == "invert") return functor(e, "invert") + "(" + v + ")";
    bad(e, "unknown unary op");
  }

  std::string call(const SExpr& e) {
    std::string s = "static_cast<" + cpp_type(e.at(2)) + ">(" + functor(e, e.at(1).text) + "(";
    for (size_t i = 3; i < e.size(); ++i) s += (i > 3 ? ", " : "") + expr(e.at(i));
    return s + "))";
  }

  // `(view type array item...)`: the view `type` of `array` the items select, each
  // `(index i)`, `(slice start stop step)` with `_` for a missing bound, or `(newaxis)`.
  std::string view(const SExpr& e) {
    std::string s = "tessera::pyjit::view<" + cpp_type(e.at(1)) + ">(" + expr(e.at(2)) + ", {";
    const auto bound = [&](const SExpr& b, const char* missing) {
      return !b.is_list() && b.text == "_" ? std::string(missing) : expr(b);
    };
    for (size_t i = 3; i < e.size(); ++i) {
      const SExpr& item = e.at(i);
      s += i > 3 ? ", " : "";
      if (item.head() == "index") {
        s += "tessera::pyjit::Item::index(" + expr(item.at(1)) + ")";
      } else if (item.head() == "newaxis") {
        s += "tessera::pyjit::Item::new_axis()";
      } else {
        s += "tessera::pyjit::Item::slice(" + bound(item.at(1), "tessera::pyjit::kNoBound") + ", " +
             bound(item.at(2), "tessera::pyjit::kNoBound") + ", " + bound(item.at(3), "1LL") + ")";
      }
    }
    return s + "})";
  }

  // A CUDA built-in of Numba's `cuda` module: tessera::pyjit::gpu::<name>
  // (jit/python_cuda_runtime.h), its arguments already of the types it takes.
  std::string intrinsic(const SExpr& e) {
    if (target_ != Target::kCuda) bad(e, "CUDA intrinsics exist only in CUDA kernels");
    std::string s = "tessera::pyjit::gpu::" + e.at(1).text + "(";
    for (size_t i = 3; i < e.size(); ++i) s += (i > 3 ? ", " : "") + expr(e.at(i));
    return s + ")";
  }

  // `(local_array name space type dims...)`: the storage of cuda.shared.array (space
  // shared, or dynamic for a length of 0: the launch's dynamic shared memory) or
  // cuda.local.array, and the variable `name` viewing it.
  std::string local_array(const SExpr& st, const std::string& in) {
    if (target_ != Target::kCuda) bad(st, "shared and local arrays exist only in CUDA kernels");
    const std::string& space = st.at(2).text;
    const SExpr& t = st.at(3);
    const std::string T = cpp_type(t.at(1));
    const std::string storage = "ts_" + space + std::to_string(arrays_++);
    std::string dims;
    long long count = 1;
    for (size_t i = 4; i < st.size(); ++i) {
      dims += (i > 4 ? ", " : "") + st.at(i).text + "LL";
      count *= std::stoll(st.at(i).text);
    }
    std::string s;
    if (space == "dynamic") {
      if (!kernel) bad(st, "dynamic shared memory is only in the kernel itself");
      s += in + "extern __shared__ __align__(16) unsigned char " + storage + "[];\n";
      dims = std::string(kDynamicSharedBytes) + " / static_cast<long long>(sizeof(" + T + "))";
      s += in + ident(st.at(1).text) + " = tessera::pyjit::gpu::view<" + T + ", 1>(reinterpret_cast<" +
           T + "*>(" + storage + "), {" + dims + "});\n";
      return s;
    }
    s += in + (space == "shared" ? "__shared__ " : "") + T + " " + storage + "[" +
         std::to_string(count > 0 ? count : 1) + "];\n";
    s += in + ident(st.at(1).text) + " = tessera::pyjit::gpu::view<" + T + ", " + t.at(2).text +
         ">(" + storage + ", {" + dims + "});\n";
    return s;
  }

  // `(const_array name type (dims...) (values...))`: cuda.const.array_like's frozen copy, a
  // static read-only array of the function.
  std::string const_array(const SExpr& st, const std::string& in) {
    if (target_ != Target::kCuda) bad(st, "constant arrays exist only in CUDA kernels");
    const SExpr& t = st.at(2);
    const std::string T = cpp_type(t.at(1));
    const std::string storage = "ts_const" + std::to_string(arrays_++);
    std::string dims, values;
    for (size_t i = 0; i < st.at(3).size(); ++i) dims += (i ? ", " : "") + st.at(3).at(i).text + "LL";
    const SExpr& items = st.at(4);
    for (size_t i = 0; i < items.size(); ++i) {
      values += (i ? ", " : "") + literal(T, t.at(1).text, items.at(i).text);
    }
    std::string s = in + "static const " + T + " " + storage + "[" +
                    std::to_string(items.size() ? items.size() : 1) + "] = {" +
                    (items.size() ? values : T + "()") + "};\n";
    s += in + ident(st.at(1).text) + " = tessera::pyjit::gpu::view<" + T + ", " + t.at(2).text +
         ">(const_cast<" + T + "*>(" + storage + "), {" + dims + "});\n";
    return s;
  }

  // `(print item...)`: printf of the items, space-separated, then a newline; an item is
  // `(text HEX)` (a string's bytes, `_` when empty) or `(value type expr)` (integers in
  // full, floats with %f, bools as True/False: Numba's CUDA print).
  std::string print(const SExpr& st, const std::string& in) {
    if (target_ == Target::kHost) return host_print(st, in);
    std::string format, args;
    for (size_t i = 1; i < st.size(); ++i) {
      const SExpr& item = st.at(i);
      if (i > 1) format += " ";
      if (item.head() == "text") {
        const std::string& hex = item.at(1).text;
        for (size_t k = 0; hex != "_" && k + 1 < hex.size(); k += 2) {
          const char c = static_cast<char>(std::stoi(hex.substr(k, 2), nullptr, 16));
          if (c == '%') {
            format += "%%";
          } else if (c == '"' || c == '\\') {
            format += std::string("\\") + c;
          } else if (static_cast<unsigned char>(c) < 32 || static_cast<unsigned char>(c) > 126) {
            static const char* digits = "01234567";
            const auto u = static_cast<unsigned char>(c);
            format += std::string("\\") + digits[u >> 6] + digits[(u >> 3) & 7] + digits[u & 7];
          } else {
            format += c;
          }
        }
        continue;
      }
      const std::string value = expr(item.at(2));
      const std::string& type = item.at(1).text;
      if (type == "bool") {
        format += "%s";
        args += ", (" + value + ") ? \"True\" : \"False\"";
      } else if (type == "float16" || type == "float32" || type == "float64") {
        format += "%f";
        args += ", static_cast<double>(" + value + ")";
      } else if (type.starts_with("uint")) {
        format += "%llu";
        args += ", static_cast<unsigned long long>(" + value + ")";
      } else {
        format += "%lld";
        args += ", static_cast<long long>(" + value + ")";
      }
    }
    return in + "printf(\"" + format + "\\n\"" + args + ");\n";
  }

  // print() on the host: one jit/python_runtime.h PrintLine, which formats as Python's print
  // (floats as repr writes them, complex numbers too) and hands the line to tessera.
  std::string host_print(const SExpr& st, const std::string& in) {
    std::string s = in + "{\n" + in + "  tessera::pyjit::PrintLine ts_line;\n";
    for (size_t i = 1; i < st.size(); ++i) {
      const SExpr& item = st.at(i);
      if (item.head() == "text") {
        const std::string& hex = item.at(1).text;
        std::string literal;
        size_t bytes = 0;
        for (size_t k = 0; hex != "_" && k + 1 < hex.size(); k += 2, ++bytes) {
          const auto u = static_cast<unsigned>(std::stoi(hex.substr(k, 2), nullptr, 16));
          literal += "\\" + std::to_string(u >> 6) + std::to_string((u >> 3) & 7) + std::to_string(u & 7);
        }
        s += in + "  ts_line.text(\"" + literal + "\", " + std::to_string(bytes) + ");\n";
        continue;
      }
      const std::string value = expr(item.at(2));
      const std::string& type = item.at(1).text;
      if (type == "bool") {
        s += in + "  ts_line.boolean(" + value + ");\n";
      } else if (type == "complex64" || type == "complex128") {
        s += in + "  { const auto ts_z = " + value +
             "; ts_line.complex(static_cast<double>(ts_z.real()), static_cast<double>(ts_z.imag())); }\n";
      } else if (type == "float16" || type == "float32" || type == "float64") {
        s += in + "  ts_line.real(static_cast<double>(" + value + "));\n";
      } else if (type.starts_with("uint")) {
        s += in + "  ts_line.unsigned_integer(static_cast<unsigned long long>(" + value + "));\n";
      } else {
        s += in + "  ts_line.integer(static_cast<long long>(" + value + "));\n";
      }
    }
    return s + in + "  ts_line.end();\n" + in + "}\n";
  }

  std::string load(const SExpr& e, const std::string& method) {
    std::string s = expr(e.at(1)) + method + "(";
    for (size_t i = 2; i < e.size(); ++i) s += (i > 2 ? ", " : "") + expr(e.at(i));
    return s + ")";
  }

  std::string statement(const SExpr& st, const std::string& in) {
    const std::string& h = st.head();
    const std::string deeper = in + "  ";
    if (h == "line") return "#line " + st.at(1).text + " \"" + filename + "\"\n";
    if (h == "assign") return in + ident(st.at(1).text) + " = " + expr(st.at(2)) + ";\n";
    if (h == "store" || h == "store_direct") {
      std::string target = expr(st.at(1)) + (h == "store" ? "(" : ".direct(");
      const SExpr& indices = st.at(2);
      for (size_t i = 0; i < indices.size(); ++i) target += (i ? ", " : "") + expr(indices.at(i));
      return in + target + ") = " + expr(st.at(3)) + ";\n";
    }
    if (h == "assign_array") {
      return in + "tessera::pyjit::assign_array(" + expr(st.at(1)) + ", " + expr(st.at(2)) +
             ");\n";
    }
    if (h == "if") {
      std::string s = in + "if (" + expr(st.at(1)) + ") {\n" + block(st.at(2), deeper) + in + "}";
      if (st.at(3).size() > 1) s += " else {\n" + block(st.at(3), deeper) + in + "}";
      return s + "\n";
    }
    if (h == "while") {
      return in + "while (" + expr(st.at(1)) + ") {\n" + block(st.at(2), deeper) + in + "}\n";
    }
    if (h == "for") return for_range(st, in);
    if (h == "parallel_for") return parallel_range(st, in);
    if (h == "do") return in + expr(st.at(1)) + ";\n";
    if (h == "print") return print(st, in);
    if (h == "local_array") return local_array(st, in);
    if (h == "const_array") return const_array(st, in);
    if (h == "release") return in + "tessera::pyjit::release(" + ident(st.at(1).text) + ".data);\n";
    if (h == "raise") {
      return in + "tessera::pyjit::raise(tessera::pyjit::Raise(" + st.at(1).text + "));\n";
    }
    if (h == "break") return in + "break;\n";
    if (h == "continue") return in + "continue;\n";
    if (h == "return") {
      return st.size() > 1 ? in + "return " + expr(st.at(1)) + ";\n" : in + "return;\n";
    }
    bad(st, "unknown statement");
  }

  // Python's range: the bounds and the step evaluated once, the count of iterations fixed
  // before the first (a body that assigns the loop variable does not change the next one).
  std::string for_range(const SExpr& st, const std::string& in) {
    const std::string var = ident(st.at(1).text);
    const std::string id = std::to_string(loops_++);
    const std::string start = "ts_start" + id, stop = "ts_stop" + id, step = "ts_step" + id;
    const std::string count = "ts_count" + id, k = "ts_k" + id;
    std::string s = in + "{\n";
    const std::string d = in + "  ";
    s += d + "const auto " + start + " = " + expr(st.at(2)) + ";\n";
    s += d + "const auto " + stop + " = " + expr(st.at(3)) + ";\n";
    s += d + "const auto " + step + " = " + expr(st.at(4)) + ";\n";
    s += d + "const auto " + count + " = tessera::pyjit::range_count(" + start + ", " + stop +
         ", " + step + ");\n";
    s += d + "for (long long " + k + " = 0; " + k + " < " + count + "; ++" + k +
         ") {\n";
    s += d + "  " + var + " = " + start + " + static_cast<decltype(" + start + ")>(" + k + ") * " +
         step + ";\n";
    s += block(st.at(5), d + "  ") + d + "}\n" + in + "}\n";
    return s;
  }

  // A prange loop: chunks on the pool, each with its own private variables and partial
  // reductions (starting at the op's identity), combined in chunk order afterwards.
  std::string parallel_range(const SExpr& st, const std::string& in) {
    const std::string id = std::to_string(loops_++);
    const std::string start = "ts_start" + id, step = "ts_step" + id, count = "ts_count" + id;
    const std::string chunks = "ts_chunks" + id, body = "ts_body" + id;
    const SExpr& reductions = st.at(5);
    const SExpr& privates = st.at(6);
    const std::string d = in + "  ";
    std::string s = in + "{\n";
    s += d + "const auto " + start + " = " + expr(st.at(2)) + ";\n";
    s += d + "const auto " + step + " = " + expr(st.at(4)) + ";\n";
    s += d + "const long long " + count + " = tessera::pyjit::range_count(" + start + ", " +
         expr(st.at(3)) + ", " + step + ");\n";
    s += d + "const int " + chunks + " = tessera::pyjit::parallel_chunks(" + count + ");\n";
    for (size_t i = 1; i < reductions.size(); ++i) {
      const std::string name = reductions.at(i).at(0).text;
      s += d + type_of(name) + " ts_part" + id + "_" + name + "[tessera::pyjit::kMostChunks];\n";
      // max and min start every chunk from the variable's value before the loop.
      s += d + "const " + type_of(name) + " ts_before" + id + "_" + name + " = " + ident(name) + ";\n";
    }
    s += d + "auto " + body + " = [&](long long ts_begin, long long ts_end, int ts_chunk) {\n";
    const std::string b = d + "  ";
    // The arrays a chunk makes are its own (a variable assigned in the loop is private to
    // the chunk): freed when it ends, in the arena of the thread that ran it.
    s += b + "tessera::pyjit::ArenaScope ts_chunk_arrays;\n";
    for (size_t i = 1; i < privates.size(); ++i) {
      s += b + type_of(privates.at(i).text) + " " + ident(privates.at(i).text) + "{};\n";
    }
    for (size_t i = 1; i < reductions.size(); ++i) {
      const std::string name = reductions.at(i).at(0).text;
      const std::string& op = reductions.at(i).at(1).text;
      const std::string start = op == "add" ? type_of(name) + "(0)"
                                : op == "multiply" ? type_of(name) + "(1)"
                                                   : "ts_before" + id + "_" + name;
      s += b + type_of(name) + " " + ident(name) + " = " + start + ";\n";
    }
    s += b + "for (long long ts_k = ts_begin; ts_k < ts_end; ++ts_k) {\n";
    s += b + "  " + ident(st.at(1).text) + " = " + start + " + static_cast<decltype(" + start +
         ")>(ts_k) * " + step + ";\n";
    s += block(st.at(7), b + "  ") + b + "}\n";
    for (size_t i = 1; i < reductions.size(); ++i) {
      const std::string name = reductions.at(i).at(0).text;
      s += b + "ts_part" + id + "_" + name + "[ts_chunk] = " + ident(name) + ";\n";
    }
    s += d + "};\n";
    s += d + "tessera::pyjit::parallel_range(" + count + ", " + chunks + ", " + body + ");\n";
    for (size_t i = 1; i < reductions.size(); ++i) {
      const std::string name = reductions.at(i).at(0).text;
      const std::string& op = reductions.at(i).at(1).text;
      const std::string part = "ts_part" + id + "_" + name + "[ts_c]";
      const std::string loop = d + "for (int ts_c = 0; ts_c < " + chunks + "; ++ts_c) ";
      if (op == "max" || op == "min") {  // Python's max(m, x) / min(m, x), in chunk order
        s += loop + "if (" + part + (op == "max" ? " > " : " < ") + ident(name) + ") " +
             ident(name) + " = " + part + ";\n";
      } else {
        s += loop + ident(name) + " = tessera::kernels::" + (op == "add" ? "Add" : "Multiply") +
             "{}(" + ident(name) + ", " + part + ");\n";
      }
    }
    return s + in + "}\n";
  }

  std::string type_of(const std::string& variable) const {
    const auto it = variable_types.find(variable);
    if (it == variable_types.end()) throw std::invalid_argument("[jit] bad IR: no variable " + variable);
    return it->second;
  }

 public:
  std::map<std::string, std::string> variable_types;  // C++ types of locals and parameters
  bool kernel = false;  // a CUDA kernel's own function (it has dynamic shared memory)

 private:
  Target target_;
  ErrorModel errors_;
  int loops_ = 0;
  int arrays_ = 0;
};

}  // namespace

std::string render_function(const SExpr& f, Target target, ErrorModel errors, bool kernel) {
  if (f.head() != "function") bad(f, "expected a function");
  if (target == Target::kCuda && errors != ErrorModel::kNumpy) bad(f, "CUDA code raises nothing");
  BodyRenderer body(target, errors);
  body.kernel = kernel;
  body.filename = f.at(2).text;
  const SExpr& params = f.at(3);
  const SExpr& locals = f.at(5);
  for (size_t i = 0; i < params.size(); ++i) {
    body.variable_types[params.at(i).at(0).text] = cpp_type(params.at(i).at(1));
  }
  for (size_t i = 1; i < locals.size(); ++i) {
    body.variable_types[locals.at(i).at(0).text] = cpp_type(locals.at(i).at(1));
  }
  std::string s = "#line 1 \"[tessera] python function " + f.at(1).text + "\"\n";
  s += std::string(target == Target::kCuda ? "static __device__ " : "static ") + cpp_type(f.at(4)) +
       " ts_python_" + f.at(1).text + "(";
  for (size_t i = 0; i < params.size(); ++i) {
    s += (i ? ", " : "") + cpp_type(params.at(i).at(1)) + " " + ident(params.at(i).at(0).text);
  }
  if (kernel) s += std::string(params.size() ? ", " : "") + "long long " + kDynamicSharedBytes;
  s += ") {\n";
  for (size_t i = 1; i < locals.size(); ++i) {
    s += "  " + cpp_type(locals.at(i).at(1)) + " " + ident(locals.at(i).at(0).text) + "{};\n";
  }
  return s + body.block(f.at(6), "  ") + "}\n";
}

}  // namespace tessera::jit::python_ir
