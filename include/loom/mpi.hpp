// loom::mpi: MPI requests as loom futures, so tasks overlap communication with
// computation and no worker ever waits inside MPI. Library libloom-mpi (CMake
// loom::mpi, pkg-config loom-mpi), built where MPI's C API is found. Tutorial and
// the threading rules: docs/mpi.md.
//
//   loom::mpi::environment env(argc, argv);            // MPI_Init_thread if needed
//   auto sent = loom::mpi::async(MPI_Isend, buf, n, MPI_DOUBLE, peer, tag, comm);
//   auto got = loom::mpi::async(MPI_Irecv, in, n, MPI_DOUBLE, peer, tag, comm)
//                  .then([&](auto f) { f.get(); return consume(in); });
//
// Idle workers complete the requests (MPI_Testsome, one worker at a time); an MPI
// error becomes a loom::mpi::error in the request's future.
#pragma once

#include <mpi.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <tuple>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "loom/ext/trace.hpp"
#include "loom/future.hpp"

#if defined(LOOM_BUILDING_MPI)
#define LOOM_MPI_EXPORT __attribute__((visibility("default")))
#else
#define LOOM_MPI_EXPORT
#endif

namespace loom::mpi {

/// An MPI error: what() names where it happened and gives MPI's own error string
/// ("loom::mpi: request completed with an error: MPI_ERR_TRUNCATE: message truncated").
class LOOM_MPI_EXPORT error : public std::runtime_error {
public:
    error(int code, const std::string& where);
    /// The MPI error code (as returned by the call or found in the status).
    [[nodiscard]] int code() const noexcept { return code_; }
    /// Its class (MPI_Error_class): MPI_ERR_TRUNCATE, MPI_ERR_RANK, ...
    [[nodiscard]] int error_class() const noexcept { return class_; }

private:
    int code_;
    int class_;
};

/// The thread support loom::mpi needs. Any idle worker may poll, and workers are
/// distinct threads, so MPI_THREAD_FUNNELED (only the main thread calls MPI) is not
/// enough. With MPI_THREAD_SERIALIZED, loom::mpi makes its own calls under one lock
/// (the poller takes it with a try-lock) and code calling MPI itself must hold
/// call_lock; with MPI_THREAD_MULTIPLE (the default an environment asks for) nothing
/// is serialised.
inline constexpr int minimum_thread_level = MPI_THREAD_SERIALIZED;

/// Initialises MPI if it is not yet initialised (MPI_Init_thread at `level`, at least
/// MPI_THREAD_SERIALIZED), checks the thread level MPI provides (a loom::mpi::error
/// saying what is missing if it is below MPI_THREAD_SERIALIZED), and sets
/// MPI_ERRORS_RETURN on MPI_COMM_WORLD so that errors reach the futures instead of
/// aborting (communicators derived from it afterwards inherit it). The destructor
/// waits until every request handed to loom::mpi has completed (idle workers and
/// the destructor itself poll; after the drain timeout, 5 s by default, what is
/// left is cancelled and its futures get a loom::mpi::error, with one warning), then
/// calls MPI_Finalize only if this environment called MPI_Init_thread.
class LOOM_MPI_EXPORT environment {
public:
    explicit environment(int level = MPI_THREAD_MULTIPLE);
    environment(int& argc, char**& argv, int level = MPI_THREAD_MULTIPLE);
    ~environment();
    environment(const environment&) = delete;
    environment& operator=(const environment&) = delete;

    /// The thread level MPI provides.
    [[nodiscard]] int thread_level() const noexcept { return provided_; }
    /// True if this environment initialised MPI (and will finalise it).
    [[nodiscard]] bool initialised_here() const noexcept { return owns_; }
    /// How long the destructor waits for pending requests before cancelling them.
    void set_drain_timeout(std::chrono::milliseconds t) noexcept { drain_timeout_ = t; }

private:
    void start(int* argc, char*** argv, int level);

    int provided_ = MPI_THREAD_SINGLE;
    bool owns_ = false;
    std::chrono::milliseconds drain_timeout_{5000};
};

/// The future of a started request: ready when MPI completes it, exceptional with a
/// loom::mpi::error if it completes with an error. The request is loom::mpi's from
/// now on (MPI frees a non-persistent one when it completes; a persistent one stays
/// the caller's to free and restart). MPI_REQUEST_NULL gives a ready future. Throws
/// loom::mpi::error when MPI is not initialised or its thread level is too low.
LOOM_MPI_EXPORT future<void> to_future(MPI_Request request);
/// As to_future, with the request's MPI_Status as the value (source, tag,
/// MPI_Get_count of a receive).
LOOM_MPI_EXPORT future<MPI_Status> to_status_future(MPI_Request request);

/// Requests handed to loom::mpi and not completed yet.
LOOM_MPI_EXPORT std::size_t pending_requests() noexcept;

/// Under MPI_THREAD_SERIALIZED: holds loom::mpi's MPI lock, so code calling MPI
/// itself does not overlap a poller's MPI_Testsome. Under MPI_THREAD_MULTIPLE it does
/// nothing. Never hold it across a wait: idle workers need it to complete requests.
class LOOM_MPI_EXPORT call_lock {
public:
    call_lock();
    ~call_lock();
    call_lock(const call_lock&) = delete;
    call_lock& operator=(const call_lock&) = delete;

private:
    bool held_;
};

namespace detail {

/// Throws loom::mpi::error unless MPI is initialised with a sufficient thread level.
LOOM_MPI_EXPORT void require_usable_mpi();

/// LOOM_TRACE: begins the span of a request on the trace's "MPI" track, named after
/// `call` when it is a nonblocking MPI function loom::mpi knows (MPI_Isend, ...; null
/// or unknown: "MPI request"), with the peer rank and tag when the call is
/// point-to-point. Returns the span's id (0: not tracing).
LOOM_MPI_EXPORT std::uint64_t trace_request(const void* call, int peer, int tag) noexcept;
/// Ends a span begun by trace_request (MPI's error code when the request failed).
LOOM_MPI_EXPORT void trace_request_end(std::uint64_t span, int code) noexcept;
/// to_future / to_status_future with the span trace_request began for the request.
LOOM_MPI_EXPORT future<void> to_future(MPI_Request request, std::uint64_t span);
LOOM_MPI_EXPORT future<MPI_Status> to_status_future(MPI_Request request, std::uint64_t span);

// The function a call was made with, for the span's name: a plain function only.
template <class F>
const void* call_address(F&& f) noexcept {
    using fn = std::decay_t<F>;
    if constexpr (std::is_pointer_v<fn> && std::is_function_v<std::remove_pointer_t<fn>>) {
        return reinterpret_cast<const void*>(static_cast<fn>(f));
    } else {
        return nullptr;
    }
}

// The point-to-point calls take (buf, count, type, peer, tag, comm, request): the
// fourth and fifth arguments, when they are integers (trace_request decides whether
// the call is one of those).
template <std::size_t I, class... Args>
int int_argument(Args&&... args) noexcept {
    if constexpr (I < sizeof...(Args)) {
        using T = std::decay_t<std::tuple_element_t<I, std::tuple<Args...>>>;
        if constexpr (std::is_integral_v<T>) {
            return static_cast<int>(std::get<I>(std::forward_as_tuple(args...)));
        } else {
            return -1;
        }
    } else {
        return -1;
    }
}

template <class F, class... Args>
std::uint64_t trace_call(F&& f, Args&&... args) noexcept {
    if (!ext::tracing()) return 0;
    return trace_request(call_address(f), int_argument<3>(args...), int_argument<4>(args...));
}

template <class F, class... Args>
concept nonblocking_call = std::is_invocable_r_v<int, F, Args..., MPI_Request*>;

// Starts the call under call_lock; a failed start becomes an exceptional future.
template <class Result, class F, class... Args>
future<Result> start(F&& f, Args&&... args) {
    require_usable_mpi();
    const std::uint64_t span = trace_call(f, args...);
    MPI_Request request = MPI_REQUEST_NULL;
    int rc = MPI_SUCCESS;
    {
        call_lock lock;
        rc = std::invoke(std::forward<F>(f), std::forward<Args>(args)..., &request);
    }
    if (rc != MPI_SUCCESS) {
        trace_request_end(span, rc);
        return make_exceptional_future<Result>(error(rc, "starting the call"));
    }
    if constexpr (std::is_void_v<Result>) {
        return detail::to_future(request, span);
    } else {
        return detail::to_status_future(request, span);
    }
}

}  // namespace detail

/// Calls a nonblocking MPI function whose last parameter is an MPI_Request*
/// (MPI_Isend, MPI_Irecv, MPI_Iallreduce, MPI_Ibarrier, ...) with `args` and that
/// request, and returns its future. An error returned by the call itself gives an
/// exceptional future too.
template <class F, class... Args>
    requires detail::nonblocking_call<F, Args...>
future<void> async(F&& f, Args&&... args) {
    return detail::start<void>(std::forward<F>(f), std::forward<Args>(args)...);
}

/// As async, with the request's MPI_Status as the value.
template <class F, class... Args>
    requires detail::nonblocking_call<F, Args...>
future<MPI_Status> async_status(F&& f, Args&&... args) {
    return detail::start<MPI_Status>(std::forward<F>(f), std::forward<Args>(args)...);
}

}  // namespace loom::mpi

#include "loom/detail/mpi_sender.hpp"
