#pragma once
// Element types: the numeric dtypes NumPy has, and nothing else (strings, objects and
// structured types are refused at the door).

#include <cstdint>
#include <string_view>

namespace tessera {

enum class DType : uint8_t {
  Bool,
  Int8,
  Int16,
  Int32,
  Int64,
  UInt8,
  UInt16,
  UInt32,
  UInt64,
  Float16,
  Float32,
  Float64,
  Complex64,
  Complex128,
};

inline constexpr int kNumDTypes = 14;

enum class DTypeKind : uint8_t { Bool, SignedInt, UnsignedInt, Float, Complex };

struct DTypeInfo {
  std::string_view name;  // NumPy's name: "float32"
  char kind;              // NumPy's kind character: 'b' 'i' 'u' 'f' 'c'
  DTypeKind category;
  int itemsize;
};

const DTypeInfo& dtype_info(DType t);
inline int itemsize(DType t) { return dtype_info(t).itemsize; }
inline std::string_view dtype_name(DType t) { return dtype_info(t).name; }
inline bool is_complex(DType t) { return dtype_info(t).category == DTypeKind::Complex; }
inline bool is_floating(DType t) { return dtype_info(t).category == DTypeKind::Float; }
inline bool is_integer(DType t) {
  auto c = dtype_info(t).category;
  return c == DTypeKind::SignedInt || c == DTypeKind::UnsignedInt;
}

// The dtype of given kind ('b','i','u','f','c') and item size; false when NumPy has one
// that tessera does not support (float128, ...) or none at all.
bool dtype_from_kind(char kind, int itemsize, DType* out);

// The real dtype underlying a complex one (complex64 -> float32); others map to themselves.
DType real_dtype(DType t);

}  // namespace tessera
