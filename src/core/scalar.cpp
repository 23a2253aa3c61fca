#include "tessera/scalar.h"

#include <cstring>

#include "kernels/cast.h"
#include "kernels/types.h"

namespace tessera {
namespace {

template <typename T>
void store(unsigned char* storage, T v) {
  std::memcpy(storage, &v, sizeof(T));
}

}  // namespace

Scalar::Scalar(bool v) : dtype_(DType::Bool) { store(storage_, v); }
Scalar::Scalar(int64_t v) : dtype_(DType::Int64) { store(storage_, v); }
Scalar::Scalar(uint64_t v) : dtype_(DType::UInt64) { store(storage_, v); }
Scalar::Scalar(double v) : dtype_(DType::Float64) { store(storage_, v); }
Scalar::Scalar(std::complex<double> v) : dtype_(DType::Complex128) { store(storage_, v); }

Scalar::Scalar(DType dtype, const void* data) : dtype_(dtype) {
  std::memcpy(storage_, data, tessera::itemsize(dtype));
}

Scalar Scalar::cast(DType dtype) const {
  Scalar out;
  out.dtype_ = dtype;
  kernels::visit_dtype(dtype_, [&](auto from) {
    kernels::visit_dtype(dtype, [&](auto to) {
      using To = decltype(to);
      store(out.storage_, kernels::cast_value<To>(get<decltype(from)>()));
    });
  });
  return out;
}

}  // namespace tessera
