// The simulator's cuFFT (backend/cuda/cufft.h): the same entries as libcufft, with its
// rules (rank 1 to 3, an advanced layout whose embeds hold each axis, a work area before
// executing a plan made without one, the execution entry matching the plan's type, data
// pointers aligned to the transform's complex type, the real side's too), whose
// transforms run the CPU backend's FFTW on the layout the plan describes, queued on the
// plan's stream behind the work before them. Device memory is host memory here, so the
// data is read where it lies.

#include <cstdint>
#include <map>
#include <mutex>
#include <vector>

#include "backend/backend.h"
#include "backend/cuda/cufft.h"
#include "backend/cuda/runtime.h"
#include "backend/cudasim/host_task.h"

namespace tessera::cuda {
namespace {

struct SimPlan {
  bool made = false;
  bool auto_allocate = true;
  void* work_area = nullptr;
  size_t work_size = 0;
  CUstream stream = nullptr;
  int type = 0;
  FftCall layout;  // the call of one batch, its arrays unset
};

std::mutex plans_mutex;
std::map<cufftHandle, SimPlan>& plans() {
  static auto* registry = new std::map<cufftHandle, SimPlan>();  // never destroyed
  return *registry;
}

SimPlan* find(cufftHandle handle) {
  auto it = plans().find(handle);
  return it == plans().end() ? nullptr : &it->second;
}

cufftResult create(cufftHandle* handle) {
  std::lock_guard lock(plans_mutex);
  static cufftHandle next = 1;
  *handle = next++;
  plans().emplace(*handle, SimPlan{});
  return CUFFT_SUCCESS;
}

cufftResult destroy(cufftHandle handle) {
  std::lock_guard lock(plans_mutex);
  return plans().erase(handle) ? CUFFT_SUCCESS : CUFFT_INVALID_PLAN;
}

cufftResult set_auto_allocation(cufftHandle handle, int auto_allocate) {
  std::lock_guard lock(plans_mutex);
  SimPlan* plan = find(handle);
  if (!plan) return CUFFT_INVALID_PLAN;
  plan->auto_allocate = auto_allocate != 0;
  return CUFFT_SUCCESS;
}

FftKind kind_of(int type) {
  switch (type) {
    case CUFFT_R2C:
    case CUFFT_D2Z: return FftKind::RealToComplex;
    case CUFFT_C2R:
    case CUFFT_Z2D: return FftKind::ComplexToReal;
    default: return FftKind::ComplexToComplex;
  }
}

bool known_type(int type) {
  for (int t : {CUFFT_R2C, CUFFT_C2R, CUFFT_C2C, CUFFT_D2Z, CUFFT_Z2D, CUFFT_Z2Z}) {
    if (type == t) return true;
  }
  return false;
}

// The element strides of each axis of an advanced layout: the last axis' is `stride`,
// each other's the next one's times the next embed.
std::vector<int64_t> axis_strides(int rank, const long long* embed, long long stride) {
  std::vector<int64_t> strides(rank);
  strides[rank - 1] = stride;
  for (int k = rank - 1; k-- > 0;) strides[k] = strides[k + 1] * embed[k + 1];
  return strides;
}

cufftResult make_plan_many64(cufftHandle handle, int rank, long long* n, long long* inembed,
                             long long istride, long long idist, long long* onembed,
                             long long ostride, long long odist, int type, long long batch,
                             size_t* work_size) {
  std::lock_guard lock(plans_mutex);
  SimPlan* plan = find(handle);
  if (!plan) return CUFFT_INVALID_PLAN;
  if (!known_type(type)) return 0x3;  // CUFFT_INVALID_TYPE
  // tessera always describes the layout; cuFFT's basic layout (null embeds) is not simulated.
  if (rank < 1 || rank > 3 || !inembed || !onembed || istride < 1 || ostride < 1 ||
      idist < 0 || odist < 0 || batch < 1) {
    return CUFFT_INVALID_VALUE;
  }
  FftCall call;
  call.kind = kind_of(type);
  const std::vector<int64_t> in_strides = axis_strides(rank, inembed, istride);
  const std::vector<int64_t> out_strides = axis_strides(rank, onembed, ostride);
  for (int k = 0; k < rank; ++k) {
    if (n[k] < 1) return 0x8;  // CUFFT_INVALID_SIZE
    const bool last = k == rank - 1;
    const long long half = n[k] / 2 + 1;
    const long long in_length = last && call.kind == FftKind::ComplexToReal ? half : n[k];
    const long long out_length = last && call.kind == FftKind::RealToComplex ? half : n[k];
    if (k > 0 && (inembed[k] < in_length || onembed[k] < out_length)) return CUFFT_INVALID_VALUE;
    call.axes.push_back({n[k], in_strides[k], out_strides[k]});
  }
  if (batch > 1) call.batch.push_back({batch, idist, odist});
  plan->layout = std::move(call);
  plan->type = type;
  plan->made = true;
  // A nominal work area, so that the caller's work-area path runs here too.
  plan->work_size = 256;
  *work_size = plan->work_size;
  return CUFFT_SUCCESS;
}

cufftResult set_work_area(cufftHandle handle, void* work_area) {
  std::lock_guard lock(plans_mutex);
  SimPlan* plan = find(handle);
  if (!plan) return CUFFT_INVALID_PLAN;
  plan->work_area = work_area;
  return CUFFT_SUCCESS;
}

cufftResult set_stream(cufftHandle handle, CUstream stream) {
  std::lock_guard lock(plans_mutex);
  SimPlan* plan = find(handle);
  if (!plan) return CUFFT_INVALID_PLAN;
  plan->stream = stream;
  return CUFFT_SUCCESS;
}

// A view of simulated device memory as a CPU array of `dtype` (FFTW reads its address;
// the layout is the call's).
Array host_view(void* data, DType dtype) {
  return Array(Buffer::wrap(Device::cpu(), data, itemsize(dtype), nullptr), dtype, Dims{1},
               Dims{itemsize(dtype)}, 0);
}

cufftResult execute(cufftHandle handle, int type, void* in, void* out, int direction) {
  FftCall call;
  CUstream stream = nullptr;
  {
    std::lock_guard lock(plans_mutex);
    SimPlan* plan = find(handle);
    if (!plan || !plan->made) return CUFFT_INVALID_PLAN;
    if (plan->type != type || (direction != CUFFT_FORWARD && direction != CUFFT_INVERSE)) {
      return CUFFT_INVALID_VALUE;
    }
    if (!plan->auto_allocate && plan->work_area == nullptr) return CUFFT_INVALID_VALUE;
    call = plan->layout;
    stream = plan->stream;
  }
  const bool single = type == CUFFT_C2C || type == CUFFT_R2C || type == CUFFT_C2R;
  const DType complex = single ? DType::Complex64 : DType::Complex128;
  const DType real = single ? DType::Float32 : DType::Float64;
  const auto alignment = static_cast<uintptr_t>(itemsize(complex));
  for (const void* p : {in, out}) {
    if (reinterpret_cast<uintptr_t>(p) % alignment != 0) return CUFFT_INVALID_VALUE;
  }
  call.forward = direction == CUFFT_FORWARD;
  call.in = host_view(in, call.kind == FftKind::RealToComplex ? real : complex);
  call.out = host_view(out, call.kind == FftKind::ComplexToReal ? real : complex);
  const bool queued = enqueue_host_task(stream, "cufftExec", [call] { cpu_backend().fft(call); });
  return queued ? CUFFT_SUCCESS : CUFFT_EXEC_FAILED;
}

cufftResult exec_c2c(cufftHandle h, void* in, void* out, int direction) {
  return execute(h, CUFFT_C2C, in, out, direction);
}
cufftResult exec_z2z(cufftHandle h, void* in, void* out, int direction) {
  return execute(h, CUFFT_Z2Z, in, out, direction);
}
cufftResult exec_r2c(cufftHandle h, void* in, void* out) {
  return execute(h, CUFFT_R2C, in, out, CUFFT_FORWARD);
}
cufftResult exec_d2z(cufftHandle h, void* in, void* out) {
  return execute(h, CUFFT_D2Z, in, out, CUFFT_FORWARD);
}
cufftResult exec_c2r(cufftHandle h, void* in, void* out) {
  return execute(h, CUFFT_C2R, in, out, CUFFT_INVERSE);
}
cufftResult exec_z2d(cufftHandle h, void* in, void* out) {
  return execute(h, CUFFT_Z2D, in, out, CUFFT_INVERSE);
}

}  // namespace

const CufftApi* simulated_cufft() {
  static const CufftApi api = {"simulated cuFFT", create,       destroy,  set_auto_allocation,
                               make_plan_many64,  set_work_area, set_stream, exec_c2c,
                               exec_r2c,          exec_c2r,      exec_z2z,   exec_d2z,
                               exec_z2d};
  return &api;
}

}  // namespace tessera::cuda
