#include "futex.hpp"

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <ctime>

namespace loom::core {

namespace {
// std::atomic<uint32_t> has the size and alignment of uint32_t and is lock-free, so
// the kernel may treat its address as the futex word.
static_assert(sizeof(std::atomic<std::uint32_t>) == sizeof(std::uint32_t));
static_assert(std::atomic<std::uint32_t>::is_always_lock_free);

long futex(std::atomic<std::uint32_t>* word, int op, std::uint32_t value,
           const timespec* timeout) noexcept {
    return syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(word), op | FUTEX_PRIVATE_FLAG,
                   value, timeout, nullptr, 0);
}
}  // namespace

void futex_wait(std::atomic<std::uint32_t>* word, std::uint32_t expected) noexcept {
    futex(word, FUTEX_WAIT, expected, nullptr);
}

void futex_wait_for(std::atomic<std::uint32_t>* word, std::uint32_t expected,
                    long timeout_ns) noexcept {
    timespec ts{timeout_ns / 1'000'000'000L, timeout_ns % 1'000'000'000L};
    futex(word, FUTEX_WAIT, expected, &ts);
}

void futex_wake(std::atomic<std::uint32_t>* word, int count) noexcept {
    futex(word, FUTEX_WAKE, static_cast<std::uint32_t>(count), nullptr);
}

}  // namespace loom::core
