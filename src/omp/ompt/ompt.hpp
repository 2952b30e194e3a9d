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

/// A tool is initialised and not finalised. Written by the initialising thread before
/// it registers (and starts) any other thread, cleared at finalisation.
extern std::atomic<bool> g_on;
/// The registered callbacks, by event number. A tool may change them at any time from
/// any thread: relaxed atomics, each a plain function pointer.
extern std::atomic<ompt_callback_t> g_callbacks[max_event + 1];

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
extern __thread const void* t_return_address __attribute__((tls_model("initial-exec")));

/// Takes (and clears) the stored return address.
inline const void* take_return_address() noexcept {
    const void* ra = t_return_address;
    t_return_address = nullptr;
    return ra;
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

/// One event site: `LOOM_OMPT_EVENT(work(ompt_work_loop, ompt_scope_begin, n, LOOM_OMPT_RA))`
/// calls ompt::work(...) only while a tool is active (events.hpp).
#define LOOM_OMPT_EVENT(call)                                                             \
    do {                                                                                  \
        if (::loom::omp::ompt::on()) [[unlikely]]                                         \
            ::loom::omp::ompt::call;                                                      \
    } while (0)
/// The caller of the ABI entry point the site is in (codeptr_ra).
#define LOOM_OMPT_RA __builtin_return_address(0)
