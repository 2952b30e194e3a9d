// Free task records of one thread, by size class: the 128-byte record (class 0) and
// the large records of 256, 512 and 1024 bytes (classes 1-3). Each worker has one, and
// so has each thread outside the pool (task_pool.cpp). A record freed on another
// thread than the one that took it simply joins that thread's cache.
#pragma once

#include <cstddef>
#include <new>

#include "loom/ext/task.hpp"

namespace loom::core {

inline constexpr unsigned record_classes = 4;
inline constexpr std::align_val_t record_alignment{alignof(ext::task)};

/// Bytes of a record of class `c`.
constexpr std::size_t record_bytes(unsigned c) noexcept { return ext::task::record_size << c; }

/// An intrusive list (through task::next) of free records of one class. The cap keeps
/// a thread that frees more than it takes (a consumer of another thread's tasks) from
/// hoarding: about 512 KiB per class.
struct record_list {
    ext::task* head = nullptr;
    unsigned count = 0;

    void* take() noexcept {
        ext::task* t = head;
        if (t) {
            head = t->next;
            --count;
        }
        return t;
    }
    /// False when the list is full: the caller gives the record to the heap.
    bool give(ext::task* t, unsigned c) noexcept {
        if (count >= (4096u >> c)) return false;
        t->next = head;
        head = t;
        ++count;
        return true;
    }
};

struct record_cache {
    record_list lists[record_classes];

    /// Returns every cached record to the heap.
    void release_all() noexcept {
        for (record_list& l : lists) {
            while (void* mem = l.take()) ::operator delete(mem, record_alignment);
        }
    }
};

}  // namespace loom::core
