// Resuming a suspended coroutine through the scheduler. A coroutine that waits for
// something another task will do (a future becoming ready) is resumed as a task: the
// awaiter registers that task with the event it waits for (or submits it when its
// operation completes), the event submits it when it is set (to the setter's deque, or
// the injection queue from a thread outside the pool), and the worker that runs it
// resumes the coroutine in a coro_driver loop. So the setter never runs the waiter's
// code, no worker blocks, and a coroutine started on a thread outside the pool goes on
// on the pool.
//
// The task is the header of the coroutine's own frame record when its promise has one
// (resumable_frame, coro_frame.hpp): one suspension at a time per coroutine, so one
// header serves them all and a suspension allocates nothing. Otherwise (a lazy, a frame
// the compiler allocated elsewhere, another library's coroutine type) it is a 128-byte
// record of its own that frees itself when it runs.
//
// This is also where other awaitable types plug in: an awaiter whose await_suspend
// takes resumption_task(h) and submits it (ext::submit) when its operation completes
// resumes its coroutine the way a future's awaiter does (docs/coroutines.md, "Awaiting
// other things").
#pragma once

#include <coroutine>
#include <new>
#include <type_traits>

#include "loom/detail/coro_driver.hpp"
#include "loom/detail/coro_frame.hpp"
#include "loom/ext/scheduler.hpp"
#include "loom/ext/task.hpp"

namespace loom::detail {

/// What a resumption record of its own holds in its closure storage.
struct coro_resumption {
    coro_step step;
};

/// A task record that resumes `s` when it runs; `owned_by_coroutine`: the record is not
/// freed when it runs (the coroutine frees it, see spawn), else it frees itself first.
/// Throws std::bad_alloc when no record can be had.
inline ext::task* make_resumption(coro_step s, priority p = priority::normal, bool owned_by_coroutine = false) {
    ext::task* t = ext::allocate_task();
    t->prio = p;
    ::new (t->storage_address()) coro_resumption{s};
    if (owned_by_coroutine) {
        t->run = [](ext::task* self) noexcept {
            coro_driver loop;
            loop.run(self->data<coro_resumption>()->step);
        };
    } else {
        t->run = [](ext::task* self) noexcept {
            const coro_step step = self->data<coro_resumption>()->step;
            ext::free_task(self);
            coro_driver loop;
            loop.run(step);
        };
    }
    return t;
}

/// The task that resumes the suspending coroutine `h` once it is submitted: its frame
/// record, or a new record. Call it once per suspension, from await_suspend.
template <class P>
ext::task* resumption_task(std::coroutine_handle<P> h, priority p = priority::normal) {
    if constexpr (std::is_base_of_v<resumable_frame, P>) {
        if (ext::task* t = h.promise().frame_record()) {
            // The header's fields are ours while the frame lives; a previous resumption
            // is over (the coroutine runs again), so they are rewritten for this one.
            t->run = [](ext::task* self) noexcept {
                const auto co = std::coroutine_handle<P>::from_promise(*static_cast<P*>(self->owner));
                if constexpr (std::is_base_of_v<driven_promise, P>) {
                    coro_driver loop;
                    loop.run(step_of(co));
                } else {
                    co.resume();  // no loop to hand over to: a lazy it awaits runs in one of its own
                }
            };
            t->owner = &h.promise();
            t->prio = p;
            return t;
        }
    }
    return make_resumption(step_of(h), p);
}

}  // namespace loom::detail
