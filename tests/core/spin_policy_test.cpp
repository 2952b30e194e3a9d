#include <gtest/gtest.h>

#include "spin_policy.hpp"

namespace {

using loom::core::spin_policy;
constexpr std::int64_t us = 1000;

TEST(SpinPolicy, StartsAtTheConfiguredBudget) {
    spin_policy p(100 * us);
    EXPECT_EQ(p.budget_ns, 100 * us);
}

// Long idle periods (a serial phase of 5 ms between parallel ones): the spin was
// wasted every time, so the budget falls to its floor and stays there.
TEST(SpinPolicy, LongIdlePeriodsShrinkTheSpinToItsFloor) {
    spin_policy p(100 * us);
    for (int i = 0; i < 10; ++i) p.record(5000 * us, true);
    EXPECT_EQ(p.budget_ns, p.floor_ns());
    EXPECT_EQ(p.floor_ns(), 100 * us / 32);
}

// Short idle periods that a shrunken spin missed (it slept, the work came 20 us
// later): the budget grows back, to the configured one at most.
TEST(SpinPolicy, ShortSleepsGrowTheSpinBackButNeverBeyondTheConfiguredBudget) {
    spin_policy p(100 * us);
    for (int i = 0; i < 10; ++i) p.record(5000 * us, true);
    p.record(20 * us, true);
    EXPECT_GE(p.budget_ns, 40 * us);
    for (int i = 0; i < 10; ++i) p.record(20 * us, true);
    EXPECT_EQ(p.budget_ns, 100 * us);
}

// Work found while spinning: the budget covers at least twice that wait.
TEST(SpinPolicy, WorkFoundWhileSpinningKeepsTheBudget) {
    spin_policy p(100 * us);
    for (int i = 0; i < 10; ++i) p.record(5000 * us, true);
    const std::int64_t low = p.budget_ns;
    p.record(1 * us, false);
    EXPECT_EQ(p.budget_ns, std::max(low, 2 * us));
    p.record(30 * us, false);
    EXPECT_EQ(p.budget_ns, 60 * us);
}

TEST(SpinPolicy, TinyBudgetsKeepAOneMicrosecondFloor) {
    spin_policy p(2 * us);
    for (int i = 0; i < 10; ++i) p.record(5000 * us, true);
    EXPECT_EQ(p.budget_ns, 1 * us);
}

TEST(SpinPolicy, AWokenWorkersIdlePeriodEndsWhenTheWakerAsked) {
    // Slept from 0, a waker asked at 20 us, the thread ran at 600 us (a slow VM wake):
    // the gap was 20 us, so a longer spin would have caught it and the budget grows.
    using loom::core::idle_period_ns;
    EXPECT_EQ(idle_period_ns(0, 600 * us, true, 20 * us), 20 * us);
    spin_policy p(100 * us);
    for (int i = 0; i < 10; ++i) p.record(5000 * us, true);  // long gaps: at the floor
    ASSERT_EQ(p.budget_ns, p.floor_ns());
    p.record(idle_period_ns(0, 600 * us, true, 20 * us), true);
    EXPECT_GE(p.budget_ns, 40 * us);
    // Woken by its own deadline (no request), or found work while spinning: up to now.
    EXPECT_EQ(idle_period_ns(1 * us, 600 * us, true, 0), 599 * us);
    EXPECT_EQ(idle_period_ns(1 * us, 5 * us, false, 3 * us), 4 * us);
}

}  // namespace
