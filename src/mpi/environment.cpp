// loom::mpi::environment: MPI_Init_thread if nobody did, the thread-level check, and
// at the end the drain of pending requests before MPI_Finalize (only if we initialised).
#include <mpi.h>

#include <cstdio>

#include "calls.hpp"
#include "loom/mpi.hpp"
#include "request_poller.hpp"

namespace loom::mpi {

environment::environment(int level) { start(nullptr, nullptr, level); }

environment::environment(int& argc, char**& argv, int level) { start(&argc, &argv, level); }

void environment::start(int* argc, char*** argv, int level) {
    if (level < minimum_thread_level || level > MPI_THREAD_MULTIPLE) {
        std::fprintf(stderr,
                     "loom: warning: loom::mpi::environment: thread level %d is not enough for loom::mpi "
                     "(workers are separate threads); asking for MPI_THREAD_MULTIPLE\n",
                     level);
        level = MPI_THREAD_MULTIPLE;
    }
    int initialised = 0, finalised = 0;
    MPI_Initialized(&initialised);
    MPI_Finalized(&finalised);
    if (finalised) throw error(MPI_ERR_OTHER, "MPI is already finalised; it cannot be initialised again");
    if (!initialised) {
        const int rc = MPI_Init_thread(argc, argv, level, &provided_);
        if (rc != MPI_SUCCESS) throw error(rc, "MPI_Init_thread");
        owns_ = true;
    }
    try {
        impl::require_usable_mpi();
    } catch (...) {
        if (owns_) MPI_Finalize();
        impl::forget_level();
        throw;
    }
    provided_ = impl::provided_level();
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
}

// The poller leaves the scheduler before MPI_Finalize: no worker may call
// MPI_Testsome on a finalised MPI.
environment::~environment() {
    impl::poller().drain(drain_timeout_);
    impl::poller().detach();
    if (owns_) {
        impl::forget_level();
        MPI_Finalize();
    }
}

}  // namespace loom::mpi
