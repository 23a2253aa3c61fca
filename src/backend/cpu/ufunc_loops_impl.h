#pragma once
// Instantiating the inner loops of ufuncs from their functors and loop signatures; included
// only by the op-family files (loops_*.cpp), each of which compiles its own ops.

#include <utility>

#include "backend/cpu/ufunc_loops.h"
#include "kernels/loop_signature.h"
#include "kernels/types.h"

namespace tessera::kernels {
#define TS_DECLARE_FUNCTOR(id, name, nin, nout, functor, loops) struct functor;
TESSERA_UFUNCS(TS_DECLARE_FUNCTOR)
#undef TS_DECLARE_FUNCTOR
}  // namespace tessera::kernels

namespace tessera::cpu {

template <Ufunc Op>
struct UfuncSpec;
#define TS_UFUNC_SPEC(id, name, nin_, nout_, functor, loops_) \
  template <>                                                  \
  struct UfuncSpec<Ufunc::id> {                                \
    using Functor = kernels::functor;                          \
    static constexpr int nin = nin_, nout = nout_;             \
    static constexpr std::string_view loops = loops_;          \
  };
TESSERA_UFUNCS(TS_UFUNC_SPEC)
#undef TS_UFUNC_SPEC

// The loops are compiled for the baseline and again for AVX2 (x86-64-v3) and AVX-512
// (x86-64-v4), and the loader picks the best the machine runs (GCC's function clones, an
// ifunc per loop): the inner loops of arithmetic, comparisons and logic are plain C++ the
// compiler vectorizes, and at the baseline's SSE2 width they ran at half the speed of
// NumPy's own AVX-512 loops on mid-size arrays. FMA contraction stays off (-ffp-contract=off),
// so every clone computes the same bits.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define TS_LOOP_CLONES \
  __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define TS_LOOP_CLONES
#endif

template <class F, int NIN, int NOUT, LoopSignature S>
TS_LOOP_CLONES void run_loop(const std::byte* const* in, std::byte* const* out, int64_t n) {
  using kernels::dtype_t;
  using O0 = dtype_t<S.out[0]>;
  using I0 = dtype_t<S.in[0]>;
  using I1 = dtype_t<S.in[1]>;
  using I2 = dtype_t<S.in[2]>;
  const F f{};
  const I0* a = reinterpret_cast<const I0*>(in[0]);
  O0* o = reinterpret_cast<O0*>(out[0]);
  if constexpr (NOUT == 2) {
    using O1 = dtype_t<S.out[1]>;
    O1* o1 = reinterpret_cast<O1*>(out[1]);
    const I1* b = reinterpret_cast<const I1*>(in[1]);
    for (int64_t i = 0; i < n; ++i) {
      auto r = [&] {
        if constexpr (NIN == 1) return f(a[i]);
        else return f(a[i], b[i]);
      }();
      o[i] = r.first;
      o1[i] = r.second;
    }
  } else if constexpr (NIN == 1) {
    for (int64_t i = 0; i < n; ++i) o[i] = static_cast<O0>(f(a[i]));
  } else if constexpr (NIN == 2) {
    const I1* b = reinterpret_cast<const I1*>(in[1]);
    for (int64_t i = 0; i < n; ++i) o[i] = static_cast<O0>(f(a[i], b[i]));
  } else {
    const I1* b = reinterpret_cast<const I1*>(in[1]);
    const I2* c = reinterpret_cast<const I2*>(in[2]);
    for (int64_t i = 0; i < n; ++i) o[i] = static_cast<O0>(f(a[i], b[i], c[i]));
  }
}

template <Ufunc Op, size_t... I>
std::vector<LoopFn> make_loops(std::index_sequence<I...>) {
  using Spec = UfuncSpec<Op>;
  return {&run_loop<typename Spec::Functor, Spec::nin, Spec::nout,
                    kernels::loop_at(Spec::loops, Spec::nin, Spec::nout, I)>...};
}

// Fills the table rows of `Ops`.
template <Ufunc... Ops>
void add_loops(LoopTable& table) {
  ((table[static_cast<int>(Ops)] = make_loops<Ops>(
        std::make_index_sequence<kernels::count_loops(UfuncSpec<Ops>::loops)>())),
   ...);
}

}  // namespace tessera::cpu
