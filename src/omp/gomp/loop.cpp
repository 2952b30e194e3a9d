// GOMP worksharing loops with `long` iteration variables (libgomp loop.c): every
// schedule's _start/_next pair, the 5.0 GOMP_loop_start family, the loop ends and the
// combined parallel-loop forms. Each is a translation onto the kmpc dispatch loop
// (loop_dispatch.hpp); ull loops are loop_ull.cpp, doacross loops doacross.cpp.
#include "gomp/gomp_abi.hpp"
#include "gomp/loop_dispatch.hpp"
#include "gomp/parallel_start.hpp"
#include "ompt/events.hpp"
#include "sync/barrier.hpp"
#include "worksharing/cancel.hpp"

namespace loom::omp::gomp {

namespace {

bool start_loop(long start, long end, long incr, kmp_int32 sched, long chunk, long* istart,
                long* iend, const void* ra) {
    loop_begin<long>(incr > 0, start, end, incr, sched, chunk, ra);
    return loop_next<long>(istart, iend);
}

bool next_ordered(long* istart, long* iend) {
    pass_ordered_turns();
    return loop_next<long>(istart, iend);
}

// A combined parallel loop (GOMP_parallel_loop_*): the team's members each begin the
// loop, then run the body, which starts with GOMP_loop_*_next (loop.c
// gomp_parallel_loop_start initialises the work share before the team starts).
struct loop_args {
    body_fn fn;
    void* data;
    long start, end, incr, chunk;
    kmp_int32 sched;
    const void* ra;  // OMPT: the construct's codeptr_ra, which each member's loop reports
};

void begin_member_loop(void* p) {
    const auto* pl = static_cast<const loop_args*>(p);
    loop_begin<long>(pl->incr > 0, pl->start, pl->end, pl->incr, pl->sched, pl->chunk, pl->ra);
}

void parallel_loop_body(void* p) {
    begin_member_loop(p);
    const auto* pl = static_cast<const loop_args*>(p);
    pl->fn(pl->data);
}

void run_parallel_loop(body_fn fn, void* data, unsigned num_threads, long start, long end,
                       long incr, kmp_int32 sched, long chunk, unsigned flags, const void* ra) {
    loop_args pl{fn, data, start, end, incr, chunk, sched, ra};
    fork(parallel_loop_body, &pl, num_threads, flags);
}

// The GCC 4.x form: the caller runs the body itself between this and GOMP_parallel_end.
void parallel_loop_start(body_fn fn, void* data, unsigned num_threads, long start, long end,
                         long incr, kmp_int32 sched, long chunk, const void* ra) {
    auto* pl = new loop_args{fn, data, start, end, incr, chunk, sched, ra};
    split_start(fn, data, num_threads, 0, begin_member_loop, pl,
                [](void* p) { delete static_cast<loop_args*>(p); });
}

constexpr kmp_int32 sched(long kind, long chunk) { return kmpc_schedule(kind, false, chunk); }
constexpr kmp_int32 ordered(long kind, long chunk) { return kmpc_schedule(kind, true, chunk); }

}  // namespace

}  // namespace loom::omp::gomp

using namespace loom::omp;
using namespace loom::omp::gomp;

// ---- _start / _next pairs (libgomp_g.h) -------------------------------------------------
// A chunked schedule: (start, end, incr, chunk_size, istart, iend); runtime schedules take
// no chunk size. Each _start returns whether the caller got a first chunk.
#define LOOM_GOMP_LOOP_CHUNKED(NAME, KIND)                                                    \
    LOOM_OMP_API bool GOMP_loop_##NAME##_start(long start, long end, long incr, long chunk,   \
                                               long* istart, long* iend) {                    \
        return start_loop(start, end, incr, sched(KIND, chunk), chunk, istart, iend,          \
                          LOOM_OMPT_RA);                                                      \
    }                                                                                          \
    LOOM_OMP_API bool GOMP_loop_##NAME##_next(long* istart, long* iend) {                      \
        return loop_next<long>(istart, iend);                                                  \
    }
#define LOOM_GOMP_LOOP_RUNTIME(NAME)                                                           \
    LOOM_OMP_API bool GOMP_loop_##NAME##_start(long start, long end, long incr, long* istart,  \
                                               long* iend) {                                   \
        return start_loop(start, end, incr, sched(gfs_runtime, 0), 0, istart, iend,            \
                          LOOM_OMPT_RA);                                                       \
    }                                                                                          \
    LOOM_OMP_API bool GOMP_loop_##NAME##_next(long* istart, long* iend) {                      \
        return loop_next<long>(istart, iend);                                                  \
    }

LOOM_GOMP_LOOP_CHUNKED(static, gfs_static)
LOOM_GOMP_LOOP_CHUNKED(dynamic, gfs_dynamic)
LOOM_GOMP_LOOP_CHUNKED(guided, gfs_guided)
LOOM_GOMP_LOOP_CHUNKED(nonmonotonic_dynamic, gfs_dynamic)
LOOM_GOMP_LOOP_CHUNKED(nonmonotonic_guided, gfs_guided)
// runtime: run-sched-var decides, its own modifier included (loop.c).
LOOM_GOMP_LOOP_RUNTIME(runtime)
LOOM_GOMP_LOOP_RUNTIME(nonmonotonic_runtime)
LOOM_GOMP_LOOP_RUNTIME(maybe_nonmonotonic_runtime)
#undef LOOM_GOMP_LOOP_CHUNKED
#undef LOOM_GOMP_LOOP_RUNTIME

// ---- ordered loops: the ordered turn passes per iteration (GOMP_ordered_end, sync.cpp)
// and, for iterations that skipped their ordered region, before the next chunk. ----------
#define LOOM_GOMP_LOOP_ORDERED(NAME, KIND)                                                    \
    LOOM_OMP_API bool GOMP_loop_ordered_##NAME##_start(long start, long end, long incr,       \
                                                       long chunk, long* istart, long* iend) { \
        return start_loop(start, end, incr, ordered(KIND, chunk), chunk, istart, iend,         \
                          LOOM_OMPT_RA);                                                       \
    }                                                                                          \
    LOOM_OMP_API bool GOMP_loop_ordered_##NAME##_next(long* istart, long* iend) {              \
        return next_ordered(istart, iend);                                                     \
    }
LOOM_GOMP_LOOP_ORDERED(static, gfs_static)
LOOM_GOMP_LOOP_ORDERED(dynamic, gfs_dynamic)
LOOM_GOMP_LOOP_ORDERED(guided, gfs_guided)
#undef LOOM_GOMP_LOOP_ORDERED

LOOM_OMP_API bool GOMP_loop_ordered_runtime_start(long start, long end, long incr, long* istart,
                                                  long* iend) {
    return start_loop(start, end, incr, ordered(gfs_runtime, 0), 0, istart, iend, LOOM_OMPT_RA);
}
LOOM_OMP_API bool GOMP_loop_ordered_runtime_next(long* istart, long* iend) {
    return next_ordered(istart, iend);
}

// ---- OpenMP 5.0 (loop.c): schedule as an argument, task reductions and `mem` -------------
// A null istart: gcc runs a static schedule inline and calls only for the reductions and
// `mem`; the call then returns true.
LOOM_OMP_API bool GOMP_loop_start(long start, long end, long incr, long sched_arg, long chunk,
                                  long* istart, long* iend, std::uintptr_t* reductions,
                                  void** mem) {
    workshare_extras(reductions, mem);
    if (!istart) return true;
    return start_loop(start, end, incr, kmpc_schedule_of(sched_arg, false, chunk), chunk, istart,
                      iend, LOOM_OMPT_RA);
}

LOOM_OMP_API bool GOMP_loop_ordered_start(long start, long end, long incr, long sched_arg,
                                          long chunk, long* istart, long* iend,
                                          std::uintptr_t* reductions, void** mem) {
    workshare_extras(reductions, mem);
    if (!istart) return true;
    return start_loop(start, end, incr, kmpc_schedule_of(sched_arg, true, chunk), chunk, istart,
                      iend, LOOM_OMPT_RA);
}

// ---- loop ends (loop.c GOMP_loop_end*: the work share's end, a barrier unless nowait) ----
// As GOMP_barrier (sync.cpp): the end of a cancelled loop ends its cancellation.
LOOM_OMP_API void GOMP_loop_end() {
    LOOM_OMPT_EVENT(loop_work_end(LOOM_OMPT_RA));
    end_doacross();
    workshare_leave();
    (void)cancel_barrier(current_task());
}

LOOM_OMP_API void GOMP_loop_end_nowait() {
    LOOM_OMPT_EVENT(loop_work_end(LOOM_OMPT_RA));
    end_doacross();
    workshare_leave();
}

// True when the enclosing parallel region was cancelled (the caller then leaves it).
LOOM_OMP_API bool GOMP_loop_end_cancel() {
    LOOM_OMPT_EVENT(loop_work_end(LOOM_OMPT_RA));
    end_doacross();
    workshare_leave();
    return cancel_barrier(current_task());
}

// ---- combined parallel loops (GOMP 4.0: with flags; 4.x _start forms without) -----------
#define LOOM_GOMP_PARALLEL_LOOP(NAME, KIND)                                                    \
    LOOM_OMP_API void GOMP_parallel_loop_##NAME(body_fn fn, void* data, unsigned num_threads,   \
                                                long start, long end, long incr, long chunk,    \
                                                unsigned flags) {                               \
        run_parallel_loop(fn, data, num_threads, start, end, incr, sched(KIND, chunk),         \
                          chunk, flags, LOOM_OMPT_RA);                                         \
    }
#define LOOM_GOMP_PARALLEL_LOOP_RUNTIME(NAME)                                                  \
    LOOM_OMP_API void GOMP_parallel_loop_##NAME(body_fn fn, void* data, unsigned num_threads,   \
                                                long start, long end, long incr,                \
                                                unsigned flags) {                               \
        run_parallel_loop(fn, data, num_threads, start, end, incr, sched(gfs_runtime, 0), 0,   \
                          flags, LOOM_OMPT_RA);                                                \
    }
LOOM_GOMP_PARALLEL_LOOP(static, gfs_static)
LOOM_GOMP_PARALLEL_LOOP(dynamic, gfs_dynamic)
LOOM_GOMP_PARALLEL_LOOP(guided, gfs_guided)
LOOM_GOMP_PARALLEL_LOOP(nonmonotonic_dynamic, gfs_dynamic)
LOOM_GOMP_PARALLEL_LOOP(nonmonotonic_guided, gfs_guided)
LOOM_GOMP_PARALLEL_LOOP_RUNTIME(runtime)
LOOM_GOMP_PARALLEL_LOOP_RUNTIME(nonmonotonic_runtime)
LOOM_GOMP_PARALLEL_LOOP_RUNTIME(maybe_nonmonotonic_runtime)
#undef LOOM_GOMP_PARALLEL_LOOP
#undef LOOM_GOMP_PARALLEL_LOOP_RUNTIME

#define LOOM_GOMP_PARALLEL_LOOP_START(NAME, KIND)                                              \
    LOOM_OMP_API void GOMP_parallel_loop_##NAME##_start(body_fn fn, void* data,                 \
                                                        unsigned num_threads, long start,       \
                                                        long end, long incr, long chunk) {      \
        parallel_loop_start(fn, data, num_threads, start, end, incr, sched(KIND, chunk), chunk, \
                            LOOM_OMPT_RA);                                                      \
    }
LOOM_GOMP_PARALLEL_LOOP_START(static, gfs_static)
LOOM_GOMP_PARALLEL_LOOP_START(dynamic, gfs_dynamic)
LOOM_GOMP_PARALLEL_LOOP_START(guided, gfs_guided)
#undef LOOM_GOMP_PARALLEL_LOOP_START

LOOM_OMP_API void GOMP_parallel_loop_runtime_start(body_fn fn, void* data, unsigned num_threads,
                                                   long start, long end, long incr) {
    parallel_loop_start(fn, data, num_threads, start, end, incr, sched(gfs_runtime, 0), 0,
                        LOOM_OMPT_RA);
}
