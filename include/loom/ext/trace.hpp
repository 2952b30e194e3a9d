// Tracing hooks of the scheduler (LOOM_TRACE=file.json): one slice per task on the
// track of the worker that runs it, written as Chrome / Perfetto trace-event JSON at
// exit. Layers name the slices of their own units (OpenMP constructs) and open slices
// for work they run inline. Off, each hook is one relaxed load and a branch.
#pragma once

#include <atomic>

#include "loom/ext/export.hpp"

namespace loom::ext {

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

}  // namespace loom::ext
