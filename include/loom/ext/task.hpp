// The task record: the unit every queue of the scheduler holds.
//
// This header is part of the narrow extension interface through which the C++ API
// (src/api, include/loom/*.hpp) and the OpenMP layer (src/omp) reach the scheduler.
// Nothing above core/ may depend on how the scheduler stores or runs tasks beyond this.
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
#include <type_traits>
#include <utility>

#include "loom/ext/export.hpp"

namespace loom {

/// Scheduling priority of a task. High-priority (critical-path) tasks are taken before
/// any normal task, locally and when stealing; low-priority tasks only when nothing
/// else is runnable.
enum class priority : std::uint8_t { high = 0, normal = 1, low = 2 };

}  // namespace loom

namespace loom::ext {

struct task;

/// Runs the task's closure, then gives the record back (free_task) unless the closure
/// kept it. Called exactly once per submitted task.
using task_fn = void (*)(task*) noexcept;

/// A pooled, fixed-size task record with inline closure storage. Records come from a
/// per-worker free list (allocate_task), so creating a task costs no malloc as long as
/// the closure fits in `storage`.
struct alignas(64) task {
    static constexpr std::size_t record_size = 128;

    task* next = nullptr;       // intrusive link for mailboxes and the injection queue
    task_fn run = nullptr;
    void* owner = nullptr;      // who waits for it (a fork-join group), or null
    std::int32_t home = -1;     // worker it must run on (mailbox), -1 = any
    priority prio = priority::normal;
    std::uint8_t flags = 0;     // free for the layer that owns the task
    std::uint8_t user = 0;      // free for the layer that owns the task
    std::uint8_t kind = 0;      // reserved for the scheduler (0 = ordinary task)

    static constexpr std::size_t storage_size = record_size - 32;  // header is 32 bytes
    alignas(16) std::byte storage[storage_size];

    template <class T>
    T* data() noexcept { return std::launder(reinterpret_cast<T*>(storage)); }
};
static_assert(sizeof(task) == task::record_size, "task record must stay two cache lines");

/// Takes a record from the calling worker's pool (or the heap outside the pool).
LOOM_EXPORT task* allocate_task();
/// Gives a record back to the calling worker's pool.
LOOM_EXPORT void free_task(task* t) noexcept;

/// Makes `t` runnable. On a worker it goes to that worker's deque (or its priority
/// queue); from a thread outside the pool it goes to the injection queue. Wakes a
/// sleeping worker if one is needed.
LOOM_EXPORT void submit(task* t) noexcept;

/// Makes `t` runnable on worker `worker` only (its mailbox). Used for work tied to a
/// worker: resumptions of tied contexts, OpenMP implicit tasks. Such a task stays tied:
/// if it parks (wait_slot), it resumes on the same worker.
LOOM_EXPORT void submit_to(task* t, unsigned worker) noexcept;

/// Builds a task whose closure is `f` (stored inline when it fits, on the heap
/// otherwise). The task frees itself after running `f`.
template <class F>
task* make_task(F&& f, priority p = priority::normal) {
    using closure = std::decay_t<F>;
    task* t = allocate_task();
    t->prio = p;
    if constexpr (sizeof(closure) <= task::storage_size && alignof(closure) <= 16) {
        ::new (static_cast<void*>(t->storage)) closure(std::forward<F>(f));
        t->run = [](task* self) noexcept {
            closure* c = self->data<closure>();
            (*c)();
            c->~closure();
            free_task(self);
        };
    } else {
        ::new (static_cast<void*>(t->storage)) closure*(new closure(std::forward<F>(f)));
        t->run = [](task* self) noexcept {
            closure* c = *self->data<closure*>();
            (*c)();
            delete c;
            free_task(self);
        };
    }
    return t;
}

}  // namespace loom::ext
