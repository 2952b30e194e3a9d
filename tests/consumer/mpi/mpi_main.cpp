// Each rank sends its number to the next one (a ring) through loom::mpi futures.
#include <loom/mpi.hpp>

#include <cstdio>

int main(int argc, char** argv) {
    loom::mpi::environment env(argc, argv);
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int out = rank, in = -1;
    auto sent = loom::mpi::async(MPI_Isend, &out, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD);
    auto got = loom::mpi::async(MPI_Irecv, &in, 1, MPI_INT, (rank + size - 1) % size, 0, MPI_COMM_WORLD)
                   .then([&](loom::future<void> f) {
                       f.get();
                       return in;
                   });
    const int left = got.get();
    sent.get();
    if (left != (rank + size - 1) % size) {
        std::fprintf(stderr, "rank %d: got %d\n", rank, left);
        return 1;
    }
    if (rank == 0) std::printf("loom::mpi ring of %d ranks ok\n", size);
    return 0;
}
