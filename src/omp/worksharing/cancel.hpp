// Cancellation of parallel, worksharing and taskgroup constructs (OMP_CANCELLATION;
// protocol: cancel.cpp). `kind` is a cancel_kind of abi.hpp (the kmpc values; the GOMP
// layer maps its own).
#pragma once

#include <atomic>

namespace loom::omp {

struct implicit_task;

/// The cancel construct: true if the construct of `kind` is (now) cancelled.
bool request_cancel(int kind);
/// A cancellation point: true if the innermost construct of `kind` was cancelled.
bool cancellation_point(int kind);
/// How many parallel regions are cancelled and not yet reused (the fork of a team's
/// next region resets its request). Relaxed, a hint as tasking's g_cancelled_groups:
/// while both are 0, no task construct needs new_task_cancelled().
inline std::atomic<int> g_cancelled_regions{0};
inline bool any_cancelled_region() noexcept {
    return g_cancelled_regions.load(std::memory_order_relaxed) != 0;
}
/// A task construct met now starts no task: its parallel region or the taskgroup its
/// task would join is cancelled (libgomp task.c GOMP_task returns at once then, so an
/// undeferred task's body, and the work it would spawn, is skipped too).
bool new_task_cancelled();
/// A barrier that is a cancellation point: true if the parallel region was cancelled
/// (the caller leaves it); a cancelled loop or sections construct is cleared here.
bool cancel_barrier(implicit_task* it);

}  // namespace loom::omp
