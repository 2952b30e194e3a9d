// One worker: an OS thread bound to a place, with its queues, caches and counters.
// Slot 0 is the thread that started the pool; it works only while it waits inside
// the runtime. See docs/architecture.md, "Workers and queues".
#pragma once

#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

#include "chase_lev_deque.hpp"
#include "counters.hpp"
#include "fiber.hpp"
#include "loom/ext/task.hpp"
#include "mailbox.hpp"
#include "record_cache.hpp"
#include "spin_policy.hpp"
#include "trace.hpp"

namespace loom::core {

class pool;

class worker {
public:
    worker(pool& owner, unsigned index);
    ~worker();
    worker(const worker&) = delete;
    worker& operator=(const worker&) = delete;

    pool& owner;
    const unsigned index;

    // ---- queues (see docs/protocols/deque.md and sleep.md)
    /// Normal and low priority work of this worker (high-priority tasks go to the
    /// pool's level_queue).
    chase_lev_deque<ext::task*> deques[2];
    chase_lev_deque<ext::task*>& local_deque(priority p) noexcept {
        return deques[p == priority::low ? 1 : 0];
    }
    /// High-priority tasks taken in a row: bounds how long they keep this worker
    /// from its own normal work (worker::try_get).
    unsigned high_streak = 0;
    mailbox box;

    // ---- sleeping: 1 while the worker sleeps or is about to; a waker swaps it to 0
    alignas(64) std::atomic<std::uint32_t> sleep_word{0};
    /// When a waker asked this worker to wake (steady ns; 0: none since it slept).
    /// Written before the waker's swap of sleep_word (whose release publishes it), read
    /// after the sleeper's acquire of the 0. Tells the spin policy when the work came,
    /// not when the woken thread got a CPU (spin_policy.hpp).
    std::atomic<std::int64_t> wake_requested_ns{0};

    // ---- spinning idle: the doorbell a pusher rings, or hands a task through, instead
    // of waiting for the next scan (docs/protocols/sleep.md, "Spinning workers").
    // Polled between the pauses of the spin, so it lives on a line of its own that
    // only a ring writes. Any value above `rung` is a task handed in (records are
    // 64-byte aligned).
    static constexpr std::uintptr_t not_listening = 0, listening = 1, rung = 2;
    alignas(64) std::atomic<std::uintptr_t> doorbell{not_listening};
    bool rescan_owed = false;  // a ring answered, its rescan not yet made (this thread only)
    // A task handed in as exit abandoned the pool's work: never run, kept where a leak
    // checker finds it (this thread only).
    ext::task* abandoned_handoff = nullptr;

    // ---- state of the thread running as this worker (touched by that thread only)
    alignas(64) context native;       // the thread's own stack
    context* current = nullptr;       // the context running now
    // True while `current` runs a task (not the worker loop): what is running when the
    // exit gives up on unfinished work (exit_drain.cpp). Written by this worker only.
    std::atomic<bool> in_task{false};
    std::vector<fiber*> fiber_cache;  // idle fibers ready to restart
    record_cache records;             // free task records (task_pool.cpp)
    std::uint64_t rng = 0;
    spin_policy spin;  // the idle spin budget when it adapts (config::spin_adaptive)

    // ---- next in line (ext::begin_final_release): while `releasing_last`, the first
    // task the running task submits waits in `next_in_line` and try_get takes it
    // first after the mailbox. Both this thread only; next_in_line is empty again by
    // the time the task that filled it has ended (run_if_on_top flushes what a task it
    // ran inline kept).
    bool releasing_last = false;
    ext::task* next_in_line = nullptr;
    /// Keeps `t` as next_in_line if a final release is open and nothing is kept yet.
    /// The test of the flag is inline: every submit from a worker asks.
    bool keep_next(ext::task* t) noexcept { return releasing_last && keep_as_next(t); }
    /// Moves a kept task, if any, onto this worker's deque with the usual wake-up:
    /// announced and stealable, for when this worker does not run it next.
    void queue_kept() noexcept;

    worker_counters counters;
    trace_track trace;   // LOOM_TRACE events of this worker's track (trace.hpp)
    std::thread thread;  // empty for slot 0

    /// Looks for work once: mailbox, priorities, injection queue, victims.
    ext::task* try_get() noexcept;
    /// try_get() with spinning and sleeping; null only when the pool stops.
    ext::task* find_work() noexcept;

    /// A fiber to switch to (from the cache or newly mapped); null if the OS refuses.
    fiber* take_fiber() noexcept;
    void give_back(fiber* f) noexcept;

private:
    ext::task* steal_from_victims(priority p) noexcept;
    std::uint64_t steal_half_of(chase_lev_deque<ext::task*>& victim) noexcept;
    bool anything_visible() noexcept;
    ext::task* poll_idle(std::int64_t now, bool& polled) noexcept;
    bool keep_polling(std::int64_t budget_ns, int me) noexcept;
    bool sleep() noexcept;
    bool sleep_until(std::int64_t due) noexcept;
    void start_listening() noexcept;
    std::uintptr_t stop_listening() noexcept;
    static ext::task* handed_task(std::uintptr_t doorbell_word) noexcept;
    bool pause_for_doorbell(unsigned pauses) noexcept;
    bool answer_doorbell() noexcept;
    ext::task* found_while_listening(ext::task* t) noexcept;
    bool keep_as_next(ext::task* t) noexcept;
    ext::task* settle_doorbell(std::uintptr_t word, ext::task* t) noexcept;
};

/// The worker the calling thread runs as, or null outside the pool. Not inlined, and
/// must be asked again after any point where the caller's context may have been
/// parked: it may resume on another worker.
worker* this_worker() noexcept;

/// Initial-exec: one pointer of static TLS, so that reading it is a single load
/// instead of a __tls_get_addr call, while libloom stays loadable by dlopen (glibc
/// reserves surplus static TLS for such small initial-exec blocks). `__thread`: no
/// dynamic initialisation, so no TLS wrapper call either.
extern __thread worker* t_worker __attribute__((tls_model("initial-exec")));

/// this_worker() inlined, for functions that cannot park before they return (queue
/// pushes and pops, record allocation): the compiler may keep the TLS address only
/// within such a call, which runs on one thread.
inline worker* this_worker_here() noexcept { return t_worker; }
void set_this_worker(worker* w) noexcept;

}  // namespace loom::core
