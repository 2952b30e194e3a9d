// Centralised sense-reversing barrier: one fetch_sub per member; the last arriver
// re-arms the count and bumps the epoch; waiters spin, run explicit tasks through the
// task hooks, then sleep (wait.hpp). Memory ordering: the count re-arm is sequenced
// before the epoch bump, and a waiter cannot arrive again before it sees the bump.
#include "sync/barrier.hpp"

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <climits>

#include "abi.hpp"
#include "parallel/team.hpp"
#include "parallel/thread.hpp"
#include "sync/wait.hpp"

namespace loom::omp {

void futex_wait_int(std::atomic<int>& flag, int value) noexcept {
    syscall(SYS_futex, reinterpret_cast<int*>(&flag), FUTEX_WAIT_PRIVATE, value, nullptr, nullptr, 0);
}

void futex_wake_all(std::atomic<int>& flag) noexcept {
    syscall(SYS_futex, reinterpret_cast<int*>(&flag), FUTEX_WAKE_PRIVATE, INT_MAX, nullptr, nullptr, 0);
}

void team_barrier(implicit_task* it) {
    if (g_task_hooks.drain) g_task_hooks.drain(it, false);
    team* t = it->tm;
    if (!t || t->nthreads == 1) return;
    member_slot& me = t->slots[it->tid];
    const std::uint32_t e = t->bar_epoch.load(std::memory_order_acquire);
    if (t->bar_count.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        t->bar_count.store(t->nthreads, std::memory_order_relaxed);
        t->bar_epoch.fetch_add(1, std::memory_order_seq_cst);
        for (int i = 0; i < t->nthreads; ++i)
            if (i != it->tid) wake(t->slots[i].sleep);
        return;
    }
    wait_until([t, e] { return t->bar_epoch.load(std::memory_order_seq_cst) != e; }, me.sleep,
               it);
}

std::uint32_t gather(implicit_task* it) {
    if (g_task_hooks.drain) g_task_hooks.drain(it, false);
    team* t = it->tm;
    if (it->tid != 0) {
        const std::uint32_t e = t->red_epoch.load(std::memory_order_acquire);
        t->red_count.fetch_add(1, std::memory_order_seq_cst);
        wake(t->slots[0].sleep);
        return e;
    }
    const int others = t->nthreads - 1;
    wait_until([t, others] { return t->red_count.load(std::memory_order_seq_cst) == others; },
               t->slots[0].sleep, it);
    t->red_count.store(0, std::memory_order_relaxed);
    return 0;
}

void release_gathered(implicit_task* it) {
    team* t = it->tm;
    t->red_epoch.fetch_add(1, std::memory_order_seq_cst);
    for (int i = 1; i < t->nthreads; ++i) wake(t->slots[i].sleep);
}

void wait_released(implicit_task* it, std::uint32_t epoch) {
    team* t = it->tm;
    wait_until([t, epoch] { return t->red_epoch.load(std::memory_order_seq_cst) != epoch; },
               t->slots[it->tid].sleep, it);
}

}  // namespace loom::omp

using namespace loom::omp;

LOOM_OMP_API void __kmpc_barrier(ident_t*, kmp_int32) { team_barrier(current_task()); }

// Split barrier: member 0 returns 1 once everybody arrived and releases the others in
// __kmpc_end_barrier_master; the others return 0 after that release.
LOOM_OMP_API kmp_int32 __kmpc_barrier_master(ident_t*, kmp_int32) {
    implicit_task* it = current_task();
    if (!it->tm || it->nthreads == 1) return 1;
    std::uint32_t e = gather(it);
    if (it->tid == 0) return 1;
    wait_released(it, e);
    return 0;
}

LOOM_OMP_API void __kmpc_end_barrier_master(ident_t*, kmp_int32) {
    implicit_task* it = current_task();
    if (!it->tm || it->nthreads == 1 || it->tid != 0) return;
    release_gathered(it);
}

LOOM_OMP_API kmp_int32 __kmpc_barrier_master_nowait(ident_t*, kmp_int32) {
    implicit_task* it = current_task();
    team_barrier(it);
    return it->tid == 0 ? 1 : 0;
}
