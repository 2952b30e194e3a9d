// loom::mpi::as_sender / as_status_sender (include/loom/mpi.hpp): a started MPI request
// as a sender. The operation state registers itself with loom::mpi's poller (no future,
// no allocation): the poller records the outcome and submits the task record the
// operation carries, and that task completes the receiver, so the receiver's code
// never runs inside the poller (where it would hold up every other request). A request
// complete when the operation starts completes the receiver in start().
#pragma once

#include <mpi.h>

#include <cstdint>
#include <exception>
#include <type_traits>
#include <utility>

#include "loom/ext/scheduler.hpp"
#include "loom/ext/task.hpp"
#include "loom/sender.hpp"

namespace loom::mpi {

class error;

namespace detail {

/// What the poller completes for a request: `done` records the outcome (MPI's code,
/// the status, and for a failure the text of the error) and must return at once; the
/// callback object must stay alive until it is called. It is also the poller's node
/// for the request (intrusive: handing a request over allocates nothing): the fields
/// after `done` are the poller's from the hand-over until `done` is called.
struct request_callback {
    void (*done)(request_callback* self, int code, const MPI_Status& status, const char* where) noexcept;
    MPI_Request request = MPI_REQUEST_NULL;
    std::uint64_t span = 0;             // its LOOM_TRACE span, 0: none
    request_callback* next = nullptr;   // in the queue of requests not yet taken by a poll
};

/// A request's outcome: MPI's code, its status, and for a failure where it happened.
struct request_outcome {
    int code = MPI_SUCCESS;
    MPI_Status status{};
    const char* where = nullptr;
};

/// Hands `request` to the poller, which calls cb->done exactly once from the worker
/// that polls, and returns true. Returns false, without calling cb->done, when the
/// outcome is known at once: the request is complete already (an eager send, a
/// message that was there), MPI_REQUEST_NULL, or MPI is not usable (MPI_ERR_OTHER);
/// the outcome is then written to *now.
LOOM_MPI_EXPORT bool watch(MPI_Request request, request_callback* cb, request_outcome* now) noexcept;
/// The exception a failed request completes with (a loom::mpi::error).
LOOM_MPI_EXPORT std::exception_ptr request_error(int code, const char* where) noexcept;

template <class R, bool WithStatus>
class request_operation : request_callback {
public:
    using operation_state_concept = execution::experimental::operation_state_t;

    request_operation(MPI_Request started, R r) noexcept(std::is_nothrow_move_constructible_v<R>)
        : request_callback{&on_done, MPI_REQUEST_NULL, 0, nullptr}, rcvr_(std::move(r)), request_(started) {
        task_.run = &deliver;
        task_.owner = this;
        task_.prio = priority::high;
    }
    request_operation(const request_operation&) = delete;
    request_operation& operator=(const request_operation&) = delete;

    /// A request complete already completes the receiver here, on the starting thread
    /// (the caller's code, not the poller's); otherwise a task does, once MPI has
    /// completed the request.
    void start() & noexcept {
        if (!watch(request_, this, &outcome_)) complete();
    }

private:
    // On the poller: keep the outcome, queue the completion.
    static void on_done(request_callback* self, int code, const MPI_Status& status, const char* where) noexcept {
        auto* op = static_cast<request_operation*>(self);
        op->outcome_ = request_outcome{code, status, where};
        ext::submit(&op->task_);  // from here on the task owns the operation
    }

    static void deliver(ext::task* t) noexcept { static_cast<request_operation*>(t->owner)->complete(); }

    void complete() noexcept {
        namespace ex = execution::experimental;
        if (outcome_.code != MPI_SUCCESS) {
            ex::set_error(std::move(rcvr_), request_error(outcome_.code, outcome_.where));
        } else if constexpr (WithStatus) {
            ex::set_value(std::move(rcvr_), outcome_.status);
        } else {
            ex::set_value(std::move(rcvr_));
        }
    }

    R rcvr_;
    MPI_Request request_;
    request_outcome outcome_{};
    // The completion, queued by on_done at high priority: a message that arrived is
    // what other work (here and on other ranks) waits for. Never freed (it lives here).
    ext::task task_{};
};

template <bool WithStatus>
class request_sender {
public:
    using sender_concept = execution::experimental::sender_t;
    using completion_signatures = std::conditional_t<
        WithStatus,
        execution::experimental::completion_signatures<execution::experimental::set_value_t(MPI_Status),
                                                       execution::experimental::set_error_t(std::exception_ptr)>,
        execution::experimental::completion_signatures<execution::experimental::set_value_t(),
                                                       execution::experimental::set_error_t(std::exception_ptr)>>;

    explicit request_sender(MPI_Request request) noexcept : request_(request) {}

    /// A request completes once: the sender connects once (as an rvalue).
    template <execution::experimental::receiver R>
    request_operation<std::decay_t<R>, WithStatus> connect(R&& r) && {
        return request_operation<std::decay_t<R>, WithStatus>(request_, std::forward<R>(r));
    }

private:
    MPI_Request request_;
};

}  // namespace detail

/// A sender of a started request: set_value() when MPI completes it, set_error with a
/// loom::mpi::error (as an exception_ptr) if it fails or MPI is not usable. The
/// request becomes loom::mpi's when the operation starts (as with to_future); a sender
/// never started leaves it to the caller. Completes on a loom worker, in a task of its
/// own. Stop requests are not observed: an MPI request is not cancelled.
inline detail::request_sender<false> as_sender(MPI_Request request) noexcept {
    return detail::request_sender<false>(request);
}
/// As as_sender, completing with set_value(MPI_Status) (source, tag, MPI_Get_count).
inline detail::request_sender<true> as_status_sender(MPI_Request request) noexcept {
    return detail::request_sender<true>(request);
}

}  // namespace loom::mpi
