#include "backend/cudasim/fault_trap.h"

#include <signal.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>

#include "backend/cudasim/executor.h"

namespace tessera::cudasim {
namespace {

// Where the fiber's fault is reported from: far enough below the top of its stack to leave
// the fiber's entry frame alone (the frames in between are the kernel's, never resumed).
constexpr uintptr_t kReportFrameOffset = 16 * 1024;
// The signal handler's own stack, per OS thread: a fiber that overflowed its stack has no
// room left for the handler's frame.
constexpr size_t kAltStackBytes = 64 * 1024;

struct sigaction previous_segv, previous_bus;
thread_local uintptr_t fault_address __attribute__((tls_model("initial-exec"))) = 0;
thread_local int fault_signal __attribute__((tls_model("initial-exec"))) = 0;

std::mutex describer_mutex;
AddressDescriber& describer() {
  static AddressDescriber* d = new AddressDescriber;  // outlives every kernel thread
  return *d;
}

std::string hex(uintptr_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%zx", static_cast<size_t>(value));
  return text;
}

// Runs on the faulting fiber once the handler has returned: ordinary code, free to
// allocate and lock.
[[noreturn]] void report_fault() {
  const uintptr_t address = fault_address;
  std::string what;
  if (in_running_stack_guard(address)) {
    what = "the CUDA thread's stack overflowed (the simulator gives each thread 256 KiB)";
  } else {
    std::lock_guard lock(describer_mutex);
    what = describer() ? describer()(address) : std::string();
  }
  const char* kind = fault_signal == SIGBUS ? "bus error" : "illegal memory access";
  fail_running_thread_illegal_address(std::string(kind) + " at address " + hex(address) +
                                      (what.empty() ? "" : ": " + what));
}

// A fault that is not the kernel's goes to the handler that was there before; if that
// returns (or we are re-entered, by a handler that re-raises), the default action ends the
// process when the faulting instruction runs again.
std::atomic<bool> passing_on{false};
void pass_on(int signal, siginfo_t* info, void* context) {
  const struct sigaction& previous = signal == SIGBUS ? previous_bus : previous_segv;
  if (!passing_on.exchange(true)) {
    if (previous.sa_flags & SA_SIGINFO) {
      previous.sa_sigaction(signal, info, context);
    } else if (previous.sa_handler != SIG_IGN && previous.sa_handler != SIG_DFL) {
      previous.sa_handler(signal);
    }
  }
  struct sigaction fallback = {};
  fallback.sa_handler = SIG_DFL;
  sigaction(signal, &fallback, nullptr);
}

// Moves the interrupted code to report_fault(), on the fiber's stack, as if called there.
void redirect_to_report(ucontext_t* context, uintptr_t stack_top) {
  const uintptr_t frame = ((stack_top - kReportFrameOffset) & ~uintptr_t{15});
#if defined(__x86_64__)
  context->uc_mcontext.gregs[REG_RSP] = static_cast<greg_t>(frame - 8);  // a return address
  context->uc_mcontext.gregs[REG_RIP] = reinterpret_cast<greg_t>(&report_fault);
#elif defined(__aarch64__)
  context->uc_mcontext.sp = frame;
  context->uc_mcontext.pc = reinterpret_cast<uintptr_t>(&report_fault);
  context->uc_mcontext.regs[30] = 0;  // no return address: report_fault never returns
#else
#error "the CUDA simulator's fault trap knows x86-64 and AArch64 signal contexts only"
#endif
}

void on_fault(int signal, siginfo_t* info, void* context) {
  void* top = running_kernel_stack_top();
  // A signal sent rather than raised by a fault (kill, raise) carries no address.
  if (!top || info->si_code <= 0) return pass_on(signal, info, context);
  fault_address = reinterpret_cast<uintptr_t>(info->si_addr);
  fault_signal = signal;
  redirect_to_report(static_cast<ucontext_t*>(context), reinterpret_cast<uintptr_t>(top));
}

std::mutex install_mutex;
bool installed = false;

// Puts on_fault in front (again), keeping what it displaces as the handler to pass on to.
void install_locked() {
  struct sigaction action = {};
  action.sa_sigaction = &on_fault;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  sigaction(SIGSEGV, &action, &previous_segv);
  sigaction(SIGBUS, &action, &previous_bus);
  installed = true;
}

bool in_front(int signal) {
  struct sigaction current = {};
  sigaction(signal, nullptr, &current);
  return (current.sa_flags & SA_SIGINFO) && current.sa_sigaction == &on_fault;
}

}  // namespace

void install_fault_trap(AddressDescriber describe) {
  {
    std::lock_guard lock(describer_mutex);
    describer() = std::move(describe);
  }
  std::lock_guard lock(install_mutex);
  if (!installed) install_locked();
}

void keep_fault_trap_in_front() {
  std::lock_guard lock(install_mutex);
  if (installed && !(in_front(SIGSEGV) && in_front(SIGBUS))) install_locked();
}

void ensure_fault_stack() {
  // Unmapped when the thread ends (stream workers come and go with their streams).
  struct AltStack {
    void* memory = nullptr;
    AltStack() {
      stack_t current = {};
      if (sigaltstack(nullptr, &current) == 0 && !(current.ss_flags & SS_DISABLE)) return;
      void* mapped = mmap(nullptr, kAltStackBytes, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (mapped == MAP_FAILED) return;  // faults are still reported, stack overflows not
      stack_t stack = {};
      stack.ss_sp = mapped;
      stack.ss_size = kAltStackBytes;
      if (sigaltstack(&stack, nullptr) == 0) {
        memory = mapped;
      } else {
        munmap(mapped, kAltStackBytes);
      }
    }
    ~AltStack() {
      if (!memory) return;
      stack_t off = {};
      off.ss_flags = SS_DISABLE;
      sigaltstack(&off, nullptr);
      munmap(memory, kAltStackBytes);
    }
  };
  thread_local AltStack stack;
  static_cast<void>(stack);
}

}  // namespace tessera::cudasim
