#include "backend/cuda/expr_kernel.h"

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>

#include "backend/cuda/render_cuda.h"
#include "backend/cuda/runtime.h"
#include "tessera/cuda.h"
#include "tessera/stream.h"

namespace tessera::cuda {
namespace {

constexpr unsigned kBlock = 256;

// The toolkit's include folder: where the build found it, else where CUDA is installed.
std::string toolkit_include() {
  const std::vector<std::string> candidates = {
      TESSERA_CUDA_TOOLKIT_INCLUDE,
      std::getenv("CUDA_HOME") ? std::string(std::getenv("CUDA_HOME")) + "/include" : "",
      std::getenv("CUDA_PATH") ? std::string(std::getenv("CUDA_PATH")) + "/include" : "",
      "/usr/local/cuda/include"};
  for (const std::string& dir : candidates) {
    std::error_code ec;
    if (!dir.empty() && std::filesystem::exists(dir + "/cuda/std/complex", ec)) return dir;
    if (!dir.empty() && std::filesystem::exists(dir + "/cccl/cuda/std/complex", ec)) return dir;
  }
  return candidates.front();
}

// One module per rendered kernel, kept for the life of the process (kernels are few).
Module& module_for(const std::string& key, const expr::KernelPlan& plan,
                   const KernelLayout& layout) {
  static std::mutex mutex;
  static auto* modules = new std::map<std::string, std::unique_ptr<Module>>();  // never freed
  std::lock_guard lock(mutex);
  auto& slot = (*modules)[key];
  if (!slot) {
    slot = std::make_unique<Module>(render_cuda(plan, layout), generated_kernel_options(),
                                    std::vector<std::string>{}, /*nvrtc_check=*/false);
  }
  return *slot;
}

int multiprocessors(int device) {
  static std::mutex mutex;
  static std::map<int, int> counts;
  std::lock_guard lock(mutex);
  auto [it, added] = counts.emplace(device, 0);
  if (added) it->second = std::max(1, device_properties(device).multiprocessors);
  return it->second;
}

std::atomic<bool>& generated_kernels() {
  static std::atomic<bool> enabled = [] {
    const char* v = std::getenv("TESSERA_CUDA_CODEGEN");
    return v != nullptr && std::string(v) == "1";
  }();
  return enabled;
}

}  // namespace

bool generated_kernels_enabled() { return generated_kernels().load(); }
void set_generated_kernels(bool enabled) { generated_kernels().store(enabled); }

const std::vector<std::string>& generated_kernel_options() {
  static const std::vector<std::string> options = [] {
    const std::string include = toolkit_include();
    return std::vector<std::string>{"-std=c++20", "--fmad=false", "-I" + include + "/cccl",
                                    "-I" + include};
  }();
  return options;
}

void launch_expr(int device, const expr::Node& root, std::span<const Array> outs) {
  if (outs.front().size() == 0) return;
  const expr::KernelPlan plan = expr::lower(root, outs);
  std::vector<int64_t> shape;
  std::vector<std::vector<int64_t>> strides;
  const KernelLayout layout = layout_of(plan, shape, strides);
  const std::string key = expr::plan_signature(plan) + "/" + layout.key();
  Module& module = module_for(key, plan, layout);
  const uintptr_t function = module.function(kExprKernelName, device, "eval");
  std::vector<uint64_t> words = kernel_params(plan, layout, shape, strides);
  std::vector<void*> params = {words.data()};
  const int64_t n = outs.front().size();
  const int64_t blocks_needed = (n + kBlock - 1) / kBlock;
  // Enough blocks to fill every multiprocessor many times over; the grid-stride loop covers
  // the rest, so huge arrays do not launch millions of blocks.
  const int64_t most = int64_t{32} * multiprocessors(device);
  const unsigned blocks = static_cast<unsigned>(std::min(blocks_needed, most));
  launch(function, {blocks, 1, 1}, {kBlock, 1, 1}, 0, current_stream(Device::cuda(device)),
         params, "eval");
}

}  // namespace tessera::cuda
