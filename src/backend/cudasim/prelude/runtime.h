#pragma once
// The CUDA simulator's device runtime, part 1: what a kernel module needs before anything
// else — the standard headers, CUDA's qualifiers and version macros, the calling thread's
// place, device printf, assert and __trap. The prelude headers are never compiled into
// libtessera: the build embeds them as text (cmake/cudasim_prelude.cmake) and every module
// the simulator compiles starts with them, followed by the user's CUDA source.

// The standard headers come first, before any macro below can change what they mean. The
// C++ <math.h> and <stdlib.h> put std's overloads in the global namespace, as CUDA does
// (sqrt(float), abs(double) ...).
// libstdc++'s <cmath> also declares C++17's special functions (bits/specfun.h, unless its
// configuration macro below is off), whose templates GCC instantiates anew at the end of
// every module's compile, precompiled header or not: 0.03 s of each compile. CUDA has none
// of them, so the modules go without. (sim_abi.h's <cstddef> read the configuration.)
#undef _GLIBCXX_USE_STD_SPEC_FUNCS
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <time.h>

#include <cfenv>
#include <cfloat>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>

#include "backend/cudasim/sim_abi.h"

// The source is compiled as the device side of a CUDA compilation for sm_80.
#define __CUDACC__ 1
#define __CUDA_ARCH__ 800
#define __CUDACC_VER_MAJOR__ 12
#define __CUDACC_VER_MINOR__ 0
#define CUDART_VERSION 12000
#define CUDA_VERSION 12000
#define TESSERA_CUDA_SIM 1

// Qualifiers. __shared__ variables are per block: a block's threads are fibers on one OS
// thread, which runs one block at a time, so thread_local storage is exactly a block's.
// (thread_local at block scope implies static.) __noinline__ is rewritten in the user's
// source instead of defined here: libstdc++ spells __attribute__((__noinline__)).
#define __global__
#define __device__
#define __host__
#define __constant__
#define __managed__
#define __grid_constant__
#define __shared__ thread_local
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __align__(n) __attribute__((aligned(n)))
#define __launch_bounds__(...)
#define __maxnreg__(n)
#define __builtin_assume(e) static_cast<void>(sizeof((e) ? 1 : 0))

// Where a function that is not a template calls one, GCC instantiates the callee at the end
// of every translation unit that includes it, precompiled or not: the CUDA functions below
// that call templates (atomics, warp reductions, rounded arithmetic, bit casts ...) would
// cost every module's compile 0.03 s. Each is instead a template of one defaulted
// parameter, instantiated only where a kernel calls it; calls read the same.
#define TSIM_ON_USE template <int = 0>

namespace __tsim {

// The executor's services, bound once per module by tsim_bind.
static const TsimRuntime* runtime_;
// The calling CUDA thread's place. All fibers of a block share the OS thread, and so this
// variable: it is set when a thread starts and reloaded after every call that may switch.
static thread_local const TsimThreadPlace* place_;
// The block's dynamic shared memory (extern __shared__).
static thread_local void* dynamic_shared_;

// Points the file-scope extern __shared__ arrays at the block's memory; the module's footer
// defines it.
static void bind_file_shared();

inline void begin_thread() {
  place_ = runtime_->place();
  dynamic_shared_ = place_->dynamic_shared;
  bind_file_shared();
}
inline void after_switch() { place_ = runtime_->place(); }
inline void* dynamic_shared() { return dynamic_shared_; }

[[noreturn]] inline void fail(const char* message) {
  runtime_->fail(message);
  __builtin_unreachable();
}

[[noreturn]] inline void assert_fail(const char* expression, const char* file, int line,
                                     const char* function) {
  char message[512];
  std::snprintf(message, sizeof message, "assertion `%s` failed (%s:%d, in %s)", expression, file,
                line, function);
  fail(message);
}

// printf's arguments as C varargs take them: the language does not promote half precision
// (where the compiler has it).
template <class T>
inline T printf_argument(T value) {
  return value;
}
#ifdef __FLT16_MAX__
inline double printf_argument(_Float16 value) { return value; }
#endif

// Device printf: the whole text reaches the host in one call, so lines never interleave.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-security"
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
template <class... A>
inline int device_printf(const char* format, A... args) {
  char line[1024];
  const int n = std::snprintf(line, sizeof line, format, printf_argument(args)...);
  if (n < 0) return n;
  if (static_cast<size_t>(n) < sizeof line) return runtime_->print(line);
  char* text = static_cast<char*>(std::malloc(static_cast<size_t>(n) + 1));
  if (!text) return -1;
  std::snprintf(text, static_cast<size_t>(n) + 1, format, printf_argument(args)...);
  const int printed = runtime_->print(text);
  std::free(text);
  return printed;
}
#pragma GCC diagnostic pop

}  // namespace __tsim

// A macro, so that the C library's printf (declared by <cstdio>) is never called instead;
// std::printf(...) works too.
using __tsim::device_printf;
namespace std {
using __tsim::device_printf;
}  // namespace std
#define printf(...) device_printf(__VA_ARGS__)

#undef assert
#ifdef NDEBUG
#define assert(e) static_cast<void>(0)
#else
#define assert(e) \
  (static_cast<bool>(e) ? void(0) : ::__tsim::assert_fail(#e, __FILE__, __LINE__, __func__))
#endif

[[noreturn]] inline void __trap() { ::__tsim::fail("__trap() was called"); }
[[noreturn]] inline void __brkpt() { ::__tsim::fail("__brkpt() was called"); }

// Cache-hinted loads and stores are plain ones here.
#define TSIM_LOAD(name)             \
  template <class T>                \
  inline T name(const T* address) { \
    return *address;                \
  }
#define TSIM_STORE(name)                  \
  template <class T>                      \
  inline void name(T* address, T value) { \
    *address = value;                     \
  }
TSIM_LOAD(__ldg)
TSIM_LOAD(__ldca)
TSIM_LOAD(__ldcg)
TSIM_LOAD(__ldcs)
TSIM_LOAD(__ldlu)
TSIM_LOAD(__ldcv)
TSIM_STORE(__stwb)
TSIM_STORE(__stcg)
TSIM_STORE(__stcs)
TSIM_STORE(__stwt)
#undef TSIM_LOAD
#undef TSIM_STORE

inline long long clock64() {
  timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return now.tv_sec * 1000000000ll + now.tv_nsec;
}
inline unsigned long long __globaltimer() { return static_cast<unsigned long long>(clock64()); }
// A thread that sleeps is usually waiting for another block: let it run.
inline void __nanosleep(unsigned) { sched_yield(); }
