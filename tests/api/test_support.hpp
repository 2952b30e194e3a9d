// Helpers shared by the API tests.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <utility>
#include <vector>

#include "loom/async.hpp"
#include "loom/ext/scheduler.hpp"
#include "loom/future.hpp"

namespace loom_test {

inline std::uint64_t fib_serial(int n) { return n < 2 ? static_cast<std::uint64_t>(n) : fib_serial(n - 1) + fib_serial(n - 2); }

/// Stress sizes shrink under ThreadSanitizer, whose slow-down would otherwise make
/// the 10^6-task tests take minutes; the protocol coverage is the same.
#if defined(LOOM_SANITIZE_THREAD)
inline constexpr int stress_divisor = 10;
#else
inline constexpr int stress_divisor = 1;
#endif

/// Busy-waits for about `us` microseconds (keeps a task on its worker).
inline void spin_for_us(int us) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::microseconds(us);
    while (std::chrono::steady_clock::now() < end) {
    }
}

/// Builds, inside a task, a chain of `hops` steps on a promise, each made by
/// next(future<int> prev, int& where) and noting in `where` the worker it ran on; sets
/// the promise and checks that the chain counted every hop. Returns how many steps ran
/// on another worker than the step before (next in line keeps them on one: 0).
template <class Next>
int chain_hops_that_moved(int hops, Next next) {
    std::vector<int> where(static_cast<std::size_t>(hops), -2);
    int counted = -1;
    loom::async([&] {
        loom::promise<int> p;
        loom::future<int> f = p.get_future();
        for (int i = 0; i < hops; ++i) f = next(std::move(f), where[static_cast<std::size_t>(i)]);
        p.set_value(0);
        counted = f.get();
    }).get();
    if (counted != hops) return -1;
    int moved = 0;
    for (std::size_t i = 1; i < where.size(); ++i) moved += where[i] != where[i - 1];
    return moved;
}

}  // namespace loom_test
