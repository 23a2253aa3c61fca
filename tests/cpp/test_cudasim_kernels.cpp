// CUDA C++ kernels on the simulator: shared-memory reductions, tiled products, atomics,
// extern shared memory and templates, with exact results.

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <numeric>
#include <thread>
#include <vector>

#include "cudasim_module.h"

namespace tessera::cudasim {
namespace {

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

}  // namespace
}  // namespace tessera::cudasim
