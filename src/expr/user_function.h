#pragma once
// A scalar function the user wrote (tessera.vectorize's Python function), as a node of an
// elementwise tree: `f(a, b) * 2 + c` is then one pass over memory on the CPU and one
// kernel on a CUDA device, as every tree of built-in ufuncs is. The function comes
// compiled by the Python-function compiler (jit/render_python.h): for the CPU, a block loop
// the evaluator calls on its slots; for CUDA, device functions the kernel renderers splice
// in beside the functors.

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tessera/dtype.h"

namespace tessera::expr {

struct UserFunction {
  std::string name;        // the Python function's, for messages
  std::vector<DType> in;   // its parameters' dtypes: its node's arguments are of these
  DType out{};             // its result's
  // The CPU's block loop, null where the function has no host form: the entry of a module
  // whose function takes 1-d arrays — the inputs, then the output — and sets each output
  // element to the function of the inputs' elements (jit/render_python.h's entry: an array
  // as three words, its address, extent and byte stride). It returns 0, or the code of an
  // exception the function raised.
  using HostLoop = int (*)(const uint64_t* words, void* result);
  HostLoop host_loop = nullptr;
  // CUDA: the function and those it calls as `__device__` C++ (name, text), callees first;
  // `device_entry` names the one a kernel calls with the arguments' values. Empty where the
  // function has no device form.
  std::vector<std::pair<std::string, std::string>> device_functions;
  std::string device_entry;
  // What the device code is, for kernel cache keys: a hash of its text.
  std::string device_key;
};

using UserFunctionPtr = std::shared_ptr<const UserFunction>;

}  // namespace tessera::expr
