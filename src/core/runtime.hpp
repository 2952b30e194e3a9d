// The process-wide pool: lazy start, explicit start, shutdown, and life across fork().
#pragma once

#include "pool.hpp"

namespace loom::core {

/// The running pool, or null. Stable while any task runs (shutdown drains first).
pool* current_pool() noexcept;
/// The running pool, started from the environment if there is none.
pool& ensure_pool();

}  // namespace loom::core
