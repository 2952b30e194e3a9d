// MPI errors become loom::mpi::error exceptions in the request's future.
#include <gtest/gtest.h>

#include <loom/future.hpp>

#include <chrono>
#include <string>
#include <vector>

#include "mpi_test_support.hpp"

namespace {

using namespace loom_mpi_test;

// The receive is posted (and found pending, so it goes to the poller) before the
// barrier; the message, four times too long, is sent after it.
TEST(MpiErrors, TruncatedReceiveBecomesAnException) {
    LOOM_MPI_REQUIRE_PAIR();
    std::vector<int> big(8, 5), small(2, 0);
    loom::future<void> got;
    if (!leader()) got = loom::mpi::async(MPI_Irecv, small.data(), 2, MPI_INT, partner(), 70, MPI_COMM_WORLD);
    barrier();
    if (leader()) {
        loom::mpi::async(MPI_Isend, big.data(), 8, MPI_INT, partner(), 70, MPI_COMM_WORLD).get();
        return;
    }
    try {
        got.get();
        ADD_FAILURE() << "a truncated receive completed without an error";
    } catch (const loom::mpi::error& e) {
        EXPECT_EQ(e.error_class(), MPI_ERR_TRUNCATE);
        EXPECT_NE(std::string(e.what()).find("MPI_ERR_TRUNCATE"), std::string::npos) << e.what();
    }
}

// Same error, with the message there before the future is asked for: to_future's
// own first test finds it.
TEST(MpiErrors, TruncationFoundWhenTheFutureIsMade) {
    LOOM_MPI_REQUIRE_PAIR();
    std::vector<int> big(8, 5), small(2, 0);
    if (leader()) {
        loom::mpi::async(MPI_Isend, big.data(), 8, MPI_INT, partner(), 71, MPI_COMM_WORLD).get();
        barrier();
        return;
    }
    barrier();
    // Wait for the message without receiving it (MPI_Iprobe under the lock).
    for (int flag = 0; !flag;) {
        loom::mpi::call_lock lock;
        MPI_Iprobe(partner(), 71, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    }
    auto got = loom::mpi::async_status(MPI_Irecv, small.data(), 2, MPI_INT, partner(), 71, MPI_COMM_WORLD);
    EXPECT_THROW(got.get(), loom::mpi::error);
}

TEST(MpiErrors, AFailedStartGivesAnExceptionalFuture) {
    int value = 0;
    auto f = loom::mpi::async(MPI_Isend, &value, 1, MPI_INT, size() + 5, 72, MPI_COMM_WORLD);
    ASSERT_TRUE(f.is_ready());
    try {
        f.get();
        ADD_FAILURE() << "a send to a rank that does not exist started";
    } catch (const loom::mpi::error& e) {
        EXPECT_EQ(e.error_class(), MPI_ERR_RANK);
        EXPECT_NE(std::string(e.what()).find("loom::mpi"), std::string::npos);
    }
}

// An environment that did not initialise MPI still drains at its end: a receive that
// can never match is cancelled after the drain timeout, its future gets the error,
// and MPI stays usable (this environment does not finalise it).
TEST(MpiErrors, AnEndingEnvironmentCancelsWhatNeverCompletes) {
    int never = 0;
    loom::future<void> orphan;
    {
        loom::mpi::environment inner;
        EXPECT_FALSE(inner.initialised_here());
        inner.set_drain_timeout(std::chrono::milliseconds(50));
        orphan = loom::mpi::async(MPI_Irecv, &never, 1, MPI_INT, rank(), 12345, MPI_COMM_WORLD);
    }
    ASSERT_TRUE(orphan.is_ready());
    try {
        orphan.get();
        ADD_FAILURE() << "an unmatched receive completed";
    } catch (const loom::mpi::error& e) {
        EXPECT_NE(std::string(e.what()).find("cancelled"), std::string::npos) << e.what();
    }
    EXPECT_EQ(loom::mpi::pending_requests(), 0u);
    // The poller registers again on the next request.
    LOOM_MPI_REQUIRE_PAIR();
    int out = rank(), in = -1;
    auto s = loom::mpi::async(MPI_Isend, &out, 1, MPI_INT, partner(), 73, MPI_COMM_WORLD);
    loom::mpi::async(MPI_Irecv, &in, 1, MPI_INT, partner(), 73, MPI_COMM_WORLD).get();
    s.get();
    EXPECT_EQ(in, partner());
}

}  // namespace
