// Thin wrappers over the Linux futex system call: the only kernel primitive loom uses
// for sleeping and waking.
#pragma once

#include <atomic>
#include <cstdint>

namespace loom::core {

/// Sleeps while `*word == expected` (returns at once otherwise, or spuriously).
void futex_wait(std::atomic<std::uint32_t>* word, std::uint32_t expected) noexcept;
/// As futex_wait, but gives up after `timeout_ns`.
void futex_wait_for(std::atomic<std::uint32_t>* word, std::uint32_t expected,
                    long timeout_ns) noexcept;
/// Wakes up to `count` threads sleeping on `word`.
void futex_wake(std::atomic<std::uint32_t>* word, int count) noexcept;

/// The spin-wait hint of the processor (PAUSE on x86).
inline void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield" ::: "memory");
#endif
}

}  // namespace loom::core
