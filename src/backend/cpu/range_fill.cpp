// arange and linspace on the CPU: each element as kernels/range.h computes it, bit for bit
// NumPy's.

#include <cmath>
#include <string>
#include <type_traits>

#include "backend/cpu/cpu_backend.h"
#include "backend/cpu/parallel.h"
#include "kernels/range.h"
#include "kernels/types.h"
#include "tessera/errors.h"

namespace tessera::cpu {
namespace {

using kernels::half;
using kernels::is_complex_type;

constexpr int64_t kGrain = 1 << 15;

template <typename T>
void arange_typed(T* out, int64_t n, T first, T second) {
  if (n > 0) out[0] = first;
  if (n > 1) out[1] = second;
  if (n <= 2) return;
  parallel_for(n - 2, kGrain, [&](int64_t b, int64_t e) {
    for (int64_t i = b + 2; i < e + 2; ++i) out[i] = kernels::arange_step(i, first, second);
  });
}

template <typename T>
void linspace_typed(T* out, int64_t n, const LinspaceSpec& spec) {
  const kernels::LinspaceValues<T> values{spec.start.get<T>(), spec.stop.get<T>(),
                                          spec.step.get<T>(),  spec.delta.get<T>(),
                                          spec.div,            spec.divide_first,
                                          spec.set_last,       spec.floor};
  parallel_for(n, kGrain, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) out[i] = values(i, n);
  });
}

}  // namespace

void arange_fill(const Array& dst, const Scalar& first, const Scalar& second) {
  kernels::visit_dtype(dst.dtype(), [&](auto tag) {
    using T = decltype(tag);
    arange_typed<T>(reinterpret_cast<T*>(dst.data()), dst.size(), first.get<T>(),
                    second.get<T>());
  });
}

void linspace_fill(const Array& dst, const LinspaceSpec& spec) {
  kernels::visit_dtype(dst.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, half> ||
                  is_complex_type<T>::value) {
      linspace_typed<T>(reinterpret_cast<T*>(dst.data()), dst.size(), spec);
    } else {
      throw TypeError("[linspace] computes in an inexact dtype, not " +
                      std::string(dtype_name(dst.dtype())));
    }
  });
}

}  // namespace tessera::cpu
