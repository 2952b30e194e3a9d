// Tracing hooks of the scheduler (LOOM_TRACE=file.json): one slice per task on the
// track of the worker that runs it, flow arrows from the slice that made a task
// runnable to the slice the task runs in, queue-length counters, and asynchronous
// spans (MPI requests), written as Chrome / Perfetto trace-event JSON at exit. Layers
// name the slices of their own units (OpenMP constructs) and open slices for work they
// run inline. Off, each hook is one relaxed load and a branch.
#pragma once

#include <atomic>
#include <cstdint>

#include "loom/ext/export.hpp"

namespace loom::ext {

struct task;

LOOM_EXPORT extern std::atomic<bool> g_tracing;

/// True while LOOM_TRACE is recording.
inline bool tracing() noexcept { return g_tracing.load(std::memory_order_relaxed); }

/// Opens a slice named `name` (a string that lives as long as the process) on the
/// calling worker's track; no-op outside the pool. Slices nest.
LOOM_EXPORT void trace_begin(const char* name) noexcept;
/// Closes the innermost slice the caller opened.
LOOM_EXPORT void trace_end() noexcept;
/// Names the innermost open slice (the task the scheduler opened for the caller).
/// Names of the form ";file;function;line;col;;" (an OpenMP ident_t's psource) are
/// shown as "function (file:line)".
LOOM_EXPORT void trace_name(const char* name) noexcept;

/// Flow arrow: the caller's innermost slice made (or will make) `t` runnable, so an
/// arrow named `name` goes from here to the first slice opened for `t` (the
/// scheduler's slice when a worker runs it, or trace_begin_task's). ext::submit and
/// ext::submit_to draw this arrow themselves; layers call it only for tasks they
/// create now and queue later (`more`: the next arrow to `t` adds to this one instead
/// of replacing it) or run without submitting them. No-op outside a slice.
LOOM_EXPORT void trace_flow(const task* t, const char* name, bool more = false) noexcept;
/// As trace_begin, for a layer that runs task `t` itself (not through the worker
/// loop): the slice is t's, and the arrows waiting for t end in it.
LOOM_EXPORT void trace_begin_task(const char* name, const task* t) noexcept;
/// Runs `t` (t->run(t)) inside a slice named `name` opened with trace_begin_task.
LOOM_EXPORT void trace_run_inline(task* t, const char* name) noexcept;

/// An argument shown with an asynchronous span (MPI: the peer rank, the tag).
struct trace_arg {
    const char* key;  // a string that lives as long as the process
    long long value;
};
/// Begins an asynchronous span named `name` on the process's track `track` (a
/// Chrome "b" event); any thread may call it. Returns the span's id for
/// trace_async_end, 0 when not tracing.
LOOM_EXPORT std::uint64_t trace_async_begin(const char* track, const char* name, const trace_arg* args,
                                            unsigned nargs) noexcept;
/// Ends the span `id` (a Chrome "e" event), with more arguments if known only now.
LOOM_EXPORT void trace_async_end(std::uint64_t id, const trace_arg* args = nullptr, unsigned nargs = 0) noexcept;

}  // namespace loom::ext
