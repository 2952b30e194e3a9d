// num_threads, this_worker, stats on the pool the test main started.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <thread>

#include "loom/loom.hpp"

namespace {

TEST(Runtime, NumThreadsFollowsEnvironment) {
    const char* env = std::getenv("LOOM_NUM_THREADS");
    if (env != nullptr) {
        EXPECT_EQ(loom::num_threads(), static_cast<unsigned>(std::stoul(env)));
    }
    EXPECT_GE(loom::num_threads(), 1u);
}

TEST(Runtime, ThisWorker) {
    // The main thread that started a pool of 2+ workers is slot 0; a one-worker pool
    // is a single pool thread and main stays outside.
    EXPECT_EQ(loom::this_worker(), loom::num_threads() >= 2 ? 0 : -1);
    const int in_task = loom::async([] { return loom::this_worker(); }).get();
    EXPECT_GE(in_task, 0);
    EXPECT_LT(in_task, static_cast<int>(loom::num_threads()));
    int outside = 0;
    std::thread([&] { outside = loom::this_worker(); }).join();
    EXPECT_EQ(outside, -1);
}

TEST(Runtime, StatsCountTasks) {
    const auto before = loom::stats();
    ASSERT_EQ(before.size(), loom::num_threads());
    constexpr int n = 1000;
    loom::latch done(n);
    for (int i = 0; i < n; ++i) loom::post([&] { done.count_down(); });
    done.wait();
    const auto after = loom::total(loom::stats());
    // A worker counts a task when it returns, which may be just after the latch let
    // us go: allow one task in progress per worker.
    EXPECT_GE(after.tasks_run - loom::total(before).tasks_run, static_cast<std::uint64_t>(n) - loom::num_threads());
}

}  // namespace

namespace {

TEST(Runtime, HpxThreadQueries) {
    EXPECT_EQ(loom::get_os_thread_count(), std::size_t{loom::num_threads()});
    const std::size_t in_task = loom::async([] { return loom::get_worker_thread_num(); }).get();
    EXPECT_LT(in_task, loom::get_os_thread_count());
    // HPX documents -1 for a caller outside the runtime: std::size_t(-1).
    std::size_t outside = 0;
    std::thread([&] { outside = loom::get_worker_thread_num(); }).join();
    EXPECT_EQ(outside, static_cast<std::size_t>(-1));
}

}  // namespace
