#pragma once
// The CPU's floating-point exception flags, read as tessera's FpError bits. The loops
// raise them as IEEE 754 says (the integer loops raise them by hand where NumPy's do);
// the evaluator reads them after each step and records which op raised what.

#include <atomic>
#include <cfenv>

#include "core/fp_events.h"

namespace tessera::cpu {

inline unsigned raised_fp_errors() {
  const int flags = std::fetestexcept(FE_DIVBYZERO | FE_OVERFLOW | FE_UNDERFLOW | FE_INVALID);
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
inline void collect_fp_errors(std::atomic<unsigned>& sink) {
  if (const unsigned raised = raised_fp_errors()) {
    sink.fetch_or(raised, std::memory_order_relaxed);
    clear_fp_errors();
  }
}

}  // namespace tessera::cpu
