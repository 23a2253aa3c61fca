#pragma once
// NumPy's floating-point error handling (numpy.seterr / errstate): what happens when an op
// divides by zero, overflows, underflows or makes an invalid value (NaN from non-NaN
// inputs). The modes are per thread. Each op keeps the modes in force when it was called,
// so a pending (lazy) result reports its errors as its caller asked, whenever it is
// computed; modes other than Ignore and Warn make ops compute at once, so an error is
// raised (or called back) where the op is called, as in NumPy.

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

namespace tessera {

enum class FpMode : uint8_t { Ignore, Warn, Raise, Call, Print, Log };
// NumPy's order of the four kinds (seterr's keywords divide, over, under, invalid).
enum class FpError : uint8_t { Divide, Overflow, Underflow, Invalid };
inline constexpr int kNumFpErrors = 4;

struct FpModes {
  FpMode mode[kNumFpErrors] = {FpMode::Warn, FpMode::Warn, FpMode::Ignore, FpMode::Warn};

  FpMode operator[](FpError e) const { return mode[static_cast<int>(e)]; }
  FpMode& operator[](FpError e) { return mode[static_cast<int>(e)]; }
  // Raise, Call, Print and Log act when the op is called: it cannot stay pending.
  bool acts_at_once() const;
};

// This thread's modes (NumPy's defaults until set).
FpModes fp_modes();
void set_fp_modes(const FpModes& modes);

// "divide by zero", "overflow", "underflow", "invalid value": NumPy's words.
std::string_view fp_error_words(FpError error);

// Where an op was called, as the front end describes it (Python: the user's file, line and
// module); opaque to the engine. A result that stays pending keeps the origin of its call,
// so an error found when it is computed later is attributed to the line that asked for it.
using FpOrigin = std::shared_ptr<const void>;
using FpOriginProvider = FpOrigin (*)();
// Installed by the front end; asked only for ops whose results stay pending.
void set_fp_origin_provider(FpOriginProvider provider);

// One error an op raised: its name ("divide", or "cast" for a conversion), the kind, the
// mode of its caller (never Ignore), every kind the op raised in the same computation
// (bits 1 << FpError: NumPy's status word, which its 'call' mode passes), and the origin
// of a pending op's call (null: the op ran where it was called).
struct FpEvent {
  std::string_view op;
  FpError error;
  FpMode mode;
  unsigned status;
  FpOrigin origin;
};
// Receives the events of one computation, on the thread that asked for it, with no lock
// of the engine held. The default throws FloatingPointError for the first Raise event and
// drops the rest; the Python module installs one that warns, raises and calls back.
using FpHandler = void (*)(std::span<const FpEvent> events);
void set_fp_handler(FpHandler handler);
// The default handler's behavior (the Python handler falls back to it).
void raise_fp_events(std::span<const FpEvent> events);

}  // namespace tessera
