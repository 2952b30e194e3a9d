// The scheduler's extension interface: where the caller runs, how it waits, how the
// pool is configured and observed. The C++ API and the OpenMP layer use only this
// header and ext/task.hpp (see docs/architecture.md, "Layers").
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "loom/ext/export.hpp"
#include "loom/ext/task.hpp"

namespace loom::ext {

// ---- configuration and life cycle -------------------------------------------------

/// Explicit configuration of the pool. Zero / negative fields mean "from the
/// environment, else the default" (see docs/configuration.md).
struct pool_options {
    unsigned num_threads = 0;     // workers, slot 0 included; 0 = LOOM_NUM_THREADS etc.
    std::size_t stack_size = 0;   // bytes per fiber stack; 0 = LOOM_STACKSIZE or 1 MiB
    long spin_us = -1;            // idle spin before sleeping; -1 = LOOM_SPIN_US or 100
    int pin_workers = -1;         // 1: bind each worker to its place; 0: never; -1: LOOM_PIN (default: no)
};

/// Starts the pool with `opts` if it is not running; returns false (and changes
/// nothing) if it was already running. When the process's main thread starts a pool
/// of two or more workers, it becomes slot 0 (it works while it waits inside the
/// runtime); otherwise every worker is a pool thread and the caller stays outside.
LOOM_EXPORT bool start(const pool_options& opts);
/// Waits until every submitted task has finished, then stops the workers. The next
/// use of the runtime starts a fresh pool.
LOOM_EXPORT void shutdown();
/// True while a pool exists.
LOOM_EXPORT bool running() noexcept;
/// The process is exiting while tasks wait for something that can no longer happen
/// (exit() called inside an OpenMP region whose members wait for their master): the
/// exit hook then leaves the pool's threads to the process's end instead of draining.
LOOM_EXPORT void abandon_at_exit() noexcept;
/// Runs `hook` at the start of the exit drain, before it waits for work in flight (in
/// registration order, once): a layer whose tasks wait for a signal only exit gives
/// (lingering OpenMP members) sends it there.
LOOM_EXPORT void add_exit_hook(void (*hook)());
/// Adds a line to the LOOM_STATS summary printed at exit: `source` is called then (a
/// layer's own counts, e.g. OpenMP regions).
LOOM_EXPORT void add_stats_source(std::string (*source)());
/// Starts the pool from the environment if it is not running (lazy start).
LOOM_EXPORT void ensure_started();

/// The most workers a pool of this process can have: the count at which the OS
/// refused a worker thread or its first fiber stack, or 0 while nothing was refused.
LOOM_EXPORT unsigned worker_limit() noexcept;
/// Number of workers (slot 0 included); starts the pool if needed.
LOOM_EXPORT unsigned worker_count();
/// Adds workers to the running pool (starting it if none runs) until it has `n`, at
/// most 4096 and the limit of an earlier refusal; the workers that exist keep
/// running. Callable from tasks. Returns the pool's size afterwards.
LOOM_EXPORT unsigned grow_workers(unsigned n);
/// True while the running pool has more workers than CPUs the process may use: its
/// affinity mask (the real one also on a simulated machine) and cgroup CPU quota, the
/// count the workers' own idle spin gives up by. For layers that wait on their own.
LOOM_EXPORT bool pool_oversubscribed() noexcept;
/// Whether worker `w` runs a task at this moment (false for a worker that does not
/// exist). A snapshot: it may take a task right after.
LOOM_EXPORT bool worker_in_task(unsigned w) noexcept;
/// Index of the worker the caller runs on, or -1 for a thread outside the pool. The
/// main thread adopted as slot 0 answers 0 even while it is not inside the runtime.
/// Not inlined on purpose: after any suspension point the answer may change, so it
/// must be asked again rather than cached.
LOOM_EXPORT int current_worker() noexcept;
/// The configured fiber stack size and spin budget, as resolved at start. Before a
/// pool exists, the spin budget is the one a pool started now with default options
/// would get (LOOM_SPIN_US or 100), so that a layer can show or use it before it
/// starts one (OpenMP's kmp_get_blocktime, OMP_DISPLAY_ENV).
LOOM_EXPORT std::size_t stack_size() noexcept;
LOOM_EXPORT long spin_budget_us() noexcept;
/// Whether the workers adapt their idle spin below spin_budget_us() (unless
/// LOOM_SPIN_US or the pool's options fixed it); before a pool exists, as for
/// spin_budget_us().
LOOM_EXPORT bool spin_budget_adapts() noexcept;
/// The calling worker's idle spin budget now: spin_budget_us() unless it adapts (then
/// what the worker's recent idle periods say: core/spin_policy.hpp); -1: no pool.
/// For layers that wait on their own (an OpenMP member lingering between regions).
LOOM_EXPORT long idle_spin_budget_us() noexcept;
/// Tells the calling worker's adaptive budget how a wait of that layer ended: after
/// `waited_ns`, with the work found while spinning (slept false) or not.
LOOM_EXPORT void note_idle_wait(long long waited_ns, bool slept) noexcept;

// ---- helping ------------------------------------------------------------------------

/// Pops the most recently pushed task of the calling worker's deque, or null (also
/// null outside the pool). The caller must run or re-push what it gets.
LOOM_EXPORT task* pop_local() noexcept;
/// Pushes `t` back on the calling worker's deque (only valid on a worker).
LOOM_EXPORT void push_local(task* t) noexcept;
/// If the calling worker's most recently pushed task is `t`, takes and runs it here
/// and returns true. Used to run a task inline when its result is awaited.
LOOM_EXPORT bool run_if_on_top(task* t) noexcept;
/// Lets other ready work run: a task re-queues itself behind the work available now.
LOOM_EXPORT void yield() noexcept;
/// Ties the running context to the calling worker, as running a task from a mailbox
/// does: if it parks, it resumes on this worker. For a layer whose task, taken by this
/// worker from a queue, must not change threads once started (OpenMP's tied tasks).
LOOM_EXPORT void tie_to_this_worker() noexcept;
/// Whether a wait of the calling context would park it (its worker goes on with other
/// work meanwhile) rather than block its thread: a pool worker that has a fiber to run
/// its loop on, or can map one now. A waiter whose wake-up is work queued on its own
/// worker (a task it submitted) must not wait when this is false: blocked, its worker
/// would never run that work.
LOOM_EXPORT bool can_park_now() noexcept;
/// True while a high-priority task is queued in the pool (a relaxed hint). A waiting
/// task that runs its own queued children inline (pop_local) should stop doing so and
/// wait through the scheduler instead, which takes high-priority work first.
LOOM_EXPORT bool high_priority_pending() noexcept;

// ---- the last act of a task ---------------------------------------------------------

/// Opens a final release on the calling worker: the running task has nothing left to
/// do but make others runnable (a future's state set as an async task, a continuation,
/// a dataflow or a coroutine ends). Until
/// end_final_release, the first normal-priority task it submits (not a parked task it
/// makes runnable) is kept for this worker to run right after the running task:
/// no queue, no hand-off to a spinning worker, no wake-up. A chain of dependent tasks
/// then stays on one worker instead of crossing to an idle one at every step
/// (docs/architecture.md, "Next in line"). Anything more it releases is queued as
/// usual, so fan-out still spreads. Returns null (nothing opened) outside a task, or
/// when a final release is open already. Must not be used while user code still
/// runs in the task: what it keeps waits until the task has ended.
LOOM_EXPORT void* begin_final_release() noexcept;
/// Closes what begin_final_release opened (its return value, when not null).
LOOM_EXPORT void end_final_release(void* opened) noexcept;

/// A final release for the scope of the object (see begin_final_release).
class final_release {
public:
    final_release() noexcept : opened_(begin_final_release()) {}
    ~final_release() {
        if (opened_ != nullptr) end_final_release(opened_);
    }
    final_release(const final_release&) = delete;
    final_release& operator=(const final_release&) = delete;

private:
    void* opened_;
};

// ---- automatic critical-path priority (docs/configuration.md, LOOM_CRITICAL_PATH) ---

/// True when LOOM_CRITICAL_PATH switched the automatic priority of dependent tasks on
/// (read once). Off by default.
LOOM_EXPORT bool critical_path_enabled() noexcept;
/// For a dependent task about to be queued with `successors` tasks waiting for it:
/// the high-priority level to give it (1-255, more successors higher), or 0 to leave
/// it as it is. Critical: at least two successors and at least twice the mean of the
/// dependent tasks ranked recently (a task that releases many others is where the
/// graph narrows). Every call also feeds the mean.
LOOM_EXPORT unsigned critical_level(unsigned successors) noexcept;

// ---- waiting ---------------------------------------------------------------------

/// A one-shot event with a single waiter. In a task (or the slot-0 thread) wait()
/// parks the caller's context and its worker continues on another fiber; any other
/// thread blocks on a futex. notify() may come before, during or after wait().
/// wait_until() adds a deadline: a parked waiter whose deadline passes is resumed by
/// the workers' timer heap, a blocked thread by the futex's timeout.
/// The memory-ordering argument is in docs/protocols/wait_slot.md and timers.md.
class LOOM_EXPORT wait_slot {
public:
    wait_slot() = default;
    wait_slot(const wait_slot&) = delete;
    wait_slot& operator=(const wait_slot&) = delete;

    /// Returns once notify() has been called. Everything written before notify()
    /// happens-before the return.
    void wait() noexcept;
    /// As wait(), but gives up once `deadline` has passed. Returns true if notify()
    /// was called (everything written before it happens-before the return), false on
    /// timeout, which is never before `deadline`. After false the slot is empty again,
    /// as if the wait had not happened: a notify() that comes later makes the next
    /// wait() return at once, so a waiter that cannot withdraw from its wait list in
    /// time collects that notification with wait(). A deadline in the past only
    /// checks; time_point::max() waits as wait() does.
    bool wait_until(std::chrono::steady_clock::time_point deadline) noexcept;
    /// Wakes the waiter (or makes the next wait() return at once).
    void notify() noexcept;
    [[nodiscard]] bool notified() const noexcept {
        return state_.load(std::memory_order_acquire) == notified_state;
    }
    /// Makes the slot reusable. Only when no wait() or notify() is in progress.
    void reset() noexcept { state_.store(empty_state, std::memory_order_relaxed); }

    static constexpr std::uint32_t empty_state = 0;
    static constexpr std::uint32_t parked_state = 1;    // a context is parked in context_
    static constexpr std::uint32_t blocked_state = 2;   // a thread sleeps on the futex
    static constexpr std::uint32_t notified_state = 3;

private:
    bool block_until(std::int64_t due) noexcept;

    std::atomic<std::uint32_t> state_{empty_state};
    void* context_ = nullptr;
};

// ---- idle pollers --------------------------------------------------------------------

/// Makes progress on something outside the scheduler (MPI requests, I/O completions):
/// completes what finished, typically by making futures ready. Returns true while
/// it still has work pending. Called on a worker's loop, never inside a task: it
/// must not wait, and it must be short.
using idle_poll_fn = bool (*)(void* arg) noexcept;

/// Registers a poller. While it has work pending (idle_poller_pending), workers call
/// it: a worker that finds no task, at every round of its idle spin; a worker between
/// two tasks, when the last call is `interval` old; and while every worker sleeps,
/// one of them wakes every `interval` to call it. One call at a time: a worker that
/// finds the poller busy goes on. When it returns false it is called no more until
/// the next idle_poller_pending. While every worker runs a long task nobody polls.
/// Returns the poller's id, or -1 (with one warning) when all 16 places are taken.
/// The protocol is in docs/protocols/idle_pollers.md.
LOOM_EXPORT int add_idle_poller(idle_poll_fn fn, void* arg, std::chrono::microseconds interval);
/// Unregisters poller `id`. On return no worker is inside it, and none will call it.
LOOM_EXPORT void remove_idle_poller(int id) noexcept;
/// Poller `id` has work pending (call it after adding the work): it will be called
/// within its interval, also when every worker sleeps now.
LOOM_EXPORT void idle_poller_pending(int id) noexcept;
/// Calls poller `id` on the calling thread unless a worker is inside it (then returns
/// true: still pending). For a thread that waits for the poller's work to finish
/// (draining it before the resource it polls goes away) and must not rely on workers.
LOOM_EXPORT bool poll_now(int id) noexcept;

// ---- observation -------------------------------------------------------------------

/// Counters of one worker since the pool started.
struct worker_stats {
    std::uint64_t tasks_run = 0;
    std::uint64_t steals = 0;        // steal visits that found work
    std::uint64_t failed_steals = 0;
    std::uint64_t sleeps = 0;
    std::uint64_t fibers_created = 0;
    std::uint64_t suspensions = 0;
    std::uint64_t tasks_stolen = 0;  // tasks the steal visits took (up to half a victim's deque each)
    std::uint64_t rings = 0;         // idle spins cut short by a pusher's doorbell (sleep.md)
    std::uint64_t handoffs = 0;      // tasks handed to this worker while it spun idle (sleep.md)
};

/// A snapshot of every worker's counters (empty if the pool is not running).
LOOM_EXPORT std::vector<worker_stats> stats();

/// Turns the LOOM_STATS summary on, as if LOOM_STATS=1 had been set when the library
/// loaded (loom::init's --loom:print-counters): it is printed on stderr at exit. Wall
/// time and energy count from this call unless LOOM_STATS already had it on. Call it
/// before the pool starts, so that every pool's counters are included.
LOOM_EXPORT void enable_stats_report() noexcept;

/// The place (list of OS processor ids) worker `w` is bound to; empty if unpinned.
LOOM_EXPORT std::vector<unsigned> worker_place(unsigned w);
/// The workers worker `w` steals from, in the order it tries them (nearest first).
LOOM_EXPORT std::vector<unsigned> worker_victims(unsigned w);

}  // namespace loom::ext
