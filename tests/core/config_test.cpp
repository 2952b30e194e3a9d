#include <gtest/gtest.h>

#include <cstdlib>

#include "config.hpp"

namespace {

using loom::core::parse_count;
using loom::core::parse_size;

TEST(Config, ParseCount) {
    EXPECT_EQ(parse_count("42"), 42);
    EXPECT_EQ(parse_count(" 7 "), 7);
    EXPECT_EQ(parse_count("0"), 0);
    EXPECT_FALSE(parse_count(""));
    EXPECT_FALSE(parse_count("-1"));
    EXPECT_FALSE(parse_count("3x"));
    EXPECT_FALSE(parse_count("99999999999999999999999"));
}

TEST(Config, ParseSizeUnits) {
    EXPECT_EQ(parse_size("4096", 'B'), 4096u);
    EXPECT_EQ(parse_size("512K", 'B'), 512u << 10);
    EXPECT_EQ(parse_size("8m", 'B'), 8u << 20);
    EXPECT_EQ(parse_size("1G", 'B'), 1u << 30);
    EXPECT_EQ(parse_size("2 MB", 'B'), 2u << 20);
    EXPECT_EQ(parse_size("16", 'K'), 16u << 10);  // OMP_STACKSIZE: no unit = kilobytes
    EXPECT_FALSE(parse_size("M", 'B'));
    EXPECT_FALSE(parse_size("12Q", 'B'));
    EXPECT_FALSE(parse_size("1KBX", 'B'));
    EXPECT_FALSE(parse_size("99999999999999999999G", 'B'));
}

TEST(Config, ExplicitOptionsWinOverEnvironment) {
    setenv("LOOM_NUM_THREADS", "7", 1);
    loom::ext::pool_options o;
    o.num_threads = 3;
    o.stack_size = 256 << 10;
    o.spin_us = 5;
    auto c = loom::core::resolve_config(o);
    EXPECT_EQ(c.num_threads, 3u);
    EXPECT_EQ(c.stack_size, 256u << 10);
    EXPECT_EQ(c.spin_us, 5);
    unsetenv("LOOM_NUM_THREADS");
}

TEST(Config, LoomVariablesBeatOmpOnes) {
    setenv("LOOM_NUM_THREADS", "5", 1);
    setenv("OMP_NUM_THREADS", "9", 1);
    EXPECT_EQ(loom::core::resolve_config({}).num_threads, 5u);
    unsetenv("LOOM_NUM_THREADS");
    EXPECT_EQ(loom::core::resolve_config({}).num_threads, 9u);
    unsetenv("OMP_NUM_THREADS");
    EXPECT_EQ(loom::core::resolve_config({}).num_threads, loom::core::usable_cpus());
}

TEST(Config, UsableCpusIsPositiveAndBoundedByAffinity) {
    unsigned n = loom::core::usable_cpus();
    EXPECT_GE(n, 1u);
    cpu_set_t set;
    CPU_ZERO(&set);
    ASSERT_EQ(sched_getaffinity(0, sizeof set, &set), 0);
    EXPECT_LE(n, static_cast<unsigned>(CPU_COUNT(&set)));
}

}  // namespace
