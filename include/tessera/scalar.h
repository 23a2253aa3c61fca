#pragma once
// Scalar: one value of one dtype, stored in that dtype's own representation so that it
// can serve as a 0-d source for fills and copies.

#include <complex>
#include <cstdint>

#include "tessera/dtype.h"

namespace tessera {

class Scalar {
 public:
  Scalar() : Scalar(false) {}
  explicit Scalar(bool v);
  explicit Scalar(int64_t v);
  explicit Scalar(uint64_t v);
  explicit Scalar(double v);
  explicit Scalar(std::complex<double> v);
  // Reads one element of `dtype` from `data`.
  Scalar(DType dtype, const void* data);

  DType dtype() const { return dtype_; }
  const void* data() const { return storage_; }
  // This value converted to `dtype` as an array cast would convert it.
  Scalar cast(DType dtype) const;

  double to_double() const { return cast(DType::Float64).get<double>(); }
  int64_t to_int64() const { return cast(DType::Int64).get<int64_t>(); }
  std::complex<double> to_complex() const {
    return cast(DType::Complex128).get<std::complex<double>>();
  }

  template <typename T>
  T get() const {
    T v;
    __builtin_memcpy(&v, storage_, sizeof(T));
    return v;
  }

 private:
  DType dtype_;
  alignas(16) unsigned char storage_[16] = {};
};

}  // namespace tessera
