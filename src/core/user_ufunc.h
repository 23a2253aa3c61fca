#pragma once
// A user's scalar function (tessera.vectorize's) applied to arrays as a pending tree node,
// so it fuses with the built-in ufuncs around it (expr/user_function.h).

#include <span>

#include "expr/user_function.h"
#include "tessera/array.h"
#include "tessera/ufunc.h"

namespace tessera {

// `f` of the broadcast `inputs` (arrays on one device, and numbers), each converted to its
// parameter's dtype as a ufunc's loop converts: a new pending array of f->out.
Array apply_user_function(const expr::UserFunctionPtr& f, std::span<const Operand> inputs);

}  // namespace tessera
