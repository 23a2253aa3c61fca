#pragma once
// The CUDA runtime above the driver table: which driver is in use, per-device contexts, and
// the check that turns a failed driver call into CudaRuntimeError. The same code runs on
// the real driver and on the simulator.

#include <string>

#include "backend/cuda/driver.h"
#include "tessera/cuda.h"
#include "tessera/stream.h"

namespace tessera::cuda {

// The driver in use: the simulator when TESSERA_CUDA_SIM=1, else libcuda when it loads and
// finds a device, else null. Chosen once per process.
const DriverApi* driver();

// The driver, or CudaRuntimeError saying that no CUDA device was found (and how the
// simulator runs CUDA code on the CPU).
const DriverApi& require_driver(const char* api);
// The primary context of `device` (which must exist), retained on first use.
CUcontext context_of(int device, const char* api);
// Checks `device` exists (CudaRuntimeError otherwise) and makes its context current on
// this thread.
void activate(int device, const char* api = "cuda");

// Throws CudaRuntimeError "[api] CUDA_ERROR_...: text (detail)" unless r is CUDA_SUCCESS.
void check(CUresult r, const char* api);
// The same, with `context` (what was asked of the driver) added to the message where the
// driver gave no detail of its own (the real driver never does; the simulator's names it).
void check(CUresult r, const char* api, const std::string& context);

inline CUstream stream_handle(const Stream& s) { return reinterpret_cast<CUstream>(s.handle()); }

}  // namespace tessera::cuda
