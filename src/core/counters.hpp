// Per-worker event counters: written only by the thread running as that worker,
// read by anyone (stats()). Relaxed atomics so readers never race; an increment is a
// plain load-add-store, no locked instruction.
#pragma once

#include <atomic>
#include <cstdint>

namespace loom::core {

class counter {
public:
    void add(std::uint64_t n = 1) noexcept {
        value_.store(value_.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
    }
    [[nodiscard]] std::uint64_t get(std::memory_order o = std::memory_order_relaxed) const noexcept {
        return value_.load(o);
    }

private:
    std::atomic<std::uint64_t> value_{0};
};

struct worker_counters {
    counter tasks_run;
    counter steals;         // steal visits that found work
    counter tasks_stolen;   // tasks those visits took (steal-half takes several)
    counter failed_steals;
    counter rings;          // spins cut short by a pusher's doorbell (sleep.md)
    counter handoffs;       // tasks a pusher handed to this spinning worker (sleep.md)
    counter sleeps;
    counter fibers_created;
    counter suspensions;
    counter resumptions;  // parked contexts taken up again: parked = suspensions - these
    // For quiescence (shutdown): ordinary tasks submitted by / completed on this worker.
    counter submitted;
    counter completed;
};

}  // namespace loom::core
