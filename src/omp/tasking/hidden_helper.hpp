// Hidden helper threads: the threads that run `target nowait` tasks (tasks allocated
// by __kmpc_omp_target_task_alloc with the hidden_helper flag), as libomp does.
//
// libomp's numbering, which programs and its tests observe through
// __kmpc_global_thread_num: it holds gtids 1..h for the helpers, h = 8 by default and
// n + 1 when LIBOMP_NUM_HIDDEN_HELPER_THREADS = n > 0 is set; gtid 1 is the helpers'
// own master, which runs no task; every other thread but the initial one (gtid 0)
// gets a gtid above h. loom starts the h - 1 helpers (gtids 2..h) on the first hidden
// helper task; they are OS threads outside the scheduler's pool, like any foreign
// thread of the process.
#pragma once

#include "abi.hpp"

namespace loom::ext {
struct task;
}

namespace loom::omp::hidden_helper {

/// Number of gtids held for the helpers (h), 0 when hidden helpers are off
/// (LIBOMP_USE_HIDDEN_HELPER_TASK=0 or LIBOMP_NUM_HIDDEN_HELPER_THREADS=0).
kmp_int32 held_gtids() noexcept;
inline bool is_held_gtid(kmp_int32 g) noexcept { return g >= 1 && g <= held_gtids(); }
/// True if hidden helper tasks go to the helpers (else they are ordinary tasks).
inline bool enabled() noexcept { return held_gtids() > 0; }

/// Queues a ready hidden helper task for the helper that serves `creator_gtid`,
/// starting the helpers on first use.
void submit(ext::task* rec, kmp_int32 creator_gtid);

}  // namespace loom::omp::hidden_helper
