// Senders and receivers on loom's pool (C++26 std::execution, P2300R10, in
// loom::execution::experimental; tutorial and the table of names: docs/senders.md):
//
//   namespace ex = loom::execution::experimental;
//   namespace tt = loom::this_thread::experimental;
//
//   ex::pool_scheduler sch;                                  // loom's pool (a priority too)
//   auto work = ex::schedule(sch)                            // start on a worker
//             | ex::then([] { return 20; })
//             | ex::continues_on(sch)                        // hop to another task
//             | ex::then([](int v) { return v * 2 + 2; });
//   auto [v] = tt::sync_wait(std::move(work)).value();       // 42; parks a task, blocks a thread
//
// Factories: just, just_error, just_stopped, schedule. Adaptors (also as pipes): then,
// upon_error, upon_stopped, let_value, let_error, let_stopped, bulk, when_all,
// continues_on (transfer), starts_on, split, ensure_started, into_variant,
// stopped_as_optional, stopped_as_error, write_env. Consumers: sync_wait,
// sync_wait_with_variant, start_detached, make_future. Also any_sender<Ts...>,
// as_sender(future), co_await of a sender in loom's coroutines, and the stop tokens of
// loom/stop_token.hpp (when_all stops the other children when one fails).
#pragma once

#include "loom/detail/sender_any.hpp"
#include "loom/detail/sender_await.hpp"
#include "loom/detail/sender_bulk.hpp"
#include "loom/detail/sender_closure.hpp"
#include "loom/detail/sender_concepts.hpp"
#include "loom/detail/sender_continues_on.hpp"
#include "loom/detail/sender_env.hpp"
#include "loom/detail/sender_future.hpp"
#include "loom/detail/sender_just.hpp"
#include "loom/detail/sender_let.hpp"
#include "loom/detail/sender_scheduler.hpp"
#include "loom/detail/sender_shared.hpp"
#include "loom/detail/sender_start_detached.hpp"
#include "loom/detail/sender_sync_wait.hpp"
#include "loom/detail/sender_then.hpp"
#include "loom/detail/sender_variant.hpp"
#include "loom/detail/sender_when_all.hpp"
#include "loom/stop_token.hpp"

namespace loom::execution::experimental {

using loom::inplace_stop_callback;
using loom::inplace_stop_source;
using loom::inplace_stop_token;
using loom::never_stop_token;
using loom::stop_callback_for_t;
using loom::stoppable_token;
using loom::unstoppable_token;

}  // namespace loom::execution::experimental
