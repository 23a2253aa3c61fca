#include "backend/cuda/expr_kernel.h"

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>

#include "backend/cuda/nvrtc.h"
#include "backend/cuda/render_cuda.h"
#include "backend/cuda/runtime.h"
#include "jit/kernel_cache.h"
#include "tessera/errors.h"
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

// One module per rendered program, kept for the life of the process (docs/cuda.md says
// how many the suite makes, and the limit that would bound them).
Module& module_for(const std::string& key, const std::function<std::string()>& render) {
  static std::mutex mutex;
  static auto* modules = new std::map<std::string, std::unique_ptr<Module>>();  // never freed
  std::lock_guard lock(mutex);
  auto& slot = (*modules)[key];
  if (!slot) {
    slot = std::make_unique<Module>(render(), generated_kernel_options(),
                                    std::vector<std::string>{}, /*nvrtc_check=*/false);
  }
  return *slot;
}

// A generated kernel that does not compile or load is tessera's bug: its source is kept in
// the cache directory for the report, and the error names the file.
std::string failure_report(const Module& module, const std::string& what) {
  std::string saved = "(could not be saved)";
  const std::filesystem::path path =
      jit::cache_dir() / ("failed-" + jit::digest(module.source()).substr(0, 16) + ".cu");
  std::ofstream file(path, std::ios::binary);
  if (file.write(module.source().data(), static_cast<std::streamsize>(module.source().size()))) {
    saved = path.string();
  }
  return "[eval] a generated kernel failed to compile or load, a bug in tessera; its source is " +
         saved + ":\n" + what;
}

}  // namespace

int multiprocessors(int device) {
  static std::mutex mutex;
  static std::map<int, int> counts;
  std::lock_guard lock(mutex);
  auto [it, added] = counts.emplace(device, 0);
  if (added) it->second = std::max(1, device_properties(device).multiprocessors);
  return it->second;
}

void launch_grid_stride(uintptr_t function, int device, int64_t total, void* words,
                        const char* api) {
  if (total == 0) return;
  const int64_t needed = (total + kBlock - 1) / kBlock;
  const auto blocks =
      static_cast<unsigned>(std::min<int64_t>(needed, int64_t{32} * multiprocessors(device)));
  std::vector<void*> params = {words};
  launch(function, {blocks, 1, 1}, {kBlock, 1, 1}, 0, current_stream(Device::cuda(device)),
         params, api);
}

uintptr_t generated_function(const std::string& key, const std::function<std::string()>& render,
                             const char* name, int device) {
  Module& module = module_for(key, render);
  try {
    return module.function(name, device, "eval");
  } catch (const CompileError& e) {
    throw CompileError(failure_report(module, e.what()), e.log(), e.source());
  } catch (const CudaRuntimeError& e) {
    if (std::string(e.what()).find("CUDA_ERROR_INVALID_IMAGE") == std::string::npos) throw;
    throw CudaRuntimeError(failure_report(module, e.what()));
  }
}

const std::vector<std::string>& toolkit_include_options() {
  static const std::vector<std::string> options = [] {
    const std::string include = toolkit_include();
    return std::vector<std::string>{"-I" + include + "/cccl", "-I" + include};
  }();
  return options;
}

const std::vector<std::string>& generated_kernel_options() {
  static const std::vector<std::string> options = [] {
    std::vector<std::string> o = {"-std=c++20", "--fmad=false", "--device-int128"};
    o.insert(o.end(), toolkit_include_options().begin(), toolkit_include_options().end());
    return o;
  }();
  return options;
}

void launch_expr(int device, const expr::Node& root, std::span<const Array> outs) {
  if (outs.front().size() == 0) return;
  const expr::KernelPlan plan = expr::lower(root, outs);
  const KernelLayout layout = layout_of(plan);
  const std::string key = expr::plan_signature(plan) + "/" + std::to_string(layout.axes);
  const uintptr_t function = generated_function(
      key, [&] { return render_cuda(plan, layout.axes); }, kExprKernelName, device);
  std::vector<uint64_t> words = kernel_params(plan, layout);
  const int64_t n = outs.front().size();
  launch_grid_stride(function, device, layout.packed ? n / pack_width(plan) : n, words.data(),
                     "eval");
}

void launch_loop(int device, Ufunc op, int loop, std::span<const void* const> in,
                 std::span<const bool> broadcast, void* out, int64_t n) {
  const LoopSignature& sig = ufunc_info(op).loops[loop];
  // Views of the caller's memory, which outlives the launch's queueing.
  const auto view = [&](const void* data, DType dtype) {
    const auto bytes = static_cast<size_t>(n) * itemsize(dtype);
    return Array(Buffer::wrap(Device::cuda(device), const_cast<void*>(data), bytes, nullptr),
                 dtype, Dims{n}, Dims{itemsize(dtype)}, 0);
  };
  std::vector<expr::NodePtr> args;
  for (size_t k = 0; k < in.size(); ++k) {
    args.push_back(broadcast[k] ? expr::constant(Scalar(sig.in[k], in[k]))
                                : expr::input(view(in[k], sig.in[k]), sig.in[k]));
  }
  const Array result = view(out, sig.out[0]);
  launch_expr(device, *expr::op(op, loop, 0, std::move(args)), std::span(&result, 1));
}

}  // namespace tessera::cuda
