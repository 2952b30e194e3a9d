// The poller side of as_sender / as_status_sender (include/loom/detail/mpi_sender.hpp):
// a sender's operation hands its request and itself to the poller; a request that is
// complete already (or cannot be watched) is answered at once.
#include <mpi.h>

#include "calls.hpp"
#include "loom/mpi.hpp"
#include "request_poller.hpp"

namespace loom::mpi::detail {

void watch(MPI_Request request, request_callback* cb) noexcept {
    const std::uint64_t span = ext::tracing() ? trace_request(nullptr, -1, -1) : 0;
    impl::sink out(cb);
    try {
        impl::require_usable_mpi();
    } catch (...) {
        trace_request_end(span, MPI_ERR_OTHER);
        impl::deliver(out, impl::empty_status(), MPI_ERR_OTHER,
                      "MPI is not initialised with MPI_THREAD_SERIALIZED or more (see loom::mpi::environment)");
        return;
    }
    int flag = 1;
    MPI_Status status = impl::empty_status();
    int rc = MPI_SUCCESS;
    if (request != MPI_REQUEST_NULL) {
        call_lock lock;
        rc = MPI_Test(&request, &flag, &status);
    }
    if (rc != MPI_SUCCESS || flag) {
        trace_request_end(span, rc);
        impl::deliver(out, status, rc, "request completed with an error");
        return;
    }
    try {
        impl::poller().add(request, impl::sink(cb), span);
    } catch (...) {  // the poller could not be registered, or no memory
        trace_request_end(span, MPI_ERR_OTHER);
        impl::deliver(out, status, MPI_ERR_OTHER, "the request could not be handed to the poller");
    }
}

std::exception_ptr request_error(int code, const char* where) noexcept {
    try {
        return std::make_exception_ptr(error(code, where ? where : "request completed with an error"));
    } catch (...) {
        return std::current_exception();
    }
}

}  // namespace loom::mpi::detail
