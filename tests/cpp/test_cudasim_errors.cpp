// The errors a simulated kernel can make, reported with block and thread ids: barriers and
// warp operations some threads never reach, failed asserts, traps.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cudasim_module.h"

namespace tessera::cudasim {
namespace {

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

}  // namespace
}  // namespace tessera::cudasim
