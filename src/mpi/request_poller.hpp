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
#include <vector>

#include "loom/mpi.hpp"

namespace loom::mpi::impl {

class request_poller {
public:
    /// Queues a started request (registering the poller with the scheduler on first
    /// use) and tells the scheduler there is work to poll. `node` is the request's
    /// completion and the poller's node for it until node->done is called; `span`: its
    /// LOOM_TRACE span (0: none), ended when the request completes.
    void add(mpi::detail::request_callback* node, MPI_Request request, std::uint64_t span = 0);
    /// Requests handed over and not completed. Completions are read first: both
    /// counts only grow and completed <= added at every moment, so the difference
    /// never wraps and is never 0 while a request handed over before the call waits.
    [[nodiscard]] std::size_t pending() const noexcept {
        const std::size_t done = completed_.load(std::memory_order_acquire);
        return added_.load(std::memory_order_acquire) - done;
    }
    /// Waits until no request is pending, polling on this thread too; after `timeout`
    /// cancels what is left (its futures get a loom::mpi::error) with one warning.
    void drain(std::chrono::milliseconds timeout);
    /// Unregisters from the scheduler: afterwards no worker is inside poll().
    void detach() noexcept;

private:
    using node = mpi::detail::request_callback;

    static bool poll_entry(void* self) noexcept;
    /// One call at a time (the scheduler's try-lock): true while requests remain.
    bool poll() noexcept;
    int ensure_registered();
    void take_incoming();
    void test_some() noexcept;
    void test_each(int failed_rc) noexcept;
    void cancel_all() noexcept;
    void complete(std::size_t i, const MPI_Status& status, int code) noexcept;
    void remove_completed() noexcept;

    // Requests handed over and not yet taken: a stack of nodes, pushed by add (CAS,
    // release) and taken whole by the poll (exchange, acquire): no lock, and a poll
    // that finds it empty pays one load.
    std::atomic<node*> incoming_{nullptr};
    // Owned by the one caller of poll(): the pending requests as MPI_Testsome wants
    // them, and their nodes (null once completed, until remove_completed).
    std::vector<MPI_Request> requests_;
    std::vector<node*> nodes_;
    std::vector<int> indices_;
    std::vector<MPI_Status> statuses_;

    std::atomic<std::size_t> added_{0};
    // Written only by the caller of poll() (the scheduler's try-lock orders the callers),
    // so a completion is a plain store, not a read-modify-write.
    std::atomic<std::size_t> completed_{0};
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

/// The first look at a request handed to loom::mpi (to_future, as_sender): MPI_Test
/// once under the call lock, so that a request complete already (an eager send) is
/// answered without the poller. `complete` is true then, with `status` filled; a null
/// request counts as complete with an empty status. Returns MPI_Test's code.
int test_once(MPI_Request request, MPI_Status& status, bool& complete) noexcept;


}  // namespace loom::mpi::impl
