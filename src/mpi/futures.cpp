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
future<T> watch(MPI_Request request) {
    impl::require_usable_mpi();
    if (request == MPI_REQUEST_NULL) return ready<T>(impl::empty_status());
    int flag = 0;
    MPI_Status status;  // written by MPI_Test when it reports the request complete
    int rc = MPI_SUCCESS;
    {
        call_lock lock;
        rc = MPI_Test(&request, &flag, &status);
    }
    if (rc != MPI_SUCCESS) return make_exceptional_future<T>(error(rc, "request completed with an error"));
    if (flag) return ready<T>(status);
    promise<T> p;
    future<T> f = p.get_future();
    impl::poller().add(request, impl::sink(std::move(p)));
    return f;
}

}  // namespace

future<void> to_future(MPI_Request request) { return watch<void>(request); }

future<MPI_Status> to_status_future(MPI_Request request) { return watch<MPI_Status>(request); }

std::size_t pending_requests() noexcept { return impl::poller().pending(); }

}  // namespace loom::mpi
