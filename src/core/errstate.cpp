#include <algorithm>
#include <iterator>
#include <vector>

#include "core/fp_events.h"
#include "tessera/errors.h"

namespace tessera {
namespace {

thread_local FpModes current_modes;
thread_local std::vector<FpEvent> recorded;
thread_local FpOrigin pending_origin;
FpHandler handler = &raise_fp_events;
FpOriginProvider origin_provider = nullptr;

}  // namespace

bool FpModes::acts_at_once() const {
  for (FpMode m : mode) {
    if (m != FpMode::Ignore && m != FpMode::Warn) return true;
  }
  return false;
}

FpModes fp_modes() { return current_modes; }
void set_fp_modes(const FpModes& modes) { current_modes = modes; }

std::string_view fp_error_words(FpError error) {
  switch (error) {
    case FpError::Divide: return "divide by zero";
    case FpError::Overflow: return "overflow";
    case FpError::Underflow: return "underflow";
    case FpError::Invalid: return "invalid value";
  }
  return "";
}

void set_fp_handler(FpHandler h) { handler = h ? h : &raise_fp_events; }
void set_fp_origin_provider(FpOriginProvider provider) { origin_provider = provider; }

// Asked only when some mode may report later (Warn): Ignore reports nothing, and the other
// modes make the op compute at once.
PendingOriginScope::PendingOriginScope() {
  const FpModes modes = fp_modes();
  const bool may_warn = std::any_of(std::begin(modes.mode), std::end(modes.mode),
                                    [](FpMode m) { return m == FpMode::Warn; });
  if (origin_provider && may_warn) pending_origin = origin_provider();
}
PendingOriginScope::~PendingOriginScope() { pending_origin.reset(); }
const FpOrigin& pending_fp_origin() { return pending_origin; }

void raise_fp_events(std::span<const FpEvent> events) {
  for (const FpEvent& e : events) {
    if (e.mode == FpMode::Raise) {
      throw FloatingPointError(std::string(fp_error_words(e.error)) + " encountered in " +
                               std::string(e.op));
    }
  }
}

unsigned reported_fp_errors(Ufunc op, DType dtype) {
  constexpr unsigned kAll = (1u << kNumFpErrors) - 1;
  if (!is_floating(dtype)) return kAll;
  switch (op) {
    case Ufunc::Maximum:
    case Ufunc::Minimum:
    case Ufunc::Fmax:
    case Ufunc::Fmin:
    case Ufunc::Sign:
    case Ufunc::Heaviside:
    case Ufunc::Less:
    case Ufunc::LessEqual:
    case Ufunc::Greater:
    case Ufunc::GreaterEqual:
    case Ufunc::Isinf:
    case Ufunc::Isfinite:
    case Ufunc::Isnan:
      return 0;
    default:
      return kAll;
  }
}

void record_fp_errors(std::string_view op, unsigned mask, const FpModes& modes,
                      const FpOrigin& origin) {
  for (int k = 0; k < kNumFpErrors; ++k) {
    const auto error = static_cast<FpError>(k);
    if (!(mask & fp_bit(error)) || modes[error] == FpMode::Ignore) continue;
    recorded.push_back({op, error, modes[error], mask, origin});
  }
}

void report_fp_events() {
  if (recorded.empty()) return;
  std::vector<FpEvent> events;
  events.swap(recorded);  // the handler may compute, and record, again
  handler(events);
}

}  // namespace tessera
