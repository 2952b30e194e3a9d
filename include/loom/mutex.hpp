// loom::mutex: a mutex whose lock() parks a waiting task (its worker runs other work)
// and blocks a thread outside the pool. Meets Lockable, so std::lock_guard,
// std::unique_lock and std::scoped_lock work with it. Protocol: src/api/sync.cpp.
#pragma once

#include <atomic>
#include <cstdint>

#include "loom/detail/wait_queue.hpp"
#include "loom/ext/export.hpp"

namespace loom {

class LOOM_EXPORT mutex {
public:
    constexpr mutex() noexcept = default;
    mutex(const mutex&) = delete;
    mutex& operator=(const mutex&) = delete;
    ~mutex() = default;

    void lock() noexcept {
        std::uint32_t w = 0;
        if (!word_.compare_exchange_strong(w, locked_bit, std::memory_order_acquire,
                                           std::memory_order_relaxed)) {
            lock_slow();
        }
    }
    bool try_lock() noexcept {
        std::uint32_t w = 0;
        return word_.compare_exchange_strong(w, locked_bit, std::memory_order_acquire,
                                             std::memory_order_relaxed);
    }
    void unlock() noexcept {
        std::uint32_t w = locked_bit;
        if (!word_.compare_exchange_strong(w, 0, std::memory_order_release,
                                           std::memory_order_relaxed)) {
            unlock_slow();
        }
    }

private:
    // One word holds the lock bit, the guard of the waiter queue, and whether the queue
    // is non-empty, so the last access of unlock() to the mutex is a single atomic
    // operation (the mutex may be destroyed by the next owner right after it).
    static constexpr std::uint32_t locked_bit = 1;
    static constexpr std::uint32_t guard_bit = 2;
    static constexpr std::uint32_t waiters_bit = 4;

    void lock_slow() noexcept;
    void unlock_slow() noexcept;

    std::atomic<std::uint32_t> word_{0};
    detail::wait_queue queue_;  // guarded by guard_bit
};

}  // namespace loom
