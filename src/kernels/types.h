#pragma once
// The C++ element type of each dtype, and a visitor that turns a runtime dtype into a
// compile-time type: the one place where the dtype switch is written.

#include <cstdint>
#include <utility>

#include "kernels/element_types.h"
#include "tessera/dtype.h"

namespace tessera::kernels {

template <DType D>
struct dtype_type;
template <> struct dtype_type<DType::Bool> { using type = bool; };
template <> struct dtype_type<DType::Int8> { using type = int8_t; };
template <> struct dtype_type<DType::Int16> { using type = int16_t; };
template <> struct dtype_type<DType::Int32> { using type = int32_t; };
template <> struct dtype_type<DType::Int64> { using type = int64_t; };
template <> struct dtype_type<DType::UInt8> { using type = uint8_t; };
template <> struct dtype_type<DType::UInt16> { using type = uint16_t; };
template <> struct dtype_type<DType::UInt32> { using type = uint32_t; };
template <> struct dtype_type<DType::UInt64> { using type = uint64_t; };
template <> struct dtype_type<DType::Float16> { using type = half; };
template <> struct dtype_type<DType::Float32> { using type = float; };
template <> struct dtype_type<DType::Float64> { using type = double; };
template <> struct dtype_type<DType::Complex64> { using type = complex64; };
template <> struct dtype_type<DType::Complex128> { using type = complex128; };

template <DType D>
using dtype_t = typename dtype_type<D>::type;

// Calls f(T{}) with T the element type of `dtype`.
template <typename F>
decltype(auto) visit_dtype(DType dtype, F&& f) {
  switch (dtype) {
    case DType::Bool: return f(bool{});
    case DType::Int8: return f(int8_t{});
    case DType::Int16: return f(int16_t{});
    case DType::Int32: return f(int32_t{});
    case DType::Int64: return f(int64_t{});
    case DType::UInt8: return f(uint8_t{});
    case DType::UInt16: return f(uint16_t{});
    case DType::UInt32: return f(uint32_t{});
    case DType::UInt64: return f(uint64_t{});
    case DType::Float16: return f(half{});
    case DType::Float32: return f(float{});
    case DType::Float64: return f(double{});
    case DType::Complex64: return f(complex64{});
    case DType::Complex128: return f(complex128{});
  }
  __builtin_unreachable();
}

}  // namespace tessera::kernels
