#pragma once
// The CUDA simulator's device runtime, part 3: barriers, memory fences and warp operations
// (shuffles, votes, matches, reductions). Every warp operation is one exchange through the
// executor: the lanes named in the mask meet and each sees all their values.

#include "backend/cudasim/prelude/vector_types.h"

namespace __tsim {

inline unsigned block_threads() {
  const TsimDim3& d = place_->block_dim;
  return d.x * d.y * d.z;
}
inline unsigned thread_rank() {
  const TsimDim3& t = place_->thread_idx;
  const TsimDim3& d = place_->block_dim;
  return t.x + d.x * (t.y + d.y * t.z);
}
// The lanes of the calling warp that exist: a block whose size is not a multiple of 32 ends
// with a partial warp, whose missing lanes a mask may name (a GPU treats them as inactive).
inline unsigned warp_lanes() {
  const unsigned n = block_threads() - (thread_rank() & ~31u);
  return n >= 32 ? ~0u : (1u << n) - 1;
}

template <class T>
inline uint64_t bits_of(T value) {
  static_assert(sizeof(T) <= 8 && std::is_trivially_copyable_v<T>,
                "warp operations take values of at most 8 bytes");
  uint64_t bits = 0;
  __builtin_memcpy(&bits, &value, sizeof(T));
  return bits;
}
template <class T>
inline T from_bits(uint64_t bits) {
  T value;
  __builtin_memcpy(&value, &bits, sizeof(T));
  return value;
}

// The lanes of `mask` meet; returns the caller's lane and the mask that took part.
struct Exchange {
  uint64_t values[32];
  unsigned mask;
  int lane;
};
inline void exchange(Exchange& e, unsigned mask, uint64_t value) {
  e.mask = mask & warp_lanes();
  e.lane = runtime_->warp_exchange(e.mask, value, e.values);
  e.mask |= 1u << e.lane;
  after_switch();
}

enum class ShuffleMode { index, up, down, xor_lane };

// PTX's shfl.sync: lanes form segments of `width`; a source outside the caller's segment (or
// not in the mask) yields the caller's own value.
template <class T>
inline T shuffle(ShuffleMode mode, unsigned mask, T var, int b, int width) {
  Exchange e;
  exchange(e, mask, bits_of(var));
  const int first = e.lane & ~(width - 1);
  const int last = first + width - 1;
  int source = e.lane;
  switch (mode) {
    case ShuffleMode::index:
      source = first | (b & (width - 1));
      break;
    case ShuffleMode::up:
      source = e.lane - (b & 31);
      if (source < first) source = e.lane;
      break;
    case ShuffleMode::down:
      source = e.lane + (b & 31);
      if (source > last) source = e.lane;
      break;
    case ShuffleMode::xor_lane:
      source = e.lane ^ (b & 31);
      if (source > last) source = e.lane;
      break;
  }
  if (!(e.mask >> source & 1)) return var;
  return from_bits<T>(e.values[source]);
}

inline unsigned ballot(unsigned mask, int predicate, unsigned* members) {
  Exchange e;
  exchange(e, mask, predicate != 0);
  unsigned votes = 0;
  for (int lane = 0; lane < 32; ++lane) votes |= (e.values[lane] != 0 ? 1u : 0u) << lane;
  *members = e.mask;
  return votes & e.mask;
}

template <class T, class Op>
inline T reduce(unsigned mask, T value, Op op) {
  Exchange e;
  exchange(e, mask, bits_of(value));
  T result = value;
  for (int lane = 0; lane < 32; ++lane) {
    if (lane != e.lane && (e.mask >> lane & 1)) result = op(result, from_bits<T>(e.values[lane]));
  }
  return result;
}

}  // namespace __tsim

inline void __syncthreads() {
  ::__tsim::runtime_->sync_block(1);
  ::__tsim::after_switch();
}
inline int __syncthreads_count(int predicate) {
  const int count = ::__tsim::runtime_->sync_block(predicate != 0);
  ::__tsim::after_switch();
  return count;
}
inline int __syncthreads_and(int predicate) {
  return static_cast<unsigned>(__syncthreads_count(predicate)) == ::__tsim::block_threads();
}
inline int __syncthreads_or(int predicate) { return __syncthreads_count(predicate) != 0; }

// A block's threads share one OS thread: ordering them needs only the compiler's respect.
inline void __threadfence_block() { __atomic_signal_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence_system() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }

inline void __syncwarp(unsigned mask = 0xffffffffu) {
  ::__tsim::runtime_->sync_warp(mask & ::__tsim::warp_lanes());
  ::__tsim::after_switch();
}
inline unsigned __activemask() {
  const unsigned mask = ::__tsim::runtime_->active_mask();
  ::__tsim::after_switch();
  return mask;
}

template <class T>
inline T __shfl_sync(unsigned mask, T var, int src_lane, int width = warpSize) {
  return ::__tsim::shuffle(::__tsim::ShuffleMode::index, mask, var, src_lane, width);
}
template <class T>
inline T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = warpSize) {
  return ::__tsim::shuffle(::__tsim::ShuffleMode::up, mask, var, static_cast<int>(delta), width);
}
template <class T>
inline T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = warpSize) {
  return ::__tsim::shuffle(::__tsim::ShuffleMode::down, mask, var, static_cast<int>(delta), width);
}
template <class T>
inline T __shfl_xor_sync(unsigned mask, T var, int lane_mask, int width = warpSize) {
  return ::__tsim::shuffle(::__tsim::ShuffleMode::xor_lane, mask, var, lane_mask, width);
}

inline unsigned __ballot_sync(unsigned mask, int predicate) {
  unsigned members;
  return ::__tsim::ballot(mask, predicate, &members);
}
inline int __all_sync(unsigned mask, int predicate) {
  unsigned members;
  return ::__tsim::ballot(mask, predicate, &members) == members;
}
inline int __any_sync(unsigned mask, int predicate) {
  unsigned members;
  return ::__tsim::ballot(mask, predicate, &members) != 0;
}
inline int __uni_sync(unsigned mask, int predicate) {
  unsigned members;
  const unsigned votes = ::__tsim::ballot(mask, predicate, &members);
  return votes == 0 || votes == members;
}

// The lanes whose value has the same bits as the caller's.
template <class T>
inline unsigned __match_any_sync(unsigned mask, T value) {
  ::__tsim::Exchange e;
  ::__tsim::exchange(e, mask, ::__tsim::bits_of(value));
  unsigned same = 0;
  for (int lane = 0; lane < 32; ++lane) {
    same |= (e.values[lane] == e.values[e.lane] ? 1u : 0u) << lane;
  }
  return same & e.mask;
}
template <class T>
inline unsigned __match_all_sync(unsigned mask, T value, int* pred) {
  ::__tsim::Exchange e;
  ::__tsim::exchange(e, mask, ::__tsim::bits_of(value));
  for (int lane = 0; lane < 32; ++lane) {
    if ((e.mask >> lane & 1) && e.values[lane] != e.values[e.lane]) {
      *pred = 0;
      return 0;
    }
  }
  *pred = 1;
  return e.mask;
}

// sm_80's warp reductions.
TSIM_ON_USE
inline unsigned __reduce_add_sync(unsigned mask, unsigned value) {
  return ::__tsim::reduce(mask, value, [](unsigned a, unsigned b) { return a + b; });
}
TSIM_ON_USE
inline int __reduce_add_sync(unsigned mask, int value) {
  return static_cast<int>(__reduce_add_sync(mask, static_cast<unsigned>(value)));
}
TSIM_ON_USE
inline unsigned __reduce_min_sync(unsigned mask, unsigned value) {
  return ::__tsim::reduce(mask, value, [](unsigned a, unsigned b) { return a < b ? a : b; });
}
TSIM_ON_USE
inline int __reduce_min_sync(unsigned mask, int value) {
  return ::__tsim::reduce(mask, value, [](int a, int b) { return a < b ? a : b; });
}
TSIM_ON_USE
inline unsigned __reduce_max_sync(unsigned mask, unsigned value) {
  return ::__tsim::reduce(mask, value, [](unsigned a, unsigned b) { return a > b ? a : b; });
}
TSIM_ON_USE
inline int __reduce_max_sync(unsigned mask, int value) {
  return ::__tsim::reduce(mask, value, [](int a, int b) { return a > b ? a : b; });
}
TSIM_ON_USE
inline unsigned __reduce_and_sync(unsigned mask, unsigned value) {
  return ::__tsim::reduce(mask, value, [](unsigned a, unsigned b) { return a & b; });
}
TSIM_ON_USE
inline unsigned __reduce_or_sync(unsigned mask, unsigned value) {
  return ::__tsim::reduce(mask, value, [](unsigned a, unsigned b) { return a | b; });
}
TSIM_ON_USE
inline unsigned __reduce_xor_sync(unsigned mask, unsigned value) {
  return ::__tsim::reduce(mask, value, [](unsigned a, unsigned b) { return a ^ b; });
}

// The warp intrinsics of CUDA before 9, over the lanes still running.
template <class T>
inline T __shfl(T var, int src_lane, int width = warpSize) {
  return __shfl_sync(__activemask(), var, src_lane, width);
}
template <class T>
inline T __shfl_up(T var, unsigned delta, int width = warpSize) {
  return __shfl_up_sync(__activemask(), var, delta, width);
}
template <class T>
inline T __shfl_down(T var, unsigned delta, int width = warpSize) {
  return __shfl_down_sync(__activemask(), var, delta, width);
}
template <class T>
inline T __shfl_xor(T var, int lane_mask, int width = warpSize) {
  return __shfl_xor_sync(__activemask(), var, lane_mask, width);
}
inline unsigned __ballot(int predicate) { return __ballot_sync(__activemask(), predicate); }
inline int __all(int predicate) { return __all_sync(__activemask(), predicate); }
inline int __any(int predicate) { return __any_sync(__activemask(), predicate); }

// Cooperative groups (<cooperative_groups.h>), the groups kernels synchronize: the whole
// grid of a cooperative launch, and the thread block.
namespace cooperative_groups {

class grid_group {
 public:
  void sync() const {
    ::__tsim::runtime_->sync_grid();
    ::__tsim::after_switch();
  }
  bool is_valid() const { return true; }
  unsigned long long num_threads() const {
    const TsimDim3& g = ::__tsim::place_->grid_dim;
    return static_cast<unsigned long long>(g.x) * g.y * g.z * ::__tsim::block_threads();
  }
  unsigned long long size() const { return num_threads(); }
  unsigned long long thread_rank() const {
    const TsimDim3& b = ::__tsim::place_->block_idx;
    const TsimDim3& g = ::__tsim::place_->grid_dim;
    const unsigned long long block = b.x + static_cast<unsigned long long>(g.x) * (b.y + g.y * b.z);
    return block * ::__tsim::block_threads() + ::__tsim::thread_rank();
  }
};

class thread_block {
 public:
  void sync() const { __syncthreads(); }
  unsigned num_threads() const { return ::__tsim::block_threads(); }
  unsigned size() const { return num_threads(); }
  unsigned thread_rank() const { return ::__tsim::thread_rank(); }
};

inline grid_group this_grid() { return {}; }
inline thread_block this_thread_block() { return {}; }
inline void sync(const grid_group& g) { g.sync(); }
inline void sync(const thread_block& b) { b.sync(); }

}  // namespace cooperative_groups
