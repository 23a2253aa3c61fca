#pragma once
// The standard headers that tessera's generated kernels include (jit/kernel_text.h). Every
// module's prelude is compiled once into a precompiled header (jit/host_compiler.h); with
// these inside it, a generated kernel's own includes find them already read, and its
// compile parses only the functors and the kernel. <complex> is not among them: the
// simulator's complex type is lite::complex (kernels/complex_type.h).

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>
