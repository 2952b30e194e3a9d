// LOOM_CRITICAL_PATH=1 (set by CTest for this binary): a dependent task that many
// others wait for is queued as high priority, a uniform graph gets no high tasks.
#include <gtest/gtest.h>

#include <mutex>
#include <string>
#include <vector>

#include "loom/loom.hpp"

namespace {

TEST(CriticalPath, SwitchedOnByTheEnvironment) { EXPECT_TRUE(loom::ext::critical_path_enabled()); }

// The level follows the fan-out against the recent mean: once every task has had 3
// successors for a while, 3 is ordinary and 7 is critical.
TEST(CriticalPath, UniformFanOutIsNotCritical) {
    for (int i = 0; i < 200; ++i) loom::ext::critical_level(3);
    EXPECT_EQ(loom::ext::critical_level(3), 0u);
    EXPECT_EQ(loom::ext::critical_level(1), 0u);
    EXPECT_EQ(loom::ext::critical_level(7), 7u);
    EXPECT_EQ(loom::ext::critical_level(100000), 255u);
}

// On one worker: a dataflow with eight dependents becomes ready while normal tasks are
// queued after it; it runs before them (without the automatic priority the worker's
// LIFO deque runs the newest normal task first).
TEST(CriticalPath, DataflowWithManyDependentsRunsFirst) {
    if (loom::num_threads() != 1) GTEST_SKIP() << "needs LOOM_NUM_THREADS=1";
    for (int i = 0; i < 200; ++i) loom::ext::critical_level(1);  // a mean of chains
    std::mutex lock;
    std::vector<std::string> order;
    auto note = [&](const char* what) {
        std::lock_guard guard(lock);
        order.emplace_back(what);
    };
    loom::async([&] {
        loom::promise<void> input;
        loom::shared_future<void> hub =
            loom::dataflow([&](loom::future<void>) { note("hub"); }, input.get_future()).share();
        std::vector<loom::future<void>> users;
        for (int i = 0; i < 8; ++i) users.push_back(loom::dataflow([&](loom::shared_future<void>) { note("user"); }, hub));
        input.set_value();  // the hub is queued now
        std::vector<loom::future<void>> normal;
        for (int i = 0; i < 4; ++i) normal.push_back(loom::async([&] { note("normal"); }));
        for (auto& f : users) f.get();
        for (auto& f : normal) f.get();
    }).get();
    ASSERT_EQ(order.size(), 13u);
    EXPECT_EQ(order.front(), "hub");
}

}  // namespace
