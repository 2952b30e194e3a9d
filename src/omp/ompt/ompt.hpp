// OMPT, the OpenMP tools interface (OpenMP 5.2 chapter 19): what the rest of the
// runtime sees of it. Every event site is one branch on `ompt::on()` (a relaxed load of
// a global flag, false unless a tool's initialize returned non-zero) in front of a call
// of an out-of-line emitter (events.hpp), so a process without a tool pays one
// predictable branch per site. Built with LOOM_OMPT=OFF, on() is a constant false and
// the sites compile away.
#pragma once

#include <atomic>

#include "omp-tools.h"

#ifndef LOOM_OMPT
#define LOOM_OMPT 1
#endif

namespace loom::omp::ompt {

/// Highest event number of omp-tools.h (ompt_callback_error).
inline constexpr int max_event = 37;

// The globals are declared hidden, as the build makes their definitions: a declaration
// of default visibility has every access load the address from the GOT first, one
// instruction more for each on() test.

/// A tool is initialised and not finalised. Written by the initialising thread before
/// it registers (and starts) any other thread, cleared at finalisation.
[[gnu::visibility("hidden")]] extern std::atomic<bool> g_on;
/// The registered callbacks, by event number. A tool may change them at any time from
/// any thread: relaxed atomics, each a plain function pointer.
[[gnu::visibility("hidden")]] extern std::atomic<ompt_callback_t> g_callbacks[max_event + 1];

inline bool on() noexcept {
#if LOOM_OMPT
    return g_on.load(std::memory_order_relaxed);
#else
    return false;
#endif
}

/// The callback registered for `event`, as its signature type; null if none.
template <class F>
inline F callback(ompt_callbacks_t event) noexcept {
    return reinterpret_cast<F>(g_callbacks[event].load(std::memory_order_relaxed));
}

/// Return address of the runtime entry point the calling thread is in (codeptr_ra of
/// the events it reports), stored by LOOM_OMPT_STORE_RA() only while a tool is active.
[[gnu::visibility("hidden")]] extern __thread const void* t_return_address __attribute__((tls_model("initial-exec")));

/// Takes (and clears) the stored return address.
inline const void* take_return_address() noexcept {
    const void* ra = t_return_address;
    t_return_address = nullptr;
    return ra;
}

/// The calling task enters the runtime at an ABI entry point whose caller returns to
/// `ra` and whose frame is `frame`: stores `ra` (codeptr_ra of the events the entry
/// reports) and, unless an outer entry point of the same task already did, sets the
/// task's enter_frame. Returns the frame record to clear on the way out, or null.
ompt_frame_t* enter_runtime(const void* ra, void* frame) noexcept;

/// Clears the enter_frame that enter_runtime set, when the entry point returns. Holds a
/// null pointer (one test, no store) unless a tool was active at the entry.
struct runtime_entry {
    ompt_frame_t* frame = nullptr;
    runtime_entry() = default;
    runtime_entry(const runtime_entry&) = delete;
    runtime_entry& operator=(const runtime_entry&) = delete;
    ~runtime_entry() {
        if (frame) [[unlikely]]
            frame->enter_frame.ptr = nullptr;
    }
};

/// LOOM_OMPT_ENTER's work, out of line, for the entry points a program calls once per
/// task (task creation, taskwait): `body(ra)` runs with the task's enter_frame set to
/// `frame` and `ra` as the events' codeptr_ra. The entry point itself then costs one
/// branch without a tool (`if (ompt::on()) [[unlikely]] return observed_entry(...)`),
/// where LOOM_OMPT_ENTER's frame bookkeeping and re-read flag cost ~12 instructions per
/// call (callgrind, fib with a task per call).
template <class Body>
[[gnu::noinline]] void observed_entry(const void* ra, void* frame, Body body) {
    runtime_entry e;
    e.frame = enter_runtime(ra, frame);
    body(ra);
}

/// Finds and starts a tool once per process (ompt_start_tool in the process, then
/// OMP_TOOL_LIBRARIES, then libarcher.so), unless OMP_TOOL=disabled (start_tool.cpp).
/// Called when the first thread registers.
void start_tool_once() noexcept;

}  // namespace loom::omp::ompt

/// In an ABI entry point: remember its caller's address for the events it reports.
#define LOOM_OMPT_STORE_RA()                                                              \
    do {                                                                                  \
        if (::loom::omp::ompt::on()) [[unlikely]]                                         \
            ::loom::omp::ompt::t_return_address = __builtin_return_address(0);           \
    } while (0)

// The frame address an entry point reports as its task's enter_frame. gcc's CFA does
// not make the entry point keep a frame pointer, so the path without a tool stays as
// short as before; clang's __builtin_dwarf_cfa would, so it takes the frame address.
#if defined(__clang__)
#define LOOM_OMPT_FRAME_ADDRESS() __builtin_frame_address(0)
#else
#define LOOM_OMPT_FRAME_ADDRESS() __builtin_dwarf_cfa()
#endif

/// At the top of an ABI entry point through which a task enters the runtime (fork,
/// barrier, taskwait, taskgroup, task creation): LOOM_OMPT_STORE_RA() plus the task's
/// enter_frame for the time the entry point runs.
#define LOOM_OMPT_ENTER()                                                                 \
    ::loom::omp::ompt::runtime_entry loom_ompt_entry_;                                    \
    if (::loom::omp::ompt::on()) [[unlikely]]                                             \
        loom_ompt_entry_.frame = ::loom::omp::ompt::enter_runtime(__builtin_return_address(0), \
                                                                  LOOM_OMPT_FRAME_ADDRESS())

/// An entry point with a traced twin in ompt:: (the lock routines, ompt/lock_events.cpp):
/// `LOOM_OMPT_TRACED(lock_set_traced(l, "omp_set_lock", LOOM_OMPT_RA));` returns what the
/// twin returns while a tool is active, else falls through to the plain path.
#define LOOM_OMPT_TRACED(call)                   \
    if (::loom::omp::ompt::on()) [[unlikely]]    \
        return ::loom::omp::ompt::call

/// One event site: `LOOM_OMPT_EVENT(work(ompt_work_loop, ompt_scope_begin, n, LOOM_OMPT_RA))`
/// calls ompt::work(...) only while a tool is active (events.hpp).
#define LOOM_OMPT_EVENT(call)                                                             \
    do {                                                                                  \
        if (::loom::omp::ompt::on()) [[unlikely]]                                         \
            ::loom::omp::ompt::call;                                                      \
    } while (0)
/// The caller of the ABI entry point the site is in (codeptr_ra).
#define LOOM_OMPT_RA __builtin_return_address(0)
