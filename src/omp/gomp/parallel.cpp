// GOMP parallel regions: GOMP_parallel (GCC >= 4.9) forks through the same
// __kmpc_fork_call path as clang's regions, with gcc's `void (*)(void*)` body run by
// the microtask trampoline of gomp_abi.hpp. The old start/end pair is in
// parallel_start.cpp; teams in teams.cpp.
#include "gomp/gomp_abi.hpp"
#include "parallel/thread.hpp"

LOOM_OMP_API void __kmpc_fork_call(loom::omp::ident_t* loc, loom::omp::kmp_int32 argc,
                                   loom::omp::kmpc_micro fn, ...);
LOOM_OMP_API void __kmpc_push_num_threads(loom::omp::ident_t*, loom::omp::kmp_int32,
                                          loom::omp::kmp_int32 num_threads);
LOOM_OMP_API void __kmpc_push_proc_bind(loom::omp::ident_t*, loom::omp::kmp_int32,
                                        loom::omp::kmp_int32 proc_bind);

namespace loom::omp::gomp {

namespace {
// LOOM_TRACE names implicit tasks after their construct's ident_t; gcc gives none.
ident_t parallel_loc{0, 2, 0, 0, ";unknown;GOMP_parallel;0;0;;"};
}  // namespace

ident_t gomp_loc{0, 2, 0, 0, ";unknown;GOMP;0;0;;"};

kmp_int32 gtid() { return this_thread_no_suspend()->gtid; }

void microtask(kmp_int32*, kmp_int32*, void* fn, void* data) { fn_of(fn)(data); }

void fork(body_fn fn, void* data, unsigned num_threads, unsigned flags) {
    thread_state* th = this_thread();
    // parallel.c: num_threads 0 is "no clause" (nthreads-var); gcc lowers a false `if`
    // clause to num_threads 1, which the fork serialises like any request for one.
    if (num_threads > 0) {
        const unsigned capped = num_threads > 0x7fffffffu ? 0x7fffffffu : num_threads;
        __kmpc_push_num_threads(&parallel_loc, th->gtid, static_cast<kmp_int32>(capped));
    }
    if (const int bind = proc_bind_of(flags); bind >= 0)
        __kmpc_push_proc_bind(&parallel_loc, th->gtid, bind);
    __kmpc_fork_call(&parallel_loc, 2, microtask_entry(), fn_arg(fn), data);
}

int member_id() { return current_task()->tid; }
int team_size() { return current_task()->nthreads; }

}  // namespace loom::omp::gomp

using namespace loom::omp;

// libgomp_g.h: void GOMP_parallel (void (*) (void *), void *, unsigned, unsigned).
LOOM_OMP_API void GOMP_parallel(gomp::body_fn fn, void* data, unsigned num_threads,
                                unsigned flags) {
    gomp::fork(fn, data, num_threads, flags);
}
