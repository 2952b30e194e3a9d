// The __kmpc_atomic_* entry points: exactly the 340 that Debian's libomp 19 exports on
// x86-64 (tests/omp/atomic_exports checks the two lists against each other). The
// operations themselves, their semantics and the lock-free / striped-lock split are in
// sync/atomic.hpp. Signatures follow kmp_atomic.h: every entry point starts with
// (ident_t *id_ref, int gtid, ...); neither argument is needed here.
#include "ompt/events.hpp"
#include "sync/atomic.hpp"

#define LOOM_OMP_ABI extern "C" __attribute__((visibility("default")))

namespace la = loom::omp::atomics;
struct ident;  // ident_t: source location, unused here

using la::cmplx10;
using la::cmplx4;
using la::cmplx8;

// ---- one entry point per form ----------------------------------------------------------

// void __kmpc_atomic_<type>_<op>(ident_t*, int gtid, T *lhs, R rhs):  *lhs = *lhs op rhs
#define LOOM_ATOMIC_OP(NAME, OP, T, R, OPCLASS)                                             \
    LOOM_OMP_ABI void __kmpc_atomic_##NAME##_##OP(ident*, int, T* lhs, R rhs) {            \
        (void)la::update<la::OPCLASS>(lhs, rhs);                                            \
    }

// T __kmpc_atomic_<type>_<op>_cpt(ident_t*, int gtid, T *lhs, T rhs, int flag)
#define LOOM_ATOMIC_CPT(NAME, OP, T, OPCLASS)                                               \
    LOOM_OMP_ABI T __kmpc_atomic_##NAME##_##OP##_cpt(ident*, int, T* lhs, T rhs, int flag) { \
        const auto r = la::update<la::OPCLASS>(lhs, rhs);                                   \
        return flag ? r.new_value : r.old_value;                                            \
    }

// void __kmpc_atomic_<type>_<op>_rev(ident_t*, int gtid, T *lhs, T rhs):  *lhs = rhs op *lhs
#define LOOM_ATOMIC_REV(NAME, OP, T, OPCLASS)                                               \
    LOOM_OMP_ABI void __kmpc_atomic_##NAME##_##OP##_rev(ident*, int, T* lhs, T rhs) {      \
        (void)la::update<la::reversed<la::OPCLASS>>(lhs, rhs);                              \
    }

// T __kmpc_atomic_<type>_<op>_cpt_rev(ident_t*, int gtid, T *lhs, T rhs, int flag)
#define LOOM_ATOMIC_CPT_REV(NAME, OP, T, OPCLASS)                                           \
    LOOM_OMP_ABI T __kmpc_atomic_##NAME##_##OP##_cpt_rev(ident*, int, T* lhs, T rhs,       \
                                                          int flag) {                       \
        const auto r = la::update<la::reversed<la::OPCLASS>>(lhs, rhs);                     \
        return flag ? r.new_value : r.old_value;                                            \
    }

#define LOOM_ATOMIC_OP_CPT(NAME, OP, T, OPCLASS)                                            \
    LOOM_ATOMIC_OP(NAME, OP, T, T, OPCLASS)                                                 \
    LOOM_ATOMIC_CPT(NAME, OP, T, OPCLASS)

#define LOOM_ATOMIC_REV_CPT_REV(NAME, OP, T, OPCLASS)                                       \
    LOOM_ATOMIC_REV(NAME, OP, T, OPCLASS)                                                   \
    LOOM_ATOMIC_CPT_REV(NAME, OP, T, OPCLASS)

// max / min and their captures: the store happens only when it changes the value.
#define LOOM_ATOMIC_MIN_MAX(NAME, T)                                                        \
    LOOM_OMP_ABI void __kmpc_atomic_##NAME##_max(ident*, int, T* lhs, T rhs) {             \
        (void)la::update_extreme<true>(lhs, rhs);                                           \
    }                                                                                       \
    LOOM_OMP_ABI void __kmpc_atomic_##NAME##_min(ident*, int, T* lhs, T rhs) {             \
        (void)la::update_extreme<false>(lhs, rhs);                                          \
    }                                                                                       \
    LOOM_OMP_ABI T __kmpc_atomic_##NAME##_max_cpt(ident*, int, T* lhs, T rhs, int flag) {  \
        const auto r = la::update_extreme<true>(lhs, rhs);                                  \
        return flag ? r.new_value : r.old_value;                                            \
    }                                                                                       \
    LOOM_OMP_ABI T __kmpc_atomic_##NAME##_min_cpt(ident*, int, T* lhs, T rhs, int flag) {  \
        const auto r = la::update_extreme<false>(lhs, rhs);                                 \
        return flag ? r.new_value : r.old_value;                                            \
    }

// T _rd(ident_t*, int, T *loc); void _wr(ident_t*, int, T *lhs, T rhs);
// T _swp(ident_t*, int, T *lhs, T rhs) returns the old value.
#define LOOM_ATOMIC_RD_WR_SWP(NAME, T)                                                      \
    LOOM_OMP_ABI T __kmpc_atomic_##NAME##_rd(ident*, int, T* loc) { return la::read(loc); } \
    LOOM_OMP_ABI void __kmpc_atomic_##NAME##_wr(ident*, int, T* lhs, T rhs) {              \
        la::write(lhs, rhs);                                                                \
    }                                                                                       \
    LOOM_OMP_ABI T __kmpc_atomic_##NAME##_swp(ident*, int, T* lhs, T rhs) {                \
        return la::swap(lhs, rhs);                                                          \
    }

// ---- integer types: fixed1/2/4/8 and their unsigned forms -------------------------------

#define LOOM_ATOMIC_FIXED(NAME, T, UNAME, UT)                                               \
    LOOM_ATOMIC_OP_CPT(NAME, add, T, op_add)                                                \
    LOOM_ATOMIC_OP_CPT(NAME, sub, T, op_sub)                                                \
    LOOM_ATOMIC_OP_CPT(NAME, mul, T, op_mul)                                                \
    LOOM_ATOMIC_OP_CPT(NAME, div, T, op_div)                                                \
    LOOM_ATOMIC_OP_CPT(NAME, andb, T, op_andb)                                              \
    LOOM_ATOMIC_OP_CPT(NAME, orb, T, op_orb)                                                \
    LOOM_ATOMIC_OP_CPT(NAME, xor, T, op_xor)                                                \
    LOOM_ATOMIC_OP_CPT(NAME, shl, T, op_shl)                                                \
    LOOM_ATOMIC_OP_CPT(NAME, shr, T, op_shr)                                                \
    LOOM_ATOMIC_OP_CPT(NAME, andl, T, op_andl)                                              \
    LOOM_ATOMIC_OP_CPT(NAME, orl, T, op_orl)                                                \
    LOOM_ATOMIC_OP_CPT(NAME, eqv, T, op_eqv)                                                \
    LOOM_ATOMIC_OP_CPT(NAME, neqv, T, op_neqv)                                              \
    LOOM_ATOMIC_MIN_MAX(NAME, T)                                                            \
    LOOM_ATOMIC_REV_CPT_REV(NAME, sub, T, op_sub)                                           \
    LOOM_ATOMIC_REV_CPT_REV(NAME, div, T, op_div)                                           \
    LOOM_ATOMIC_REV_CPT_REV(NAME, shl, T, op_shl)                                           \
    LOOM_ATOMIC_REV_CPT_REV(NAME, shr, T, op_shr)                                           \
    LOOM_ATOMIC_RD_WR_SWP(NAME, T)                                                          \
    LOOM_ATOMIC_OP(NAME, mul_float8, T, double, op_mul)                                     \
    LOOM_ATOMIC_OP(NAME, div_float8, T, double, op_div)                                     \
    LOOM_ATOMIC_OP_CPT(UNAME, div, UT, op_div)                                              \
    LOOM_ATOMIC_OP_CPT(UNAME, shr, UT, op_shr)                                              \
    LOOM_ATOMIC_REV_CPT_REV(UNAME, div, UT, op_div)                                         \
    LOOM_ATOMIC_REV_CPT_REV(UNAME, shr, UT, op_shr)

LOOM_ATOMIC_FIXED(fixed1, std::int8_t, fixed1u, std::uint8_t)
LOOM_ATOMIC_FIXED(fixed2, std::int16_t, fixed2u, std::uint16_t)
LOOM_ATOMIC_FIXED(fixed4, std::int32_t, fixed4u, std::uint32_t)
LOOM_ATOMIC_FIXED(fixed8, std::int64_t, fixed8u, std::uint64_t)

// ---- floating types: float4 (float), float8 (double), float10 (long double) -------------

#define LOOM_ATOMIC_FLOAT(NAME, T)                                                          \
    LOOM_ATOMIC_OP_CPT(NAME, add, T, op_add)                                                \
    LOOM_ATOMIC_OP_CPT(NAME, sub, T, op_sub)                                                \
    LOOM_ATOMIC_OP_CPT(NAME, mul, T, op_mul)                                                \
    LOOM_ATOMIC_OP_CPT(NAME, div, T, op_div)                                                \
    LOOM_ATOMIC_MIN_MAX(NAME, T)                                                            \
    LOOM_ATOMIC_REV_CPT_REV(NAME, sub, T, op_sub)                                           \
    LOOM_ATOMIC_REV_CPT_REV(NAME, div, T, op_div)                                           \
    LOOM_ATOMIC_RD_WR_SWP(NAME, T)

LOOM_ATOMIC_FLOAT(float4, float)
LOOM_ATOMIC_FLOAT(float8, double)
LOOM_ATOMIC_FLOAT(float10, long double)

// float4 with a double right-hand side: computed in double, stored rounded to float.
LOOM_ATOMIC_OP(float4, add_float8, float, double, op_add)
LOOM_ATOMIC_OP(float4, sub_float8, float, double, op_sub)
LOOM_ATOMIC_OP(float4, mul_float8, float, double, op_mul)
LOOM_ATOMIC_OP(float4, div_float8, float, double, op_div)

// ---- complex types: cmplx4 (_Complex float), cmplx8, cmplx10 ----------------------------

// cmplx8 and cmplx10 return their captures by value.
#define LOOM_ATOMIC_CMPLX(NAME, T)                                                          \
    LOOM_ATOMIC_OP_CPT(NAME, add, T, op_add)                                                \
    LOOM_ATOMIC_OP_CPT(NAME, sub, T, op_sub)                                                \
    LOOM_ATOMIC_OP_CPT(NAME, mul, T, op_mul)                                                \
    LOOM_ATOMIC_OP_CPT(NAME, div, T, op_div)                                                \
    LOOM_ATOMIC_REV_CPT_REV(NAME, sub, T, op_sub)                                           \
    LOOM_ATOMIC_REV_CPT_REV(NAME, div, T, op_div)                                           \
    LOOM_ATOMIC_RD_WR_SWP(NAME, T)

LOOM_ATOMIC_CMPLX(cmplx8, cmplx8)
LOOM_ATOMIC_CMPLX(cmplx10, cmplx10)

// cmplx4 is libomp's special case: its captures and swap return void and write the
// captured value through an extra `out` argument; its read returns by value on Linux.
#define LOOM_ATOMIC_CMPLX4_CPT(OP, OPCLASS)                                                 \
    LOOM_ATOMIC_OP(cmplx4, OP, cmplx4, cmplx4, OPCLASS)                                     \
    LOOM_OMP_ABI void __kmpc_atomic_cmplx4_##OP##_cpt(ident*, int, cmplx4* lhs, cmplx4 rhs, \
                                                      cmplx4* out, int flag) {              \
        const auto r = la::update<la::OPCLASS>(lhs, rhs);                                   \
        *out = flag ? r.new_value : r.old_value;                                            \
    }
#define LOOM_ATOMIC_CMPLX4_CPT_REV(OP, OPCLASS)                                             \
    LOOM_ATOMIC_REV(cmplx4, OP, cmplx4, OPCLASS)                                            \
    LOOM_OMP_ABI void __kmpc_atomic_cmplx4_##OP##_cpt_rev(ident*, int, cmplx4* lhs,         \
                                                          cmplx4 rhs, cmplx4* out,          \
                                                          int flag) {                       \
        const auto r = la::update<la::reversed<la::OPCLASS>>(lhs, rhs);                     \
        *out = flag ? r.new_value : r.old_value;                                            \
    }

LOOM_ATOMIC_CMPLX4_CPT(add, op_add)
LOOM_ATOMIC_CMPLX4_CPT(sub, op_sub)
LOOM_ATOMIC_CMPLX4_CPT(mul, op_mul)
LOOM_ATOMIC_CMPLX4_CPT(div, op_div)
LOOM_ATOMIC_CMPLX4_CPT_REV(sub, op_sub)
LOOM_ATOMIC_CMPLX4_CPT_REV(div, op_div)

LOOM_OMP_ABI cmplx4 __kmpc_atomic_cmplx4_rd(ident*, int, cmplx4* loc) { return la::read(loc); }
LOOM_OMP_ABI void __kmpc_atomic_cmplx4_wr(ident*, int, cmplx4* lhs, cmplx4 rhs) {
    la::write(lhs, rhs);
}
LOOM_OMP_ABI void __kmpc_atomic_cmplx4_swp(ident*, int, cmplx4* lhs, cmplx4 rhs, cmplx4* out) {
    *out = la::swap(lhs, rhs);
}

// cmplx4 with a cmplx8 right-hand side: computed in double precision.
LOOM_ATOMIC_OP(cmplx4, add_cmplx8, cmplx4, cmplx8, op_add)
LOOM_ATOMIC_OP(cmplx4, sub_cmplx8, cmplx4, cmplx8, op_sub)
LOOM_ATOMIC_OP(cmplx4, mul_cmplx8, cmplx4, cmplx8, op_mul)
LOOM_ATOMIC_OP(cmplx4, div_cmplx8, cmplx4, cmplx8, op_div)

// ---- compare-and-swap (OpenMP 5.1 `atomic compare`), 1/2/4/8 bytes -----------------------
//   bool _bool_N_cas(ident_t*, int, T *x, T e, T d)             x == e ? (x = d, true) : false
//   T    _val_N_cas(ident_t*, int, T *x, T e, T d)              returns the old x
//   bool _bool_N_cas_cpt(ident_t*, int, T *x, T e, T d, T *pv)  on failure *pv = old x
//   T    _val_N_cas_cpt(ident_t*, int, T *x, T e, T d, T *pv)   *pv = new x; returns old x

#define LOOM_ATOMIC_CAS(N, T)                                                               \
    LOOM_OMP_ABI bool __kmpc_atomic_bool_##N##_cas(ident*, int, T* x, T e, T d) {          \
        return la::compare_exchange(x, e, d) == e;                                          \
    }                                                                                       \
    LOOM_OMP_ABI T __kmpc_atomic_val_##N##_cas(ident*, int, T* x, T e, T d) {              \
        return la::compare_exchange(x, e, d);                                               \
    }                                                                                       \
    LOOM_OMP_ABI bool __kmpc_atomic_bool_##N##_cas_cpt(ident*, int, T* x, T e, T d, T* pv) { \
        const T old = la::compare_exchange(x, e, d);                                        \
        if (old == e) return true;                                                          \
        *pv = old;                                                                          \
        return false;                                                                       \
    }                                                                                       \
    LOOM_OMP_ABI T __kmpc_atomic_val_##N##_cas_cpt(ident*, int, T* x, T e, T d, T* pv) {   \
        const T old = la::compare_exchange(x, e, d);                                        \
        *pv = old == e ? d : old;                                                           \
        return old;                                                                         \
    }

LOOM_ATOMIC_CAS(1, std::int8_t)
LOOM_ATOMIC_CAS(2, std::int16_t)
LOOM_ATOMIC_CAS(4, std::int32_t)
LOOM_ATOMIC_CAS(8, std::int64_t)

// ---- generic forms: void __kmpc_atomic_N(ident_t*, int, void *lhs, void *rhs,
//                                          void (*f)(void *out, void *a, void *b)) ----------

#define LOOM_ATOMIC_GENERIC(N)                                                              \
    LOOM_OMP_ABI void __kmpc_atomic_##N(ident*, int, void* lhs, void* rhs,                 \
                                        void (*f)(void*, void*, void*)) {                   \
        la::generic_update<N>(lhs, rhs, f);                                                 \
    }

LOOM_ATOMIC_GENERIC(1)
LOOM_ATOMIC_GENERIC(2)
LOOM_ATOMIC_GENERIC(4)
LOOM_ATOMIC_GENERIC(8)
LOOM_ATOMIC_GENERIC(10)
LOOM_ATOMIC_GENERIC(16)
LOOM_ATOMIC_GENERIC(20)
LOOM_ATOMIC_GENERIC(32)

// ---- an atomic region the compiler could not express: one global lock -------------------

// With a tool, the lock's mutex events (kind atomic), as libomp reports them.
LOOM_OMP_ABI void __kmpc_atomic_start(void) {
    LOOM_OMPT_EVENT(mutex_acquire(ompt_mutex_atomic, 0, la::global_lock_id(), LOOM_OMPT_RA));
    la::global_lock();
    LOOM_OMPT_EVENT(mutex_acquired(ompt_mutex_atomic, la::global_lock_id(), LOOM_OMPT_RA));
}
LOOM_OMP_ABI void __kmpc_atomic_end(void) {
    la::global_unlock();
    LOOM_OMPT_EVENT(mutex_released(ompt_mutex_atomic, la::global_lock_id(), LOOM_OMPT_RA));
}
