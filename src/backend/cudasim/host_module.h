#pragma once
// A module of CUDA kernels compiled for the host: the translation unit module_source.h makes
// from CUDA C++, built by the host compiler once (cached on disk by its text), loaded for the
// life of the process and bound to the executor. The simulated driver loads its modules
// through it, and so does the CPU device, which runs CUDA C++ (RawKernel, ElementwiseKernel)
// on host memory with the same executor (cpu_module.h).

#include <string>
#include <unordered_map>
#include <vector>

#include "backend/cudasim/sim_abi.h"

namespace tessera::cudasim {

struct HostModule {
  void* library = nullptr;
  std::unordered_map<std::string, const TsimKernel*> kernels;  // by name or name expression
};

// Compiles (or finds in the kernel cache) and loads `translation_unit`, with the host
// compiler's `extra_options` besides the simulator's own. Throws
// jit::CompileError with the compiler's log when it does not compile, std::runtime_error
// when it does not load. The module is never unloaded: launches may still run from it.
const HostModule& load_host_module(const std::string& translation_unit,
                                   const std::vector<std::string>& extra_options = {});

}  // namespace tessera::cudasim
