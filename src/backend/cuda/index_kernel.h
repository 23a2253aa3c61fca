#pragma once
// Advanced indexing, boolean masks and nonzero on a CUDA device (Backend::gather,
// gather_index, scatter, scatter_apply, compress, count_true, flat_nonzero): the kernels of
// device/index.cuh, one program for every dtype (ufunc.at's kernel is rendered per loop),
// launched on the current stream. The host waits only where a value must reach it: the
// count of a mask, and whether an index was out of bounds (docs/cuda.md lists both).

#include <optional>
#include <string>

#include "tessera/array.h"
#include "tessera/ufunc.h"

namespace tessera::cuda {

void launch_gather(int device, const Array& src, int npre, const Array& offsets,
                   const Array& out);
std::optional<int64_t> launch_gather_index(int device, const Array& src, int npre,
                                           const Array& index, int64_t extent, int64_t stride,
                                           const Array& out);
void launch_scatter(int device, const Array& dst, int npre, const Array& offsets,
                    const Array& values);
void launch_scatter_apply(int device, const Array& dst, int npre, const Array& offsets,
                          const Array& values, Ufunc op, int loop);
void launch_compress(int device, const Array& src, const Array& mask, const Array& out);
int64_t count_true(int device, const Array& mask);
void launch_flat_nonzero(int device, const Array& mask, const Array& out);

// The program of the indexing kernels, and ufunc.at's for one loop of `op` into `dtype`
// (for the NVRTC check of every generated kernel).
const std::string& render_index();
std::string render_apply_at(Ufunc op, int loop, DType dtype);

}  // namespace tessera::cuda
