// The tracer behind include/loom/ext/trace.hpp (LOOM_TRACE=file.json). Each worker keeps
// its own event buffer (written only by the thread running as that worker); slices are
// begin/end pairs on the worker's track. A context that parks closes its open slices
// and reopens them where it resumes, so every track nests properly even when a task
// migrates.
#pragma once

#include <cstdint>
#include <vector>

namespace loom::core {

struct context;
class worker;
class pool;

struct trace_event {
    std::uint64_t ns;      // steady clock since the trace started
    const char* name;      // null on an end event
    bool resumed = false;  // the rest of a slice that parked: shown as "name (resumed)"
};

/// Per worker: the events and the names of the slices open now (innermost last).
struct trace_track {
    std::vector<trace_event> events;
    std::vector<const char*> open;
};

/// Reads LOOM_TRACE once (at pool start); turns tracing on when it names a file.
void trace_configure() noexcept;
/// A context parks: close its open slices, keeping their names in the context.
void trace_park(worker& w, context& c) noexcept;
/// A context resumes on `w`: reopen what it closed when it parked.
void trace_resume(worker& w, context& c) noexcept;
void open_slice_on(worker& w, const char* name) noexcept;
void close_slice_on(worker& w) noexcept;
/// Slice of a task the worker loop runs.
void trace_task_begin(worker& w) noexcept;
void trace_task_end(worker& w) noexcept;
/// Keeps the events of a pool that ends (its threads joined) for the file.
void trace_archive(pool& p) noexcept;
/// Writes the JSON file with every ended pool's events (at exit).
void trace_write() noexcept;

}  // namespace loom::core
