// Strided copy with dtype conversion: the primitive under copy(), astype(), assignment,
// fills and transfers. One inner loop per (source, destination) type pair.

#include <array>
#include <atomic>
#include <cstring>

#include "backend/cpu/cpu_backend.h"
#include "backend/cpu/fp_flags.h"
#include "backend/cpu/strided_loop.h"
#include "kernels/cast.h"
#include "kernels/types.h"

namespace tessera::cpu {
namespace {

// Below this many elements a dense copy in one order is one row on this thread.
constexpr int64_t kOneRowElements = 1 << 15;

template <typename From, typename To>
void cast_row(const std::byte* src, int64_t src_stride, std::byte* dst, int64_t dst_stride,
              int64_t n) {
  if (src_stride == 0 && dst_stride == sizeof(To)) {
    // A broadcast scalar (fills): convert once.
    From v;
    std::memcpy(&v, src, sizeof(From));
    const To out = kernels::cast_value<To>(v);
    To* d = reinterpret_cast<To*>(dst);
    for (int64_t i = 0; i < n; ++i) d[i] = out;
    return;
  }
  if (src_stride == sizeof(From) && dst_stride == sizeof(To)) {
    // Contiguous: plain indexing lets the compiler vectorize the conversion.
    const From* s = reinterpret_cast<const From*>(src);
    To* d = reinterpret_cast<To*>(dst);
    for (int64_t i = 0; i < n; ++i) d[i] = kernels::cast_value<To>(s[i]);
    return;
  }
  for (int64_t i = 0; i < n; ++i) {
    From v;
    std::memcpy(&v, src + i * src_stride, sizeof(From));
    To out = kernels::cast_value<To>(v);
    std::memcpy(dst + i * dst_stride, &out, sizeof(To));
  }
}

using CastTable = std::array<std::array<CastRow, kNumDTypes>, kNumDTypes>;

CastTable make_cast_table() {
  CastTable table{};
  for (int f = 0; f < kNumDTypes; ++f) {
    for (int t = 0; t < kNumDTypes; ++t) {
      table[f][t] = kernels::visit_dtype(static_cast<DType>(f), [&](auto from) {
        return kernels::visit_dtype(static_cast<DType>(t), [&](auto to) -> CastRow {
          return &cast_row<decltype(from), decltype(to)>;
        });
      });
    }
  }
  return table;
}

const CastTable& cast_table() {
  static const CastTable table = make_cast_table();
  return table;
}

}  // namespace

CastRow cast_row_for(DType from, DType to) {
  return cast_table()[static_cast<int>(from)][static_cast<int>(to)];
}

void strided_copy(const Array& src, const Array& dst) {
  if (dst.size() == 0) return;
  const int64_t isize = dst.itemsize();
  CastRow row = cast_table()[static_cast<int>(src.dtype())][static_cast<int>(dst.dtype())];
  // A conversion raises NumPy's "invalid value encountered in cast" (nan to an integer)
  // and its overflow and underflow; each thread's flags are gathered for the caller.
  std::atomic<unsigned> raised{0};
  const bool same_order = (src.is_c_contiguous() && dst.is_c_contiguous()) ||
                          (src.is_f_contiguous() && dst.is_f_contiguous());
  if (same_order && dst.size() < kOneRowElements) {
    // Both dense in the same order, and small (t.astype(float32)): one row, with no layout
    // to simplify and no rows to hand out.
    clear_stale_fp_errors();
    row(src.data(), src.itemsize(), dst.data(), isize, dst.size());
    collect_fp_errors(raised);
  } else {
    const Dims strides[2] = {dst.strides(), src.strides()};
    StridedLayout layout = simplify_layout(dst.shape(), strides, 2);
    std::byte* base[2] = {dst.data(), src.data()};
    const int inner = layout.shape.size() - 1;
    if (src.dtype() == dst.dtype() && layout.strides[0][inner] == isize &&
        layout.strides[1][inner] == isize) {
      for_each_row(layout, base, isize, [isize](std::byte* const* p, int64_t n) {
        std::memcpy(p[0], p[1], n * isize);
      });
      return;
    }
    const int64_t dst_step = layout.strides[0].back(), src_step = layout.strides[1].back();
    for_each_row(layout, base, isize, [&](std::byte* const* p, int64_t n) {
      clear_stale_fp_errors();
      row(p[1], src_step, p[0], dst_step, n);
      collect_fp_errors(raised);
    });
  }
  if (const unsigned r = raised.load(std::memory_order_relaxed)) {
    record_fp_errors("cast", r, fp_modes());
  }
}

}  // namespace tessera::cpu
