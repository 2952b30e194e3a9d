// No worker waits inside MPI: while a task waits for a receive, other tasks run, also
// on a single worker (the ctest entry mpi.single_worker runs this with
// LOOM_NUM_THREADS=1).
#include <gtest/gtest.h>

#include <loom/async.hpp>
#include <loom/future.hpp>
#include <loom/runtime.hpp>

#include <atomic>

#include "mpi_test_support.hpp"

namespace {

using namespace loom_mpi_test;

// The follower's first task waits for a message that the leader sends only after
// hearing from the follower's second task. If the waiting task held its worker (a
// blocking MPI_Wait), the second task could not run on a one-worker pool and the
// pair would deadlock.
TEST(MpiProgress, OtherTasksRunWhileAReceiveIsPending) {
    LOOM_MPI_REQUIRE_PAIR();
    if (leader()) {
        int go = 0, reply = 99;
        loom::mpi::async(MPI_Irecv, &go, 1, MPI_INT, partner(), 80, MPI_COMM_WORLD).get();
        EXPECT_EQ(go, 1);
        loom::mpi::async(MPI_Isend, &reply, 1, MPI_INT, partner(), 81, MPI_COMM_WORLD).get();
        return;
    }
    int reply = 0, go = 1;
    std::atomic<bool> sender_ran{false};
    auto waiter = loom::async([&] {
        loom::mpi::async(MPI_Irecv, &reply, 1, MPI_INT, partner(), 81, MPI_COMM_WORLD).get();
        return sender_ran.load();
    });
    auto sender = loom::async([&] {
        sender_ran = true;
        loom::mpi::async(MPI_Isend, &go, 1, MPI_INT, partner(), 80, MPI_COMM_WORLD).get();
    });
    EXPECT_TRUE(waiter.get());
    sender.get();
    EXPECT_EQ(reply, 99);
}

// Computation goes on while a receive is pending: a chain of tasks counts to a
// number the partner can only learn from us, and it sends its answer only then.
TEST(MpiProgress, ComputationOverlapsAPendingReceive) {
    LOOM_MPI_REQUIRE_PAIR();
    constexpr long work = 2000;
    if (leader()) {
        long done = 0, answer = 7;
        loom::mpi::async(MPI_Irecv, &done, 1, MPI_LONG, partner(), 82, MPI_COMM_WORLD).get();
        EXPECT_EQ(done, work);
        loom::mpi::async(MPI_Isend, &answer, 1, MPI_LONG, partner(), 83, MPI_COMM_WORLD).get();
        return;
    }
    long answer = 0, count = 0;
    auto pending = loom::mpi::async(MPI_Irecv, &answer, 1, MPI_LONG, partner(), 83, MPI_COMM_WORLD);
    for (long i = 0; i < work; ++i) loom::async([&count] { return ++count; }).get();
    EXPECT_FALSE(pending.is_ready());  // the partner waits for our count
    loom::mpi::async(MPI_Isend, &count, 1, MPI_LONG, partner(), 82, MPI_COMM_WORLD).get();
    pending.get();
    EXPECT_EQ(answer, 7);
}

}  // namespace
