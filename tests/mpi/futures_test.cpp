// Requests as futures: sends and receives, statuses, many requests completing out of
// order, continuations.
#include <gtest/gtest.h>

#include <loom/async.hpp>
#include <loom/future.hpp>
#include <loom/when_all.hpp>

#include <vector>

#include "mpi_test_support.hpp"

namespace {

using namespace loom_mpi_test;

TEST(MpiFutures, SendAndReceive) {
    LOOM_MPI_REQUIRE_PAIR();
    int out = 1000 + rank(), in = -1;
    auto sent = loom::mpi::async(MPI_Isend, &out, 1, MPI_INT, partner(), 1, MPI_COMM_WORLD);
    auto got = loom::mpi::async(MPI_Irecv, &in, 1, MPI_INT, partner(), 1, MPI_COMM_WORLD);
    got.get();
    sent.get();
    EXPECT_EQ(in, 1000 + partner());
}

TEST(MpiFutures, RequestsStartedInsideTasks) {
    LOOM_MPI_REQUIRE_PAIR();
    std::vector<double> out(64, rank() + 0.5), in(64, -1.0);
    auto done = loom::async([&] {
        auto sent = loom::mpi::async(MPI_Isend, out.data(), 64, MPI_DOUBLE, partner(), 2, MPI_COMM_WORLD);
        auto got = loom::mpi::async(MPI_Irecv, in.data(), 64, MPI_DOUBLE, partner(), 2, MPI_COMM_WORLD);
        got.get();  // parks this task; idle workers complete the request
        sent.get();
        return in[63];
    });
    EXPECT_EQ(done.get(), partner() + 0.5);
}

TEST(MpiFutures, ToFutureTakesAStartedRequest) {
    LOOM_MPI_REQUIRE_PAIR();
    long out = 7 * rank(), in = -1;
    MPI_Request send = MPI_REQUEST_NULL, recv = MPI_REQUEST_NULL;
    {
        loom::mpi::call_lock lock;
        MPI_Irecv(&in, 1, MPI_LONG, partner(), 3, MPI_COMM_WORLD, &recv);
        MPI_Isend(&out, 1, MPI_LONG, partner(), 3, MPI_COMM_WORLD, &send);
    }
    auto r = loom::mpi::to_future(recv);
    auto s = loom::mpi::to_future(send);
    r.get();
    s.get();
    EXPECT_EQ(in, 7 * partner());
    EXPECT_TRUE(loom::mpi::to_future(MPI_REQUEST_NULL).is_ready());
}

TEST(MpiFutures, StatusFutureDescribesTheMessage) {
    LOOM_MPI_REQUIRE_PAIR();
    constexpr int tag = 40;
    char out[5] = {'l', 'o', 'o', 'm', '!'}, in[16] = {};
    auto sent = loom::mpi::async(MPI_Isend, out, leader() ? 5 : 3, MPI_CHAR, partner(), tag + rank(), MPI_COMM_WORLD);
    auto got = loom::mpi::async_status(MPI_Irecv, in, 16, MPI_CHAR, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD);
    const MPI_Status st = got.get();
    sent.get();
    EXPECT_EQ(st.MPI_SOURCE, partner());
    EXPECT_EQ(st.MPI_TAG, tag + partner());
    int count = -1;
    MPI_Get_count(&st, MPI_CHAR, &count);
    EXPECT_EQ(count, leader() ? 3 : 5);
}

// The follower posts n receives; the leader first sends only the last one. Its future
// becomes ready while every other receive is still pending (they cannot complete:
// the leader sends them only after the follower's acknowledgement), then the rest
// come in reverse order.
TEST(MpiFutures, ManyOutstandingRequestsCompleteOutOfOrder) {
    LOOM_MPI_REQUIRE_PAIR();
    constexpr int n = 200, ack_tag = 999;
    std::vector<int> values(n, -1);
    if (leader()) {
        std::vector<int> payload(n);
        for (int i = 0; i < n; ++i) payload[i] = 3 * i + 1;
        loom::mpi::async(MPI_Isend, &payload[n - 1], 1, MPI_INT, partner(), n - 1, MPI_COMM_WORLD).get();
        int ack = 0;
        loom::mpi::async(MPI_Irecv, &ack, 1, MPI_INT, partner(), ack_tag, MPI_COMM_WORLD).get();
        std::vector<loom::future<void>> sends;
        for (int i = n - 2; i >= 0; --i)
            sends.push_back(loom::mpi::async(MPI_Isend, &payload[i], 1, MPI_INT, partner(), i, MPI_COMM_WORLD));
        loom::when_all(sends).get();
        return;
    }
    std::vector<loom::future<void>> recvs;
    for (int i = 0; i < n; ++i)
        recvs.push_back(loom::mpi::async(MPI_Irecv, &values[i], 1, MPI_INT, partner(), i, MPI_COMM_WORLD));
    recvs[n - 1].wait();
    int still_pending = 0;
    for (int i = 0; i < n - 1; ++i) still_pending += recvs[i].is_ready() ? 0 : 1;
    EXPECT_EQ(still_pending, n - 1);
    EXPECT_GE(loom::mpi::pending_requests(), std::size_t(n - 1));
    int ack = 1;
    loom::mpi::async(MPI_Isend, &ack, 1, MPI_INT, partner(), ack_tag, MPI_COMM_WORLD).get();
    loom::when_all(recvs).get();
    for (int i = 0; i < n; ++i) EXPECT_EQ(values[i], 3 * i + 1) << "tag " << i;
}

// A ping-pong built from continuations only: each received value is answered from a
// .then on the receive's future; nothing waits but the end of the chain.
TEST(MpiFutures, ContinuationsOnRequestFutures) {
    LOOM_MPI_REQUIRE_PAIR();
    constexpr int rounds = 50;
    struct state {
        int peer;
        int value = 0;
        int out = 0;
    } s{partner()};
    struct step {
        static loom::future<int> run(state& s, int round) {
            if (round == rounds) return loom::make_ready_future(s.value);
            return loom::mpi::async(MPI_Irecv, &s.value, 1, MPI_INT, s.peer, 60, MPI_COMM_WORLD)
                .then([&s, round](loom::future<void> f) {
                    f.get();
                    s.out = s.value + 1;
                    return loom::mpi::async(MPI_Isend, &s.out, 1, MPI_INT, s.peer, 60, MPI_COMM_WORLD)
                        .then([&s, round](loom::future<void> sent) {
                            sent.get();
                            return run(s, round + 1);
                        });
                });
        }
    };
    if (leader()) {
        s.out = 0;
        loom::mpi::async(MPI_Isend, &s.out, 1, MPI_INT, s.peer, 60, MPI_COMM_WORLD).get();
    }
    const int last = step::run(s, 0).get();
    // The leader sends 0; each side adds 1 to what it receives, so the follower's k-th
    // receive holds 2k and the leader's 2k+1 (k from 0).
    EXPECT_EQ(last, leader() ? 2 * (rounds - 1) + 1 : 2 * (rounds - 1));
    if (!leader()) {
        // The leader's last reply (its 51st send) is still on its way to us: take it.
        int tail = -1;
        loom::mpi::async(MPI_Irecv, &tail, 1, MPI_INT, s.peer, 60, MPI_COMM_WORLD).get();
        EXPECT_EQ(tail, 2 * rounds);
    }
}

}  // namespace
