#pragma once
// The process environment is shared by every thread, and setenv/unsetenv may reallocate
// `environ` while another thread reads it: a child spawned at that moment gets a dangling
// pointer (posix_spawn fails with EFAULT). tessera's own writers (OpenBLAS's load-time
// settings) and spawners (the host compiler of the simulator's kernels, which may run while
// a simulated library loads OpenBLAS on a stream's thread) hold this lock.

#include <mutex>

namespace tessera {

inline std::mutex& environment_mutex() {
  static std::mutex mutex;
  return mutex;
}

}  // namespace tessera
