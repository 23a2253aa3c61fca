// The CUDA simulator's executor and prelude: real CUDA C++ sources compiled by the host
// compiler (sim_translation_unit + compile_shared_object), loaded and run block by block —
// shared-memory reductions, tiled products, atomics, warp shuffles and votes, dynamic shared
// memory, templates, printf — with exact results, and the errors a kernel can make.

#include <dlfcn.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <numeric>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "backend/cudasim/executor.h"
#include "backend/cudasim/module_source.h"
#include "jit/host_compiler.h"

namespace tessera::cudasim {
namespace {

// A module compiled from CUDA source into a temporary directory, loaded and bound.
class Module {
 public:
  Module(const std::string& source, const std::vector<std::string>& names) {
    std::string dir = (std::filesystem::temp_directory_path() / "tsim-test-XXXXXX").string();
    if (!mkdtemp(dir.data())) throw std::runtime_error("mkdtemp failed");
    dir_ = dir;
    const std::filesystem::path library = dir_ / "module.so";
    jit::compile_shared_object(sim_translation_unit(source, names), {}, library);
    handle_ = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle_) throw std::runtime_error(dlerror());
    reinterpret_cast<void (*)(const TsimRuntime*)>(dlsym(handle_, "tsim_bind"))(runtime_table());
    const int count = *static_cast<const int*>(dlsym(handle_, "tsim_kernel_count"));
    for (int i = 0; i < count; ++i) {
      const std::string symbol = "tsim_kernel_" + std::to_string(i);
      const auto* kernel = static_cast<const TsimKernel*>(dlsym(handle_, symbol.c_str()));
      kernels_[kernel->name] = kernel;
    }
  }
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;
  ~Module() {
    if (handle_) dlclose(handle_);
    std::filesystem::remove_all(dir_);
  }

  const TsimKernel& operator[](const std::string& name) const { return *kernels_.at(name); }

 private:
  std::filesystem::path dir_;
  void* handle_ = nullptr;
  std::map<std::string, const TsimKernel*> kernels_;
};

// Launches `kernel` with `args`, which must have the kernel's parameter types exactly.
template <class... A>
void launch(const TsimKernel& kernel, TsimDim3 grid, TsimDim3 block, size_t shared, A... args) {
  void* params[] = {&args..., nullptr};
  run_kernel(kernel, {grid, block, shared}, params);
}

unsigned blocks_for(unsigned n, unsigned block) { return (n + block - 1) / block; }

// A suite whose tests share one module, compiled once; a failed compilation fails each test.
class ModuleSuite : public testing::Test {
 protected:
  static void compile(const char* source, const std::vector<std::string>& names) {
    try {
      module_ = std::make_unique<Module>(source, names);
    } catch (const std::exception& e) {
      error_ = e.what();
    }
  }
  static void TearDownTestSuite() {
    module_.reset();
    error_.clear();
  }
  void SetUp() override { ASSERT_TRUE(module_) << error_; }
  static const TsimKernel& kernel(const std::string& name) { return (*module_)[name]; }

  static inline std::unique_ptr<Module> module_;
  static inline std::string error_;
};

// --- Kernels written against the runtime table, without a compiler ------------------------

struct PlaceLog {
  std::vector<std::atomic<int>> hits;
  std::vector<TsimThreadPlace> places;
  explicit PlaceLog(size_t n) : hits(n), places(n) {}
};

void record_place(void* const* params) {
  PlaceLog& log = **static_cast<PlaceLog**>(params[0]);
  const TsimThreadPlace& p = *runtime_table()->place();
  const unsigned thread =
      p.thread_idx.x + p.block_dim.x * (p.thread_idx.y + p.block_dim.y * p.thread_idx.z);
  const unsigned block =
      p.block_idx.x + p.grid_dim.x * (p.block_idx.y + p.grid_dim.y * p.block_idx.z);
  const unsigned global = block * p.block_dim.x * p.block_dim.y * p.block_dim.z + thread;
  log.hits[global]++;
  log.places[global] = p;
}

TEST(CudaSimExecutor, EveryThreadOfA3dLaunchRunsOnceWithItsPlace) {
  const TsimDim3 grid{3, 2, 2}, block{4, 3, 2};
  const unsigned n = 3 * 2 * 2 * 4 * 3 * 2;
  PlaceLog log(n);
  const size_t zero = 0;
  const TsimKernel kernel{"record_place", record_place, 1, &zero, &zero};
  PlaceLog* arg = &log;
  void* params[] = {&arg};
  run_kernel(kernel, {grid, block, 0}, params);
  for (unsigned g = 0; g < n; ++g) {
    ASSERT_EQ(log.hits[g].load(), 1) << g;
    const TsimThreadPlace& p = log.places[g];
    const unsigned thread = g % 24, b = g / 24;
    EXPECT_EQ(p.thread_idx.x, thread % 4);
    EXPECT_EQ(p.thread_idx.y, thread / 4 % 3);
    EXPECT_EQ(p.thread_idx.z, thread / 12);
    EXPECT_EQ(p.block_idx.x, b % 3);
    EXPECT_EQ(p.block_idx.y, b / 3 % 2);
    EXPECT_EQ(p.block_idx.z, b / 6);
    EXPECT_EQ(p.grid_dim.z, 2u);
    EXPECT_EQ(p.block_dim.y, 3u);
  }
}

// Each thread logs its rank around two barriers; the second counts odd ranks.
struct BarrierLog {
  std::vector<unsigned> order;
  std::vector<int> counts;
};

void log_barriers(void* const* params) {
  BarrierLog& log = **static_cast<BarrierLog**>(params[0]);
  const TsimRuntime& rt = *runtime_table();
  const unsigned rank = rt.place()->thread_idx.x;
  log.order.push_back(rank);
  const int everyone = rt.sync_block(1);
  log.order.push_back(rank);
  const int odd = rt.sync_block(rank % 2);
  log.counts[rank] = everyone * 10000 + odd;
}

TEST(CudaSimExecutor, BarriersReleaseTogetherAndCountPredicates) {
  for (unsigned n : {1u, 5u, 64u, 1000u, 1024u}) {
    BarrierLog log{{}, std::vector<int>(n)};
    const size_t zero = 0;
    const TsimKernel kernel{"log_barriers", log_barriers, 1, &zero, &zero};
    BarrierLog* arg = &log;
    void* params[] = {&arg};
    run_kernel(kernel, {{1, 1, 1}, {n, 1, 1}, 0}, params);
    // Threads run in order: all before the first barrier, then all after it.
    ASSERT_EQ(log.order.size(), 2 * n);
    for (unsigned i = 0; i < 2 * n; ++i) EXPECT_EQ(log.order[i], i % n) << n;
    for (unsigned i = 0; i < n; ++i) EXPECT_EQ(log.counts[i], static_cast<int>(n * 10000 + n / 2));
  }
}

// Each block writes its id all over its dynamic shared memory, and reads it back after a
// barrier: blocks running at the same time on other OS threads must not share it.
void own_shared(void* const* params) {
  std::atomic<int>& wrong = **static_cast<std::atomic<int>**>(params[0]);
  const TsimRuntime& rt = *runtime_table();
  const TsimThreadPlace& p = *rt.place();
  auto* shared = static_cast<unsigned*>(p.dynamic_shared);
  if (reinterpret_cast<uintptr_t>(shared) % 16 || shared != rt.dynamic_shared()) ++wrong;
  shared[p.thread_idx.x] = p.block_idx.x;
  rt.sync_block(1);
  for (unsigned i = 0; i < p.block_dim.x; ++i) wrong += shared[i] != p.block_idx.x;
}

TEST(CudaSimExecutor, EachBlockHasItsOwnAlignedDynamicSharedMemory) {
  std::atomic<int> wrong{0};
  std::atomic<int>* arg = &wrong;
  void* params[] = {&arg};
  const size_t zero = 0;
  const TsimKernel kernel{"own_shared", own_shared, 1, &zero, &zero};
  run_kernel(kernel, {{200, 1, 1}, {64, 1, 1}, 64 * sizeof(unsigned)}, params);
  EXPECT_EQ(wrong.load(), 0);
}

TEST(CudaSimExecutor, AKernelThatThrowsFailsItsLaunch) {
  const size_t zero = 0;
  const TsimKernel kernel{"throws",
                          [](void* const*) {
                            if (runtime_table()->place()->thread_idx.x == 7) {
                              throw std::runtime_error("device code threw");
                            }
                          },
                          0, &zero, &zero};
  try {
    run_kernel(kernel, {{1, 1, 1}, {32, 1, 1}, 0}, nullptr);
    FAIL() << "no error";
  } catch (const KernelError& e) {
    EXPECT_STREQ(e.what(),
                 "[cuda sim] kernel throws, block (0,0,0), thread (7,0,0): the kernel threw an "
                 "exception: device code threw");
  }
}

TEST(CudaSimExecutor, RejectsInvalidShapes) {
  const size_t zero = 0;
  const TsimKernel kernel{"nothing", [](void* const*) {}, 0, &zero, &zero};
  EXPECT_THROW(run_kernel(kernel, {{1, 1, 1}, {1025, 1, 1}, 0}, nullptr), std::invalid_argument);
  EXPECT_THROW(run_kernel(kernel, {{0, 1, 1}, {32, 1, 1}, 0}, nullptr), std::invalid_argument);
}

// --- Shared memory, barriers, atomics, templates ------------------------------------------

const char* const kBasics = R"cuda(
#include <cuda_runtime.h>

// Each block sums its slice with a tree over shared memory; any block size.
__global__ void block_sum(const int* in, long long* out, int n) {
  __shared__ long long partial[1024];
  const unsigned t = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + t;
  partial[t] = i < n ? in[i] : 0;
  __syncthreads();
  for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
    if (t % (2 * stride) == 0 && t + stride < blockDim.x) partial[t] += partial[t + stride];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = partial[0];
}

#define TILE 16
__global__ void matmul(const float* a, const float* b, float* c, int m, int k, int n) {
  __shared__ float ta[TILE][TILE];
  __shared__ float tb[TILE][TILE + 1];
  const int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
  float sum = 0;
  for (int t0 = 0; t0 < k; t0 += TILE) {
    const int ac = t0 + threadIdx.x, br = t0 + threadIdx.y;
    ta[threadIdx.y][threadIdx.x] = row < m && ac < k ? a[row * k + ac] : 0;
    tb[threadIdx.y][threadIdx.x] = col < n && br < k ? b[br * n + col] : 0;
    __syncthreads();
#pragma unroll
    for (int j = 0; j < TILE; ++j) sum += ta[threadIdx.y][j] * tb[j][threadIdx.x];
    __syncthreads();
  }
  if (row < m && col < n) c[row * n + col] = sum;
}

// Per-block counts in dynamic shared memory, then added to the global ones.
__global__ void histogram(const unsigned* data, int n, unsigned* bins, int nbins) {
  extern __shared__ unsigned local[];
  for (int b = threadIdx.x; b < nbins; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    atomicAdd(&local[data[i] % nbins], 1u);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < nbins; b += blockDim.x) atomicAdd(&bins[b], local[b]);
}

// The same dynamic memory seen through a file-scope array and CUDA's SharedMemory idiom.
extern __shared__ float file_smem[];
template <class T>
struct SharedMemory {
  __device__ T* get() {
    extern __shared__ __align__(16) unsigned char raw[];
    return reinterpret_cast<T*>(raw);
  }
};
__global__ void reverse(const float* in, float* out, int n) {
  const int t = threadIdx.x;
  file_smem[t] = in[blockIdx.x * n + t];
  __syncthreads();
  float* same = SharedMemory<float>().get();
  out[blockIdx.x * n + t] = same[n - 1 - t];
}

template <class T>
__global__ void scale(T* x, T factor, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= factor;
}
template <int N>
__global__ void fill(int* x) { x[threadIdx.x] = N; }
)cuda";

class CudaSimKernels : public ModuleSuite {
 protected:
  static void SetUpTestSuite() {
    compile(kBasics, {"block_sum", "matmul", "histogram", "reverse", "scale<float>", "scale<int>",
                      "fill<3>"});
  }
};

TEST_F(CudaSimKernels, SharedMemoryBlockSumsAreExactForManyBlockSizes) {
  const int n = 5000;
  std::vector<int> in(n);
  for (int i = 0; i < n; ++i) in[i] = (i * 7919) % 1001 - 500;
  for (unsigned block : {1u, 7u, 32u, 100u, 256u, 1000u, 1024u}) {
    const unsigned grid = blocks_for(n, block);
    std::vector<long long> out(grid, -1);
    launch(kernel("block_sum"), {grid, 1, 1}, {block, 1, 1}, 0, in.data(), out.data(), n);
    for (unsigned b = 0; b < grid; ++b) {
      long long expected = 0;
      for (unsigned i = b * block; i < std::min<unsigned>(n, (b + 1) * block); ++i)
        expected += in[i];
      ASSERT_EQ(out[b], expected) << "block size " << block << ", block " << b;
    }
  }
}

TEST_F(CudaSimKernels, ConcurrentLaunchesShareThePool) {
  const int n = 3000;
  std::vector<int> in(n);
  std::iota(in.begin(), in.end(), -1000);
  std::vector<std::thread> streams;
  std::atomic<int> wrong{0};
  for (unsigned s = 0; s < 4; ++s) {
    streams.emplace_back([&, s] {
      const unsigned block = 64 * (s + 1), grid = blocks_for(n, block);
      for (int round = 0; round < 20; ++round) {
        std::vector<long long> out(grid);
        launch(kernel("block_sum"), {grid, 1, 1}, {block, 1, 1}, 0,
               static_cast<const int*>(in.data()), out.data(), n);
        wrong += std::accumulate(out.begin(), out.end(), 0ll) !=
                 std::accumulate(in.begin(), in.end(), 0ll);
      }
    });
  }
  for (std::thread& t : streams) t.join();
  EXPECT_EQ(wrong.load(), 0);
}

TEST_F(CudaSimKernels, TiledMatrixProductIsExact) {
  const int m = 37, k = 29, n = 41;
  std::vector<float> a(m * k), b(k * n), c(m * n, -1);
  for (int i = 0; i < m * k; ++i) a[i] = static_cast<float>(i % 7 - 3);
  for (int i = 0; i < k * n; ++i) b[i] = static_cast<float>(i % 5 - 2);
  launch(kernel("matmul"), {blocks_for(n, 16), blocks_for(m, 16), 1}, {16, 16, 1}, 0,
         static_cast<const float*>(a.data()), static_cast<const float*>(b.data()), c.data(), m, k,
         n);
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      float expected = 0;
      for (int l = 0; l < k; ++l) expected += a[i * k + l] * b[l * n + j];
      ASSERT_EQ(c[i * n + j], expected) << i << "," << j;
    }
  }
}

TEST_F(CudaSimKernels, HistogramCountsAreExact) {
  const int n = 100000, nbins = 37;
  std::vector<unsigned> data(n), bins(nbins, 0), expected(nbins, 0);
  for (int i = 0; i < n; ++i) data[i] = static_cast<unsigned>(i) * 2654435761u >> 7;
  for (unsigned d : data) ++expected[d % nbins];
  launch(kernel("histogram"), {8, 1, 1}, {256, 1, 1}, nbins * sizeof(unsigned),
         static_cast<const unsigned*>(data.data()), n, bins.data(), nbins);
  EXPECT_EQ(bins, expected);
}

TEST_F(CudaSimKernels, ExternSharedAtFileAndFunctionScopeIsTheBlocksMemory) {
  const int n = 96, blocks = 5;
  std::vector<float> in(n * blocks), out(n * blocks);
  std::iota(in.begin(), in.end(), 0.0f);
  launch(kernel("reverse"), {blocks, 1, 1}, {n, 1, 1}, n * sizeof(float),
         static_cast<const float*>(in.data()), out.data(), n);
  for (int b = 0; b < blocks; ++b) {
    for (int t = 0; t < n; ++t) ASSERT_EQ(out[b * n + t], in[b * n + n - 1 - t]) << b << "," << t;
  }
}

TEST_F(CudaSimKernels, TemplatesByNameExpression) {
  std::vector<float> f = {1, 2, 3, 4, 5};
  std::vector<int> i = {1, 2, 3, 4, 5};
  launch(kernel("scale<float>"), {1, 1, 1}, {8, 1, 1}, 0, f.data(), 2.5f, 5);
  launch(kernel("scale<int>"), {2, 1, 1}, {3, 1, 1}, 0, i.data(), -3, 5);
  EXPECT_EQ(f, (std::vector<float>{2.5f, 5, 7.5f, 10, 12.5f}));
  EXPECT_EQ(i, (std::vector<int>{-3, -6, -9, -12, -15}));
  std::vector<int> filled(4, 0);
  launch(kernel("fill<3>"), {1, 1, 1}, {4, 1, 1}, 0, filled.data());
  EXPECT_EQ(filled, (std::vector<int>{3, 3, 3, 3}));
  EXPECT_EQ(kernel("scale<float>").nparams, 3);
  EXPECT_EQ(kernel("scale<float>").param_sizes[0], sizeof(float*));
  EXPECT_EQ(kernel("fill<3>").nparams, 1);
}

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
}

// --- Errors ---------------------------------------------------------------------------------

const char* const kErrors = R"cuda(
__global__ void partial_barrier(int* out) {
  if (threadIdx.x >= 32) return;
  __syncthreads();
  out[threadIdx.x] = 1;
}
__global__ void shuffle_after_exit(int* out) {
  if (threadIdx.x % 32 >= 16) return;
  out[threadIdx.x] = __shfl_sync(0xffffffff, int(threadIdx.x), 0);
}
__global__ void checked(const int* in, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  assert(in[i] < n);
}
__global__ void trap_in_one_block(int* out, int bad) {
  if (blockIdx.x == bad && threadIdx.x == 3) __trap();
  __syncthreads();
  atomicAdd(out, 1);
}
)cuda";

class CudaSimErrors : public ModuleSuite {
 protected:
  static void SetUpTestSuite() {
    compile(kErrors, {"partial_barrier", "shuffle_after_exit", "checked", "trap_in_one_block"});
  }

  // The KernelError's message, or "" when the launch succeeds.
  template <class... A>
  static std::string error_of(const char* name, unsigned grid, unsigned block, A... args) {
    try {
      launch(kernel(name), {grid, 1, 1}, {block, 1, 1}, 0, args...);
    } catch (const KernelError& e) {
      return e.what();
    }
    return "";
  }
};

TEST_F(CudaSimErrors, BarrierThatExitedThreadsNeverReachNamesBlockAndThreads) {
  std::vector<int> out(64);
  EXPECT_EQ(error_of("partial_barrier", 1, 64, out.data()),
            "[cuda sim] kernel partial_barrier: __syncthreads in block (0,0,0): reached by "
            "threads (0,0,0)..(31,0,0), not by (32,0,0)..(63,0,0), which exited");
  const std::string many = error_of("partial_barrier", 20, 40, out.data());
  EXPECT_NE(many.find("reached by threads (0,0,0)..(31,0,0), not by (32,0,0)..(39,0,0), which "
                      "exited"),
            std::string::npos)
      << many;
}

TEST_F(CudaSimErrors, WarpOperationWithExitedLanesNamesThem) {
  std::vector<int> out(64);
  EXPECT_EQ(error_of("shuffle_after_exit", 1, 64, out.data()),
            "[cuda sim] kernel shuffle_after_exit: warp operation (mask 0xffffffff) in block "
            "(0,0,0), warp 0: reached by threads (0,0,0)..(15,0,0), not by (16,0,0)..(31,0,0), "
            "which exited");
}

TEST_F(CudaSimErrors, FailedAssertNamesExpressionBlockAndThread) {
  std::vector<int> in(256, 0);
  in[200] = 99;
  EXPECT_EQ(error_of("checked", 4, 64, static_cast<const int*>(in.data()), 10),
            "[cuda sim] kernel checked, block (3,0,0), thread (8,0,0): assertion `in[i] < n` "
            "failed (kernel.cu:13, in checked)");
  in[200] = 0;
  EXPECT_EQ(error_of("checked", 4, 64, static_cast<const int*>(in.data()), 10), "");
}

TEST_F(CudaSimErrors, TrapAbandonsTheLaunchAndThePoolGoesOn) {
  int count = 0;
  for (int round = 0; round < 3; ++round) {
    EXPECT_EQ(error_of("trap_in_one_block", 64, 256, &count, 17),
              "[cuda sim] kernel trap_in_one_block, block (17,0,0), thread (3,0,0): __trap() "
              "was called");
  }
  // Block 17's threads never pass the barrier; the blocks running elsewhere stop early.
  EXPECT_LT(count, 3 * 63 * 256);
  count = 0;
  EXPECT_EQ(error_of("trap_in_one_block", 64, 256, &count, -1), "");
  EXPECT_EQ(count, 64 * 256);
}

// --- The rewrite and the host compiler ----------------------------------------------------

TEST(CudaSimSource, RewritesExternSharedAndKeepsLineNumbers) {
  const std::string source =
      "#include <cuda_runtime.h>\n"
      "#include <cassert>\n"
      "extern __shared__ float file_scope[];\n"
      "namespace ns { extern __shared__ __align__(16) int in_namespace[]; }\n"
      "__global__ void k(int n) {\n"
      "  extern __shared__ double local[];\n"
      "  const char* s = \"extern __shared__ int x[];\"; // extern __shared__ int y[];\n"
      "#pragma unroll 4\n"
      "  for (int i = 0; i < n; ++i) { local[i] = file_scope[i] + ns::in_namespace[i]; }\n"
      "}\n"
      "__device__ __noinline__ int helper() { return 1; }\n";
  const std::string unit = sim_translation_unit(source, {"k"});
  const std::string start = "#line 1 \"kernel.cu\"\n";
  const std::string user = unit.substr(unit.find(start) + start.size());
  const std::string body = user.substr(0, user.find("\n#line 1 \"[cuda sim] exports\""));
  EXPECT_EQ(std::count(body.begin(), body.end(), '\n'), 11);
  EXPECT_EQ(body.find("#include <cuda_runtime.h>"), std::string::npos);
  EXPECT_EQ(body.find("#include <cassert>"), std::string::npos);
  EXPECT_EQ(body.find("\n#pragma unroll"), std::string::npos);
  EXPECT_NE(body.find("static thread_local float * file_scope;"), std::string::npos);
  EXPECT_NE(body.find("static thread_local int * in_namespace;"), std::string::npos);
  EXPECT_NE(body.find("double * const local = static_cast<double *>(::__tsim::dynamic_shared());"),
            std::string::npos);
  EXPECT_NE(body.find("\"extern __shared__ int x[];\"; // extern __shared__ int y[];"),
            std::string::npos);
  EXPECT_NE(body.find("__device__ __attribute__((noinline)) int helper()"), std::string::npos);
  EXPECT_NE(unit.find("::ns::in_namespace = static_cast<decltype(::ns::in_namespace)>"),
            std::string::npos);
  EXPECT_NE(unit.find("tsim_kernel_0 = ::__tsim::kernel<&k>(\"k\")"), std::string::npos);
}

TEST(CudaSimSource, CompileErrorsPointAtTheUsersLines) {
  const std::string source = "__global__ void k(int* x) {\n  x[0] = 1;\n  undeclared(x);\n}\n";
  try {
    Module module(source, {"k"});
    FAIL() << "compiled";
  } catch (const jit::CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("kernel.cu:3"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("undeclared"), std::string::npos) << e.what();
  }
}

TEST(CudaSimSource, MissingCompilerIsACompileErrorThatSaysSo) {
  const char* saved = getenv("TESSERA_CXX");
  const std::string previous = saved ? saved : "";
  setenv("TESSERA_CXX", "/nonexistent/c++", 1);
  try {
    jit::host_compiler_identity();
    FAIL() << "found a compiler";
  } catch (const jit::CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("TESSERA_CXX"), std::string::npos) << e.what();
  }
  if (saved) {
    setenv("TESSERA_CXX", previous.c_str(), 1);
  } else {
    unsetenv("TESSERA_CXX");
  }
  EXPECT_FALSE(jit::host_compiler_identity().empty());
}

}  // namespace
}  // namespace tessera::cudasim
