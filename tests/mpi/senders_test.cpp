// Requests as senders (loom::mpi::as_sender / as_status_sender): values, statuses,
// composition with then and when_all, MPI errors on the error channel, completion on a
// loom worker.
#include <gtest/gtest.h>

#include <loom/async.hpp>
#include <loom/ext/scheduler.hpp>
#include <loom/future.hpp>
#include <loom/sender.hpp>
#include <loom/when_all.hpp>

#include <exception>
#include <string>
#include <thread>
#include <vector>

#include "mpi_test_support.hpp"

namespace {

using namespace loom_mpi_test;
namespace ex = loom::execution::experimental;
namespace tt = loom::this_thread::experimental;

MPI_Request start_recv(void* buf, int n, MPI_Datatype type, int tag) {
    MPI_Request r = MPI_REQUEST_NULL;
    loom::mpi::call_lock lock;
    MPI_Irecv(buf, n, type, partner(), tag, MPI_COMM_WORLD, &r);
    return r;
}

MPI_Request start_send(const void* buf, int n, MPI_Datatype type, int tag) {
    MPI_Request r = MPI_REQUEST_NULL;
    loom::mpi::call_lock lock;
    MPI_Isend(buf, n, type, partner(), tag, MPI_COMM_WORLD, &r);
    return r;
}

TEST(MpiSenders, SendAndReceive) {
    LOOM_MPI_REQUIRE_PAIR();
    int out = 500 + rank(), in = -1;
    MPI_Request recv = start_recv(&in, 1, MPI_INT, 80);
    MPI_Request send = start_send(&out, 1, MPI_INT, 80);
    auto both = ex::when_all(loom::mpi::as_sender(recv), loom::mpi::as_sender(send));
    EXPECT_TRUE(tt::sync_wait(std::move(both)).has_value());
    EXPECT_EQ(in, 500 + partner());
}

TEST(MpiSenders, StatusSenderDescribesTheMessage) {
    LOOM_MPI_REQUIRE_PAIR();
    char out[3] = {'a', 'b', 'c'}, in[8] = {};
    MPI_Request recv = MPI_REQUEST_NULL;
    {
        loom::mpi::call_lock lock;
        MPI_Irecv(in, 8, MPI_CHAR, MPI_ANY_SOURCE, 81, MPI_COMM_WORLD, &recv);
    }
    MPI_Request send = start_send(out, 3, MPI_CHAR, 81);
    auto count = loom::mpi::as_status_sender(recv) | ex::then([](MPI_Status st) {
                     int n = -1;
                     MPI_Get_count(&st, MPI_CHAR, &n);
                     return std::vector<int>{st.MPI_SOURCE, st.MPI_TAG, n};
                 });
    auto r = tt::sync_wait(std::move(count));
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(std::get<0>(*r), (std::vector<int>{partner(), 81, 3}));
    tt::sync_wait(loom::mpi::as_sender(send));
    EXPECT_EQ(std::string(in, 3), "abc");
}

// A request the poller completes: the receiver runs in a task on a worker, never
// inside the poller or on the thread that started it.
TEST(MpiSenders, CompletesOnAWorker) {
    LOOM_MPI_REQUIRE_PAIR();
    double out = rank(), in = -1;
    MPI_Request recv = start_recv(&in, 1, MPI_DOUBLE, 82);
    auto where = ex::make_future(loom::mpi::as_sender(recv) | ex::then([] { return loom::ext::current_worker(); }));
    barrier();  // both operations started before either message is sent
    MPI_Request send = start_send(&out, 1, MPI_DOUBLE, 82);
    const int worker = where.get();
    tt::sync_wait(loom::mpi::as_sender(send));
    EXPECT_GE(worker, 0);
    EXPECT_EQ(in, partner());
}

// Records that it completed (and where).
struct flag_receiver {
    using receiver_concept = ex::receiver_t;
    std::thread::id* where;
    void set_value() && noexcept { *where = std::this_thread::get_id(); }
    void set_error(std::exception_ptr) && noexcept {}
    void set_stopped() && noexcept {}
    [[nodiscard]] ex::empty_env get_env() const noexcept { return {}; }
};

// A request complete when the operation starts (the message is there: MPI_Probe saw
// it) completes the receiver at once, on the starting thread, before start returns.
TEST(MpiSenders, CompleteRequestCompletesInStart) {
    LOOM_MPI_REQUIRE_PAIR();
    double out = rank(), in = -1;
    MPI_Request send = start_send(&out, 1, MPI_DOUBLE, 84);
    {
        loom::mpi::call_lock lock;
        MPI_Probe(partner(), 84, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Request recv = start_recv(&in, 1, MPI_DOUBLE, 84);
    std::thread::id where{};
    auto op = ex::connect(loom::mpi::as_sender(recv), flag_receiver{&where});
    ex::start(op);
    EXPECT_EQ(where, std::this_thread::get_id());
    EXPECT_EQ(in, partner());
    tt::sync_wait(loom::mpi::as_sender(send));
}

TEST(MpiSenders, NullRequestCompletesAtOnce) {
    auto r = tt::sync_wait(loom::mpi::as_status_sender(MPI_REQUEST_NULL));
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(std::get<0>(*r).MPI_SOURCE, MPI_ANY_SOURCE);
}

TEST(MpiSenders, TruncationIsAnError) {
    LOOM_MPI_REQUIRE_PAIR();
    std::vector<int> big(8, 5), small(2, 0);
    MPI_Request recv = leader() ? MPI_REQUEST_NULL : start_recv(small.data(), 2, MPI_INT, 83);
    barrier();
    if (leader()) {
        tt::sync_wait(loom::mpi::as_sender(start_send(big.data(), 8, MPI_INT, 83)));
        return;
    }
    auto caught = loom::mpi::as_sender(recv) | ex::then([] { return 0; }) |
                  ex::upon_error([](std::exception_ptr e) {
                      try {
                          std::rethrow_exception(e);
                      } catch (const loom::mpi::error& err) {
                          return err.error_class();
                      } catch (...) {
                          return -1;
                      }
                  });
    auto r = tt::sync_wait(std::move(caught));
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(std::get<0>(*r), MPI_ERR_TRUNCATE);
}

// Requests handed over at the same time from many tasks (the poller's queue is a
// lock-free stack every hand-over pushes on), senders and futures mixed: every one
// completes with its own message, and none is left counted as pending.
TEST(MpiSenders, RequestsHandedOverFromManyTasksAllComplete) {
    LOOM_MPI_REQUIRE_PAIR();
    constexpr int n = 64, base_tag = 200;
    std::vector<int> in(n, -1), out(n);
    for (int i = 0; i < n; ++i) out[i] = 1000 * rank() + i;
    std::vector<loom::future<loom::future<void>>> posted;
    for (int i = 0; i < n; ++i) {
        posted.push_back(loom::async([&, i] {
            if (i % 2 == 0)
                return loom::mpi::async(MPI_Irecv, &in[i], 1, MPI_INT, partner(), base_tag + i, MPI_COMM_WORLD);
            return ex::make_future(loom::mpi::as_sender(start_recv(&in[i], 1, MPI_INT, base_tag + i)));
        }));
    }
    std::vector<loom::future<void>> recvs;
    for (auto& p : posted) recvs.push_back(p.get());
    barrier();  // every receive handed over before any message is sent
    std::vector<loom::future<void>> sends;
    for (int i = n - 1; i >= 0; --i)
        sends.push_back(loom::mpi::async(MPI_Isend, &out[i], 1, MPI_INT, partner(), base_tag + i, MPI_COMM_WORLD));
    loom::when_all(recvs).get();
    loom::when_all(sends).get();
    for (int i = 0; i < n; ++i) EXPECT_EQ(in[i], 1000 * partner() + i) << "tag " << base_tag + i;
    EXPECT_EQ(loom::mpi::pending_requests(), 0u);
}

}  // namespace
