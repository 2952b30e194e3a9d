// Helpers for the loom::mpi tests: every test runs on all ranks, in pairs (0-1, 2-3,
// ...); a rank without a partner (odd sizes) skips the pairwise tests.
#pragma once

#include <mpi.h>

#include <loom/mpi.hpp>

namespace loom_mpi_test {

inline int rank() {
    int r = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
}

inline int size() {
    int s = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &s);
    return s;
}

/// The other rank of this rank's pair, or -1 when it has none.
inline int partner() {
    const int p = rank() ^ 1;
    return p < size() ? p : -1;
}

/// Lower rank of the pair: the side that starts an exchange.
inline bool leader() { return (rank() & 1) == 0; }

/// A blocking barrier, under loom::mpi's lock (needed with MPI_THREAD_SERIALIZED).
inline void barrier() {
    loom::mpi::call_lock lock;
    MPI_Barrier(MPI_COMM_WORLD);
}

}  // namespace loom_mpi_test

#define LOOM_MPI_REQUIRE_PAIR()                                     \
    do {                                                            \
        if (::loom_mpi_test::partner() < 0) GTEST_SKIP() << "no partner rank"; \
    } while (0)
