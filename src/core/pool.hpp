// The pool: every worker, the injection queues, and the pool-wide sleep and shutdown
// state. One pool per process at a time (runtime.cpp owns it).
#pragma once

#include <sched.h>
#include <unistd.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "config.hpp"
#include "idle_pollers.hpp"
#include "injection_queue.hpp"
#include "level_queue.hpp"
#include "loom/ext/scheduler.hpp"
#include "stack_guard.hpp"
#include "timer_heap.hpp"
#include "topology.hpp"
#include "worker.hpp"

namespace loom::core {

class pool {
public:
    /// Starts the workers. The process's main thread, when it starts a pool of two or
    /// more workers, becomes slot 0: it works while it waits inside the runtime. Any
    /// other starter stays outside and all workers are pool threads (a one-worker pool
    /// too, so that work never waits for a thread that may not come back). If the OS
    /// refuses a thread or a worker's first fiber stack, the pool continues with the
    /// workers that can run and says so once; later pools of the process are capped at
    /// that size without trying again (worker_limit()).
    explicit pool(const config& cfg);
    /// Stops and joins the pool threads. Call only once quiescent (see drain()).
    ~pool();
    pool(const pool&) = delete;
    pool& operator=(const pool&) = delete;

    /// Most workers a pool can have: OpenMP's documented thread limit.
    static constexpr unsigned max_workers = 4096;

    /// Workers that can run now. Grows (grow()) while the pool runs, never shrinks.
    [[nodiscard]] unsigned size() const noexcept { return size_.load(std::memory_order_acquire); }
    /// More workers than CPUs the process may use: a spinning worker may hold the CPU
    /// the thread it waits for needs, so idle spinning yields every round.
    [[nodiscard]] bool oversubscribed() const noexcept { return oversubscribed_.load(std::memory_order_relaxed); }
    /// Only for i < size(): a slot is filled before size() counts it (release/acquire).
    worker& at(unsigned i) noexcept { return *workers_[i]; }
    /// Other workers of `i`, nearest first. May name workers beyond size() (a growth
    /// in progress or refused): callers skip those.
    [[nodiscard]] const std::vector<unsigned>& victims(unsigned i) const noexcept {
        const victim_table& t = *victims_.load(std::memory_order_acquire);
        return i < t.size() ? t[i] : no_victims_;
    }
    [[nodiscard]] const std::vector<unsigned>& place(unsigned i) const {
        return topo_.load(std::memory_order_acquire)->place(i);
    }
    /// Adds workers while the pool runs until it has `n` (at most max_workers and the
    /// limit a refusal set). Callable from any thread, inside tasks too: existing
    /// workers keep running; the new ones start their loops at once. Returns size().
    unsigned grow(unsigned n);

    const config cfg;
    /// True when slot 0 is the main thread (not a pool thread).
    const bool slot0_adopted;
    [[nodiscard]] bool is_adopted(const worker& w) const noexcept { return slot0_adopted && w.index == 0; }
    /// Submissions from threads outside the pool, indexed by loom::priority (the high
    /// entry stays unused: high tasks from anywhere go to `high`).
    injection_queue injection[3];
    /// Every queued high-priority task, by level (level_queue.hpp says why one queue).
    level_queue high;

    // ---- sleep / wake (docs/protocols/sleep.md)
    /// After making work visible to thieves: wakes one sleeping worker if any sleeps.
    void wake_one() noexcept;
    /// After a worker pushed onto its own deque: wakes a sleeper only when the deque
    /// was empty before. A push onto a non-empty deque needs none: see sleep.md,
    /// "Pushes onto a non-empty deque".
    void wake_after_push(bool deque_was_empty) noexcept {
        if (deque_was_empty) wake_one();
    }
    /// Gives `t` (normal or low priority) to the nearest worker spinning idle, if one
    /// listens: `self` found its own deque empty, so a thief would take it next
    /// (sleep.md, "Spinning workers"). False: nobody listened, queue it as usual.
    bool hand_off(const worker& self, ext::task* t) noexcept {
        return spinners.load(std::memory_order_relaxed) != 0 &&
               ring_spinner(&self, reinterpret_cast<std::uintptr_t>(t));
    }
    /// After putting work in `w`'s mailbox: rings `w`'s doorbell if it spins, wakes it
    /// if it sleeps.
    void wake(worker& w) noexcept;
    /// Wakes `w` if it sleeps, stamping when it was asked to (wake_one and wake);
    /// false if it was not asleep or another waker got there first.
    bool wake_sleeper(worker& w) noexcept;
    /// Workers asleep (or about to be), and workers spinning with their doorbell
    /// listening. One line: a pusher reads both after its fence with one miss.
    alignas(64) std::atomic<unsigned> sleepers{0};
    std::atomic<unsigned> spinners{0};
    std::atomic<bool> stopping{false};

    // ---- deadlines of parked timed waits (docs/protocols/timers.md)
    timer_heap timers;
    /// The sleeping worker that wakes for the earliest deadline, and for the idle
    /// pollers' next call (-1: none). Claimed by a worker going to sleep, given up
    /// when it wakes.
    alignas(64) std::atomic<int> timer_watcher{-1};
    /// Resumes the waiters whose deadline has passed at `now` (steady nanoseconds).
    /// Cheap while no timer is pending: one relaxed load.
    void serve_timers(std::int64_t now) noexcept {
        if (timers.earliest() <= now) expire_timers(now);
    }
    /// After arming a deadline earlier than any before, or after an idle poller got
    /// work pending: the watcher (or, with none, a sleeping worker that will become
    /// it) must shorten its sleep.
    void deadline_armed() noexcept;
    /// Called by a worker about to run a task: if timers are pending, nobody watches
    /// them and workers sleep, one of them is woken to become the watcher (the last
    /// watcher may be this worker, leaving for a long task). Seq-cst loads: a sleeper
    /// that failed to claim the watch read the claim before its release, so its
    /// sleepers increment precedes both in the total order and is seen here.
    /// Idle pollers with work pending need the watcher as deadlines do (idle_pollers.md).
    void keep_timers_watched() noexcept {
        if ((timers.earliest() != timer_heap::none || pollers().active()) &&
            timer_watcher.load(std::memory_order_seq_cst) < 0 && sleepers.load(std::memory_order_seq_cst) > 0)
            wake_one();
    }

    /// The idle worker that keeps spinning past its budget while an idle poller has
    /// work pending (-1: none), so that pending outside work (MPI requests) is polled
    /// continuously rather than once per interval (idle_pollers.md). A role, not a
    /// lock: relaxed, only its holder gives it up.
    alignas(64) std::atomic<int> poll_spinner{-1};
    /// True if worker `me` holds or took the role.
    bool claim_poll_spinner(int me) noexcept {
        int cur = poll_spinner.load(std::memory_order_relaxed);
        return cur == me || (cur < 0 && poll_spinner.compare_exchange_strong(cur, me, std::memory_order_relaxed));
    }
    void release_poll_spinner(int me) noexcept {
        if (poll_spinner.load(std::memory_order_relaxed) == me) poll_spinner.store(-1, std::memory_order_relaxed);
    }

    std::atomic<bool> abandoned{false};  // exit gave up on the work in flight
    /// Where a worker waits once `abandoned`: until the process ends.
    [[noreturn]] static void hold_forever() noexcept;

    // ---- quiescence for shutdown
    std::atomic<std::uint64_t> foreign_submitted{0};
    /// Blocks (or parks) until every submitted task has completed.
    void drain();
    /// Every submitted task has completed (a snapshot; see quiescent()).
    [[nodiscard]] bool quiescent_now() const noexcept { return quiescent(); }
    /// Tasks submitted and not completed: queued (not started), running, and parked
    /// (started, waiting). A snapshot of racing counters, exact only at rest.
    struct unfinished_work {
        std::uint64_t total = 0, queued = 0, running = 0, parked = 0;
    };
    [[nodiscard]] unfinished_work unfinished() const noexcept;
    /// Exit gave up on the work in flight: workers start no further task and wait
    /// until the process ends (a task running now runs on).
    void stop_taking_work() noexcept;
    /// Called by a worker that found nothing to do: finishes a drain in progress.
    void check_drained() noexcept;
    /// In a fork child: gives the forking thread the mask it had before slot 0 was
    /// bound (LOOM_PIN=true), so the child's own pool and programs see the process's.
    void restore_slot0_mask_in_child() const noexcept {
        if (slot0_rebind_ && gettid() == getpid()) sched_setaffinity(0, sizeof slot0_mask_, &slot0_mask_);
    }
    /// A drain waits for the last completion (cheap: one relaxed load).
    [[nodiscard]] bool drain_pending() const noexcept {
        return drain_slot_.load(std::memory_order_relaxed) != nullptr;
    }

private:
    bool ring_spinner(const worker* self, std::uintptr_t to) noexcept;
    [[nodiscard]] bool quiescent() const noexcept;
    void expire_timers(std::int64_t now) noexcept;
    using victim_table = std::vector<std::vector<unsigned>>;
    /// Creates workers from size() up to `n`, each with its first fiber and (but the
    /// adopted slot 0) its thread; stops at the first refusal, said once.
    void start_workers(unsigned n);
    void publish_topology(std::unique_ptr<topology> t);
    int start_thread(unsigned i) noexcept;
    void thread_main(unsigned index);

    // Topologies and victim tables are replaced whole when the pool grows; readers
    // load the pointer (acquire) and the old ones stay until the pool ends, so a
    // reader never sees one freed. Only grow() and the constructor write them.
    std::atomic<const topology*> topo_{nullptr};
    std::atomic<const victim_table*> victims_{nullptr};
    std::vector<std::unique_ptr<topology>> topologies_;
    std::vector<std::unique_ptr<victim_table>> victim_tables_;
    const std::vector<unsigned> no_victims_;
    std::mutex grow_mutex_;
    // The adopted main thread's mask before slot 0 bound it, given back when the pool
    // ends: the next pool (pause and resume, a grown pool) reads the CPUs it may use
    // from that thread's mask, and would otherwise put every worker on place 0.
    cpu_set_t slot0_mask_{};
    bool slot0_rebind_ = false;
    // The adopted main thread runs fibers while it waits: it needs a signal stack for
    // the overflow report, unless it has one of its own.
    alt_signal_stack slot0_altstack_;
    // Fixed array of max_workers slots: growing never moves a worker. Slot i is
    // written before size_ counts it.
    std::unique_ptr<std::unique_ptr<worker>[]> workers_;
    std::atomic<unsigned> size_{0};
    std::atomic<bool> oversubscribed_{false};
    std::atomic<std::uint32_t> gate_{0};  // pool threads wait here until construction ends
    std::atomic<ext::wait_slot*> drain_slot_{nullptr};
};

}  // namespace loom::core
