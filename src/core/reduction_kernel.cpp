// CuPy's ReductionKernel (tessera/user_kernel.h): the inputs broadcast, their kept axes put
// first and the reduced ones last, and one kernel (jit/render_user_kernel.h) reduces each
// output element's run of input elements: a block of threads per output on a GPU, combining
// pairwise within each thread and as a tree across them; one thread per output on the CPU.

#include <algorithm>

#include "core/overlap.h"
#include "core/user_kernel_support.h"
#include "tessera/errors.h"
#include "tessera/user_kernel.h"

namespace tessera {
namespace {

// Threads of a block on a CUDA device.
constexpr unsigned kCudaBlock = 256;
// The fewest elements a part of an output's run has, when runs are split (a CPU thread's, a
// GPU block's): below this, the second pass costs more than the parallelism saves.
constexpr int64_t kCpuMinPart = 16384;
constexpr int64_t kCudaMinPart = 16 * kCudaBlock;
// The most parts a run is split into: the second pass reduces them one after the other.
constexpr int64_t kMaxParts = 1024;

}  // namespace

ReductionKernel::ReductionKernel(const std::string& in_params, const std::string& out_params,
                                 std::string map_expr, std::string reduce_expr,
                                 std::string post_map_expr, std::optional<std::string> identity,
                                 std::string name, std::optional<std::string> reduce_type,
                                 bool reduce_dims, std::string preamble,
                                 std::vector<std::string> compile_options)
    : map_expr_(std::move(map_expr)),
      reduce_expr_(std::move(reduce_expr)),
      post_map_expr_(std::move(post_map_expr)),
      identity_(std::move(identity)),
      name_(std::move(name)),
      reduce_type_(std::move(reduce_type)),
      reduce_dims_(reduce_dims),
      preamble_(std::move(preamble)),
      options_(std::move(compile_options)),
      variants_(std::make_shared<user_kernel::KernelVariants>()) {
  const std::string api = user_kernel::checked_api("ReductionKernel", name_);
  in_ = parse_kernel_params(in_params, true, api);
  out_ = parse_kernel_params(out_params, false, api);
  if (out_.empty()) throw ValueError("[" + api + "] a reduction needs an output parameter");
  user_kernel::check_parameter_names(in_, out_, api, {"a", "b", "_in_ind", "_out_ind", "_J"});
}

std::vector<Array> ReductionKernel::operator()(std::vector<KernelArg> inputs,
                                               std::vector<Array> outputs,
                                               std::optional<std::vector<int>> axes,
                                               bool keepdims, const LaunchOptions& launch) const {
  const std::string api = "ReductionKernel " + name_;
  if (inputs.size() != in_.size() || (!outputs.empty() && outputs.size() != out_.size())) {
    throw TypeError("[" + api + "] Wrong number of arguments for " + name_ + ": " +
                    std::to_string(in_.size()) + " inputs and optionally " +
                    std::to_string(out_.size()) + " outputs, got " +
                    std::to_string(inputs.size()) + " and " + std::to_string(outputs.size()));
  }
  std::vector<const Array*> arrays, out_given;
  std::vector<Dims> shapes;
  for (size_t k = 0; k < inputs.size(); ++k) {
    if (const Array* a = std::get_if<Array>(&inputs[k])) {
      arrays.push_back(a);
      if (!in_[k].raw) shapes.push_back(a->shape());
    }
  }
  for (const Array& o : outputs) {
    arrays.push_back(&o);
    out_given.push_back(&o);
  }
  const Device device = user_kernel::device_of(arrays, api);
  if (shapes.empty()) throw ValueError("[" + api + "] Loop size is undecided.");
  const Dims shape = broadcast_shapes(shapes, api.c_str());
  std::vector<const KernelArg*> in_args;
  for (const KernelArg& a : inputs) in_args.push_back(&a);
  const auto types = user_kernel::bind_types(in_, out_, in_args, out_given, api);

  // The reduced axes, in order, and the kept ones.
  const int ndim = shape.size();
  std::vector<bool> reduced(ndim, !axes.has_value());
  if (axes) {
    for (int axis : *axes) {
      const int a = normalize_axis(axis, ndim, api.c_str());
      if (reduced[a]) throw ValueError("[" + api + "] duplicate value in 'axis'");
      reduced[a] = true;
    }
  }
  std::vector<int> order;
  Dims out_shape, kept_shape;
  for (int a = 0; a < ndim; ++a) {
    if (!reduced[a]) {
      order.push_back(a);
      kept_shape.push_back(shape[a]);
    }
    if (!reduced[a] || keepdims) out_shape.push_back(reduced[a] ? 1 : shape[a]);
  }
  std::vector<int> squeezed;  // the axes of length 1 keepdims adds
  for (int a = 0; a < ndim; ++a) {
    if (reduced[a]) {
      order.push_back(a);
      if (keepdims) squeezed.push_back(a);
    }
  }

  if (outputs.empty()) {
    for (const KernelParam& o : out_) {
      outputs.push_back(Array::empty(out_shape, user_kernel::type_of(o, types), device));
    }
  } else {
    for (size_t k = 0; k < outputs.size(); ++k) {
      if (outputs[k].shape() != out_shape) {
        throw ValueError("[" + api + "] Out shape is mismatched: the output '" + out_[k].name +
                         "' has shape " + outputs[k].shape().str() + ", the reduction gives " +
                         out_shape.str());
      }
      outputs[k].require_writeable(api.c_str());
    }
  }
  const int64_t out_size = out_shape.product();
  if (out_size == 0) return outputs;
  const int64_t reduce_size = shape.product() / out_size;
  if (shape.product() == 0 && !identity_) {
    throw ValueError("[" + api + "] zero-size array to reduction operation " + name_ +
                     " which has no identity");
  }

  std::vector<KernelArg> args;
  std::vector<Array*> looped_in, looped_out;
  for (size_t k = 0; k < inputs.size(); ++k) {
    if (const Array* a = std::get_if<Array>(&inputs[k])) {
      Array in = *a;
      for (const Array& o : outputs) {
        if (may_overlap(in, o)) {
          in = in.copy();
          break;
        }
      }
      args.emplace_back(in_[k].raw ? in : in.broadcast_to(shape).transpose(order));
    } else {
      args.emplace_back(user_kernel::number_as(std::get<Scalar>(inputs[k]),
                                               user_kernel::type_of(in_[k], types), in_[k], api));
    }
  }
  for (const Array& o : outputs) args.emplace_back(squeezed.empty() ? o : o.squeeze(squeezed));
  Dims in_shape(ndim), loop_out_shape = kept_shape;
  for (int a = 0; a < ndim; ++a) in_shape[a] = shape[order[a]];
  if (reduce_dims_ && shape.product() > 0) {
    for (size_t k = 0; k < args.size(); ++k) {
      const bool is_input = k < in_.size();
      const bool raw = is_input ? in_[k].raw : out_[k - in_.size()].raw;
      if (Array* a = std::get_if<Array>(&args[k]); a && !raw) {
        (is_input ? looped_in : looped_out).push_back(a);
      }
    }
    in_shape = user_kernel::merge_dims(looped_in, in_shape);
    loop_out_shape = user_kernel::merge_dims(looped_out, loop_out_shape);
  }

  const unsigned block = device.is_cpu() ? 1 : kCudaBlock;
  jit::ReductionKernelText text;
  text.name = name_;
  text.typedefs = user_kernel::typedefs(types);
  text.nin = in_.size();
  text.in_ndim = in_shape.size();
  text.out_ndim = loop_out_shape.size();
  const KernelParam& first_out = out_.front();
  text.reduce_type = reduce_type_ ? *reduce_type_
                                  : (first_out.dtype ? jit::user_c_type(*first_out.dtype)
                                                     : first_out.placeholder);
  text.identity = identity_;
  text.map_expr = map_expr_;
  text.reduce_expr = reduce_expr_;
  text.post_map_expr = post_map_expr_;
  text.preamble = preamble_;
  text.block = static_cast<int>(block);
  for (size_t k = 0; k < args.size(); ++k) {
    const KernelParam& param = k < in_.size() ? in_[k] : out_[k - in_.size()];
    const Array* a = std::get_if<Array>(&args[k]);
    text.params.push_back(user_kernel::describe(param, user_kernel::type_of(param, types), a));
  }
  const std::string signature =
      user_kernel::signature_of(args, {text.in_ndim, text.out_ndim, text.block});

  std::vector<std::vector<uint64_t>> params;
  for (const KernelArg& arg : args) {
    params.push_back(std::holds_alternative<Array>(arg)
                         ? user_kernel::array_words(std::get<Array>(arg))
                         : user_kernel::scalar_words(std::get<Scalar>(arg)));
  }
  params.push_back(user_kernel::indexer_words(in_shape));
  params.push_back(user_kernel::indexer_words(loop_out_shape));
  params.push_back({static_cast<uint64_t>(reduce_size)});

  // Too few outputs to fill the device: each output's run is split into parts, reduced into
  // scratch memory, whose parts a second kernel reduces into the outputs.
  const auto render = [&] { return jit::render_reduction_kernel(text); };
  const int64_t slots = user_kernel::parallel_slots(device);
  const int64_t min_part = device.is_cpu() ? kCpuMinPart : kCudaMinPart;
  int64_t parts = 1;
  if (out_size < slots && reduce_size >= 2 * min_part) {
    parts = std::min({(reduce_size + min_part - 1) / min_part, (slots + out_size - 1) / out_size,
                      kMaxParts});
  }
  Array scratch;
  int64_t stride = 0;
  if (parts > 1) {
    const size_t size = variants_->value_size(signature, render, name_ + "_sizeof", options_,
                                              device, api);
    stride = static_cast<int64_t>((size + 15) / 16 * 16);
    scratch = Array::empty(Dims{out_size * parts * (stride + 1)}, DType::UInt8, device);
  }
  params.push_back({static_cast<uint64_t>(parts)});
  params.push_back({parts > 1 ? reinterpret_cast<uintptr_t>(scratch.data()) : 0});
  params.push_back({static_cast<uint64_t>(stride)});
  variants_->launch(signature, render, name_, options_, device,
                    {user_kernel::grid_for(out_size * parts, 1, device), block}, launch.stream,
                    params, api);
  if (parts > 1) {
    const unsigned combine_block = device.is_cpu() ? 1 : 128;
    variants_->launch(signature, render, name_ + "_combine", options_, device,
                      {user_kernel::grid_for(out_size, combine_block, device), combine_block},
                      launch.stream, params, api);
  }
  return outputs;
}

}  // namespace tessera
