#include "backend/cuda/sort_kernel.h"

#include <algorithm>
#include <array>
#include <vector>

#include "backend/cuda/expr_kernel.h"
#include "backend/cuda/render_cuda.h"
#include "backend/cuda/render_values.h"
#include "tessera/cuda.h"
#include "tessera/stream.h"

namespace tessera::cuda {
namespace {

// device/sort.cuh's tiles, each sorted by a block of kTileThreads threads.
constexpr int64_t kTile = 1024;
constexpr unsigned kTileThreads = 256;

// device/sort.cuh's SortParams and its words.
using SortWords = std::array<uint64_t, 8>;
enum SortWord { kKeysIn, kKeysOut, kIndexIn, kIndexOut, kRows, kLength, kWidth, kRight };

uint64_t address(const Array& a) { return reinterpret_cast<uint64_t>(a.data()); }

void run(int device, DType dtype, const char* name, int64_t items, SortWords& words) {
  if (items == 0) return;
  const uintptr_t function = generated_function(
      "sort:" + std::string(dtype_name(dtype)), [&] { return render_sort(dtype); }, name, device);
  launch_grid_stride(function, device, items, words.data(), "sort");
}

// `a`'s values as C-contiguous rows: `a` itself when it is, else a copy on the device.
Array contiguous(int device, const Array& a) {
  if (a.is_c_contiguous()) return a;
  const Array copy = Array::empty(a.shape(), a.dtype(), a.device());
  launch_expr(device, *expr::input(a, a.dtype()), std::span(&copy, 1));
  return copy;
}

// Sorts the rows of `keys` (C-contiguous), with their indices when `index` is valid; the
// sorted keys and indices end in the arrays returned (the given ones or their twins).
std::pair<Array, Array> merge_sort(int device, Array keys, Array index) {
  const int64_t length = keys.shape()[keys.ndim() - 1];
  const int64_t rows = length == 0 ? 0 : keys.size() / length;
  const bool indexed = index.valid();
  SortWords w{};
  w[kKeysIn] = address(keys);
  w[kIndexIn] = indexed ? address(index) : 0;
  w[kRows] = static_cast<uint64_t>(rows);
  w[kLength] = static_cast<uint64_t>(length);
  const int64_t tiles = rows * ((length + kTile - 1) / kTile);
  if (tiles > 0) {
    const uintptr_t function = generated_function(
        "sort:" + std::string(dtype_name(keys.dtype())), [&] { return render_sort(keys.dtype()); },
        indexed ? "ts_sort_tiles_indexed" : "ts_sort_tiles", device);
    const auto blocks =
        static_cast<unsigned>(std::min<int64_t>(tiles, int64_t{32} * multiprocessors(device)));
    const size_t shared = 2 * kTile * (keys.itemsize() + (indexed ? sizeof(int64_t) : 0));
    std::vector<void*> params = {w.data()};
    launch(function, {blocks, 1, 1}, {kTileThreads, 1, 1}, shared,
           current_stream(Device::cuda(device)), params, "sort");
  }
  if (length <= kTile) return {keys, index};
  Array other_keys = Array::empty(keys.shape(), keys.dtype(), keys.device());
  Array other_index = indexed ? Array::empty(index.shape(), DType::Int64, index.device()) : Array();
  for (int64_t width = kTile; width < length; width *= 2) {
    w[kKeysIn] = address(keys);
    w[kKeysOut] = address(other_keys);
    w[kIndexIn] = indexed ? address(index) : 0;
    w[kIndexOut] = indexed ? address(other_index) : 0;
    w[kWidth] = static_cast<uint64_t>(width);
    run(device, keys.dtype(), indexed ? "ts_sort_merge_indexed" : "ts_sort_merge", rows * length,
        w);
    std::swap(keys, other_keys);
    std::swap(index, other_index);
  }
  return {keys, index};
}

}  // namespace

std::string render_sort(DType dtype) {
  const std::string T = detail::type_of(dtype);
  const auto kernel = [&](const std::string& name, const std::string& call,
                          const std::string& args = "(p)") {
    return "extern \"C\" __global__ void __launch_bounds__(256) " + name +
           "(const tessera::device::SortParams p) {\n  tessera::device::" + call + args +
           ";\n}\n";
  };
  return render_cuda_prologue() + detail::device_file("backend/cuda/device/sort.cuh") +
         "#line 1 \"[tessera] sort kernels\"\n" +
         "extern __shared__ __align__(16) unsigned char ts_sort_shared[];\n" +
         kernel("ts_sort_tiles", "sort_tiles<" + T + ", false>", "(p, ts_sort_shared)") +
         kernel("ts_sort_tiles_indexed", "sort_tiles<" + T + ", true>", "(p, ts_sort_shared)") +
         kernel("ts_sort_merge", "merge_pass<" + T + ", false>") +
         kernel("ts_sort_merge_indexed", "merge_pass<" + T + ", true>") +
         kernel("ts_searchsorted", "search_sorted<" + T + ">");
}

void launch_sort(int device, const Array& a) {
  if (a.ndim() == 0 || a.size() == 0) return;
  const Array keys = contiguous(device, a);
  const Array sorted = merge_sort(device, keys, Array()).first;
  if (sorted.data() != a.data() || !a.is_c_contiguous()) {
    launch_expr(device, *expr::input(sorted, a.dtype()), std::span(&a, 1));
  }
}

void launch_argsort(int device, const Array& a, const Array& index) {
  if (a.ndim() == 0 || a.size() == 0) return;
  // The keys are always a copy: argsort leaves `a` as it is.
  const Array keys = Array::empty(a.shape(), a.dtype(), a.device());
  launch_expr(device, *expr::input(a, a.dtype()), std::span(&keys, 1));
  const Array order = index.is_c_contiguous()
                          ? index
                          : Array::empty(index.shape(), DType::Int64, index.device());
  const Array sorted = merge_sort(device, keys, order).second;
  if (sorted.data() != index.data() || !index.is_c_contiguous()) {
    launch_expr(device, *expr::input(sorted, DType::Int64), std::span(&index, 1));
  }
}

void launch_searchsorted(int device, const Array& sorted, const Array& values, bool right,
                         const Array& out) {
  SortWords w{};
  w[kKeysIn] = address(sorted);
  w[kKeysOut] = address(values);
  w[kIndexOut] = address(out);
  w[kRows] = static_cast<uint64_t>(values.size());
  w[kLength] = static_cast<uint64_t>(sorted.size());
  w[kRight] = right ? 1 : 0;
  run(device, sorted.dtype(), "ts_searchsorted", values.size(), w);
}

}  // namespace tessera::cuda
