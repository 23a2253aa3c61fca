#pragma once
// The binary interface between the CUDA simulator (in libtessera) and a kernel module it
// compiled with the host compiler. Both sides are built by the same compiler family from
// this one header, which the module's translation unit includes as text (the prelude).
//
// A module exports, with C linkage:
//   void tsim_bind(const TsimRuntime* runtime);   called once after dlopen
//   const TsimKernel tsim_kernel_<i>;             one per exported kernel, i = 0, 1, ...
//   const int tsim_kernel_count;
// The simulator looks kernels up by TsimKernel::name (the name or name expression the
// user asked for: "saxpy", "reduce<float, 256>").

#include <cstddef>
#include <cstdint>

extern "C" {

struct TsimDim3 {
  unsigned x, y, z;
};

// Where the calling CUDA thread is: what threadIdx, blockIdx, blockDim and gridDim read,
// and its block's dynamic shared memory (as TsimRuntime::dynamic_shared returns it).
struct TsimThreadPlace {
  TsimDim3 thread_idx, block_idx, block_dim, grid_dim;
  void* dynamic_shared;
};

// Services the executor provides to a running kernel; every function acts for the CUDA
// thread (fiber) that calls it.
struct TsimRuntime {
  const TsimThreadPlace* (*place)();
  // __syncthreads and its _count/_and/_or forms: returns the count of threads of the block
  // whose predicate is non-zero (callers derive and/or from it).
  int (*sync_block)(int predicate);
  // __syncwarp(mask): the threads of the calling warp named in mask meet.
  void (*sync_warp)(unsigned mask);
  // The warp exchange behind shuffles, votes and matches: the threads in `mask` meet,
  // each contributing `value`; `gathered` receives the 32 lanes' values (0 for lanes that
  // took no part). The caller always takes part; lanes past the end of the block are
  // dropped from the mask. Returns the calling thread's lane.
  int (*warp_exchange)(unsigned mask, uint64_t value, uint64_t* gathered);
  // __activemask: the lanes of the calling warp that call it together (that reach it before
  // the warp's other lanes have all exited or blocked elsewhere).
  unsigned (*active_mask)();
  // The block's dynamic shared memory (extern __shared__), 16-byte aligned.
  void* (*dynamic_shared)();
  // Reports a kernel error (a failed assert, a trap) and ends the launch with it; does
  // not return.
  void (*fail)(const char* message);
  // Host printf for device printf: one call prints one whole line, never interleaved.
  int (*print)(const char* text);
  // cooperative_groups::this_grid().sync(): every thread of every block of the launch
  // meets. The launch must be cooperative (cuLaunchCooperativeKernel), or it fails.
  void (*sync_grid)();
  // std::cyl_bessel_i(nu, x), behind CUDA's cyl_bessel_i0/i1: libtessera computes it, so
  // that modules need not include libstdc++'s special functions (prelude/runtime.h).
  double (*cyl_bessel_i)(double nu, double x);
};

// One kernel of a module: `launch` calls it for the calling CUDA thread with the arguments
// params[0..nparams) (each pointing at a value of the parameter's type).
struct TsimKernel {
  const char* name;
  void (*launch)(void* const* params);
  int nparams;
  const size_t* param_sizes;
  const size_t* param_aligns;
};

}  // extern "C"
