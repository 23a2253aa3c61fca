#pragma once
// What the CUDA simulator's C++ tests share: a module compiled from CUDA C++ source by the
// host compiler, loaded and bound to the executor's runtime table; launches with typed
// arguments; and a suite whose tests share one module.

#include <dlfcn.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
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

}  // namespace
}  // namespace tessera::cudasim
