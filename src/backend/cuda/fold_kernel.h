#pragma once
// Reductions, argmax/argmin and scans on a CUDA device (Backend::reduce, arg_reduce, scan):
// the tree lowered (expr/kernel_plan.h), rendered as a fold (render_fold.h), compiled once
// per signature and launched on the current stream. The host does not wait; a reduction
// split across blocks takes its partials' buffer from the stream-ordered pool.

#include "expr/expr.h"
#include "tessera/array.h"

namespace tessera::cuda {

void launch_reduce(int device, const expr::Node& root, Ufunc op, int loop, bool ordered,
                   const Array& acc);
void launch_arg_reduce(int device, const expr::Node& root, bool max, const Array& index);
void launch_scan(int device, const expr::Node& root, Ufunc op, int loop, int axis,
                 const Array& out);

}  // namespace tessera::cuda
