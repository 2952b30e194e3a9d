// The loom::mpi tests' main: one loom::mpi::environment for the whole run, the test
// results of every rank combined (a failure on any rank fails the run).
// LOOM_MPI_TEST_LEVEL=serialized initialises MPI with MPI_THREAD_SERIALIZED, to run
// the same tests through loom::mpi's serialised calls.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

#include "mpi_test_support.hpp"

namespace {

int requested_level() {
    const char* level = std::getenv("LOOM_MPI_TEST_LEVEL");
    return level && std::strcmp(level, "serialized") == 0 ? MPI_THREAD_SERIALIZED : MPI_THREAD_MULTIPLE;
}

// Every test starts with the ranks together, so one test's messages never meet the
// next test's receives.
class rank_sync : public ::testing::EmptyTestEventListener {
    void OnTestStart(const ::testing::TestInfo&) override { loom_mpi_test::barrier(); }
};

}  // namespace

int main(int argc, char** argv) {
    const int level = requested_level();
    loom::mpi::environment env(argc, argv, level);
    ::testing::InitGoogleTest(&argc, argv);
    ::testing::UnitTest::GetInstance()->listeners().Append(new rank_sync);
    int failed = RUN_ALL_TESTS();
    int any_failed = 0;
    {
        loom::mpi::call_lock lock;
        MPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    }
    return any_failed;
}
