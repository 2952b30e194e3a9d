// Stress tests that would catch a broken scheduler or a lost wake-up.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <random>
#include <thread>
#include <vector>

#include "loom/loom.hpp"
#include "test_support.hpp"

namespace {

using loom_test::fib_serial;

TEST(Stress, MillionTinyTasks) {
    const int n = 1000000 / loom_test::stress_divisor;
    std::atomic<long> sum{0};
    loom::latch done(n);
    for (int i = 0; i < n; ++i) {
        loom::post([&sum, &done, i] {
            sum.fetch_add(i & 7, std::memory_order_relaxed);
            done.count_down();
        });
    }
    done.wait();
    long expect = 0;
    for (int i = 0; i < n; ++i) expect += i & 7;
    EXPECT_EQ(sum.load(), expect);
}

TEST(Stress, MillionTinyTasksPostedFromATask) {
    // Same, but submitted from a worker (its own deque, stolen from by the others).
    const int n = 1000000 / loom_test::stress_divisor;
    std::atomic<long> count{0};
    loom::latch done(n);
    loom::post([&] {
        for (int i = 0; i < n; ++i) {
            loom::post([&] {
                count.fetch_add(1, std::memory_order_relaxed);
                done.count_down();
            });
        }
    });
    done.wait();
    EXPECT_EQ(count.load(), n);
}

std::uint64_t fib_fj(int n) {
    if (n < 2) return static_cast<std::uint64_t>(n);
    std::uint64_t a = 0, b = 0;
    loom::fork_join([&] { a = fib_fj(n - 1); }, [&] { b = fib_fj(n - 2); });
    return a + b;
}

std::uint64_t fib_group(int n) {
    if (n < 2) return static_cast<std::uint64_t>(n);
    std::uint64_t a = 0, b = 0;
    loom::task_group g;
    g.spawn([&] { a = fib_group(n - 1); });
    g.spawn([&] { b = fib_group(n - 2); });
    g.wait();
    return a + b;
}

std::uint64_t fib_futures(int n) {
    if (n < 2) return static_cast<std::uint64_t>(n);
    auto a = loom::async(fib_futures, n - 1);
    const std::uint64_t b = fib_futures(n - 2);
    return a.get() + b;
}

TEST(Stress, Fib27ForkJoin) { EXPECT_EQ(loom::async(fib_fj, 27).get(), fib_serial(27)); }
TEST(Stress, Fib27ForkJoinFromMain) { EXPECT_EQ(fib_fj(27), fib_serial(27)); }
TEST(Stress, Fib24TaskGroup) { EXPECT_EQ(loom::async(fib_group, 24).get(), fib_serial(24)); }
TEST(Stress, Fib27Futures) { EXPECT_EQ(loom::async(fib_futures, 27).get(), fib_serial(27)); }

// ---- random DAGs ------------------------------------------------------------------

struct dag {
    std::vector<std::vector<int>> preds;
};

dag make_dag(std::uint32_t seed, int n) {
    std::mt19937 rng(seed);
    dag d;
    d.preds.resize(static_cast<std::size_t>(n));
    for (int i = 1; i < n; ++i) {
        const int k = std::uniform_int_distribution<int>(0, std::min(i, 4))(rng);
        for (int j = 0; j < k; ++j) {
            // Mostly near predecessors (long chains), sometimes far ones (wide joins).
            const int lo = (rng() % 4 == 0) ? 0 : std::max(0, i - 16);
            d.preds[static_cast<std::size_t>(i)].push_back(std::uniform_int_distribution<int>(lo, i - 1)(rng));
        }
    }
    return d;
}

std::uint64_t node_value(int i, const std::vector<std::uint64_t>& in) {
    std::uint64_t v = 0x9e3779b97f4a7c15ULL * static_cast<std::uint64_t>(i + 1);
    for (std::uint64_t x : in) v = (v ^ x) * 0x100000001b3ULL + (v >> 29);
    return v;
}

std::vector<std::uint64_t> eval_serial(const dag& d) {
    std::vector<std::uint64_t> val(d.preds.size());
    for (std::size_t i = 0; i < d.preds.size(); ++i) {
        std::vector<std::uint64_t> in;
        for (int p : d.preds[i]) in.push_back(val[static_cast<std::size_t>(p)]);
        val[i] = node_value(static_cast<int>(i), in);
    }
    return val;
}

std::vector<std::uint64_t> eval_loom(const dag& d) {
    const std::size_t n = d.preds.size();
    std::vector<loom::shared_future<std::uint64_t>> fut(n);
    for (std::size_t i = 0; i < n; ++i) {
        std::vector<loom::shared_future<std::uint64_t>> in;
        for (int p : d.preds[i]) in.push_back(fut[static_cast<std::size_t>(p)]);
        const int id = static_cast<int>(i);
        auto compute = [id](std::vector<loom::shared_future<std::uint64_t>> ready) {
            std::vector<std::uint64_t> vals;
            for (auto& f : ready) {
                EXPECT_TRUE(f.is_ready());
                vals.push_back(f.get());
            }
            return node_value(id, vals);
        };
        switch (i % 3) {
            case 0:  // dataflow over a vector of futures
                fut[i] = loom::dataflow(compute, std::move(in));
                break;
            case 1:  // when_all + then
                fut[i] = loom::when_all(std::move(in))
                             .then([compute](loom::future<std::vector<loom::shared_future<std::uint64_t>>> all) {
                                 return compute(all.get());
                             });
                break;
            default:  // variadic dataflow on the first two inputs + values
                if (in.size() >= 2) {
                    auto a = in[0];
                    auto b = in[1];
                    fut[i] = loom::dataflow(
                        [compute](loom::shared_future<std::uint64_t> x, loom::shared_future<std::uint64_t> y,
                                  std::vector<loom::shared_future<std::uint64_t>> all) {
                            EXPECT_TRUE(x.is_ready() && y.is_ready());
                            return compute(std::move(all));
                        },
                        a, b, std::move(in));
                } else {
                    // async + waiting inside the task (suspends it)
                    fut[i] = loom::async([compute, in = std::move(in)]() mutable {
                        loom::wait_all(in);
                        return compute(in);
                    });
                }
                break;
        }
    }
    std::vector<std::uint64_t> val(n);
    for (std::size_t i = 0; i < n; ++i) val[i] = fut[i].get();
    return val;
}

TEST(Stress, RandomDagsMatchSerial) {
    for (std::uint32_t seed : {1u, 2u, 3u}) {
        const dag d = make_dag(seed, 10000);
        EXPECT_EQ(eval_loom(d), eval_serial(d)) << "seed " << seed;
    }
}

TEST(Stress, RandomDagBuiltInsideATask) {
    const dag d = make_dag(42, 10000);
    auto r = loom::async([&d] { return eval_loom(d); });
    EXPECT_EQ(r.get(), eval_serial(d));
}

// ---- waiting on work queued behind the waiter -----------------------------------------

TEST(Stress, WaitOnPromiseSetByTaskQueuedBehind) {
    // Pushed first (deeper in the deque): the producer. Pushed last (runs first on a
    // single worker): the waiter, which must suspend so the producer can run.
    auto r = loom::async([] {
        loom::promise<int> p;
        auto f = p.get_future();
        auto producer = loom::async([&p] { p.set_value(41); });
        auto waiter = loom::async([&f] { return f.get() + 1; });
        const int v = waiter.get();
        producer.get();
        return v;
    });
    EXPECT_EQ(r.get(), 42);
}

TEST(Stress, WaitOnAsyncQueuedBehindPostedWork) {
    loom::promise<loom::shared_future<int>> handoff;
    auto hf = handoff.get_future().share();
    std::atomic<int> result{0};
    loom::latch done(1);
    // The waiter is queued first and runs (on one worker) before the producer exists.
    loom::post([hf, &result, &done] {
        result = hf.get().get() + 1;
        done.count_down();
    });
    loom::post([&handoff] { handoff.set_value(loom::async([] { return 99; }).share()); });
    done.wait();
    EXPECT_EQ(result.load(), 100);
}

TEST(Stress, ChainOfWaitersEachWaitingOnTheNext) {
    // Task i waits for task i+1, spawned after it: on one worker every task but the
    // last suspends.
    constexpr int n = 300;
    std::vector<loom::promise<int>> ps(n + 1);
    std::vector<loom::shared_future<int>> fs;
    for (auto& p : ps) fs.push_back(p.get_future().share());
    loom::latch done(n);
    for (int i = 0; i < n; ++i) {
        loom::post([&, i] {
            ps[static_cast<std::size_t>(i)].set_value(fs[static_cast<std::size_t>(i) + 1].get() + 1);
            done.count_down();
        });
    }
    loom::post([&] { ps[n].set_value(0); });
    done.wait();
    EXPECT_EQ(fs[0].get(), n);
}

// ---- many suspended at once -------------------------------------------------------------

TEST(Stress, ThousandTasksSuspendedOnALatch) {
    constexpr int n = 1000;
    loom::latch gate(1);
    loom::latch arrived(n);
    loom::latch done(n);
    std::atomic<int> after{0};
    const auto before = loom::total(loom::stats());
    for (int i = 0; i < n; ++i) {
        loom::post([&] {
            arrived.count_down();
            gate.wait();
            ++after;
            done.count_down();
        });
    }
    arrived.wait();
    EXPECT_EQ(after.load(), 0);
    gate.count_down();
    done.wait();
    EXPECT_EQ(after.load(), n);
    const auto now = loom::total(loom::stats());
    EXPECT_GE(now.suspensions - before.suspensions, static_cast<std::uint64_t>(n / 2));
}

TEST(Stress, ThousandTasksSuspendedOnAPromise) {
    constexpr int n = 1000;
    loom::promise<int> p;
    auto sf = p.get_future().share();
    loom::latch arrived(n);
    std::vector<loom::future<int>> rs;
    rs.reserve(n);
    for (int i = 0; i < n; ++i) {
        rs.push_back(loom::async([sf, i, &arrived] {
            arrived.count_down();
            return sf.get() + i;
        }));
    }
    arrived.wait();
    p.set_value(1);
    long sum = 0;
    for (auto& r : rs) sum += r.get();
    EXPECT_EQ(sum, static_cast<long>(n) + static_cast<long>(n) * (n - 1) / 2);
}

// ---- outside threads ------------------------------------------------------------------

TEST(Stress, OutsideThreadsSubmitAndWaitConcurrently) {
    constexpr int threads = 4;
    const int per_thread = 2000 / loom_test::stress_divisor;
    std::atomic<int> ok{0};
    loom::latch finished(threads);
    std::vector<std::thread> ts;
    for (int t = 0; t < threads; ++t) {
        ts.emplace_back([&, t] {
            std::vector<loom::future<int>> fs;
            for (int i = 0; i < per_thread; ++i) fs.push_back(loom::async([t, i] { return t * i; }));
            long s = 0;
            for (auto& f : fs) s += f.get();
            auto all = loom::when_all(loom::async([] { return 1; }), loom::async([] { return 2; })).get();
            loom::task_group g;
            std::atomic<int> c{0};
            for (int i = 0; i < 50; ++i) g.spawn([&] { ++c; });
            g.wait();
            if (s == static_cast<long>(t) * per_thread * (per_thread - 1) / 2 &&
                std::get<0>(all).get() + std::get<1>(all).get() == 3 && c.load() == 50) {
                ++ok;
            }
            finished.count_down();
        });
    }
    finished.wait();  // a loom wait: with one worker this thread runs their tasks
    for (auto& th : ts) th.join();
    EXPECT_EQ(ok.load(), threads);
}

}  // namespace
