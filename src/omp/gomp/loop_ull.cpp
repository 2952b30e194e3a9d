// GOMP worksharing loops with `unsigned long long` iteration variables (libgomp
// loop_ull.c): gcc passes the direction as `up` and a downward step as the two's
// complement of its magnitude. Onto the kmpc unsigned 64-bit dispatch loop
// (__kmpc_dispatch_*_8u), as loop.cpp does for `long`.
#include "gomp/gomp_abi.hpp"
#include "gomp/loop_dispatch.hpp"

namespace loom::omp::gomp {

namespace {

using ull = unsigned long long;

bool start_loop(bool up, ull start, ull end, ull incr, kmp_int32 sched, ull chunk, ull* istart,
                ull* iend, const void* ra) {
    loop_begin<ull>(up, start, end, static_cast<kmp_int64>(incr), sched,
                    static_cast<kmp_int64>(chunk), ra);
    return loop_next<ull>(istart, iend);
}

bool next_ordered(ull* istart, ull* iend) {
    pass_ordered_turns();
    return loop_next<ull>(istart, iend);
}

constexpr kmp_int32 sched(long kind, ull chunk) {
    return kmpc_schedule(kind, false, static_cast<long>(chunk));
}
constexpr kmp_int32 ordered(long kind, ull chunk) {
    return kmpc_schedule(kind, true, static_cast<long>(chunk));
}

}  // namespace

}  // namespace loom::omp::gomp

using namespace loom::omp;
using namespace loom::omp::gomp;

// libgomp_g.h: bool GOMP_loop_ull_<kind>_start (bool up, ull start, ull end, ull incr,
// [ull chunk_size,] ull *istart, ull *iend) and bool GOMP_loop_ull_<kind>_next (ull *, ull *).
#define LOOM_GOMP_ULL_CHUNKED(NAME, KIND)                                                      \
    LOOM_OMP_API bool GOMP_loop_ull_##NAME##_start(bool up, ull start, ull end, ull incr,       \
                                                   ull chunk, ull* istart, ull* iend) {         \
        return start_loop(up, start, end, incr, sched(KIND, chunk), chunk, istart, iend,        \
                          LOOM_OMPT_RA);                                                        \
    }                                                                                           \
    LOOM_OMP_API bool GOMP_loop_ull_##NAME##_next(ull* istart, ull* iend) {                     \
        return loop_next<ull>(istart, iend);                                                    \
    }
#define LOOM_GOMP_ULL_RUNTIME(NAME)                                                             \
    LOOM_OMP_API bool GOMP_loop_ull_##NAME##_start(bool up, ull start, ull end, ull incr,       \
                                                   ull* istart, ull* iend) {                    \
        return start_loop(up, start, end, incr, sched(gfs_runtime, 0), 0, istart, iend,         \
                          LOOM_OMPT_RA);                                                        \
    }                                                                                           \
    LOOM_OMP_API bool GOMP_loop_ull_##NAME##_next(ull* istart, ull* iend) {                     \
        return loop_next<ull>(istart, iend);                                                    \
    }
LOOM_GOMP_ULL_CHUNKED(static, gfs_static)
LOOM_GOMP_ULL_CHUNKED(dynamic, gfs_dynamic)
LOOM_GOMP_ULL_CHUNKED(guided, gfs_guided)
LOOM_GOMP_ULL_CHUNKED(nonmonotonic_dynamic, gfs_dynamic)
LOOM_GOMP_ULL_CHUNKED(nonmonotonic_guided, gfs_guided)
LOOM_GOMP_ULL_RUNTIME(runtime)
LOOM_GOMP_ULL_RUNTIME(nonmonotonic_runtime)
LOOM_GOMP_ULL_RUNTIME(maybe_nonmonotonic_runtime)
#undef LOOM_GOMP_ULL_CHUNKED
#undef LOOM_GOMP_ULL_RUNTIME

#define LOOM_GOMP_ULL_ORDERED(NAME, KIND)                                                      \
    LOOM_OMP_API bool GOMP_loop_ull_ordered_##NAME##_start(bool up, ull start, ull end,         \
                                                           ull incr, ull chunk, ull* istart,    \
                                                           ull* iend) {                         \
        return start_loop(up, start, end, incr, ordered(KIND, chunk), chunk, istart,            \
                          iend, LOOM_OMPT_RA);                                                  \
    }                                                                                           \
    LOOM_OMP_API bool GOMP_loop_ull_ordered_##NAME##_next(ull* istart, ull* iend) {             \
        return next_ordered(istart, iend);                                                      \
    }
LOOM_GOMP_ULL_ORDERED(static, gfs_static)
LOOM_GOMP_ULL_ORDERED(dynamic, gfs_dynamic)
LOOM_GOMP_ULL_ORDERED(guided, gfs_guided)
#undef LOOM_GOMP_ULL_ORDERED

LOOM_OMP_API bool GOMP_loop_ull_ordered_runtime_start(bool up, ull start, ull end, ull incr,
                                                      ull* istart, ull* iend) {
    return start_loop(up, start, end, incr, ordered(gfs_runtime, 0), 0, istart, iend, LOOM_OMPT_RA);
}
LOOM_OMP_API bool GOMP_loop_ull_ordered_runtime_next(ull* istart, ull* iend) {
    return next_ordered(istart, iend);
}

// OpenMP 5.0 (loop_ull.c): schedule as an argument, task reductions and `mem`; a null
// istart only registers them (gcc runs a static schedule inline).
LOOM_OMP_API bool GOMP_loop_ull_start(bool up, ull start, ull end, ull incr, long sched_arg,
                                      ull chunk, ull* istart, ull* iend,
                                      std::uintptr_t* reductions, void** mem) {
    workshare_extras(reductions, mem);
    if (!istart) return true;
    return start_loop(up, start, end, incr,
                      kmpc_schedule_of(sched_arg, false, static_cast<long>(chunk)), chunk, istart,
                      iend, LOOM_OMPT_RA);
}

LOOM_OMP_API bool GOMP_loop_ull_ordered_start(bool up, ull start, ull end, ull incr,
                                              long sched_arg, ull chunk, ull* istart, ull* iend,
                                              std::uintptr_t* reductions, void** mem) {
    workshare_extras(reductions, mem);
    if (!istart) return true;
    return start_loop(up, start, end, incr,
                      kmpc_schedule_of(sched_arg, true, static_cast<long>(chunk)), chunk, istart,
                      iend, LOOM_OMPT_RA);
}
