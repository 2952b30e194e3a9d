// Task records: per-thread caches of free records and a depot of full batches in front
// of the heap (record_cache.hpp), so that creating a task costs no allocator call in
// steady state. Workers keep their cache in the worker; threads outside the pool
// (foreign threads, the initial thread of a one-worker pool) in static TLS.
#include <algorithm>
#include <bit>
#include <cstddef>
#include <new>

#include "pool.hpp"
#include "record_cache.hpp"

namespace loom::ext {

namespace {

using core::record_list;

constexpr unsigned heap_class = 0xFF;  // size_class of a large record beyond the classes

// A thread outside the pool: its cache lives in static TLS (no constructor, so it is
// usable at any time); the guard's destructor gives the records back at thread exit,
// after which this thread's records go straight to the heap.
__thread core::record_cache t_outside;
__thread int t_outside_state;  // 0 never used, 1 in use (guard armed), 2 released

struct outside_guard {
    ~outside_guard() {
        t_outside.release_all();
        t_outside_state = 2;
    }
};
thread_local outside_guard t_guard;

[[gnu::noinline]] core::record_cache* outside_cache() noexcept {
    if (t_outside_state == 2) return nullptr;
    if (t_outside_state == 0) {
        outside_guard* g = &t_guard;  // first use on this thread registers its destructor
        asm volatile("" ::"r"(g));
        t_outside_state = 1;
    }
    return &t_outside;
}

record_list* list_here(unsigned c) noexcept {
    if (core::worker* w = core::this_worker_here()) [[likely]] return &w->records.lists[c];
    core::record_cache* o = outside_cache();
    return o ? &o->lists[c] : nullptr;
}

core::record_depot g_depots[core::record_classes];

// The slow halves (the depot, a thread outside the pool, the heap) out of line, so that
// the fast ones need no saved registers: a large record cost 81 instructions per
// allocate + free pair against 41 for a 128-byte one (callgrind), much of it the
// registers the slow paths need.
[[gnu::noinline]] void* take_record_slow(unsigned c) {
    if (record_list* l = list_here(c)) {
        if (void* mem = l->take()) return mem;
        if (g_depots[c].refill(*l)) return l->take();
    }
    return ::operator new(core::record_bytes(c), core::record_alignment);
}

[[gnu::noinline]] void give_record_slow(task* t, unsigned c) noexcept {
    record_list* l = list_here(c);
    if (!l) {
        ::operator delete(t, core::record_alignment);
        return;
    }
    if (l->count >= core::batch_records(c)) g_depots[c].store(*l);
    l->push(t);
}

inline void* take_record(unsigned c) {
    if (core::worker* w = core::this_worker_here()) [[likely]] {
        if (void* mem = w->records.lists[c].take()) [[likely]]
            return mem;
    }
    return take_record_slow(c);
}

inline void give_record(task* t, unsigned c) noexcept {
    if (core::worker* w = core::this_worker_here()) [[likely]] {
        record_list& l = w->records.lists[c];
        if (l.count < core::batch_records(c)) [[likely]] {
            l.push(t);
            return;
        }
    }
    give_record_slow(t, c);
}

// Classes double from 256 bytes (1) to 1024 (3), header included: the class of a
// record of `bytes` is the bit width of (bytes - 1) / 128.
unsigned class_for(std::size_t storage_bytes) noexcept {
    const std::size_t bytes = storage_bytes + offsetof(task, storage);
    if (bytes > core::record_bytes(core::record_classes - 1)) return heap_class;
    return std::max(1u, static_cast<unsigned>(std::bit_width((bytes - 1) / task::record_size)));
}

}  // namespace

// record_bytes(task*) (ext/task.hpp) knows the classes.
static_assert(core::record_classes == 4 && core::record_bytes(3) == task::record_size << 3);
static_assert(max_pooled_storage == core::record_bytes(core::record_classes - 1) -
                                        offsetof(task, storage));

task* allocate_task() { return ::new (take_record(0)) task; }

void free_task(task* t) noexcept {
    t->~task();
    give_record(t, 0);
}

task* allocate_large_task(std::size_t storage_bytes) {
    const unsigned c = class_for(storage_bytes);
    void* mem = c != heap_class ? take_record(c)
                                : ::operator new(offsetof(task, storage) + storage_bytes, core::record_alignment);
    task* t = ::new (mem) task;
    t->size_class = static_cast<std::uint8_t>(c);
    return t;
}

void free_large_task(task* t) noexcept {
    const unsigned c = t->size_class;
    t->~task();
    if (c != heap_class) [[likely]]
        give_record(t, c);
    else
        ::operator delete(t, core::record_alignment);
}

}  // namespace loom::ext
