// FFTs on the CPU through FFTW3's guru interface: any strides, any batch, threaded with
// FFTW's own threads. Plans are made once per layout and kept: FFTW's planner is slow and
// not thread-safe, while executing a plan on new arrays of the same layout is both fast
// and safe from any thread (fftw_execute_dft and friends).

#include <fftw3.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "backend/cpu/cpu_backend.h"
#include "backend/cpu/parallel.h"
#include "backend/fft_call.h"

namespace tessera::cpu {
namespace {

// FFTW's API for one precision.
template <typename Real>
struct Fftw;

template <>
struct Fftw<double> {
  using Plan = fftw_plan;
  using Complex = fftw_complex;
  using IoDim = fftw_iodim64;
  static void init_threads() { fftw_init_threads(); }
  static void set_threads(int n) { fftw_plan_with_nthreads(n); }
  static Plan c2c(int r, const IoDim* d, int hr, const IoDim* h, Complex* i, Complex* o, int s,
                  unsigned f) {
    return fftw_plan_guru64_dft(r, d, hr, h, i, o, s, f);
  }
  static Plan r2c(int r, const IoDim* d, int hr, const IoDim* h, double* i, Complex* o,
                  unsigned f) {
    return fftw_plan_guru64_dft_r2c(r, d, hr, h, i, o, f);
  }
  static Plan c2r(int r, const IoDim* d, int hr, const IoDim* h, Complex* i, double* o,
                  unsigned f) {
    return fftw_plan_guru64_dft_c2r(r, d, hr, h, i, o, f);
  }
  static void run_c2c(Plan p, Complex* i, Complex* o) { fftw_execute_dft(p, i, o); }
  static void run_r2c(Plan p, double* i, Complex* o) { fftw_execute_dft_r2c(p, i, o); }
  static void run_c2r(Plan p, Complex* i, double* o) { fftw_execute_dft_c2r(p, i, o); }
  static int alignment(const void* p) { return fftw_alignment_of(static_cast<double*>(const_cast<void*>(p))); }
};

template <>
struct Fftw<float> {
  using Plan = fftwf_plan;
  using Complex = fftwf_complex;
  using IoDim = fftwf_iodim64;
  static void init_threads() { fftwf_init_threads(); }
  static void set_threads(int n) { fftwf_plan_with_nthreads(n); }
  static Plan c2c(int r, const IoDim* d, int hr, const IoDim* h, Complex* i, Complex* o, int s,
                  unsigned f) {
    return fftwf_plan_guru64_dft(r, d, hr, h, i, o, s, f);
  }
  static Plan r2c(int r, const IoDim* d, int hr, const IoDim* h, float* i, Complex* o,
                  unsigned f) {
    return fftwf_plan_guru64_dft_r2c(r, d, hr, h, i, o, f);
  }
  static Plan c2r(int r, const IoDim* d, int hr, const IoDim* h, Complex* i, float* o,
                  unsigned f) {
    return fftwf_plan_guru64_dft_c2r(r, d, hr, h, i, o, f);
  }
  static void run_c2c(Plan p, Complex* i, Complex* o) { fftwf_execute_dft(p, i, o); }
  static void run_r2c(Plan p, float* i, Complex* o) { fftwf_execute_dft_r2c(p, i, o); }
  static void run_c2r(Plan p, Complex* i, float* o) { fftwf_execute_dft_c2r(p, i, o); }
  static int alignment(const void* p) { return fftwf_alignment_of(static_cast<float*>(const_cast<void*>(p))); }
};

// Everything a plan depends on: the layout, the kind, whether it runs in place, the
// arrays' SIMD alignment (a plan may only be reused on equally aligned arrays) and the
// thread count it was made for.
using PlanKey = std::vector<int64_t>;

PlanKey key_of(const FftCall& c, int in_alignment, int out_alignment, int threads) {
  PlanKey key{static_cast<int64_t>(c.kind), c.forward, c.in.data() == c.out.data(),
              in_alignment, out_alignment, threads, static_cast<int64_t>(c.axes.size())};
  for (const std::vector<FftAxis>* list : {&c.axes, &c.batch}) {
    for (const FftAxis& a : *list) {
      key.push_back(a.n);
      key.push_back(a.in_stride);
      key.push_back(a.out_stride);
    }
  }
  return key;
}

template <typename Real>
class PlanCache {
 public:
  using F = Fftw<Real>;
  using Plan = typename F::Plan;

  static PlanCache& instance() {
    static PlanCache cache;
    return cache;
  }

  Plan get(const FftCall& c) {
    const int threads = num_threads();
    const PlanKey key = key_of(c, F::alignment(c.in.data()), F::alignment(c.out.data()), threads);
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = plans_.find(key);
    if (it != plans_.end()) return it->second;
    F::set_threads(threads);
    Plan plan = make(c);
    if (!plan) throw std::runtime_error("[fft] FFTW could not plan this transform");
    plans_.emplace(key, plan);
    return plan;
  }

 private:
  PlanCache() { F::init_threads(); }

  static std::vector<typename F::IoDim> dims(const std::vector<FftAxis>& axes) {
    std::vector<typename F::IoDim> d;
    for (const FftAxis& a : axes) d.push_back({a.n, a.in_stride, a.out_stride});
    return d;
  }

  // FFTW_ESTIMATE plans from heuristics without touching the arrays (so the caller's
  // data is safe during planning) in microseconds; the complex-to-real transforms may
  // overwrite their input, which the core hands them as a private copy.
  Plan make(const FftCall& c) {
    const auto d = dims(c.axes);
    const auto h = dims(c.batch);
    const int rank = static_cast<int>(d.size()), howmany = static_cast<int>(h.size());
    unsigned flags = FFTW_ESTIMATE;
    void* in = c.in.data();
    void* out = c.out.data();
    switch (c.kind) {
      case FftKind::ComplexToComplex:
        return F::c2c(rank, d.data(), howmany, h.data(), static_cast<typename F::Complex*>(in),
                      static_cast<typename F::Complex*>(out),
                      c.forward ? FFTW_FORWARD : FFTW_BACKWARD, flags | FFTW_PRESERVE_INPUT);
      case FftKind::RealToComplex:
        return F::r2c(rank, d.data(), howmany, h.data(), static_cast<Real*>(in),
                      static_cast<typename F::Complex*>(out), flags | FFTW_PRESERVE_INPUT);
      case FftKind::ComplexToReal:
        return F::c2r(rank, d.data(), howmany, h.data(), static_cast<typename F::Complex*>(in),
                      static_cast<Real*>(out), flags | FFTW_DESTROY_INPUT);
    }
    return nullptr;
  }

  std::mutex mutex_;
  std::map<PlanKey, Plan> plans_;
};

template <typename Real>
void execute(const FftCall& c) {
  using F = Fftw<Real>;
  using C = typename F::Complex;
  auto plan = PlanCache<Real>::instance().get(c);
  switch (c.kind) {
    case FftKind::ComplexToComplex:
      return F::run_c2c(plan, reinterpret_cast<C*>(c.in.data()), reinterpret_cast<C*>(c.out.data()));
    case FftKind::RealToComplex:
      return F::run_r2c(plan, reinterpret_cast<Real*>(c.in.data()),
                        reinterpret_cast<C*>(c.out.data()));
    case FftKind::ComplexToReal:
      return F::run_c2r(plan, reinterpret_cast<C*>(c.in.data()),
                        reinterpret_cast<Real*>(c.out.data()));
  }
}

}  // namespace

void fft(const FftCall& call) {
  const DType complex_side = call.kind == FftKind::RealToComplex ? call.out.dtype() : call.in.dtype();
  if (complex_side == DType::Complex64) {
    execute<float>(call);
  } else {
    execute<double>(call);
  }
}

}  // namespace tessera::cpu
