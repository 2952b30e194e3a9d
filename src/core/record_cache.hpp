// Free task records of one thread, by size class: the 128-byte record (class 0) and
// the large records of 256, 512 and 1024 bytes (classes 1-3). Each worker has one, and
// so has each thread outside the pool (task_pool.cpp).
//
// Records often die on another thread than the one that made them (a producer's tasks
// run by thieves; a dependence chain that moves between workers): the freeing thread's
// list grows while the producer's runs dry. So a list holds at most one batch; when it
// is full it goes whole to a process-wide depot of full batches, where a thread whose
// list ran dry takes one back (Bonwick's magazines and depot). A record thus costs no
// allocator call in steady state whichever thread frees it, and the depot's lock is
// taken once per batch. Before, the heap took the overflow and producer and consumer
// met on the allocator's arena lock (~4 us each time).
#pragma once

#include <cstddef>
#include <new>

#include "loom/ext/task.hpp"
#include "spin_lock.hpp"

namespace loom::core {

inline constexpr unsigned record_classes = 4;
inline constexpr std::align_val_t record_alignment{alignof(ext::task)};

/// Bytes of a record of class `c`.
constexpr std::size_t record_bytes(unsigned c) noexcept { return ext::task::record_size << c; }
/// Records in one batch of class `c`: 64 KiB each.
constexpr unsigned batch_records(unsigned c) noexcept { return 512u >> c; }

/// An intrusive list (through task::next) of free records of one class.
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
    void push(ext::task* t) noexcept {
        t->next = head;
        head = t;
        ++count;
    }
    /// Returns every record to the heap.
    void release() noexcept {
        while (void* mem = take()) ::operator delete(mem, record_alignment);
    }
};

struct record_cache {
    record_list lists[record_classes];

    void release_all() noexcept {
        for (record_list& l : lists) l.release();
    }
};

/// Full batches of one class, shared by all threads.
class record_depot {
public:
    /// Takes `l` (a full batch) whole, leaving it empty; to the heap if the depot is full.
    void store(record_list& l) noexcept {
        lock_.lock();
        if (size_ < max_batches) {
            batches_[size_++] = l;
            lock_.unlock();
        } else {
            lock_.unlock();
            l.release();
        }
        l = record_list{};
    }
    /// Fills the empty list `l` with a batch; false when the depot has none.
    bool refill(record_list& l) noexcept {
        lock_.lock();
        const bool got = size_ > 0;
        if (got) l = batches_[--size_];
        lock_.unlock();
        return got;
    }

private:
    static constexpr unsigned max_batches = 64;  // 4 MiB per class
    spin_lock lock_;
    unsigned size_ = 0;
    record_list batches_[max_batches];
};

}  // namespace loom::core
