// Starting, configuring and observing the runtime. The pool starts lazily on first
// use, configured from the environment (LOOM_NUM_THREADS, else OMP_NUM_THREADS, else
// the CPUs this process may use; LOOM_STACKSIZE; LOOM_SPIN_US). A loom::runtime object
// starts it explicitly with given options and shuts it down when destroyed:
//
//     loom::runtime rt{loom::runtime_options{.num_threads = 2}};
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "loom/ext/export.hpp"
#include "loom/ext/scheduler.hpp"

namespace loom {

/// Explicit configuration; zero / negative fields mean "from the environment, else
/// the default" (docs/configuration.md).
struct runtime_options {
    unsigned num_threads = 0;    // workers, the starting thread (slot 0) included
    std::size_t stack_size = 0;  // bytes per fiber stack
    long spin_us = -1;           // idle spin before a worker sleeps
    int pin_workers = -1;        // 1: bind each worker to its place; 0: never; -1: LOOM_PIN (default: no)
};

/// RAII owner of the pool. The constructor starts the pool with `opts` (the calling
/// thread becomes worker 0); the destructor waits for all submitted work and stops the
/// workers. If a pool is already running, the object does not own it: the options are
/// not applied (owns_pool() is false) and the destructor leaves the pool alone.
class LOOM_EXPORT runtime {
public:
    runtime() : runtime(runtime_options{}) {}
    explicit runtime(const runtime_options& opts);
    runtime(const runtime&) = delete;
    runtime& operator=(const runtime&) = delete;
    ~runtime();

    [[nodiscard]] bool owns_pool() const noexcept { return owns_; }

private:
    bool owns_ = false;
};

/// Counters of one worker since the pool started.
using worker_stats = ext::worker_stats;

/// Number of workers (starts the pool if needed).
LOOM_EXPORT unsigned num_threads();
/// Index of the worker the caller runs on, -1 outside the pool. Ask again after any
/// point where a task may have been suspended: it may have moved.
LOOM_EXPORT int this_worker() noexcept;
/// HPX's name for the number of OS threads in the pool: the workers, slot 0 included.
/// As num_threads(), it starts the pool if none runs (loom's runtime is always
/// available; HPX instead reports an error before hpx::init).
inline std::size_t get_os_thread_count() { return num_threads(); }
/// HPX's get_worker_thread_num(): the zero-based index of the worker running the
/// caller, below get_os_thread_count(). As HPX documents, a caller outside the pool
/// gets -1, which in the std::size_t return type is std::size_t(-1). The main thread
/// that a pool of two or more workers adopted as slot 0 answers 0 (it is a worker).
/// Ask again after any suspension point: the task may have moved.
inline std::size_t get_worker_thread_num() noexcept {
    const int w = this_worker();
    return w < 0 ? static_cast<std::size_t>(-1) : static_cast<std::size_t>(w);
}
/// A snapshot of every worker's counters (empty if the pool is not running).
LOOM_EXPORT std::vector<worker_stats> stats();
/// The counters of all workers added up.
LOOM_EXPORT worker_stats total(const std::vector<worker_stats>& per_worker) noexcept;
/// Lets other ready work run before the calling task continues.
inline void yield() noexcept { ext::yield(); }

}  // namespace loom
