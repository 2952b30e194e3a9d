// Chase-Lev work-stealing deque of task pointers: the owner pushes and pops at the
// bottom (LIFO), thieves steal from the top (FIFO).
//
// Memory orderings follow "Correct and Efficient Work-Stealing for Weak Memory Models"
// (Le, Pop, Cohen, Zappa Nardelli, PPoPP 2013); the argument is retold in
// docs/protocols/deque.md. The buffer grows by doubling; a replaced buffer may still be
// read by a thief that loaded it before the swap, so old buffers are retired, not
// freed, until the deque is destroyed (their total size is below the live buffer's).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "fence.hpp"

namespace loom::core {

template <class T>
class chase_lev_deque {
    static_assert(std::is_pointer_v<T>);

    struct ring {
        explicit ring(std::int64_t cap) : capacity(cap), mask(cap - 1), slots(new std::atomic<T>[cap]) {}
        std::int64_t capacity;
        std::int64_t mask;
        std::unique_ptr<std::atomic<T>[]> slots;

        T get(std::int64_t i) const noexcept { return slots[i & mask].load(std::memory_order_relaxed); }
        void put(std::int64_t i, T v) noexcept { slots[i & mask].store(v, std::memory_order_relaxed); }
    };

public:
    explicit chase_lev_deque(std::int64_t initial_capacity = 256) {
        auto r = std::make_unique<ring>(initial_capacity);
        buffer_.store(r.get(), std::memory_order_relaxed);
        rings_.push_back(std::move(r));
    }
    chase_lev_deque(const chase_lev_deque&) = delete;
    chase_lev_deque& operator=(const chase_lev_deque&) = delete;

    /// Owner only. Returns true if the deque looked empty before the push (the owner's
    /// view: exact but for steals racing with it).
    bool push(T item) {
        std::int64_t b = bottom_.load(std::memory_order_relaxed);
        std::int64_t t = top_.load(std::memory_order_acquire);
        ring* r = buffer_.load(std::memory_order_relaxed);
        if (b - t > r->capacity - 1) r = grow(r, t, b);
        r->put(b, item);
        // Release: a thief that reads the new bottom also sees the slot's content.
        bottom_.store(b + 1, std::memory_order_release);
        return b <= t;
    }

    /// Owner only. Returns null when empty.
    T pop() noexcept {
        std::int64_t b = bottom_.load(std::memory_order_relaxed) - 1;
        ring* r = buffer_.load(std::memory_order_relaxed);
        bottom_.store(b, std::memory_order_relaxed);
        // Store-load fence: the owner's claim on slot b (bottom = b) and a thief's claim
        // (top CAS) must be totally ordered, else both could take the last item.
        full_fence();
        std::int64_t t = top_.load(std::memory_order_relaxed);
        if (t > b) {  // was empty
            bottom_.store(b + 1, std::memory_order_relaxed);
            return nullptr;
        }
        T item = r->get(b);
        if (t == b) {  // last item: race the thieves for it
            if (!top_.compare_exchange_strong(t, t + 1, std::memory_order_seq_cst,
                                              std::memory_order_relaxed))
                item = nullptr;
            bottom_.store(b + 1, std::memory_order_relaxed);
        }
        return item;
    }

    /// Any thread. Returns null when empty or when another thief won the race.
    T steal() noexcept {
        std::int64_t t = top_.load(std::memory_order_acquire);
        full_fence();
        std::int64_t b = bottom_.load(std::memory_order_acquire);
        if (t >= b) return nullptr;
        ring* r = buffer_.load(std::memory_order_acquire);
        T item = r->get(t);
        if (!top_.compare_exchange_strong(t, t + 1, std::memory_order_seq_cst,
                                          std::memory_order_relaxed))
            return nullptr;
        return item;
    }

    /// A hint of the number of items (steal-half's batch size, LOOM_TRACE's queue-length
    /// counters), exact only when nobody else touches the deque.
    [[nodiscard]] std::int64_t size_hint() const noexcept {
        const std::int64_t n = bottom_.load(std::memory_order_relaxed) - top_.load(std::memory_order_relaxed);
        return n > 0 ? n : 0;
    }

    /// A hint, exact only when nobody else touches the deque.
    [[nodiscard]] bool looks_empty() const noexcept {
        return top_.load(std::memory_order_relaxed) >= bottom_.load(std::memory_order_relaxed);
    }

private:
    ring* grow(ring* old, std::int64_t t, std::int64_t b) {
        auto bigger = std::make_unique<ring>(old->capacity * 2);
        for (std::int64_t i = t; i < b; ++i) bigger->put(i, old->get(i));
        ring* r = bigger.get();
        rings_.push_back(std::move(bigger));
        buffer_.store(r, std::memory_order_release);
        return r;
    }

    alignas(64) std::atomic<std::int64_t> top_{0};
    alignas(64) std::atomic<std::int64_t> bottom_{0};
    std::atomic<ring*> buffer_{nullptr};
    std::vector<std::unique_ptr<ring>> rings_;  // owner only; live ring is the last
};

}  // namespace loom::core
