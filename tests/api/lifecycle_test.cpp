// Tests that start and stop pools themselves (their own process: no pool at start).
#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "loom/ext/scheduler.hpp"
#include "loom/loom.hpp"

namespace {

TEST(Lifecycle, RuntimeObjectStartsAndStops) {
    ASSERT_FALSE(loom::ext::running());
    {
        loom::runtime rt{loom::runtime_options{.num_threads = 2}};
        EXPECT_TRUE(rt.owns_pool());
        EXPECT_TRUE(loom::ext::running());
        EXPECT_EQ(loom::num_threads(), 2u);
        EXPECT_EQ(loom::async([] { return 3; }).get(), 3);
        {
            loom::runtime again{loom::runtime_options{.num_threads = 1}};
            EXPECT_FALSE(again.owns_pool());  // options not applied, pool left alone
        }
        EXPECT_TRUE(loom::ext::running());
        EXPECT_EQ(loom::num_threads(), 2u);
    }
    EXPECT_FALSE(loom::ext::running());
    EXPECT_TRUE(loom::stats().empty());
}

TEST(Lifecycle, LazyStartOnFirstUse) {
    ASSERT_FALSE(loom::ext::running());
    EXPECT_EQ(loom::async([] { return 1; }).get(), 1);
    EXPECT_TRUE(loom::ext::running());
    loom::ext::shutdown();
    EXPECT_FALSE(loom::ext::running());
}

TEST(Lifecycle, ShutdownWithWorkInFlight) {
    std::atomic<int> ran{0};
    constexpr int roots = 2000;
    {
        loom::runtime rt{loom::runtime_options{.num_threads = 2}};
        for (int i = 0; i < roots; ++i) {
            loom::post([&ran] {
                ++ran;
                // Work that creates more work while the pool is being shut down.
                loom::post([&ran] { ++ran; });
            });
        }
        // Tasks suspended on a promise that a later task fulfils.
        auto p = std::make_shared<loom::promise<void>>();
        auto sf = p->get_future().share();
        for (int i = 0; i < 50; ++i) {
            loom::post([sf, &ran] {
                sf.wait();
                ++ran;
            });
        }
        loom::post([p] { p->set_value(); });
    }  // ~runtime: waits for all of it
    EXPECT_EQ(ran.load(), 2 * roots + 50);
}

TEST(Lifecycle, RestartWithOtherSize) {
    for (unsigned n : {1u, 3u, 2u}) {
        loom::runtime rt{loom::runtime_options{.num_threads = n}};
        EXPECT_EQ(loom::num_threads(), n);
        std::atomic<int> c{0};
        loom::task_group g;
        for (int i = 0; i < 100; ++i) g.spawn([&] { ++c; });
        g.wait();
        EXPECT_EQ(c.load(), 100);
    }
}

TEST(Lifecycle, SingleWorkerWaitOnTaskQueuedBehind) {
    loom::runtime rt{loom::runtime_options{.num_threads = 1}};
    ASSERT_EQ(loom::num_threads(), 1u);
    // The first task waits on a future produced by a task submitted after it.
    loom::promise<loom::shared_future<int>> later;
    auto lf = later.get_future().share();
    auto first = loom::async([lf] { return lf.get().get() * 2; });
    auto second = loom::async([&later] { later.set_value(loom::async([] { return 21; }).share()); });
    EXPECT_EQ(first.get(), 42);
    second.get();
}

}  // namespace
