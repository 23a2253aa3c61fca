#include "backend/cudasim/cpu_module.h"

#include <stdexcept>

#include "backend/cuda/nvrtc.h"
#include "backend/cudasim/executor.h"
#include "backend/cudasim/host_module.h"
#include "backend/cudasim/module_source.h"
#include "jit/host_compiler.h"
#include "jit/host_function.h"
#include "tessera/errors.h"

namespace tessera::cudasim {

CpuModule::CpuModule(std::string source, std::vector<std::string> options,
                     std::vector<std::string> name_expressions)
    : source_(std::move(source)),
      options_(std::move(options)),
      name_expressions_(std::move(name_expressions)) {}

const TsimKernel& CpuModule::kernel(const std::string& name, const char* api) {
  const HostModule* module = module_.load(std::memory_order_acquire);
  if (!module) {
    try {
      module = &load_host_module(module_translation_unit(source_, options_, name_expressions_),
                                 jit::host_function_options());
    } catch (const jit::CompileError& e) {
      throw cuda::CompileError(std::string("[") + api + "] the kernel's source does not " +
                                   "compile for the CPU:\n" + e.what(),
                               e.what(), source_);
    }
    module_.store(module, std::memory_order_release);
  }
  auto it = module->kernels.find(name);
  if (it == module->kernels.end()) {
    throw CudaRuntimeError(std::string("[") + api + "] no kernel named '" + name +
                           "' in the module (a C++ kernel needs extern \"C\" or a name "
                           "expression)");
  }
  return *it->second;
}

void launch_on_cpu(const TsimKernel& kernel, TsimDim3 grid, TsimDim3 block, size_t shared_bytes,
                   void* const* params, const char* api, bool cooperative) {
  const uint64_t blocks = uint64_t{grid.x} * grid.y * grid.z;
  if (cooperative && blocks > kCpuMaxCooperativeBlocks) {
    throw CudaRuntimeError(std::string("[") + api + "] CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE: " +
                           "a cooperative launch of " + std::to_string(blocks) +
                           " blocks; the CPU runs at most " +
                           std::to_string(kCpuMaxCooperativeBlocks) + " at once");
  }
  if (shared_bytes > kCpuMaxDynamicShared) {
    throw ValueError(std::string("[") + api + "] " + std::to_string(shared_bytes) +
                     " bytes of dynamic shared memory; at most " +
                     std::to_string(kCpuMaxDynamicShared) + " are allowed");
  }
  try {
    run_kernel(kernel, LaunchShape{grid, block, shared_bytes}, params, cooperative);
  } catch (const KernelError& e) {
    throw std::runtime_error(std::string("[") + api + "] " + e.what());
  } catch (const std::invalid_argument& e) {
    throw ValueError(std::string("[") + api + "] " + e.what());
  }
}

}  // namespace tessera::cudasim
