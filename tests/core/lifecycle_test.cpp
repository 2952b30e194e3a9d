#include <gtest/gtest.h>

#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <thread>
#include <vector>

#include "test_support.hpp"

namespace {

using namespace loom;
using loom_test::countdown;

TEST(Lifecycle, ShutdownWaitsForWorkInFlightThenRestartsLazily) {
    std::atomic<long> ran{0};
    constexpr int n = 20000;
    for (int i = 0; i < n; ++i)
        ext::submit(ext::make_task([&] {
            // Some work spawns more work while shutdown is already waiting.
            ext::submit(ext::make_task([&] { ran.fetch_add(1); }));
            ran.fetch_add(1);
        }));
    ext::shutdown();
    EXPECT_EQ(ran.load(), 2 * n);
    EXPECT_FALSE(ext::running());
    countdown again(10);
    for (int i = 0; i < 10; ++i) ext::submit(ext::make_task([&] { again.arrive(); }));
    again.wait();
    EXPECT_TRUE(ext::running());
}

TEST(Lifecycle, ExplicitStartIsRefusedWhileRunning) {
    ext::ensure_started();
    EXPECT_FALSE(ext::start(ext::pool_options{}));
    ext::shutdown();
    ext::pool_options o;
    o.num_threads = 3;
    o.spin_us = 0;
    EXPECT_TRUE(ext::start(o));
    EXPECT_EQ(ext::worker_count(), 3u);
    EXPECT_EQ(ext::spin_budget_us(), 0);
    countdown left(1000);
    for (int i = 0; i < 1000; ++i) ext::submit(ext::make_task([&] { left.arrive(); }));
    left.wait();
    ext::shutdown();
}

// The adopted main thread is bound to place 0 while its pool runs; when the pool ends
// it gets its old mask back, so a second pool (pause and resume, a pool rebuilt with
// more workers) spreads over the process's CPUs again instead of piling onto place 0.
TEST(Lifecycle, MainThreadMaskComesBackWhenThePoolEnds) {
    ext::shutdown();
    cpu_set_t before;
    ASSERT_EQ(sched_getaffinity(0, sizeof before, &before), 0);
    if (CPU_COUNT(&before) < 2) GTEST_SKIP() << "needs two CPUs";
    for (int round = 0; round < 2; ++round) {
        ext::pool_options o;
        o.num_threads = 2;
        o.pin_workers = 1;  // binding asked for: the main thread is bound while the pool runs
        ASSERT_TRUE(ext::start(o));
        EXPECT_NE(ext::worker_place(0), ext::worker_place(1)) << "round " << round;
        ext::shutdown();
        cpu_set_t after;
        ASSERT_EQ(sched_getaffinity(0, sizeof after, &after), 0);
        EXPECT_TRUE(CPU_EQUAL(&before, &after)) << "round " << round;
    }
}

TEST(Lifecycle, ChildOfForkBuildsAFreshPool) {
#if defined(LOOM_SANITIZE_THREAD)
    GTEST_SKIP() << "ThreadSanitizer does not support threads started after a multi-threaded fork";
#endif
    countdown warm(100);
    for (int i = 0; i < 100; ++i) ext::submit(ext::make_task([&] { warm.arrive(); }));
    warm.wait();
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        countdown left(1000);
        for (int i = 0; i < 1000; ++i) ext::submit(ext::make_task([&] { left.arrive(); }));
        left.wait();
        _exit(0);
    }
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0);
}

// An idle pool sleeps once the spin budget has passed: the process burns (almost) no
// CPU. Generous bound: this is a behaviour check, the benchmark measures the figure.
TEST(Lifecycle, IdlePoolSleeps) {
    countdown warm(100);
    for (int i = 0; i < 100; ++i) ext::submit(ext::make_task([&] { warm.arrive(); }));
    warm.wait();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    auto before = ext::stats();
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    auto after = ext::stats();
    for (std::size_t w = 1; w < after.size(); ++w)
        EXPECT_EQ(after[w].failed_steals, before[w].failed_steals) << "worker " << w << " kept searching";
}

TEST(Lifecycle, FiberStackOverflowHitsTheGuardPage) {
#if defined(LOOM_SANITIZE_THREAD) || defined(LOOM_SANITIZE_ADDRESS)
    GTEST_SKIP() << "the sanitizers intercept the overflow themselves";
#endif
    EXPECT_EXIT(
        {
            ext::wait_slot done;
            ext::submit(ext::make_task([&] {
                struct recurse {
                    // Deep enough to pass any configured stack (1 GiB at most).
                    static int go(int n) {
                        volatile char pad[4096];
                        pad[0] = static_cast<char>(n);
                        return n > (1 << 20) ? pad[0] : go(n + 1) + pad[0];
                    }
                };
                recurse::go(0);
                done.notify();
            }));
            done.wait();
            std::exit(0);
        },
        ::testing::KilledBySignal(SIGSEGV), "");
}

// The pool grows while tasks run (ext::grow_workers, used by nested OpenMP regions):
// the workers that exist keep running and keep their work, the new ones run tasks sent
// to them at once and steal like the others, and a growth from inside a task is fine.
TEST(Lifecycle, PoolGrowsWhileTasksRun) {
    ext::shutdown();
    ext::ensure_started();
    const unsigned before = ext::worker_count();
    std::atomic<bool> stop{false};
    std::atomic<long> churn{0};
    // Work in flight during the growth: tasks that keep spawning tasks (a bounded
    // chain: with one worker, local work comes before the growth task submitted from
    // outside, so an endless chain would starve it).
    struct spawner {
        static void go(std::atomic<bool>& stop, std::atomic<long>& churn) {
            if (churn.fetch_add(1, std::memory_order_relaxed) < 20000 &&
                !stop.load(std::memory_order_relaxed))
                ext::submit(ext::make_task([&] { go(stop, churn); }));
        }
    };
    countdown spawners_done(1);
    ext::submit(ext::make_task([&] {
        spawner::go(stop, churn);
        spawners_done.arrive();
    }));
    unsigned grown = 0;
    loom_test::run_in_task([&] { grown = ext::grow_workers(before + 3); });
    EXPECT_EQ(grown, before + 3);
    EXPECT_EQ(ext::worker_count(), before + 3);
    EXPECT_EQ(ext::grow_workers(before + 1), before + 3) << "a pool never shrinks";
    // Every worker, old and new, runs a task sent to it.
    const unsigned n = ext::worker_count();
    std::vector<std::atomic<int>> ran_on(n);
    countdown all(n);
    for (unsigned w = 0; w < n; ++w)
        ext::submit_to(ext::make_task([&, w] {
            ran_on[w].store(ext::current_worker(), std::memory_order_relaxed);
            all.arrive();
        }), w);
    all.wait();
    for (unsigned w = 0; w < n; ++w) EXPECT_EQ(ran_on[w].load(), static_cast<int>(w));
    stop.store(true);
    spawners_done.wait();
    ext::shutdown();
    EXPECT_GT(churn.load(), 0);
    // The next pool starts from the environment again.
    ext::ensure_started();
    EXPECT_EQ(ext::worker_count(), before);
}

}  // namespace
