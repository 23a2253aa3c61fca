// Gathers and scatters for advanced indexing, and the stream compactions behind boolean
// masks and nonzero. Indices arrive as byte offsets already checked by the core, so these
// loops only move bytes: by element size for single elements, memcpy for contiguous runs.
// Compactions split the array over threads: each counts its share, then copies to its
// place in the output.

#include <algorithm>
#include <cstring>
#include <mutex>
#include <vector>

#include "backend/cpu/cpu_backend.h"
#include "backend/cpu/element_bytes.h"
#include "backend/cpu/parallel.h"
#include "backend/cpu/ufunc_loops.h"

namespace tessera::cpu {
namespace {

constexpr int64_t kGrain = 16 << 10;

// Byte offset of the flat C-order position `flat` over the first `nd` axes of `a`.
int64_t offset_of(const Array& a, int first, int nd, int64_t flat) {
  int64_t off = 0;
  for (int i = first + nd - 1; i >= first; --i) {
    const int64_t n = a.shape()[i];
    off += (flat % n) * a.strides()[i];
    flat /= n;
  }
  return off;
}

// The post dims of `a` (from axis `first`) as one run: its length and stride when they
// merge into one, else {count, 0} to say "walk them one by one".
struct Run {
  int64_t count = 1;
  int64_t stride = 0;
  bool single = true;
};

Run post_run(const Array& a, int first) {
  Run r;
  for (int i = a.ndim() - 1; i >= first; --i) {
    const int64_t n = a.shape()[i];
    if (n == 1) continue;
    if (r.count == 1) {
      r.stride = a.strides()[i];
    } else if (a.strides()[i] != r.stride * r.count) {
      r.single = false;
    }
    r.count *= n;
  }
  return r;
}

// Copies the q elements of the post dims between `strided` (a's post layout at `base`) and
// contiguous memory, in C order.
void copy_post(const Array& a, int first, const Run& run, std::byte* base, std::byte* flat,
               bool to_flat) {
  const int64_t size = a.itemsize();
  if (run.single && run.stride == size) {
    to_flat ? std::memcpy(flat, base, run.count * size) : std::memcpy(base, flat, run.count * size);
    return;
  }
  const int post = a.ndim() - first;
  for (int64_t q = 0; q < run.count; ++q) {
    std::byte* p = base + (run.single ? q * run.stride : offset_of(a, first, post, q));
    to_flat ? std::memcpy(flat + q * size, p, size) : std::memcpy(p, flat + q * size, size);
  }
}

}  // namespace

void gather(const Array& src, int npre, const Array& offsets, const Array& out) {
  const int64_t nb = offsets.size();
  int64_t pre = 1;
  for (int i = 0; i < npre; ++i) pre *= src.shape()[i];
  const Run run = post_run(src, npre);
  const int64_t size = src.itemsize();
  const int64_t* off = reinterpret_cast<const int64_t*>(offsets.data());
  std::byte* base = src.data();
  std::byte* dst = out.data();
  if (pre * nb * run.count == 0) return;
  if (run.count == 1) {
    // One element per offset: a typed loop, the pre position stepped, not divided out.
    auto gather_elements = [&](auto element) {
      using E = decltype(element);
      parallel_for(pre * nb, kGrain, [&](int64_t begin, int64_t end) {
        int64_t p = begin / nb, b = begin % nb;
        const std::byte* row = base + offset_of(src, 0, npre, p);
        E* out = reinterpret_cast<E*>(dst) + begin;
        for (int64_t t = begin; t < end; ++t) {
          std::memcpy(out++, row + off[b], sizeof(E));
          if (++b == nb && t + 1 < end) {
            b = 0;
            row = base + offset_of(src, 0, npre, ++p);
          }
        }
      });
    };
    visit_element_size(size, gather_elements);
    return;
  }
  const int64_t grain = std::max<int64_t>(1, kGrain / run.count);
  parallel_for(pre * nb, grain, [&](int64_t begin, int64_t end) {
    for (int64_t t = begin; t < end; ++t) {
      const int64_t p = t / nb, b = t % nb;
      copy_post(src, npre, run, base + offset_of(src, 0, npre, p) + off[b],
                dst + t * run.count * size, true);
    }
  });
}

std::optional<int64_t> gather_index(const Array& src, int npre, const Array& index,
                                    int64_t extent, int64_t stride, const Array& out) {
  const int64_t nb = index.size();
  int64_t pre = 1;
  for (int i = 0; i < npre; ++i) pre *= src.shape()[i];
  const Run run = post_run(src, npre);
  const int64_t* idx = reinterpret_cast<const int64_t*>(index.data());
  std::byte* base = src.data();
  std::byte* dst = out.data();
  const int64_t size = src.itemsize();
  // Out-of-bounds indices: each thread stops at its first; the lowest position wins.
  std::vector<std::pair<int64_t, int64_t>> found;
  std::mutex found_lock;
  auto gather_rows = [&](auto element) {
    using E = decltype(element);
    const int64_t grain = run.count == 1 ? kGrain : std::max<int64_t>(1, kGrain / run.count);
    parallel_for(pre * nb, grain, [&](int64_t begin, int64_t end) {
      // Locals, not captures: the loop must stay a few instructions long so the core keeps
      // many of its independent random loads in flight.
      const int64_t* ix = idx;
      const int64_t ext = extent, str = stride, count = nb;
      const std::byte* from_base = base;
      if (npre == 0 && run.count == 1) {
        E* o = reinterpret_cast<E*>(dst);
        for (int64_t t = begin; t < end; ++t) {
          int64_t i = ix[t];
          i += i < 0 ? ext : 0;
          if (static_cast<uint64_t>(i) >= static_cast<uint64_t>(ext)) {
            std::lock_guard<std::mutex> hold(found_lock);
            found.emplace_back(t, ix[t]);
            return;
          }
          std::memcpy(o + t, from_base + i * str, sizeof(E));
        }
        return;
      }
      int64_t p = begin / count, b = begin % count;
      const std::byte* row = from_base + offset_of(src, 0, npre, p);
      for (int64_t t = begin; t < end; ++t) {
        int64_t i = ix[b];
        i += i < 0 ? ext : 0;
        if (static_cast<uint64_t>(i) >= static_cast<uint64_t>(ext)) {
          std::lock_guard<std::mutex> hold(found_lock);
          found.emplace_back(t, ix[b]);
          return;
        }
        const std::byte* from = row + i * str;
        if (run.count == 1) {
          std::memcpy(reinterpret_cast<E*>(dst) + t, from, sizeof(E));
        } else {
          copy_post(src, npre, run, const_cast<std::byte*>(from), dst + t * run.count * size,
                    true);
        }
        if (++b == count && t + 1 < end) {
          b = 0;
          row = from_base + offset_of(src, 0, npre, ++p);
        }
      }
    });
  };
  visit_element_size(size, gather_rows);
  if (found.empty()) return std::nullopt;
  return std::min_element(found.begin(), found.end())->second;
}

void scatter(const Array& dst, int npre, const Array& offsets, const Array& values) {
  const int64_t nb = offsets.size();
  int64_t pre = 1;
  for (int i = 0; i < npre; ++i) pre *= dst.shape()[i];
  const Run run = post_run(dst, npre);
  const int64_t size = dst.itemsize();
  const int64_t* off = reinterpret_cast<const int64_t*>(offsets.data());
  std::byte* base = dst.data();
  std::byte* src = values.data();
  if (pre * nb * run.count == 0) return;
  // Threads split the pre positions only: each b runs in order, so among duplicate
  // offsets the last value stays, as in NumPy.
  const int64_t grain = std::max<int64_t>(1, kGrain / (nb * run.count));
  parallel_for(pre, grain, [&](int64_t begin, int64_t end) {
    for (int64_t p = begin; p < end; ++p) {
      std::byte* row = base + offset_of(dst, 0, npre, p);
      for (int64_t b = 0; b < nb; ++b) {
        copy_post(dst, npre, run, row + off[b], src + (p * nb + b) * run.count * size, false);
      }
    }
  });
}

void scatter_apply(const Array& dst, int npre, const Array& offsets, const Array& values,
                   Ufunc op, int loop) {
  const LoopSignature& sig = ufunc_info(op).loops[loop];
  const bool unary = ufunc_info(op).nin == 1;
  const int64_t nb = offsets.size();
  int64_t pre = 1;
  for (int i = 0; i < npre; ++i) pre *= dst.shape()[i];
  const int post = dst.ndim() - npre;
  int64_t q_count = 1;
  for (int i = npre; i < dst.ndim(); ++i) q_count *= dst.shape()[i];
  const int64_t* off = reinterpret_cast<const int64_t*>(offsets.data());
  // Each element: read as the loop's first input, apply, write back in dst's dtype.
  const CastRow load = cast_row_for(dst.dtype(), sig.in[0]);
  const CastRow store = cast_row_for(sig.out[0], dst.dtype());
  const LoopFn fn = loop_for(op, loop);
  const int64_t vsize = unary ? 0 : itemsize(sig.in[1]);
  const std::byte* vals = unary ? nullptr : values.data();
  alignas(16) std::byte x[16], r[16];
  int64_t v = 0;
  for (int64_t p = 0; p < pre; ++p) {
    std::byte* row = dst.data() + offset_of(dst, 0, npre, p);
    for (int64_t b = 0; b < nb; ++b) {
      for (int64_t q = 0; q < q_count; ++q, ++v) {
        std::byte* e = row + off[b] + offset_of(dst, npre, post, q);
        load(e, 0, x, 0, 1);
        const std::byte* in[2] = {x, unary ? nullptr : vals + v * vsize};
        std::byte* out[1] = {r};
        fn(in, out, 1);
        store(r, 0, e, 0, 1);
      }
    }
  }
}

namespace {

// Splits [0, n) into one share per thread; counts[c] = true elements of share c.
std::vector<int64_t> count_shares(const bool* mask, int64_t n, int64_t shares) {
  std::vector<int64_t> counts(shares + 1, 0);
  parallel_for(shares, 1, [&](int64_t begin, int64_t end) {
    for (int64_t c = begin; c < end; ++c) {
      // Bytes of 0 and 1 summed as bytes: the compiler vectorizes this loop.
      const uint8_t* bytes = reinterpret_cast<const uint8_t*>(mask);
      int64_t k = 0;
      for (int64_t i = n * c / shares; i < n * (c + 1) / shares; ++i) k += bytes[i];
      counts[c + 1] = k;
    }
  });
  for (int64_t c = 0; c < shares; ++c) counts[c + 1] += counts[c];
  return counts;
}

int64_t share_count(int64_t n) {
  return std::max<int64_t>(1, std::min<int64_t>(num_threads(), n / kGrain));
}

}  // namespace

// Branch-free compaction of one share: values go to a cache-resident staging block
// unconditionally, the position advancing only past selected ones, and each block's
// selected prefix is copied out. (Writing straight to `out` without the branch would
// overrun the share's end; with the branch, a random mask mispredicts half the time.)
template <typename E>
void compress_share(const E* src, const bool* mask, int64_t begin, int64_t end, E* out) {
  constexpr int64_t kStage = 4096;
  E stage[kStage];
  for (int64_t block = begin; block < end; block += kStage) {
    const int64_t stop = std::min(end, block + kStage);
    int64_t k = 0;
    for (int64_t i = block; i < stop; ++i) {
      stage[k] = src[i];
      k += mask[i];
    }
    std::memcpy(out, stage, k * sizeof(E));
    out += k;
  }
}

void compress(const Array& src, const Array& mask, const Array& out) {
  const int64_t n = src.size();
  const bool* m = reinterpret_cast<const bool*>(mask.data());
  const int64_t shares = share_count(n);
  const std::vector<int64_t> start = count_shares(m, n, shares);
  auto run = [&](auto element) {
    using E = decltype(element);
    const E* s = reinterpret_cast<const E*>(src.data());
    E* o = reinterpret_cast<E*>(out.data());
    parallel_for(shares, 1, [&](int64_t begin, int64_t end) {
      for (int64_t c = begin; c < end; ++c) {
        compress_share(s, m, n * c / shares, n * (c + 1) / shares, o + start[c]);
      }
    });
  };
  visit_element_size(src.itemsize(), run);
}

int64_t count_true(const Array& mask) {
  const int64_t n = mask.size();
  if (n == 0) return 0;
  const bool* m = reinterpret_cast<const bool*>(mask.data());
  return count_shares(m, n, share_count(n)).back();
}

void flat_nonzero(const Array& mask, const Array& out) {
  const int64_t n = mask.size();
  const bool* m = reinterpret_cast<const bool*>(mask.data());
  int64_t* o = reinterpret_cast<int64_t*>(out.data());
  const int64_t shares = share_count(n);
  const std::vector<int64_t> start = count_shares(m, n, shares);
  parallel_for(shares, 1, [&](int64_t begin, int64_t end) {
    for (int64_t c = begin; c < end; ++c) {
      int64_t* dst = o + start[c];
      for (int64_t i = n * c / shares; i < n * (c + 1) / shares; ++i) {
        if (m[i]) *dst++ = i;
      }
    }
  });
}

}  // namespace tessera::cpu
