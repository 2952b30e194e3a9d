// The requests loom::mpi waits for, and the idle poller that completes them: idle
// loom workers call poll() (ext::add_idle_poller), which runs MPI_Testsome over
// every pending request and makes the finished ones' futures ready. See docs/mpi.md.
#pragma once

#include <mpi.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <variant>
#include <vector>

#include "loom/ext/spin.hpp"
#include "loom/future.hpp"
#include "loom/mpi.hpp"

namespace loom::mpi::impl {

/// Where a request's outcome goes: a future's promise, or a sender's operation.
using sink = std::variant<promise<void>, promise<MPI_Status>, mpi::detail::request_callback*>;

class request_poller {
public:
    /// Queues a started request (registering the poller with the scheduler on first
    /// use) and tells the scheduler there is work to poll. `span`: its LOOM_TRACE span
    /// (0: none), ended when the request completes.
    void add(MPI_Request request, sink out, std::uint64_t span = 0);
    [[nodiscard]] std::size_t pending() const noexcept { return pending_.load(std::memory_order_acquire); }
    /// Waits until no request is pending, polling on this thread too; after `timeout`
    /// cancels what is left (its futures get a loom::mpi::error) with one warning.
    void drain(std::chrono::milliseconds timeout);
    /// Unregisters from the scheduler: afterwards no worker is inside poll().
    void detach() noexcept;

private:
    struct queued {
        MPI_Request request;
        sink out;
        std::uint64_t span;
    };

    static bool poll_entry(void* self) noexcept;
    /// One call at a time (the scheduler's try-lock): true while requests remain.
    bool poll() noexcept;
    int ensure_registered();
    void take_incoming();
    [[nodiscard]] bool has_incoming() noexcept;
    void test_some() noexcept;
    void test_each(int failed_rc) noexcept;
    void cancel_all() noexcept;
    void complete(std::size_t i, const MPI_Status& status, int code) noexcept;
    void remove_completed() noexcept;

    ext::spin_lock incoming_lock_;
    std::vector<queued> incoming_;  // guarded by incoming_lock_
    // Owned by the one caller of poll(): the batch taken from the queue, and parallel
    // arrays, as MPI_Testsome wants them.
    std::vector<queued> batch_;
    std::vector<MPI_Request> requests_;
    std::vector<sink> sinks_;
    std::vector<std::uint64_t> spans_;
    std::vector<char> done_;
    std::vector<int> indices_;
    std::vector<MPI_Status> statuses_;

    std::atomic<std::size_t> pending_{0};  // queued or in the arrays, not completed
    std::atomic<bool> cancel_{false};      // the drain timed out: cancel everything
    std::mutex registration_;
    std::atomic<int> id_{-1};              // the scheduler's poller id, -1: not registered
};

/// The process's poller (MPI requests are process-wide).
request_poller& poller() noexcept;
/// LOOM_MPI_POLL_US, read once (one warning for a malformed value; 100 us then).
std::chrono::microseconds poll_interval();

/// An MPI_Status as MPI gives for a null or inactive request.
MPI_Status empty_status() noexcept;

/// Delivers a request's outcome to `out` (a promise, or a sender operation's callback).
void deliver(sink& out, const MPI_Status& status, int code, const char* where) noexcept;

}  // namespace loom::mpi::impl
