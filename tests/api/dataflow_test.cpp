// loom::dataflow.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <stdexcept>
#include <string>
#include <vector>

#include "loom/ext/scheduler.hpp"
#include "loom/loom.hpp"
#include "test_support.hpp"

namespace {

TEST(Dataflow, WaitsForFuturesAndPassesThem) {
    loom::promise<int> p;
    auto a = p.get_future();
    auto b = loom::async([] { return 2; }).share();
    std::atomic<bool> ran{false};
    auto r = loom::dataflow(
        [&ran](loom::future<int> x, loom::shared_future<int> y, int z) {
            EXPECT_TRUE(x.is_ready());
            EXPECT_TRUE(y.is_ready());
            ran = true;
            return x.get() * 100 + y.get() * 10 + z;
        },
        std::move(a), b, 3);
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    EXPECT_FALSE(ran.load());
    p.set_value(1);
    EXPECT_EQ(r.get(), 123);
}

TEST(Dataflow, OnlyValues) {
    auto r = loom::dataflow([](int a, std::string s) { return s + std::to_string(a); }, 4, std::string("n"));
    EXPECT_EQ(r.get(), "n4");
    auto none = loom::dataflow([] { return 1; });
    EXPECT_EQ(none.get(), 1);
}

TEST(Dataflow, VectorOfFutures) {
    std::vector<loom::future<int>> in;
    for (int i = 0; i < 50; ++i) in.push_back(loom::async([i] { return i; }));
    auto r = loom::dataflow(
        [](std::vector<loom::future<int>> v, int extra) {
            int s = extra;
            for (auto& f : v) {
                EXPECT_TRUE(f.is_ready());
                s += f.get();
            }
            return s;
        },
        std::move(in), 1000);
    EXPECT_EQ(r.get(), 1000 + 49 * 50 / 2);
}

TEST(Dataflow, VoidResultAndPriority) {
    std::atomic<int> n{0};
    auto r = loom::dataflow(loom::priority::high, [&n](loom::future<void>) { n = 1; }, loom::make_ready_future());
    static_assert(std::is_same_v<decltype(r), loom::future<void>>);
    r.get();
    EXPECT_EQ(n.load(), 1);
}

TEST(Dataflow, ExceptionFromInputSeenByCallee) {
    auto bad = loom::make_exceptional_future<int>(std::runtime_error("in"));
    auto r = loom::dataflow([](loom::future<int> f) { return f.get(); }, std::move(bad));
    EXPECT_THROW(r.get(), std::runtime_error);
}

TEST(Dataflow, ExceptionFromCallee) {
    auto r = loom::dataflow([](loom::future<int>) -> int { throw std::length_error("f"); }, loom::make_ready_future(1));
    EXPECT_THROW(r.get(), std::length_error);
}

TEST(Dataflow, UnwrapsReturnedFuture) {
    auto r = loom::dataflow([](loom::future<int> x) { return loom::async([v = x.get()] { return v + 1; }); },
                            loom::async([] { return 1; }));
    static_assert(std::is_same_v<decltype(r), loom::future<int>>);
    EXPECT_EQ(r.get(), 2);
}

TEST(Dataflow, Chain) {
    loom::shared_future<long> f = loom::make_ready_future(1L);
    for (int i = 0; i < 500; ++i) {
        f = loom::dataflow([](loom::shared_future<long> a) { return a.get() + 1; }, f);
    }
    EXPECT_EQ(f.get(), 501);
}

}  // namespace

namespace {

// Each dataflow of a chain runs on the worker of the one before: the end of a dataflow
// task keeps the next one, released by its result, on its worker (next in line).
TEST(Dataflow, AChainStaysOnOneWorker) {
    const int moved = loom_test::chain_hops_that_moved(200, [](loom::future<int> prev, int& where) {
        return loom::dataflow(
            [&where](loom::future<int> x) {
                where = loom::ext::current_worker();
                return x.get() + 1;
            },
            std::move(prev));
    });
    EXPECT_EQ(moved, 0) << "hops that ran on another worker than the hop before (-1: wrong count)";
}

TEST(Unwrapping, DataflowWithValues) {
    auto a = loom::async([] { return 2; });
    auto b = loom::make_ready_future(std::string("x")).share();
    auto r = loom::dataflow(loom::unwrapping([](int x, const std::string& s, int plain) {
                                return s + std::to_string(x + plain);
                            }),
                            std::move(a), b, 3);
    EXPECT_EQ(r.get(), "x5");
}

TEST(Unwrapping, RangesAndVoid) {
    std::vector<loom::future<int>> v;
    for (int i = 1; i <= 4; ++i) v.push_back(loom::async([i] { return i; }));
    auto r = loom::dataflow(loom::unwrapping([](std::vector<int> xs) {
                                int s = 0;
                                for (int x : xs) s += x;
                                return s;
                            }),
                            std::move(v), loom::make_ready_future());
    EXPECT_EQ(r.get(), 10);
}

TEST(Unwrapping, ExceptionOfAnInputReachesTheResult) {
    auto bad = loom::make_exceptional_future<int>(std::runtime_error("in"));
    auto r = loom::dataflow(loom::unwrapping([](int x) { return x; }), std::move(bad));
    EXPECT_THROW(r.get(), std::runtime_error);
}

TEST(Launch, AsyncAndSync) {
    auto a = loom::async(loom::launch::async, [](int x) { return x + 1; }, 1);
    EXPECT_EQ(a.get(), 2);
    int here = 0;
    auto s = loom::async(loom::launch::sync, [&here] { here = 1; return 3; });
    EXPECT_EQ(here, 1);  // ran before async() returned
    EXPECT_TRUE(s.is_ready());
    EXPECT_EQ(s.get(), 3);
    auto e = loom::async(loom::launch::sync, []() -> int { throw std::logic_error("s"); });
    EXPECT_THROW(e.get(), std::logic_error);
}

TEST(Launch, ThenSyncOnReadyRunsInline) {
    bool ran = false;
    auto f = loom::make_ready_future(4).then(loom::launch::sync, [&ran](loom::future<int> x) {
        ran = true;
        return x.get() * 2;
    });
    EXPECT_TRUE(ran);
    EXPECT_EQ(f.get(), 8);
    loom::promise<int> p;
    auto g = p.get_future().share().then(loom::launch::sync, [](loom::shared_future<int> x) { return x.get() + 1; });
    p.set_value(1);
    EXPECT_EQ(g.get(), 2);
    auto h = loom::make_ready_future(1).then(loom::launch::async, [](loom::future<int> x) { return x.get(); });
    EXPECT_EQ(h.get(), 1);
}

}  // namespace
