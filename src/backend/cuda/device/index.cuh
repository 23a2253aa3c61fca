#pragma once
// Advanced indexing and stream compaction on a CUDA device (backend/cuda/index_kernel.h):
// gathers and scatters by byte offsets or checked indices, and the compactions behind
// boolean masks and nonzero. They move elements of any size (a run-time switch over 1, 2,
// 4, 8 and 16 bytes, uniform across a launch), so one program serves every dtype. Device
// code compiled only as text, after the kernel support (render_cuda_prologue).

namespace tessera::device {

// The parameter of the indexing kernels (index_kernel.cpp packs it).
struct IndexParams {
  TsWord w[17 + 2 * 64];
};
enum IndexWord {
  kArray,     // the indexed array's base: gather's source, scatter's destination
  kFlat,      // the C-contiguous side: gather's output, scatter's values
  kOffsets,   // int64 byte offsets, or indices (gather_index)
  kCount,     // offsets or indices
  kPre,       // elements of the leading `npre` dims
  kPost,      // elements of the trailing dims
  kItem,      // element bytes
  kNpre,
  kNdim,      // of the indexed array's view: its npre leading dims, then its post dims
  kExtent,    // gather_index: the indexed dim's length and byte stride
  kStride,
  kBad,       // gather_index: the lowest output position with an index out of bounds
  kMask,      // compactions: the mask, the per-chunk counts, the element count
  kChunkCounts,
  kElements,
  kValueItem, // scatter_apply: the bytes of a value (0: a unary op, no values)
  kOrder,     // scatters by sorted offsets: the offsets' stable order (int64), or null
  kShape,     // the indexed array's shape, then its byte strides
  kStrides = kShape + 64,
};

// The offset of C-order position `flat` over dims [first, first + count) of the indexed
// array.
__device__ __forceinline__ long long dims_offset(const IndexParams& p, int first, int count,
                                                 long long flat) {
  long long off = 0;
  for (int d = first + count - 1; d >= first; --d) {
    const long long n = p.w[kShape + d].i;
    off += (flat % n) * p.w[kStrides + d].i;
    flat /= n;
  }
  return off;
}

struct Bytes16 {
  unsigned long long lo, hi;
};

template <int Size>
struct Element;
template <> struct Element<1> { using type = unsigned char; };
template <> struct Element<2> { using type = unsigned short; };
template <> struct Element<4> { using type = unsigned int; };
template <> struct Element<8> { using type = unsigned long long; };
template <> struct Element<16> { using type = Bytes16; };

template <int Size>
__device__ __forceinline__ void move_element(char* to, const char* from) {
  using E = typename Element<Size>::type;
  *reinterpret_cast<E*>(to) = *reinterpret_cast<const E*>(from);
}

// Body::run<Size>(args...) for the element size of this launch.
template <class Body, class... Args>
__device__ __forceinline__ void with_element_size(long long size, Args&... args) {
  switch (size) {
    case 1: Body::template run<1>(args...); break;
    case 2: Body::template run<2>(args...); break;
    case 4: Body::template run<4>(args...); break;
    case 8: Body::template run<8>(args...); break;
    default: Body::template run<16>(args...); break;
  }
}

// out[p, b, q] = array[p, q] displaced by offsets[b] (out's flat position t = (p, b, q)).
struct GatherOffsets {
  template <int Size>
  __device__ static void run(const IndexParams& p) {
    const long long nb = p.w[kCount].i, post = p.w[kPost].i;
    const int npre = static_cast<int>(p.w[kNpre].i);
    const int npost = static_cast<int>(p.w[kNdim].i) - npre;
    const long long* offsets = reinterpret_cast<const long long*>(p.w[kOffsets].a);
    grid_stride<long long>(p.w[kPre].i * nb * post, [&](long long t) {
      const long long q = t % post, rest = t / post;
      const char* from = p.w[kArray].a + dims_offset(p, 0, npre, rest / nb) +
                         offsets[rest % nb] + dims_offset(p, npre, npost, q);
      move_element<Size>(p.w[kFlat].a + t * Size, from);
    });
  }
};
__device__ void gather_offsets(const IndexParams& p) {
  with_element_size<GatherOffsets>(p.w[kItem].i, p);
}

// GatherOffsets with indices along one dim (negative ones count from its end), checked:
// an index out of bounds records its output position in the kBad word (the lowest wins)
// and moves nothing.
struct GatherIndices {
  template <int Size>
  __device__ static void run(const IndexParams& p) {
    const long long nb = p.w[kCount].i, post = p.w[kPost].i;
    const long long extent = p.w[kExtent].i, stride = p.w[kStride].i;
    const int npre = static_cast<int>(p.w[kNpre].i);
    const int npost = static_cast<int>(p.w[kNdim].i) - npre;
    const long long* indices = reinterpret_cast<const long long*>(p.w[kOffsets].a);
    unsigned long long* bad = reinterpret_cast<unsigned long long*>(p.w[kBad].a);
    grid_stride<long long>(p.w[kPre].i * nb * post, [&](long long t) {
      const long long q = t % post, rest = t / post;
      long long i = indices[rest % nb];
      i += i < 0 ? extent : 0;
      if (static_cast<unsigned long long>(i) >= static_cast<unsigned long long>(extent)) {
        atomicMin(bad, static_cast<unsigned long long>(t));
        return;
      }
      const char* from = p.w[kArray].a + dims_offset(p, 0, npre, rest / nb) + i * stride +
                         dims_offset(p, npre, npost, q);
      move_element<Size>(p.w[kFlat].a + t * Size, from);
    });
  }
};
__device__ void gather_indices(const IndexParams& p) {
  with_element_size<GatherIndices>(p.w[kItem].i, p);
}

// f(array[p, q] displaced by offsets[b], values[p, b, q]) with values of `value_size`
// bytes, repeated offsets taking their values in order, as NumPy's do (`last_only`: only
// the last of them, which is all an assignment keeps). Two ways:
// - without kOrder, one thread per (p, q) walks b in order (a later value overwrites an
//   earlier one): for many rows and few offsets;
// - with kOrder, the offsets' stable sort, one thread per (p, b, q): the thread of the last
//   (`last_only`) or the first of each run of equal offsets applies that run's values in
//   order, so no two threads touch one element, and the offsets need not be few.
template <class F>
__device__ __forceinline__ void scatter_each(const IndexParams& p, long long value_size,
                                             bool last_only, F&& f) {
  const long long nb = p.w[kCount].i, post = p.w[kPost].i;
  const int npre = static_cast<int>(p.w[kNpre].i);
  const int npost = static_cast<int>(p.w[kNdim].i) - npre;
  const long long* offsets = reinterpret_cast<const long long*>(p.w[kOffsets].a);
  const long long* order = reinterpret_cast<const long long*>(p.w[kOrder].a);
  const auto row_of = [&](long long pre, long long q) {
    return p.w[kArray].a + dims_offset(p, 0, npre, pre) + dims_offset(p, npre, npost, q);
  };
  const auto values_of = [&](long long pre, long long q) {
    return p.w[kFlat].a + (pre * nb * post + q) * value_size;
  };
  if (order == nullptr) {
    grid_stride<long long>(p.w[kPre].i * post, [&](long long t) {
      const long long q = t % post, pre = t / post;
      char* row = row_of(pre, q);
      const char* values = values_of(pre, q);
      for (long long b = 0; b < nb; ++b) f(row + offsets[b], values + b * post * value_size);
    });
    return;
  }
  grid_stride<long long>(p.w[kPre].i * nb * post, [&](long long t) {
    const long long q = t % post, rest = t / post, r = rest % nb, pre = rest / nb;
    const long long offset = offsets[order[r]];
    const bool leads = last_only ? r + 1 == nb || offsets[order[r + 1]] != offset
                                 : r == 0 || offsets[order[r - 1]] != offset;
    if (!leads) return;
    char* to = row_of(pre, q) + offset;
    const char* values = values_of(pre, q);
    for (long long s = r; s < nb && offsets[order[s]] == offset; ++s) {
      f(to, values + order[s] * post * value_size);
      if (last_only) break;
    }
  });
}

// Of duplicate offsets the last value stays.
struct ScatterOffsets {
  template <int Size>
  __device__ static void run(const IndexParams& p) {
    scatter_each(p, Size, true, [](char* to, const char* from) { move_element<Size>(to, from); });
  }
};
__device__ void scatter_offsets(const IndexParams& p) {
  with_element_size<ScatterOffsets>(p.w[kItem].i, p);
}

// ufunc.at: each addressed element x becomes op(x, value), or op(x) when there are no
// values; `apply(x, value)` is the op, rendered for its loop (index_kernel.cpp).
template <class Apply>
__device__ void apply_at(const IndexParams& p, Apply apply) {
  scatter_each(p, p.w[kValueItem].i, false, apply);
}

// Stream compaction of a bool mask of kElements elements, in chunks of kChunk: counts per
// chunk (compact_count), their exclusive scan (compact_scan), then each chunk's true
// elements written in order from its start (compact_write), by one block of kCompactThreads
// threads, each owning kPerThread consecutive elements.
constexpr int kCompactThreads = 256, kPerThread = 16, kChunk = kCompactThreads * kPerThread;

// The exclusive prefix sum over the block's threads of `count`; the block's total in
// `total`. `shared` holds kCompactThreads values.
__device__ __forceinline__ long long block_exclusive_sum(long long count, long long* shared,
                                                         long long& total) {
  const unsigned t = threadIdx.x;
  shared[t] = count;
  __syncthreads();
  for (unsigned step = 1; step < kCompactThreads; step *= 2) {
    const long long add = t >= step ? shared[t - step] : 0;
    __syncthreads();
    shared[t] += add;
    __syncthreads();
  }
  total = shared[kCompactThreads - 1];
  const long long inclusive = shared[t];
  __syncthreads();
  return inclusive - count;
}

__device__ void compact_count(const IndexParams& p, long long* shared) {
  const bool* mask = reinterpret_cast<const bool*>(p.w[kMask].a);
  const long long n = p.w[kElements].i;
  long long* counts = reinterpret_cast<long long*>(p.w[kChunkCounts].a);
  for (long long chunk = blockIdx.x; chunk * kChunk < n; chunk += gridDim.x) {
    const long long begin = chunk * kChunk + threadIdx.x * kPerThread;
    long long count = 0;
    for (long long i = begin; i < begin + kPerThread && i < n; ++i) count += mask[i] ? 1 : 0;
    long long total;
    block_exclusive_sum(count, shared, total);
    if (threadIdx.x == 0) counts[chunk] = total;
  }
}

// counts[c] becomes the number of true elements before chunk c: one thread, in order (a
// chunk count per 4096 elements is few to add).
__device__ void compact_scan(const IndexParams& p) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  long long* counts = reinterpret_cast<long long*>(p.w[kChunkCounts].a);
  const long long chunks = (p.w[kElements].i + kChunk - 1) / kChunk;
  long long sum = 0;
  for (long long c = 0; c < chunks; ++c) {
    const long long count = counts[c];
    counts[c] = sum;
    sum += count;
  }
}

// The true elements' values (kArray, C-contiguous, kItem bytes each) or, without kArray,
// their flat positions (int64), to kFlat in order.
struct CompactWrite {
  template <int Size>
  __device__ static void run(const IndexParams& p, long long* shared) {
    const bool* mask = reinterpret_cast<const bool*>(p.w[kMask].a);
    const long long n = p.w[kElements].i;
    const long long* starts = reinterpret_cast<const long long*>(p.w[kChunkCounts].a);
    const char* values = p.w[kArray].a;
    for (long long chunk = blockIdx.x; chunk * kChunk < n; chunk += gridDim.x) {
      const long long begin = chunk * kChunk + threadIdx.x * kPerThread;
      const long long end = begin + kPerThread < n ? begin + kPerThread : n;
      long long count = 0;
      for (long long i = begin; i < end; ++i) count += mask[i] ? 1 : 0;
      long long total;
      long long at = starts[chunk] + block_exclusive_sum(count, shared, total);
      for (long long i = begin; i < end; ++i) {
        if (!mask[i]) continue;
        char* to = p.w[kFlat].a + at * Size;
        if (values) {
          move_element<Size>(to, values + i * Size);
        } else {
          *reinterpret_cast<long long*>(to) = i;
        }
        ++at;
      }
    }
  }
};
__device__ void compact_write(const IndexParams& p, long long* shared) {
  with_element_size<CompactWrite>(p.w[kArray].a ? p.w[kItem].i : 8, p, shared);
}

}  // namespace tessera::device
