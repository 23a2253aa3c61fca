#pragma once
// The CPU backend's kernels, one file per family.

#include "backend/backend.h"

namespace tessera::cpu {

void strided_copy(const Array& src, const Array& dst);
void arange_fill(const Array& dst, const Scalar& first, const Scalar& second);
void linspace_fill(const Array& dst, const LinspaceSpec& spec);

}  // namespace tessera::cpu
