#pragma once
// Elementwise expression trees: what a pending array will compute. A tree has one shape
// (every input is viewed at it, broadcast already applied); nodes carry dtypes only. The
// CPU evaluator runs a whole tree in one blocked pass; the CUDA code generator renders the
// same tree as one kernel.

#include <memory>
#include <optional>
#include <vector>

#include "expr/user_function.h"
#include "tessera/array.h"
#include "tessera/errstate.h"
#include "tessera/ufunc.h"

namespace tessera::expr {

struct Node;
using NodePtr = std::shared_ptr<const Node>;

struct Node {
  enum class Kind : uint8_t { Input, Constant, Op, Cast, Dot, User };

  Kind kind;
  DType dtype;      // the values this node yields
  Array input;      // Input: an array at the tree's shape, read and converted to `dtype`
  Scalar constant;  // Constant: a value of `dtype`
  Ufunc op{};       // Op: the ufunc, which of its loops, and which output this node is
  int loop = 0;
  int output = 0;
  std::vector<NodePtr> args;  // Op: one per ufunc input, of the loop's dtypes; Cast: one;
                              // Dot: the two Inputs whose elements start each product;
                              // User: one per parameter, of its dtypes
  UserFunctionPtr user;       // User: the function
  int size = 1;               // nodes in this tree, counting shared subtrees once per use
  int depth = 1;
  int inputs = 0;  // Input nodes in this tree (per use)
  // The floating-point error modes of the call that made this node (Op, Cast, and Input
  // read as another dtype): its errors are reported as that caller asked.
  FpModes fp_modes;
  // Where that call came from, when its result stayed pending (null otherwise).
  FpOrigin fp_origin;
  // Cast: the ufunc whose output this conversion is (out= of another dtype); NumPy's loop
  // converts, so its errors are reported under that ufunc's name rather than "cast".
  std::optional<Ufunc> output_of;
  // Dot: each element is sum over t < dot_terms of x[t] * y[t], where x and y start at the
  // element's position in the two args and step dot_steps[0] and dot_steps[1] bytes.
  int dot_terms = 0;
  int64_t dot_steps[2] = {};
};

NodePtr input(const Array& a, DType as);
NodePtr constant(const Scalar& value);  // of value's dtype
NodePtr op(Ufunc op, int loop, int output, std::vector<NodePtr> args);
// A user's scalar function of `args` (of f->in's dtypes).
NodePtr user(UserFunctionPtr f, std::vector<NodePtr> args);
// `node` read as `dtype`: a Cast node, folded into Inputs and Constants.
NodePtr cast(const NodePtr& node, DType dtype, std::optional<Ufunc> output_of = {});
// The most terms of a Dot node: beyond, a product is BLAS's work (the CPU loops are
// unrolled for each count up to this).
inline constexpr int kMaxDotTerms = 8;
// A matrix product with few terms as an elementwise node (the output's elements are
// independent short sums): `rows` and `cols` are views at the tree's shape, of one float
// dtype, positioned at each output element's first term; `steps` in bytes to the next.
NodePtr dot(const Array& rows, const Array& cols, int terms, const int64_t (&steps)[2]);

// Trees are evaluated when they would grow past these, so memory stays bounded and the
// evaluator's per-block scratch stays in cache.
inline constexpr int kMaxNodes = 48;
inline constexpr int kMaxDepth = 24;
inline constexpr int kMaxInputs = 12;

// Every distinct Input node of a tree (shared subtrees visited once).
std::vector<const Node*> collect_inputs(const Node& root);

}  // namespace tessera::expr
