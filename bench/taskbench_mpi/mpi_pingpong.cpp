// What one message costs: a ping-pong of 64-byte messages between two ranks, as
// blocking MPI calls on the main thread, and from a loom task through a loom::mpi
// future (async(...).get()) or a loom::mpi sender (sync_wait(as_sender(...))). Prints
// the median round trip of each batch in microseconds; tools for profiling
// (valgrind --tool=callgrind per rank), not a manifest benchmark.
//
//   mpiexec -n 2 --bind-to none bench_mpi_pingpong [blocking|future|sender] [round trips]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "loom/async.hpp"
#include "loom/mpi.hpp"
#include "loom/runtime.hpp"
#include "loom/sender.hpp"

namespace {

namespace ex = loom::execution::experimental;

enum class mode { blocking, future, sender };

char buf[64];

void blocking_step(int peer, bool first) {
    if (first) MPI_Send(buf, 64, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
    MPI_Recv(buf, 64, MPI_BYTE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (!first) MPI_Send(buf, 64, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
}

void future_step(int peer, bool first) {
    if (first) loom::mpi::async(MPI_Isend, buf, 64, MPI_BYTE, peer, 0, MPI_COMM_WORLD).get();
    loom::mpi::async(MPI_Irecv, buf, 64, MPI_BYTE, peer, 0, MPI_COMM_WORLD).get();
    if (!first) loom::mpi::async(MPI_Isend, buf, 64, MPI_BYTE, peer, 0, MPI_COMM_WORLD).get();
}

void sender_wait(MPI_Request r) { loom::this_thread::experimental::sync_wait(loom::mpi::as_sender(r)); }

void sender_step(int peer, bool first) {
    MPI_Request r;
    if (first) {
        MPI_Isend(buf, 64, MPI_BYTE, peer, 0, MPI_COMM_WORLD, &r);
        sender_wait(r);
    }
    MPI_Irecv(buf, 64, MPI_BYTE, peer, 0, MPI_COMM_WORLD, &r);
    sender_wait(r);
    if (!first) {
        MPI_Isend(buf, 64, MPI_BYTE, peer, 0, MPI_COMM_WORLD, &r);
        sender_wait(r);
    }
}

// Batches of `n` round trips; the median batch's time per round trip.
double measure(mode m, int peer, bool first, long n) {
    std::vector<double> us;
    for (int batch = 0; batch < 11; ++batch) {
        MPI_Barrier(MPI_COMM_WORLD);
        const auto t0 = std::chrono::steady_clock::now();
        for (long i = 0; i < n; ++i) {
            if (m == mode::blocking) blocking_step(peer, first);
            else if (m == mode::future) future_step(peer, first);
            else sender_step(peer, first);
        }
        us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / double(n));
    }
    std::sort(us.begin(), us.end());
    return us[us.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
    loom::mpi::environment env(argc, argv);
    const char* name = argc > 1 ? argv[1] : "future";
    const long n = argc > 2 ? std::atol(argv[2]) : 2000;
    const mode m = std::strcmp(name, "blocking") == 0 ? mode::blocking
                   : std::strcmp(name, "sender") == 0 ? mode::sender
                                                       : mode::future;
    int rank = 0, size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0) std::fprintf(stderr, "mpi_pingpong: needs 2 ranks\n");
        return 2;
    }
    double us = 0;
    if (m == mode::blocking) {
        us = measure(m, 1 - rank, rank == 0, n);
    } else {
        loom::runtime rt{loom::runtime_options{.num_threads = 1}};
        us = loom::async([&] { return measure(m, 1 - rank, rank == 0, n); }).get();
    }
    if (rank == 0) std::printf("%s: %.3f us per round trip (median of 11 batches of %ld)\n", name, us, n);
    return 0;
}
