#pragma once
// sort, argsort and searchsorted on a CUDA device (Backend::sort, argsort, searchsorted):
// the stable merge sort of device/sort.cuh over rows made contiguous, in NumPy's order,
// one program per dtype, launched on the current stream.

#include <string>

#include "tessera/array.h"

namespace tessera::cuda {

void launch_sort(int device, const Array& a);
void launch_argsort(int device, const Array& a, const Array& index);
void launch_searchsorted(int device, const Array& sorted, const Array& values, bool right,
                         const Array& out);

// The program of the sort kernels for `dtype` (for the NVRTC check).
std::string render_sort(DType dtype);

}  // namespace tessera::cuda
