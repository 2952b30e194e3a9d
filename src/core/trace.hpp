// The tracer behind include/loom/ext/trace.hpp (LOOM_TRACE=file.json). Each worker keeps
// its own event buffer (written only by the thread running as that worker); slices are
// begin/end pairs on the worker's track. A context that parks closes its open slices
// and reopens them where it resumes, so every track nests properly even when a task
// migrates. Flow arrows join the slice that submitted a task to the slice it runs in;
// a side table (trace.cpp) holds each queued task's arrow ids, only while tracing, so
// the task record does not grow. Queue lengths are sampled as counters at most every
// 100 us per worker. Asynchronous spans (MPI requests, any thread) go to one shared
// buffer (trace_async.cpp). trace_file.cpp names the file and writes it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "loom/ext/trace.hpp"

namespace loom::ext {
struct task;
}

namespace loom::core {

struct context;
class worker;
class pool;

enum class trace_phase : std::uint8_t { begin, end, flow_start, flow_end, counter };

struct trace_event {
    std::uint64_t ns;          // steady clock since the trace started
    const char* name;          // slice, arrow or counter name; null on an end event
    std::uint64_t value = 0;   // an arrow's id, a counter's value
    trace_phase phase = trace_phase::begin;
    bool resumed = false;      // the rest of a slice that parked: shown as "name (resumed)"
};

/// Per worker: the events and the names of the slices open now (innermost last).
struct trace_track {
    std::vector<trace_event> events;
    std::vector<const char*> open;
    std::uint64_t next_sample_ns = 0;  // queue-length counters: the next sample's time
};

/// Counter names; a worker's deque length is written as "deque (worker N)".
inline constexpr const char* trace_deque_counter = "deque";
inline constexpr const char* trace_injection_counter = "injection queue";
inline constexpr const char* trace_priority_counter = "priority queue";

/// One event of an asynchronous span ("b" / "e").
struct trace_async_event {
    std::uint64_t ns;
    std::uint64_t id;
    bool begin;
    std::string track, name;  // copied from the "b" into its "e"
    std::vector<ext::trace_arg> args;
};

// ---- trace_file.cpp
/// Reads LOOM_TRACE once (at library load or pool start); turns tracing on when it
/// names a file (with %r, or under an MPI launcher, the rank in the name).
void trace_configure() noexcept;
/// Nanoseconds on the steady clock since the trace started.
std::uint64_t trace_now_ns() noexcept;
/// Writes the JSON file with every ended pool's events (at exit).
void trace_write() noexcept;

// ---- trace.cpp
/// A context parks: close its open slices, keeping their names in the context.
void trace_park(worker& w, context& c) noexcept;
/// A context resumes on `w`: reopen what it closed when it parked.
void trace_resume(worker& w, context& c) noexcept;
void open_slice_on(worker& w, const char* name) noexcept;
void close_slice_on(worker& w) noexcept;
/// Slice of a task the worker loop runs; arrows waiting for `t` end in it.
void trace_task_begin(worker& w, const ext::task* t) noexcept;
void trace_task_end(worker& w) noexcept;
/// `t` is being queued by the caller (`w`: null outside the pool): an arrow from the
/// caller's innermost slice to t's.
void trace_submit(worker* w, const ext::task* t) noexcept;
/// Keeps the events of a pool that ends (its threads joined) for the file.
void trace_archive(pool& p) noexcept;
/// The tracks of every ended pool, by worker index (the writer's input).
std::vector<trace_track>& trace_archived() noexcept;

// ---- trace_async.cpp
/// Every asynchronous event so far, in the order recorded (the writer's input).
std::vector<trace_async_event> trace_async_events() noexcept;

}  // namespace loom::core
