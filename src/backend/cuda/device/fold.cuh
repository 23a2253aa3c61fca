#pragma once
// Folds on a CUDA device: the reductions, arg-reductions and scans of generated kernels
// (backend/cuda/render_fold.h). This file is device code compiled only as text, after the
// functors and the kernel support (render_cuda_prologue), by NVRTC or by the simulator.
//
// A fold walks its plan's operands over axes split in two: the kept axes (first; each of
// their elements is one output) and the walked axes (each output's values). Output o and
// walked index j locate every operand; operand 0 is where results go. A rendered kernel
// supplies a Traits type with the plan's details:
//   Params                   the kernel's parameter (TsWord w[...], render_cuda.h)
//   Fold                     what one thread accumulates (SumFold, ArgFold)
//   kOperands, kAxes         operands, and the axes each operand has words for
//   kOperandWords            the word of operand 0's address (then dtype, kAxes strides)
//   kKept, kOutputs, kWalked, kChunks, kPartials: the words of the fold's own parameters
//   value(p, at)             the tree's value with operands at addresses `at`
//   finish(p, base, folded)  stores a whole output's fold into operand 0 at `base`
//                            (SumFold's through Fold::finish(start, folded))
//   combine(acc, v)          (ordered folds and scans) the op's next step

namespace tessera::device {

constexpr int kNdimWord = 1, kShapeWord = 3;

template <class Traits>
__device__ __forceinline__ long long stride_of(const typename Traits::Params& p, int k, int d) {
  return p.w[Traits::kOperandWords + k * (2 + Traits::kAxes) + 2 + d].i;
}

// Every operand's address at output o: the kept axes' coordinates times their strides.
template <class Traits, class I>
__device__ __forceinline__ void output_addresses(const typename Traits::Params& p, I o,
                                                 char** at) {
  for (int k = 0; k < Traits::kOperands; ++k) {
    at[k] = p.w[Traits::kOperandWords + k * (2 + Traits::kAxes)].a;
  }
  for (int d = static_cast<int>(p.w[Traits::kKept].i) - 1; d >= 0; --d) {
    const I extent = static_cast<I>(p.w[kShapeWord + d].i);
    const I c = o % extent;
    o /= extent;
    for (int k = 0; k < Traits::kOperands; ++k) {
      at[k] += c * static_cast<I>(stride_of<Traits>(p, k, d));
    }
  }
}

// Every operand's address at walked index j of the output at `base`. One walked axis (the
// common case, merged where the strides allow) is one multiply per operand.
template <class Traits, class I>
__device__ __forceinline__ void walked_addresses(const typename Traits::Params& p, I j,
                                                 char* const* base, char** at) {
  const int kept = static_cast<int>(p.w[Traits::kKept].i);
  const int ndim = static_cast<int>(p.w[kNdimWord].i);
  if (ndim - kept == 1) {
    for (int k = 0; k < Traits::kOperands; ++k) {
      at[k] = base[k] + j * static_cast<I>(stride_of<Traits>(p, k, kept));
    }
    return;
  }
  for (int k = 0; k < Traits::kOperands; ++k) at[k] = base[k];
  for (int d = ndim - 1; d >= kept; --d) {
    const I extent = static_cast<I>(p.w[kShapeWord + d].i);
    const I c = j % extent;
    j /= extent;
    for (int k = 0; k < Traits::kOperands; ++k) {
      at[k] += c * static_cast<I>(stride_of<Traits>(p, k, d));
    }
  }
}

// A thread's or a block's fold of some of one output's values, as it travels between
// threads (shared memory) and between the blocks of a split walk (the partials buffer,
// kFoldedBytes per slot: the launcher allocates it without knowing T).
template <class T>
struct Folded {
  T value;
  long long index;  // ArgFold: where `value` lies along the walked axis
  int any;          // whether any value was folded
};
constexpr int kFoldedBytes = 32;

// A reorderable op's fold (sum, prod, max, logical_or, ...). Values go into `run` 32 at a
// time and runs into `total`, a two-level cascade: a sum's rounding error grows with about
// 32 + n / 32 terms rather than n (the block's tree adds log2 of the threads, the partials
// of a split walk their count). Combine is the op's loop as a functor.
//
// Each combine takes the earlier values first (earlier op later), and the block's tree
// merges neighbouring threads first: where each thread holds at most one value (small
// walks, as in the suite's special values) the fold is in index order, and max(-0.0, 0.0)
// is the later one, as NumPy's elementwise maximum gives it. A thread holding several
// values (j, j + by, ...) breaks exact index order: only which of equal values (signed
// zeros) wins can change, as it does between NumPy's own SIMD widths.
template <class T, class Combine>
struct SumFold {
  using Value = T;
  T total{}, run{};
  int in_run = 0;
  bool any = false;

  __device__ __forceinline__ void add(T v, long long) {
    run = in_run ? Combine{}(run, v) : v;
    if (++in_run == 32) flush();
  }
  __device__ __forceinline__ void flush() {
    if (in_run == 0) return;
    total = any ? Combine{}(total, run) : run;
    any = true;
    in_run = 0;
  }
  __device__ __forceinline__ Folded<T> folded() {
    flush();
    return Folded<T>{total, 0, any ? 1 : 0};
  }
  // b's values come after a's.
  __device__ static void merge(Folded<T>& a, const Folded<T>& b) {
    if (!b.any) return;
    a.value = a.any ? Combine{}(a.value, b.value) : b.value;
    a.any = 1;
  }
  // The output's starting value comes first.
  __device__ static T finish(T start, T folded) { return Combine{}(start, folded); }
};

// argmax (Max) or argmin: the best value and its index (kernels::arg_beats's order). A
// thread sees its indices in increasing order, so a tie keeps its first; between threads
// and blocks a tie goes to the lower index.
template <class T, bool Max>
struct ArgFold {
  using Value = T;
  T best{};
  long long index = -1;

  __device__ __forceinline__ void add(T v, long long j) {
    if (index < 0 || tessera::kernels::arg_beats<Max>(v, best)) {
      best = v;
      index = j;
    }
  }
  __device__ __forceinline__ Folded<T> folded() const {
    return Folded<T>{best, index, index >= 0 ? 1 : 0};
  }
  __device__ static void merge(Folded<T>& a, const Folded<T>& b) {
    if (!b.any) return;
    const bool take = !a.any || tessera::kernels::arg_beats<Max>(b.value, a.value) ||
                      (!tessera::kernels::arg_beats<Max>(a.value, b.value) && b.index < a.index);
    if (take) a = b;
  }
};

// The lanes of the caller's warp that exist: all 32, or fewer in a block smaller than a
// warp (a shuffle's mask must name only lanes that take part).
__device__ __forceinline__ unsigned warp_members() {
  const unsigned threads = blockDim.x * blockDim.y * blockDim.z;
  const unsigned linear = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  const unsigned lanes = min(32u, threads - (linear & ~31u));
  return lanes == 32 ? 0xffffffffu : (1u << lanes) - 1u;
}

// The value of lane + delta (which must be a member), any trivially copyable type: its
// 4-byte words shuffled one by one, since the hardware moves 32 bits at a time.
template <class T>
__device__ __forceinline__ T shuffle_down(unsigned members, const T& value, unsigned delta) {
  static_assert(sizeof(T) % 4 == 0, "shuffled in 4-byte words");
  unsigned words[sizeof(T) / 4];
  memcpy(words, &value, sizeof(T));
  for (unsigned w = 0; w < sizeof(T) / 4; ++w) {
    words[w] = __shfl_down_sync(members, words[w], delta);
  }
  T result;
  memcpy(&result, words, sizeof(T));
  return result;
}

// A reorderable fold. Block (x, y) threads: x across outputs, y (a power of two) across one
// output's walked values, which blockIdx.y splits into gridDim.y chunks. Each thread folds
// its values, the block's y threads merge theirs (a tree: shuffles within a warp, shared
// memory across warps), and the result is finished into operand 0, or, when the walk is
// split, stored as the chunk's partial for fold_partials. `shared` holds blockDim.x * blockDim.y Folded values.
template <class Traits, class I>
__device__ void fold_block(const typename Traits::Params& p, unsigned char* shared) {
  using Fold = typename Traits::Fold;
  using F = Folded<typename Fold::Value>;
  static_assert(sizeof(F) <= kFoldedBytes, "a fold's partial outgrows its slot");
  F* slots = reinterpret_cast<F*>(shared);
  const I outputs = static_cast<I>(p.w[Traits::kOutputs].i);
  const long long walked = p.w[Traits::kWalked].i;
  const long long chunks = gridDim.y, chunk = blockIdx.y;
  const I begin = static_cast<I>(walked * chunk / chunks);
  const I end = static_cast<I>(walked * (chunk + 1) / chunks);
  const unsigned slot = threadIdx.y * blockDim.x + threadIdx.x;
  const I stride = static_cast<I>(blockDim.x) * static_cast<I>(gridDim.x);
  for (I first = static_cast<I>(blockIdx.x) * static_cast<I>(blockDim.x); first < outputs;
       first += stride) {
    const I o = first + static_cast<I>(threadIdx.x);
    char* base[Traits::kOperands];
    Fold fold;
    if (o < outputs) {
      output_addresses<Traits>(p, o, base);
      for (I j = begin + static_cast<I>(threadIdx.y); j < end; j += static_cast<I>(blockDim.y)) {
        char* at[Traits::kOperands];
        walked_addresses<Traits>(p, j, base, at);
        fold.add(Traits::value(p, at), j);
      }
    }
    // Neighbours merge, then pairs of them, ...: when each thread holds at most one value,
    // the values merge in index order. Within a warp by shuffles, then across warps
    // through shared memory.
    F mine = fold.folded();
    const unsigned members = warp_members();
    unsigned step = 1;
    for (; step < blockDim.y && step * blockDim.x < 32; step *= 2) {
      const F later = shuffle_down(members, mine, step * blockDim.x);
      if (threadIdx.y % (2 * step) == 0) Fold::merge(mine, later);
    }
    if (step < blockDim.y) {
      slots[slot] = mine;
      __syncthreads();
      for (; step < blockDim.y; step *= 2) {
        if (threadIdx.y % (2 * step) == 0) {
          Fold::merge(slots[slot], slots[slot + step * blockDim.x]);
        }
        __syncthreads();
      }
      mine = slots[slot];  // no thread reads another's slot again before the next tree's barrier
    }
    if (threadIdx.y == 0 && o < outputs) {
      if (chunks > 1) {
        reinterpret_cast<F*>(p.w[Traits::kPartials].a)[chunk * outputs + o] = mine;
      } else if (mine.any) {
        Traits::finish(p, base, mine);
      }
    }
  }
}

// The chunks' partials of each output (every chunk holds at least one value) merged and
// finished: the second launch of a split walk. They merge pairwise, neighbours first, in
// the output's own column of the buffer: a tree, like the blocks' merges and NumPy's
// pairwise sums, whose rounding error grows with the log of the chunk count (a GPU with
// 132 multiprocessors splits a long float32 sum into a hundred chunks or more, and a
// running total over them would be several times NumPy's error).
template <class Traits, class I>
__device__ void fold_partials(const typename Traits::Params& p) {
  using F = Folded<typename Traits::Fold::Value>;
  F* partials = reinterpret_cast<F*>(p.w[Traits::kPartials].a);
  const I outputs = static_cast<I>(p.w[Traits::kOutputs].i);
  const I chunks = static_cast<I>(p.w[Traits::kChunks].i);
  grid_stride<I>(outputs, [&](I o) {
    for (I width = 1; width < chunks; width *= 2) {
      for (I c = 0; c + width < chunks; c += 2 * width) {
        Traits::Fold::merge(partials[c * outputs + o], partials[(c + width) * outputs + o]);
      }
    }
    F folded = partials[o];
    char* base[Traits::kOperands];
    output_addresses<Traits>(p, o, base);
    Traits::finish(p, base, folded);
  });
}

// An op combined strictly in index order (subtract, divide, ldexp ...), from the value
// operand 0 holds: one thread per output, as the CPU folds it.
template <class Traits, class I>
__device__ void fold_ordered(const typename Traits::Params& p) {
  using Acc = typename Traits::Acc;
  const I outputs = static_cast<I>(p.w[Traits::kOutputs].i);
  const I walked = static_cast<I>(p.w[Traits::kWalked].i);
  grid_stride<I>(outputs, [&](I o) {
    char* base[Traits::kOperands];
    output_addresses<Traits>(p, o, base);
    Acc acc = *reinterpret_cast<const Acc*>(base[0]);
    for (I j = 0; j < walked; ++j) {
      char* at[Traits::kOperands];
      walked_addresses<Traits>(p, j, base, at);
      acc = Traits::combine(acc, Traits::value(p, at));
    }
    *reinterpret_cast<Acc*>(base[0]) = acc;
  });
}

// The inclusive scan along the one walked axis, strictly in order: one thread per line,
// each value stored into operand 0 as it is formed (after its input is read, so an output
// that is its input's very view is scanned in place).
template <class Traits, class I>
__device__ void scan_lines(const typename Traits::Params& p) {
  using Acc = typename Traits::Acc;
  const I outputs = static_cast<I>(p.w[Traits::kOutputs].i);
  const I walked = static_cast<I>(p.w[Traits::kWalked].i);
  grid_stride<I>(outputs, [&](I o) {
    char* base[Traits::kOperands];
    output_addresses<Traits>(p, o, base);
    Acc run{};
    for (I j = 0; j < walked; ++j) {
      char* at[Traits::kOperands];
      walked_addresses<Traits>(p, j, base, at);
      const Acc v = static_cast<Acc>(Traits::value(p, at));
      run = j == 0 ? v : Traits::combine(run, v);
      *reinterpret_cast<Acc*>(at[0]) = run;
    }
  });
}

// A scan whose op reorders exactly (integer sums and products, which wrap, and the
// bitwise, logical and extreme ops of integers and bools) over long lines: in tiles of
// kScanTile values, each scanned by a block, chained by decoupled look-back (Merrill and
// Garland, "Single-pass Parallel Prefix Scan with Decoupled Look-back", 2016) so that the
// values are read once and written once. Tiles are numbered in the order blocks claim them
// (an atomic counter), so a tile's predecessors belong to blocks already running: a block
// waiting for them always waits on progress. Each tile publishes its aggregate, then, once
// it knows every earlier tile's, its inclusive prefix; a tile looks back over its
// predecessors until one gives an inclusive prefix. The status lies at `kPartials`: a
// claim counter (8 bytes), one flag per tile (4 bytes; 0 none, 1 aggregate, 2 inclusive,
// zeroed before the launch), then aggregates and inclusive prefixes in 8-byte slots.
// Blocks are kScanThreads threads; the lines (outputs) are tiled one after another.
constexpr int kScanThreads = 256, kScanItems = 8, kScanTile = kScanThreads * kScanItems;
constexpr int kScanSharedBytes = 128;  // render_fold.h's

template <class Acc>
struct ScanShared {
  long long tile;
  Acc prefix;  // the tile's prefix from earlier tiles, when have_prefix
  int have_prefix;
  Acc warp_total[kScanThreads / 32];
};

// The integer or bool value of lane - delta (the hardware shuffles 32 or 64 bits).
template <class Acc>
__device__ __forceinline__ Acc shuffle_up_integer(Acc value, unsigned delta) {
  if constexpr (sizeof(Acc) == 8) {
    return static_cast<Acc>(__shfl_up_sync(0xffffffffu, static_cast<long long>(value), delta));
  } else {
    return static_cast<Acc>(__shfl_up_sync(0xffffffffu, static_cast<int>(value), delta));
  }
}

// Merges the inclusive scan of a warp's (has, value) pairs, `has` false only on lanes past
// the line's end (the last lanes): Hillis and Steele's steps by shuffles.
template <class Traits, class Acc>
__device__ __forceinline__ void warp_scan(Acc& value, bool& has) {
  const unsigned lane = threadIdx.x % 32;
  for (unsigned d = 1; d < 32; d *= 2) {
    const Acc earlier = shuffle_up_integer(value, d);
    const bool earlier_has = __shfl_up_sync(0xffffffffu, has ? 1 : 0, d) != 0;
    if (lane >= d && earlier_has) {
      value = has ? Traits::combine(earlier, value) : earlier;
      has = true;
    }
  }
}

template <class Traits, class I>
__device__ void scan_tiles(const typename Traits::Params& p, unsigned char* shared) {
  using Acc = typename Traits::Acc;
  static_assert(sizeof(ScanShared<Acc>) <= kScanSharedBytes, "the launch gives less");
  ScanShared<Acc>& sh = *reinterpret_cast<ScanShared<Acc>*>(shared);
  const I walked = static_cast<I>(p.w[Traits::kWalked].i);
  const long long per_line = p.w[Traits::kChunks].i;
  const long long tiles = p.w[Traits::kOutputs].i * per_line;
  char* status = p.w[Traits::kPartials].a;
  unsigned long long* counter = reinterpret_cast<unsigned long long*>(status);
  volatile int* flags = reinterpret_cast<volatile int*>(status + 8);
  char* slots = status + 8 + ((4 * tiles + 7) / 8) * 8;
  volatile Acc* aggregate = reinterpret_cast<volatile Acc*>(slots);
  volatile Acc* inclusive = reinterpret_cast<volatile Acc*>(slots + 8 * tiles);
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (;;) {
    if (threadIdx.x == 0) sh.tile = static_cast<long long>(atomicAdd(counter, 1ull));
    __syncthreads();
    const long long t = sh.tile;
    if (t >= tiles) return;
    const I o = static_cast<I>(t / per_line);
    const I begin = static_cast<I>(t % per_line) * kScanTile + threadIdx.x * kScanItems;
    char* base[Traits::kOperands];
    output_addresses<Traits>(p, o, base);
    // This thread's values, scanned.
    Acc items[kScanItems];
    Acc mine{};
    bool has = false;
    for (int i = 0; i < kScanItems; ++i) {
      if (begin + i >= walked) break;
      char* at[Traits::kOperands];
      walked_addresses<Traits>(p, begin + static_cast<I>(i), base, at);
      const Acc v = static_cast<Acc>(Traits::value(p, at));
      mine = has ? Traits::combine(mine, v) : v;
      items[i] = mine;
      has = true;
    }
    // The threads' totals scanned across the block: within warps, then the warps' totals.
    Acc scanned = mine;
    bool scanned_has = has;
    warp_scan<Traits>(scanned, scanned_has);
    if (lane == 31) sh.warp_total[warp] = scanned;  // every warp holds values: none is past
    __syncthreads();                                // the end while a later one is not
    // The prefix of this thread's values within the tile: earlier warps, earlier lanes.
    Acc before{};
    bool before_has = false;
    for (unsigned w = 0; w < warp; ++w) {
      before = before_has ? Traits::combine(before, sh.warp_total[w]) : sh.warp_total[w];
      before_has = true;
    }
    const Acc lane_before = shuffle_up_integer(scanned, 1);
    if (lane > 0) {
      before = before_has ? Traits::combine(before, lane_before) : lane_before;
      before_has = true;
    }
    if (threadIdx.x == 0) {
      Acc total = sh.warp_total[0];
      for (unsigned w = 1; w < kScanThreads / 32; ++w) {
        if (static_cast<I>(w) * 32 * kScanItems + begin < walked) {
          total = Traits::combine(total, sh.warp_total[w]);
        }
      }
      Acc prefix{};
      bool have = false;
      if (t % per_line != 0) {
        aggregate[t] = total;
        __threadfence();
        flags[t] = 1;
        for (long long k = t - 1;; --k) {
          int flag;
          while ((flag = flags[k]) == 0) {
          }
          __threadfence();
          const Acc earlier = flag == 2 ? inclusive[k] : aggregate[k];
          prefix = have ? Traits::combine(earlier, prefix) : earlier;
          have = true;
          if (flag == 2) break;
        }
        total = Traits::combine(prefix, total);
      }
      inclusive[t] = total;
      __threadfence();
      flags[t] = 2;
      sh.prefix = prefix;
      sh.have_prefix = have ? 1 : 0;
    }
    __syncthreads();
    if (sh.have_prefix) {
      before = before_has ? Traits::combine(sh.prefix, before) : sh.prefix;
      before_has = true;
    }
    for (int i = 0; i < kScanItems; ++i) {
      if (begin + i >= walked) break;
      char* at[Traits::kOperands];
      walked_addresses<Traits>(p, begin + static_cast<I>(i), base, at);
      *reinterpret_cast<Acc*>(at[0]) = before_has ? Traits::combine(before, items[i]) : items[i];
    }
    __syncthreads();  // sh.tile is claimed anew
  }
}

}  // namespace tessera::device
