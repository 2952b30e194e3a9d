// The poller side of as_sender / as_status_sender (include/loom/detail/mpi_sender.hpp):
// a sender's operation hands its request and itself to the poller; a request that is
// complete already (or cannot be watched) is answered at once, to the operation.
#include <mpi.h>

#include "calls.hpp"
#include "loom/mpi.hpp"
#include "request_poller.hpp"

namespace loom::mpi::detail {

bool watch(MPI_Request request, request_callback* cb, request_outcome* now) noexcept {
    const std::uint64_t span = ext::tracing() ? trace_request(nullptr, -1, -1) : 0;
    auto at_once = [&](int code, const MPI_Status& status, const char* where) {
        trace_request_end(span, code);
        *now = request_outcome{code, status, code == MPI_SUCCESS ? nullptr : where};
        return false;
    };
    try {
        impl::require_usable_mpi();
    } catch (...) {
        return at_once(MPI_ERR_OTHER, impl::empty_status(),
                       "MPI is not initialised with MPI_THREAD_SERIALIZED or more (see loom::mpi::environment)");
    }
    MPI_Status status;
    bool complete = false;
    const int rc = impl::test_once(request, status, complete);
    if (rc != MPI_SUCCESS || complete) return at_once(rc, status, "request completed with an error");
    try {
        impl::poller().add(cb, request, span);
    } catch (...) {  // the poller could not be registered, or no memory
        return at_once(MPI_ERR_OTHER, status, "the request could not be handed to the poller");
    }
    return true;
}

std::exception_ptr request_error(int code, const char* where) noexcept {
    try {
        return std::make_exception_ptr(error(code, where ? where : "request completed with an error"));
    } catch (...) {
        return std::current_exception();
    }
}

}  // namespace loom::mpi::detail
