// Helpers shared by the API tests.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdlib>

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

}  // namespace loom_test
