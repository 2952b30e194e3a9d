// loom::task_group and loom::fork_join.
#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <functional>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "loom/loom.hpp"
#include "test_support.hpp"

namespace {

TEST(TaskGroup, SpawnAndWait) {
    loom::task_group g;
    std::atomic<int> n{0};
    for (int i = 0; i < 100; ++i) g.spawn([&] { ++n; });
    EXPECT_EQ(g.spawned(), 100);
    g.wait();
    EXPECT_EQ(n.load(), 100);
    EXPECT_EQ(g.spawned(), 0);
}

TEST(TaskGroup, WaitWithNothingSpawned) {
    loom::task_group g;
    g.wait();
    g.wait();
}

TEST(TaskGroup, Reusable) {
    loom::task_group g;
    std::atomic<int> n{0};
    for (int round = 1; round <= 50; ++round) {
        for (int i = 0; i < round; ++i) g.spawn([&] { ++n; });
        g.wait();
        EXPECT_EQ(n.load(), round * (round + 1) / 2);
    }
}

TEST(TaskGroup, InsideTasksWithStealing) {
    // Children that take a while get stolen by other workers: the owner must count
    // them as "elsewhere" and wait for them.
    auto f = loom::async([] {
        loom::task_group g;
        std::atomic<int> n{0};
        for (int i = 0; i < 32; ++i) {
            g.spawn([&] {
                loom_test::spin_for_us(200);
                ++n;
            });
        }
        g.wait();
        return n.load();
    });
    EXPECT_EQ(f.get(), 32);
}

TEST(TaskGroup, ChildrenThatSuspend) {
    // A child waits on a promise fulfilled by a later child: the first child is run
    // inline by the owner's wait() and suspends there.
    auto f = loom::async([] {
        loom::task_group g;
        loom::promise<int> p;
        auto sf = p.get_future().share();
        std::atomic<int> got{0};
        g.spawn([&] { p.set_value(5); });
        g.spawn([&] { got = sf.get(); });
        g.wait();
        return got.load();
    });
    EXPECT_EQ(f.get(), 5);
}

TEST(TaskGroup, FirstExceptionRethrownAndGroupReset) {
    loom::task_group g;
    std::atomic<int> ran{0};
    for (int i = 0; i < 10; ++i) {
        g.spawn([&, i] {
            ++ran;
            if (i % 3 == 0) throw std::runtime_error("child " + std::to_string(i));
        });
    }
    EXPECT_THROW(g.wait(), std::runtime_error);
    EXPECT_EQ(ran.load(), 10);  // all children ran
    g.spawn([&] { ++ran; });
    g.wait();  // reset: no stale exception
    EXPECT_EQ(ran.load(), 11);
}

TEST(TaskGroup, SpawnFromOutsideThread) {
    std::atomic<int> n{0};
    loom::latch finished(1);
    std::thread t([&] {
        loom::task_group g;
        for (int i = 0; i < 100; ++i) g.spawn([&] { ++n; });
        g.wait();
        EXPECT_EQ(n.load(), 100);
        finished.count_down();
    });
    // A loom wait: with a single worker (this thread) it runs the children meanwhile.
    finished.wait();
    t.join();
}

TEST(TaskGroup, NestedGroups) {
    std::function<long(int)> tree = [&](int depth) -> long {
        if (depth == 0) return 1;
        loom::task_group g;
        std::atomic<long> sum{0};
        for (int i = 0; i < 3; ++i) g.spawn([&] { sum += tree(depth - 1); });
        g.wait();
        return sum.load();
    };
    EXPECT_EQ(loom::async([&] { return tree(7); }).get(), 2187);
}

TEST(TaskGroup, DestructorWaits) {
    std::atomic<int> n{0};
    {
        loom::task_group g;
        for (int i = 0; i < 20; ++i) {
            g.spawn([&] {
                loom_test::spin_for_us(100);
                ++n;
            });
        }
    }
    EXPECT_EQ(n.load(), 20);
}

TEST(TaskGroup, LargeClosure) {
    loom::task_group g;
    std::array<int, 64> big{};
    big[63] = 9;
    std::atomic<int> got{0};
    g.spawn([big, &got] { got = big[63]; });
    g.wait();
    EXPECT_EQ(got.load(), 9);
}

std::uint64_t fib_fj(int n) {
    if (n < 2) return static_cast<std::uint64_t>(n);
    std::uint64_t a = 0, b = 0;
    loom::fork_join([&] { a = fib_fj(n - 1); }, [&] { b = fib_fj(n - 2); });
    return a + b;
}

TEST(ForkJoin, VoidFunctions) { EXPECT_EQ(loom::async(fib_fj, 18).get(), loom_test::fib_serial(18)); }

TEST(ForkJoin, ReturnsPair) {
    auto [a, b] = loom::fork_join([] { return 1; }, [] { return std::string("two"); });
    EXPECT_EQ(a, 1);
    EXPECT_EQ(b, "two");
    auto [c, d] = loom::fork_join([] {}, [] { return 3; });
    (void)c;
    EXPECT_EQ(d, 3);
}

TEST(ForkJoin, ExceptionFromEither) {
    std::atomic<bool> other_ran{false};
    EXPECT_THROW(loom::fork_join([] { throw std::runtime_error("f1"); },
                                 [&] {
                                     loom_test::spin_for_us(500);
                                     other_ran = true;
                                 }),
                 std::runtime_error);
    EXPECT_TRUE(other_ran.load());  // f2 was waited for before f1's exception left
    EXPECT_THROW(loom::fork_join([] {}, [] { throw std::logic_error("f2"); }), std::logic_error);
    try {
        loom::fork_join([] { throw 1; }, [] { throw 2; });
    } catch (int x) {
        EXPECT_EQ(x, 1);  // f1's exception wins
    }
}

TEST(ForkJoin, FromOutsideThread) {
    std::uint64_t r = 0;
    loom::latch finished(1);
    std::thread t([&] {
        r = fib_fj(15);
        finished.count_down();
    });
    finished.wait();
    t.join();
    EXPECT_EQ(r, loom_test::fib_serial(15));
}

}  // namespace
