// The process-wide pool: lazy start, explicit start, shutdown, and life across fork().
#pragma once

#include <atomic>

#include "pool.hpp"

namespace loom::core {

extern std::atomic<pool*> g_pool;  // runtime.cpp

/// The running pool, or null. Stable while any task runs (shutdown drains first).
inline pool* current_pool() noexcept { return g_pool.load(std::memory_order_acquire); }
/// The most workers a pool of this process could start (a thread or a first fiber
/// stack refused at that count), or 0 while nothing was refused. Pools started later
/// are capped there, so a failure is met and reported once, not at every start.
unsigned worker_limit() noexcept;
void remember_limit(unsigned workers) noexcept;
/// Registers the exit drain (exit_drain.cpp) once per process; called at pool start.
void arm_exit_drain();
/// True once the exit path gave up on the tasks in flight (ext::abandon_at_exit).
bool abandoning_at_exit() noexcept;
/// Starts the pool from the environment unless one runs (runtime.cpp).
pool& start_pool();
/// The running pool, started from the environment if there is none.
inline pool& ensure_pool() {
    if (pool* p = current_pool()) return *p;
    return start_pool();
}

}  // namespace loom::core
