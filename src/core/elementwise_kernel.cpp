// CuPy's ElementwiseKernel (tessera/user_kernel.h): the arguments broadcast, typed and laid
// out as CuPy does, the snippet rendered into one kernel (jit/render_user_kernel.h) and run
// on the arrays' device.

#include "core/overlap.h"
#include "core/user_kernel_support.h"
#include "tessera/errors.h"
#include "tessera/user_kernel.h"

namespace tessera {
namespace {

// Elements a CPU thread takes at least: below this, splitting costs more than it saves.
constexpr int64_t kCpuGrain = 16384;

}  // namespace

struct ElementwiseKernel::Prepared {
  Device device;
  std::vector<KernelArg> args;  // inputs then outputs, as the kernel takes them
  std::vector<Array> outputs;   // as the caller gets them
  Dims shape;                   // the loop's, dimensions merged
  std::map<std::string, DType> types;  // of the placeholders
  std::string signature;        // what the source depends on besides the kernel's text
};

ElementwiseKernel::ElementwiseKernel(const std::string& in_params, const std::string& out_params,
                                     std::string operation, std::string name, bool reduce_dims,
                                     Code code, std::vector<std::string> compile_options)
    : operation_(std::move(operation)),
      name_(std::move(name)),
      reduce_dims_(reduce_dims),
      code_(std::move(code)),
      options_(std::move(compile_options)),
      variants_(std::make_shared<user_kernel::KernelVariants>()) {
  api_ = user_kernel::checked_api("ElementwiseKernel", name_);
  in_ = parse_kernel_params(in_params, true, api_);
  out_ = parse_kernel_params(out_params, false, api_);
  user_kernel::check_parameter_names(in_, out_, api_, {"i", "_ind"});
}

ElementwiseKernel::Prepared ElementwiseKernel::prepare(std::vector<KernelArg> args,
                                                       std::optional<int64_t> size,
                                                       bool launching) const {
  const std::string& api = api_;
  const size_t nin = in_.size(), nargs = in_.size() + out_.size();
  if (args.size() != nin && args.size() != nargs) {
    throw TypeError("[" + api + "] Wrong number of arguments for '" + name_ + "'. It must be " +
                    "either " + std::to_string(nin) + " or " + std::to_string(nargs) +
                    " (with outputs), but given " + std::to_string(args.size()) + ".");
  }
  std::vector<const Array*> arrays, out_given;
  std::vector<Dims> loop_shapes;
  for (size_t k = 0; k < args.size(); ++k) {
    const Array* a = std::get_if<Array>(&args[k]);
    if (k >= nin && !a) {
      throw TypeError("[" + api + "] Output arguments type must be an array, got a number for '" +
                      out_[k - nin].name + "'");
    }
    if (!a) continue;
    arrays.push_back(a);
    if (k >= nin) out_given.push_back(a);
    if (!(k < nin ? in_[k] : out_[k - nin]).raw) loop_shapes.push_back(a->shape());
  }
  Prepared p;
  p.device = user_kernel::device_of(arrays, api);
  Dims shape;
  if (size) {
    if (!loop_shapes.empty()) {
      throw ValueError("[" + api + "] Specified 'size' can be used only if all of the ndarray "
                       "are 'raw'.");
    }
    if (*size < 0) throw ValueError("[" + api + "] size must be >= 0, got " + std::to_string(*size));
    shape = Dims{*size};
  } else {
    if (loop_shapes.empty()) throw ValueError("[" + api + "] Loop size is undecided.");
    shape = broadcast_shapes(loop_shapes, api.c_str());
  }
  std::vector<const KernelArg*> in_args;
  for (size_t k = 0; k < nin; ++k) in_args.push_back(&args[k]);
  p.types = user_kernel::bind_types(in_, out_, in_args, out_given, api);
  const auto& types = p.types;

  if (out_given.empty()) {
    for (const KernelParam& o : out_) {
      if (o.raw && !size) throw ValueError("[" + api + "] Output array size is Undecided");
      p.outputs.push_back(Array::empty(shape, user_kernel::type_of(o, types), p.device));
    }
  } else {
    for (size_t k = 0; k < out_.size(); ++k) {
      const Array& o = *out_given[k];
      if (!out_[k].raw && o.shape() != shape) {
        throw ValueError("[" + api + "] Out shape is mismatched: the output '" + out_[k].name +
                         "' has shape " + o.shape().str() + " where the arguments broadcast to " +
                         shape.str());
      }
      if (launching) o.require_writeable(api.c_str());
      p.outputs.push_back(o);
    }
  }
  p.args.resize(nargs);
  for (size_t k = 0; k < nin; ++k) {
    if (const Array* a = std::get_if<Array>(&args[k])) {
      Array in = *a;
      // An input that shares memory with an output is read from a copy (CuPy's rule), unless
      // it is that output itself: each element is then read before it is written.
      for (const Array& o : p.outputs) {
        if (may_overlap(in, o) && !same_view(in, o)) {
          in = in.copy();
          break;
        }
      }
      p.args[k] = in_[k].raw ? in : in.broadcast_to(shape);
    } else {
      p.args[k] = user_kernel::number_as(std::get<Scalar>(args[k]),
                                         user_kernel::type_of(in_[k], types), in_[k], api);
    }
  }
  for (size_t k = 0; k < out_.size(); ++k) p.args[nin + k] = p.outputs[k];
  p.shape = shape;
  if (reduce_dims_ && shape.product() > 0) {
    std::vector<Array*> looped;
    for (size_t k = 0; k < nargs; ++k) {
      const bool raw = k < nin ? in_[k].raw : out_[k - nin].raw;
      if (Array* a = std::get_if<Array>(&p.args[k]); a && !raw) looped.push_back(a);
    }
    p.shape = user_kernel::merge_dims(looped, shape);
  }
  p.signature = user_kernel::signature_of(p.args, {p.shape.size()});
  return p;
}

std::string ElementwiseKernel::render(const Prepared& p) const {
  jit::ElementwiseKernelText text{name_, user_kernel::typedefs(p.types), {}, p.shape.size(),
                                  code_.preamble, code_.loop_prep, operation_, code_.after_loop};
  for (size_t k = 0; k < p.args.size(); ++k) {
    const KernelParam& param = k < in_.size() ? in_[k] : out_[k - in_.size()];
    const Array* a = std::get_if<Array>(&p.args[k]);
    text.params.push_back(user_kernel::describe(param, user_kernel::type_of(param, p.types), a));
  }
  return jit::render_elementwise_kernel(text);
}

std::vector<Array> ElementwiseKernel::operator()(std::vector<KernelArg> args,
                                                 std::optional<int64_t> size,
                                                 const LaunchOptions& launch) const {
  const std::string& api = api_;
  if (launch.block_size <= 0) {
    throw ValueError("[" + api + "] block_size must be greater than zero, got " +
                     std::to_string(launch.block_size));
  }
  Prepared p = prepare(std::move(args), size);
  const int64_t n = p.shape.product();
  if (n == 0) return p.outputs;
  std::vector<std::vector<uint64_t>> params;
  for (const KernelArg& arg : p.args) {
    params.push_back(std::holds_alternative<Array>(arg)
                         ? user_kernel::array_words(std::get<Array>(arg))
                         : user_kernel::scalar_words(std::get<Scalar>(arg)));
  }
  params.push_back(user_kernel::indexer_words(p.shape));
  user_kernel::LaunchShape shape;
  if (p.device.is_cpu()) {
    shape.grid = user_kernel::grid_for((n + kCpuGrain - 1) / kCpuGrain, 1, p.device);
  } else {
    shape.block = static_cast<unsigned>(launch.block_size);
    shape.grid = user_kernel::grid_for(n, shape.block, p.device);
  }
  variants_->launch(p.signature, [&] { return render(p); }, name_, options_, p.device, shape,
                    launch.stream, params, api);
  return p.outputs;
}

std::string ElementwiseKernel::source_for(std::vector<KernelArg> args,
                                          std::optional<int64_t> size) const {
  return render(prepare(std::move(args), size, /*launching=*/false));
}

}  // namespace tessera
