// A test-and-test-and-set lock for critical sections of a few instructions (queue
// links). Never held across a suspension point or a system call.
#pragma once

#include <atomic>

#include "futex.hpp"

namespace loom::core {

class spin_lock {
public:
    void lock() noexcept {
        while (locked_.exchange(true, std::memory_order_acquire)) {
            while (locked_.load(std::memory_order_relaxed)) cpu_relax();
        }
    }
    bool try_lock() noexcept {
        return !locked_.load(std::memory_order_relaxed) &&
               !locked_.exchange(true, std::memory_order_acquire);
    }
    void unlock() noexcept { locked_.store(false, std::memory_order_release); }

private:
    std::atomic<bool> locked_{false};
};

}  // namespace loom::core
