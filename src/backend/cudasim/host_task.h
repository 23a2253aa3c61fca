#pragma once
// How the simulated CUDA libraries (cuBLAS, cuFFT, cuSOLVER) run the CPU's routines in
// stream order: as host functions queued on the stream (cuLaunchHostFunc).

#include <functional>

#include "backend/cuda/driver.h"

namespace tessera::cuda {

// Queues `task` on `stream` behind the work before it; false when the driver refuses.
// A queued task has no caller to report to: one that throws ends the process loudly,
// naming `what`, as a GPU's failed kernel would, rather than leave a wrong result.
bool enqueue_host_task(CUstream stream, const char* what, std::function<void()> task);

}  // namespace tessera::cuda
