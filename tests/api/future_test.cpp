// promise / future / shared_future / then / make_ready_future / make_exceptional_future.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "loom/ext/scheduler.hpp"
#include "loom/loom.hpp"
#include "test_support.hpp"

namespace {

TEST(Future, DefaultIsInvalid) {
    loom::future<int> f;
    EXPECT_FALSE(f.valid());
    EXPECT_FALSE(f.is_ready());
    try {
        f.get();
        FAIL() << "get() on an invalid future must throw";
    } catch (const loom::future_error& e) {
        EXPECT_EQ(e.code(), std::make_error_code(std::future_errc::no_state));
    }
}

TEST(Future, PromiseSetBeforeGet) {
    loom::promise<int> p;
    loom::future<int> f = p.get_future();
    EXPECT_TRUE(f.valid());
    EXPECT_FALSE(f.is_ready());
    p.set_value(42);
    EXPECT_TRUE(f.is_ready());
    EXPECT_TRUE(f.has_value());
    EXPECT_FALSE(f.has_exception());
    EXPECT_EQ(f.get(), 42);
    EXPECT_FALSE(f.valid());  // get() consumes a unique future
}

TEST(Future, PromiseSetFromTaskWhileWaiting) {
    loom::promise<std::string> p;
    auto f = p.get_future();
    loom::post([p = std::move(p)]() mutable {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        p.set_value("hello");
    });
    EXPECT_EQ(f.get(), "hello");
}

TEST(Future, PromiseFromOutsideThread) {
    loom::promise<int> p;
    auto f = p.get_future();
    std::thread t([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        p.set_value(7);
    });
    EXPECT_EQ(f.get(), 7);
    t.join();
}

TEST(Future, VoidPromise) {
    loom::promise<void> p;
    auto f = p.get_future();
    p.set_value();
    f.get();
    EXPECT_FALSE(f.valid());
}

TEST(Future, ReferencePromise) {
    int x = 1;
    loom::promise<int&> p;
    auto f = p.get_future();
    p.set_value(x);
    int& r = f.get();
    r = 5;
    EXPECT_EQ(x, 5);
}

TEST(Future, MoveOnlyValue) {
    loom::promise<std::unique_ptr<int>> p;
    auto f = p.get_future();
    p.set_value(std::make_unique<int>(3));
    std::unique_ptr<int> v = f.get();
    ASSERT_TRUE(v);
    EXPECT_EQ(*v, 3);
}

TEST(Future, Emplace) {
    loom::promise<std::vector<int>> p;
    auto f = p.get_future();
    p.emplace(3, 9);
    EXPECT_EQ(f.get(), std::vector<int>(3, 9));
}

TEST(Future, ExceptionTravels) {
    loom::promise<int> p;
    auto f = p.get_future();
    p.set_exception(std::make_exception_ptr(std::runtime_error("boom")));
    EXPECT_TRUE(f.has_exception());
    EXPECT_THROW(f.get(), std::runtime_error);
}

TEST(Future, BrokenPromise) {
    loom::future<int> f;
    {
        loom::promise<int> p;
        f = p.get_future();
    }
    ASSERT_TRUE(f.is_ready());
    try {
        f.get();
        FAIL() << "expected broken_promise";
    } catch (const loom::future_error& e) {
        EXPECT_EQ(e.code(), std::make_error_code(std::future_errc::broken_promise));
    }
}

TEST(Future, BrokenPromiseWakesWaiter) {
    auto p = std::make_unique<loom::promise<void>>();
    auto f = p->get_future();
    loom::post([p = std::move(p)]() mutable { p.reset(); });
    EXPECT_THROW(f.get(), loom::future_error);
}

TEST(Future, FutureAlreadyRetrieved) {
    loom::promise<int> p;
    auto f = p.get_future();
    try {
        (void)p.get_future();
        FAIL() << "expected future_already_retrieved";
    } catch (const loom::future_error& e) {
        EXPECT_EQ(e.code(), std::make_error_code(std::future_errc::future_already_retrieved));
    }
    p.set_value(1);
    EXPECT_EQ(f.get(), 1);
}

TEST(Future, PromiseAlreadySatisfied) {
    loom::promise<int> p;
    auto f = p.get_future();
    p.set_value(1);
    try {
        p.set_value(2);
        FAIL() << "expected promise_already_satisfied";
    } catch (const loom::future_error& e) {
        EXPECT_EQ(e.code(), std::make_error_code(std::future_errc::promise_already_satisfied));
    }
    EXPECT_THROW(p.set_exception(std::make_exception_ptr(1)), loom::future_error);
    EXPECT_EQ(f.get(), 1);
}

TEST(Future, MovedFromPromiseHasNoState) {
    loom::promise<int> p;
    loom::promise<int> q(std::move(p));
    EXPECT_FALSE(p.valid());  // NOLINT(bugprone-use-after-move)
    EXPECT_THROW(p.set_value(1), loom::future_error);
    auto f = q.get_future();
    q.set_value(2);
    EXPECT_EQ(f.get(), 2);
}

TEST(Future, MakeReadyFuture) {
    auto f = loom::make_ready_future(5);
    static_assert(std::is_same_v<decltype(f), loom::future<int>>);
    EXPECT_TRUE(f.is_ready());
    EXPECT_EQ(f.get(), 5);
    auto v = loom::make_ready_future();
    EXPECT_TRUE(v.is_ready());
    v.get();
    auto s = loom::make_ready_future(std::string("x"));
    EXPECT_EQ(s.get(), "x");
}

TEST(Future, MakeExceptionalFuture) {
    auto f = loom::make_exceptional_future<int>(std::logic_error("bad"));
    EXPECT_TRUE(f.is_ready());
    EXPECT_TRUE(f.has_exception());
    EXPECT_THROW(f.get(), std::logic_error);
    auto g = loom::make_exceptional_future<void>(std::make_exception_ptr(std::out_of_range("r")));
    EXPECT_THROW(g.get(), std::out_of_range);
}

TEST(Future, WaitForTimesOutThenReady) {
    loom::promise<int> p;
    auto f = p.get_future();
    EXPECT_EQ(f.wait_for(std::chrono::milliseconds(2)), loom::future_status::timeout);
    p.set_value(1);
    EXPECT_EQ(f.wait_for(std::chrono::milliseconds(0)), loom::future_status::ready);
    f.wait();
    EXPECT_EQ(f.get(), 1);
}

TEST(SharedFuture, ManyReaders) {
    loom::promise<int> p;
    loom::shared_future<int> sf = p.get_future().share();
    std::vector<loom::future<int>> readers;
    for (int i = 0; i < 64; ++i) {
        readers.push_back(loom::async([sf] { return sf.get() + 1; }));
    }
    p.set_value(41);
    for (auto& r : readers) EXPECT_EQ(r.get(), 42);
    EXPECT_TRUE(sf.valid());
    EXPECT_EQ(sf.get(), 41);  // stays valid, get() repeatable
    EXPECT_EQ(sf.get(), 41);
}

TEST(SharedFuture, CopyAssignAndVoidAndRef) {
    loom::promise<void> p;
    loom::shared_future<void> a = p.get_future();
    loom::shared_future<void> b;
    b = a;
    p.set_value();
    a.get();
    b.get();
    int x = 3;
    loom::promise<int&> pr;
    loom::shared_future<int&> sr = pr.get_future().share();
    pr.set_value(x);
    EXPECT_EQ(&sr.get(), &x);
}

TEST(SharedFuture, ExceptionRethrownEveryTime) {
    auto sf = loom::make_exceptional_future<int>(std::runtime_error("e")).share();
    EXPECT_THROW(sf.get(), std::runtime_error);
    EXPECT_THROW(sf.get(), std::runtime_error);
}

TEST(Then, RunsAfterReadyWithTheFuture) {
    loom::promise<int> p;
    auto f = p.get_future().then([](loom::future<int> in) {
        EXPECT_TRUE(in.is_ready());
        return in.get() * 2;
    });
    EXPECT_FALSE(f.is_ready());
    p.set_value(21);
    EXPECT_EQ(f.get(), 42);
}

TEST(Then, OnReadyFutureAndChain) {
    auto f = loom::make_ready_future(1)
                 .then([](loom::future<int> x) { return x.get() + 1; })
                 .then([](loom::future<int> x) { return std::to_string(x.get()); })
                 .then([](loom::future<std::string> s) { return s.get() + "!"; });
    EXPECT_EQ(f.get(), "2!");
}

TEST(Then, LongChain) {
    loom::promise<int> p;
    loom::future<int> f = p.get_future();
    for (int i = 0; i < 1000; ++i) {
        f = f.then([](loom::future<int> x) { return x.get() + 1; });
    }
    p.set_value(0);
    EXPECT_EQ(f.get(), 1000);
}

TEST(Then, ConsumesTheFuture) {
    auto f = loom::make_ready_future(1);
    auto g = f.then([](loom::future<int> x) { return x.get(); });
    EXPECT_FALSE(f.valid());  // NOLINT(bugprone-use-after-move)
    EXPECT_EQ(g.get(), 1);
}

TEST(Then, VoidContinuations) {
    std::atomic<int> hits{0};
    auto f = loom::make_ready_future().then([&](loom::future<void>) { ++hits; }).then([&](loom::future<void> v) {
        v.get();
        ++hits;
        return 7;
    });
    EXPECT_EQ(f.get(), 7);
    EXPECT_EQ(hits.load(), 2);
}

TEST(Then, ExceptionInAntecedentReachesContinuation) {
    auto f = loom::make_exceptional_future<int>(std::runtime_error("x")).then([](loom::future<int> in) {
        EXPECT_TRUE(in.has_exception());
        try {
            in.get();
        } catch (const std::runtime_error&) {
            return -1;
        }
        return 0;
    });
    EXPECT_EQ(f.get(), -1);
}

TEST(Then, ExceptionInContinuationTravels) {
    auto f = loom::make_ready_future(1)
                 .then([](loom::future<int>) -> int { throw std::domain_error("c"); })
                 .then([](loom::future<int> x) { return x.get() + 1; });  // rethrows
    EXPECT_THROW(f.get(), std::domain_error);
}

TEST(Then, UnwrapsReturnedFuture) {
    loom::promise<int> inner;
    auto inner_f = inner.get_future();
    auto f = loom::make_ready_future(1).then(
        [&inner_f](loom::future<int> x) -> loom::future<int> {
            EXPECT_EQ(x.get(), 1);
            return std::move(inner_f);
        });
    static_assert(std::is_same_v<decltype(f), loom::future<int>>);
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    EXPECT_FALSE(f.is_ready());
    inner.set_value(9);
    EXPECT_EQ(f.get(), 9);
}

TEST(Then, UnwrapsAsyncResult) {
    auto f = loom::make_ready_future(4).then([](loom::future<int> x) {
        int v = x.get();
        return loom::async([v] { return v * v; });
    });
    EXPECT_EQ(f.get(), 16);
}

TEST(Then, SharedFutureFanOut) {
    loom::promise<int> p;
    auto sf = p.get_future().share();
    auto a = sf.then([](loom::shared_future<int> s) { return s.get() + 1; });
    auto b = sf.then([](loom::shared_future<int> s) { return s.get() + 2; });
    p.set_value(10);
    EXPECT_EQ(a.get(), 11);
    EXPECT_EQ(b.get(), 12);
    EXPECT_EQ(sf.get(), 10);
}

TEST(Then, WithPriority) {
    auto f = loom::make_ready_future(2).then(loom::priority::high, [](loom::future<int> x) { return x.get() + 1; });
    EXPECT_EQ(f.get(), 3);
}

TEST(Future, UnwrappingConstructor) {
    loom::promise<loom::future<int>> outer;
    loom::future<int> f(outer.get_future());
    loom::promise<int> inner;
    outer.set_value(inner.get_future());
    EXPECT_FALSE(f.is_ready());
    inner.set_value(5);
    EXPECT_EQ(f.get(), 5);
}

TEST(Future, WaitInTaskSuspendsNotBlocks) {
    // More tasks wait than there are workers; they all must be released.
    loom::promise<void> gate;
    auto sf = gate.get_future().share();
    std::vector<loom::future<int>> waiting;
    const unsigned n = 4 * loom::num_threads() + 4;
    for (unsigned i = 0; i < n; ++i) {
        waiting.push_back(loom::async([sf, i] {
            sf.wait();
            return static_cast<int>(i);
        }));
    }
    // The releasing task must still find a worker although all the above wait.
    auto releaser = loom::async([&gate] { gate.set_value(); });
    releaser.get();
    for (unsigned i = 0; i < n; ++i) EXPECT_EQ(waiting[i].get(), static_cast<int>(i));
}

// Each continuation of a chain runs on the worker of the one before: its predecessor's
// end keeps it there (ext::begin_final_release) instead of handing it to an idle
// worker, however many spin. Before, at 2 workers nearly every hop crossed over.
TEST(Future, AChainOfContinuationsStaysOnOneWorker) {
    const int moved = loom_test::chain_hops_that_moved(200, [](loom::future<int> prev, int& where) {
        return prev.then([&where](loom::future<int> x) {
            where = loom::ext::current_worker();
            return x.get() + 1;
        });
    });
    EXPECT_EQ(moved, 0) << "hops that ran on another worker than the hop before (-1: wrong count)";
}

}  // namespace
