#include "pool.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <system_error>

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
    : cfg(c), slot0_adopted(c.num_threads >= 2 && on_main_thread()), topo_(c.num_threads) {
    trace_configure();
    stats_configure();
    workers_.reserve(cfg.num_threads);
    for (unsigned i = 0; i < cfg.num_threads; ++i) workers_.push_back(std::make_unique<worker>(*this, i));
    if (slot0_adopted) {
        worker& slot0 = *workers_[0];
        // Only on request (LOOM_PIN=true). Slot 0 is then a worker like the others:
        // left unbound, the OS may run it on a CPU where a pinned worker spins, and a
        // team of two then shares one CPU (measured: 30x slower OpenMP fork/join).
        // Threads the main thread creates later inherit this binding, as with
        // OMP_PROC_BIND; the mask is given back when the pool ends.
        if (cfg.pin_workers) {
            slot0_rebind_ = sched_getaffinity(0, sizeof slot0_mask_, &slot0_mask_) == 0;
            topo_.bind_current_thread(0);
        }
        init_native_context(slot0.native, /*tied=*/0);
        slot0.current = &slot0.native;
        set_this_worker(&slot0);
    }
    start_workers();
    if (slot0_adopted) slot0_altstack_.enable();
    oversubscribed_ = workers_.size() > cfg.cpus;
    if (workers_.size() < cfg.num_threads) remember_limit(static_cast<unsigned>(workers_.size()));
    victims_.resize(size());
    for (unsigned w = 0; w < size(); ++w)
        for (unsigned v : topo_.victims(w))
            if (v < size()) victims_[w].push_back(v);
    gate_.store(1, std::memory_order_release);
    futex_wake(&gate_, INT32_MAX);
}

// A worker counts only once it can run: it needs a thread (but slot 0) and, for its
// loop, a fiber. Each worker gets both here, in turn, before any of them runs (the
// threads wait at the gate); the first worker that cannot get one (address-space or
// thread limits: ulimit -v, ulimit -u) is dropped with those after it and the pool is
// smaller. A counted worker that never ran would leave an OpenMP team waiting for it
// forever. Fiber and thread are taken together so that neither kind of stack uses up
// the address space the other needs.
void pool::start_workers() {
    for (unsigned i = 0; i < workers_.size(); ++i) {
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
            try {
                workers_[i]->thread = std::thread([this, i] { thread_main(i); });
            } catch (const std::system_error& e) {
                failed = "start a thread for";
                err = e.code().value();
            }
        }
        if (!failed) continue;
        if (i == 0) {
            std::fprintf(stderr,
                         "loom: error: could not %s the first worker (%s); no task can run. Raise "
                         "the limits (ulimit -v, ulimit -u) or lower LOOM_STACKSIZE / "
                         "OMP_STACKSIZE (fiber stacks of %zu KiB).\n",
                         failed, std::strerror(err), cfg.stack_size / 1024);
            std::abort();
        }
        std::fprintf(stderr,
                     "loom: warning: could not %s worker %u of %zu (%s); continuing with %u "
                     "worker%s (limits: ulimit -v, ulimit -u; fiber stacks of %zu KiB, "
                     "LOOM_STACKSIZE / OMP_STACKSIZE)\n",
                     failed, i, workers_.size(), std::strerror(err), i, i == 1 ? "" : "s",
                     cfg.stack_size / 1024);
        workers_.resize(i);
        return;
    }
}

void pool::thread_main(unsigned index) {
    while (gate_.load(std::memory_order_acquire) == 0) futex_wait(&gate_, 0);
    worker& w = *workers_[index];
    // A thread of loom's own: its fibers' overflows are reported from this stack.
    alt_signal_stack altstack;
    altstack.enable();
    set_this_worker(&w);
    if (cfg.pin_workers) topo_.bind_current_thread(index);
    init_native_context(w.native, static_cast<int>(index));
    w.current = &w.native;
    enter_loop_from_native(w);
    destroy_native_context(w.native);
    set_this_worker(nullptr);
}

pool::~pool() {
    stopping.store(true, std::memory_order_seq_cst);
    for (auto& w : workers_) {
        w->sleep_word.store(0, std::memory_order_seq_cst);
        futex_wake(&w->sleep_word, 1);
    }
    for (auto& w : workers_)
        if (w->thread.joinable()) w->thread.join();
    trace_archive(*this);
    stats_archive(*this);
    if (slot0_adopted && this_worker() == workers_[0].get()) set_this_worker(nullptr);
    // The main thread's id is the process id (this may run on another thread).
    if (slot0_rebind_) sched_setaffinity(getpid(), sizeof slot0_mask_, &slot0_mask_);
    // On the main thread: taken away again. Elsewhere it stays main's (never unmapped).
    slot0_altstack_.disable();
}

void pool::wake_one() noexcept {
    // Store-load fence: the work just pushed must be visible before we read
    // `sleepers`, or a worker going to sleep and this push could miss each other.
    full_fence();
    if (sleepers.load(std::memory_order_relaxed) == 0) return;
    worker* self = this_worker();
    unsigned start = self ? self->index : 0;
    for (unsigned k = 0; k < size(); ++k) {
        worker& w = *workers_[(start + k) % size()];
        if (w.sleep_word.load(std::memory_order_relaxed) == 1 &&
            w.sleep_word.exchange(0, std::memory_order_acq_rel) == 1) {
            futex_wake(&w.sleep_word, 1);
            return;
        }
    }
}

void pool::wake(worker& w) noexcept {
    full_fence();
    if (w.sleep_word.load(std::memory_order_relaxed) == 1 &&
        w.sleep_word.exchange(0, std::memory_order_acq_rel) == 1)
        futex_wake(&w.sleep_word, 1);
}

// Completions are summed before submissions: every counted completion belongs to a
// submission that happened before it, so equal sums mean nothing is left in flight.
bool pool::quiescent() const noexcept {
    std::uint64_t done = 0, submitted = 0;
    for (auto& w : workers_) done += w->counters.completed.get(std::memory_order_acquire);
    full_fence();
    for (auto& w : workers_) submitted += w->counters.submitted.get(std::memory_order_acquire);
    submitted += foreign_submitted.load(std::memory_order_acquire);
    return done == submitted;
}

// Running: workers inside a task now. Parked: contexts suspended and not yet taken up
// again (a waiting task; at exit the adopted main thread is not among them). Queued:
// the rest, submitted but not started.
pool::unfinished_work pool::unfinished() const noexcept {
    std::uint64_t done = 0, submitted = foreign_submitted.load(std::memory_order_acquire);
    std::uint64_t running = 0, parks = 0, resumes = 0;
    for (auto& w : workers_) {
        done += w->counters.completed.get(std::memory_order_acquire);
        parks += w->counters.suspensions.get();
        resumes += w->counters.resumptions.get();
        running += w->in_task.load(std::memory_order_relaxed) ? 1 : 0;
    }
    for (auto& w : workers_) submitted += w->counters.submitted.get(std::memory_order_acquire);
    unfinished_work u;
    u.total = submitted > done ? submitted - done : 0;
    u.running = std::min(running, u.total);
    u.parked = std::min(parks > resumes ? parks - resumes : 0, u.total - u.running);
    u.queued = u.total - u.running - u.parked;
    return u;
}

void pool::stop_taking_work() noexcept {
    abandoned.store(true, std::memory_order_seq_cst);
    for (auto& w : workers_) wake(*w);
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
    for (auto& w : workers_) wake(*w);
    slot.wait();
}

void pool::check_drained() noexcept {
    if (drain_slot_.load(std::memory_order_seq_cst) == nullptr || !quiescent()) return;
    if (ext::wait_slot* slot = drain_slot_.exchange(nullptr, std::memory_order_acq_rel)) slot->notify();
}

}  // namespace loom::core
