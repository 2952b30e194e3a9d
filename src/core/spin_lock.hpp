// The scheduler's lock for critical sections of a few instructions (queue links, the
// record depot): the extension interface's spin lock (include/loom/ext/spin.hpp),
// one copy for every layer.
#pragma once

#include "futex.hpp"
#include "loom/ext/spin.hpp"

namespace loom::core {

using spin_lock = ext::spin_lock;

}  // namespace loom::core
