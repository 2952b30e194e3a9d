// The GOMP binary interface that gcc -fopenmp emits calls to (libgomp of GCC 12):
// flag and schedule encodings shared by the gcc entry points, and the trampoline that
// runs gcc's outlined `void (*)(void*)` bodies as kmpc microtasks, so every GOMP
// region goes through the same fork/join as clang's (parallel/fork.cpp).
// Values are ABI facts of libgomp (libgomp.h, libgomp_g.h, gomp-constants.h).
#pragma once

#include <cstdint>

#include "abi.hpp"

namespace loom::omp::gomp {

/// An outlined region or task body as gcc emits it (libgomp_g.h).
using body_fn = void (*)(void*);

// ---- GOMP_parallel's `flags` (omp-expand.cc, team.c gomp_team_start) -----------------
// The low three bits are the proc_bind clause, as omp_proc_bind_t (0: no clause; the
// values 1..4 equal kmpc's proc_bind_* in abi.hpp).
inline constexpr unsigned parallel_proc_bind_mask = 7u;

/// The proc_bind clause carried in GOMP_parallel's flags, or -1 for none (bind-var).
inline constexpr int proc_bind_of(unsigned flags) {
    const unsigned b = flags & parallel_proc_bind_mask;
    return b == 0 ? -1 : static_cast<int>(b);
}

// ---- schedules: enum gomp_schedule_type (libgomp.h) ---------------------------------
// GOMP_loop_start / GOMP_loop_ordered_start / GOMP_parallel_loop_runtime take `sched`
// in this encoding; the monotonic modifier is the top bit (GFS_MONOTONIC).
inline constexpr long gfs_runtime = 0;
inline constexpr long gfs_static = 1;
inline constexpr long gfs_dynamic = 2;
inline constexpr long gfs_guided = 3;
inline constexpr long gfs_auto = 4;
inline constexpr unsigned long gfs_monotonic = 0x80000000ul;

/// The schedule kind of a GOMP `sched` argument without its modifier bit.
inline constexpr long sched_kind(long sched) {
    // The bit is tested on the low 32 bits: gcc builds the argument as an unsigned int.
    return static_cast<long>(static_cast<unsigned long>(sched) & 0x7fffffffu);
}

/// kmpc schedule (abi.hpp sched_type) of a GOMP schedule kind. gcc passes chunk 0 for
/// "no chunk size" with static, which is the block partition (sch_static), and 1 as the
/// default for dynamic/guided (omp-expand.cc). `ordered` selects the ord_* kinds.
///
/// Every gcc loop is monotonic, the nonmonotonic entry points and a GOMP_loop_start
/// `sched` without GFS_MONOTONIC included, as in libgomp (loop.c maps them to the
/// monotonic ones): gcc's lastprivate, linear and conditional lastprivate code copies
/// out in the member whose *last* chunk ends at the loop's end (omp-expand.cc), so a
/// member must never get a chunk after the one holding the last iteration. Work
/// stealing hands chunks out of order and would lose the copy-out (libgomp linear-1.c).
/// The monotonic bit also overrides a nonmonotonic run-sched-var (OMP_SCHEDULE).
inline constexpr kmp_int32 kmpc_schedule(long kind, bool ordered, long chunk) {
    kmp_int32 s = sch_runtime;
    switch (kind) {
    case gfs_static: s = chunk > 0 ? sch_static_chunked : sch_static; break;
    case gfs_dynamic: s = sch_dynamic_chunked; break;
    case gfs_guided: s = sch_guided_chunked; break;
    case gfs_auto: s = sch_auto; break;
    default: s = sch_runtime; break;
    }
    if (ordered) return s + (ord_lower - sch_lower);
    return kind == gfs_static ? s : s | sch_modifier_monotonic;
}

/// kmpc schedule of GOMP_loop_start's `sched` argument (kind plus GFS_MONOTONIC, which
/// changes nothing: see kmpc_schedule).
inline constexpr kmp_int32 kmpc_schedule_of(long sched, bool ordered, long chunk) {
    return kmpc_schedule(sched_kind(sched), ordered, chunk);
}

// ---- GOMP_cancel / GOMP_cancellation_point `which` (gomp-constants.h) ----------------
inline constexpr int cancel_parallel_bit = 1;
inline constexpr int cancel_loop_bit = 2;  // GOMP_CANCEL_LOOP (= _FOR = _DO)
inline constexpr int cancel_sections_bit = 4;
inline constexpr int cancel_taskgroup_bit = 8;

// ---- the microtask trampoline ----------------------------------------------------------

/// kmpc microtask body that runs gcc's outlined `fn(data)`. Forked with two pointer
/// arguments: {fn, data} (see fork_args).
void microtask(kmp_int32* gtid, kmp_int32* btid, void* fn, void* data);

/// The microtask as the variadic kmpc_micro the fork entry points take.
inline kmpc_micro microtask_entry() { return reinterpret_cast<kmpc_micro>(&microtask); }

/// A body pointer as the void* argument of a microtask (functions and objects share one
/// address space on every target loom builds for).
inline void* fn_arg(body_fn fn) { return reinterpret_cast<void*>(fn); }
inline body_fn fn_of(void* p) { return reinterpret_cast<body_fn>(p); }

/// Forks a parallel region running fn(data) on every member, as GOMP_parallel does:
/// `num_threads` 0 means the nthreads-var default; 1 (gcc's lowering of a false `if`
/// clause) serialises; `flags` carries the proc_bind clause (parallel.cpp).
void fork(body_fn fn, void* data, unsigned num_threads, unsigned flags);

/// The calling implicit task's number and its team's size (omp_get_thread_num /
/// omp_get_num_threads of the caller).
int member_id();
int team_size();

/// The calling thread's gtid, for the kmpc entry points below.
kmp_int32 gtid();

/// The 5.0 worksharing entry points' extra arguments (GOMP_loop_start,
/// GOMP_loop_ordered_start, GOMP_loop_doacross_start, GOMP_sections2_start,
/// GOMP_scope_start; loop.c, sections.c, scope.c): `reductions`, gcc's task-reduction
/// array for `reduction(task, ...)`, is registered for the construct; `mem`, when not
/// null, holds a size on entry and gets zeroed storage of that size shared by the team
/// for this construct (lastprivate(conditional), inscan). Every member of the team calls
/// it for the construct, before it takes iterations (workshare.cpp).
void workshare_extras(std::uintptr_t* reductions, void** mem);
/// The member leaves the worksharing construct workshare_extras began (every
/// GOMP_loop_end* and GOMP_sections_end*): the last member to leave frees its `mem`.
void workshare_leave();

/// The source location the GOMP layer passes to kmpc entry points (gcc gives none).
extern ident_t gomp_loc;

}  // namespace loom::omp::gomp
