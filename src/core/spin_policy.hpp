// How long an idle worker spins before it sleeps, when the budget is loom's to choose
// (neither LOOM_SPIN_US nor an OpenMP wait setting fixed it).
//
// Spinning pays when work comes back within the spin: it saves the sleep and the
// wake-up (a futex round trip, tens of microseconds on a VM). It is burnt CPU when
// the worker would have slept anyway. So the budget follows how long this worker's
// recent idle periods actually lasted:
//   - work found while spinning: the budget was enough; keep at least twice that wait;
//   - slept, and the whole idle period was shorter than the largest budget: a longer
//     spin would have caught it, so double the budget (at least twice the wait);
//   - slept through an idle period longer than the largest budget: the spin was
//     wasted, so halve it, down to a floor of 1/32 of the largest budget.
// The largest budget is the configured one (100 us by default), so adapting only ever
// spends less CPU than the fixed policy, never more.
#pragma once

#include <algorithm>
#include <cstdint>

namespace loom::core {

/// How long an idle period that began at `since` and found work at `now` lasted
/// (steady ns). For a worker that slept and was woken by a waker at `wake_requested`
/// (0: none, e.g. its own deadline woke it), it ended at the request: the work was
/// there then, and a spin that long would have caught it. The time the woken thread
/// then waits for a CPU (100 us to 1 ms on a busy VM) says nothing about the gap;
/// counted in, it made gaps of a few microseconds look longer than the largest budget,
/// so the budget stayed at its floor and the worker slept, and paid that wake-up,
/// through every one of them.
inline std::int64_t idle_period_ns(std::int64_t since, std::int64_t now, bool slept,
                                   std::int64_t wake_requested) noexcept {
    const std::int64_t end = slept && wake_requested != 0 && wake_requested < now ? wake_requested : now;
    return std::max<std::int64_t>(0, end - since);
}

struct spin_policy {
    std::int64_t max_ns;     // the configured budget
    std::int64_t budget_ns;  // the current one

    explicit spin_policy(std::int64_t max) noexcept : max_ns(max), budget_ns(max) {}

    [[nodiscard]] std::int64_t floor_ns() const noexcept { return std::max<std::int64_t>(max_ns / 32, 1000); }

    /// After an idle period of `waited_ns` that ended with work found, having slept or not.
    void record(std::int64_t waited_ns, bool slept) noexcept {
        if (!slept) {
            budget_ns = std::min(max_ns, std::max(budget_ns, 2 * waited_ns));
        } else if (waited_ns < max_ns) {
            budget_ns = std::min(max_ns, std::max(2 * budget_ns, 2 * waited_ns));
        } else {
            budget_ns = std::max(floor_ns(), budget_ns / 2);
        }
    }
};

}  // namespace loom::core
