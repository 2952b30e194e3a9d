// single (with copyprivate), master, masked, scope, flush and the error directive.
//
// single: the team counts single constructs; a member at its s-th single wins iff it
// moves the team counter from s to s+1. The counter is never behind any member, so
// exactly one member wins each construct, also with nowait.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "abi.hpp"
#include "sync/barrier.hpp"
#include "parallel/team.hpp"
#include "parallel/thread.hpp"

using namespace loom::omp;

LOOM_OMP_API kmp_int32 __kmpc_single(ident_t*, kmp_int32) {
    implicit_task* it = current_task();
    team* t = it->tm;
    if (!t || it->nthreads == 1) return 1;
    std::uint32_t s = it->single_count++;
    if (t->single_count.load(std::memory_order_relaxed) != s) return 0;
    return t->single_count.compare_exchange_strong(s, s + 1, std::memory_order_acq_rel) ? 1 : 0;
}

LOOM_OMP_API void __kmpc_end_single(ident_t*, kmp_int32) {}

LOOM_OMP_API kmp_int32 __kmpc_master(ident_t*, kmp_int32) { return current_task()->tid == 0; }
LOOM_OMP_API void __kmpc_end_master(ident_t*, kmp_int32) {}

LOOM_OMP_API kmp_int32 __kmpc_masked(ident_t*, kmp_int32, kmp_int32 filter) {
    return current_task()->tid == filter;
}
LOOM_OMP_API void __kmpc_end_masked(ident_t*, kmp_int32) {}

LOOM_OMP_API void __kmpc_scope(ident_t*, kmp_int32, void*) {}
LOOM_OMP_API void __kmpc_end_scope(ident_t*, kmp_int32, void*) {}

LOOM_OMP_API void __kmpc_flush(ident_t*) { std::atomic_thread_fence(std::memory_order_seq_cst); }

// The member that executed the single publishes its data; after a barrier the others
// copy from it; a second barrier keeps the source alive until everyone copied.
LOOM_OMP_API void __kmpc_copyprivate(ident_t*, kmp_int32, std::size_t, void* cpy_data,
                                     void (*cpy_func)(void*, void*), kmp_int32 didit) {
    implicit_task* it = current_task();
    team* t = it->tm;
    if (!t || it->nthreads == 1) return;
    if (didit) t->copyprivate_data = cpy_data;
    team_barrier(it);
    if (!didit) cpy_func(cpy_data, t->copyprivate_data);
    team_barrier(it);
}

LOOM_OMP_API void* __kmpc_copyprivate_light(ident_t*, kmp_int32, void* cpy_data) {
    implicit_task* it = current_task();
    team* t = it->tm;
    if (!t || it->nthreads == 1) return cpy_data;
    if (cpy_data) t->copyprivate_data = cpy_data;
    team_barrier(it);
    return t->copyprivate_data;
}

// OpenMP 5.1 error directive: severity 1 = warning, 2 = fatal.
LOOM_OMP_API void __kmpc_error(ident_t* loc, int severity, const char* message) {
    const char* where = loc && loc->psource ? loc->psource : "";
    std::fprintf(stderr, "loom: %s: %s%s%s\n", severity == 2 ? "error" : "warning",
                 message ? message : "(no message)", *where ? " at " : "", where);
    if (severity == 2) std::abort();
}
