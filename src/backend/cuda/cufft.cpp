#include "backend/cuda/cufft.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "backend/backend.h"
#include "backend/cuda/runtime.h"
#include "backend/cuda/vendor_library.h"
#include "tessera/errors.h"
#include "tessera/stream.h"

namespace tessera::cuda {
namespace {

constexpr size_t kMaxRank = 3;    // cuFFT transforms at most three axes at once
constexpr size_t kPlansKept = 16;  // per device and thread, as CuPy's plan cache

// libcufft (CUDA 13's major 12, then CUDA 12's 11); null when it does not load or lacks an
// entry.
const CufftApi* load_real() {
  void* library = open_vendor_library({"libcufft.so.12", "libcufft.so.11"});
  if (!library) return nullptr;
  static CufftApi api{};
  api.name = "libcufft";
  if (resolve(library, "cufftCreate", api.cufftCreate) &&
      resolve(library, "cufftDestroy", api.cufftDestroy) &&
      resolve(library, "cufftSetAutoAllocation", api.cufftSetAutoAllocation) &&
      resolve(library, "cufftMakePlanMany64", api.cufftMakePlanMany64) &&
      resolve(library, "cufftSetWorkArea", api.cufftSetWorkArea) &&
      resolve(library, "cufftSetStream", api.cufftSetStream) &&
      resolve(library, "cufftExecC2C", api.cufftExecC2C) &&
      resolve(library, "cufftExecR2C", api.cufftExecR2C) &&
      resolve(library, "cufftExecC2R", api.cufftExecC2R) &&
      resolve(library, "cufftExecZ2Z", api.cufftExecZ2Z) &&
      resolve(library, "cufftExecD2Z", api.cufftExecD2Z) &&
      resolve(library, "cufftExecZ2D", api.cufftExecZ2D)) {
    return &api;
  }
  dlclose(library);
  return nullptr;
}

const CufftApi& require_cufft() {
  if (is_simulated()) return *simulated_cufft();
  static const CufftApi* api = load_real();
  if (!api) {
    throw CudaRuntimeError("[fft] cuFFT (libcufft.so.12 or .11) was not found: install the CUDA "
                           "toolkit or the pip wheel nvidia-cufft and put the directory holding "
                           "libcufft.so on LD_LIBRARY_PATH");
  }
  return *api;
}

const char* result_name(cufftResult r) {
  switch (r) {
    case CUFFT_INVALID_PLAN: return "CUFFT_INVALID_PLAN";
    case 0x2: return "CUFFT_ALLOC_FAILED";
    case 0x3: return "CUFFT_INVALID_TYPE";
    case CUFFT_INVALID_VALUE: return "CUFFT_INVALID_VALUE";
    case 0x5: return "CUFFT_INTERNAL_ERROR";
    case CUFFT_EXEC_FAILED: return "CUFFT_EXEC_FAILED";
    case 0x7: return "CUFFT_SETUP_FAILED";
    case 0x8: return "CUFFT_INVALID_SIZE";
    case CUFFT_NOT_SUPPORTED: return "CUFFT_NOT_SUPPORTED";
    default: return "cuFFT error";
  }
}

void check_result(cufftResult r, const char* call) {
  if (r != CUFFT_SUCCESS) {
    throw CudaRuntimeError(std::string("[fft] ") + call + " failed: " + result_name(r) + " (" +
                           std::to_string(r) + ")");
  }
}

// How many elements an axis holds on each side: the halved axis of a real transform holds
// n/2+1 complex values.
int64_t in_length(const FftCall& c, size_t k) {
  const bool halved = c.kind == FftKind::ComplexToReal && k + 1 == c.axes.size();
  return halved ? c.axes[k].n / 2 + 1 : c.axes[k].n;
}
int64_t out_length(const FftCall& c, size_t k) {
  const bool halved = c.kind == FftKind::RealToComplex && k + 1 == c.axes.size();
  return halved ? c.axes[k].n / 2 + 1 : c.axes[k].n;
}

// The complex-to-complex passes over axes [0, end) of `call`, in place on one of its
// operands (element strides `strides` of each axis), groups of up to three from the back;
// every other axis of the call is a batch axis of these passes.
void add_in_place_passes(const FftCall& call, const Array& operand, bool in_side, size_t end,
                         std::vector<FftCall>& passes) {
  auto on_operand = [&](FftAxis a, int64_t length) {
    const int64_t s = in_side ? a.in_stride : a.out_stride;
    return FftAxis{length, s, s};
  };
  while (end > 0) {
    const size_t begin = end > kMaxRank ? end - kMaxRank : 0;
    FftCall pass;
    pass.kind = FftKind::ComplexToComplex;
    pass.forward = call.forward;
    pass.in = pass.out = operand;
    for (size_t k = 0; k < call.axes.size(); ++k) {
      const int64_t length = in_side ? in_length(call, k) : out_length(call, k);
      (k >= begin && k < end ? pass.axes : pass.batch).push_back(on_operand(call.axes[k], length));
    }
    for (const FftAxis& b : call.batch) pass.batch.push_back(on_operand(b, b.n));
    passes.push_back(std::move(pass));
    end = begin;
  }
}

// `call` as transforms of at most three axes each. A multi-dimensional DFT is the product
// of DFTs along its axes, so the axes beyond the last three are transformed in place by
// complex passes: after the first pass (in -> out) for the forward transforms, before the
// last one on the input (which a complex-to-real call may overwrite) for the inverse real
// transform, whose halved axis must come last.
std::vector<FftCall> split_passes(const FftCall& call) {
  if (call.axes.size() <= kMaxRank) return {call};
  const size_t rest = call.axes.size() - kMaxRank;
  FftCall last = call;
  last.axes.assign(call.axes.begin() + rest, call.axes.end());
  last.batch.insert(last.batch.end(), call.axes.begin(), call.axes.begin() + rest);
  std::vector<FftCall> passes;
  if (call.kind == FftKind::ComplexToReal) {
    add_in_place_passes(call, call.in, /*in_side=*/true, rest, passes);
    passes.push_back(std::move(last));
  } else {
    passes.push_back(std::move(last));
    add_in_place_passes(call, call.out, /*in_side=*/false, rest, passes);
  }
  return passes;
}

// cuFFT's advanced layout: element b of the batch, index (x, y, z) at
// b*dist + ((x*embed[1] + y)*embed[2] + z)*stride.
struct Layout {
  int rank = 0;
  long long n[kMaxRank] = {}, inembed[kMaxRank] = {}, onembed[kMaxRank] = {};
  long long istride = 1, ostride = 1, idist = 1, odist = 1, batch = 1;
};

// Whether one side's strides nest as the advanced layout needs: each axis' stride a
// multiple of the next one's, by at least the next axis' length. Fills embed and stride.
bool nests(const std::vector<int64_t>& strides, const std::vector<int64_t>& lengths,
           long long* embed, long long* stride) {
  const size_t r = strides.size();
  for (size_t k = 0; k + 1 < r; ++k) {
    if (strides[k] % strides[k + 1] != 0 || strides[k] / strides[k + 1] < lengths[k + 1]) {
      return false;
    }
    embed[k + 1] = strides[k] / strides[k + 1];
  }
  embed[0] = lengths[0];
  *stride = strides[r - 1];
  return true;
}

std::vector<int64_t> side_strides(const std::vector<FftAxis>& axes, bool in_side) {
  std::vector<int64_t> s;
  for (const FftAxis& a : axes) s.push_back(in_side ? a.in_stride : a.out_stride);
  return s;
}

std::vector<int64_t> side_lengths(const FftCall& c, bool in_side) {
  std::vector<int64_t> lengths;
  for (size_t k = 0; k < c.axes.size(); ++k) {
    lengths.push_back(in_side ? in_length(c, k) : out_length(c, k));
  }
  return lengths;
}

// The pass in a canonical form: batch axes of length 1 dropped and the others merged where
// their strides allow, on both sides; transformed axes of length 1 dropped (a length-1 DFT
// is the identity) but the halved one, whose stride is then irrelevant; the axes of a
// complex transform ordered by decreasing input stride (the order of a multi-dimensional
// DFT's axes does not matter, and this one is most likely to nest).
FftCall canonical(FftCall c) {
  std::erase_if(c.batch, [](const FftAxis& a) { return a.n == 1; });
  std::stable_sort(c.batch.begin(), c.batch.end(),
                   [](const FftAxis& x, const FftAxis& y) { return x.in_stride > y.in_stride; });
  for (size_t j = c.batch.size(); j-- > 1;) {
    FftAxis& outer = c.batch[j - 1];
    const FftAxis& inner = c.batch[j];
    if (outer.in_stride == inner.in_stride * inner.n &&
        outer.out_stride == inner.out_stride * inner.n) {
      outer = {outer.n * inner.n, inner.in_stride, inner.out_stride};
      c.batch.erase(c.batch.begin() + static_cast<std::ptrdiff_t>(j));
    }
  }
  const bool real = c.kind != FftKind::ComplexToComplex;
  for (size_t k = c.axes.size(); k-- > 0;) {
    const bool halved = real && k + 1 == c.axes.size();
    if (c.axes[k].n == 1 && !halved) c.axes.erase(c.axes.begin() + static_cast<std::ptrdiff_t>(k));
  }
  if (real && c.axes.back().n == 1) c.axes.back().in_stride = c.axes.back().out_stride = 1;
  if (!real) {
    std::stable_sort(c.axes.begin(), c.axes.end(),
                     [](const FftAxis& x, const FftAxis& y) { return x.in_stride > y.in_stride; });
  }
  return c;
}

// One side of the pass as an array of shape [batch..., axes...] with its strides.
Array side_view(const FftCall& c, bool in_side) {
  const Array& a = in_side ? c.in : c.out;
  const std::vector<int64_t> lengths = side_lengths(c, in_side);
  Dims shape, strides;
  for (const FftAxis& b : c.batch) {
    shape.push_back(b.n);
    strides.push_back((in_side ? b.in_stride : b.out_stride) * a.itemsize());
  }
  for (size_t k = 0; k < c.axes.size(); ++k) {
    shape.push_back(lengths[k]);
    strides.push_back((in_side ? c.axes[k].in_stride : c.axes[k].out_stride) * a.itemsize());
  }
  return Array(a.buffer(), a.dtype(), shape, strides, a.offset());
}

// Points one side of the pass at `packed` (C-contiguous, shape [batch..., axes...]).
void use_packed(FftCall& c, bool in_side, const Array& packed) {
  (in_side ? c.in : c.out) = packed;
  const int64_t item = packed.itemsize();
  size_t d = 0;
  for (std::vector<FftAxis>* list : {&c.batch, &c.axes}) {
    for (FftAxis& a : *list) {
      (in_side ? a.in_stride : a.out_stride) = packed.strides()[d++] / item;
    }
  }
}

struct Plan {
  std::vector<long long> key;
  cufftHandle handle = 0;
  size_t work_size = 0;
};

// The plans of this thread, most recently used last. cuFFT plans are tied to the device
// current when they were made and are not for use by two threads at once; like cuBLAS
// handles they are kept for the thread's life (beyond kPlansKept the least recently used
// is destroyed).
Plan& plan_for(const CufftApi& api, int device, int type, const Layout& l) {
  thread_local std::vector<Plan> plans;
  std::vector<long long> key = {device, type, l.rank, l.istride, l.idist, l.ostride, l.odist,
                                l.batch};
  for (int k = 0; k < l.rank; ++k) {
    key.insert(key.end(), {l.n[k], l.inembed[k], l.onembed[k]});
  }
  for (size_t i = 0; i < plans.size(); ++i) {
    if (plans[i].key == key) {
      std::rotate(plans.begin() + static_cast<std::ptrdiff_t>(i),
                  plans.begin() + static_cast<std::ptrdiff_t>(i) + 1, plans.end());
      return plans.back();
    }
  }
  Plan plan;
  plan.key = std::move(key);
  check_result(api.cufftCreate(&plan.handle), "cufftCreate");
  // Work areas come from the memory pool at each call (stream-ordered), not from cuFFT's
  // own cudaMalloc at planning.
  Layout copy = l;
  const cufftResult made = [&] {
    const cufftResult r = api.cufftSetAutoAllocation(plan.handle, 0);
    if (r != CUFFT_SUCCESS) return r;
    return api.cufftMakePlanMany64(plan.handle, copy.rank, copy.n, copy.inembed, copy.istride,
                                   copy.idist, copy.onembed, copy.ostride, copy.odist, type,
                                   copy.batch, &plan.work_size);
  }();
  if (made != CUFFT_SUCCESS) {
    api.cufftDestroy(plan.handle);
    check_result(made, "cufftMakePlanMany64");
  }
  if (plans.size() == kPlansKept) {
    api.cufftDestroy(plans.front().handle);
    plans.erase(plans.begin());
  }
  plans.push_back(std::move(plan));
  return plans.back();
}

int cufft_type(const FftCall& c) {
  const DType complex_side = c.kind == FftKind::RealToComplex ? c.out.dtype() : c.in.dtype();
  const bool single = complex_side == DType::Complex64;
  switch (c.kind) {
    case FftKind::ComplexToComplex: return single ? CUFFT_C2C : CUFFT_Z2Z;
    case FftKind::RealToComplex: return single ? CUFFT_R2C : CUFFT_D2Z;
    case FftKind::ComplexToReal: return single ? CUFFT_C2R : CUFFT_Z2D;
  }
  return CUFFT_C2C;
}

cufftResult exec(const CufftApi& api, cufftHandle plan, int type, void* in, void* out,
                 bool forward) {
  const int direction = forward ? CUFFT_FORWARD : CUFFT_INVERSE;
  switch (type) {
    case CUFFT_C2C: return api.cufftExecC2C(plan, in, out, direction);
    case CUFFT_Z2Z: return api.cufftExecZ2Z(plan, in, out, direction);
    case CUFFT_R2C: return api.cufftExecR2C(plan, in, out);
    case CUFFT_D2Z: return api.cufftExecD2Z(plan, in, out);
    case CUFFT_C2R: return api.cufftExecC2R(plan, in, out);
    default: return api.cufftExecZ2D(plan, in, out);
  }
}

// cuFFT requires every data pointer of a real transform to be aligned to its complex type
// (8 bytes for float32, 16 for float64), the real side's too: x[1:] of a float array is
// not, nor are the pointers of a batch axis looped over here (all but cuFFT's own batch
// axis, execute_pass) whose real-side stride is odd. Such passes go through packed copies.
// (Odd distances inside cuFFT's own batch are fine: rows of odd length are the plain
// layout of a real transform.)
// The batch axis cuFFT batches itself (the longest); execute_pass loops over the others.
std::vector<FftAxis>::const_iterator longest_batch(const std::vector<FftAxis>& batch) {
  return std::max_element(batch.begin(), batch.end(),
                          [](const FftAxis& x, const FftAxis& y) { return x.n < y.n; });
}

bool real_side_aligned(const FftCall& c) {
  if (c.kind == FftKind::ComplexToComplex) return true;
  const bool in_side = c.kind == FftKind::RealToComplex;
  const Array& real = in_side ? c.in : c.out;
  const auto alignment = static_cast<uintptr_t>(2 * real.itemsize());
  if (reinterpret_cast<uintptr_t>(real.data()) % alignment != 0) return false;
  if (c.batch.size() < 2) return true;
  const auto longest = longest_batch(c.batch);
  for (auto b = c.batch.begin(); b != c.batch.end(); ++b) {
    if (b != longest && (in_side ? b->in_stride : b->out_stride) % 2 != 0) return false;
  }
  return true;
}

void execute_pass(const CufftApi& api, int device, const FftCall& given) {
  FftCall pass = canonical(given);
  Backend& backend = cuda_backend(device);
  if (pass.axes.empty()) {  // every transformed axis of length 1: the identity
    if (pass.in.data() != pass.out.data()) backend.copy(side_view(pass, true), side_view(pass, false));
    return;
  }
  const bool in_place = pass.in.data() == pass.out.data();
  Layout l;
  l.rank = static_cast<int>(pass.axes.size());
  const std::vector<int64_t> in_lengths = side_lengths(pass, true);
  const std::vector<int64_t> out_lengths = side_lengths(pass, false);
  const bool aligned = real_side_aligned(pass);
  const bool in_nests =
      nests(side_strides(pass.axes, true), in_lengths, l.inembed, &l.istride) && aligned;
  const bool out_nests =
      nests(side_strides(pass.axes, false), out_lengths, l.onembed, &l.ostride) && aligned;
  if (!in_nests || !out_nests) {
    // Packed copies on the device of the sides whose strides do not nest (both sides where
    // a real side is misaligned), in the order [batch..., axes...]: their strides nest,
    // their batch axes merge into one, and a fresh allocation is aligned.
    const Array out_view = side_view(pass, false);
    std::optional<Array> packed_out;
    if (in_place || !in_nests) {
      const Array in_view = side_view(pass, true);
      const Array packed = Array::empty(in_view.shape(), in_view.dtype(), in_view.device());
      backend.copy(in_view, packed);
      use_packed(pass, true, packed);
      if (in_place) packed_out = packed;
    }
    if (!in_place && !out_nests) {
      packed_out = Array::empty(out_view.shape(), out_view.dtype(), out_view.device());
    }
    if (packed_out) use_packed(pass, false, *packed_out);
    execute_pass(api, device, pass);
    if (packed_out) backend.copy(*packed_out, out_view);
    return;
  }
  for (int k = 0; k < l.rank; ++k) l.n[k] = pass.axes[k].n;
  // cuFFT's own batch: the longest batch axis; the others are looped over.
  std::vector<FftAxis> loops = pass.batch;
  if (!loops.empty()) {
    const auto longest = longest_batch(loops);
    l.batch = longest->n;
    l.idist = longest->in_stride;
    l.odist = longest->out_stride;
    loops.erase(longest);
  } else {
    l.idist = l.istride * l.inembed[0];
    l.odist = l.ostride * l.onembed[0];
  }
  const int type = cufft_type(pass);
  activate(device, "fft");
  const Plan& plan = plan_for(api, device, type, l);
  check_result(api.cufftSetStream(plan.handle, stream_handle(current_stream(Device::cuda(device)))),
               "cufftSetStream");
  const Array work = Array::empty(Dims{static_cast<int64_t>(plan.work_size)}, DType::UInt8,
                                  Device::cuda(device));
  check_result(api.cufftSetWorkArea(plan.handle, plan.work_size ? work.data() : nullptr),
               "cufftSetWorkArea");
  int64_t count = 1;
  for (const FftAxis& a : loops) count *= a.n;
  const int64_t in_item = pass.in.itemsize(), out_item = pass.out.itemsize();
  for (int64_t i = 0; i < count; ++i) {
    int64_t in_offset = 0, out_offset = 0;
    for (int64_t rest = i, j = static_cast<int64_t>(loops.size()); j-- > 0;) {
      const int64_t index = rest % loops[j].n;
      rest /= loops[j].n;
      in_offset += index * loops[j].in_stride * in_item;
      out_offset += index * loops[j].out_stride * out_item;
    }
    check_result(exec(api, plan.handle, type, pass.in.data() + in_offset,
                      pass.out.data() + out_offset, pass.forward),
                 "cufftExec");
  }
}

}  // namespace

void cufft_execute(int device, const FftCall& call) {
  const CufftApi& api = require_cufft();
  for (const FftCall& pass : split_passes(call)) execute_pass(api, device, pass);
}

}  // namespace tessera::cuda
