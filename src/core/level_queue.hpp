// The pool's queue of high-priority tasks, ordered by level: a task of a higher
// level is taken before any of a lower one, tasks of one level first in, first out.
//
// Why one queue for the pool and not a high deque per worker: a priority is a
// promise about the whole pool -- the most critical task ready anywhere runs next,
// whichever worker frees up first -- and per-worker deques can keep it only per
// worker (a worker runs its own level-1 task while another holds a level-9 one).
// High-priority tasks are the critical few (OpenMP `priority`, a critical path),
// so one spin lock around them costs little; normal and low work keeps its
// per-worker deques. Levels are 0..255 (ext::task::level): an intrusive FIFO list
// per level and a bitmap of the non-empty ones, so push and pop are O(1) and never
// allocate.
#pragma once

#include <array>
#include <atomic>
#include <bit>
#include <cstdint>
#include <mutex>

#include "loom/ext/task.hpp"
#include "spin_lock.hpp"

namespace loom::core {

class level_queue {
public:
    static constexpr unsigned levels = 256;

    void push(ext::task* t) noexcept {
        const unsigned l = t->level;
        t->next = nullptr;
        std::lock_guard guard(lock_);
        list& q = lists_[l];
        if (q.tail) q.tail->next = t; else q.head = t;
        q.tail = t;
        nonempty_[l / 64] |= std::uint64_t{1} << (l % 64);
        // Seq-cst: paired with the fence of pool::wake_one and the seq-cst loads of
        // worker::anything_visible, as the injection queue's count (sleep.md).
        size_.fetch_add(1, std::memory_order_seq_cst);
    }

    /// The first task of the highest non-empty level, or null.
    ext::task* pop() noexcept {
        if (size_.load(std::memory_order_relaxed) == 0) return nullptr;
        std::lock_guard guard(lock_);
        const int l = highest_level();
        if (l < 0) return nullptr;
        list& q = lists_[static_cast<unsigned>(l)];
        ext::task* t = q.head;
        q.head = t->next;
        if (!q.head) {
            q.tail = nullptr;
            nonempty_[static_cast<unsigned>(l) / 64] &= ~(std::uint64_t{1} << (l % 64));
        }
        size_.fetch_sub(1, std::memory_order_relaxed);
        return t;
    }

    [[nodiscard]] bool looks_empty() const noexcept { return size_.load(std::memory_order_seq_cst) == 0; }
    /// Tasks queued, a hint (LOOM_TRACE's queue-length counters).
    [[nodiscard]] long size_hint() const noexcept { return size_.load(std::memory_order_relaxed); }
    /// A hint for the fast path: true while some high task may be queued.
    [[nodiscard]] bool maybe_nonempty() const noexcept { return size_.load(std::memory_order_relaxed) != 0; }

private:
    struct list {
        ext::task* head = nullptr;
        ext::task* tail = nullptr;
    };

    int highest_level() const noexcept {
        for (int word = static_cast<int>(nonempty_.size()) - 1; word >= 0; --word) {
            const std::uint64_t bits = nonempty_[static_cast<unsigned>(word)];
            if (bits) return word * 64 + 63 - std::countl_zero(bits);
        }
        return -1;
    }

    spin_lock lock_;
    std::array<std::uint64_t, levels / 64> nonempty_{};
    std::array<list, levels> lists_{};
    alignas(64) std::atomic<long> size_{0};
};

}  // namespace loom::core
