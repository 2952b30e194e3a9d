// ext:: entry points that put tasks into queues or take them out for inline execution.
#include <atomic>

#include "loom/ext/trace.hpp"
#include "loop.hpp"
#include "pool.hpp"
#include "runtime.hpp"

namespace loom::ext {

namespace {
constexpr unsigned normal_index = static_cast<unsigned>(priority::normal);

// The worker the caller runs as in the current pool, or null for foreign threads.
core::worker* local_worker(core::pool& p) noexcept {
    core::worker* w = core::this_worker_here();
    return (w && &w->owner == &p) ? w : nullptr;
}
}  // namespace

namespace {
void submit_from(task* t, bool may_hand_off) noexcept {
    core::pool& p = core::ensure_pool();
    core::worker* w = local_worker(p);
    if (tracing()) core::trace_submit(w, t);  // before the push: then t may run at once
    if (w) {
        w->counters.submitted.add();
    } else {
        p.foreign_submitted.fetch_add(1, std::memory_order_relaxed);
    }
    if (t->prio == priority::high) {
        p.high.push(t);
        p.wake_one();  // a high-priority task should not wait for a steal to spread wake-ups
        return;
    }
    if (w && w->keep_next(t)) return;  // the running task's last act: t runs here next
    // Read before the push: from then on a thief may run and free the record.
    const auto prio = static_cast<unsigned>(t->prio);
    if (!w) {
        p.injection[prio].push(t);
        p.wake_one();
        return;
    }
    auto& deque = w->local_deque(t->prio);
    if (may_hand_off && deque.looks_empty() && p.hand_off(*w, t)) return;
    p.wake_after_push(deque.push(t));
}
}  // namespace

void submit(task* t) noexcept { submit_from(t, /*may_hand_off=*/true); }

void submit_queued(task* t) noexcept { submit_from(t, /*may_hand_off=*/false); }

void submit_to(task* t, unsigned worker) noexcept {
    core::pool& p = core::ensure_pool();
    if (worker >= p.size()) worker %= p.size();
    t->home = static_cast<std::int16_t>(worker);
    core::worker* w = local_worker(p);
    if (tracing()) core::trace_submit(w, t);
    if (w) {
        w->counters.submitted.add();
    } else {
        p.foreign_submitted.fetch_add(1, std::memory_order_relaxed);
    }
    core::worker& home = p.at(worker);
    home.box.push(t);
    p.wake(home);
}

// A task handed out for inline execution counts as completed here: it runs inside
// the caller's task, which is still in flight, so quiescence is not affected.
task* pop_local() noexcept {
    core::worker* w = core::this_worker_here();
    if (!w) return nullptr;
    task* t = w->local_deque(priority::normal).pop();
    if (t) w->counters.completed.add();
    return t;
}

void push_local(task* t) noexcept {
    core::worker* w = core::this_worker_here();
    if (!w) {
        submit(t);
        return;
    }
    w->counters.submitted.add();  // balances the completion pop_local() counted
    w->local_deque(priority::normal).push(t);
}

namespace {
// A task run inline ended inside the caller's task, which goes on: what its final
// release kept to run next must not wait for the caller's end. It is queued as the
// release would have queued it without the final release (counted as submitted then).
void queue_kept_by_inline_task() noexcept {
    core::worker* w = core::this_worker();  // asked anew: the inline task may have parked
    if (w) w->queue_kept();
}
}  // namespace

bool run_if_on_top(task* t) noexcept {
    core::worker* w = core::this_worker();  // the task run below may park
    if (!w) return false;
    task* top = w->local_deque(priority::normal).pop();
    if (!top) return false;
    if (top != t) {
        w->local_deque(priority::normal).push(top);
        return false;
    }
    w->counters.completed.add();
    w->counters.tasks_run.add();
    if (tracing()) trace_run_inline(t, "task");  // a slice of its own for the arrows into it
    else t->run(t);
    queue_kept_by_inline_task();
    return true;
}

void* begin_final_release() noexcept {
    core::worker* w = core::this_worker_here();
    // A task runs on a fiber; the native context runs the loop or, on slot 0, the
    // program itself, which is no task that ends.
    if (!w || w->releasing_last || w->current == &w->native || !w->in_task.load(std::memory_order_relaxed))
        return nullptr;
    w->releasing_last = true;
    return w;
}

// A task that parked inside its final release (nothing in loom does) had it closed by
// park_current, and may have resumed on another worker: only this thread's own worker
// is touched.
void end_final_release(void* opened) noexcept {
    core::worker* w = core::this_worker();
    if (w == opened) w->releasing_last = false;
}

namespace {
// yield: the parked context goes behind the work that is visible now.
bool requeue_behind(core::context* c, void*) {
    core::pool& p = *core::current_pool();
    task* t = &c->resume_task;
    t->kind = core::context::resume_kind;
    if (c->tied >= 0) {
        core::worker& home = p.at(static_cast<unsigned>(c->tied));
        home.box.push(t);
        p.wake(home);
    } else {
        p.injection[normal_index].push(t);
        p.wake_one();
    }
    return true;
}
}  // namespace

void tie_to_this_worker() noexcept {
    core::worker* w = core::this_worker();
    if (w && w->current) w->current->tied = static_cast<int>(w->index);
}

bool high_priority_pending() noexcept {
    core::pool* p = core::current_pool();
    return p != nullptr && p->high.maybe_nonempty();
}

void yield() noexcept {
    core::worker* w = core::this_worker();
    if (!w || w->current == &w->native) return;  // nothing to yield to outside the loop
    core::park_current(&requeue_behind, nullptr);
}

}  // namespace loom::ext
