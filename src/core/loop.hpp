// The worker loop and the parking protocol: how a context stops (park), how it is made
// runnable again (make_runnable) and how a worker moves between contexts.
// See docs/architecture.md, "Life of a task", and docs/protocols/parking.md.
#pragma once

#include "fiber.hpp"
#include "worker.hpp"

namespace loom::core {

/// Runs the worker loop of `w` on a pooled fiber until the pool stops; returns on the
/// thread's native stack.
void enter_loop_from_native(worker& w);

/// Parks the running context and continues the worker loop on another fiber. Once the
/// switch is complete, `commit(parked, arg)` runs on the new fiber: it publishes the
/// parked context to whoever will resume it, and returns false to resume it at once.
/// Returns false without parking if no fiber could be had (the caller must then wait
/// some other way).
bool park_current(bool (*commit)(context*, void*), void* arg) noexcept;

/// Queues `c` to continue: on its tied worker's mailbox, else on the caller's deque
/// (or the injection queue from outside the pool).
void make_runnable(context* c) noexcept;

/// Runs one ordinary task taken from a queue, with the accounting around it.
void run_task(worker& w, ext::task* t) noexcept;

}  // namespace loom::core
