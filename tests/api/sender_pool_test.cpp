// Senders on loom's pool: where work runs (schedule, continues_on, starts_on, a
// scheduler off the pool), sync_wait from the main thread, another thread and from loom
// tasks (which must park, not block their worker), bulk, split with several consumers,
// ensure_started, start_detached.
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <numeric>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "loom/async.hpp"
#include "loom/future.hpp"
#include "loom/latch.hpp"
#include "loom/runtime.hpp"
#include "loom/sender.hpp"
#include "sender_support.hpp"

namespace {

namespace ex = loom::execution::experimental;
namespace tt = loom::this_thread::experimental;
using loom_test::outcome;

/// Runs f on a thread outside loom's pool and returns what it returned.
template <class F>
auto on_foreign_thread(F f) {
    decltype(f()) result{};
    std::thread t([&] { result = f(); });
    t.join();
    return result;
}

// ---- where work runs -------------------------------------------------------------------------

TEST(SenderPool, ScheduleRunsOnAWorker) {
    const int w = on_foreign_thread([] {
        EXPECT_EQ(loom::this_worker(), -1);
        auto [v] = tt::sync_wait(ex::schedule(ex::pool_scheduler()) | ex::then([] { return loom::this_worker(); })).value();
        return v;
    });
    EXPECT_GE(w, 0);
}

TEST(SenderPool, ContinuesOnMovesOntoThePool) {
    const auto [before, after] = on_foreign_thread([] {
        return std::get<0>(tt::sync_wait(ex::just() | ex::then([] { return loom::this_worker(); }) |
                                         ex::continues_on(ex::pool_scheduler()) |
                                         ex::then([](int b) { return std::make_pair(b, loom::this_worker()); }))
                               .value());
    });
    EXPECT_EQ(before, -1);  // just() completes in start(), on the calling thread
    EXPECT_GE(after, 0);    // after the hop: on a worker
}

TEST(SenderPool, StartsOnStartsOnThePool) {
    const int w = on_foreign_thread([] {
        auto [v] = tt::sync_wait(ex::starts_on(ex::pool_scheduler(), ex::just() | ex::then([] {
                                                   return loom::this_worker();
                                               })))
                       .value();
        return v;
    });
    EXPECT_GE(w, 0);
}

/// Sends the scheduler its receiver's environment names.
struct probe {
    using sender_concept = ex::sender_t;
    using completion_signatures = ex::completion_signatures<ex::set_value_t(ex::pool_scheduler)>;
    template <class R>
    struct operation {
        using operation_state_concept = ex::operation_state_t;
        R rcvr;
        void start() & noexcept { ex::set_value(std::move(rcvr), ex::get_scheduler(ex::get_env(rcvr))); }
    };
    template <class R>
    operation<std::decay_t<R>> connect(R&& r) const {
        return {std::forward<R>(r)};
    }
};

TEST(SenderPool, StartsOnNamesTheSchedulerInTheEnvironment) {
    const ex::pool_scheduler high(loom::priority::high);
    auto [sch] = tt::sync_wait(ex::starts_on(high, probe{})).value();
    EXPECT_EQ(sch, high);
}

TEST(SenderPool, HopsBetweenThePoolAndAThreadOfItsOwn) {
    loom_test::thread_scheduler_loop loop;
    auto r = tt::sync_wait(ex::schedule(ex::pool_scheduler()) | ex::continues_on(loop.get_scheduler()) |
                           ex::then([] { return std::make_pair(loom::this_worker(), std::this_thread::get_id()); }) |
                           ex::continues_on(ex::pool_scheduler()) |
                           ex::then([](std::pair<int, std::thread::id> p) { return std::make_tuple(p, loom::this_worker()); }));
    ASSERT_TRUE(r.has_value());
    const auto& [off_pool, back] = std::get<0>(*r);
    EXPECT_EQ(off_pool.first, -1);          // on the loop's thread, not a worker
    EXPECT_EQ(off_pool.second, loop.id());
    EXPECT_GE(back, 0);                     // and back on a worker
}

// ---- sync_wait ----------------------------------------------------------------------------------

TEST(SenderPool, SyncWaitFromMainAndOtherThreads) {
    auto chain = [] {
        return ex::schedule(ex::pool_scheduler()) | ex::then([] { return 20; }) |
               ex::continues_on(ex::pool_scheduler()) | ex::then([](int v) { return v * 2 + 2; });
    };
    EXPECT_EQ(std::get<0>(tt::sync_wait(chain()).value()), 42);  // the test's main thread
    std::vector<std::thread> threads;
    std::atomic<int> sum{0};
    for (int i = 0; i < 4; ++i) {
        threads.emplace_back([&] { sum += std::get<0>(tt::sync_wait(chain()).value()); });
    }
    for (auto& t : threads) t.join();
    EXPECT_EQ(sum.load(), 4 * 42);
}

TEST(SenderPool, SyncWaitInTasksParksInsteadOfBlocking) {
    // Twice as many tasks as workers wait at once, each for work that needs a worker of
    // its own: if a waiting sync_wait held its worker, no worker would be left for the
    // work and this would never finish.
    const int tasks = static_cast<int>(loom::num_threads()) * 2;
    loom::latch all_waiting(tasks);
    std::vector<loom::future<int>> results;
    for (int i = 0; i < tasks; ++i) {
        results.push_back(loom::async([i, &all_waiting] {
            all_waiting.arrive_and_wait();
            auto [v] = tt::sync_wait(ex::schedule(ex::pool_scheduler()) | ex::then([i] { return i; })).value();
            return v;
        }));
    }
    int sum = 0;
    for (auto& f : results) sum += f.get();
    EXPECT_EQ(sum, tasks * (tasks - 1) / 2);
}

// ---- bulk ------------------------------------------------------------------------------------

TEST(SenderPool, BulkVisitsEveryIndexOnce) {
    for (int n : {1, 7, 1000, 100003}) {
        std::vector<std::atomic<int>> hits(static_cast<std::size_t>(n));
        auto r = tt::sync_wait(ex::schedule(ex::pool_scheduler()) | ex::then([n] { return std::vector<long>(static_cast<std::size_t>(n)); }) |
                               ex::bulk(n, [&hits](int i, std::vector<long>& out) {
                                   hits[static_cast<std::size_t>(i)].fetch_add(1, std::memory_order_relaxed);
                                   out[static_cast<std::size_t>(i)] = static_cast<long>(i) * i;
                               }));
        ASSERT_TRUE(r.has_value());
        const auto& out = std::get<0>(*r);
        for (int i = 0; i < n; ++i) {
            ASSERT_EQ(hits[static_cast<std::size_t>(i)].load(), 1) << "n=" << n << " i=" << i;
            ASSERT_EQ(out[static_cast<std::size_t>(i)], static_cast<long>(i) * i);
        }
    }
}

TEST(SenderPool, BulkSequentialRunsInOrderHere) {
    std::vector<int> order;
    auto r = tt::sync_wait(ex::just(3) | ex::bulk(loom::execution::seq, 5, [&order](int i, int k) {
                               order.push_back(i * k);
                           }));
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(order, (std::vector<int>{0, 3, 6, 9, 12}));
    EXPECT_EQ(std::get<0>(*r), 3);
}

TEST(SenderPool, BulkParallelPolicySum) {
    std::atomic<long> sum{0};
    auto r = tt::sync_wait(ex::just(2L) | ex::bulk(loom::execution::par, 10000, [&sum](int i, long k) {
                               sum.fetch_add(i * k, std::memory_order_relaxed);
                           }));
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(sum.load(), 2L * 9999 * 10000 / 2);
}

// ---- split / ensure_started / start_detached ----------------------------------------------------

TEST(SenderPool, SplitRunsOnceForManyConsumers) {
    std::atomic<int> runs{0};
    auto shared = ex::split(ex::schedule(ex::pool_scheduler()) | ex::then([&runs] {
                                runs.fetch_add(1);
                                return std::make_shared<int>(7);
                            }));
    auto add = [](const std::shared_ptr<int>& p) { return *p; };
    auto r = tt::sync_wait(ex::when_all(shared | ex::then(add), shared | ex::then(add), shared | ex::then(add),
                                        shared | ex::continues_on(ex::pool_scheduler()) | ex::then(add)));
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(std::apply([](auto... v) { return (v + ...); }, *r), 28);
    // Consumers from several tasks at once, some before and some after completion.
    std::vector<loom::future<int>> more;
    for (int i = 0; i < 16; ++i) {
        more.push_back(loom::async([shared, add] { return std::get<0>(tt::sync_wait(shared | ex::then(add)).value()); }));
    }
    for (auto& f : more) EXPECT_EQ(f.get(), 7);
    EXPECT_EQ(runs.load(), 1);
}

TEST(SenderPool, EnsureStartedRunsWithoutAConsumer) {
    std::atomic<bool> ran{false};
    auto es = ex::ensure_started(ex::schedule(ex::pool_scheduler()) | ex::then([&ran] {
                                     ran.store(true);
                                     return 5;
                                 }));
    while (!ran.load()) std::this_thread::yield();  // nobody has connected yet
    EXPECT_EQ(outcome(std::move(es)), "value:5");
}

TEST(SenderPool, StartDetachedCompletes) {
    constexpr int n = 1000;
    loom::latch done(n);
    std::atomic<int> sum{0};
    for (int i = 0; i < n; ++i) {
        ex::start_detached(ex::schedule(ex::pool_scheduler()) | ex::then([i, &sum, &done] {
                               sum.fetch_add(i);
                               done.count_down();
                           }));
    }
    done.wait();
    EXPECT_EQ(sum.load(), n * (n - 1) / 2);
}

TEST(SenderPool, WhenAllOfPoolWork) {
    ex::pool_scheduler sch;
    auto part = [sch](int k) { return ex::schedule(sch) | ex::then([k] { return k * k; }); };
    auto r = tt::sync_wait(ex::when_all(part(1), part(2), part(3), part(4)));
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(*r, std::make_tuple(1, 4, 9, 16));
}

TEST(SenderPool, PriorityScheduler) {
    const ex::pool_scheduler normal;
    const auto high = normal.with_priority(loom::priority::high);
    EXPECT_EQ(normal.priority(), loom::priority::normal);
    EXPECT_EQ(high.priority(), loom::priority::high);
    EXPECT_NE(normal, high);
    EXPECT_EQ(high, ex::get_pool_scheduler(loom::priority::high));
    EXPECT_EQ(ex::get_forward_progress_guarantee(high), ex::forward_progress_guarantee::parallel);
    EXPECT_EQ(outcome(ex::schedule(high) | ex::then([] { return 1; }) |
                      ex::continues_on(normal.with_priority(loom::priority::low)) | ex::then([](int v) { return v + 1; })),
              "value:2");
}

}  // namespace
