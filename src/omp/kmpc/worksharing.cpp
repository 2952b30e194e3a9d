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

#include "ompt/events.hpp"

using namespace loom::omp;

namespace {
// OMPT work type of a clang loop: sections and distribute say so in the ident_t flags
// (KMP_IDENT_WORK_SECTIONS 0x400, KMP_IDENT_WORK_DISTRIBUTE 0x800).
ompt_work_t static_work_type(const ident_t* loc) {
    if (loc && (loc->flags & 0x400)) return ompt_work_sections;
    if (loc && (loc->flags & 0x800)) return ompt_work_distribute;
    return ompt_work_loop_static;
}

// The dispatch event of a static loop's share (libomp reports the first chunk): a
// section names the construct by its codeptr_ra, a loop or distribute its chunk.
void static_chunk_event(const ident_t* loc, std::int64_t lo, std::int64_t up, std::int64_t incr,
                        const void* ra) {
    const ompt_work_t w = static_work_type(loc);
    if (w == ompt_work_sections) {
        ompt::dispatch_section(ra);
        return;
    }
    if (incr == 0 || (incr > 0 ? lo > up : lo < up)) return;  // no iteration here
    const std::uint64_t n = static_cast<std::uint64_t>(incr > 0 ? (up - lo) / incr : (lo - up) / -incr) + 1;
    ompt::dispatch(w == ompt_work_distribute ? ompt_dispatch_distribute_chunk : ompt_dispatch_ws_loop_chunk,
                   static_cast<std::uint64_t>(lo), n);
}

}  // namespace

// ---- static loops ---------------------------------------------------------------------

#define LOOM_STATIC(SUFFIX, T, ST)                                                               \
    LOOM_OMP_API void __kmpc_for_static_init_##SUFFIX(ident_t* loc, kmp_int32, kmp_int32 sched,  \
                                                      kmp_int32* last, T* lo, T* up, ST* st,     \
                                                      ST incr, ST chunk) {                       \
        LOOM_OMPT_EVENT(work(static_work_type(loc), ompt_scope_begin,                            \
                             static_cast<std::uint64_t>(*up - *lo) / static_cast<std::uint64_t>(incr ? incr : 1) + 1, \
                             LOOM_OMPT_RA));                                                     \
        for_static_init<T, ST>(current_task(), sched, last, lo, up, st, incr, chunk);            \
        if (ompt::on()) [[unlikely]]                                                             \
            static_chunk_event(loc, static_cast<std::int64_t>(*lo), static_cast<std::int64_t>(*up), \
                               static_cast<std::int64_t>(incr), LOOM_OMPT_RA);                   \
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

LOOM_OMP_API void __kmpc_for_static_fini(ident_t* loc, kmp_int32) {
    LOOM_OMPT_EVENT(work(static_work_type(loc), ompt_scope_end, 0, LOOM_OMPT_RA));
}

// ---- dynamic loops and ordered --------------------------------------------------------

#define LOOM_DISPATCH(SUFFIX, T, ST)                                                            \
    LOOM_OMP_API void __kmpc_dispatch_init_##SUFFIX(ident_t*, kmp_int32, kmp_int32 schedule,    \
                                                    T lb, T ub, ST st, ST chunk) {             \
        LOOM_OMPT_EVENT(loop_work_begin(schedule,                                               \
                                        static_cast<std::uint64_t>(ub - lb) / static_cast<std::uint64_t>(st ? st : 1) + 1, \
                                        LOOM_OMPT_RA));                                        \
        dispatch_init<T, ST>(current_task(), schedule, lb, ub, st, chunk);                     \
    }                                                                                          \
    LOOM_OMP_API int __kmpc_dispatch_next_##SUFFIX(ident_t*, kmp_int32, kmp_int32* last,       \
                                                   T* lb, T* ub, ST* st) {                     \
        const int more = dispatch_next<T, ST>(last, lb, ub, st);                               \
        if (ompt::on()) [[unlikely]] {                                                         \
            if (more)                                                                          \
                ompt::dispatch(ompt_dispatch_ws_loop_chunk, static_cast<std::uint64_t>(*lb),   \
                               static_cast<std::uint64_t>(*ub - *lb) + 1);                    \
            else                                                                               \
                ompt::loop_work_end(LOOM_OMPT_RA);                                             \
        }                                                                                      \
        return more;                                                                           \
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

LOOM_OMP_API void __kmpc_ordered(ident_t*, kmp_int32) {
    implicit_task* it = current_task();
    LOOM_OMPT_EVENT(mutex_acquire(ompt_mutex_ordered, 0, ompt::ordered_wait_id(it), LOOM_OMPT_RA));
    ordered_enter(it);
    LOOM_OMPT_EVENT(mutex_acquired(ompt_mutex_ordered, ompt::ordered_wait_id(it), LOOM_OMPT_RA));
}
LOOM_OMP_API void __kmpc_end_ordered(ident_t*, kmp_int32) {
    implicit_task* it = current_task();
    ordered_exit(it);
    LOOM_OMPT_EVENT(mutex_released(ompt_mutex_ordered, ompt::ordered_wait_id(it), LOOM_OMPT_RA));
}

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
    const bool mine = single_begin(current_task());
    if (ompt::on()) [[unlikely]] {
        // The others' single is over at once: begin and end here.
        ompt::work(mine ? ompt_work_single_executor : ompt_work_single_other, ompt_scope_begin, 1, LOOM_OMPT_RA);
        if (!mine) ompt::work(ompt_work_single_other, ompt_scope_end, 1, LOOM_OMPT_RA);
    }
    return mine ? 1 : 0;
}
LOOM_OMP_API void __kmpc_end_single(ident_t*, kmp_int32) {
    LOOM_OMPT_EVENT(work(ompt_work_single_executor, ompt_scope_end, 1, LOOM_OMPT_RA));
}

LOOM_OMP_API kmp_int32 __kmpc_master(ident_t*, kmp_int32) {
    const bool mine = is_masked_member(current_task(), 0);
    if (mine) LOOM_OMPT_EVENT(masked(ompt_scope_begin, LOOM_OMPT_RA));
    return mine ? 1 : 0;
}
LOOM_OMP_API void __kmpc_end_master(ident_t*, kmp_int32) {
    LOOM_OMPT_EVENT(masked(ompt_scope_end, LOOM_OMPT_RA));
}

LOOM_OMP_API kmp_int32 __kmpc_masked(ident_t*, kmp_int32, kmp_int32 filter) {
    const bool mine = is_masked_member(current_task(), filter);
    if (mine) LOOM_OMPT_EVENT(masked(ompt_scope_begin, LOOM_OMPT_RA));
    return mine ? 1 : 0;
}
LOOM_OMP_API void __kmpc_end_masked(ident_t*, kmp_int32) {
    LOOM_OMPT_EVENT(masked(ompt_scope_end, LOOM_OMPT_RA));
}

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

// OMPT: a reduction whose combining the caller does now (1) ends at __kmpc_end_reduce*;
// otherwise (0: nothing left to do here, 2: atomic updates, which clang follows with
// __kmpc_end_reduce only in the blocking form) it ends at once.
static void reduction_began(kmp_int32 r, const void* ra) {
    thread_state* th = this_thread();
    th->ompt_reduce_open = r == 1;
    if (r != 1) ompt::reduction(ompt_scope_end, ra);
}
static void reduction_ended(const void* ra) {
    thread_state* th = this_thread();
    if (!th->ompt_reduce_open) return;
    th->ompt_reduce_open = false;
    ompt::reduction(ompt_scope_end, ra);
}

// ident_atomic_reduce: clang says that the reduction may use the atomic method.
static bool atomic_reduce_allowed(const ident_t* loc) {
    return loc && (loc->flags & ident_atomic_reduce) != 0;
}

LOOM_OMP_API kmp_int32 __kmpc_reduce_nowait(ident_t* loc, kmp_int32, kmp_int32, std::size_t,
                                            void* reduce_data, void (*reduce_func)(void*, void*),
                                            kmp_critical_name*) {
    LOOM_OMPT_EVENT(reduction(ompt_scope_begin, LOOM_OMPT_RA));
    const kmp_int32 r = reduce_begin(current_task(), atomic_reduce_allowed(loc), reduce_data, reduce_func, true);
    if (ompt::on()) [[unlikely]] reduction_began(r, LOOM_OMPT_RA);
    return r;
}
LOOM_OMP_API void __kmpc_end_reduce_nowait(ident_t*, kmp_int32, kmp_critical_name*) {
    if (ompt::on()) [[unlikely]] reduction_ended(LOOM_OMPT_RA);
}

LOOM_OMP_API kmp_int32 __kmpc_reduce(ident_t* loc, kmp_int32, kmp_int32, std::size_t,
                                     void* reduce_data, void (*reduce_func)(void*, void*),
                                     kmp_critical_name*) {
    LOOM_OMPT_EVENT(reduction(ompt_scope_begin, LOOM_OMPT_RA));
    const kmp_int32 r = reduce_begin(current_task(), atomic_reduce_allowed(loc), reduce_data, reduce_func,
                                     false);
    if (ompt::on()) [[unlikely]] reduction_began(r, LOOM_OMPT_RA);
    return r;
}
LOOM_OMP_API void __kmpc_end_reduce(ident_t*, kmp_int32, kmp_critical_name*) {
    if (ompt::on()) [[unlikely]] reduction_ended(LOOM_OMPT_RA);
    reduce_end(current_task());
}

// ---- cancellation ------------------------------------------------------------------------

// kind: 1 parallel, 2 loop, 3 sections, 4 taskgroup (kmp.h cancel_*). As libomp, a
// request reports `activated` only when it took effect, a cancellation point
// `detected` only when it finds its construct cancelled.
LOOM_OMP_API kmp_int32 __kmpc_cancel(ident_t*, kmp_int32, kmp_int32 kind) {
    if (!request_cancel(kind)) return 0;
    LOOM_OMPT_EVENT(cancel_construct(kind, ompt_cancel_activated, LOOM_OMPT_RA));
    return 1;
}
LOOM_OMP_API kmp_int32 __kmpc_cancellationpoint(ident_t*, kmp_int32, kmp_int32 kind) {
    if (!cancellation_point(kind)) return 0;
    LOOM_OMPT_EVENT(cancel_construct(kind, ompt_cancel_detected, LOOM_OMPT_RA));
    return 1;
}
LOOM_OMP_API kmp_int32 __kmpc_cancel_barrier(ident_t*, kmp_int32) {
    LOOM_OMPT_EVENT(sync_region(ompt_sync_region_barrier_implicit_workshare, ompt_scope_begin, LOOM_OMPT_RA));
    const bool cancelled = cancel_barrier(current_task());
    LOOM_OMPT_EVENT(sync_region(ompt_sync_region_barrier_implicit_workshare, ompt_scope_end, LOOM_OMPT_RA));
    return cancelled ? 1 : 0;
}
