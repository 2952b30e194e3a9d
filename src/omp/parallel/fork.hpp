// Parallel regions, the master's side (fork.cpp): what the ABI entry points of both
// compilers call to open a region, to ask for the next region's shape, and to run a
// serialized one.
#pragma once

#include "abi.hpp"

namespace loom::omp {

struct implicit_task;
struct thread_state;

/// OpenMP entered from a loom task: level 0 (not in a region, league or host target
/// region) on a worker, and not the initial thread's own code. A region entered there
/// gets only idle workers (promised.hpp).
bool entered_from_loom_task(thread_state* th, implicit_task* parent);

/// Runs `fn(gtid, tid, args[0..argc))` as a parallel region of the calling task: a
/// team when `parallel_if` (and the ICVs, the pushed num_threads and the free workers)
/// allow more than one member, else serialized. `league_teams` > 0: a host teams league
/// of that many teams of `league_limit` threads each.
void fork_region(kmpc_micro fn, int argc, void** args, bool parallel_if, int league_teams,
                 int league_limit);
/// A teams construct on the host: shapes the league from the pushed num_teams /
/// thread_limit and the pool, then forks it.
void fork_league(kmpc_micro fn, int argc, void** args);

// ---- requests for the next region of the calling thread (consumed by the fork) -----

/// num_teams(lb:ub) thread_limit(thread_limit); 0 = not given.
void push_num_teams(int lb, int ub, int thread_limit);
/// num_threads(n).
void push_num_threads(int n);
/// num_threads(n1, n2, ...) (OpenMP 6.0): n1 for the region, n2 for the regions nested
/// in it, and so on.
void push_num_threads_list(unsigned length, const int* list);
/// Makes the pushed num_threads strict: fewer threads is reported as the error
/// directive would, with `severity` (1 warning, 2 fatal) and `message` (null: the
/// default text) at `loc`.
void push_strict_num_threads(ident_t* loc, int severity, const char* message);
/// proc_bind(kind) (abi.hpp proc_bind_* values) of the next region. `sets_bind_var`: the
/// clause also becomes the bind-var of the region's implicit tasks where OMP_PROC_BIND
/// names no policy for their level (libgomp team.c gomp_team_start, so gcc-built code
/// sees what it sees on libgomp); without it the clause binds the region only, as in
/// libomp (__kmp_fork_call: "overrides proc-bind-var for this parallel region, but does
/// not change proc-bind-var").
void push_proc_bind(int proc_bind, bool sets_bind_var = false);

// ---- serialized regions the compiled code runs itself -------------------------------

/// Enters a region of one thread run inline by the caller (`if(false)`, or the
/// compiler's serialized form): a new nesting level with inherited ICVs.
void begin_serialized_region();
/// Leaves it (its explicit tasks finished first).
void end_serialized_region();

}  // namespace loom::omp
