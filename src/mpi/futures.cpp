// to_future / to_status_future: a started request becomes a future. A request that
// is complete already (an eager send, usually) is answered here without the poller.
#include <mpi.h>

#include <exception>
#include <type_traits>

#include "calls.hpp"
#include "loom/mpi.hpp"
#include "request_poller.hpp"

namespace loom::mpi {

namespace {

template <class T>
future<T> ready(const MPI_Status& status) {
    if constexpr (std::is_void_v<T>) {
        (void)status;
        return make_ready_future();
    } else {
        return make_ready_future(status);
    }
}

// A future's node in the poller: the promise it completes. Allocated per request
// that must wait (a future allocates its shared state anyway); freed by its done.
template <class T>
struct promise_node : detail::request_callback {
    promise<T> p;

    promise_node() : detail::request_callback{&on_done, MPI_REQUEST_NULL, 0, nullptr} {}

    static void on_done(detail::request_callback* self, int code, const MPI_Status& status,
                        const char* where) noexcept {
        auto* n = static_cast<promise_node*>(self);
        try {
            if (code != MPI_SUCCESS) {
                n->p.set_exception(std::make_exception_ptr(error(code, where)));
            } else if constexpr (std::is_void_v<T>) {
                n->p.set_value();
            } else {
                n->p.set_value(status);
            }
        } catch (...) {
            // Out of memory for the error's message: the promise, destroyed below,
            // breaks its future instead (future_error broken_promise).
        }
        delete n;
    }
};

template <class T>
future<T> watch_future(MPI_Request request, std::uint64_t span) {
    try {
        impl::require_usable_mpi();
    } catch (...) {
        detail::trace_request_end(span, MPI_ERR_OTHER);
        throw;
    }
    MPI_Status status;
    bool complete = false;
    const int rc = impl::test_once(request, status, complete);
    if (rc != MPI_SUCCESS || complete) detail::trace_request_end(span, rc);
    if (rc != MPI_SUCCESS) return make_exceptional_future<T>(error(rc, "request completed with an error"));
    if (complete) return ready<T>(status);
    auto* n = new promise_node<T>;
    future<T> f = n->p.get_future();
    try {
        impl::poller().add(n, request, span);
    } catch (...) {
        delete n;
        throw;
    }
    return f;
}

// A request started elsewhere: its span has no call name.
std::uint64_t unnamed_span() noexcept { return ext::tracing() ? detail::trace_request(nullptr, -1, -1) : 0; }

}  // namespace

future<void> to_future(MPI_Request request) { return watch_future<void>(request, unnamed_span()); }

future<MPI_Status> to_status_future(MPI_Request request) { return watch_future<MPI_Status>(request, unnamed_span()); }

std::size_t pending_requests() noexcept { return impl::poller().pending(); }

namespace detail {

future<void> to_future(MPI_Request request, std::uint64_t span) { return watch_future<void>(request, span); }

future<MPI_Status> to_status_future(MPI_Request request, std::uint64_t span) {
    return watch_future<MPI_Status>(request, span);
}

}  // namespace detail

}  // namespace loom::mpi
