// Streaming stores (stream_store.h) through Highway, with runtime dispatch.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "backend/cpu/stream_store.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/cache_control.h>
#include <hwy/highway.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

#include "backend/cpu/stream_store.h"

HWY_BEFORE_NAMESPACE();
namespace tessera::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

void StreamStore(const std::byte* src, std::byte* dst, int64_t bytes) {
  const hn::ScalableTag<uint8_t> d;
  const int64_t vector = static_cast<int64_t>(hn::Lanes(d));
  const auto misalignment = static_cast<int64_t>(reinterpret_cast<uintptr_t>(dst) % vector);
  const int64_t head = std::min(bytes, misalignment ? vector - misalignment : 0);
  std::memcpy(dst, src, static_cast<size_t>(head));
  int64_t i = head;
  for (; i + vector <= bytes; i += vector) {
    const auto v = hn::LoadU(d, reinterpret_cast<const uint8_t*>(src + i));
    hn::Stream(v, d, reinterpret_cast<uint8_t*>(dst + i));
  }
  std::memcpy(dst + i, src + i, static_cast<size_t>(bytes - i));
}

}  // namespace tessera::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace tessera::cpu {

HWY_EXPORT(StreamStore);

int64_t streaming_store_min_bytes() {
  // Capped at 24 MiB: a virtual machine may report the host's whole L3 (256 MiB here,
  // where the cores of one complex share 32 MiB).
  static const int64_t min_bytes = [] {
    constexpr int64_t kCap = int64_t{24} << 20;
    const long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
    return l3 > 0 ? std::min(static_cast<int64_t>(l3) / 4 * 3, kCap) : kCap;
  }();
  return min_bytes;
}

void stream_store(const std::byte* src, std::byte* dst, int64_t bytes) {
  HWY_DYNAMIC_DISPATCH(StreamStore)(src, dst, bytes);
}

void stream_store_fence() { hwy::FlushStream(); }

}  // namespace tessera::cpu
#endif  // HWY_ONCE
