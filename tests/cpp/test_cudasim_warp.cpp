// CUDA C++ warp operations on the simulator (shuffles, votes, ballots, matches, active
// masks), printf, float and integer atomics, and the device math library.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include "cudasim_module.h"

namespace tessera::cudasim {
namespace {

// --- Warp operations, printf, float atomics, math -----------------------------------------

const char* const kWarp = R"cuda(
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <math_constants.h>
#include <cstdio>

// Inclusive scans within segments of `width` lanes; also a reduction and a broadcast.
__global__ void warp_ops(const int* in, int* scan, int* sum, int* xor_sum, int* first, int width,
                         int* raw) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned lane = threadIdx.x % warpSize;
  __syncwarp();
  int v = in[i];
  for (int d = 1; d < width; d *= 2) {
    const int up = __shfl_up_sync(0xffffffff, v, d, width);
    if (int(lane % width) >= d) v += up;
  }
  scan[i] = v;
  int s = in[i];
  for (int d = 16; d > 0; d /= 2) s += __shfl_down_sync(0xffffffff, s, d);
  sum[i] = s;
  int x = in[i];
  for (int d = 1; d < 32; d *= 2) x += __shfl_xor_sync(0xffffffff, x, d);
  xor_sum[i] = x;
  first[i] = __shfl_sync(0xffffffff, in[i], 5);
  // Sources outside the segment of 8 lanes: the lane's own value, except that xor may reach
  // an earlier segment.
  raw[3 * i] = __shfl_up_sync(0xffffffff, in[i], 3, 8);
  raw[3 * i + 1] = __shfl_down_sync(0xffffffff, in[i], 3, 8);
  raw[3 * i + 2] = __shfl_xor_sync(0xffffffff, in[i], 9, 8);
}

__global__ void votes(const int* in, unsigned* out) {
  const int t = threadIdx.x;
  const int v = in[t];
  unsigned* o = out + 10 * t;
  o[0] = __ballot_sync(0xffffffff, v > 0);
  o[1] = __any_sync(0xffffffff, v > 100);
  o[2] = __all_sync(0xffffffff, v >= 0);
  o[3] = __popc(__ballot_sync(0xffffffff, v % 2));
  o[4] = __match_any_sync(0xffffffff, v % 3);
  o[5] = __reduce_add_sync(0xffffffff, unsigned(v));
  o[6] = __reduce_max_sync(0xffffffff, v);
  o[7] = __syncthreads_count(v % 2);
  o[8] = __syncthreads_and(v >= 0) * 10 + __syncthreads_or(v > 100);
  o[9] = __activemask();
}

// Warp-aggregated atomics: the lanes that take the branch elect a leader among themselves.
__global__ void aggregated(const int* flags, int* counter, int* slots) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (flags[i]) {
    const unsigned active = __activemask();
    const int leader = __ffs(active) - 1;
    const int lane = threadIdx.x % 32;
    int base = 0;
    if (lane == leader) base = atomicAdd(counter, __popc(active));
    base = __shfl_sync(active, base, leader);
    slots[i] = base + __popc(active & ((1u << lane) - 1));
  }
}

__global__ void say(const float* values) {
  printf("block %d thread %d value %.1f\n", blockIdx.x, threadIdx.x, values[threadIdx.x]);
  if (threadIdx.x == 0 && blockIdx.x == 0) printf("no arguments\n");
}

__global__ void float_atomics(float* fsum, double* dsum, float* fmax, const float* values,
                              int* ints, unsigned* counter) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(fsum, 1.0f);
  atomicAdd(dsum, 0.25);
  int* bits = reinterpret_cast<int*>(fmax);
  int old = *bits, assumed;
  do {
    assumed = old;
    old = atomicCAS(bits, assumed, __float_as_int(fmaxf(__int_as_float(assumed), values[i])));
  } while (old != assumed);
  atomicMin(&ints[0], -i);
  atomicMax(&ints[1], i);
  atomicAnd(&ints[2], ~(1 << (i % 31)));
  atomicOr(&ints[3], 1 << (i % 31));
  atomicXor(&ints[4], i);
  atomicSub(&ints[5], 2);
  atomicInc(&counter[0], 9u);
  atomicDec(&counter[1], 9u);
  atomicExch(&counter[2], 7u);
}

__global__ void math(double* out) {
  int k = 0;
  out[k++] = __popc(0xF0F0u);
  out[k++] = __clz(1);
  out[k++] = __clz(0);
  out[k++] = __ffs(0x8);
  out[k++] = __brev(1u);
  out[k++] = __byte_perm(0x33221100u, 0x77665544u, 0x5140u);
  out[k++] = __mulhi(0x40000000, 8);
  out[k++] = __sad(3, 10, 1u);
  out[k++] = min(-1, 2u);
  out[k++] = max(3, 2.5f);
  out[k++] = rsqrtf(4.0f);
  out[k++] = sinpi(0.5);
  out[k++] = cospi(1.0);
  out[k++] = sinpif(1.0f);
  out[k++] = __float2int_rn(2.5f);
  out[k++] = __float2int_rn(3.5f);
  out[k++] = __float2int_rz(-2.7f);
  out[k++] = __float2int_ru(2.1f);
  out[k++] = __float2int_rd(-2.1f);
  out[k++] = __float2int_rn(1e10f);
  out[k++] = __float2int_rn(CUDART_NAN_F);
  out[k++] = __float2uint_rn(-5.0f);
  out[k++] = __saturatef(1.5f);
  out[k++] = __fadd_ru(1.0f, 1e-10f) - 1.0f;
  out[k++] = __fadd_rz(1.0f, 1e-10f) - 1.0f;
  out[k++] = erfinv(erf(0.3));
  out[k++] = normcdfinv(0.975);
  out[k++] = erfcinv(1e-20);
  out[k++] = exp10f(2.0f);
  out[k++] = __int_as_float(0x3f800000);
  out[k++] = __half2float(__hadd(__float2half(1.5f), __float2half(2.25f)));
  out[k++] = normcdf(0.0);
  out[k++] = abs(-2.5f) + abs(-3);
  float s, c;
  sincosf(0.0f, &s, &c);
  out[k++] = s + 2 * c;
  out[k++] = make_float4(1, 2, 3, 4).w + make_int2(5, 6).y;
  out[k++] = alignof(float4) + alignof(double2) + alignof(char2);
  out[k++] = CUDART_PI;
  // Each rounded family once: the gap between rounding up and down (or to zero).
  out[k++] = __fdiv_ru(1.0f, 3.0f) - __fdiv_rd(1.0f, 3.0f);
  out[k++] = __dmul_ru(1.0 + 0x1p-52, 1.0 + 0x1p-52) - 1.0;
  out[k++] = __fsqrt_ru(2.0f) - __fsqrt_rd(2.0f);
  out[k++] = __fmaf_ru(1.0f + 0x1p-23f, 1.0f + 0x1p-23f, -1.0f) -
             __fmaf_rz(1.0f + 0x1p-23f, 1.0f + 0x1p-23f, -1.0f);
  out[k++] = __double2float_ru(1.0 + 0x1p-40) - 1.0f;
  out[k++] = __ll2float_ru(16777217LL) - __ll2float_rz(16777217LL);
  out[k++] = __drcp_ru(3.0) - __drcp_rd(3.0);
  out[k++] = 1.0 - __dsub_rd(1.0, 0x1p-60);
}
)cuda";

class CudaSimWarpKernels : public ModuleSuite {
 protected:
  static void SetUpTestSuite() {
    compile(kWarp, {"warp_ops", "votes", "aggregated", "say", "float_atomics", "math"});
  }
};

TEST_F(CudaSimWarpKernels, ShufflesScanReduceAndBroadcastWithinWarps) {
  // 48 threads end with a partial warp: lanes past the block's end are inactive.
  for (unsigned block : {32u, 48u, 96u, 256u}) {
    for (int width : {32, 8}) {
      const unsigned n = 3 * block;
      std::vector<int> in(n), scan(n), sum(n), xor_sum(n), first(n), raw(3 * n);
      for (unsigned i = 0; i < n; ++i) in[i] = static_cast<int>(i * 37 % 101) - 50;
      launch(kernel("warp_ops"), {3, 1, 1}, {block, 1, 1}, 0, static_cast<const int*>(in.data()),
             scan.data(), sum.data(), xor_sum.data(), first.data(), width, raw.data());
      for (unsigned i = 0; i < n; ++i) {
        const unsigned lane = i % block % 32, warp = i - lane, segment = i - lane % width;
        const int prefix = std::accumulate(in.begin() + segment, in.begin() + i + 1, 0);
        ASSERT_EQ(scan[i], prefix) << block << " " << width << " " << i;
        ASSERT_EQ(raw[3 * i], lane % 8 >= 3 ? in[i - 3] : in[i]) << i;
        ASSERT_EQ(raw[3 * i + 1], lane % 8 + 3 < 8 ? in[i + 3] : in[i]) << i;
        ASSERT_EQ(raw[3 * i + 2], (lane ^ 9) <= (lane | 7) ? in[warp + (lane ^ 9)] : in[i]) << i;
        if (block % 32) continue;
        const int total = std::accumulate(in.begin() + warp, in.begin() + warp + 32, 0);
        ASSERT_EQ(xor_sum[i], total) << i;
        ASSERT_EQ(first[i], in[warp + 5]) << i;
        if (lane == 0) {
          ASSERT_EQ(sum[i], total) << i;
        }
      }
    }
  }
}

TEST_F(CudaSimWarpKernels, VotesBallotsMatchesAndBlockCounts) {
  const unsigned n = 64;
  std::vector<int> in(n);
  for (unsigned i = 0; i < n; ++i) in[i] = static_cast<int>(i * 13 % 29) - (i == 40 ? 0 : 3);
  in[7] = 150;
  std::vector<unsigned> out(10 * n);
  launch(kernel("votes"), {1, 1, 1}, {n, 1, 1}, 0, static_cast<const int*>(in.data()), out.data());
  int block_odd = 0;
  bool all_nonnegative = true, any_big = false;
  for (int v : in) {
    block_odd += v % 2 != 0;
    all_nonnegative = all_nonnegative && v >= 0;
    any_big = any_big || v > 100;
  }
  for (unsigned t = 0; t < n; ++t) {
    const unsigned w = t / 32 * 32;
    unsigned ballot = 0, odd = 0, same = 0, total = 0;
    int biggest = INT32_MIN;
    bool any = false, all = true;
    for (unsigned l = 0; l < 32; ++l) {
      const int v = in[w + l];
      ballot |= (v > 0 ? 1u : 0u) << l;
      odd += v % 2 != 0;
      same |= (v % 3 == in[t] % 3 ? 1u : 0u) << l;
      total += static_cast<unsigned>(v);
      biggest = std::max(biggest, v);
      any = any || v > 100;
      all = all && v >= 0;
    }
    const unsigned* o = &out[10 * t];
    EXPECT_EQ(o[0], ballot) << t;
    EXPECT_EQ(o[1], any ? 1u : 0u) << t;
    EXPECT_EQ(o[2], all ? 1u : 0u) << t;
    EXPECT_EQ(o[3], odd) << t;
    EXPECT_EQ(o[4], same) << t;
    EXPECT_EQ(o[5], total) << t;
    EXPECT_EQ(static_cast<int>(o[6]), biggest) << t;
    EXPECT_EQ(o[7], static_cast<unsigned>(block_odd)) << t;
    EXPECT_EQ(o[8], (all_nonnegative ? 10u : 0u) + (any_big ? 1u : 0u)) << t;
    EXPECT_EQ(o[9], 0xffffffffu) << t;
  }
}

TEST_F(CudaSimWarpKernels, ActiveMaskIsTheLanesThatTookTheBranch) {
  const unsigned n = 200;
  std::vector<int> flags(n), slots(n, -1);
  for (unsigned i = 0; i < n; ++i) flags[i] = i % 3 == 0 || i % 7 == 0;
  int counter = 0;
  launch(kernel("aggregated"), {2, 1, 1}, {100, 1, 1}, 0, static_cast<const int*>(flags.data()),
         &counter, slots.data());
  EXPECT_EQ(counter, std::accumulate(flags.begin(), flags.end(), 0));
  // Each warp's flagged lanes got consecutive slots, in lane order.
  std::vector<int> taken;
  for (unsigned w = 0; w < n; w += 32) {
    int previous = -1;
    for (unsigned i = w; i < std::min(w + 32, n); ++i) {
      if (i % 100 == 0) previous = -1;  // a new block starts a new warp
      if (!flags[i]) {
        EXPECT_EQ(slots[i], -1) << i;
        continue;
      }
      if (previous >= 0) {
        EXPECT_EQ(slots[i], previous + 1) << i;
      }
      previous = slots[i];
      taken.push_back(slots[i]);
    }
  }
  std::sort(taken.begin(), taken.end());
  for (size_t k = 0; k < taken.size(); ++k) EXPECT_EQ(taken[k], static_cast<int>(k));
}

TEST_F(CudaSimWarpKernels, PrintfPrintsWholeLines) {
  std::vector<float> values(40);
  for (int i = 0; i < 40; ++i) values[i] = i * 0.5f;
  testing::internal::CaptureStdout();
  launch(kernel("say"), {6, 1, 1}, {40, 1, 1}, 0, static_cast<const float*>(values.data()));
  std::istringstream printed(testing::internal::GetCapturedStdout());
  std::multiset<std::string> lines, expected = {"no arguments"};
  for (std::string line; std::getline(printed, line);) lines.insert(line);
  char text[64];
  for (int b = 0; b < 6; ++b) {
    for (int t = 0; t < 40; ++t) {
      std::snprintf(text, sizeof text, "block %d thread %d value %.1f", b, t, t * 0.5);
      expected.insert(text);
    }
  }
  EXPECT_EQ(lines, expected);
}

TEST_F(CudaSimWarpKernels, AtomicsOnFloatsAndIntegersAreExact) {
  const unsigned blocks = 40, block = 250, n = blocks * block;
  float fsum = 0, fmax = -1;
  double dsum = 0;
  std::vector<float> values(n);
  for (unsigned i = 0; i < n; ++i) values[i] = static_cast<float>(i * 7 % 9973) * 0.25f;
  std::vector<int> ints = {0, 0, -1, 0, 0, 0};
  std::vector<unsigned> counters = {0, 0, 0};
  launch(kernel("float_atomics"), {blocks, 1, 1}, {block, 1, 1}, 0, &fsum, &dsum, &fmax,
         static_cast<const float*>(values.data()), ints.data(), counters.data());
  EXPECT_EQ(fsum, static_cast<float>(n));
  EXPECT_EQ(dsum, n * 0.25);
  EXPECT_EQ(fmax, *std::max_element(values.begin(), values.end()));
  int xor_all = 0;
  for (unsigned i = 0; i < n; ++i) xor_all ^= static_cast<int>(i);
  EXPECT_EQ(ints, (std::vector<int>{-static_cast<int>(n - 1), static_cast<int>(n - 1),
                                    static_cast<int>(0x80000000u), 0x7fffffff, xor_all,
                                    -2 * static_cast<int>(n)}));
  // atomicInc counts modulo 10; atomicDec from 0 wraps to 9 and counts down.
  EXPECT_EQ(counters[0], n % 10);
  EXPECT_EQ(counters[1], (10 - n % 10) % 10);
  EXPECT_EQ(counters[2], 7u);
}

TEST_F(CudaSimWarpKernels, MathAndIntrinsicsHaveCudasResults) {
  std::vector<double> out(64, -12345);
  launch(kernel("math"), {1, 1, 1}, {1, 1, 1}, 0, out.data());
  const double expected[] = {8,
                             31,
                             32,
                             4,
                             2147483648.0,
                             0x55114400,
                             2,
                             8,
                             2,
                             3,
                             0.5,
                             1,
                             -1,
                             0,
                             2,
                             4,
                             -2,
                             3,
                             -3,
                             2147483647,
                             0,
                             0,
                             1,
                             std::nextafter(1.0f, 2.0f) - 1.0f,
                             0};
  for (size_t i = 0; i < std::size(expected); ++i) EXPECT_EQ(out[i], expected[i]) << i;
  size_t k = std::size(expected);
  EXPECT_NEAR(out[k++], 0.3, 1e-15);
  EXPECT_NEAR(out[k++], 1.959963984540054, 1e-14);
  const double z = out[k++];
  EXPECT_NEAR(std::erfc(z) / 1e-20, 1, 1e-12) << z;
  EXPECT_EQ(out[k++], 100);
  EXPECT_EQ(out[k++], 1);
  EXPECT_EQ(out[k++], 3.75);
  EXPECT_EQ(out[k++], 0.5);
  EXPECT_EQ(out[k++], 5.5);
  EXPECT_EQ(out[k++], 2);
  EXPECT_EQ(out[k++], 10);
  EXPECT_EQ(out[k++], 16 + 16 + 2);
  EXPECT_EQ(out[k++], M_PI);
  EXPECT_EQ(out[k++], 0x1p-25);
  EXPECT_EQ(out[k++], 0x1.8p-51);
  EXPECT_EQ(out[k++], 0x1p-23);
  EXPECT_EQ(out[k++], 0x1p-45);
  EXPECT_EQ(out[k++], 0x1p-23);
  EXPECT_EQ(out[k++], 2);
  EXPECT_EQ(out[k++], 0x1p-54);
  EXPECT_EQ(out[k++], 0x1p-53);
}

}  // namespace
}  // namespace tessera::cudasim
