// Spin-then-sleep waiting used by barriers, join and reductions.
// Protocol (docs/omp.md, "Waiting"): the waiter spins on its condition for the spin
// budget, then publishes `flag = 1` and re-checks the condition before sleeping on the
// flag (futex); a waker first makes the condition true (seq_cst), then takes the flag
// with an exchange and wakes only if it found 1. Dekker-style seq_cst on both sides
// means either the waiter sees the condition or the waker sees the flag: no lost
// wake-up. Stale wake-ups are harmless because the waiter re-checks in a loop.
//
// The sleep blocks the OS thread rather than parking the task through ext::wait_slot:
// the scheduler resumes a parked context on any worker, and an implicit task must stay
// on its worker (gang, native-TLS threadprivate, gtid). See docs/omp.md, "Open points".
#pragma once

#include <atomic>
#include <chrono>

#include "loom/ext/scheduler.hpp"

namespace loom::omp {

struct implicit_task;

struct sleeper {
    std::atomic<int> flag{0};  // 1 while the owner sleeps or is about to
};

/// Blocks while `flag` holds `value` (futex); may return spuriously.
void futex_wait_int(std::atomic<int>& flag, int value) noexcept;
void futex_wake_all(std::atomic<int>& flag) noexcept;

inline void spin_pause() noexcept {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield" ::: "memory");
#endif
}

/// Hooks through which the explicit-task layer (issue 4) takes part in waits: a waiting
/// member runs its team's explicit tasks (a barrier is a task scheduling point).
struct task_hooks {
    /// Runs one explicit task available to `it`'s team; true if it ran one.
    bool (*run_one)(implicit_task* it) = nullptr;
    /// Completes the explicit tasks `it` created (and their descendants) before a
    /// barrier or the end of its region (`region_end`: also frees its task context).
    void (*drain)(implicit_task* it, bool region_end) = nullptr;
    /// cancel taskgroup (request) / cancellation point taskgroup: 1 if cancelled.
    int (*cancel_taskgroup)(bool request) = nullptr;
};
extern task_hooks g_task_hooks;

/// Wakes the owner of `s` if it sleeps (call after making its condition true).
inline void wake(sleeper& s) noexcept {
    if (s.flag.load(std::memory_order_seq_cst) == 1 &&
        s.flag.exchange(0, std::memory_order_seq_cst) == 1)
        futex_wake_all(s.flag);
}

long current_spin_budget_us() noexcept;

/// Waits until done() (which must load with seq_cst) is true: spin, help, sleep.
template <class Done>
void wait_until(Done done, sleeper& s, implicit_task* it) {
    if (done()) return;
    long budget = current_spin_budget_us();
    if (budget != 0) {
        auto start = std::chrono::steady_clock::now();
        for (unsigned i = 1;; ++i) {
            if (done()) return;
            if (g_task_hooks.run_one && it && g_task_hooks.run_one(it)) continue;
            spin_pause();
            if ((i & 255) == 0 && budget > 0 &&
                std::chrono::steady_clock::now() - start > std::chrono::microseconds(budget))
                break;
        }
    }
    for (;;) {
        s.flag.store(1, std::memory_order_seq_cst);
        if (done()) {
            s.flag.store(0, std::memory_order_relaxed);
            return;
        }
        while (s.flag.load(std::memory_order_seq_cst) == 1) futex_wait_int(s.flag, 1);
        if (done()) return;
    }
}

}  // namespace loom::omp
