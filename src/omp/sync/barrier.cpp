// Centralised sense-reversing barrier: one fetch_sub per member; the last arriver
// re-arms the count and bumps the epoch; waiters spin, run explicit tasks through the
// task hooks, then sleep (wait.hpp). Memory ordering: the count re-arm is sequenced
// before the epoch bump, and a waiter cannot arrive again before it sees the bump.
#include "sync/barrier.hpp"

#include <atomic>

#include "abi.hpp"
#include "parallel/team.hpp"
#include "parallel/thread.hpp"
#include "sync/wait.hpp"

namespace loom::omp {

namespace {

// One barrier episode; `leave()` (seq_cst loads only) lets a waiter go before the
// episode completes. Returns false if it did: its arrival stays counted, which is fine
// only because nobody may wait for this barrier any more (cancelled region, below).
struct nothing_on_last {
    void operator()(team*) const noexcept {}
};

template <class Leave, class Last = nothing_on_last>
bool barrier_episode(implicit_task* it, Leave leave, Last on_last = {}) {
    if (g_task_hooks.drain) g_task_hooks.drain(it, false);
    team* t = it->tm;
    if (!t || t->nthreads == 1) return true;
    member_slot& me = t->slots[it->tid];
    const std::uint32_t e = t->bar_epoch.load(std::memory_order_acquire);
    if (t->bar_count.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        on_last(t);  // before the bump: the others read what it wrote once they pass
        t->bar_count.store(t->nthreads, std::memory_order_relaxed);
        t->bar_epoch.fetch_add(1, std::memory_order_seq_cst);
        for (int i = 0; i < t->nthreads; ++i)
            if (i != it->tid) wake(t->slots[i].sleep);
        return true;
    }
    bool passed = false;
    wait_until(
        [t, e, &passed, &leave] {
            passed = t->bar_epoch.load(std::memory_order_seq_cst) != e;
            return passed || leave();
        },
        me.sleep, it);
    return passed;
}

}  // namespace

void team_barrier(implicit_task* it) {
    barrier_episode(it, [] { return false; });
}

bool team_barrier_unless_cancelled(implicit_task* it) {
    team* t = it->tm;
    return barrier_episode(
        it, [t] { return t->cancel_request.load(std::memory_order_seq_cst) == cancel_parallel; },
        [](team* last) {
            last->cancel_at_barrier.store(last->cancel_request.load(std::memory_order_acquire),
                                          std::memory_order_relaxed);
        });
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

bool split_barrier_begin(implicit_task* it) {
    if (!it->tm || it->nthreads == 1) return true;
    std::uint32_t e = gather(it);
    if (it->tid == 0) return true;
    wait_released(it, e);
    return false;
}

void split_barrier_end(implicit_task* it) {
    if (!it->tm || it->nthreads == 1 || it->tid != 0) return;
    release_gathered(it);
}

}  // namespace loom::omp
