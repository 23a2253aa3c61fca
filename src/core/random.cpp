// Generators: each call takes the next call number of the stream and hands the backend a
// RandomCall; parameters arrive computed, contiguous and of the result's shape.

#include "tessera/random.h"

#include "backend/backend.h"
#include "backend/random_call.h"
#include "kernels/philox.h"
#include "tessera/errors.h"

namespace tessera {
namespace {

void require_float(DType dtype, const char* api) {
  if (dtype != DType::Float32 && dtype != DType::Float64) {
    throw TypeError(std::string("[") + api + "] Unsupported dtype " +
                    std::string(dtype_name(dtype)) + " for " + api +
                    ": float32 and float64 are supported");
  }
}

// Runs `call` into a new array of `shape` and `dtype`.
Array draw(RandomCall call, const Dims& shape, DType dtype, Device device) {
  call.out = Array::empty(shape, dtype, device);
  backend_for(device).random(call);
  return call.out;
}

// Per-element parameters as the samplers read them: computed, C-contiguous, in `dtype`.
Array parameter(const Array& a, DType dtype) { return a.astype(dtype, Order::C); }

}  // namespace

Generator::Generator(uint64_t seed) : key_(kernels::splitmix64(seed)) {}

Array Generator::random(const Dims& shape, DType dtype, Device device) {
  require_float(dtype, "random");
  return draw({RandomKind::Uniform, key_, next_call()}, shape, dtype, device);
}

Array Generator::standard_normal(const Dims& shape, DType dtype, Device device) {
  require_float(dtype, "standard_normal");
  return draw({RandomKind::Normal, key_, next_call()}, shape, dtype, device);
}

Array Generator::standard_exponential(const Dims& shape, DType dtype, Device device) {
  require_float(dtype, "standard_exponential");
  return draw({RandomKind::Exponential, key_, next_call()}, shape, dtype, device);
}

Array Generator::integers(uint64_t low, uint64_t range, const Dims& shape, DType dtype,
                          Device device) {
  if (!is_integer(dtype) && dtype != DType::Bool) {
    throw TypeError("[integers] Unsupported dtype " + std::string(dtype_name(dtype)) +
                    " for integers");
  }
  RandomCall call{RandomKind::Integers, key_, next_call()};
  call.low = low;
  call.range = range;
  return draw(call, shape, dtype, device);
}

Array Generator::standard_gamma(const Array& shape_param) {
  RandomCall call{RandomKind::Gamma, key_, next_call()};
  call.a = parameter(shape_param, DType::Float64);
  return draw(call, shape_param.shape(), DType::Float64, shape_param.device());
}

Array Generator::poisson(const Array& lam) {
  RandomCall call{RandomKind::Poisson, key_, next_call()};
  call.a = parameter(lam, DType::Float64);
  return draw(call, lam.shape(), DType::Int64, lam.device());
}

Array Generator::binomial(const Array& n, const Array& p) {
  RandomCall call{RandomKind::Binomial, key_, next_call()};
  call.a = parameter(p, DType::Float64);
  call.b = parameter(n, DType::Int64);
  return draw(call, p.shape(), DType::Int64, p.device());
}

}  // namespace tessera
