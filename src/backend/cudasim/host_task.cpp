#include "backend/cudasim/host_task.h"

#include <exception>
#include <iostream>
#include <memory>
#include <utility>

#include "backend/cuda/runtime.h"

namespace tessera::cuda {
namespace {

struct HostTask {
  const char* what;
  std::function<void()> run;
};

void run_host_task(void* data) {
  const std::unique_ptr<HostTask> task(static_cast<HostTask*>(data));
  try {
    task->run();
  } catch (const std::exception& e) {
    std::cerr << "[cuda sim] " << task->what << " failed: " << e.what() << std::endl;
    std::terminate();
  }
}

}  // namespace

bool enqueue_host_task(CUstream stream, const char* what, std::function<void()> task) {
  auto queued = std::make_unique<HostTask>(HostTask{what, std::move(task)});
  if (driver()->cuLaunchHostFunc(stream, &run_host_task, queued.get()) != CUDA_SUCCESS) {
    return false;
  }
  queued.release();  // run_host_task owns it now
  return true;
}

}  // namespace tessera::cuda
