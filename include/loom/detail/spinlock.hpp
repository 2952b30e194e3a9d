// A tiny test-and-test-and-set lock for the wait queues of the sync primitives.
// Critical sections are a handful of pointer updates and never suspend, so a spin
// with a yield fallback (for a preempted holder on an oversubscribed machine) fits.
#pragma once

#include <atomic>
#include <thread>

#include "loom/detail/config.hpp"

namespace loom::detail {

class spinlock {
public:
    void lock() noexcept {
        for (;;) {
            if (!locked_.exchange(true, std::memory_order_acquire)) return;
            unsigned spins = 0;
            while (locked_.load(std::memory_order_relaxed)) {
                if (++spins < 64) {
                    cpu_relax();
                } else {
                    std::this_thread::yield();
                }
            }
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

}  // namespace loom::detail
