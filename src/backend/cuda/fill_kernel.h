#pragma once
// arange, linspace and random variates on a CUDA device (Backend::arange, linspace,
// random): one kernel per fill and dtype (device/fill.cuh), launched on the current stream.
// Each element is computed by the functions the CPU's loops call, so the values agree: bit
// for bit for ranges, uniforms and integers; to a few ULP for the samplers that call log,
// sin or cos (CUDA's math library against the CPU's, docs/cuda.md).

#include <string>

#include "backend/backend.h"
#include "backend/random_call.h"

namespace tessera::cuda {

// The program of one fill: kernel "ts_fill" running `body`, a function of device/fill.cuh
// ("arange_fill<float>", "gamma_fill"); fill_body names a typed one.
std::string render_fill(const std::string& body);
std::string fill_body(const char* fill, DType dtype);

void launch_arange(int device, const Array& dst, const Scalar& first, const Scalar& second);
void launch_linspace(int device, const Array& dst, const LinspaceSpec& spec);
void launch_random(int device, const RandomCall& call);

}  // namespace tessera::cuda
