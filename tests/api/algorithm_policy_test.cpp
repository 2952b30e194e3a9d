// What the execution policies promise beyond results: exceptions (par rethrows the
// first one after the started chunks finish; par_unseq / unseq terminate), par(task)
// futures, the calling thread taking part, num_cores, executors with a priority,
// nesting inside tasks, and the range forms.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <numeric>
#include <ranges>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include "algorithm_support.hpp"
#include "test_support.hpp"
#include "loom/algorithm.hpp"
#include "loom/async.hpp"
#include "loom/numeric.hpp"
#include "loom/ranges.hpp"
#include "loom/runtime.hpp"
#include "loom/task_group.hpp"

namespace {

namespace ex = loom::execution;
using loom_test::random_ints;

/// Runs a throwing call under each parallel chunk parameter.
template <class Fn>
void for_each_par_policy(Fn&& fn) {
    loom_test::for_each_policy([&](const auto& pol, const char* name) {
        if constexpr (std::remove_cvref_t<decltype(pol)>::kind == ex::policy_kind::par) fn(pol, name);
    });
}

TEST(AlgorithmExceptions, ParRethrowsTheFirstAfterStartedChunksFinish) {
    for_each_par_policy([](const auto& pol, const char* name) {
        SCOPED_TRACE(name);
        std::vector<int> v(100000, 1);
        std::atomic<int> running{0};
        std::atomic<bool> overlap_after_return{false};
        try {
            loom::for_each(pol, v.begin(), v.end(), [&](int& x) {
                ++running;
                if (&x - v.data() == 50000) throw std::runtime_error("element 50000");
                --running;
            });
            ADD_FAILURE() << "no exception";
        } catch (const std::runtime_error& e) {
            EXPECT_STREQ(e.what(), "element 50000");
        }
        // Every started chunk finished before the rethrow: only the throwing
        // iteration is still counted.
        overlap_after_return = running.load() != 1;
        EXPECT_FALSE(overlap_after_return.load());
    });
}

TEST(AlgorithmExceptions, DefaultScheduleRethrowsFromTheProbeAndFromTheRest) {
    // The default schedule first runs and times the range's start on the caller, then
    // runs the rest inline (cheap ranges) or in parallel: an exception thrown in either
    // part, at the seams too, reaches the caller, and reduce still sums when none is.
    for (std::size_t n : {1000UL, 10000UL, 1000000UL}) {
        std::vector<long> v(n, 1);
        for (std::size_t at : {std::size_t(0), std::size_t(1), n / 128, n / 16 - 1, n / 16, n / 2, n - 1}) {
            SCOPED_TRACE(testing::Message() << "n " << n << " throw at " << at);
            EXPECT_THROW(loom::for_each(ex::par, v.begin(), v.end(),
                                        [&](long& x) {
                                            if (std::size_t(&x - v.data()) == at) throw std::runtime_error("x");
                                        }),
                         std::runtime_error);
        }
        EXPECT_EQ(loom::reduce(ex::par, v.begin(), v.end(), 0L), long(n));
    }
}

TEST(AlgorithmExceptions, EveryFamilyRethrowsUnderPar) {
    std::vector<int> v = random_ints(50000, 0, 1000);
    auto boom = [](int x) -> int {
        if (x == 500) throw std::logic_error("boom");
        return x;
    };
    std::vector<long> out(v.size());
    EXPECT_THROW(loom::transform(ex::par, v.begin(), v.end(), out.begin(), boom), std::logic_error);
    EXPECT_THROW(loom::reduce(ex::par, v.begin(), v.end(), 0,
                              [](int a, int b) -> int {
                                  if (b == 500 || a == 500) throw std::logic_error("op");
                                  return a + b;
                              }),
                 std::logic_error);
    EXPECT_THROW(loom::transform_reduce(ex::par, v.begin(), v.end(), 0L, std::plus<>{}, boom), std::logic_error);
    EXPECT_THROW(loom::transform_inclusive_scan(ex::par, v.begin(), v.end(), out.begin(), std::plus<>{}, boom),
                 std::logic_error);
    EXPECT_THROW(loom::count_if(ex::par, v.begin(), v.end(), [&](int x) { return boom(x) > 3; }), std::logic_error);
    EXPECT_THROW(loom::copy_if(ex::par, v.begin(), v.end(), out.begin(), [&](int x) { return boom(x) > 3; }),
                 std::logic_error);
    std::vector<int> w(100000);
    std::iota(w.begin(), w.end(), 0);
    std::reverse(w.begin(), w.end());
    auto w2 = w;
    EXPECT_THROW(loom::sort(ex::par, w.begin(), w.end(), [](int a, int b) {
        if (a == 777 || b == 777) throw std::logic_error("comp");
        return a < b;
    }), std::logic_error);
    EXPECT_THROW(loom::stable_sort(ex::par, w2.begin(), w2.end(), [](int a, int b) {
        if (a == 777 || b == 777) throw std::logic_error("comp");
        return a < b;
    }), std::logic_error);
    // The pool is fine afterwards.
    EXPECT_EQ(loom::reduce(ex::par, v.begin(), v.end(), 0L), std::accumulate(v.begin(), v.end(), 0L));
}

TEST(AlgorithmExceptions, SeqLetsTheExceptionPropagate) {
    std::vector<int> v(10, 0);
    EXPECT_THROW(loom::for_each(ex::seq, v.begin(), v.end(), [](int) { throw std::out_of_range("seq"); }),
                 std::out_of_range);
}

TEST(AlgorithmExceptionsDeathTest, ParUnseqAndUnseqTerminate) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    auto throwing = [](int) { throw std::runtime_error("unseq"); };
    EXPECT_DEATH(
        {
            std::vector<int> v(10000, 0);
            loom::for_each(ex::par_unseq, v.begin(), v.end(), throwing);
        },
        "");
    EXPECT_DEATH(
        {
            std::vector<int> v(10, 0);
            loom::for_each(ex::unseq, v.begin(), v.end(), throwing);
        },
        "");
}

TEST(AlgorithmTasks, ParTaskReturnsFutures) {
    std::vector<int> v = random_ints(100000, 0, 1000);
    loom::future<long> sum = loom::reduce(ex::par(ex::task), v.begin(), v.end(), 0L);
    EXPECT_EQ(sum.get(), std::accumulate(v.begin(), v.end(), 0L));
    std::vector<int> s = v;
    loom::future<void> sorted = loom::sort(ex::par(ex::task).with(ex::static_chunk_size(5000)), s.begin(), s.end());
    sorted.get();
    EXPECT_TRUE(std::is_sorted(s.begin(), s.end()));
    loom::future<std::vector<int>::iterator> found = loom::find(ex::seq(ex::task), v.begin(), v.end(), v[777]);
    EXPECT_EQ(found.get(), std::find(v.begin(), v.end(), v[777]));
    auto chained = loom::count(ex::par_unseq(ex::task), v.begin(), v.end(), 3).then([](auto f) { return f.get() * 2; });
    EXPECT_EQ(chained.get(), 2 * std::count(v.begin(), v.end(), 3));
}

TEST(AlgorithmTasks, ExceptionsTravelThroughTheFuture) {
    std::vector<int> v(1000, 0);
    auto f = loom::for_each(ex::par(ex::task), v.begin(), v.end(), [](int) { throw std::domain_error("task"); });
    EXPECT_THROW(f.get(), std::domain_error);
}

TEST(AlgorithmScheduling, TheCallingThreadTakesPart) {
    std::vector<int> v(100000);
    const auto me = std::this_thread::get_id();
    std::atomic<long> mine{0};
    loom::for_each(ex::par, v.begin(), v.end(), [&](int&) {
        if (std::this_thread::get_id() == me) ++mine;
    });
    EXPECT_GT(mine.load(), 0);
}

TEST(AlgorithmScheduling, NumCoresOneRunsOnTheCaller) {
    std::vector<int> v(100000);
    const auto me = std::this_thread::get_id();
    std::atomic<long> elsewhere{0};
    loom::for_each(ex::par.with(ex::num_cores(1), ex::dynamic_chunk_size(10)), v.begin(), v.end(), [&](int&) {
        if (std::this_thread::get_id() != me) ++elsewhere;
    });
    EXPECT_EQ(elsewhere.load(), 0);
}

TEST(AlgorithmScheduling, NumCoresBoundsTheThreadsUsed) {
    std::vector<int> v(200000);
    std::mutex m;
    std::set<std::thread::id> threads;
    loom::for_each(ex::par.with(ex::num_cores(2), ex::dynamic_chunk_size(100)), v.begin(), v.end(), [&](int&) {
        std::lock_guard<std::mutex> lock(m);
        threads.insert(std::this_thread::get_id());
    });
    EXPECT_LE(threads.size(), 2u);
}

TEST(AlgorithmScheduling, DefaultScheduleSplitsTheCallersPieceForIdleWorkers) {
    // The default schedule cuts the range into one piece per worker and splits a piece
    // further only when a worker is idle. Here the caller's piece (the first 1/P of
    // the range) is the only costly one: the workers done with their cheap pieces
    // must get part of it.
    const unsigned p = loom::num_threads();
    if (p < 2) GTEST_SKIP() << "needs two workers";
    const std::size_t n = 64 * std::size_t(p);
    std::vector<int> v(n);
    std::mutex m;
    std::set<std::thread::id> costly_threads;
    loom::for_each(ex::par, v.begin(), v.end(), [&](int& x) {
        const auto i = std::size_t(&x - v.data());
        if (i >= n / p) return;
        // 1 ms each (64 ms in all): long enough that a worker descheduled by a loaded
        // machine for a few milliseconds still gets its share (at 100 us, 12 runs in
        // 200 failed beside 8 other processes on 2 cores).
        loom_test::spin_for_us(1000);
        std::lock_guard<std::mutex> lock(m);
        costly_threads.insert(std::this_thread::get_id());
    });
    EXPECT_GE(costly_threads.size(), 2u);
}

TEST(AlgorithmScheduling, DefaultScheduleCoversChunkBoundaries) {
    // Sizes around the chunk and piece boundaries of 1..4 workers: every element is
    // visited once and the reduction sees each once.
    for (std::size_t n : {1UL, 2UL, 3UL, 15UL, 16UL, 17UL, 31UL, 32UL, 33UL, 63UL, 64UL, 65UL, 1023UL, 1024UL,
                          1025UL, 9999UL, 10000UL, 10001UL}) {
        std::vector<long> v(n, 0);
        loom::for_each(ex::par, v.begin(), v.end(), [](long& x) { ++x; });
        EXPECT_EQ(std::count(v.begin(), v.end(), 1L), long(n)) << n;
        std::iota(v.begin(), v.end(), 0L);
        EXPECT_EQ(loom::reduce(ex::par, v.begin(), v.end(), 0L), long(n * (n - 1) / 2)) << n;
    }
}

TEST(AlgorithmScheduling, HighPriorityExecutor) {
    auto pol = ex::par.on(ex::parallel_executor(loom::priority::high));
    EXPECT_EQ(pol.executor().priority(), loom::priority::high);
    std::vector<int> v = random_ints(100000, 0, 1000);
    EXPECT_EQ(loom::reduce(pol, v.begin(), v.end(), 0L), std::accumulate(v.begin(), v.end(), 0L));
}

TEST(AlgorithmScheduling, NestedInsideTasks) {
    // Algorithms called from tasks (and from algorithms) wait without blocking workers.
    std::vector<std::vector<int>> rows(16, random_ints(20000, 0, 1000));
    std::vector<long> sums(rows.size());
    loom::experimental::for_loop(ex::par, std::size_t(0), rows.size(), [&](std::size_t i) {
        loom::sort(ex::par, rows[i].begin(), rows[i].end());
        sums[i] = loom::reduce(ex::par, rows[i].begin(), rows[i].end(), 0L);
    });
    for (std::size_t i = 0; i < rows.size(); ++i) {
        EXPECT_TRUE(std::is_sorted(rows[i].begin(), rows[i].end()));
        EXPECT_EQ(sums[i], std::accumulate(rows[i].begin(), rows[i].end(), 0L));
    }
}

TEST(AlgorithmScheduling, AutoChunkSizeMeasuresCheapAndCostlyIterations) {
    std::vector<int> v(200000, 1);
    // Cheap: the measured chunk exceeds the range, the rest runs as one chunk.
    EXPECT_EQ(loom::reduce(ex::par.with(ex::auto_chunk_size()), v.begin(), v.end(), 0L), 200000);
    // Costly (~1 us per iteration): chunks of about 20 iterations, spread over workers.
    std::vector<int> w(2000, 1);
    std::atomic<long> n{0};
    loom::for_each(ex::par.with(ex::auto_chunk_size()), w.begin(), w.end(), [&](int) {
        loom_test::spin_for_us(1);
        ++n;
    });
    EXPECT_EQ(n.load(), 2000);
}

TEST(AlgorithmRanges, RangeForms) {
    std::vector<int> v = random_ints(10000, 0, 1000);
    auto expect = v;
    std::sort(expect.begin(), expect.end());
    loom::ranges::sort(ex::par, v);
    EXPECT_EQ(v, expect);
    EXPECT_EQ(loom::ranges::reduce(ex::par, v, 0L), std::accumulate(v.begin(), v.end(), 0L));
    EXPECT_EQ(loom::ranges::count(v, v[5]), std::count(v.begin(), v.end(), v[5]));
    std::vector<long> out(v.size());
    loom::ranges::inclusive_scan(ex::par, v, out.begin());
    EXPECT_EQ(out.back(), std::accumulate(v.begin(), v.end(), 0L));
    std::vector<int> merged(2 * v.size());
    loom::ranges::merge(ex::par, v, v, merged.begin());
    EXPECT_TRUE(std::is_sorted(merged.begin(), merged.end()));
    auto iota = std::views::iota(0, 1000);
    EXPECT_EQ(loom::ranges::reduce(ex::par, iota, 0L), 999L * 1000 / 2);
    auto f = loom::ranges::max_element(ex::par(ex::task), v);
    EXPECT_EQ(*f.get(), expect.back());
}

}  // namespace
