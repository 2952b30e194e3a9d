// to_future / to_status_future: a started request becomes a future. A request that
// is complete already (an eager send, usually) is answered here without the poller.
#include <mpi.h>

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

template <class T>
future<T> watch_future(MPI_Request request, std::uint64_t span) {
    try {
        impl::require_usable_mpi();
    } catch (...) {
        detail::trace_request_end(span, MPI_ERR_OTHER);
        throw;
    }
    if (request == MPI_REQUEST_NULL) {
        detail::trace_request_end(span, MPI_SUCCESS);
        return ready<T>(impl::empty_status());
    }
    int flag = 0;
    MPI_Status status;  // written by MPI_Test when it reports the request complete
    int rc = MPI_SUCCESS;
    {
        call_lock lock;
        rc = MPI_Test(&request, &flag, &status);
    }
    if (rc != MPI_SUCCESS || flag) detail::trace_request_end(span, rc);
    if (rc != MPI_SUCCESS) return make_exceptional_future<T>(error(rc, "request completed with an error"));
    if (flag) return ready<T>(status);
    promise<T> p;
    future<T> f = p.get_future();
    impl::poller().add(request, impl::sink(std::move(p)), span);
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
