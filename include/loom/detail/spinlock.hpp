// The lock of the wait queues of the sync primitives: the extension interface's
// test-and-test-and-set lock (include/loom/ext/spin.hpp; critical sections of a few
// pointer updates that never suspend; spins, then yields to a preempted holder).
#pragma once

#include "loom/ext/spin.hpp"

namespace loom::detail {

using spinlock = ext::spin_lock;

}  // namespace loom::detail
