// clang's parallel-region entry points: fork (parallel, parallel if, teams), the
// requests a region's clauses push before the fork, serialized regions, and the thread
// queries of the kmpc ABI (libomp 19, kmp_csupport.cpp). Each one translates the kmpc
// argument shapes to parallel/fork.hpp.
#include <cstdarg>

#include "abi.hpp"
#include "loom/ext/trace.hpp"
#include "parallel/fork.hpp"
#include "parallel/thread.hpp"

#include "ompt/events.hpp"
using namespace loom::omp;

namespace {

// clang passes the shared variables as varargs, at most 15 in practice; libomp copies
// them into an argv array the same way (__kmp_fork_call).
constexpr int max_fork_args = 64;

void take_args(va_list ap, kmp_int32 argc, void** args) {
    for (kmp_int32 i = 0; i < argc && i < max_fork_args; ++i) args[i] = va_arg(ap, void*);
}

}  // namespace

LOOM_OMP_API void __kmpc_fork_call(ident_t* loc, kmp_int32 argc, kmpc_micro fn, ...) {
    // Registered first: a tool starts when the thread registers, and its first region
    // must already report codeptr_ra and the encountering task's frame.
    (void)this_thread_no_suspend();
    LOOM_OMPT_ENTER();
    if (loom::ext::tracing()) t_fork_psource = loc ? loc->psource : nullptr;
    void* args[max_fork_args];
    va_list ap;
    va_start(ap, fn);
    take_args(ap, argc, args);
    va_end(ap);
    fork_region(fn, argc, args, true, 0, 0);
}

// parallel if(cond) (clang 17+): one shared-variable block, or none.
LOOM_OMP_API void __kmpc_fork_call_if(ident_t*, kmp_int32, kmpc_micro fn, kmp_int32 cond,
                                      void* args) {
    (void)this_thread_no_suspend();
    LOOM_OMPT_ENTER();
    void* a[1] = {args};
    fork_region(fn, args ? 1 : 0, a, cond != 0, 0, 0);
}

LOOM_OMP_API void __kmpc_fork_teams(ident_t*, kmp_int32 argc, kmpc_micro fn, ...) {
    void* args[max_fork_args];
    va_list ap;
    va_start(ap, fn);
    take_args(ap, argc, args);
    va_end(ap);
    fork_league(fn, argc, args);
}

LOOM_OMP_API void __kmpc_push_num_teams(ident_t*, kmp_int32, kmp_int32 num_teams,
                                        kmp_int32 num_threads) {
    push_num_teams(0, num_teams, num_threads);
}

LOOM_OMP_API void __kmpc_push_num_teams_51(ident_t*, kmp_int32, kmp_int32 lb, kmp_int32 ub,
                                           kmp_int32 num_threads) {
    push_num_teams(lb, ub, num_threads);
}

LOOM_OMP_API void __kmpc_push_num_threads(ident_t*, kmp_int32, kmp_int32 num_threads) {
    push_num_threads(num_threads);
}

// num_threads(n1, n2, ...) (OpenMP 6.0; libomp 19's entry points and signatures).
LOOM_OMP_API void __kmpc_push_num_threads_list(ident_t*, kmp_int32, kmp_uint32 length,
                                               kmp_int32* list) {
    push_num_threads_list(length, list);
}

// num_threads(strict: n) with severity and message clauses (1 warning, 2 fatal).
LOOM_OMP_API void __kmpc_push_num_threads_strict(ident_t* loc, kmp_int32, kmp_int32 num_threads,
                                                 int severity, const char* message) {
    push_num_threads(num_threads);
    push_strict_num_threads(loc, severity, message);
}

LOOM_OMP_API void __kmpc_push_num_threads_list_strict(ident_t* loc, kmp_int32,
                                                      kmp_uint32 length, kmp_int32* list,
                                                      int severity, const char* message) {
    push_num_threads_list(length, list);
    push_strict_num_threads(loc, severity, message);
}

LOOM_OMP_API void __kmpc_push_proc_bind(ident_t*, kmp_int32, kmp_int32 proc_bind) {
    push_proc_bind(proc_bind);
}

// The caller runs the region's body itself, between these two calls: with a tool, the
// encountering task stays in the runtime (enter_frame) until the end call, and the
// region's implicit task exits to the caller's frame (the saved frame pointer).
LOOM_OMP_API void __kmpc_serialized_parallel(ident_t*, kmp_int32) {
    (void)this_thread_no_suspend();
    LOOM_OMPT_STORE_RA();
    if (ompt::on()) [[unlikely]] {
        ompt_frame_t* parent = ompt::current_task_frame();
        if (!parent->enter_frame.ptr) parent->enter_frame.ptr = LOOM_OMPT_FRAME_ADDRESS();
        begin_serialized_region();
        ompt::current_task_frame()->exit_frame.ptr = *static_cast<void**>(__builtin_frame_address(0));
        return;
    }
    begin_serialized_region();
}
LOOM_OMP_API void __kmpc_end_serialized_parallel(ident_t*, kmp_int32) {
    end_serialized_region();
    if (ompt::on()) [[unlikely]] ompt::current_task_frame()->enter_frame.ptr = nullptr;
}

// ---- queries ---------------------------------------------------------------------------

LOOM_OMP_API kmp_int32 __kmpc_global_thread_num(ident_t*) { return this_thread_no_suspend()->gtid; }
LOOM_OMP_API kmp_int32 __kmpc_global_num_threads(ident_t*) { return known_threads(); }
LOOM_OMP_API kmp_int32 __kmpc_bound_thread_num(ident_t*) { return current_task()->tid; }
LOOM_OMP_API kmp_int32 __kmpc_bound_num_threads(ident_t*) { return current_task()->nthreads; }
LOOM_OMP_API kmp_int32 __kmpc_in_parallel(ident_t*) { return current_task()->active_level > 0; }
LOOM_OMP_API kmp_int32 __kmpc_ok_to_fork(ident_t*) { return 1; }
LOOM_OMP_API void __kmpc_begin(ident_t*, kmp_int32) {}
LOOM_OMP_API void __kmpc_end(ident_t*) {}
