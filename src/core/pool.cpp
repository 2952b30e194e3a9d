#include "pool.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <system_error>

#include "address_space.hpp"
#include "fence.hpp"
#include "futex.hpp"
#include "loop.hpp"
#include "runtime.hpp"
#include "stats_report.hpp"
#include "trace.hpp"

namespace loom::core {

namespace {
bool on_main_thread() noexcept { return gettid() == getpid(); }
}  // namespace

pool::pool(const config& c)
    : cfg(c), slot0_adopted(c.num_threads >= 2 && on_main_thread()),
      workers_(std::make_unique<std::unique_ptr<worker>[]>(max_workers)) {
    trace_configure();
    stats_configure();
    const unsigned n = std::min(cfg.num_threads, max_workers);
    publish_topology(std::make_unique<topology>(n));
    if (slot0_adopted) {
        workers_[0] = std::make_unique<worker>(*this, 0);
        worker& slot0 = *workers_[0];
        // Only on request (LOOM_PIN=true). Slot 0 is then a worker like the others:
        // left unbound, the OS may run it on a CPU where a pinned worker spins, and a
        // team of two then shares one CPU (measured: 30x slower OpenMP fork/join).
        // Threads the main thread creates later inherit this binding, as with
        // OMP_PROC_BIND; the mask is given back when the pool ends.
        if (cfg.pin_workers) {
            slot0_rebind_ = sched_getaffinity(0, sizeof slot0_mask_, &slot0_mask_) == 0;
            topo_.load(std::memory_order_relaxed)->bind_current_thread(0);
        }
        init_native_context(slot0.native, /*tied=*/0);
        slot0.current = &slot0.native;
        set_this_worker(&slot0);
    }
    start_workers(n);
    if (slot0_adopted) slot0_altstack_.enable();
    if (size() < cfg.num_threads) remember_limit(size());
    gate_.store(1, std::memory_order_release);
    futex_wake(&gate_, INT32_MAX);
}

// Victim lists come from the topology of the pool's target size; entries beyond the
// workers that exist are skipped by the readers (size()).
void pool::publish_topology(std::unique_ptr<topology> t) {
    auto table = std::make_unique<victim_table>();
    table->resize(t->places_count());
    for (unsigned w = 0; w < table->size(); ++w) (*table)[w] = t->victims(w);
    topo_.store(t.get(), std::memory_order_release);
    victims_.store(table.get(), std::memory_order_release);
    topologies_.push_back(std::move(t));
    victim_tables_.push_back(std::move(table));
}

unsigned pool::grow(unsigned n) {
    std::lock_guard lk(grow_mutex_);
    if (const unsigned limit = worker_limit(); limit > 0) n = std::min(n, limit);
    n = std::min(n, max_workers);
    const unsigned before = size();
    if (n <= before || stopping.load(std::memory_order_relaxed)) return before;
    // The CPUs of the first topology: the process's, read before any worker was bound.
    publish_topology(std::make_unique<topology>(n, topologies_.front()->cpus()));
    start_workers(n);
    if (size() < n) remember_limit(size());
    return size();
}

// A worker counts only once it can run: it needs a thread (but slot 0) and, for its
// loop, a fiber. Each worker gets both here, in turn (at construction the threads wait
// at the gate until every worker is counted); the first worker that cannot get one
// (address-space or thread limits: ulimit -v, ulimit -u) is dropped with those after
// it and the pool is smaller. A counted worker that never ran would leave an OpenMP
// team waiting for it forever. Fiber and thread are taken together so that neither
// kind of stack uses up the address space the other needs; neither is taken when it
// would leave less than address_space_reserve of a `ulimit -v` free (address_space.hpp).
void pool::start_workers(unsigned n) {
    for (unsigned i = size(); i < n; ++i) {
        if (!workers_[i]) workers_[i] = std::make_unique<worker>(*this, i);
        const char* failed = nullptr;
        int err = 0;
        if (fiber* f = fiber::create(cfg.stack_size)) {
            workers_[i]->counters.fibers_created.add();
            workers_[i]->give_back(f);
        } else {
            failed = "map a fiber stack for";
            err = errno;
        }
        if (!failed && !(slot0_adopted && i == 0)) {
            err = start_thread(i);
            if (err != 0) failed = "start a thread for";
        }
        if (!failed) {
            size_.store(i + 1, std::memory_order_release);
            oversubscribed_.store(i + 1 > cfg.cpus, std::memory_order_relaxed);
            continue;
        }
        if (i == 0) {
            std::fprintf(stderr,
                         "loom: error: could not %s the first worker (%s); no task can run. Raise "
                         "the limits (ulimit -v, ulimit -u) or lower LOOM_STACKSIZE / "
                         "OMP_STACKSIZE (fiber stacks of %zu KiB).\n",
                         failed, std::strerror(err), cfg.stack_size / 1024);
            std::abort();
        }
        std::fprintf(stderr,
                     "loom: warning: could not %s worker %u of %u (%s); continuing with %u "
                     "worker%s (limits: ulimit -v, ulimit -u; fiber stacks of %zu KiB, "
                     "LOOM_STACKSIZE / OMP_STACKSIZE)\n",
                     failed, i, n, std::strerror(err), i, i == 1 ? "" : "s",
                     cfg.stack_size / 1024);
        // The slot keeps its unused worker (its fiber, if any, cached): nothing reads
        // it, size() stops before it, and the pool's end frees it.
        return;
    }
}

// 0, or the error that kept worker i's thread from starting.
int pool::start_thread(unsigned i) noexcept {
    if (!address_space_allows(default_thread_stack_size())) return errno;
    try {
        workers_[i]->thread = std::thread([this, i] { thread_main(i); });
    } catch (const std::system_error& e) {
        return e.code().value();
    }
    return 0;
}

void pool::thread_main(unsigned index) {
    while (gate_.load(std::memory_order_acquire) == 0) futex_wait(&gate_, 0);
    worker& w = *workers_[index];
    // A thread of loom's own: its fibers' overflows are reported from this stack.
    alt_signal_stack altstack;
    altstack.enable();
    set_this_worker(&w);
    if (cfg.pin_workers) topo_.load(std::memory_order_acquire)->bind_current_thread(index);
    init_native_context(w.native, static_cast<int>(index));
    w.current = &w.native;
    enter_loop_from_native(w);
    destroy_native_context(w.native);
    set_this_worker(nullptr);
}

pool::~pool() {
    stopping.store(true, std::memory_order_seq_cst);
    for (unsigned i = 0; i < size(); ++i) {
        workers_[i]->sleep_word.store(0, std::memory_order_seq_cst);
        futex_wake(&workers_[i]->sleep_word, 1);
    }
    for (unsigned i = 0; i < size(); ++i)
        if (workers_[i]->thread.joinable()) workers_[i]->thread.join();
    trace_archive(*this);
    stats_archive(*this);
    if (slot0_adopted && this_worker() == workers_[0].get()) set_this_worker(nullptr);
    // The main thread's id is the process id (this may run on another thread).
    if (slot0_rebind_) sched_setaffinity(getpid(), sizeof slot0_mask_, &slot0_mask_);
    // On the main thread: taken away again. Elsewhere it stays main's (never unmapped).
    slot0_altstack_.disable();
}

// Swaps a sleeping worker's word to 0 and wakes its thread; false if it was not
// asleep (or another waker got there first). The request time goes first, published
// by the swap's release: the woken worker's spin policy measures its idle period up
// to it (worker::find_work).
bool pool::wake_sleeper(worker& w) noexcept {
    if (w.sleep_word.load(std::memory_order_relaxed) != 1) return false;
    w.wake_requested_ns.store(steady_now_ns(), std::memory_order_relaxed);
    if (w.sleep_word.exchange(0, std::memory_order_acq_rel) != 1) return false;
    futex_wake(&w.sleep_word, 1);
    return true;
}

void pool::wake_one() noexcept {
    // Store-load fence: the work just pushed must be visible before we read
    // `sleepers`, or a worker going to sleep and this push could miss each other.
    full_fence();
    worker* self = this_worker();
    // A spinning worker takes it sooner than a sleeper can wake up, and costs no system
    // call; a worker counted here that stops spinning before it rescans is covered by
    // the same fence argument as a sleeper (sleep.md, "Spinning workers").
    if (spinners.load(std::memory_order_relaxed) != 0 && ring_spinner(self, worker::rung)) return;
    if (sleepers.load(std::memory_order_relaxed) == 0) return;
    unsigned start = self ? self->index : 0;
    const unsigned n = size();
    for (unsigned k = 0; k < n; ++k) {
        worker& w = *workers_[(start + k) % n];
        if (wake_sleeper(w)) return;
    }
}

namespace {
// From listening to `to` (rung, or a task): only one pusher can make that move, so
// one ring answers one push and a listener holds at most one handed-in task. Release:
// a task's record, written before, is read by the listener after its acquire.
bool ring(worker& w, std::uintptr_t to) noexcept {
    std::uintptr_t listening = worker::listening;
    return w.doorbell.load(std::memory_order_relaxed) == worker::listening &&
           w.doorbell.compare_exchange_strong(listening, to, std::memory_order_release,
                                              std::memory_order_relaxed);
}
}  // namespace

// Nearest first, so that the work moves to a core that shares a cache with the pusher
// when one is idle.
bool pool::ring_spinner(const worker* self, std::uintptr_t to) noexcept {
    const unsigned n = size();
    if (self == nullptr) {
        for (unsigned i = 0; i < n; ++i)
            if (ring(*workers_[i], to)) return true;
        return false;
    }
    for (unsigned v : victims(self->index))
        if (v < n && ring(*workers_[v], to)) return true;
    return false;
}

void pool::wake(worker& w) noexcept {
    full_fence();
    if (ring(w, worker::rung)) return;
    wake_sleeper(w);
}

// Store-load fence between the new earliest deadline (stored by arm) and the read of
// the watcher, against the watcher's claim, fence and read of the deadline in
// worker::sleep: either the watcher sees the new deadline or we see the watcher and
// wake it (timers.md). No watcher: a sleeper woken here becomes one when it sleeps again.
void pool::deadline_armed() noexcept {
    full_fence();
    const int w = timer_watcher.load(std::memory_order_relaxed);
    if (w >= 0) {
        wake(*workers_[static_cast<unsigned>(w)]);
    } else {
        wake_one();
    }
}

// The waiters are resumed after the heap's lock is released: once resumed, a waiter may
// run at once on another worker and free its entry, so each link is read first.
void pool::expire_timers(std::int64_t now) noexcept {
    timer_entry* e = timers.take_due(now);
    while (e != nullptr) {
        timer_entry* next = e->next_fired;
        make_runnable(e->ctx);
        e = next;
    }
}

// Completions are summed before submissions: every counted completion belongs to a
// submission that happened before it, so equal sums mean nothing is left in flight.
bool pool::quiescent() const noexcept {
    std::uint64_t done = 0, submitted = 0;
    // A worker added between the two sums has submitted nothing the first missed.
    const unsigned n = size();
    for (unsigned i = 0; i < n; ++i) done += workers_[i]->counters.completed.get(std::memory_order_acquire);
    full_fence();
    for (unsigned i = 0; i < size(); ++i)
        submitted += workers_[i]->counters.submitted.get(std::memory_order_acquire);
    submitted += foreign_submitted.load(std::memory_order_acquire);
    return done == submitted;
}

// Running: workers inside a task now. Parked: contexts suspended and not yet taken up
// again (a waiting task; at exit the adopted main thread is not among them). Queued:
// the rest, submitted but not started.
pool::unfinished_work pool::unfinished() const noexcept {
    std::uint64_t done = 0, submitted = foreign_submitted.load(std::memory_order_acquire);
    std::uint64_t running = 0, parks = 0, resumes = 0;
    const unsigned n = size();
    for (unsigned i = 0; i < n; ++i) {
        const auto& w = workers_[i];
        done += w->counters.completed.get(std::memory_order_acquire);
        parks += w->counters.suspensions.get();
        resumes += w->counters.resumptions.get();
        running += w->in_task.load(std::memory_order_relaxed) ? 1 : 0;
    }
    for (unsigned i = 0; i < size(); ++i)
        submitted += workers_[i]->counters.submitted.get(std::memory_order_acquire);
    unfinished_work u;
    u.total = submitted > done ? submitted - done : 0;
    u.running = std::min(running, u.total);
    u.parked = std::min(parks > resumes ? parks - resumes : 0, u.total - u.running);
    u.queued = u.total - u.running - u.parked;
    return u;
}

void pool::stop_taking_work() noexcept {
    abandoned.store(true, std::memory_order_seq_cst);
    for (unsigned i = 0; i < size(); ++i) wake(*workers_[i]);
}

[[noreturn]] void pool::hold_forever() noexcept {
    static std::atomic<std::uint32_t> never{0};
    for (;;) futex_wait(&never, 0);
}

void pool::drain() {
    ext::wait_slot slot;
    drain_slot_.store(&slot, std::memory_order_seq_cst);
    if (quiescent()) {
        if (drain_slot_.exchange(nullptr, std::memory_order_acq_rel) == nullptr) slot.wait();
        return;
    }
    // Sleeping workers must re-check: the last completion may have happened before
    // drain_slot_ was set, with every worker already asleep.
    for (unsigned i = 0; i < size(); ++i) wake(*workers_[i]);
    slot.wait();
}

void pool::check_drained() noexcept {
    if (drain_slot_.load(std::memory_order_seq_cst) == nullptr || !quiescent()) return;
    if (ext::wait_slot* slot = drain_slot_.exchange(nullptr, std::memory_order_acq_rel)) slot->notify();
}

}  // namespace loom::core
