#include "loop.hpp"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "loom/ext/trace.hpp"
#include "pool.hpp"
#include "runtime.hpp"

namespace loom::core {

namespace {

// Carries out what the sender of a switch asked for, on the receiving stack.
void on_arrival(bctx::transfer_t t) noexcept {
    auto* a = static_cast<arrival*>(t.data);
    switch (a->what) {
        case arrival::action::none:
            break;
        case arrival::action::park: {
            a->from->fctx = t.fctx;
            context* parked = a->from;
            if (!a->commit(parked, a->arg)) make_runnable(parked);
            break;
        }
        case arrival::action::recycle:
            this_worker()->give_back(a->from->owner);
            break;
        case arrival::action::save:
            a->from->fctx = t.fctx;
            break;
    }
}

// Leaves the running fiber for `target` for good: the fiber goes back to the pool.
[[noreturn]] void switch_and_recycle(worker& w, context* target) noexcept {
    context* self = w.current;
    arrival a{arrival::action::recycle, self, nullptr, nullptr};
    w.current = target;
    jump(self, target, &a);
    __builtin_unreachable();
}

[[noreturn]] void run_loop() noexcept {
    for (;;) {
        worker& w = *this_worker();  // asked anew: the fiber may have migrated
        ext::task* t = w.find_work();
        if (!t) switch_and_recycle(w, &w.native);  // pool stops
        if (t->kind == context::resume_kind) {
            w.counters.resumptions.add();
            w.in_task.store(true, std::memory_order_relaxed);
            switch_and_recycle(w, context::of(t));
        }
        run_task(w, t);
    }
}

void fiber_entry(bctx::transfer_t t) noexcept {
    finish_switch(nullptr);
    on_arrival(t);
    this_worker()->in_task.store(false, std::memory_order_relaxed);  // its task parked
    run_loop();
}

// A waiting task that cannot get a fresh fiber blocks its worker's thread instead of
// parking (wait_slot::wait): the program goes on with one worker fewer while it waits.
void warn_no_fiber_to_park() noexcept {
    static std::atomic<bool> warned{false};
    if (warned.exchange(true, std::memory_order_relaxed)) return;
    std::fprintf(stderr,
                 "loom: warning: could not map a fiber stack to park a waiting task (%s); it "
                 "blocks its worker instead (raise ulimit -v or lower LOOM_STACKSIZE / "
                 "OMP_STACKSIZE)\n",
                 std::strerror(errno));
}

fiber* start_fiber(worker& w) noexcept {
    fiber* f = w.take_fiber();
    if (f) f->restart(&fiber_entry);
    return f;
}

}  // namespace

void run_task(worker& w, ext::task* t) noexcept {
    // A task from a mailbox (home >= 0) is tied to that worker: if it parks, it
    // resumes there (OpenMP implicit tasks keep their worker for threadprivate data).
    // Any other task may resume anywhere.
    w.current->tied = t->home;
    w.in_task.store(true, std::memory_order_relaxed);
    if (ext::tracing()) trace_task_begin(w, t);
    t->run(t);
    // `w` is stale if the task parked and resumed elsewhere: count where we are now.
    worker& now = *this_worker();
    if (ext::tracing()) trace_task_end(now);
    now.in_task.store(false, std::memory_order_relaxed);
    now.counters.tasks_run.add();
    now.counters.completed.add();
}

void enter_loop_from_native(worker& w) {
    // The pool gave every worker its first fiber before the thread started, so the
    // cache is never empty here.
    fiber* f = start_fiber(w);
    if (!f) {
        std::fprintf(stderr, "loom: error: worker %u has no fiber to run on\n", w.index);
        std::abort();
    }
    arrival a{arrival::action::save, &w.native, nullptr, nullptr};
    w.current = &f->ctx;
    bctx::transfer_t back = jump(&w.native, &f->ctx, &a);
    on_arrival(back);
}

bool park_current(bool (*commit)(context*, void*), void* arg) noexcept {
    worker& w = *this_worker();
    fiber* f = start_fiber(w);
    if (!f) {
        warn_no_fiber_to_park();
        return false;  // the caller blocks the thread instead
    }
    context* self = w.current;
    w.releasing_last = false;  // the worker goes on with other tasks: theirs are not final
    w.counters.suspensions.add();
    if (ext::tracing()) trace_park(w, *self);
    arrival a{arrival::action::park, self, commit, arg};
    w.current = &f->ctx;
    bctx::transfer_t back = jump(self, &f->ctx, &a);
    on_arrival(back);  // whoever resumed us recycles its fiber through this
    if (self->trace_saved) trace_resume(*this_worker(), *self);
    return true;
}

// Not kept to run next even in a final release (worker::keep_next): a parked context's
// stack is warm on the worker it parked on, usually idle now and spinning, which takes
// it back from here; resumed on the releasing worker instead, fork_join fib(30) ran 8 %
// slower at 2 workers.
void make_runnable(context* c) noexcept {
    ext::task* t = &c->resume_task;
    t->kind = context::resume_kind;
    t->prio = priority::normal;
    pool& p = *current_pool();
    if (c->tied >= 0) {
        worker& home = p.at(static_cast<unsigned>(c->tied));
        home.box.push(t);
        p.wake(home);
        return;
    }
    worker* w = this_worker();
    if (w) {
        p.wake_after_push(w->local_deque(priority::normal).push(t));
    } else {
        p.injection[static_cast<unsigned>(priority::normal)].push(t);
        p.wake_one();
    }
}

}  // namespace loom::core
