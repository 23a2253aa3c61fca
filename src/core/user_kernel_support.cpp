#include "core/user_kernel_support.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <memory>
#include <mutex>
#include <sstream>

#include "backend/cpu/parallel.h"
#include "backend/cuda/expr_kernel.h"
#include "backend/cuda/nvrtc.h"
#include "backend/cudasim/cpu_module.h"
#include "tessera/cuda.h"
#include "tessera/errors.h"

namespace tessera {
namespace {

bool is_identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

std::optional<DType> dtype_named(const std::string& name) {
  for (int t = 0; t < kNumDTypes; ++t) {
    if (dtype_name(static_cast<DType>(t)) == name) return static_cast<DType>(t);
  }
  return std::nullopt;
}

}  // namespace

std::vector<KernelParam> parse_kernel_params(const std::string& text, bool is_const,
                                             const std::string& api) {
  std::vector<KernelParam> params;
  if (std::all_of(text.begin(), text.end(), [](char c) { return std::isspace(static_cast<unsigned char>(c)); })) {
    return params;
  }
  std::stringstream all(text);
  std::string item;
  while (std::getline(all, item, ',')) {
    std::stringstream words(item);
    std::vector<std::string> w;
    for (std::string word; words >> word;) w.push_back(word);
    if (w.size() < 2) {
      throw ValueError("[" + api + "] syntax error in the parameter '" + item + "' of '" + text +
                       "': a parameter is '[raw] type name'");
    }
    KernelParam p;
    p.is_const = is_const;
    p.name = w.back();
    const std::string& type = w[w.size() - 2];
    if (!is_identifier(p.name)) {
      throw ValueError("[" + api + "] the parameter name '" + p.name + "' in '" + text +
                       "' is not a C++ identifier");
    }
    if (type.size() == 1 && std::isalpha(static_cast<unsigned char>(type[0]))) {
      p.placeholder = type;
    } else if (auto dtype = dtype_named(type)) {
      p.dtype = dtype;
    } else {
      throw TypeError("[" + api + "] unknown type '" + type + "' of the parameter '" + p.name +
                      "': a NumPy dtype name (float32, int64, ...) or a one-letter placeholder");
    }
    for (size_t k = 0; k + 2 < w.size(); ++k) {
      if (w[k] == "raw") {
        p.raw = true;
      } else if (w[k] == "_non_const") {
        p.is_const = false;
      } else {
        throw ValueError("[" + api + "] unknown keyword '" + w[k] + "' in the parameter '" +
                         item + "'; only 'raw' may precede the type");
      }
    }
    params.push_back(std::move(p));
  }
  return params;
}

namespace user_kernel {
namespace {

// Binds p's type to `actual`, or checks it against what is bound already.
void bind(const KernelParam& p, DType actual, std::map<std::string, DType>& types,
          const std::string& api) {
  if (p.dtype) {
    if (*p.dtype != actual) {
      throw TypeError("[" + api + "] Type is mismatched: the parameter '" + p.name + "' is " +
                      std::string(dtype_name(*p.dtype)) + " but its array is " +
                      std::string(dtype_name(actual)));
    }
    return;
  }
  auto [it, added] = types.emplace(p.placeholder, actual);
  if (!added && it->second != actual) {
    throw TypeError("[" + api + "] Type is mismatched: the parameter '" + p.name + "' is " +
                    std::string(dtype_name(actual)) + " but " + p.placeholder + " is " +
                    std::string(dtype_name(it->second)) + " already");
  }
}

}  // namespace

std::string checked_api(const char* kind, const std::string& name) {
  if (!is_identifier(name)) {
    throw ValueError(std::string("[") + kind + "] Invalid kernel name: \"" + name + "\"");
  }
  return std::string(kind) + " " + name;
}

void check_parameter_names(const std::vector<KernelParam>& in,
                           const std::vector<KernelParam>& out, const std::string& api,
                           const std::vector<std::string>& reserved) {
  std::vector<std::string> seen;
  for (const auto* params : {&in, &out}) {
    for (const KernelParam& p : *params) {
      if (std::find(reserved.begin(), reserved.end(), p.name) != reserved.end()) {
        throw ValueError("[" + api + "] Can not use '" + p.name + "' as a parameter name");
      }
      if (std::find(seen.begin(), seen.end(), p.name) != seen.end()) {
        throw ValueError("[" + api + "] the parameter name '" + p.name + "' is used twice");
      }
      seen.push_back(p.name);
    }
  }
}

std::map<std::string, DType> bind_types(const std::vector<KernelParam>& in,
                                        const std::vector<KernelParam>& out,
                                        const std::vector<const KernelArg*>& in_args,
                                        const std::vector<const Array*>& out_args,
                                        const std::string& api) {
  std::map<std::string, DType> types;
  for (size_t k = 0; k < out_args.size(); ++k) bind(out[k], out_args[k]->dtype(), types, api);
  for (size_t k = 0; k < in_args.size(); ++k) {
    if (auto* a = std::get_if<Array>(in_args[k])) bind(in[k], a->dtype(), types, api);
  }
  // A placeholder only numbers meet takes the first one's type.
  for (size_t k = 0; k < in_args.size(); ++k) {
    if (auto* s = std::get_if<Scalar>(in_args[k]); s && !in[k].dtype) {
      types.emplace(in[k].placeholder, s->dtype());
    }
  }
  for (const KernelParam& p : out) {
    if (!p.dtype && !types.count(p.placeholder)) {
      throw TypeError("[" + api + "] the type " + p.placeholder + " of the output '" + p.name +
                      "' is not decided by any input; pass the output array");
    }
  }
  return types;
}

DType type_of(const KernelParam& p, const std::map<std::string, DType>& types) {
  return p.dtype ? *p.dtype : types.at(p.placeholder);
}

Scalar number_as(const Scalar& value, DType to, const KernelParam& p, const std::string& api) {
  const Scalar converted = value.cast(to);
  const bool from_integer = value.dtype() == DType::Int64 || value.dtype() == DType::UInt64;
  if (from_integer && is_integer(to) && converted.cast(value.dtype()).to_int64() != value.to_int64()) {
    const std::string text = value.dtype() == DType::UInt64
                                 ? std::to_string(value.get<uint64_t>())
                                 : std::to_string(value.get<int64_t>());
    throw OverflowError("[" + api + "] Python integer " + text + " out of bounds for " +
                        std::string(dtype_name(to)) + " (the parameter '" + p.name + "')");
  }
  return converted;
}

std::vector<jit::UserKernelTypedef> typedefs(const std::map<std::string, DType>& types) {
  std::vector<jit::UserKernelTypedef> t;
  for (const auto& [placeholder, dtype] : types) t.push_back({placeholder, dtype});
  return t;
}

Dims merge_dims(std::vector<Array*> arrays, const Dims& shape) {
  Dims merged;
  std::vector<Dims> strides(arrays.size());
  for (int ax = 0; ax < shape.size(); ++ax) {
    if (shape[ax] == 1) continue;
    bool joins = !merged.empty();
    for (size_t k = 0; joins && k < arrays.size(); ++k) {
      joins = strides[k][strides[k].size() - 1] == arrays[k]->strides()[ax] * shape[ax];
    }
    if (joins) {
      merged[merged.size() - 1] *= shape[ax];
      for (size_t k = 0; k < arrays.size(); ++k) {
        strides[k][strides[k].size() - 1] = arrays[k]->strides()[ax];
      }
    } else {
      merged.push_back(shape[ax]);
      for (size_t k = 0; k < arrays.size(); ++k) strides[k].push_back(arrays[k]->strides()[ax]);
    }
  }
  if (shape.product() == 0) return shape;  // nothing runs; keep the shape as it is
  for (size_t k = 0; k < arrays.size(); ++k) {
    *arrays[k] = arrays[k]->as_strided(merged, strides[k], arrays[k]->offset());
  }
  return merged;
}

std::vector<uint64_t> array_words(const Array& a) {
  const int dims = std::max(a.ndim(), 1);
  std::vector<uint64_t> w(2 + 2 * dims, 0);
  w[0] = reinterpret_cast<uintptr_t>(a.data());
  w[1] = static_cast<uint64_t>(a.size());
  for (int d = 0; d < a.ndim(); ++d) {
    w[2 + d] = static_cast<uint64_t>(a.shape()[d]);
    w[2 + dims + d] = static_cast<uint64_t>(a.strides()[d]);
  }
  return w;
}

std::vector<uint64_t> indexer_words(const Dims& shape) {
  const int dims = std::max(shape.size(), 1);
  std::vector<uint64_t> w(1 + 2 * dims, 0);
  w[0] = static_cast<uint64_t>(shape.product());
  for (int d = 0; d < shape.size(); ++d) w[1 + d] = static_cast<uint64_t>(shape[d]);
  return w;
}

std::vector<uint64_t> scalar_words(const Scalar& value) {
  std::vector<uint64_t> w(2, 0);
  std::memcpy(w.data(), value.data(), static_cast<size_t>(itemsize(value.dtype())));
  return w;
}

jit::UserKernelParam describe(const KernelParam& p, DType dtype, const Array* array) {
  jit::UserKernelParam d;
  d.name = p.name;
  d.type = p.dtype ? jit::user_c_type(*p.dtype) : p.placeholder;
  d.dtype = dtype;
  d.raw = p.raw;
  d.is_const = p.is_const;
  if (array) {
    d.kind = jit::UserKernelParam::Kind::Array;
    d.ndim = array->ndim();
    d.c_contiguous = array->is_c_contiguous();
  } else {
    d.kind = jit::UserKernelParam::Kind::Scalar;
  }
  return d;
}

Device device_of(const std::vector<const Array*>& arrays, const std::string& api) {
  if (arrays.empty()) return current_device();
  const Device d = arrays.front()->device();
  for (const Array* a : arrays) {
    if (a->device() != d) {
      throw ValueError("[" + api + "] the arrays are on " + d.str() + " and " +
                       a->device().str() + "; a kernel runs on one device");
    }
  }
  return d;
}

int64_t parallel_slots(Device device) {
  return device.is_cpu() ? int64_t{4} * std::max(cpu::num_threads(), 1)
                         : int64_t{32} * cuda::multiprocessors(device.index);
}

unsigned grid_for(int64_t work, unsigned block, Device device) {
  if (work <= 0) return 1;
  return static_cast<unsigned>(
      std::clamp<int64_t>((work + block - 1) / block, 1, parallel_slots(device)));
}

struct KernelVariants::Compiled {
  std::unique_ptr<cudasim::CpuModule> cpu;
  std::unique_ptr<cuda::Module> cuda;
};

KernelVariants::KernelVariants() = default;
KernelVariants::~KernelVariants() = default;

KernelVariants::Compiled& KernelVariants::compiled(const std::string& signature,
                                                   const std::function<std::string()>& render,
                                                   const std::vector<std::string>& options,
                                                   Device device) {
  std::lock_guard lock(mutex_);
  auto& slot = variants_[signature];
  if (!slot) slot = std::make_unique<Compiled>();
  Compiled& c = *slot;
  if (device.is_cpu() && !c.cpu) {
    c.cpu = std::make_unique<cudasim::CpuModule>(render(), options, std::vector<std::string>{});
  } else if (!device.is_cpu() && !c.cuda) {
    std::vector<std::string> all = cuda::generated_kernel_options();
    all.insert(all.end(), options.begin(), options.end());
    c.cuda = std::make_unique<cuda::Module>(c.cpu ? c.cpu->source() : render(), all,
                                            std::vector<std::string>{});
  }
  return c;
}

void KernelVariants::launch(const std::string& signature,
                            const std::function<std::string()>& render, const std::string& name,
                            const std::vector<std::string>& options, Device device,
                            LaunchShape shape, const std::optional<Stream>& stream,
                            std::vector<std::vector<uint64_t>>& params, const std::string& api) {
  std::vector<void*> pointers;
  for (auto& p : params) pointers.push_back(p.data());
  Compiled& c = compiled(signature, render, options, device);
  if (device.is_cpu()) {
    const TsimKernel& kernel = c.cpu->kernel(name, api.c_str());
    cudasim::launch_on_cpu(kernel, {shape.grid, 1, 1}, {shape.block, 1, 1}, 0, pointers.data(),
                           api.c_str());
    return;
  }
  uintptr_t function = 0;
  try {
    function = c.cuda->function(name, device.index, api.c_str());
  } catch (const cuda::CompileError& e) {
    throw cuda::CompileError("[" + api + "] the kernel's source does not compile:\n" + e.what(),
                             e.log(), e.source());
  }
  cuda::launch(function, {shape.grid, 1, 1}, {shape.block, 1, 1}, 0,
               stream ? *stream : current_stream(device), pointers, api.c_str());
}

size_t KernelVariants::value_size(const std::string& signature,
                                  const std::function<std::string()>& render,
                                  const std::string& sizeof_kernel,
                                  const std::vector<std::string>& options, Device device,
                                  const std::string& api) {
  {
    std::lock_guard lock(mutex_);
    if (auto it = value_sizes_.find(signature); it != value_sizes_.end()) return it->second;
  }
  const Array out = Array::empty(Dims{1}, DType::UInt64, device);
  std::vector<std::vector<uint64_t>> params = {{reinterpret_cast<uintptr_t>(out.data())}};
  // On the current stream, which the copy below waits for.
  launch(signature, render, sizeof_kernel, options, device, {1, 1}, std::nullopt, params, api);
  uint64_t size = 0;
  out.copy_to_host(&size);
  std::lock_guard lock(mutex_);
  value_sizes_[signature] = size;
  return size;
}

std::string signature_of(const std::vector<KernelArg>& args, const std::vector<int>& extra) {
  // Three bytes an argument: kind and dtype, dimensions, contiguity; then the extras.
  std::string s;
  s.reserve(3 * args.size() + 4 * extra.size());
  for (const KernelArg& arg : args) {
    if (const Array* a = std::get_if<Array>(&arg)) {
      s += static_cast<char>('A' + static_cast<int>(a->dtype()));
      s += static_cast<char>(a->ndim());
      s += a->is_c_contiguous() ? 'c' : 's';
    } else {
      s += static_cast<char>('a' + static_cast<int>(std::get<Scalar>(arg).dtype()));
      s += "--";
    }
  }
  for (int e : extra) s.append(reinterpret_cast<const char*>(&e), sizeof e);
  return s;
}

}  // namespace user_kernel
}  // namespace tessera
