// Task records: a per-worker cache of free records in front of the heap, so that
// creating a task costs no allocator call in steady state. A record freed on another
// worker than the one that allocated it simply joins that worker's cache.
#include <new>

#include "pool.hpp"

namespace loom::ext {

namespace {
constexpr unsigned max_cached_tasks = 4096;
constexpr std::align_val_t task_alignment{alignof(task)};
}  // namespace

task* allocate_task() {
    core::worker* w = core::this_worker_here();
    void* mem;
    if (w && w->free_tasks) {
        mem = w->free_tasks;
        w->free_tasks = w->free_tasks->next;
        --w->free_task_count;
    } else {
        mem = ::operator new(sizeof(task), task_alignment);
    }
    return ::new (mem) task;
}

void free_task(task* t) noexcept {
    core::worker* w = core::this_worker_here();
    t->~task();
    if (w && w->free_task_count < max_cached_tasks) {
        t->next = w->free_tasks;
        w->free_tasks = t;
        ++w->free_task_count;
    } else {
        ::operator delete(t, task_alignment);
    }
}

}  // namespace loom::ext
