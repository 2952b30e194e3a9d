// The injection queue: work submitted by threads outside the pool, taken by any
// worker. Contention is low (foreign submissions are rare next to deque traffic), so a
// spin lock around an intrusive FIFO list is enough; `size_` lets idle workers check
// for work without taking the lock.
#pragma once

#include <atomic>
#include <mutex>

#include "loom/ext/task.hpp"
#include "spin_lock.hpp"

namespace loom::core {

class injection_queue {
public:
    void push(ext::task* t) noexcept {
        t->next = nullptr;
        std::lock_guard guard(lock_);
        if (tail_) tail_->next = t; else head_ = t;
        tail_ = t;
        size_.fetch_add(1, std::memory_order_seq_cst);
    }

    ext::task* pop() noexcept {
        if (size_.load(std::memory_order_relaxed) == 0) return nullptr;
        std::lock_guard guard(lock_);
        ext::task* t = head_;
        if (!t) return nullptr;
        head_ = t->next;
        if (!head_) tail_ = nullptr;
        size_.fetch_sub(1, std::memory_order_relaxed);
        return t;
    }

    [[nodiscard]] bool looks_empty() const noexcept {
        return size_.load(std::memory_order_seq_cst) == 0;
    }
    /// Tasks queued, a hint (LOOM_TRACE's queue-length counters).
    [[nodiscard]] long size_hint() const noexcept { return size_.load(std::memory_order_relaxed); }

private:
    spin_lock lock_;
    ext::task* head_ = nullptr;
    ext::task* tail_ = nullptr;
    std::atomic<long> size_{0};
};

}  // namespace loom::core
