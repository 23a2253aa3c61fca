// User kernels compiled from CUDA C++ (tessera::cuda::Module): NVRTC to PTX for GPUs, loaded
// by the driver; for the simulator, the same source checked by NVRTC (when installed) and
// turned into a host translation unit that the simulated driver compiles and loads.

#include <mutex>

#include "backend/cuda/nvrtc.h"
#include "backend/cuda/runtime.h"
#include "backend/cudasim/module_source.h"
#include "tessera/cuda.h"
#include "tessera/errors.h"

namespace tessera::cuda {
namespace {

// The architecture the simulator checks sources against: it behaves as an sm_80 device.
constexpr const char* kSimulatorArch = "sm_80";

}  // namespace

struct Module::Loaded {
  CUmodule module = nullptr;
  std::map<std::string, std::string> symbols;  // requested name -> the module's symbol
};

Module::Module(std::string source, std::vector<std::string> options,
               std::vector<std::string> name_expressions, bool nvrtc_check)
    : source_(std::move(source)),
      options_(std::move(options)),
      name_expressions_(std::move(name_expressions)),
      nvrtc_check_(nvrtc_check) {}

Module::~Module() {
  const DriverApi* d = driver();
  for (size_t device = 0; device < loaded_.size(); ++device) {
    if (d && loaded_[device] && loaded_[device]->module) {
      activate(static_cast<int>(device));
      d->cuModuleUnload(loaded_[device]->module);
    }
  }
}

uintptr_t Module::function(const std::string& name, int device, const char* api) {
  activate(device, api);
  const DriverApi& d = *driver();
  static std::mutex mutex;
  std::lock_guard lock(mutex);
  if (loaded_.size() <= static_cast<size_t>(device)) loaded_.resize(device + 1);
  if (!loaded_[device]) {
    auto loaded = std::make_unique<Loaded>();
    std::string image;
    if (is_simulated()) {
      if (nvrtc_check_ && nvrtc_available()) nvrtc_compile(source_, "kernel.cu", options_, name_expressions_,
                                           kSimulatorArch);
      image = cudasim::module_translation_unit(source_, options_, name_expressions_);
    } else {
      const DeviceProperties p = device_properties(device);
      const NvrtcResult r = nvrtc_compile(source_, "kernel.cu", options_, name_expressions_,
                                          "sm_" + std::to_string(p.major * 10 + p.minor));
      for (size_t i = 0; i < name_expressions_.size(); ++i) {
        loaded->symbols.emplace(name_expressions_[i], r.lowered_names[i]);
      }
      image = r.ptx;
    }
    check(d.cuModuleLoadData(&loaded->module, image.c_str()), api);
    loaded_[device] = std::move(loaded);
  }
  const Loaded& loaded = *loaded_[device];
  auto it = loaded.symbols.find(name);
  const std::string& symbol = it == loaded.symbols.end() ? name : it->second;
  CUfunction function = nullptr;
  const CUresult r = d.cuModuleGetFunction(&function, loaded.module, symbol.c_str());
  if (r == CUDA_ERROR_NOT_FOUND) {
    throw CudaRuntimeError(std::string("[") + api + "] no kernel named '" + name +
                           "' in the module (a C++ kernel needs extern \"C\" or a name "
                           "expression)");
  }
  check(r, api);
  return reinterpret_cast<uintptr_t>(function);
}

}  // namespace tessera::cuda
