#include "backend/cuda/index_kernel.h"

#include <algorithm>
#include <array>
#include <memory>
#include <vector>

#include "backend/cuda/expr_kernel.h"
#include "backend/cuda/fold_kernel.h"
#include "backend/cuda/render_cuda.h"
#include "backend/cuda/render_values.h"
#include "backend/cuda/runtime.h"
#include "backend/cuda/sort_kernel.h"
#include "jit/kernel_text.h"
#include "tessera/buffer.h"
#include "tessera/cuda.h"
#include "tessera/stream.h"

namespace tessera::cuda {
namespace {

constexpr unsigned kBlock = 256;
// device/index.cuh's chunk of a compaction: kCompactThreads * kPerThread elements.
constexpr int64_t kChunk = 256 * 16;

// device/index.cuh's IndexParams and its words.
using IndexWords = std::array<uint64_t, 17 + 2 * 64>;
enum IndexWord {
  kArray, kFlat, kOffsets, kCount, kPre, kPost, kItem, kNpre, kNdim, kExtent, kStride, kBad,
  kMask, kChunkCounts, kElements, kValueItem, kOrder, kShape, kStrides = kShape + 64,
};

// The indexed array's view (npre leading dims, then the post dims) and the offsets.
IndexWords words_for(const Array& array, int npre, const Array& offsets, const Array& flat) {
  IndexWords w{};
  w[kArray] = reinterpret_cast<uint64_t>(array.data());
  w[kFlat] = flat.valid() ? reinterpret_cast<uint64_t>(flat.data()) : 0;
  w[kOffsets] = reinterpret_cast<uint64_t>(offsets.data());
  w[kCount] = static_cast<uint64_t>(offsets.size());
  int64_t pre = 1, post = 1;
  for (int d = 0; d < array.ndim(); ++d) (d < npre ? pre : post) *= array.shape()[d];
  w[kPre] = static_cast<uint64_t>(pre);
  w[kPost] = static_cast<uint64_t>(post);
  w[kItem] = static_cast<uint64_t>(array.itemsize());
  w[kNpre] = static_cast<uint64_t>(npre);
  w[kNdim] = static_cast<uint64_t>(array.ndim());
  for (int d = 0; d < array.ndim(); ++d) {
    w[kShape + d] = static_cast<uint64_t>(array.shape()[d]);
    w[kStrides + d] = static_cast<uint64_t>(array.strides()[d]);
  }
  return w;
}

std::string wrapper(const char* name, const std::string& call) {
  return std::string("extern \"C\" __global__ void __launch_bounds__(256) ") + name +
         "(const tessera::device::IndexParams p) {\n" + call + "\n}\n";
}

void run(int device, const char* name, int64_t threads, IndexWords& words) {
  if (threads == 0) return;
  const uintptr_t function =
      generated_function("index", [] { return render_index(); }, name, device);
  launch_grid_stride(function, device, threads, words.data(), "index");
}

// Reads one int64 of device memory: the host waits for the stream.
int64_t read_back(int device, const void* at) {
  int64_t value = 0;
  activate(device, "index");
  const CUstream stream = stream_handle(current_stream(Device::cuda(device)));
  check(driver()->cuMemcpyDtoHAsync(&value, reinterpret_cast<CUdeviceptr>(at), sizeof(value),
                                    stream),
        "index");
  check(driver()->cuStreamSynchronize(stream), "index");
  return value;
}

// Fills one 8-byte word of device memory with `byte` in every byte, on the stream.
void fill_word(int device, void* at, unsigned char byte) {
  activate(device, "index");
  check(driver()->cuMemsetD8Async(reinterpret_cast<CUdeviceptr>(at), byte, sizeof(int64_t),
                                  stream_handle(current_stream(Device::cuda(device)))),
        "index");
}

// The three passes of a compaction of `mask` into `out`: the values of `src` where it is
// true, or (src invalid) their flat positions.
void compact(int device, const Array& src, const Array& mask, const Array& out) {
  const int64_t n = mask.size();
  if (n == 0 || out.size() == 0) return;
  const int64_t chunks = (n + kChunk - 1) / kChunk;
  const std::shared_ptr<Buffer> counts =
      Buffer::allocate(Device::cuda(device), static_cast<size_t>(chunks) * sizeof(int64_t));
  IndexWords w{};
  w[kArray] = src.valid() ? reinterpret_cast<uint64_t>(src.data()) : 0;
  w[kItem] = src.valid() ? static_cast<uint64_t>(src.itemsize()) : 8;
  w[kFlat] = reinterpret_cast<uint64_t>(out.data());
  w[kMask] = reinterpret_cast<uint64_t>(mask.data());
  w[kChunkCounts] = reinterpret_cast<uint64_t>(counts->data());
  w[kElements] = static_cast<uint64_t>(n);
  const auto function = [&](const char* name) {
    return generated_function("index", [] { return render_index(); }, name, device);
  };
  const Stream stream = current_stream(Device::cuda(device));
  std::vector<void*> params = {w.data()};
  const auto blocks = static_cast<unsigned>(std::min<int64_t>(chunks, 32 * multiprocessors(device)));
  launch(function("ts_compact_count"), {blocks, 1, 1}, {kBlock, 1, 1}, 0, stream, params, "index");
  launch(function("ts_compact_scan"), {1, 1, 1}, {1, 1, 1}, 0, stream, params, "index");
  launch(function("ts_compact_write"), {blocks, 1, 1}, {kBlock, 1, 1}, 0, stream, params, "index");
}

}  // namespace

const std::string& render_index() {
  static const std::string text = [] {
    std::string s = render_cuda_prologue() + detail::device_file("backend/cuda/device/index.cuh");
    s += "#line 1 \"[tessera] indexing kernels\"\n";
    s += wrapper("ts_gather", "  tessera::device::gather_offsets(p);");
    s += wrapper("ts_gather_index", "  tessera::device::gather_indices(p);");
    s += wrapper("ts_scatter", "  tessera::device::scatter_offsets(p);");
    const std::string shared = "  __shared__ long long shared[tessera::device::kCompactThreads];\n";
    s += wrapper("ts_compact_count", shared + "  tessera::device::compact_count(p, shared);");
    s += wrapper("ts_compact_scan", "  tessera::device::compact_scan(p);");
    s += wrapper("ts_compact_write", shared + "  tessera::device::compact_write(p, shared);");
    return s;
  }();
  return text;
}

std::string render_apply_at(Ufunc op, int loop, DType dtype) {
  const UfuncInfo& info = ufunc_info(op);
  const LoopSignature& sig = info.loops[loop];
  const std::string stored = detail::type_of(dtype), in = detail::type_of(sig.in[0]);
  const std::string out = detail::type_of(sig.out[0]);
  std::string apply = "[](char* x, const char* v) {\n    const " + in +
                      " a = tessera::kernels::cast_value<" + in + ">(*reinterpret_cast<const " +
                      stored + "*>(x));\n";
  if (info.nin == 1) {
    apply += "    (void)v;\n    const " + out + " r = static_cast<" + out + ">(" +
             jit::functor_name(op) + "{}(a));\n";
  } else {
    const std::string value = detail::type_of(sig.in[1]);
    apply += "    const " + out + " r = static_cast<" + out + ">(" + jit::functor_name(op) +
             "{}(a, *reinterpret_cast<const " + value + "*>(v)));\n";
  }
  apply += "    *reinterpret_cast<" + stored + "*>(x) = tessera::kernels::cast_value<" + stored +
           ">(r);\n  }";
  return render_cuda_prologue() + detail::device_file("backend/cuda/device/index.cuh") +
         "#line 1 \"[tessera] ufunc.at kernel\"\n" +
         wrapper("ts_at", "  tessera::device::apply_at(p, " + apply + ");");
}

void launch_gather(int device, const Array& src, int npre, const Array& offsets,
                   const Array& out) {
  IndexWords w = words_for(src, npre, offsets, out);
  run(device, "ts_gather", static_cast<int64_t>(w[kPre] * w[kCount] * w[kPost]), w);
}

std::optional<int64_t> launch_gather_index(int device, const Array& src, int npre,
                                           const Array& index, int64_t extent, int64_t stride,
                                           const Array& out) {
  IndexWords w = words_for(src, npre, index, out);
  const int64_t total = static_cast<int64_t>(w[kPre] * w[kCount] * w[kPost]);
  if (total == 0) return std::nullopt;
  const std::shared_ptr<Buffer> bad = Buffer::allocate(Device::cuda(device), sizeof(int64_t));
  fill_word(device, bad->data(), 0xFF);
  w[kExtent] = static_cast<uint64_t>(extent);
  w[kStride] = static_cast<uint64_t>(stride);
  w[kBad] = reinterpret_cast<uint64_t>(bad->data());
  run(device, "ts_gather_index", total, w);
  // The bounds check is where the host waits: the error must be raised now.
  const auto position = static_cast<uint64_t>(read_back(device, bad->data()));
  if (position == ~uint64_t{0}) return std::nullopt;
  const int64_t b = static_cast<int64_t>(position / w[kPost] % w[kCount]);
  return read_back(device, reinterpret_cast<const int64_t*>(index.data()) + b);
}

// A scatter's threads: one per row walking every offset in order, or, where the offsets
// outnumber the rows (`x[idx] = v` on a vector has one row), one per (row, offset) after a
// stable sort of the offsets, whose order stays alive in `order` until the scatter has run.
int64_t scatter_threads(int device, const Array& offsets, IndexWords& w, Array& order) {
  const int64_t rows = static_cast<int64_t>(w[kPre] * w[kPost]);
  const int64_t count = static_cast<int64_t>(w[kCount]);
  if (count <= rows || count < 2) return rows;
  const Array flat(offsets.buffer(), DType::Int64, Dims{count}, Dims{8}, offsets.offset());
  order = Array::empty(Dims{count}, DType::Int64, Device::cuda(device));
  launch_argsort(device, flat, order);
  w[kOrder] = reinterpret_cast<uint64_t>(order.data());
  return rows * count;
}

void launch_scatter(int device, const Array& dst, int npre, const Array& offsets,
                    const Array& values) {
  IndexWords w = words_for(dst, npre, offsets, values);
  if (w[kCount] == 0 || w[kPre] * w[kPost] == 0) return;
  Array order;
  const int64_t threads = scatter_threads(device, offsets, w, order);
  run(device, "ts_scatter", threads, w);
}

void launch_scatter_apply(int device, const Array& dst, int npre, const Array& offsets,
                          const Array& values, Ufunc op, int loop) {
  IndexWords w = words_for(dst, npre, offsets, values);
  if (w[kCount] == 0 || w[kPre] * w[kPost] == 0) return;
  Array order;
  const int64_t threads = scatter_threads(device, offsets, w, order);
  w[kValueItem] = ufunc_info(op).nin == 1 ? 0 : itemsize(ufunc_info(op).loops[loop].in[1]);
  const std::string key = "at:" + std::string(ufunc_info(op).name) + "#" + std::to_string(loop) +
                          ":" + std::string(dtype_name(dst.dtype()));
  const uintptr_t function = generated_function(
      key, [&] { return render_apply_at(op, loop, dst.dtype()); }, "ts_at", device);
  launch_grid_stride(function, device, threads, w.data(), "ufunc.at");
}

void launch_compress(int device, const Array& src, const Array& mask, const Array& out) {
  compact(device, src, mask, out);
}

void launch_flat_nonzero(int device, const Array& mask, const Array& out) {
  compact(device, Array(), mask, out);
}

int64_t count_true(int device, const Array& mask) {
  if (mask.size() == 0) return 0;
  // A sum of the mask read as int64, into one device value the host then reads.
  const Array total = Array::empty(Dims{}, DType::Int64, Device::cuda(device));
  fill_word(device, total.data(), 0);
  Dims zeros(mask.ndim(), 0);
  const Array acc(total.buffer(), DType::Int64, mask.shape(), zeros, 0);
  const auto& loops = ufunc_info(Ufunc::Add).loops;
  int loop = 0;
  while (loops[loop].in[0] != DType::Int64 || loops[loop].out[0] != DType::Int64) ++loop;
  launch_reduce(device, *expr::input(mask, DType::Int64), Ufunc::Add, loop, false, acc);
  return read_back(device, total.data());
}

}  // namespace tessera::cuda
