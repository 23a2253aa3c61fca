#pragma once
// An elementwise tree lowered to what every kernel renderer needs: the arrays a kernel walks
// (outputs first), and the tree's values in evaluation order, each computed once however
// often the tree uses it. Renderers (the CUDA one today, a host one beside it later) turn
// a plan into C++ source that calls the functors of src/kernels/; nothing here knows how a
// kernel is launched or laid out.

#include <array>
#include <span>
#include <string>
#include <vector>

#include "expr/expr.h"

namespace tessera::expr {

struct KernelPlan {
  struct Value {
    enum class Kind : uint8_t { Load, Constant, Call, Pick, Cast, Dot, User };
    Kind kind;
    DType dtype;          // of the value (Call: of its first output)
    int operand = -1;     // Load: the array read; Dot: the first of its two arrays
    int constant = -1;    // Constant: its index in `constants`
    Ufunc op{};           // Call: the ufunc and its loop
    int loop = 0;
    int args[8] = {-1, -1, -1, -1, -1, -1, -1, -1};  // Call, User: one value per input;
                                                      // Cast, Pick: one
    int nargs = 0;
    int output = 0;       // Pick: which output of the Call in args[0]
    int dot_terms = 0;    // Dot: terms, and the index of its steps in `dot_steps`
    int dot = -1;
    int user = -1;        // User: the function's index in `users`
  };

  std::vector<Array> operands;          // outputs, then each distinct input array
  int outputs = 0;
  std::vector<Value> values;            // in evaluation order: arguments come first
  std::vector<Scalar> constants;        // kernel parameters, not part of the source
  std::vector<std::array<int64_t, 2>> dot_steps;  // bytes, kernel parameters too
  std::vector<int> roots;               // the value stored into each output
  std::vector<const UserFunction*> users;  // each distinct user's function the values call
};

// Lowers `root`, whose values go to `outs` (one, or two for an op with two outputs).
KernelPlan lower(const Node& root, std::span<const Array> outs);

// Whether operand k is read only by loads that convert it to another dtype: renderers then
// read it through a run-time switch over its dtype, which is a kernel parameter.
bool read_only_converted(const KernelPlan& plan, int k);

// What a rendered kernel's source depends on besides its layout: the values' kinds, ops,
// loops and dtypes, and the operands' dtypes (but those read_only_converted). Constant
// values, shapes and strides are left out: they are parameters, so one compiled kernel
// serves them all.
std::string plan_signature(const KernelPlan& plan);

}  // namespace tessera::expr
