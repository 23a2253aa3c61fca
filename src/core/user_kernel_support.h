#pragma once
// What ElementwiseKernel and ReductionKernel share (tessera/user_kernel.h): CuPy's rules for
// binding type placeholders, the merging of dimensions, the packing of arguments as the
// kernel's CArray/CIndexer, and compiling and launching a rendered kernel on a device.

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "jit/render_user_kernel.h"
#include "tessera/user_kernel.h"

namespace tessera::user_kernel {

// "<kind> <name>", the name errors give, after checking that `name` is a C++ identifier
// (ValueError "Invalid kernel name").
std::string checked_api(const char* kind, const std::string& name);
// ValueError for a parameter named as one of `reserved` ("i") or named twice.
void check_parameter_names(const std::vector<KernelParam>& in,
                           const std::vector<KernelParam>& out, const std::string& api,
                           const std::vector<std::string>& reserved);

// CuPy's binding of types: a fixed type must be the array's dtype exactly, a placeholder
// takes the first array's dtype and every later one must match it (TypeError "Type is
// mismatched"); outputs are looked at first. A placeholder that only numbers meet takes the
// type NumPy gives the first such number. Returns the placeholders' types.
std::map<std::string, DType> bind_types(const std::vector<KernelParam>& in,
                                        const std::vector<KernelParam>& out,
                                        const std::vector<const KernelArg*>& in_args,
                                        const std::vector<const Array*>& out_args,
                                        const std::string& api);

// The parameter's type once placeholders are bound.
DType type_of(const KernelParam& p, const std::map<std::string, DType>& types);

// A number as the parameter `p` of type `to` takes it: converted as NumPy assigns it, an
// integer that `to` cannot hold being an OverflowError (NumPy 2's rule for Python ints).
Scalar number_as(const Scalar& value, DType to, const KernelParam& p, const std::string& api);

// The typedefs a kernel begins with.
std::vector<jit::UserKernelTypedef> typedefs(const std::map<std::string, DType>& types);

// Views of `arrays` (all of `shape`) with as few dimensions as their strides allow: axes of
// length 1 dropped, neighbours merged where every array steps over them as over one axis
// (CuPy's reduce_dims). Returns the merged shape; flat C-order indices keep their meaning.
Dims merge_dims(std::vector<Array*> arrays, const Dims& shape);

// A kernel argument's bytes: an array as CArray {data, size, shape, strides}, an indexer as
// CIndexer {size, shape, index}, a number as its value.
std::vector<uint64_t> array_words(const Array& a);
std::vector<uint64_t> indexer_words(const Dims& shape);
std::vector<uint64_t> scalar_words(const Scalar& value);

// A parameter's description for the renderer.
jit::UserKernelParam describe(const KernelParam& p, DType dtype, const Array* array);

// The device of the arrays among `args` (ValueError naming `api` when they are on several),
// or the current device when there is none.
Device device_of(const std::vector<const Array*>& arrays, const std::string& api);

struct LaunchShape {
  unsigned grid = 1, block = 1;
};

// The kernels one ElementwiseKernel or ReductionKernel made, by call signature
// (signature_of): each is rendered and compiled the first time its signature comes, so a
// repeated call neither renders nor hashes any source.
class KernelVariants {
 public:
  KernelVariants();
  ~KernelVariants();
  // Launches kernel `name` of the source `render` makes for `signature` over `shape`: on a
  // CUDA device on `stream` (the current one by default), on the CPU device waiting for it.
  // params[k] holds argument k's bytes.
  void launch(const std::string& signature, const std::function<std::string()>& render,
              const std::string& name, const std::vector<std::string>& options, Device device,
              LaunchShape shape, const std::optional<Stream>& stream,
              std::vector<std::vector<uint64_t>>& params, const std::string& api);

  // sizeof of what the kernel `sizeof_kernel` (`void k(unsigned long long* size)`) of the
  // signature's source measures, on the device; asked once per signature.
  size_t value_size(const std::string& signature, const std::function<std::string()>& render,
                    const std::string& sizeof_kernel, const std::vector<std::string>& options,
                    Device device, const std::string& api);

 private:
  struct Compiled;
  Compiled& compiled(const std::string& signature, const std::function<std::string()>& render,
                     const std::vector<std::string>& options, Device device);
  std::mutex mutex_;
  std::map<std::string, std::unique_ptr<Compiled>> variants_;
  std::map<std::string, size_t> value_sizes_;
};

// What a kernel's source depends on besides the kernel's own text: each argument's kind,
// dtype, dimensions and contiguity, and `extra` (the loop's dimensions ...).
std::string signature_of(const std::vector<KernelArg>& args, const std::vector<int>& extra);

// How many blocks the device runs at once, as launches here count them: four per core on
// the CPU, 32 per multiprocessor on a GPU.
int64_t parallel_slots(Device device);

// The blocks a launch over `work` independent items of `block` threads each needs on
// `device`: enough to fill it, never more than the items.
unsigned grid_for(int64_t work, unsigned block, Device device);

}  // namespace tessera::user_kernel
