#pragma once
// The engine side of floating-point error reporting (tessera/errstate.h): backends record
// what their loops raised, and the core hands the events to the handler at points where
// no lock is held and an exception can pass.

#include <string_view>

#include "tessera/errstate.h"
#include "tessera/ufunc.h"

namespace tessera {

// Bits of FpError, as a mask.
inline constexpr unsigned fp_bit(FpError e) { return 1u << static_cast<int>(e); }

// The errors NumPy reports for `op` on a loop whose first input is of `dtype`: none for
// the comparisons, maximum/minimum/fmax/fmin, sign, heaviside and isnan/isinf/isfinite on
// real floats (NumPy's loops of these never warn, NaN operands included, while ours raise
// the invalid flag on NaN where GCC vectorizes them with SSE2's ordered compares); every
// kind otherwise.
unsigned reported_fp_errors(Ufunc op, DType dtype);

// Records that `op`, called under `modes` (from `origin`, when it was pending), raised
// the errors in `mask` (this thread).
void record_fp_errors(std::string_view op, unsigned mask, const FpModes& modes,
                      const FpOrigin& origin = {});

// While one is alive, the expression nodes this thread makes carry the origin of the
// current call: it is made for an op whose result will stay pending.
class PendingOriginScope {
 public:
  PendingOriginScope();
  ~PendingOriginScope();
  PendingOriginScope(const PendingOriginScope&) = delete;
  PendingOriginScope& operator=(const PendingOriginScope&) = delete;
};
// The origin of the pending call in progress on this thread (null outside a scope).
const FpOrigin& pending_fp_origin();
// Hands this thread's recorded events to the handler and forgets them.
void report_fp_events();

}  // namespace tessera
