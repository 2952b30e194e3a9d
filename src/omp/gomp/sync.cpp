// GOMP synchronisation (libgomp barrier.c, critical.c, atomic via critical.c, ordered.c):
// barrier, critical (unnamed and named), the atomic fallback lock and ordered, each onto
// its kmpc counterpart.
#include "gomp/gomp_abi.hpp"
#include "parallel/thread.hpp"
#include "sync/barrier.hpp"
#include "sync/critical.hpp"
#include "sync/lock.hpp"
#include "worksharing/cancel.hpp"
#include "worksharing/dispatch.hpp"
#include "worksharing/dispatch_loop.hpp"
#include "sync/atomic.hpp"


namespace loom::omp::gomp {
namespace {

// critical.c: the unnamed critical section is one lock for the whole program; clang's
// unnamed one (.gomp_critical_user_ in its common storage) is another object, as in
// libomp: the two compilers' unnamed sections do not exclude each other.
kmp_critical_name unnamed_critical = {};

// A named section's storage as gcc emits it is a pointer-sized common symbol
// (.gomp_critical_user_NAME) that the runtime initialises lazily (critical.c): the slot
// sync/critical.hpp keeps its lock pointer in, as it does in the first eight bytes of
// clang's 32-byte name.
void** as_slot(kmp_critical_name* name) { return reinterpret_cast<void**>(name); }

}  // namespace
}  // namespace loom::omp::gomp

#include "ompt/events.hpp"

using namespace loom::omp;
using namespace loom::omp::gomp;

// gcc ends the worksharing constructs of a region without `cancel parallel` with this
// plain barrier even when they hold `cancel for` / `cancel sections`: as libgomp's team
// barrier (bar.c, the last arriver clears work_share_cancelled), it ends a loop or
// sections cancellation, else the region's next loop looked cancelled too.
LOOM_OMP_API void GOMP_barrier() {
    LOOM_OMPT_ENTER();
    LOOM_OMPT_EVENT(sync_region(ompt_sync_region_barrier_explicit, ompt_scope_begin, LOOM_OMPT_RA));
    (void)cancel_barrier(current_task());
    LOOM_OMPT_EVENT(sync_region(ompt_sync_region_barrier_explicit, ompt_scope_end, LOOM_OMPT_RA));
}

// barrier.c: true when the enclosing parallel region was cancelled.
LOOM_OMP_API bool GOMP_barrier_cancel() { return cancel_barrier(current_task()); }

LOOM_OMP_API void GOMP_critical_start() {
    void** slot = as_slot(&unnamed_critical);
    if (critical_try_enter_fast(slot)) [[likely]]
        return;
    critical_enter_reported(slot, sync_hint_none, "GOMP_critical_start", LOOM_OMPT_RA);
}
LOOM_OMP_API void GOMP_critical_end() {
    void** slot = as_slot(&unnamed_critical);
    if (critical_try_exit_fast(slot)) [[likely]]
        return;
    critical_exit_reported(slot, "GOMP_critical_end", LOOM_OMPT_RA);
}

LOOM_OMP_API void GOMP_critical_name_start(void** pptr) {
    if (critical_try_enter_fast(pptr)) [[likely]]
        return;
    critical_enter_reported(pptr, sync_hint_none, "GOMP_critical_name_start", LOOM_OMPT_RA);
}
LOOM_OMP_API void GOMP_critical_name_end(void** pptr) {
    if (critical_try_exit_fast(pptr)) [[likely]]
        return;
    critical_exit_reported(pptr, "GOMP_critical_name_end", LOOM_OMPT_RA);
}

// critical.c: the atomic fallback of gcc (types without a lock-free form) is one global
// lock, shared with clang's __kmpc_atomic_start.
// With a tool, the lock's mutex events (kind atomic), as libomp reports its atomic lock:
// a race checker sees the order the lock gives (gcc combines reductions under it).
LOOM_OMP_API void GOMP_atomic_start() {
    LOOM_OMPT_EVENT(mutex_acquire(ompt_mutex_atomic, 0, atomics::global_lock_id(), LOOM_OMPT_RA));
    atomics::global_lock();
    LOOM_OMPT_EVENT(mutex_acquired(ompt_mutex_atomic, atomics::global_lock_id(), LOOM_OMPT_RA));
}
LOOM_OMP_API void GOMP_atomic_end() {
    atomics::global_unlock();
    LOOM_OMPT_EVENT(mutex_released(ompt_mutex_atomic, atomics::global_lock_id(), LOOM_OMPT_RA));
}

// ordered.c: gcc reports every iteration that executes its ordered region; the end also
// finishes the iteration's ordered turn (kmpc's per-iteration __kmpc_dispatch_fini), so
// the next iteration of the chunk waits for its own turn.
LOOM_OMP_API void GOMP_ordered_start() {
    implicit_task* it = current_task();
    LOOM_OMPT_EVENT(mutex_acquire(ompt_mutex_ordered, 0, ompt::ordered_wait_id(it), LOOM_OMPT_RA));
    ordered_enter(it);
    LOOM_OMPT_EVENT(mutex_acquired(ompt_mutex_ordered, ompt::ordered_wait_id(it), LOOM_OMPT_RA));
}
LOOM_OMP_API void GOMP_ordered_end() {
    implicit_task* it = current_task();
    ordered_exit(it);
    LOOM_OMPT_EVENT(mutex_released(ompt_mutex_ordered, ompt::ordered_wait_id(it), LOOM_OMPT_RA));
    dispatch_fini(it);
}
