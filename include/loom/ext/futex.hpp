// The Linux futex, shared by the layers (core, api, omp): the only kernel primitive loom
// uses for sleeping and waking. Process-private futexes (FUTEX_PRIVATE_FLAG): loom's
// words never live in memory shared with another process.
//
// `word` is the address of a 32-bit word: a std::uint32_t, or a std::atomic of a
// 4-byte integer (lock-free, same size and alignment as the integer, so the kernel may
// treat its address as the futex word).
#pragma once

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <ctime>

namespace loom::ext {

namespace futex_detail {
template <class Word>
inline long call(Word* word, int op, std::uint32_t value, const timespec* timeout) noexcept {
    static_assert(sizeof(Word) == sizeof(std::uint32_t), "a futex word is 32 bits");
    // Casting away const: FUTEX_WAIT only reads the word.
    return syscall(SYS_futex, const_cast<void*>(static_cast<const volatile void*>(word)),
                   op | FUTEX_PRIVATE_FLAG, value, timeout, nullptr, 0);
}
}  // namespace futex_detail

/// Sleeps while `*word == expected` (returns at once otherwise, on a signal, or
/// spuriously: callers re-check in a loop).
template <class Word>
inline void futex_wait(Word* word, std::uint32_t expected) noexcept {
    futex_detail::call(word, FUTEX_WAIT, expected, nullptr);
}

/// As futex_wait, but gives up after `timeout_ns`.
template <class Word>
inline void futex_wait_for(Word* word, std::uint32_t expected, long timeout_ns) noexcept {
    const timespec ts{timeout_ns / 1'000'000'000L, timeout_ns % 1'000'000'000L};
    futex_detail::call(word, FUTEX_WAIT, expected, &ts);
}

/// Wakes up to `count` threads sleeping on `word` (INT_MAX: all).
template <class Word>
inline void futex_wake(Word* word, int count) noexcept {
    futex_detail::call(word, FUTEX_WAKE, static_cast<std::uint32_t>(count), nullptr);
}

}  // namespace loom::ext
