// Senders and the rest of loom: loom futures as senders (as_sender) and senders as
// futures (make_future), co_await of senders in coroutines returning futures and in
// lazy coroutines, any_sender.
#include <gtest/gtest.h>

#include <atomic>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "loom/async.hpp"
#include "loom/coroutine.hpp"
#include "loom/future.hpp"
#include "loom/lazy.hpp"
#include "loom/runtime.hpp"
#include "loom/sender.hpp"
#include "sender_support.hpp"

namespace {

namespace ex = loom::execution::experimental;
namespace tt = loom::this_thread::experimental;
using loom_test::outcome;
using loom_test::test_error;

// ---- future -> sender ---------------------------------------------------------------------------

TEST(SenderFuture, ReadyAndPendingFutures) {
    EXPECT_EQ(outcome(ex::as_sender(loom::make_ready_future(3)) | ex::then([](int v) { return v + 1; })), "value:4");
    loom::promise<int> p;
    auto s = ex::as_sender(p.get_future()) | ex::then([](int v) { return v * 2; });
    std::thread setter([&] { p.set_value(21); });
    EXPECT_EQ(outcome(std::move(s)), "value:42");
    setter.join();
    EXPECT_EQ(outcome(ex::as_sender(loom::async([] { return 5; }))), "value:5");
}

TEST(SenderFuture, ExceptionsVoidAndReferences) {
    EXPECT_EQ(outcome(ex::as_sender(loom::make_exceptional_future<int>(std::runtime_error("stored")))), "error:stored");
    EXPECT_EQ(outcome(ex::as_sender(loom::make_ready_future())), "value");
    int x = 1;
    loom::promise<int&> p;
    p.set_value(x);
    auto r = tt::sync_wait(ex::as_sender(p.get_future()) | ex::then([](int& ref) {
                               ref = 9;
                               return 0;
                           }));
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(x, 9);
}

TEST(SenderFuture, SharedFutureIsReadByEveryConsumer) {
    loom::promise<std::string> p;
    loom::shared_future<std::string> sf = p.get_future().share();
    auto a = ex::as_sender(sf);
    auto size = [](const std::string& s) { return static_cast<int>(s.size()); };
    auto first = ex::ensure_started(a | ex::then(size));
    p.set_value("four");
    EXPECT_EQ(outcome(std::move(first)), "value:4");
    EXPECT_EQ(outcome(a | ex::then(size)), "value:4");  // copyable, connectable again
    EXPECT_EQ(sf.get(), "four");                         // the value stays in the state
}

TEST(SenderFuture, InvalidFutureThrowsAtConversion) {
    loom::future<int> empty;
    EXPECT_THROW((void)ex::as_sender(std::move(empty)), loom::future_error);
}

// ---- sender -> future -------------------------------------------------------------------------

TEST(SenderFuture, MakeFutureOfValues) {
    loom::future<int> f = ex::make_future(ex::schedule(ex::pool_scheduler()) | ex::then([] { return 42; }));
    EXPECT_EQ(f.get(), 42);
    loom::future<void> v = loom::make_future(ex::just());
    v.get();
    loom::future<std::tuple<int, double>> t = ex::just(1, 2.5) | ex::make_future();
    EXPECT_EQ(t.get(), std::make_tuple(1, 2.5));
    auto chained = ex::make_future(ex::just(20)).then([](loom::future<int> g) { return g.get() + 1; });
    EXPECT_EQ(chained.get(), 21);
    auto moved = ex::make_future(ex::just(std::make_unique<int>(4)));
    EXPECT_EQ(*moved.get(), 4);
}

TEST(SenderFuture, MakeFutureOfErrorsAndStopped) {
    auto e = ex::make_future(ex::just_error(test_error("sent")) | ex::then([] { return 0; }));
    EXPECT_THROW(
        {
            try {
                e.get();
            } catch (const std::runtime_error& err) {
                EXPECT_STREQ(err.what(), "sent");
                throw;
            }
        },
        std::runtime_error);
    auto i = ex::make_future(ex::just_error(7));
    EXPECT_THROW(i.get(), int);
    auto s = ex::make_future(ex::just_stopped());
    EXPECT_THROW(s.get(), ex::operation_stopped);
}

TEST(SenderFuture, RoundTrip) {
    auto f = ex::make_future(ex::as_sender(loom::async([] { return 6; })) | ex::continues_on(ex::pool_scheduler()) |
                             ex::then([](int v) { return v * 7; }));
    EXPECT_EQ(f.get(), 42);
}

// ---- co_await of senders ----------------------------------------------------------------------------

loom::future<int> await_values() {
    const int a = co_await ex::just(1);  // completes inside start(): no suspension
    const int b = co_await (ex::schedule(ex::pool_scheduler()) | ex::then([] { return 2; }));
    co_await ex::just();
    auto [c, d] = co_await ex::just(3, 4);
    co_return a + b + c + d;
}

TEST(SenderAwait, ValuesOfEveryArity) { EXPECT_EQ(await_values().get(), 10); }

loom::future<std::string> await_failures() {
    std::string seen;
    try {
        co_await (ex::just() | ex::then([]() -> int { throw std::runtime_error("thrown"); }));
    } catch (const std::runtime_error& e) {
        seen += e.what();
    }
    try {
        co_await ex::just_error(5);
    } catch (int e) {
        seen += ":" + std::to_string(e);
    }
    try {
        co_await ex::just_stopped();
    } catch (const ex::operation_stopped&) {
        seen += ":stopped";
    }
    co_return seen;
}

TEST(SenderAwait, ErrorsAndStoppedAreThrown) { EXPECT_EQ(await_failures().get(), "thrown:5:stopped"); }

loom::future<int> await_on_pool() {
    const int before = loom::this_worker();
    const int after = co_await (ex::schedule(ex::pool_scheduler()) | ex::then([] { return loom::this_worker(); }));
    // Where the coroutine goes on depends on a race: on a worker (resumed as a task) if
    // it suspended first, on the starting thread if the work completed before that.
    co_return (before == -1 ? 10 : 0) + (after >= 0 ? 1 : 0);
}

TEST(SenderAwait, AwaitedWorkRunsOnThePool) {
    loom::future<int> f;
    std::thread t([&] { f = await_on_pool(); });
    t.join();
    EXPECT_EQ(f.get(), 11);
}

loom::lazy<int> lazy_await(int k) {
    const int v = co_await (ex::schedule(ex::pool_scheduler()) | ex::then([k] { return k * 2; }));
    co_return v + co_await ex::just(1);
}

loom::future<std::unique_ptr<int>> await_move_only() {
    auto p = co_await (ex::just(std::make_unique<int>(1)) | ex::continues_on(ex::pool_scheduler()));
    *p += co_await lazy_await(3);
    auto q = co_await ex::any_sender<std::unique_ptr<int>>(ex::just(std::move(p)));
    co_return q;
}

TEST(SenderAwait, LazyCoroutinesAndMoveOnlyValues) {
    EXPECT_EQ(loom::start(lazy_await(5)).get(), 11);
    EXPECT_EQ(*await_move_only().get(), 8);
}

loom::future<long> await_many(int n) {
    long sum = 0;
    for (int i = 0; i < n; ++i) sum += co_await (ex::schedule(ex::pool_scheduler()) | ex::then([i] { return i; }));
    co_return sum;
}

TEST(SenderAwait, ManySuspensions) {
    const int n = 2000;
    std::vector<loom::future<long>> fs;
    for (int k = 0; k < 4; ++k) fs.push_back(await_many(n));
    for (auto& f : fs) EXPECT_EQ(f.get(), static_cast<long>(n) * (n - 1) / 2);
}

// ---- any_sender ------------------------------------------------------------------------------------

TEST(AnySender, HoldsSendersOfDifferentTypes) {
    std::vector<ex::any_sender<int>> senders;
    senders.emplace_back(ex::just(1));
    senders.emplace_back(ex::schedule(ex::pool_scheduler()) | ex::then([] { return 2; }));
    senders.emplace_back(ex::just(short{3}));  // converted to int
    senders.emplace_back(ex::just_error(test_error("erased")));
    senders.emplace_back(ex::just_error(4));  // a non-exception error becomes an exception_ptr
    senders.emplace_back(ex::just_stopped());
    std::vector<std::string> out;
    for (auto& s : senders) out.push_back(outcome(std::move(s)));
    EXPECT_EQ(out, (std::vector<std::string>{"value:1", "value:2", "value:3", "error:erased", "error:int:4", "stopped"}));
}

TEST(AnySender, EmptyThrowsOnConnect) {
    ex::any_sender<int> empty;
    EXPECT_FALSE(static_cast<bool>(empty));
    EXPECT_THROW((void)tt::sync_wait(std::move(empty)), std::logic_error);
}

TEST(AnySender, VoidAndSeveralValues) {
    EXPECT_EQ(outcome(ex::any_sender<>(ex::just())), "value");
    auto r = tt::sync_wait(ex::any_sender<int, std::string>(ex::just(1, std::string("x"))));
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(*r, std::make_tuple(1, std::string("x")));
}

}  // namespace
