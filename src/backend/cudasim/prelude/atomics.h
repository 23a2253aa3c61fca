#pragma once
// The CUDA simulator's device runtime, part 4: CUDA's atomic functions, with its overloads
// and semantics (atomicInc wraps, atomicCAS returns the old value ...). Blocks run in
// parallel on several OS threads, so these are real atomics: GCC's __atomic builtins, which
// need no header (<atomic> would double a module's compile time), with a compare-and-swap
// loop where no instruction does the job (floating point, min/max, inc/dec).

#include "backend/cudasim/prelude/sync.h"

namespace __tsim {

// Replaces *address with update(*address) atomically; returns the old value.
template <class T, class Update>
inline T atomic_update(T* address, Update update) {
  T old;
  __atomic_load(address, &old, __ATOMIC_RELAXED);
  T desired = update(old);
  while (!__atomic_compare_exchange(address, &old, &desired, true, __ATOMIC_SEQ_CST,
                                    __ATOMIC_RELAXED)) {
    desired = update(old);
  }
  return old;
}

template <class T>
inline T atomic_add(T* address, T value) {
  if constexpr (std::is_integral_v<T>) {
    return __atomic_fetch_add(address, value, __ATOMIC_SEQ_CST);
  } else {
    return atomic_update(address, [value](T old) { return static_cast<T>(old + value); });
  }
}
template <class T>
inline T atomic_sub(T* address, T value) {
  return __atomic_fetch_sub(address, value, __ATOMIC_SEQ_CST);
}
template <class T>
inline T atomic_exch(T* address, T value) {
  T old;
  __atomic_exchange(address, &value, &old, __ATOMIC_SEQ_CST);
  return old;
}
template <class T>
inline T atomic_min(T* address, T value) {
  return atomic_update(address, [value](T old) { return value < old ? value : old; });
}
template <class T>
inline T atomic_max(T* address, T value) {
  return atomic_update(address, [value](T old) { return value > old ? value : old; });
}
template <class T>
inline T atomic_and(T* address, T value) {
  return __atomic_fetch_and(address, value, __ATOMIC_SEQ_CST);
}
template <class T>
inline T atomic_or(T* address, T value) {
  return __atomic_fetch_or(address, value, __ATOMIC_SEQ_CST);
}
template <class T>
inline T atomic_xor(T* address, T value) {
  return __atomic_fetch_xor(address, value, __ATOMIC_SEQ_CST);
}
TSIM_ON_USE
inline unsigned atomic_inc(unsigned* address, unsigned limit) {
  return atomic_update(address, [limit](unsigned old) { return old >= limit ? 0u : old + 1; });
}
TSIM_ON_USE
inline unsigned atomic_dec(unsigned* address, unsigned limit) {
  return atomic_update(address,
                       [limit](unsigned old) { return old == 0 || old > limit ? limit : old - 1; });
}
template <class T>
inline T atomic_cas(T* address, T compare, T value) {
  __atomic_compare_exchange(address, &compare, &value, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  return compare;
}

}  // namespace __tsim

// Each CUDA overload, in its device-wide, _block and _system forms (one memory here).
#define TSIM_ATOMIC(name, impl, T)                             \
  TSIM_ON_USE inline T name(T* address, T value) {             \
    return ::__tsim::impl(address, value);                     \
  }                                                            \
  TSIM_ON_USE inline T name##_block(T* address, T value) {     \
    return ::__tsim::impl(address, value);                     \
  }                                                            \
  TSIM_ON_USE inline T name##_system(T* address, T value) {    \
    return ::__tsim::impl(address, value);                     \
  }
#define TSIM_ATOMIC_CAS(T)                                                \
  TSIM_ON_USE inline T atomicCAS(T* address, T compare, T value) {        \
    return ::__tsim::atomic_cas(address, compare, value);                 \
  }                                                                       \
  TSIM_ON_USE inline T atomicCAS_block(T* address, T compare, T value) {  \
    return ::__tsim::atomic_cas(address, compare, value);                 \
  }                                                                       \
  TSIM_ON_USE inline T atomicCAS_system(T* address, T compare, T value) { \
    return ::__tsim::atomic_cas(address, compare, value);                 \
  }

TSIM_ATOMIC(atomicAdd, atomic_add, int)
TSIM_ATOMIC(atomicAdd, atomic_add, unsigned)
TSIM_ATOMIC(atomicAdd, atomic_add, unsigned long long)
TSIM_ATOMIC(atomicAdd, atomic_add, float)
TSIM_ATOMIC(atomicAdd, atomic_add, double)
TSIM_ATOMIC(atomicSub, atomic_sub, int)
TSIM_ATOMIC(atomicSub, atomic_sub, unsigned)
TSIM_ATOMIC(atomicExch, atomic_exch, int)
TSIM_ATOMIC(atomicExch, atomic_exch, unsigned)
TSIM_ATOMIC(atomicExch, atomic_exch, unsigned long long)
TSIM_ATOMIC(atomicExch, atomic_exch, float)
TSIM_ATOMIC(atomicMin, atomic_min, int)
TSIM_ATOMIC(atomicMin, atomic_min, unsigned)
TSIM_ATOMIC(atomicMin, atomic_min, unsigned long long)
TSIM_ATOMIC(atomicMin, atomic_min, long long)
TSIM_ATOMIC(atomicMax, atomic_max, int)
TSIM_ATOMIC(atomicMax, atomic_max, unsigned)
TSIM_ATOMIC(atomicMax, atomic_max, unsigned long long)
TSIM_ATOMIC(atomicMax, atomic_max, long long)
TSIM_ATOMIC(atomicInc, atomic_inc, unsigned)
TSIM_ATOMIC(atomicDec, atomic_dec, unsigned)
TSIM_ATOMIC(atomicAnd, atomic_and, int)
TSIM_ATOMIC(atomicAnd, atomic_and, unsigned)
TSIM_ATOMIC(atomicAnd, atomic_and, unsigned long long)
TSIM_ATOMIC(atomicOr, atomic_or, int)
TSIM_ATOMIC(atomicOr, atomic_or, unsigned)
TSIM_ATOMIC(atomicOr, atomic_or, unsigned long long)
TSIM_ATOMIC(atomicXor, atomic_xor, int)
TSIM_ATOMIC(atomicXor, atomic_xor, unsigned)
TSIM_ATOMIC(atomicXor, atomic_xor, unsigned long long)
TSIM_ATOMIC_CAS(int)
TSIM_ATOMIC_CAS(unsigned)
TSIM_ATOMIC_CAS(unsigned long long)
TSIM_ATOMIC_CAS(unsigned short)

#undef TSIM_ATOMIC
#undef TSIM_ATOMIC_CAS
