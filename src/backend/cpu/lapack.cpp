// LAPACK on the CPU: OpenBLAS's LAPACK, called through the Fortran interface (every
// argument by pointer, ILP64 integers, character arguments followed by their hidden
// lengths). Each routine runs once per matrix of the batch; small matrices of a batch are
// spread over the cores, large ones use OpenBLAS's own threads inside each call.

#include <algorithm>
#include <complex>
#include <string>
#include <type_traits>
#include <vector>

#include "backend/cpu/cpu_backend.h"
#include "backend/cpu/openblas.h"
#include "backend/cpu/parallel.h"
#include "backend/matrix_batch.h"
#include "kernels/types.h"

namespace tessera::cpu {
namespace {

using I = blas_int;
using L = size_t;  // a hidden Fortran string length

template <typename T>
struct real_of {
  using type = T;
};
template <typename T>
struct real_of<std::complex<T>> {
  using type = T;
};
template <typename T>
using real_t = typename real_of<T>::type;
template <typename T>
constexpr bool is_complex_v = kernels::is_complex_type<T>::value;

template <typename T>
char prefix() {
  if constexpr (std::is_same_v<T, float>) return 's';
  if constexpr (std::is_same_v<T, double>) return 'd';
  if constexpr (std::is_same_v<T, kernels::complex64>) return 'c';
  return 'z';
}

// The routine `name` ("getrf") for T's precision, as a pointer to the function type Fn.
template <typename T, typename Fn>
Fn routine(const char* name) {
  const std::string symbol = std::string(1, prefix<T>()) + name + "_";
  return reinterpret_cast<Fn>(openblas_symbol(symbol.c_str()));
}

template <typename T>
T* matrix(const MatrixBatch& m, int64_t i) {
  return reinterpret_cast<T*>(m.a.data()) + i * m.stride;
}

template <typename T>
T* row(const Array& a, int64_t i, int64_t width) {
  return reinterpret_cast<T*>(a.data()) + i * width;
}

int64_t* info_of(const Array& info, int64_t i) { return reinterpret_cast<int64_t*>(info.data()) + i; }

// Runs body(i) for each matrix of the batch: in parallel when they are small enough that
// OpenBLAS would run each on one thread anyway.
void for_each_matrix(int64_t batch, int64_t n, const std::function<void(int64_t)>& body) {
  const int64_t grain = n <= 96 ? 1 : batch;
  parallel_for(batch, grain, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) body(i);
  });
}

// The optimal workspace size that a LAPACK query (lwork = -1) wrote into `w`.
template <typename T>
I workspace_size(T w) {
  return std::max<I>(1, static_cast<I>(std::real(w)));
}

// LU factors of one rows x cols matrix in place (getrf), with its 1-based pivots.
template <typename T>
void getrf_one(I rows, I cols, T* a, I ld, I* pivots, I* info) {
  using Fn = void (*)(const I*, const I*, T*, const I*, I*, I*);
  static const Fn getrf = routine<T, Fn>("getrf");
  getrf(&rows, &cols, a, &ld, pivots, info);
}

// One system a x = b solved in place (gesv): x overwrites b, the LU factors a. The pivots
// of the usual small orders live on the stack.
template <typename T>
void gesv_one(I n, I nrhs, T* a, I lda, T* b, I ldb, I* info) {
  using Fn = void (*)(const I*, const I*, T*, const I*, I*, T*, const I*, I*);
  static const Fn gesv = routine<T, Fn>("gesv");
  constexpr I kOnStack = 64;
  I stack_pivots[kOnStack];
  std::vector<I> heap_pivots(n > kOnStack ? n : 0);
  gesv(&n, &nrhs, a, &lda, n > kOnStack ? heap_pivots.data() : stack_pivots, b, &ldb, info);
}

template <typename T>
void lu_factor_t(const MatrixBatch& a, const Array& pivots, const Array& info) {
  const int64_t k = std::min(a.rows, a.cols);
  for_each_matrix(a.batch, a.rows, [&](int64_t i) {
    getrf_one<T>(a.rows, a.cols, matrix<T>(a, i), a.ld, row<I>(pivots, i, k), info_of(info, i));
  });
}

template <typename T>
void solve_t(const MatrixBatch& a, const MatrixBatch& b, const Array& info) {
  for_each_matrix(a.batch, a.rows, [&](int64_t i) {
    gesv_one<T>(a.rows, b.cols, matrix<T>(a, i), a.ld, matrix<T>(b, i), b.ld, info_of(info, i));
  });
}

template <typename T>
void cholesky_t(const MatrixBatch& a, bool upper, const Array& info) {
  using Fn = void (*)(const char*, const I*, T*, const I*, I*, L);
  static const Fn potrf = routine<T, Fn>("potrf");
  const char uplo = upper ? 'U' : 'L';
  for_each_matrix(a.batch, a.rows, [&](int64_t i) {
    potrf(&uplo, &a.rows, matrix<T>(a, i), &a.ld, info_of(info, i), 1);
  });
}

template <typename T>
void qr_t(const MatrixBatch& a, const Array& tau, const Array& info) {
  using Fn = void (*)(const I*, const I*, T*, const I*, T*, T*, const I*, I*);
  static const Fn geqrf = routine<T, Fn>("geqrf");
  const int64_t k = std::min(a.rows, a.cols);
  for_each_matrix(a.batch, a.rows, [&](int64_t i) {
    T query{};
    const I ask = -1;
    geqrf(&a.rows, &a.cols, matrix<T>(a, i), &a.ld, row<T>(tau, i, k), &query, &ask,
          info_of(info, i));
    const I lwork = workspace_size(query);
    std::vector<T> work(lwork);
    geqrf(&a.rows, &a.cols, matrix<T>(a, i), &a.ld, row<T>(tau, i, k), work.data(), &lwork,
          info_of(info, i));
  });
}

template <typename T>
void qr_q_t(const MatrixBatch& q, const Array& tau, int64_t reflectors, const Array& info) {
  using Fn = void (*)(const I*, const I*, const I*, T*, const I*, const T*, T*, const I*, I*);
  static const Fn orgqr = routine<T, Fn>(is_complex_v<T> ? "ungqr" : "orgqr");
  for_each_matrix(q.batch, q.rows, [&](int64_t i) {
    T query{};
    const I ask = -1;
    const T* t = row<T>(tau, i, reflectors);
    orgqr(&q.rows, &q.cols, &reflectors, matrix<T>(q, i), &q.ld, t, &query, &ask,
          info_of(info, i));
    const I lwork = workspace_size(query);
    std::vector<T> work(lwork);
    orgqr(&q.rows, &q.cols, &reflectors, matrix<T>(q, i), &q.ld, t, work.data(), &lwork,
          info_of(info, i));
  });
}

// gesdd: jobz 'N' (values only), 'S' (the min(m, n) singular vectors) or 'A' (all).
template <typename T>
void svd_t(const MatrixBatch& a, const Array& s, const MatrixBatch* u, const MatrixBatch* vt,
           bool full, const Array& info) {
  using R = real_t<T>;
  const char jobz = u == nullptr ? 'N' : (full ? 'A' : 'S');
  const int64_t m = a.rows, n = a.cols, k = std::min(m, n);
  const I one = 1;
  for_each_matrix(a.batch, std::max(m, n), [&](int64_t i) {
    T* pu = u ? matrix<T>(*u, i) : nullptr;
    T* pvt = vt ? matrix<T>(*vt, i) : nullptr;
    const I* ldu = u ? &u->ld : &one;
    const I* ldvt = vt ? &vt->ld : &one;
    std::vector<I> iwork(std::max<int64_t>(8 * k, 1));
    T query{};
    const I ask = -1;
    if constexpr (is_complex_v<T>) {
      using Fn = void (*)(const char*, const I*, const I*, T*, const I*, R*, T*, const I*, T*,
                          const I*, T*, const I*, R*, I*, I*, L);
      static const Fn gesdd = routine<T, Fn>("gesdd");
      const int64_t mx = std::max(m, n);
      const int64_t lrwork = jobz == 'N' ? 7 * k : std::max<int64_t>(
          5 * k * k + 5 * k, 2 * mx * k + 2 * k * k + k);
      std::vector<R> rwork(std::max<int64_t>(lrwork, 1));
      gesdd(&jobz, &m, &n, matrix<T>(a, i), &a.ld, row<R>(s, i, k), pu, ldu, pvt, ldvt,
            &query, &ask, rwork.data(), iwork.data(), info_of(info, i), 1);
      const I lwork = workspace_size(query);
      std::vector<T> work(lwork);
      gesdd(&jobz, &m, &n, matrix<T>(a, i), &a.ld, row<R>(s, i, k), pu, ldu, pvt, ldvt,
            work.data(), &lwork, rwork.data(), iwork.data(), info_of(info, i), 1);
    } else {
      using Fn = void (*)(const char*, const I*, const I*, T*, const I*, T*, T*, const I*, T*,
                          const I*, T*, const I*, I*, I*, L);
      static const Fn gesdd = routine<T, Fn>("gesdd");
      gesdd(&jobz, &m, &n, matrix<T>(a, i), &a.ld, row<T>(s, i, k), pu, ldu, pvt, ldvt,
            &query, &ask, iwork.data(), info_of(info, i), 1);
      const I lwork = workspace_size(query);
      std::vector<T> work(lwork);
      gesdd(&jobz, &m, &n, matrix<T>(a, i), &a.ld, row<T>(s, i, k), pu, ldu, pvt, ldvt,
            work.data(), &lwork, iwork.data(), info_of(info, i), 1);
    }
  });
}

// syevd / heevd: the eigenvalues ascending into w, the eigenvectors over a when `vectors`.
template <typename T>
void eigh_t(const MatrixBatch& a, const Array& w, bool vectors, bool upper,
            const Array& info) {
  using R = real_t<T>;
  const char jobz = vectors ? 'V' : 'N', uplo = upper ? 'U' : 'L';
  const int64_t n = a.rows;
  for_each_matrix(a.batch, n, [&](int64_t i) {
    T query{};
    I iquery = 0;
    const I ask = -1;
    R* values = row<R>(w, i, n);
    if constexpr (is_complex_v<T>) {
      using Fn = void (*)(const char*, const char*, const I*, T*, const I*, R*, T*, const I*,
                          R*, const I*, I*, const I*, I*, L, L);
      static const Fn heevd = routine<T, Fn>("heevd");
      R rquery{};
      heevd(&jobz, &uplo, &n, matrix<T>(a, i), &a.ld, values, &query, &ask, &rquery, &ask,
            &iquery, &ask, info_of(info, i), 1, 1);
      const I lwork = workspace_size(query), lrwork = workspace_size(rquery);
      const I liwork = std::max<I>(1, iquery);
      std::vector<T> work(lwork);
      std::vector<R> rwork(lrwork);
      std::vector<I> iwork(liwork);
      heevd(&jobz, &uplo, &n, matrix<T>(a, i), &a.ld, values, work.data(), &lwork,
            rwork.data(), &lrwork, iwork.data(), &liwork, info_of(info, i), 1, 1);
    } else {
      using Fn = void (*)(const char*, const char*, const I*, T*, const I*, T*, T*, const I*,
                          I*, const I*, I*, L, L);
      static const Fn syevd = routine<T, Fn>("syevd");
      syevd(&jobz, &uplo, &n, matrix<T>(a, i), &a.ld, values, &query, &ask, &iquery, &ask,
            info_of(info, i), 1, 1);
      const I lwork = workspace_size(query), liwork = std::max<I>(1, iquery);
      std::vector<T> work(lwork);
      std::vector<I> iwork(liwork);
      syevd(&jobz, &uplo, &n, matrix<T>(a, i), &a.ld, values, work.data(), &lwork,
            iwork.data(), &liwork, info_of(info, i), 1, 1);
    }
  });
}

// geev: the eigenvalues into w (complex) and the right eigenvectors into v (complex,
// column-major) when given. A real matrix's complex pairs come back as wr ± i·wi with
// the vectors' real and imaginary parts in two adjacent columns; they are unpacked here.
template <typename T>
void eig_t(const MatrixBatch& a, const Array& w, const MatrixBatch* v, const Array& info) {
  using R = real_t<T>;
  using C = std::complex<R>;
  const char jobvl = 'N', jobvr = v ? 'V' : 'N';
  const int64_t n = a.rows;
  const I one = 1;
  for_each_matrix(a.batch, n, [&](int64_t i) {
    T query{};
    const I ask = -1;
    C* values = row<C>(w, i, n);
    const I ldvr = std::max<int64_t>(n, 1);
    if constexpr (is_complex_v<T>) {
      using Fn = void (*)(const char*, const char*, const I*, T*, const I*, T*, T*, const I*,
                          T*, const I*, T*, const I*, R*, I*, L, L);
      static const Fn geev = routine<T, Fn>("geev");
      std::vector<R> rwork(std::max<int64_t>(2 * n, 1));
      T* vr = v ? matrix<T>(*v, i) : nullptr;
      geev(&jobvl, &jobvr, &n, matrix<T>(a, i), &a.ld, values, nullptr, &one, vr, &ldvr,
           &query, &ask, rwork.data(), info_of(info, i), 1, 1);
      const I lwork = workspace_size(query);
      std::vector<T> work(lwork);
      geev(&jobvl, &jobvr, &n, matrix<T>(a, i), &a.ld, values, nullptr, &one, vr, &ldvr,
           work.data(), &lwork, rwork.data(), info_of(info, i), 1, 1);
    } else {
      using Fn = void (*)(const char*, const char*, const I*, T*, const I*, T*, T*, T*,
                          const I*, T*, const I*, T*, const I*, I*, L, L);
      static const Fn geev = routine<T, Fn>("geev");
      std::vector<T> wr(std::max<int64_t>(n, 1)), wi(std::max<int64_t>(n, 1));
      std::vector<T> vr(v ? std::max<int64_t>(n * n, 1) : 1);
      geev(&jobvl, &jobvr, &n, matrix<T>(a, i), &a.ld, wr.data(), wi.data(), nullptr, &one,
           vr.data(), &ldvr, &query, &ask, info_of(info, i), 1, 1);
      const I lwork = workspace_size(query);
      std::vector<T> work(lwork);
      geev(&jobvl, &jobvr, &n, matrix<T>(a, i), &a.ld, wr.data(), wi.data(), nullptr, &one,
           vr.data(), &ldvr, work.data(), &lwork, info_of(info, i), 1, 1);
      for (int64_t j = 0; j < n; ++j) values[j] = C(wr[j], wi[j]);
      if (!v) return;
      C* out = matrix<C>(*v, i);
      for (int64_t j = 0; j < n; ++j) {
        const T* re = vr.data() + j * n;
        if (wi[j] != 0 && j + 1 < n) {
          const T* im = re + n;
          for (int64_t r = 0; r < n; ++r) {
            out[r + j * v->ld] = C(re[r], im[r]);
            out[r + (j + 1) * v->ld] = C(re[r], -im[r]);
          }
          ++j;
        } else {
          for (int64_t r = 0; r < n; ++r) out[r + j * v->ld] = C(re[r], 0);
        }
      }
    }
  });
}

// gelsd: the minimum-norm least-squares solution over b's first a.cols rows, the
// singular values into s and the effective rank into rank.
template <typename T>
void lstsq_t(const MatrixBatch& a, const MatrixBatch& b, const Array& s, const Array& rank,
             double rcond, const Array& info) {
  using R = real_t<T>;
  const int64_t m = a.rows, n = a.cols, k = std::min(m, n);
  const R cond = static_cast<R>(rcond);
  for_each_matrix(a.batch, std::max(m, n), [&](int64_t i) {
    T query{};
    I iquery = 0;
    const I ask = -1;
    R* values = row<R>(s, i, k);
    I* r = row<I>(rank, i, 1);
    if constexpr (is_complex_v<T>) {
      using Fn = void (*)(const I*, const I*, const I*, T*, const I*, T*, const I*, R*,
                          const R*, I*, T*, const I*, R*, I*, I*);
      static const Fn gelsd = routine<T, Fn>("gelsd");
      R rquery{};
      gelsd(&m, &n, &b.cols, matrix<T>(a, i), &a.ld, matrix<T>(b, i), &b.ld, values, &cond, r,
            &query, &ask, &rquery, &iquery, info_of(info, i));
      const I lwork = workspace_size(query);
      std::vector<T> work(lwork);
      std::vector<R> rwork(std::max<I>(1, static_cast<I>(rquery)));
      std::vector<I> iwork(std::max<I>(1, iquery));
      gelsd(&m, &n, &b.cols, matrix<T>(a, i), &a.ld, matrix<T>(b, i), &b.ld, values, &cond, r,
            work.data(), &lwork, rwork.data(), iwork.data(), info_of(info, i));
    } else {
      using Fn = void (*)(const I*, const I*, const I*, T*, const I*, T*, const I*, T*,
                          const T*, I*, T*, const I*, I*, I*);
      static const Fn gelsd = routine<T, Fn>("gelsd");
      gelsd(&m, &n, &b.cols, matrix<T>(a, i), &a.ld, matrix<T>(b, i), &b.ld, values, &cond, r,
            &query, &ask, &iquery, info_of(info, i));
      const I lwork = workspace_size(query);
      std::vector<T> work(lwork);
      std::vector<I> iwork(std::max<I>(1, iquery));
      gelsd(&m, &n, &b.cols, matrix<T>(a, i), &a.ld, matrix<T>(b, i), &b.ld, values, &cond, r,
            work.data(), &lwork, iwork.data(), info_of(info, i));
    }
  });
}

// Calls f(T{}) for the LAPACK type of `dtype` (float32/64, complex64/128).
template <typename F>
void visit_lapack_dtype(DType dtype, F&& f) {
  switch (dtype) {
    case DType::Float32: return f(float{});
    case DType::Float64: return f(double{});
    case DType::Complex64: return f(kernels::complex64{});
    case DType::Complex128: return f(kernels::complex128{});
    default:
      throw std::logic_error("[linalg] LAPACK called with " + std::string(dtype_name(dtype)));
  }
}

}  // namespace

void lu_factor(const MatrixBatch& a, const Array& pivots, const Array& info) {
  visit_lapack_dtype(a.a.dtype(), [&](auto t) { lu_factor_t<decltype(t)>(a, pivots, info); });
}
void solve(const MatrixBatch& a, const MatrixBatch& b, const Array& info) {
  visit_lapack_dtype(a.a.dtype(), [&](auto t) { solve_t<decltype(t)>(a, b, info); });
}
int64_t solve_column_major(DType dtype, int64_t n, int64_t nrhs, void* a, void* b) {
  int64_t info = 0;
  const I ld = std::max<I>(n, 1);
  visit_lapack_dtype(dtype, [&](auto t) {
    using T = decltype(t);
    gesv_one<T>(n, nrhs, static_cast<T*>(a), ld, static_cast<T*>(b), ld, &info);
  });
  return info;
}
int64_t lu_factor_column_major(DType dtype, int64_t n, void* a, int64_t* pivots) {
  int64_t info = 0;
  visit_lapack_dtype(dtype, [&](auto t) {
    using T = decltype(t);
    getrf_one<T>(n, n, static_cast<T*>(a), std::max<I>(n, 1), pivots, &info);
  });
  return info;
}
void cholesky(const MatrixBatch& a, bool upper, const Array& info) {
  visit_lapack_dtype(a.a.dtype(), [&](auto t) { cholesky_t<decltype(t)>(a, upper, info); });
}
void qr(const MatrixBatch& a, const Array& tau, const Array& info) {
  visit_lapack_dtype(a.a.dtype(), [&](auto t) { qr_t<decltype(t)>(a, tau, info); });
}
void qr_q(const MatrixBatch& q, const Array& tau, int64_t reflectors, const Array& info) {
  visit_lapack_dtype(q.a.dtype(), [&](auto t) { qr_q_t<decltype(t)>(q, tau, reflectors, info); });
}
void svd(const MatrixBatch& a, const Array& s, const MatrixBatch* u, const MatrixBatch* vt,
         bool full, const Array& info) {
  visit_lapack_dtype(a.a.dtype(), [&](auto t) { svd_t<decltype(t)>(a, s, u, vt, full, info); });
}
void eigh(const MatrixBatch& a, const Array& w, bool vectors, bool upper, const Array& info) {
  visit_lapack_dtype(a.a.dtype(), [&](auto t) { eigh_t<decltype(t)>(a, w, vectors, upper, info); });
}
void eig(const MatrixBatch& a, const Array& w, const MatrixBatch* v, const Array& info) {
  visit_lapack_dtype(a.a.dtype(), [&](auto t) { eig_t<decltype(t)>(a, w, v, info); });
}
void lstsq(const MatrixBatch& a, const MatrixBatch& b, const Array& s, const Array& rank,
           double rcond, const Array& info) {
  visit_lapack_dtype(a.a.dtype(), [&](auto t) { lstsq_t<decltype(t)>(a, b, s, rank, rcond, info); });
}

}  // namespace tessera::cpu
