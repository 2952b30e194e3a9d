// Resuming a suspended coroutine through the scheduler. A coroutine that waits for
// something another task will do (a future becoming ready) is resumed as a task of its
// own: a 128-byte task record whose closure storage holds the coroutine to resume and
// a callback node. The event that the coroutine waits for fires the node inline in
// whoever sets it, and the node submits the record (to the setter's deque, or the
// injection queue from a thread outside the pool); the worker that runs the record
// resumes the coroutine in a coro_driver loop. So the setter never runs the waiter's
// code, no worker blocks, and a coroutine started on a thread outside the pool goes on
// on the pool.
//
// This is also where other awaitable types plug in: an awaiter whose await_suspend
// makes a resumption and fires (or submits) it when its operation completes resumes
// its coroutine the way a future's awaiter does (see docs/coroutines.md, "Awaiting
// other things").
#pragma once

#include <coroutine>
#include <cstddef>
#include <new>

#include "loom/detail/coro_driver.hpp"
#include "loom/detail/event.hpp"
#include "loom/ext/scheduler.hpp"
#include "loom/ext/task.hpp"

namespace loom::detail {

/// What a resumption record holds in its closure storage.
struct coro_resumption : callback_node {
    coro_step step;
};
static_assert(sizeof(coro_resumption) <= ext::task::storage_size);

/// The record whose storage holds `n`.
inline ext::task* resumption_record(callback_node* n) noexcept {
    return std::launder(reinterpret_cast<ext::task*>(reinterpret_cast<std::byte*>(n) - offsetof(ext::task, storage)));
}

/// The callback node of a resumption record: register it with an event (add_callback)
/// and the record is submitted when the event is set.
inline callback_node* resumption_node(ext::task* t) noexcept { return t->data<coro_resumption>(); }

/// A task record that resumes `s` when it runs; `owned_by_coroutine`: the record is not
/// freed when it runs (the coroutine frees it, see spawn), else it frees itself first.
/// Throws std::bad_alloc when no record can be had.
inline ext::task* make_resumption(coro_step s, priority p = priority::normal, bool owned_by_coroutine = false) {
    ext::task* t = ext::allocate_task();
    t->prio = p;
    auto* r = ::new (t->storage_address()) coro_resumption;
    r->step = s;
    r->fire = [](callback_node* n) noexcept { ext::submit(resumption_record(n)); };
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

}  // namespace loom::detail
