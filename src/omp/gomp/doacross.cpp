// GOMP doacross loops (`ordered(n)` with depend(sink/source), libgomp ordered.c and
// loop.c / loop_ull.c GOMP_loop_*doacross_*): gcc normalises every dimension to
// 0 .. counts[i]-1 step 1 and shares the first dimension's iterations; the
// post/wait vectors are those normalised indices. Onto the doacross loop clang uses
// (worksharing/doacross.hpp) with the same dimensions, and the dispatch loop for chunks.
#include <cstdarg>

#include "gomp/gomp_abi.hpp"
#include "gomp/loop_dispatch.hpp"
#include "parallel/thread.hpp"
#include "worksharing/doacross.hpp"

namespace loom::omp::gomp {

/// One dimension as doacross_begin takes it (libomp's kmp_dim, kmp.h): inclusive
/// bounds and a step.
using doacross_dim = kmp_dim;

}  // namespace loom::omp::gomp

namespace loom::omp::gomp {

namespace {

// gcc's loops have at most a few dimensions; larger nests are cut to this many for the
// dependence bookkeeping (a wait on a longer vector then compares its first dimensions).
constexpr unsigned max_dims = 64;

// Dimensions of the doacross loop the calling thread's member is in: GOMP_doacross_post
// and _wait do not pass them (libgomp reads them from the work share). A member runs
// its whole loop on its own thread (implicit tasks are tied).
thread_local unsigned t_dims = 0;

template <class C>
void begin_doacross(unsigned ncounts, const C* counts) {
    doacross_dim dims[max_dims];
    const unsigned n = ncounts < max_dims ? ncounts : max_dims;
    t_dims = n;
    for (unsigned i = 0; i < n; ++i)
        dims[i] = doacross_dim{0, static_cast<kmp_int64>(counts[i]) - 1, 1};
    doacross_begin(current_task(), static_cast<int>(n), dims);
}

// loop.c gomp_loop_doacross_*_start: the work share is 0 .. counts[0] step 1.
template <class T>
bool start_doacross(unsigned ncounts, const T* counts, kmp_int32 sched, kmp_int64 chunk,
                    T* istart, T* iend, const void* ra) {
    begin_doacross(ncounts, counts);
    loop_begin<T>(true, T(0), ncounts > 0 ? counts[0] : T(0), 1, sched, chunk, ra);
    return loop_next<T>(istart, iend);
}

template <class T>
void wait_vector(T first, va_list ap) {
    kmp_int64 vec[max_dims];
    vec[0] = static_cast<kmp_int64>(first);
    const unsigned n = t_dims;
    for (unsigned i = 1; i < n; ++i) vec[i] = static_cast<kmp_int64>(va_arg(ap, T));
    doacross_wait(current_task(), vec);
}

template <class T>
void post_vector(const T* counts) {
    kmp_int64 vec[max_dims];
    for (unsigned i = 0; i < t_dims; ++i) vec[i] = static_cast<kmp_int64>(counts[i]);
    doacross_post(current_task(), vec);
}

}  // namespace

void end_doacross() { doacross_end(current_task()); }

}  // namespace loom::omp::gomp

using namespace loom::omp;
using namespace loom::omp::gomp;

// ---- long loops (loop.c) -----------------------------------------------------------------
#define LOOM_GOMP_DOACROSS(NAME, KIND)                                                         \
    LOOM_OMP_API bool GOMP_loop_doacross_##NAME##_start(unsigned ncounts, long* counts,         \
                                                        long chunk, long* istart, long* iend) { \
        return start_doacross<long>(ncounts, counts, kmpc_schedule(KIND, false, chunk),         \
                                    chunk, istart, iend, LOOM_OMPT_RA);                         \
    }                                                                                           \
    LOOM_OMP_API bool GOMP_loop_ull_doacross_##NAME##_start(                                    \
        unsigned ncounts, unsigned long long* counts, unsigned long long chunk,                 \
        unsigned long long* istart, unsigned long long* iend) {                                 \
        const auto c = static_cast<kmp_int64>(chunk);                                           \
        return start_doacross<unsigned long long>(                                              \
            ncounts, counts, kmpc_schedule(KIND, false, c), c, istart, iend,                    \
            LOOM_OMPT_RA);                                                                      \
    }
LOOM_GOMP_DOACROSS(static, gfs_static)
LOOM_GOMP_DOACROSS(dynamic, gfs_dynamic)
LOOM_GOMP_DOACROSS(guided, gfs_guided)
#undef LOOM_GOMP_DOACROSS

LOOM_OMP_API bool GOMP_loop_doacross_runtime_start(unsigned ncounts, long* counts, long* istart,
                                                   long* iend) {
    return start_doacross<long>(ncounts, counts, kmpc_schedule(gfs_runtime, false, 0), 0,
                                istart, iend, LOOM_OMPT_RA);
}

LOOM_OMP_API bool GOMP_loop_ull_doacross_runtime_start(unsigned ncounts,
                                                       unsigned long long* counts,
                                                       unsigned long long* istart,
                                                       unsigned long long* iend) {
    return start_doacross<unsigned long long>(
        ncounts, counts, kmpc_schedule(gfs_runtime, false, 0), 0, istart, iend, LOOM_OMPT_RA);
}

// OpenMP 5.0 (loop.c GOMP_loop_doacross_start): schedule argument, reductions, `mem`; a
// null istart only registers (gcc runs a static schedule inline).
LOOM_OMP_API bool GOMP_loop_doacross_start(unsigned ncounts, long* counts, long sched_arg,
                                           long chunk, long* istart, long* iend,
                                           std::uintptr_t* reductions, void** mem) {
    workshare_extras(reductions, mem);
    if (!istart) {
        begin_doacross(ncounts, counts);
        return true;
    }
    return start_doacross<long>(ncounts, counts, kmpc_schedule_of(sched_arg, false, chunk), chunk,
                                istart, iend, LOOM_OMPT_RA);
}

LOOM_OMP_API bool GOMP_loop_ull_doacross_start(unsigned ncounts, unsigned long long* counts,
                                               long sched_arg, unsigned long long chunk,
                                               unsigned long long* istart,
                                               unsigned long long* iend,
                                               std::uintptr_t* reductions, void** mem) {
    workshare_extras(reductions, mem);
    if (!istart) {
        begin_doacross(ncounts, counts);
        return true;
    }
    const auto c = static_cast<kmp_int64>(chunk);
    return start_doacross<unsigned long long>(ncounts, counts,
                                              kmpc_schedule_of(sched_arg, false, c), c, istart,
                                              iend, LOOM_OMPT_RA);
}

// ---- depend(source) / depend(sink: vec) (ordered.c) -----------------------------------
LOOM_OMP_API void GOMP_doacross_post(long* counts) { post_vector(counts); }

LOOM_OMP_API void GOMP_doacross_wait(long first, ...) {
    va_list ap;
    va_start(ap, first);
    wait_vector<long>(first, ap);
    va_end(ap);
}

LOOM_OMP_API void GOMP_doacross_ull_post(unsigned long long* counts) { post_vector(counts); }

LOOM_OMP_API void GOMP_doacross_ull_wait(unsigned long long first, ...) {
    va_list ap;
    va_start(ap, first);
    wait_vector<unsigned long long>(first, ap);
    va_end(ap);
}
