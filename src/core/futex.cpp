// The words the scheduler sleeps on (worker sleep words, the pool's start gate, wait
// slots) are std::atomic<std::uint32_t>: the kernel may treat their address as the
// futex word only because the atomic has the integer's size and is lock-free.
#include "futex.hpp"

namespace loom::core {

static_assert(sizeof(std::atomic<std::uint32_t>) == sizeof(std::uint32_t));
static_assert(std::atomic<std::uint32_t>::is_always_lock_free);

}  // namespace loom::core
