#include "tessera/dtype.h"

#include <array>

namespace tessera {
namespace {

constexpr std::array<DTypeInfo, kNumDTypes> kInfo = {{
    {"bool", 'b', DTypeKind::Bool, 1},
    {"int8", 'i', DTypeKind::SignedInt, 1},
    {"int16", 'i', DTypeKind::SignedInt, 2},
    {"int32", 'i', DTypeKind::SignedInt, 4},
    {"int64", 'i', DTypeKind::SignedInt, 8},
    {"uint8", 'u', DTypeKind::UnsignedInt, 1},
    {"uint16", 'u', DTypeKind::UnsignedInt, 2},
    {"uint32", 'u', DTypeKind::UnsignedInt, 4},
    {"uint64", 'u', DTypeKind::UnsignedInt, 8},
    {"float16", 'f', DTypeKind::Float, 2},
    {"float32", 'f', DTypeKind::Float, 4},
    {"float64", 'f', DTypeKind::Float, 8},
    {"complex64", 'c', DTypeKind::Complex, 8},
    {"complex128", 'c', DTypeKind::Complex, 16},
}};

}  // namespace

const DTypeInfo& dtype_info(DType t) { return kInfo[static_cast<int>(t)]; }

bool dtype_from_kind(char kind, int itemsize, DType* out) {
  for (int i = 0; i < kNumDTypes; ++i) {
    if (kInfo[i].kind == kind && kInfo[i].itemsize == itemsize) {
      *out = static_cast<DType>(i);
      return true;
    }
  }
  return false;
}

DType real_dtype(DType t) {
  switch (t) {
    case DType::Complex64: return DType::Float32;
    case DType::Complex128: return DType::Float64;
    default: return t;
  }
}

}  // namespace tessera
