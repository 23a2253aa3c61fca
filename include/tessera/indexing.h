#pragma once
// Advanced indexing with NumPy's rules: integer and boolean arrays mixed with integers,
// slices, new axes and an ellipsis; where the advanced dimensions land; duplicate
// indices in assignments. Out-of-bounds indices raise IndexError before anything moves
// (on every device: the bounds check is a reduction over the index arrays).

#include <optional>
#include <vector>

#include "tessera/array.h"
#include "tessera/ufunc.h"

namespace tessera {

// One item of an index: a basic item, or an integer or boolean array (a Python bool is a
// 0-d boolean array).
struct KeyItem {
  IndexItem basic;
  std::optional<Array> array;

  static KeyItem of(const IndexItem& item) { return {item, std::nullopt}; }
  static KeyItem of(const Array& a) { return {IndexItem{}, a}; }
};

// a[key]: a view when the key is basic, else a new array.
Array getitem(const Array& a, const std::vector<KeyItem>& key);
// a[key] = value: value is broadcast to a[key]'s shape and cast to a's dtype.
void setitem(const Array& a, const std::vector<KeyItem>& key, const Array& value);

// ufunc.at: a[key] = op(a[key], b) (or op(a[key]) for a unary op) element by element, so
// repeated indices apply repeatedly; b is broadcast to a[key]'s shape.
void ufunc_at(Ufunc op, const Array& a, const std::vector<KeyItem>& key,
              const std::optional<Operand>& b);

// Indices of the non-zero elements: one int64 array per dimension (NumPy's nonzero).
std::vector<Array> nonzero(const Array& a);
// Indices of the non-zero elements of the flattened array.
Array flatnonzero(const Array& a);

}  // namespace tessera
