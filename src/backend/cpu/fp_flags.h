#pragma once
// The CPU's floating-point exception flags, read as tessera's FpError bits. The loops
// raise them as IEEE 754 says (the integer loops raise them by hand where NumPy's do);
// the evaluator reads them after each step and records which op raised what.

#include <atomic>
#include <cfenv>

#include "core/fp_events.h"

namespace tessera::cpu {

// The flags the loops raise, read inline: the evaluator reads them after every block (and
// after every step of a block that raised some), and on x86-64 fetestexcept (a call into
// libm that also stores the x87 status word, a slow instruction) cost as much as a step's
// loop over a short row.
// x86-64's status words hold the exceptions at the bit positions of <cfenv>'s FE_
// constants. SSE's MXCSR has what every SSE/AVX computation raises (tessera has no long
// double; glibc's double functions use SSE2); the x87 word is read only where `x87` says
// so: float16 conversions are libgcc's soft-float, which raises overflow and underflow
// there.
inline int raised_fe_flags(bool x87) {
#if defined(__x86_64__)
  unsigned mxcsr;
  __asm__ volatile("stmxcsr %0" : "=m"(mxcsr));
  unsigned short x87_status = 0;
  if (x87) __asm__ volatile("fnstsw %0" : "=m"(x87_status));
  return static_cast<int>((mxcsr | x87_status) & FE_ALL_EXCEPT);
#else
  (void)x87;
  return std::fetestexcept(FE_ALL_EXCEPT);
#endif
}

inline unsigned raised_fp_errors(bool x87 = true) {
  const int flags =
      raised_fe_flags(x87) & (FE_DIVBYZERO | FE_OVERFLOW | FE_UNDERFLOW | FE_INVALID);
  if (!flags) return 0;
  return ((flags & FE_DIVBYZERO) ? fp_bit(FpError::Divide) : 0) |
         ((flags & FE_OVERFLOW) ? fp_bit(FpError::Overflow) : 0) |
         ((flags & FE_UNDERFLOW) ? fp_bit(FpError::Underflow) : 0) |
         ((flags & FE_INVALID) ? fp_bit(FpError::Invalid) : 0);
}

inline void clear_fp_errors() { std::feclearexcept(FE_ALL_EXCEPT); }

// A unit of work whose errors are gathered across threads (a conversion's rows, a
// reduction's or scan's folds) starts with clean flags, dropping what earlier code left,
// and at its end adds what it raised to `sink`.
inline void clear_stale_fp_errors() {
  if (raised_fp_errors()) clear_fp_errors();
}
inline void collect_fp_errors(std::atomic<unsigned>& sink, bool x87 = true) {
  if (const unsigned raised = raised_fp_errors(x87)) {
    sink.fetch_or(raised, std::memory_order_relaxed);
    clear_fp_errors();
  }
}

}  // namespace tessera::cpu
