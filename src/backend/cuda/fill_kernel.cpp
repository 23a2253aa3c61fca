#include "backend/cuda/fill_kernel.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <string>

#include "backend/cuda/expr_kernel.h"
#include "backend/cuda/render_cuda.h"
#include "backend/cuda/render_values.h"
#include "tessera/cuda.h"
#include "tessera/stream.h"

namespace tessera::cuda {
namespace {

constexpr const char* kFillKernelName = "ts_fill";

// device/fill.cuh's FillParams and its words.
using FillWords = std::array<uint64_t, 14>;
enum FillWord { kOut, kCount, kValues, kKey = kValues, kCall, kLow, kRange, kParamA, kParamB };

// Runs `body` over `n` elements.
void run_fill(int device, const std::string& body, int64_t n, FillWords& words) {
  if (n == 0) return;
  const uintptr_t function =
      generated_function("fill:" + body, [&] { return render_fill(body); }, kFillKernelName,
                         device);
  launch_grid_stride(function, device, n, words.data(), "fill");
}

}  // namespace

std::string render_fill(const std::string& body) {
  return render_cuda_prologue() + detail::device_file("backend/cuda/device/fill.cuh") +
         "extern \"C\" __global__ void __launch_bounds__(256) " + kFillKernelName +
         "(const tessera::device::FillParams p) {\n  tessera::device::" + body + "(p);\n}\n";
}

std::string fill_body(const char* fill, DType dtype) {
  return std::string(fill) + "<" + detail::type_of(dtype) + ">";
}

namespace {

// A value of `dtype` as its bytes, from word w (two words for complex128).
void put(FillWords& words, int w, const Scalar& value, DType dtype) {
  const Scalar v = value.cast(dtype);
  std::memcpy(&words[w], v.data(), itemsize(dtype));
}

FillWords words_for(const Array& out) {
  FillWords words{};
  words[kOut] = reinterpret_cast<uint64_t>(out.data());
  words[kCount] = static_cast<uint64_t>(out.size());
  return words;
}

}  // namespace

void launch_arange(int device, const Array& dst, const Scalar& first, const Scalar& second) {
  FillWords words = words_for(dst);
  put(words, kValues, first, dst.dtype());
  put(words, kValues + 2, second, dst.dtype());
  run_fill(device, fill_body("arange_fill", dst.dtype()), dst.size(), words);
}

void launch_linspace(int device, const Array& dst, const LinspaceSpec& spec) {
  FillWords words = words_for(dst);
  const DType dtype = dst.dtype();
  put(words, kValues, spec.start, dtype);
  put(words, kValues + 2, spec.stop, dtype);
  put(words, kValues + 4, spec.step, dtype);
  put(words, kValues + 6, spec.delta, dtype);
  words[kValues + 8] = static_cast<uint64_t>(spec.div);
  words[kValues + 9] = (spec.divide_first ? 1 : 0) | (spec.set_last ? 2 : 0) | (spec.floor ? 4 : 0);
  run_fill(device, fill_body("linspace_fill", dtype), dst.size(), words);
}

void launch_random(int device, const RandomCall& call) {
  FillWords words = words_for(call.out);
  words[kKey] = call.key;
  words[kCall] = call.call;
  words[kLow] = call.low;
  words[kRange] = call.range;
  if (call.a.valid()) words[kParamA] = reinterpret_cast<uint64_t>(call.a.data());
  if (call.b.valid()) words[kParamB] = reinterpret_cast<uint64_t>(call.b.data());
  const DType dtype = call.out.dtype();
  std::string body;
  switch (call.kind) {
    case RandomKind::Uniform: body = fill_body("uniform_fill", dtype); break;
    case RandomKind::Normal: body = fill_body("normal_fill", dtype); break;
    case RandomKind::Exponential: body = fill_body("exponential_fill", dtype); break;
    case RandomKind::Integers: body = fill_body("integers_fill", dtype); break;
    case RandomKind::Gamma: body = "gamma_fill"; break;
    case RandomKind::Poisson: body = "poisson_fill"; break;
    case RandomKind::Binomial: body = "binomial_fill"; break;
  }
  run_fill(device, body, call.out.size(), words);
}

}  // namespace tessera::cuda
