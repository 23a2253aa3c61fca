#pragma once
// The machine's fused multiply-add peak: what GEMM speed is measured against.

namespace tessera::cpu {

// Best floating-point operations per second (an FMA counts two) of independent FMA chains
// in the widest SIMD the CPU has, on every pool thread, for float (`single`) or double.
double fma_peak_flops(bool single, int reps);

}  // namespace tessera::cpu
