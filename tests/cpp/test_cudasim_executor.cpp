// The CUDA simulator's executor: kernels written against its runtime table directly (places,
// barriers, dynamic shared memory, failures, launch shapes), and the source rewrite and host
// compile that turn CUDA C++ into a module.

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "cudasim_module.h"

namespace tessera::cudasim {
namespace {

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
