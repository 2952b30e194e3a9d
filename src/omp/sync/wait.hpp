// Spin-then-park waiting used by barriers, join and reductions.
// Protocol (docs/omp.md, "Waiting"): the waiter spins on its condition for the spin
// budget (running explicit tasks through the task hooks), then publishes a non-zero
// `flag` and re-checks the condition before it sleeps; a waker first makes the
// condition true (seq_cst), then takes the flag with an exchange and wakes the waiter
// only if it found it set. Dekker-style seq_cst on both sides means either the waiter
// sees the condition or the waker sees the flag: no lost wake-up. Stale wake-ups are
// harmless because the waiter re-checks in a loop.
//
// How the waiter sleeps depends on the context it runs in (wait.cpp):
//  - flag = 2, park through ext::wait_slot: contexts the scheduler keeps on their
//    worker — member tasks (submitted with ext::submit_to) and the slot-0 thread on its
//    native stack. The worker runs other loom tasks meanwhile; the context resumes on
//    the same worker (gang, native-TLS threadprivate and gtid stay valid).
//  - flag = 1, block the OS thread on a futex: everything else (a loom task that
//    entered a region, which the scheduler could resume elsewhere; foreign threads).
#pragma once

#include <atomic>
#include <chrono>
#include <climits>
#include <cstdint>
#include <thread>

#include "loom/ext/futex.hpp"
#include "loom/ext/scheduler.hpp"
#include "loom/ext/spin.hpp"
#include "sync/wait_budget.hpp"

namespace loom::omp {

struct implicit_task;

struct sleeper {
    static constexpr int awake = 0;
    static constexpr int blocked = 1;  // the owner sleeps on the futex (or is about to)
    static constexpr int parked = 2;   // the owner parks on `slot` (or is about to)
    std::atomic<int> flag{awake};
    ext::wait_slot slot;
    /// The owner waits with its thread blocked although it runs on a worker (no fiber
    /// stack to park on: the address space is full): its worker serves no mailbox
    /// until it wakes, so no task is sent there (lending_worker in tasking/task_runner.cpp).
    std::atomic<bool> blocks_worker{false};
};

/// Marks `s` as blocking its worker for the scope of a wait that cannot park.
class blocking_wait {
public:
    explicit blocking_wait(sleeper* s) noexcept : s_(s) {
        if (s_) s_->blocks_worker.store(true, std::memory_order_release);
    }
    ~blocking_wait() {
        if (s_) s_->blocks_worker.store(false, std::memory_order_release);
    }
    blocking_wait(const blocking_wait&) = delete;
    blocking_wait& operator=(const blocking_wait&) = delete;

private:
    sleeper* s_;
};

/// Blocks while `flag` holds `value` (futex); may return spuriously.
inline void futex_wait_int(std::atomic<int>& flag, int value) noexcept {
    ext::futex_wait(&flag, static_cast<std::uint32_t>(value));
}
inline void futex_wake_all(std::atomic<int>& flag) noexcept { ext::futex_wake(&flag, INT_MAX); }

/// One round of a spin: the processor's spin-wait hint (ext/spin.hpp).
inline void spin_pause() noexcept { ext::cpu_relax(); }

/// Rounds a short wait spins before each further round gives the CPU up instead.
inline constexpr unsigned short_spins = 64;   // the awaited thread may need this CPU
inline constexpr unsigned long_spins = 4096;  // the awaited step is normally immediate

/// Round `round` of a busy wait: pause for the first `spins` rounds, then yield (when
/// members outnumber CPUs, the thread being waited for may be queued behind us).
inline void pause_then_yield(unsigned round, unsigned spins) noexcept {
    if (round < spins) spin_pause();
    else std::this_thread::yield();
}

/// Busy-waits until cond() holds, pausing then yielding (pause_then_yield).
template <class Cond>
void spin_until(Cond cond, unsigned spins = long_spins) {
    for (unsigned i = 0; !cond(); ++i) pause_then_yield(i, spins);
}

/// Spin rounds before yielding for waits whose length is unknown: unbounded unless the
/// pool has more workers than CPUs (ext::pool_oversubscribed).
inline unsigned spins_before_yield(bool oversubscribed) noexcept {
    return oversubscribed ? short_spins : ~0u;
}

/// Hooks through which the explicit-task layer takes part in waits: a waiting
/// member runs its team's explicit tasks (a barrier is a task scheduling point).
struct task_hooks {
    /// Runs one explicit task available to `it`'s team; true if it ran one.
    bool (*run_one)(implicit_task* it) = nullptr;
    /// Completes the explicit tasks `it` created (and their descendants) before a
    /// barrier or the end of its region (`region_end`: also frees its task context).
    void (*drain)(implicit_task* it, bool region_end) = nullptr;
    /// cancel taskgroup (request) / cancellation point taskgroup: 1 if cancelled.
    int (*cancel_taskgroup)(bool request) = nullptr;
    /// `it`'s wait (barrier, reduction, join) is over: it no longer lends its worker.
    void (*wait_end)(implicit_task* it) = nullptr;
};
extern task_hooks g_task_hooks;

/// Wakes the owner of `s` if it sleeps (call after making its condition true).
/// The waker that takes a `parked` flag owes the owner exactly one notify().
inline void wake(sleeper& s) noexcept {
    if (s.flag.load(std::memory_order_seq_cst) == sleeper::awake) return;
    const int was = s.flag.exchange(sleeper::awake, std::memory_order_seq_cst);
    if (was == sleeper::blocked) futex_wake_all(s.flag);
    else if (was == sleeper::parked) s.slot.notify();
}

/// Slow path of wait_until once the spin budget is spent (wait.cpp): parks or blocks
/// until done(arg) is true.
void sleep_until(bool (*done)(const void*), const void* arg, sleeper& s) noexcept;

long current_spin_budget_us() noexcept;

/// True if the calling context resumes on the same worker when it parks: a member task
/// (ext::submit_to), or the slot-0 thread on its native stack.
bool context_is_tied() noexcept;
/// Parks the calling (tied) context on `slot` until notified. Meanwhile the worker runs
/// other loom tasks, which see the thread as outside any region; the thread's current
/// implicit task is restored on return.
void park_tied(ext::wait_slot& slot) noexcept;
/// ext::yield() for a tied context, with the same save/restore as park_tied.
void yield_tied() noexcept;

/// Waits until done() (which must load with seq_cst) is true: spin, help, sleep.
template <class Done>
void wait_until(Done done, sleeper& s, implicit_task* it) {
    struct end_guard {
        implicit_task* it;
        ~end_guard() {
            if (it && g_task_hooks.wait_end) g_task_hooks.wait_end(it);
        }
    } guard{it};
    if (done()) return;
    const long budget = wait_budget_us();
    std::chrono::steady_clock::time_point start{};
    if (budget > 0) start = std::chrono::steady_clock::now();
    if (budget != 0) {
        // More workers than CPUs: the member we wait for may need this CPU, so give it
        // up soon (as libomp yields when oversubscribed) instead of spinning a time slice.
        const unsigned spins = spins_before_yield(ext::pool_oversubscribed());
        for (unsigned i = 1;; ++i) {
            if (done()) return;
            if (g_task_hooks.run_one && it && g_task_hooks.run_one(it)) {
                // Ran a task or lent the worker for a round: the budget counts that too.
                // Before, this path never checked it, so while any member had tasks every
                // waiting member cycled (lend, resume, lend) without ever sleeping: with
                // hundreds of members on 2 CPUs the member creating the tasks got a
                // sliver of a CPU and regions stalled for seconds. Once asleep, the
                // member's worker still runs the team's tasks from its loop.
                if (spins != ~0u) std::this_thread::yield();
                if (budget > 0 &&
                    std::chrono::steady_clock::now() - start > std::chrono::microseconds(budget))
                    break;
                continue;
            }
            pause_then_yield(i, spins);
            if ((i & 255) == 0 && budget > 0 &&
                std::chrono::steady_clock::now() - start > std::chrono::microseconds(budget))
                break;
        }
    }
    sleep_until([](const void* d) { return (*static_cast<const Done*>(d))(); }, &done, s);
    if (budget > 0)
        note_slept_wait(budget, std::chrono::duration_cast<std::chrono::nanoseconds>(
                                    std::chrono::steady_clock::now() - start)
                                    .count());
}

}  // namespace loom::omp
