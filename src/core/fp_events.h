#pragma once
// The engine side of floating-point error reporting (tessera/errstate.h): backends record
// what their loops raised, and the core hands the events to the handler at points where
// no lock is held and an exception can pass.

#include <string_view>

#include "tessera/errstate.h"

namespace tessera {

// Bits of FpError, as a mask.
inline constexpr unsigned fp_bit(FpError e) { return 1u << static_cast<int>(e); }

// Records that `op`, called under `modes`, raised the errors in `mask` (this thread).
void record_fp_errors(std::string_view op, unsigned mask, const FpModes& modes);
// Hands this thread's recorded events to the handler and forgets them.
void report_fp_events();

}  // namespace tessera
