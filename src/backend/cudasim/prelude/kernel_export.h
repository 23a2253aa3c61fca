#pragma once
// The CUDA simulator's device runtime, last part: the kernel descriptors a module exports.
// The module's footer (module_source.cpp) defines tsim_kernel_<i> = kernel<&name>("name")
// for each kernel asked for; the parameter types are deduced from the function's type.

#include "backend/cudasim/prelude/intrinsics.h"

namespace __tsim {

// Runs F for the calling CUDA thread with the arguments params[0..n), each pointing at a
// value of the parameter's type.
template <auto F, class... A>
struct Launcher {
  template <size_t... I>
  static void call([[maybe_unused]] void* const* params, std::index_sequence<I...>) {
    F(*static_cast<std::remove_cvref_t<A>*>(params[I])...);
  }
  static void launch(void* const* params) {
    begin_thread();
    call(params, std::index_sequence_for<A...>{});
  }
  static constexpr size_t sizes[] = {sizeof(std::remove_cvref_t<A>)..., 0};
  static constexpr size_t aligns[] = {alignof(std::remove_cvref_t<A>)..., 0};
};

template <auto F, class... A>
constexpr TsimKernel describe(void (*)(A...), const char* name) {
  using L = Launcher<F, A...>;
  return {name, &L::launch, static_cast<int>(sizeof...(A)), L::sizes, L::aligns};
}

template <class R, class... A>
constexpr bool returns_void(R (*)(A...)) {
  return std::is_void_v<R>;
}

template <auto F>
constexpr TsimKernel kernel(const char* name) {
  static_assert(
      std::is_pointer_v<decltype(F)> && std::is_function_v<std::remove_pointer_t<decltype(F)>>,
      "a kernel name must name a __global__ function");
  static_assert(returns_void(F), "a __global__ function returns void");
  return describe<F>(F, name);
}

}  // namespace __tsim
