// MPI initialised by the program with MPI_THREAD_FUNNELED: loom::mpi must refuse with
// a message naming the level it needs, not run into undefined behaviour. Exit 0 when
// it does.
#include <mpi.h>

#include <loom/mpi.hpp>

#include <cstdio>
#include <string>

int main(int argc, char** argv) {
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    int status = 1;
    if (provided >= MPI_THREAD_SERIALIZED) {
        std::printf("MPI gave %d for FUNNELED; nothing to check\n", provided);
        status = 0;
    } else {
        try {
            (void)loom::mpi::to_future(MPI_REQUEST_NULL);
            std::printf("to_future accepted MPI_THREAD_FUNNELED\n");
        } catch (const loom::mpi::error& e) {
            std::printf("%s\n", e.what());
            status = std::string(e.what()).find("MPI_THREAD_SERIALIZED") != std::string::npos ? 0 : 1;
        }
    }
    MPI_Finalize();
    return status;
}
