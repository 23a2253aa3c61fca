// NVRTC and ptxas (src/backend/cuda/nvrtc.h, ptxas.h): kernels compile to PTX for sm_80 and
// sm_90 and assemble to cubins, the way DESIGN.md ("CUDA without a GPU") checks kernels on
// machines without a GPU. Compiles are cached in memory, so each kernel compiles once per run.

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "backend/cuda/nvrtc.h"
#include "backend/cuda/ptxas.h"
#include "jit/kernel_cache.h"
#include "tessera/errors.h"

namespace fs = std::filesystem;
using tessera::cuda::CompileError;
using tessera::cuda::nvrtc_compile;
using tessera::cuda::ptxas_assemble;

namespace {

const std::vector<std::string> kArchs = {"sm_80", "sm_90"};

constexpr const char* kSaxpy = R"(
extern "C" __global__ void saxpy(float a, const float* x, const float* y, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * x[i] + y[i];
}
)";

constexpr const char* kScale = R"(
template <typename T>
__global__ void scale(T* x, T a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}
)";

// Shared memory, barriers, float and int atomicAdd, an atomicCAS loop and warp shuffles.
constexpr const char* kBlockSum = R"(
__device__ float atomic_max(float* address, float value) {
  int* bits = reinterpret_cast<int*>(address);
  int old = *bits, assumed;
  do {
    assumed = old;
    old = atomicCAS(bits, assumed, __float_as_int(fmaxf(value, __int_as_float(assumed))));
  } while (assumed != old);
  return __int_as_float(old);
}

extern "C" __global__ void block_sum(const float* x, float* total, int* blocks, float* maximum,
                                     int n) {
  __shared__ float partial[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
  partial[threadIdx.x] = __shfl_sync(0xffffffffu, v, 0);
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    atomicAdd(total, partial[0]);
    atomicAdd(blocks, 1);
    atomic_max(maximum, partial[0]);
  }
}
)";

// A cubin is an ELF image for the CUDA machine (EM_CUDA = 190).
void expect_cubin(const std::string& cubin) {
  ASSERT_GT(cubin.size(), 20u);
  EXPECT_EQ(cubin.substr(0, 4),
            "\x7f"
            "ELF");
  EXPECT_EQ(static_cast<unsigned char>(cubin[18]), 190);
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// One cache directory for the suite, so that its compiles are shared between its tests.
class NvrtcTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (const char* previous = std::getenv("TESSERA_CACHE_DIR")) previous_ = previous;
    std::string dir = (fs::temp_directory_path() / "tessera-nvrtc-test-XXXXXX").string();
    ASSERT_NE(mkdtemp(dir.data()), nullptr);
    dir_ = dir;
    setenv("TESSERA_CACHE_DIR", dir_.c_str(), 1);
  }
  static void TearDownTestSuite() {
    if (previous_) {
      setenv("TESSERA_CACHE_DIR", previous_->c_str(), 1);
    } else {
      unsetenv("TESSERA_CACHE_DIR");
    }
    fs::remove_all(dir_);
  }
  void SetUp() override {
    if (!tessera::cuda::nvrtc_available() || !tessera::cuda::ptxas_available()) {
      GTEST_SKIP() << "NVRTC or ptxas not found";
    }
  }

  static inline std::optional<std::string> previous_;
  static inline fs::path dir_;
};

TEST_F(NvrtcTest, Version) {
  std::string version = tessera::cuda::nvrtc_version();
  EXPECT_NE(version.find('.'), std::string::npos) << version;
}

TEST_F(NvrtcTest, SaxpyCompilesAndAssembles) {
  for (const auto& arch : kArchs) {
    auto result = nvrtc_compile(kSaxpy, "saxpy.cu", {}, {}, arch);
    EXPECT_TRUE(contains(result.ptx, ".target " + arch)) << arch;
    EXPECT_TRUE(contains(result.ptx, ".entry saxpy("));
    EXPECT_TRUE(result.lowered_names.empty());
    expect_cubin(ptxas_assemble(result.ptx, arch));
  }
}

TEST_F(NvrtcTest, TemplateInstancesHaveLoweredNames) {
  for (const auto& arch : kArchs) {
    auto result =
        nvrtc_compile(kScale, "scale.cu", {"-std=c++17"}, {"scale<float>", "scale<double>"}, arch);
    ASSERT_EQ(result.lowered_names.size(), 2u);
    EXPECT_EQ(result.lowered_names[0], "_Z5scaleIfEvPT_S0_i");
    EXPECT_EQ(result.lowered_names[1], "_Z5scaleIdEvPT_S0_i");
    for (const auto& name : result.lowered_names) {
      EXPECT_TRUE(contains(result.ptx, ".entry " + name + "(")) << name;
    }
    expect_cubin(ptxas_assemble(result.ptx, arch));
  }
}

TEST_F(NvrtcTest, SharedMemoryAtomicsAndShufflesAssemble) {
  for (const auto& arch : kArchs) {
    auto result = nvrtc_compile(kBlockSum, "block_sum.cu", {}, {}, arch);
    for (const char* instruction :
         {"bar.sync", "shfl.sync.down", "shfl.sync.idx", "atom.global.add.f32",
          "atom.global.add.u32", "atom.global.cas.b32", ".shared"}) {
      EXPECT_TRUE(contains(result.ptx, instruction)) << arch << " " << instruction;
    }
    expect_cubin(ptxas_assemble(result.ptx, arch));
  }
}

TEST_F(NvrtcTest, CompilesAreCachedOnDisk) {
  auto first = nvrtc_compile(kSaxpy, "saxpy.cu", {}, {}, "sm_80");
  std::string cubin = ptxas_assemble(first.ptx, "sm_80");
  tessera::jit::clear_memory_cache();
  auto second = nvrtc_compile(kSaxpy, "saxpy.cu", {}, {}, "sm_80");
  EXPECT_EQ(second.ptx, first.ptx);
  EXPECT_EQ(ptxas_assemble(second.ptx, "sm_80"), cubin);
  bool ptx = false, cubins = false;
  for (const auto& entry : fs::directory_iterator(dir_)) {
    ptx |= entry.path().extension() == ".ptx";
    cubins |= entry.path().extension() == ".cubin";
  }
  EXPECT_TRUE(ptx);
  EXPECT_TRUE(cubins);
}

TEST_F(NvrtcTest, SyntaxErrorQuotesLogAndLine) {
  const std::string source =
      "extern \"C\" __global__ void broken(float* x) {\n"
      "  float y = x[0];\n"
      "  x[1] = y * undefined_name;\n"
      "}\n";
  try {
    nvrtc_compile(source, "broken.cu", {}, {}, "sm_80");
    FAIL() << "expected CompileError";
  } catch (const CompileError& error) {
    std::string what = error.what();
    EXPECT_TRUE(what.starts_with("[RawKernel] NVRTC compilation failed:")) << what;
    EXPECT_TRUE(contains(error.log(), "broken.cu(3): error")) << error.log();
    EXPECT_TRUE(contains(what, error.log()));
    EXPECT_TRUE(contains(what, "3 |   x[1] = y * undefined_name;")) << what;
    EXPECT_EQ(error.source(), source);
  }
}

TEST_F(NvrtcTest, BadArchIsRefused) {
  EXPECT_THROW(nvrtc_compile(kSaxpy, "saxpy.cu", {}, {}, "80"), tessera::ValueError);
  EXPECT_THROW(nvrtc_compile(kSaxpy, "saxpy.cu", {}, {}, "compute_80"), tessera::ValueError);
}

TEST_F(NvrtcTest, PtxasFailureCarriesItsLog) {
  try {
    ptxas_assemble("this is not PTX\n", "sm_80");
    FAIL() << "expected CompileError";
  } catch (const CompileError& error) {
    EXPECT_TRUE(contains(error.what(), "ptxas failed")) << error.what();
    EXPECT_FALSE(error.log().empty());
    EXPECT_TRUE(contains(error.what(), error.log()));
    EXPECT_EQ(error.source(), "this is not PTX\n");
  }
}

}  // namespace
