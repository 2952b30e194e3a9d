// GOMP parallel regions: GOMP_parallel (GCC >= 4.9) forks through the same
// fork_region as clang's regions (parallel/fork.hpp), with gcc's `void (*)(void*)` body run by
// the microtask trampoline of gomp_abi.hpp. The old start/end pair is in
// parallel_start.cpp; teams in teams.cpp.
#include "gomp/gomp_abi.hpp"
#include "parallel/thread.hpp"
#include "loom/ext/trace.hpp"
#include "parallel/fork.hpp"

namespace loom::omp::gomp {

namespace {
// LOOM_TRACE names implicit tasks after their construct's ident_t; gcc gives none.
ident_t parallel_loc{0, 2, 0, 0, ";unknown;GOMP_parallel;0;0;;"};
}  // namespace

ident_t gomp_loc{0, 2, 0, 0, ";unknown;GOMP;0;0;;"};

kmp_int32 gtid() { return this_thread_no_suspend()->gtid; }

void microtask(kmp_int32*, kmp_int32*, void* fn, void* data) { fn_of(fn)(data); }

void fork(body_fn fn, void* data, unsigned num_threads, unsigned flags) {
    // parallel.c: num_threads 0 is "no clause" (nthreads-var); gcc lowers a false `if`
    // clause to num_threads 1, which the fork serialises like any request for one.
    if (num_threads > 0) {
        const unsigned capped = num_threads > 0x7fffffffu ? 0x7fffffffu : num_threads;
        push_num_threads(static_cast<int>(capped));
    }
    if (const int bind = proc_bind_of(flags); bind >= 0)
        push_proc_bind(bind, true);
    if (ext::tracing()) t_fork_psource = parallel_loc.psource;
    void* args[2] = {fn_arg(fn), data};
    fork_region(microtask_entry(), 2, args, true, 0, 0);
}

int member_id() { return current_task()->tid; }
int team_size() { return current_task()->nthreads; }

}  // namespace loom::omp::gomp

#include "ompt/ompt.hpp"
using namespace loom::omp;

// libgomp_g.h: void GOMP_parallel (void (*) (void *), void *, unsigned, unsigned).
LOOM_OMP_API void GOMP_parallel(gomp::body_fn fn, void* data, unsigned num_threads,
                                unsigned flags) {
    (void)this_thread_no_suspend();
    LOOM_OMPT_ENTER();
    gomp::fork(fn, data, num_threads, flags);
}
