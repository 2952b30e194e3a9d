// Stop tokens and cancellation: inplace_stop_source/callback semantics, schedule() with a
// stopped token, a long chain cancelled from another thread, when_all stopping the other
// children, split and ensure_started consumers that stop, bulk, std::stop_token.
#include <gtest/gtest.h>

#include <atomic>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include "loom/future.hpp"
#include "loom/sender.hpp"
#include "loom/stop_token.hpp"
#include "sender_support.hpp"

namespace {

namespace ex = loom::execution::experimental;
namespace tt = loom::this_thread::experimental;
using loom_test::outcome;
using loom_test::test_error;
using loom_test::wait_for_stop;

template <class Token>
auto stop_env(Token t) {
    return ex::prop{ex::get_stop_token, t};
}

// ---- the stop token types ----------------------------------------------------------------

TEST(StopToken, CallbacksRunOnceOnRequest) {
    loom::inplace_stop_source src;
    int a = 0;
    int b = 0;
    {
        loom::inplace_stop_callback cb1(src.get_token(), [&] { ++a; });
        loom::inplace_stop_callback cb2(src.get_token(), [&] { ++b; });
        EXPECT_FALSE(src.stop_requested());
        EXPECT_TRUE(src.request_stop());
        EXPECT_FALSE(src.request_stop());  // only the first call requests
        EXPECT_TRUE(src.stop_requested());
        EXPECT_TRUE(src.get_token().stop_requested());
    }
    EXPECT_EQ(a, 1);
    EXPECT_EQ(b, 1);
    // Registered after the request: runs at once, in the constructor.
    int c = 0;
    loom::inplace_stop_callback late(src.get_token(), [&] { ++c; });
    EXPECT_EQ(c, 1);
}

TEST(StopToken, DeregisteredCallbackDoesNotRun) {
    loom::inplace_stop_source src;
    int runs = 0;
    { loom::inplace_stop_callback cb(src.get_token(), [&] { ++runs; }); }
    src.request_stop();
    EXPECT_EQ(runs, 0);
}

TEST(StopToken, CallbackMayDestroyItselfWhileRunning) {
    loom::inplace_stop_source src;
    std::optional<loom::inplace_stop_callback<std::function<void()>>> cb;
    bool ran = false;
    cb.emplace(src.get_token(), std::function<void()>([&] {
                   ran = true;
                   cb.reset();  // its own destructor, from inside its execution
               }));
    src.request_stop();
    EXPECT_TRUE(ran);
    EXPECT_FALSE(cb.has_value());
}

TEST(StopToken, TokenWithoutSourceAndNeverToken) {
    loom::inplace_stop_token none;
    EXPECT_FALSE(none.stop_possible());
    EXPECT_FALSE(none.stop_requested());
    loom::inplace_stop_callback cb(none, [] { FAIL() << "no source: never runs"; });
    static_assert(loom::stoppable_token<loom::inplace_stop_token>);
    static_assert(loom::stoppable_token<std::stop_token>);
    static_assert(loom::unstoppable_token<loom::never_stop_token>);
    static_assert(!loom::unstoppable_token<loom::inplace_stop_token>);
    static_assert(std::is_same_v<loom::stop_callback_for_t<std::stop_token, void (*)()>, std::stop_callback<void (*)()>>);
}

TEST(StopToken, ConcurrentRegistrationAndRequest) {
    // Threads register and deregister callbacks while another requests stop: every
    // callback that was registered when stop was requested runs exactly once, and a
    // destructor never returns while its callback runs on another thread.
    for (int round = 0; round < 20; ++round) {
        loom::inplace_stop_source src;
        std::atomic<int> ran{0};
        std::vector<std::thread> threads;
        for (int t = 0; t < 3; ++t) {
            threads.emplace_back([&] {
                for (int i = 0; i < 200; ++i) {
                    std::atomic<int> mine{0};
                    {
                        loom::inplace_stop_callback cb(src.get_token(), [&] {
                            mine.fetch_add(1);
                            ran.fetch_add(1);
                        });
                    }
                    EXPECT_LE(mine.load(), 1);  // at most once, and over when cb is gone
                }
            });
        }
        threads.emplace_back([&] { src.request_stop(); });
        for (auto& th : threads) th.join();
        EXPECT_TRUE(src.stop_requested());
        EXPECT_LE(ran.load(), 3 * 200);
    }
}

// ---- schedule with a stopped token ------------------------------------------------------------

TEST(SenderCancel, ScheduleWithStoppedTokenSendsStopped) {
    loom::inplace_stop_source src;
    src.request_stop();
    bool ran = false;
    auto s = ex::write_env(ex::schedule(ex::pool_scheduler()) | ex::then([&] { ran = true; }), stop_env(src.get_token()));
    EXPECT_EQ(outcome(std::move(s)), "stopped");
    EXPECT_FALSE(ran);
}

// ---- a long chain cancelled from outside ------------------------------------------------------

// `left` more hops, each a new task on the pool (schedule) that counts itself; the 10th
// hop waits until stop has been requested.
ex::any_sender<int> hops(ex::pool_scheduler sch, std::atomic<int>& count, const loom::inplace_stop_source& src,
                         int left) {
    if (left == 0) return ex::just(count.load());
    return ex::schedule(sch) | ex::let_value([sch, &count, &src, left] {
               if (count.fetch_add(1) + 1 == 10) {
                   while (!src.stop_requested()) std::this_thread::yield();
               }
               return hops(sch, count, src, left - 1);
           });
}

TEST(SenderCancel, LongChainCancelledFromAnotherThread) {
    loom::inplace_stop_source src;
    std::atomic<int> count{0};
    std::thread canceller([&] {
        while (count.load() < 10) std::this_thread::yield();
        src.request_stop();
    });
    auto r = tt::sync_wait(ex::write_env(hops(ex::pool_scheduler(), count, src, 100000), stop_env(src.get_token())));
    canceller.join();
    EXPECT_FALSE(r.has_value());  // stopped: the chain did not run to its end
    EXPECT_EQ(count.load(), 10);  // the 11th hop's schedule saw the request and never ran
}

TEST(SenderCancel, UncancelledChainRunsToTheEnd) {
    loom::inplace_stop_source src;
    src.request_stop();  // lets the 10th hop go on; the chain itself never sees this source
    std::atomic<int> count{0};
    auto r = tt::sync_wait(hops(ex::pool_scheduler(), count, src, 50));
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(std::get<0>(*r), 50);
}

// ---- when_all ------------------------------------------------------------------------------------

TEST(SenderCancel, WhenAllFailureStopsTheOthers) {
    std::atomic<bool> stopped{false};
    // Without the stop request the first child would never complete and this would hang.
    auto failing = ex::schedule(ex::pool_scheduler()) | ex::then([]() -> int { throw std::runtime_error("fail"); });
    EXPECT_EQ(outcome(ex::when_all(wait_for_stop{&stopped}, std::move(failing)) |
                      ex::then([](int a, int b) { return a + b; })),
              "error:fail");
    EXPECT_TRUE(stopped.load());

    // The error comes first (inside start): the later child starts already stopped.
    std::atomic<bool> late{false};
    EXPECT_EQ(outcome(ex::when_all(ex::just_error(test_error("early")), wait_for_stop{&late})), "error:early");
    EXPECT_TRUE(late.load());
}

TEST(SenderCancel, WhenAllStoppedChildStopsTheOthers) {
    std::atomic<bool> stopped{false};
    EXPECT_EQ(outcome(ex::when_all(wait_for_stop{&stopped}, ex::just_stopped())), "stopped");
    EXPECT_TRUE(stopped.load());
}

TEST(SenderCancel, WhenAllForwardsTheReceiversStopRequest) {
    loom::inplace_stop_source src;
    std::atomic<bool> a{false};
    std::atomic<bool> b{false};
    std::thread canceller([&] { src.request_stop(); });
    auto s = ex::write_env(ex::when_all(wait_for_stop{&a}, wait_for_stop{&b}), stop_env(src.get_token()));
    EXPECT_EQ(outcome(std::move(s)), "stopped");
    canceller.join();
    // Either the request came before start (nothing started) or both children were stopped.
    EXPECT_EQ(a.load(), b.load());
}

// ---- std::stop_token ---------------------------------------------------------------------------

TEST(SenderCancel, StdStopTokenIsAccepted) {
    std::stop_source src;
    std::atomic<bool> a{false};
    std::thread canceller([&] { src.request_stop(); });
    EXPECT_EQ(outcome(ex::write_env(wait_for_stop{&a}, stop_env(src.get_token()))), "stopped");
    canceller.join();

    // Through when_all (forwarded by a std::stop_callback) and any_sender (forwarded to
    // an inplace source of its own).
    std::stop_source src2;
    std::atomic<bool> b{false};
    std::atomic<bool> c{false};
    std::thread canceller2([&] { src2.request_stop(); });
    auto s = ex::when_all(wait_for_stop{&b}, ex::any_sender<int>(wait_for_stop{&c}));
    EXPECT_EQ(outcome(ex::write_env(std::move(s), stop_env(src2.get_token()))), "stopped");
    canceller2.join();
}

TEST(SenderCancel, AnySenderPassesAnInplaceToken) {
    loom::inplace_stop_source src;
    std::atomic<bool> a{false};
    std::thread canceller([&] { src.request_stop(); });
    EXPECT_EQ(outcome(ex::write_env(ex::any_sender<int>(wait_for_stop{&a}), stop_env(src.get_token()))), "stopped");
    canceller.join();
}

// ---- split and ensure_started ---------------------------------------------------------------------

TEST(SenderCancel, SplitConsumerThatStopsLeavesTheOthers) {
    loom::promise<int> p;
    auto shared = ex::split(ex::as_sender(p.get_future()));
    loom::inplace_stop_source src;
    // Both consumers start now (ensure_started); the first listens to src.
    auto a = ex::ensure_started(ex::write_env(shared, stop_env(src.get_token())));
    auto b = ex::ensure_started(shared | ex::then([](const int& v) { return v + 1; }));
    src.request_stop();  // the first consumer leaves, stopped, before the value exists
    EXPECT_EQ(outcome(std::move(a)), "stopped");
    p.set_value(41);
    EXPECT_EQ(outcome(std::move(b)), "value:42");
    EXPECT_EQ(outcome(shared), "value:41");  // a later consumer still gets the value
}

TEST(SenderCancel, DroppedEnsureStartedRequestsStop) {
    std::atomic<bool> stopped{false};
    { auto dropped = ex::ensure_started(wait_for_stop{&stopped}); }
    EXPECT_TRUE(stopped.load());  // request_stop ran the work's stop callback, here
}

TEST(SenderCancel, EnsureStartedConsumerStopStopsTheWork) {
    std::atomic<bool> stopped{false};
    loom::inplace_stop_source src;
    src.request_stop();
    auto es = ex::ensure_started(wait_for_stop{&stopped});
    EXPECT_EQ(outcome(ex::write_env(std::move(es), stop_env(src.get_token()))), "stopped");
    EXPECT_TRUE(stopped.load());
}

// ---- bulk -----------------------------------------------------------------------------------------

TEST(SenderCancel, BulkStopsBetweenChunks) {
    loom::inplace_stop_source src;
    std::atomic<int> ran{0};
    constexpr int n = 100000;
    auto s = ex::just() | ex::bulk(n, [&](int i) {
                 if (i == 0) src.request_stop();
                 ran.fetch_add(1, std::memory_order_relaxed);
             });
    EXPECT_EQ(outcome(ex::write_env(std::move(s), stop_env(src.get_token()))), "stopped");
    EXPECT_LT(ran.load(), n);  // chunks claimed after the request never ran
}

}  // namespace
