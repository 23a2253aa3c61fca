#include "jit/render_user_kernel.h"

#include <algorithm>
#include <array>
#include <string_view>

#include "jit/kernel_text.h"

namespace tessera::jit {
namespace {

// Source text that knows its own line number, so that after a user's snippet (under a #line
// naming it) the kernel's own lines are numbered as they are in the file again.
class Text {
 public:
  void add(std::string_view s) {
    text_ += s;
    line_ += static_cast<int>(std::count(s.begin(), s.end(), '\n'));
  }
  // `snippet`, by the user, reported by compilers as the file "<kernel>/<what>".
  void user(const std::string& kernel, std::string_view what, std::string_view snippet) {
    if (snippet.empty()) return;
    add("#line 1 \"" + kernel + "/" + std::string(what) + "\"\n");
    add(snippet);
    add("\n");
    add("#line " + std::to_string(line_ + 1) + " \"kernel.cu\"\n");
  }
  const std::string& str() const { return text_; }

 private:
  std::string text_;
  int line_ = 1;
};

// What every user kernel starts with: the functors (standard headers and element types for
// every compiler), CUDA's math constants (CUDART_INF ...), which CuPy includes in every
// kernel, then CuPy's kernel API. (The simulator provides CUDA's headers itself.)
std::string prelude() {
  std::string s = kernel_functors_text() + "#include <math_constants.h>\n";
  for (size_t i = 0; i < kUserKernelFilesCount; ++i) {
    s += "#line 1 \"" + std::string(kUserKernelFiles[i].path) + "\"\n" +
         std::string(kUserKernelFiles[i].text) + "\n";
  }
  return s;
}

void begin(Text& t, const std::vector<UserKernelTypedef>& typedefs, const std::string& name,
           const std::string& preamble) {
  t.add(prelude());
  t.add("#line 1 \"kernel.cu\"\n");
  for (const UserKernelTypedef& d : typedefs) {
    t.add("typedef " + user_c_type(d.dtype) + " " + d.placeholder + ";\n");
  }
  t.user(name, "preamble", preamble);
}

// The parameter's declaration: CuPy's names, `_raw_x` for an array the loop indexes and `x`
// for a raw one or a number.
std::string declaration(const UserKernelParam& p) {
  const std::string konst = p.is_const ? "const " : "";
  if (p.kind == UserKernelParam::Kind::Scalar) return konst + user_c_type(p.dtype) + " " + p.name;
  return konst + "CArray<" + user_c_type(p.dtype) + ", " + std::to_string(p.ndim) + ", " +
         (p.c_contiguous ? "true" : "false") + "> " + (p.raw ? "" : "_raw_") + p.name;
}

// `const T &x = _raw_x[<index>.get()];` for each array the loop indexes.
std::string element_bindings(const std::vector<UserKernelParam>& params, size_t from, size_t to,
                             const std::string& index, bool outputs_only_writable) {
  std::string s;
  for (size_t k = from; k < to; ++k) {
    const UserKernelParam& p = params[k];
    if (p.kind != UserKernelParam::Kind::Array || p.raw) continue;
    if (outputs_only_writable && p.is_const) continue;
    s += "    " + std::string(p.is_const ? "const " : "") + p.type + " &" + p.name + " = _raw_" +
         p.name + "[" + index + ".get()];\n";
  }
  return s;
}

std::string parameter_list(const std::vector<UserKernelParam>& params) {
  std::string s;
  for (const UserKernelParam& p : params) s += declaration(p) + ", ";
  return s;
}

}  // namespace

std::string user_c_type(DType dtype) {
  static constexpr std::array<std::string_view, kNumDTypes> kNames = {
      "bool",          "signed char",        "short",
      "int",           "long long",          "unsigned char",
      "unsigned short", "unsigned int",      "unsigned long long",
      "tessera::kernels::half", "float",     "double",
      "complex<float>", "complex<double>"};
  return std::string(kNames[static_cast<int>(dtype)]);
}

std::string render_elementwise_kernel(const ElementwiseKernelText& k) {
  Text t;
  begin(t, k.typedefs, k.name, k.preamble);
  t.add("extern \"C\" __global__ void " + k.name + "(" + parameter_list(k.params) +
        "CIndexer<" + std::to_string(k.index_ndim) + "> _ind) {\n");
  t.user(k.name, "loop_prep", k.loop_prep.empty() ? "" : k.loop_prep + ";");
  t.add("  TS_ELEMENTWISE_FOR(i, _ind.size()) {\n    _ind.set(i);\n");
  t.add(element_bindings(k.params, 0, k.params.size(), "_ind", false));
  t.user(k.name, "operation", k.operation + ";");
  t.add("  }\n");
  t.user(k.name, "after_loop", k.after_loop.empty() ? "" : k.after_loop + ";");
  t.add("}\n");
  return t.str();
}

namespace {

// The end of a reduction for output element _out_i, whose result is _s (_has: it reduced any
// value): the identity where it reduced none, then the post-map into the outputs.
void finish_reduction(Text& t, const ReductionKernelText& k, const std::string& indent) {
  if (k.identity) {
    t.add(indent + "if (!_has) _s = static_cast<_type_reduce>(\n");
    t.user(k.name, "identity", *k.identity);
    t.add(indent + ");\n");
  }
  t.add(indent + "_out_ind.set(_out_i);\n");
  t.add(element_bindings(k.params, k.nin, k.params.size(), "_out_ind", true));
  t.add(indent + "const _type_reduce& a = _s;\n");
  t.user(k.name, "post_map_expr", k.post_map_expr + ";");
}

// `_reduce`, reduce_expr as a function of a and b; a lambda in the kernel, as CuPy's macro
// is, so that the expression may name the kernel's parameters.
void reduce_function(Text& t, const ReductionKernelText& k) {
  t.add("  const auto _reduce = [&](const _type_reduce& a, const _type_reduce& b) {\n"
        "    return static_cast<_type_reduce>(\n");
  t.user(k.name, "reduce_expr", k.reduce_expr);
  t.add("    );\n  };\n");
}

// `<before>map_expr<after>` for the input element _J of output _out_i: its place set, the
// inputs bound to their elements, map_expr's value as `a`'s type.
void mapped_value(Text& t, const ReductionKernelText& k, const std::string& before,
                  const std::string& after) {
  t.add("      _in_ind.set(_out_i * _reduce_size + _J);\n");
  t.add(element_bindings(k.params, 0, k.nin, "_in_ind", false));
  t.add("      " + before + "static_cast<_type_reduce>(\n");
  t.user(k.name, "map_expr", k.map_expr);
  t.add("      )" + after + "\n");
}

std::string reduction_parameters(const ReductionKernelText& k) {
  return parameter_list(k.params) + "CIndexer<" + std::to_string(k.in_ndim) + "> _in_ind, " +
         "CIndexer<" + std::to_string(k.out_ndim) + "> _out_ind, ptrdiff_t _reduce_size, " +
         "ptrdiff_t _parts, unsigned char* _scratch, ptrdiff_t _scratch_stride";
}

}  // namespace

std::string render_reduction_kernel(const ReductionKernelText& k) {
  Text t;
  begin(t, k.typedefs, k.name, k.preamble);
  t.add("typedef " + k.reduce_type + " _type_reduce;\n");
  t.add("#define TS_REDUCE_BLOCK " + std::to_string(k.block) + "\n");
  // The size of `a`, for the host's scratch memory.
  t.add("extern \"C\" __global__ void " + k.name +
        "_sizeof(unsigned long long* _size) { *_size = sizeof(_type_reduce); }\n");
  // Each block reduces one part of one output element's run (items: outputs x parts): into
  // the output when there is one part, else into the scratch memory, whose parts
  // <name>_combine reduces.
  t.add("extern \"C\" __global__ void " + k.name + "(" + reduction_parameters(k) + ") {\n");
  // Shared memory as bytes, as CuPy's: a __shared__ array of a type with a constructor
  // (complex) does not compile under NVRTC.
  t.add(
      "  __shared__ __align__(16) unsigned char _ts_shared[TS_REDUCE_BLOCK * sizeof(_type_reduce)];\n"
      "  __shared__ bool _ts_has[TS_REDUCE_BLOCK];\n"
      "  _type_reduce* const _sdata = reinterpret_cast<_type_reduce*>(_ts_shared);\n");
  reduce_function(t, k);
  t.add(
      "  const unsigned _tid = threadIdx.x;\n"
      "  const ptrdiff_t _items = _out_ind.size() * _parts;\n"
      "  const ptrdiff_t _chunk = (_reduce_size + _parts - 1) / _parts;\n"
      "  for (ptrdiff_t _item = blockIdx.x; _item < _items; _item += gridDim.x) {\n"
      "    const ptrdiff_t _out_i = _item / _parts;\n"
      "    const ptrdiff_t _J_begin = _item % _parts * _chunk;\n"
      "    const ptrdiff_t _J_end = _J_begin + _chunk < _reduce_size ? _J_begin + _chunk : _reduce_size;\n"
      "    ts_user::Pairwise<_type_reduce, decltype(_reduce)> _acc(_reduce);\n"
      "    ptrdiff_t _J_next = _J_begin + _tid;\n");
  // A thread that takes a whole run (one a block: the CPU's) maps eight values at a time into
  // the accumulator's eight lanes.
  t.add(
      "    if (TS_REDUCE_BLOCK == 1) {\n"
      "      for (; _J_next + 8 <= _J_end; _J_next += 8) {\n"
      "        _type_reduce _v[8];\n"
      "        for (int _lane = 0; _lane < 8; ++_lane) {\n"
      "          const ptrdiff_t _J = _J_next + _lane;\n");
  mapped_value(t, k, "_v[_lane] = ", ";");
  t.add("        }\n        _acc.add_lanes(_v);\n      }\n    }\n");
  t.add("    for (ptrdiff_t _J = _J_next; _J < _J_end; _J += TS_REDUCE_BLOCK) {\n");
  mapped_value(t, k, "_acc.add(", ");");
  t.add("    }\n");
  t.add(
      "    _type_reduce _s{};\n"
      "    bool _has = _acc.result(_s);\n"
      "    if (TS_REDUCE_BLOCK > 1) {\n"
      "      if (_has) _sdata[_tid] = _s;\n"
      "      _ts_has[_tid] = _has;\n"
      "      __syncthreads();\n"
      "      for (unsigned _step = TS_REDUCE_BLOCK / 2; _step > 0; _step >>= 1) {\n"
      "        if (_tid < _step && _ts_has[_tid + _step]) {\n"
      "          _sdata[_tid] = _ts_has[_tid] ? _reduce(_sdata[_tid], _sdata[_tid + _step])\n"
      "                                       : _sdata[_tid + _step];\n"
      "          _ts_has[_tid] = true;\n"
      "        }\n"
      "        __syncthreads();\n"
      "      }\n"
      "      _has = _ts_has[0];\n"
      "      if (_has) _s = _sdata[0];\n"
      "      __syncthreads();\n"
      "    }\n"
      "    if (_tid == 0 && _parts > 1) {\n"
      "      if (_has) memcpy(_scratch + _item * _scratch_stride, &_s, sizeof _s);\n"
      "      _scratch[_items * _scratch_stride + _item] = _has;\n"
      "    } else if (_tid == 0) {\n");
  finish_reduction(t, k, "      ");
  t.add("    }\n  }\n}\n");
  // A thread per output element reduces its parts in order.
  t.add("extern \"C\" __global__ void " + k.name + "_combine(" + reduction_parameters(k) +
        ") {\n");
  reduce_function(t, k);
  t.add(
        "  const ptrdiff_t _items = _out_ind.size() * _parts;\n"
        "  for (ptrdiff_t _out_i = ts_user::thread_rank(); _out_i < _out_ind.size();\n"
        "       _out_i += ts_user::thread_count()) {\n"
        "    ts_user::Pairwise<_type_reduce, decltype(_reduce)> _acc(_reduce);\n"
        "    for (ptrdiff_t _item = _out_i * _parts; _item < (_out_i + 1) * _parts; ++_item) {\n"
        "      if (!_scratch[_items * _scratch_stride + _item]) continue;\n"
        "      _type_reduce _v;\n"
        "      memcpy(&_v, _scratch + _item * _scratch_stride, sizeof _v);\n"
        "      _acc.add(_v);\n"
        "    }\n"
        "    _type_reduce _s{};\n"
        "    bool _has = _acc.result(_s);\n");
  finish_reduction(t, k, "    ");
  t.add("  }\n}\n");
  return t.str();
}

}  // namespace tessera::jit
