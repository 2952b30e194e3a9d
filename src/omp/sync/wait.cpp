// The sleeping half of team waits (wait.hpp): park a tied context on its wait_slot,
// or block the OS thread on a futex. Protocol and ordering argument: docs/omp.md,
// "Waiting".
#include <atomic>
#include <cstdint>

#include "loom/ext/scheduler.hpp"
#include "ompt/events.hpp"
#include "ompt/scheduled_task.hpp"
#include "parallel/thread.hpp"
#include "sync/wait.hpp"

namespace loom::omp {

namespace {

// Saves what the running context owns in its thread's record, and presents the thread
// to whatever the worker runs meanwhile as outside every region (a fresh loom task
// that calls OpenMP starts from the thread's initial task).
struct park_scope {
    thread_state* th;
    context_view saved;

    park_scope() : th(this_thread()), saved(context_view::of(th)) { context_view::present_outside(th); }
    ~park_scope() {
        // Tied: we are back on the same OS thread, so `th` is still ours.
        saved.restore(th);
        // The worker ran other contexts meanwhile (a task of the team, which may
        // still be parked): a tool hears that this one runs again before its next
        // event (the end of the barrier this context waited in, say).
        if (ompt::on()) [[unlikely]]
            ompt::context_resumed(ompt::current_task_data());
    }
    park_scope(const park_scope&) = delete;
    park_scope& operator=(const park_scope&) = delete;
};

}  // namespace

bool context_is_tied() noexcept {
    thread_state* th = this_thread();
    if (th->in_member) return true;
    const auto here = reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0));
    const bool own_stack = (here >= th->native_lo && here < th->native_hi) ||
                           (here >= th->side_lo && here < th->side_hi);
    return own_stack && ext::current_worker() == 0;
}

void park_tied(ext::wait_slot& slot) noexcept {
    park_scope scope;
    slot.wait();
}

void yield_tied() noexcept {
    park_scope scope;
    ext::yield();
}

void sleep_until(bool (*done)(const void*), const void* arg, sleeper& s) noexcept {
    if (!context_is_tied()) {
        for (;;) {
            s.flag.store(sleeper::blocked, std::memory_order_seq_cst);
            if (done(arg)) {
                // A waker that took the flag only calls futex_wake: harmless.
                s.flag.store(sleeper::awake, std::memory_order_relaxed);
                return;
            }
            while (s.flag.load(std::memory_order_seq_cst) == sleeper::blocked)
                futex_wait_int(s.flag, sleeper::blocked);
            if (done(arg)) return;
        }
    }
    // Tied, yet it may have to block its worker's thread: say so for the time it waits.
    const blocking_wait marked(ext::can_park_now() ? nullptr : &s);
    for (;;) {
        // The previous notify (if any) was consumed below, so the slot is idle.
        s.slot.reset();
        s.flag.store(sleeper::parked, std::memory_order_seq_cst);
        if (done(arg)) {
            if (s.flag.exchange(sleeper::awake, std::memory_order_seq_cst) == sleeper::parked)
                return;  // no waker took the flag: no notify will come
            park_tied(s.slot);  // one did: consume its notify before the slot is reused
            return;
        }
        park_tied(s.slot);  // returns once a waker (current or stale) took the flag
        if (done(arg)) return;
    }
}

}  // namespace loom::omp
