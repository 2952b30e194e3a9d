// Coroutines: co_await on futures and shared_futures, coroutines returning futures,
// lazy<T> with start/spawn, deep chains, exceptions, resumption on the pool.
#include <gtest/gtest.h>

#include <atomic>
#include <coroutine>
#include <cstdint>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "loom/coroutine.hpp"
#include "loom/ext/scheduler.hpp"
#include "loom/lazy.hpp"
#include "loom/loom.hpp"
#include "test_support.hpp"

namespace {

// ---- futures ----------------------------------------------------------------------

loom::future<int> add_awaited(loom::future<int> a, loom::future<int> b) {
    const int x = co_await std::move(a);
    const int y = co_await std::move(b);
    co_return x + y;
}

TEST(Coroutine, ReadyFuturesCompleteInTheCaller) {
    auto f = add_awaited(loom::make_ready_future(20), loom::make_ready_future(22));
    // Nothing to wait for: the coroutine ran to its end inside the call.
    EXPECT_TRUE(f.is_ready());
    EXPECT_EQ(f.get(), 42);
}

TEST(Coroutine, NotReadyFutureSuspendsUntilSet) {
    loom::promise<int> p;
    auto f = add_awaited(p.get_future(), loom::make_ready_future(1));
    EXPECT_FALSE(f.is_ready());  // suspended on p's future, not blocking the caller
    p.set_value(41);
    EXPECT_EQ(f.get(), 42);
}

TEST(Coroutine, AwaitsAsyncResults) {
    auto f = add_awaited(loom::async([] {
                             loom_test::spin_for_us(200);
                             return 40;
                         }),
                         loom::async([] { return 2; }));
    EXPECT_EQ(f.get(), 42);
}

loom::future<int> await_lvalue(loom::future<int>& f) { co_return co_await f; }

TEST(Coroutine, AwaitingAnLvalueFutureConsumesIt) {
    auto f = loom::make_ready_future(5);
    EXPECT_EQ(await_lvalue(f).get(), 5);
    EXPECT_FALSE(f.valid());
}

loom::future<int> await_invalid() {
    loom::future<int> none;
    co_return co_await std::move(none);
}

TEST(Coroutine, AwaitingAnInvalidFutureThrowsNoState) {
    auto f = await_invalid();
    try {
        f.get();
        FAIL() << "co_await on an invalid future must throw";
    } catch (const loom::future_error& e) {
        EXPECT_EQ(e.code(), std::make_error_code(std::future_errc::no_state));
    }
}

loom::future<void> set_after_void(loom::future<void> in, std::atomic<int>& done) {
    co_await std::move(in);
    done.store(1, std::memory_order_relaxed);
}

TEST(Coroutine, VoidFutures) {
    loom::promise<void> p;
    std::atomic<int> done{0};
    auto f = set_after_void(p.get_future(), done);
    EXPECT_EQ(done.load(), 0);
    p.set_value();
    f.get();
    EXPECT_EQ(done.load(), 1);
}

loom::future<std::unique_ptr<int>> boxed_sum(loom::future<std::unique_ptr<int>> a) {
    std::unique_ptr<int> x = co_await std::move(a);
    *x += co_await loom::async([] { return 2; });
    co_return x;
}

TEST(Coroutine, MoveOnlyValues) {
    loom::promise<std::unique_ptr<int>> p;
    auto f = boxed_sum(p.get_future());
    p.set_value(std::make_unique<int>(40));
    std::unique_ptr<int> r = f.get();
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(*r, 42);
}

loom::future<int&> pick(loom::future<int&> in) { co_return co_await std::move(in); }

TEST(Coroutine, ReferenceValues) {
    int x = 7;
    loom::promise<int&> p;
    auto f = pick(p.get_future());
    p.set_value(x);
    EXPECT_EQ(&f.get(), &x);
}

// ---- shared futures -----------------------------------------------------------------

loom::future<int> read_shared(const loom::shared_future<int>& sf, int add) {
    const int& v = co_await sf;
    co_return v + add;
}

TEST(Coroutine, ManyCoroutinesAwaitOneSharedFuture) {
    loom::promise<int> p;
    loom::shared_future<int> sf = p.get_future().share();
    std::vector<loom::future<int>> rs;
    for (int i = 0; i < 50; ++i) rs.push_back(read_shared(sf, i));
    p.set_value(100);
    for (int i = 0; i < 50; ++i) EXPECT_EQ(rs[static_cast<std::size_t>(i)].get(), 100 + i);
    EXPECT_TRUE(sf.valid());
    EXPECT_EQ(sf.get(), 100);
}

TEST(Coroutine, SharedFutureMayDieWhileTheCoroutineWaits) {
    loom::promise<int> p;
    loom::future<int> r;
    {
        loom::shared_future<int> sf = p.get_future().share();
        r = read_shared(sf, 1);  // the coroutine keeps only a reference to sf
    }
    p.set_value(41);
    EXPECT_EQ(r.get(), 42);
}

loom::future<std::string> copy_from_shared(loom::shared_future<std::string> sf) {
    std::string s = co_await std::move(sf);
    co_return s + "!";
}

TEST(Coroutine, RvalueSharedFutureGivesACopy) {
    loom::promise<std::string> p;
    loom::shared_future<std::string> sf = p.get_future().share();
    auto r = copy_from_shared(sf);
    p.set_value("hi");
    EXPECT_EQ(r.get(), "hi!");
    EXPECT_EQ(sf.get(), "hi");
}

loom::shared_future<int> shared_result(loom::future<int> in) { co_return 2 * co_await std::move(in); }

TEST(Coroutine, CoroutineReturningSharedFuture) {
    loom::promise<int> p;
    loom::shared_future<int> sf = shared_result(p.get_future());
    loom::shared_future<int> copy = sf;
    p.set_value(21);
    EXPECT_EQ(sf.get(), 42);
    EXPECT_EQ(copy.get(), 42);
}

// ---- when_all / when_any results are futures ------------------------------------------

loom::future<int> sum_all() {
    auto [a, b, c] = co_await loom::when_all(loom::async([] { return 1; }), loom::async([] { return 2; }),
                                             loom::make_ready_future(3));
    co_return a.get() + b.get() + c.get();
}

loom::future<std::size_t> first_of(std::vector<loom::future<int>> fs) {
    auto any = co_await loom::when_any(std::move(fs));
    co_return any.index;
}

TEST(Coroutine, AwaitsWhenAllAndWhenAny) {
    EXPECT_EQ(sum_all().get(), 6);
    loom::promise<int> never;
    std::vector<loom::future<int>> fs;
    fs.push_back(never.get_future());
    fs.push_back(loom::async([] { return 1; }));
    EXPECT_EQ(first_of(std::move(fs)).get(), 1u);
    never.set_value(0);
}

// ---- exceptions ---------------------------------------------------------------------

loom::future<int> fails_after_await(loom::future<int> in) {
    const int v = co_await std::move(in);
    if (v > 0) throw std::runtime_error("positive");
    co_return v;
}

loom::future<std::string> catches(loom::future<int> in) {
    try {
        co_await fails_after_await(std::move(in));
    } catch (const std::runtime_error& e) {
        co_return std::string("caught ") + e.what();
    }
    co_return "nothing";
}

TEST(Coroutine, ExceptionsTravelThroughFuturesAndAwaits) {
    loom::promise<int> p;
    auto f = fails_after_await(p.get_future());
    p.set_value(1);
    EXPECT_THROW(f.get(), std::runtime_error);

    loom::promise<int> q;
    auto g = catches(q.get_future());
    q.set_value(3);
    EXPECT_EQ(g.get(), "caught positive");

    auto h = catches(loom::make_exceptional_future<int>(std::logic_error("early")));
    EXPECT_THROW(h.get(), std::logic_error);  // not a runtime_error: passes the catch
}

// ---- where a coroutine runs -----------------------------------------------------------

loom::future<int> worker_after_await(loom::future<int> in) {
    const int v = co_await std::move(in);
    co_return loom::ext::current_worker() >= 0 ? v : -1;
}

TEST(Coroutine, StartedOutsideThePoolResumesOnThePool) {
    loom::promise<int> p;
    loom::future<int> r;
    std::thread outside([&] {
        ASSERT_LT(loom::ext::current_worker(), 0);
        r = worker_after_await(p.get_future());
    });
    outside.join();  // the thread ends while the coroutine waits
    loom::post([p = std::move(p)]() mutable { p.set_value(42); });
    EXPECT_EQ(r.get(), 42);
}

TEST(Coroutine, SetFromAThreadOutsideThePoolResumesOnThePool) {
    loom::promise<int> p;
    auto r = loom::async([&] { return worker_after_await(p.get_future()); }).get();
    std::thread outside([&] { p.set_value(9); });
    outside.join();
    EXPECT_EQ(r.get(), 9);
}

loom::future<int> hop_to_pool() {
    co_await loom::resume_on_pool();
    co_return loom::ext::current_worker();
}

TEST(Coroutine, ResumeOnPoolMovesAnOutsideCoroutineOntoThePool) {
    loom::future<int> r;
    std::thread outside([&] { r = hop_to_pool(); });
    outside.join();
    EXPECT_GE(r.get(), 0);
}

struct counted {
    std::atomic<int>* destroyed;
    explicit counted(std::atomic<int>* d) : destroyed(d) {}
    counted(counted&& o) noexcept : destroyed(std::exchange(o.destroyed, nullptr)) {}
    ~counted() {
        if (destroyed != nullptr) destroyed->fetch_add(1, std::memory_order_relaxed);
    }
};

loom::future<int> holds_parameter(counted c, loom::future<int> in) {
    (void)c;
    co_return co_await std::move(in);
}

TEST(Coroutine, FutureIsReadyOnlyAfterTheFrameIsGone) {
    std::atomic<int> destroyed{0};
    loom::promise<int> p;
    auto r = holds_parameter(counted(&destroyed), p.get_future());
    EXPECT_EQ(destroyed.load(), 0);
    loom::post([p = std::move(p)]() mutable { p.set_value(1); });
    EXPECT_EQ(r.get(), 1);
    EXPECT_EQ(destroyed.load(), 1);  // the parameter died before the future was ready
}

// The same for the other outcomes a frame hands over as it ends: an exception, and
// nothing (a coroutine returning future<void>).
loom::future<int> throws_holding_parameter(counted c, loom::future<int> in) {
    (void)c;
    // Not `if (co_await ...)`: gcc 12 miscompiles a co_await in a condition
    // (docs/coroutines.md, "Compilers").
    const int v = co_await std::move(in);
    if (v > 0) throw std::runtime_error("after the wait");
    co_return 0;
}
loom::future<void> void_holding_parameter(counted c, loom::future<int> in) {
    (void)c;
    (void)co_await std::move(in);
}

TEST(Coroutine, ExceptionOrNothingIsReadyOnlyAfterTheFrameIsGone) {
    std::atomic<int> destroyed{0};
    loom::promise<int> p, q;
    auto r = throws_holding_parameter(counted(&destroyed), p.get_future());
    auto v = void_holding_parameter(counted(&destroyed), q.get_future());
    loom::post([p = std::move(p)]() mutable { p.set_value(1); });
    r.wait();
    EXPECT_EQ(destroyed.load(), 1);
    EXPECT_THROW(r.get(), std::runtime_error);
    loom::post([q = std::move(q)]() mutable { q.set_value(1); });
    v.get();
    EXPECT_EQ(destroyed.load(), 2);
}

// A value whose move may throw goes the other way to the end (the frame suspends at
// its end and is destroyed through its handle, after a resumption used its record).
struct move_may_throw {
    int v = 0;
    explicit move_may_throw(int x) : v(x) {}
    move_may_throw(move_may_throw&& o) noexcept(false) : v(o.v) {}
    move_may_throw(const move_may_throw& o) = default;
};
loom::future<move_may_throw> throwing_move_after_waits(loom::future<int> a, loom::future<int> b) {
    const int x = co_await std::move(a);
    const int y = co_await std::move(b);
    co_return move_may_throw(x + y);
}

TEST(Coroutine, ValueWhoseMoveMayThrowAfterSuspensions) {
    static_assert(!std::is_nothrow_move_constructible_v<move_may_throw>);
    for (int i = 0; i < 200; ++i) {
        loom::promise<int> p, q;
        auto r = throwing_move_after_waits(p.get_future(), q.get_future());
        loom::post([p = std::move(p), i]() mutable { p.set_value(i); });
        loom::post([q = std::move(q)]() mutable { q.set_value(1); });
        EXPECT_EQ(r.get().v, i + 1);
    }
}

// Many coroutines on all workers, each awaiting a few tasks.
loom::future<std::int64_t> several_steps(int i) {
    std::int64_t acc = i;
    for (int k = 0; k < 4; ++k) {
        acc += co_await loom::async([i, k] { return std::int64_t(i) * k; });
    }
    co_return acc;
}

TEST(Coroutine, ManyConcurrentCoroutines) {
    const int n = 20000 / loom_test::stress_divisor;
    std::vector<loom::future<std::int64_t>> rs;
    rs.reserve(static_cast<std::size_t>(n));
    auto outer = loom::async([&] {
        for (int i = 0; i < n; ++i) rs.push_back(several_steps(i));
    });
    outer.get();
    for (int i = 0; i < n; ++i) {
        EXPECT_EQ(rs[static_cast<std::size_t>(i)].get(), std::int64_t(i) + std::int64_t(i) * 6);
    }
}

// Two coroutines handing a value back and forth through promises.
loom::future<int> ping(std::vector<loom::promise<int>>& out, std::vector<loom::future<int>>& in) {
    int v = 0;
    for (std::size_t i = 0; i < out.size(); ++i) {
        out[i].set_value(v);
        v = co_await std::move(in[i]) + 1;
    }
    co_return v;
}

TEST(Coroutine, PingPong) {
    const std::size_t n = 2000;
    std::vector<loom::promise<int>> a(n), b(n);
    std::vector<loom::future<int>> af, bf;
    for (std::size_t i = 0; i < n; ++i) {
        af.push_back(a[i].get_future());
        bf.push_back(b[i].get_future());
    }
    auto pong = [&]() -> loom::future<int> {
        for (std::size_t i = 0; i < n; ++i) b[i].set_value(co_await std::move(af[i]) + 1);
        co_return 0;
    };
    auto x = loom::async([&] { return ping(a, bf); });
    auto y = loom::async([&] { return pong(); });
    EXPECT_EQ(x.get().get(), static_cast<int>(2 * n));
    y.get().get();
}

// A coroutine suspends many times; each time it is resumed through the same task (the
// header of its frame's record).
loom::future<long> relay(long n) {
    long v = 0;
    while (v < n) {
        loom::promise<long> p;
        auto f = p.get_future();
        loom::post([p = std::move(p), v]() mutable { p.set_value(v + 1); });
        v = co_await std::move(f);
    }
    co_return v;
}

TEST(Coroutine, ManySuspensionsOfOneCoroutine) {
    const long n = 20000 / loom_test::stress_divisor;
    EXPECT_EQ(relay(n).get(), n);
    EXPECT_EQ(loom::async(relay, n).get().get(), n);
}

// A parameter whose move constructor starts a coroutine of its own runs between the
// allocation of the outer frame and its promise: the outer coroutine must still be
// resumed right (by records of its own).
loom::future<int> pass_through(loom::future<int> f) { co_return co_await std::move(f); }

struct starts_a_coroutine {
    loom::future<int> inner;
    starts_a_coroutine() = default;
    starts_a_coroutine(starts_a_coroutine&& o) noexcept : inner(pass_through(std::move(o.inner))) {}
};

loom::future<int> with_odd_parameter(starts_a_coroutine s, loom::future<int> in) {
    const int a = co_await std::move(in);
    const int b = co_await std::move(s.inner);
    co_return a + b;
}

TEST(Coroutine, ParameterThatStartsACoroutine) {
    loom::promise<int> p, q;
    starts_a_coroutine s;
    s.inner = q.get_future();
    auto r = with_odd_parameter(std::move(s), p.get_future());
    loom::post([p = std::move(p)]() mutable { p.set_value(10); });
    loom::post([q = std::move(q)]() mutable { q.set_value(32); });
    EXPECT_EQ(r.get(), 42);
}

// A coroutine type that is not loom's awaits loom futures and lazies.
struct detached {
    struct promise_type {
        detached get_return_object() noexcept { return {}; }
        std::suspend_never initial_suspend() noexcept { return {}; }
        std::suspend_never final_suspend() noexcept { return {}; }
        void return_void() noexcept {}
        void unhandled_exception() noexcept { std::terminate(); }
    };
};

loom::lazy<int> lazy_plus(int a, loom::future<int> b) { co_return a + co_await std::move(b); }

detached foreign(loom::future<int> in, loom::promise<int>& out) {
    const int a = co_await std::move(in);
    loom::promise<int> later;
    auto lf = later.get_future();
    loom::post([later = std::move(later)]() mutable { later.set_value(2); });
    out.set_value(co_await lazy_plus(a, std::move(lf)));
}

TEST(Coroutine, OtherCoroutineTypesAwaitLoomFuturesAndLazies) {
    loom::promise<int> in, out;
    auto result = out.get_future();
    foreign(in.get_future(), out);
    loom::post([in = std::move(in)]() mutable { in.set_value(40); });
    EXPECT_EQ(result.get(), 42);
}

// ---- lazy ---------------------------------------------------------------------------

loom::lazy<long> chain(int n) {
    if (n == 0) co_return 0;
    co_return 1 + co_await chain(n - 1);
}

TEST(Lazy, StartsOnlyWhenAwaited) {
    std::atomic<int> ran{0};
    auto body = [&]() -> loom::lazy<int> {
        ran.fetch_add(1);
        co_return 3;
    };
    {
        auto never = body();
        EXPECT_TRUE(never.valid());
    }
    EXPECT_EQ(ran.load(), 0);  // destroyed without running
    auto t = body();
    EXPECT_EQ(ran.load(), 0);
    EXPECT_EQ(loom::start(std::move(t)).get(), 3);
    EXPECT_EQ(ran.load(), 1);
    EXPECT_FALSE(t.valid());  // NOLINT(bugprone-use-after-move): awaited lazies are empty
}

constexpr int deep = 100000;

TEST(Lazy, DeepChainOnTheMainThread) { EXPECT_EQ(loom::start(chain(deep)).get(), deep); }

TEST(Lazy, DeepChainOnAFiber) {
    // A task runs on a worker's fiber (LOOM_STACKSIZE, 1 MiB by default): 10^5 nested
    // resumptions of even 16 bytes each would not fit.
    EXPECT_EQ(loom::async([] { return loom::start(chain(deep)).get(); }).get(), deep);
}

// Every 1000th level waits for a task: the chain is resumed from the pool many times.
loom::lazy<long> chain_with_waits(int n) {
    if (n == 0) co_return 0;
    long here = 1;
    if (n % 1000 == 0) here = co_await loom::async([] { return 1L; });
    co_return here + co_await chain_with_waits(n - 1);
}

TEST(Lazy, DeepChainWithSuspensions) {
    EXPECT_EQ(loom::async([] { return loom::start(chain_with_waits(deep)).get(); }).get(), deep);
}

loom::lazy<long> throws_at_bottom(int n) {
    if (n == 0) throw std::runtime_error("bottom");
    co_return 1 + co_await throws_at_bottom(n - 1);
}

TEST(Lazy, ExceptionFromTheBottomOfADeepChain) {
    auto f = loom::start(throws_at_bottom(deep));
    try {
        f.get();
        FAIL() << "the exception must reach the top";
    } catch (const std::runtime_error& e) {
        EXPECT_STREQ(e.what(), "bottom");
    }
}

loom::lazy<void> set_flag(std::atomic<int>& flag) {
    flag.store(1);
    co_return;
}
loom::lazy<int&> ref_to(int& x) { co_return x; }

TEST(Lazy, VoidAndReferenceResults) {
    std::atomic<int> flag{0};
    loom::start(set_flag(flag)).get();
    EXPECT_EQ(flag.load(), 1);
    int x = 1;
    int& r = loom::start(ref_to(x)).get();
    EXPECT_EQ(&r, &x);
}

loom::lazy<std::unique_ptr<int>> make_box(int v) { co_return std::make_unique<int>(v); }
loom::lazy<int> unbox() {
    auto b = co_await make_box(41);
    co_return *b + 1;
}

TEST(Lazy, MoveOnlyResults) { EXPECT_EQ(loom::start(unbox()).get(), 42); }

loom::lazy<std::int64_t> lazy_fib(int n) {
    if (n < 2) co_return n;
    auto a = loom::spawn(lazy_fib(n - 1));
    std::int64_t b = co_await lazy_fib(n - 2);
    co_return co_await std::move(a) + b;
}

TEST(Lazy, SpawnedRecursionAcrossWorkers) {
    const int n = loom_test::stress_divisor > 1 ? 18 : 23;
    EXPECT_EQ(static_cast<std::uint64_t>(loom::start(lazy_fib(n)).get()), loom_test::fib_serial(n));
    EXPECT_EQ(static_cast<std::uint64_t>(loom::spawn(lazy_fib(n)).get()), loom_test::fib_serial(n));
}

TEST(Lazy, SpawnWithPriority) {
    EXPECT_EQ(loom::spawn(loom::priority::high, chain(100)).get(), 100);
}

loom::lazy<int> awaits_future_inside(loom::promise<int>& p) { co_return 1 + co_await p.get_future(); }

TEST(Lazy, AwaitsFuturesInside) {
    loom::promise<int> p;
    auto f = loom::start(awaits_future_inside(p));
    EXPECT_FALSE(f.is_ready());
    loom::post([&p] { p.set_value(41); });
    EXPECT_EQ(f.get(), 42);
}

loom::lazy<int> lazy_throws() {
    co_await loom::resume_on_pool();
    throw std::out_of_range("lazy");
}
loom::lazy<int> lazy_catches() {
    try {
        co_return co_await lazy_throws();
    } catch (const std::out_of_range&) {
        co_return -1;
    }
}

TEST(Lazy, ExceptionsAfterASuspension) {
    EXPECT_EQ(loom::start(lazy_catches()).get(), -1);
    EXPECT_THROW(loom::spawn(lazy_throws()).get(), std::out_of_range);
}

loom::future<int> plus_one_noting_worker(loom::future<int> prev, int& where) {
    const int v = co_await std::move(prev);
    where = loom::ext::current_worker();
    co_return v + 1;
}

// A chain of coroutines, each awaiting the one before: each resumes on the worker the
// one before ended on (its end keeps the resumption there, ext::begin_final_release).
TEST(Coroutine, AChainOfAwaitsStaysOnOneWorker) {
    const int moved = loom_test::chain_hops_that_moved(200, [](loom::future<int> prev, int& where) {
        return plus_one_noting_worker(std::move(prev), where);
    });
    EXPECT_EQ(moved, 0) << "hops that resumed on another worker than the hop before (-1: wrong count)";
}

}  // namespace
