// clang's worksharing entry points: static and dynamic loops, ordered, doacross,
// single, master/masked, scope, copyprivate, reductions and cancellation. Each one
// translates the kmpc argument shapes (libomp 19, kmp.h) to the worksharing/ functions.
// The gtid argument is not needed: the calling thread's state is found directly.
#include "abi.hpp"
#include "parallel/thread.hpp"
#include "worksharing/cancel.hpp"
#include "worksharing/dispatch.hpp"
#include "worksharing/dispatch_loop.hpp"
#include "worksharing/doacross.hpp"
#include "worksharing/reduce.hpp"
#include "worksharing/single.hpp"
#include "worksharing/static_sched.hpp"

using namespace loom::omp;

// ---- static loops ---------------------------------------------------------------------

#define LOOM_STATIC(SUFFIX, T, ST)                                                               \
    LOOM_OMP_API void __kmpc_for_static_init_##SUFFIX(ident_t*, kmp_int32, kmp_int32 sched,      \
                                                      kmp_int32* last, T* lo, T* up, ST* st,     \
                                                      ST incr, ST chunk) {                       \
        for_static_init<T, ST>(current_task(), sched, last, lo, up, st, incr, chunk);            \
    }                                                                                            \
    LOOM_OMP_API void __kmpc_dist_for_static_init_##SUFFIX(ident_t*, kmp_int32, kmp_int32 sched, \
                                                           kmp_int32* last, T* lo, T* up,        \
                                                           T* upd, ST* st, ST incr, ST chunk) {  \
        dist_for_static_init<T, ST>(current_task(), sched, last, lo, up, upd, st, incr, chunk);  \
    }                                                                                            \
    LOOM_OMP_API void __kmpc_team_static_init_##SUFFIX(ident_t*, kmp_int32, kmp_int32* last,     \
                                                       T* lo, T* up, ST* st, ST incr,            \
                                                       ST chunk) {                               \
        team_static_init<T, ST>(current_task(), last, lo, up, st, incr, chunk);                  \
    }

LOOM_STATIC(4, kmp_int32, kmp_int32)
LOOM_STATIC(4u, kmp_uint32, kmp_int32)
LOOM_STATIC(8, kmp_int64, kmp_int64)
LOOM_STATIC(8u, kmp_uint64, kmp_int64)
#undef LOOM_STATIC

LOOM_OMP_API void __kmpc_for_static_fini(ident_t*, kmp_int32) {}

// ---- dynamic loops and ordered --------------------------------------------------------

#define LOOM_DISPATCH(SUFFIX, T, ST)                                                            \
    LOOM_OMP_API void __kmpc_dispatch_init_##SUFFIX(ident_t*, kmp_int32, kmp_int32 schedule,    \
                                                    T lb, T ub, ST st, ST chunk) {             \
        dispatch_init<T, ST>(current_task(), schedule, lb, ub, st, chunk);                     \
    }                                                                                          \
    LOOM_OMP_API int __kmpc_dispatch_next_##SUFFIX(ident_t*, kmp_int32, kmp_int32* last,       \
                                                   T* lb, T* ub, ST* st) {                     \
        return dispatch_next<T, ST>(last, lb, ub, st);                                          \
    }                                                                                          \
    LOOM_OMP_API void __kmpc_dispatch_fini_##SUFFIX(ident_t*, kmp_int32) {                     \
        dispatch_fini(current_task());                                                         \
    }                                                                                          \
    LOOM_OMP_API void __kmpc_dist_dispatch_init_##SUFFIX(ident_t*, kmp_int32, kmp_int32 schedule, \
                                                         kmp_int32* last, T lb, T ub, ST st,   \
                                                         ST chunk) {                           \
        dist_dispatch_init<T, ST>(current_task(), schedule, last, lb, ub, st, chunk);          \
    }

LOOM_DISPATCH(4, kmp_int32, kmp_int32)
LOOM_DISPATCH(4u, kmp_uint32, kmp_int32)
LOOM_DISPATCH(8, kmp_int64, kmp_int64)
LOOM_DISPATCH(8u, kmp_uint64, kmp_int64)
#undef LOOM_DISPATCH

LOOM_OMP_API void __kmpc_dispatch_deinit(ident_t*, kmp_int32) {}

LOOM_OMP_API void __kmpc_ordered(ident_t*, kmp_int32) { ordered_enter(current_task()); }
LOOM_OMP_API void __kmpc_end_ordered(ident_t*, kmp_int32) { ordered_exit(current_task()); }

// ---- doacross (ordered(n) with depend(sink/source)) -----------------------------------

LOOM_OMP_API void __kmpc_doacross_init(ident_t*, kmp_int32, kmp_int32 num_dims,
                                       const kmp_dim* dims) {
    doacross_begin(current_task(), num_dims, dims);
}
LOOM_OMP_API void __kmpc_doacross_wait(ident_t*, kmp_int32, const kmp_int64* vec) {
    doacross_wait(current_task(), vec);
}
LOOM_OMP_API void __kmpc_doacross_post(ident_t*, kmp_int32, const kmp_int64* vec) {
    doacross_post(current_task(), vec);
}
LOOM_OMP_API void __kmpc_doacross_fini(ident_t*, kmp_int32) { doacross_end(current_task()); }

// ---- single, master, masked, scope, copyprivate ---------------------------------------

LOOM_OMP_API kmp_int32 __kmpc_single(ident_t*, kmp_int32) {
    return single_begin(current_task()) ? 1 : 0;
}
LOOM_OMP_API void __kmpc_end_single(ident_t*, kmp_int32) {}

LOOM_OMP_API kmp_int32 __kmpc_master(ident_t*, kmp_int32) {
    return is_masked_member(current_task(), 0) ? 1 : 0;
}
LOOM_OMP_API void __kmpc_end_master(ident_t*, kmp_int32) {}

LOOM_OMP_API kmp_int32 __kmpc_masked(ident_t*, kmp_int32, kmp_int32 filter) {
    return is_masked_member(current_task(), filter) ? 1 : 0;
}
LOOM_OMP_API void __kmpc_end_masked(ident_t*, kmp_int32) {}

// scope: its reductions and barrier are separate calls; nothing to do here.
LOOM_OMP_API void __kmpc_scope(ident_t*, kmp_int32, void*) {}
LOOM_OMP_API void __kmpc_end_scope(ident_t*, kmp_int32, void*) {}

LOOM_OMP_API void __kmpc_copyprivate(ident_t*, kmp_int32, std::size_t, void* cpy_data,
                                     void (*cpy_func)(void*, void*), kmp_int32 didit) {
    copyprivate_broadcast(current_task(), cpy_data, cpy_func, didit != 0);
}
LOOM_OMP_API void* __kmpc_copyprivate_light(ident_t*, kmp_int32, void* cpy_data) {
    return copyprivate_pointer(current_task(), cpy_data);
}

// ---- reductions --------------------------------------------------------------------------

// ident_atomic_reduce: clang says that the reduction may use the atomic method.
static bool atomic_reduce_allowed(const ident_t* loc) {
    return loc && (loc->flags & ident_atomic_reduce) != 0;
}

LOOM_OMP_API kmp_int32 __kmpc_reduce_nowait(ident_t* loc, kmp_int32, kmp_int32, std::size_t,
                                            void* reduce_data, void (*reduce_func)(void*, void*),
                                            kmp_critical_name*) {
    return reduce_begin(current_task(), atomic_reduce_allowed(loc), reduce_data, reduce_func, true);
}
LOOM_OMP_API void __kmpc_end_reduce_nowait(ident_t*, kmp_int32, kmp_critical_name*) {}

LOOM_OMP_API kmp_int32 __kmpc_reduce(ident_t* loc, kmp_int32, kmp_int32, std::size_t,
                                     void* reduce_data, void (*reduce_func)(void*, void*),
                                     kmp_critical_name*) {
    return reduce_begin(current_task(), atomic_reduce_allowed(loc), reduce_data, reduce_func,
                        false);
}
LOOM_OMP_API void __kmpc_end_reduce(ident_t*, kmp_int32, kmp_critical_name*) {
    reduce_end(current_task());
}

// ---- cancellation ------------------------------------------------------------------------

LOOM_OMP_API kmp_int32 __kmpc_cancel(ident_t*, kmp_int32, kmp_int32 kind) {
    return request_cancel(kind) ? 1 : 0;
}
LOOM_OMP_API kmp_int32 __kmpc_cancellationpoint(ident_t*, kmp_int32, kmp_int32 kind) {
    return cancellation_point(kind) ? 1 : 0;
}
LOOM_OMP_API kmp_int32 __kmpc_cancel_barrier(ident_t*, kmp_int32) {
    return cancel_barrier(current_task()) ? 1 : 0;
}
