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

/// A pooled task record with inline closure storage. Records come from per-worker free
/// lists (allocate_task, allocate_large_task), so creating a task costs no malloc as
/// long as the closure fits in a record: `storage` of the 128-byte record, or the
/// storage that runs on past it in a large record.
struct alignas(64) task {
    static constexpr std::size_t record_size = 128;

    task* next = nullptr;       // intrusive link for mailboxes and the injection queue
    task_fn run = nullptr;
    void* owner = nullptr;      // who waits for it (a fork-join group), or null
    std::int16_t home = -1;     // worker it must run on (mailbox), -1 = any
    std::uint8_t size_class = 0;  // 0: a 128-byte record; else set by allocate_large_task
    priority prio = priority::normal;
    std::uint8_t flags = 0;     // free for the layer that owns the task
    std::uint8_t user = 0;      // free for the layer that owns the task
    std::uint8_t kind = 0;      // reserved for the scheduler (0 = ordinary task)
    /// Among high-priority tasks, the larger level is taken first (0-255; FIFO within
    /// a level). Ignored for normal and low priority. OpenMP maps `priority(p)` here.
    std::uint8_t level = 0;

    static constexpr std::size_t storage_size = record_size - 32;  // header is 32 bytes
    alignas(16) std::byte storage[storage_size];

    /// The closure storage; in a large record it runs on past `storage`, so it is
    /// reached through the record's address rather than through the array.
    void* storage_address() noexcept {
        return reinterpret_cast<std::byte*>(this) + offsetof(task, storage);
    }
    template <class T>
    T* data() noexcept { return std::launder(static_cast<T*>(storage_address())); }
};
static_assert(sizeof(task) == task::record_size, "task record must stay two cache lines");

/// Takes a 128-byte record from the calling thread's cache (each worker has one, and so
/// has each thread outside the pool), or from the heap when the cache is empty.
LOOM_EXPORT task* allocate_task();
/// Gives a record from allocate_task() back to the calling thread's cache. Reads no
/// field of it: a layer may have used the record as a raw 128-byte block.
LOOM_EXPORT void free_task(task* t) noexcept;

/// The most storage a pooled large record holds (a 1024-byte record less its header).
inline constexpr std::size_t max_pooled_storage = 1024 - 32;
/// Takes a record whose `storage` runs on for at least `storage_bytes` (256-, 512- or
/// 1024-byte records, cached per thread as the 128-byte ones; beyond
/// max_pooled_storage a heap block). Its header records the size (size_class).
LOOM_EXPORT task* allocate_large_task(std::size_t storage_bytes);
/// Gives a record from allocate_large_task() back; its header must be intact.
LOOM_EXPORT void free_large_task(task* t) noexcept;
/// The bytes of a record from allocate_task() or allocate_large_task(), header
/// included: 0 for a heap block beyond the pooled classes (its size is not kept).
inline std::size_t record_bytes(const task* t) noexcept {
    return t->size_class < 4 ? task::record_size << t->size_class : 0;
}

/// Makes `t` runnable. On a worker whose own deque is empty it is handed to the
/// nearest worker spinning idle, if one listens (docs/protocols/sleep.md, "Spinning
/// workers"); otherwise it goes to that worker's deque (or its priority queue); from a
/// thread outside the pool it goes to the injection queue. Wakes a sleeping worker if
/// one is needed.
LOOM_EXPORT void submit(task* t) noexcept;

/// As submit(), but never handed to a spinning worker: it goes to the caller's deque
/// (or the injection queue), where the caller finds it first and thieves find it
/// next. For a layer whose task may run only on some workers (an OpenMP team's tasks
/// when the pool is larger than the team): a hand-off could give it to a worker that
/// must pass it on, and a taskyield of its creator would no longer find it.
LOOM_EXPORT void submit_queued(task* t) noexcept;

/// Makes `t` runnable on worker `worker` only (its mailbox). Used for work tied to a
/// worker: resumptions of tied contexts, OpenMP implicit tasks. Such a task stays tied:
/// if it parks (wait_slot), it resumes on the same worker.
LOOM_EXPORT void submit_to(task* t, unsigned worker) noexcept;

/// Builds a task whose closure is `f`, stored in the record: a 128-byte one when it
/// fits, otherwise a large record (a heap block beyond max_pooled_storage); a closure
/// aligned beyond 16 bytes goes to the heap on its own. The task frees itself after
/// running `f`.
template <class F>
task* make_task(F&& f, priority p = priority::normal) {
    using closure = std::decay_t<F>;
    if constexpr (alignof(closure) > 16) {
        return make_task([c = new closure(std::forward<F>(f))]() mutable {
            (*c)();
            delete c;
        }, p);
    } else {
        constexpr bool small = sizeof(closure) <= task::storage_size;
        task* t = small ? allocate_task() : allocate_large_task(sizeof(closure));
        t->prio = p;
        ::new (t->storage_address()) closure(std::forward<F>(f));
        t->run = [](task* self) noexcept {
            closure* c = self->data<closure>();
            (*c)();
            c->~closure();
            if constexpr (small) free_task(self);
            else free_large_task(self);
        };
        return t;
    }
}

}  // namespace loom::ext
