// The CPU quota is read from the process's own cgroup and every level above it (the
// tightest wins), on cgroup v2 and v1, from a fake tree. Before, only the hierarchy's
// root was read: a container's or a systemd unit's own quota was missed.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "cgroup.hpp"

namespace {

namespace fs = std::filesystem;
using loom::core::cgroup_cpu_limit;

class FakeCgroup : public ::testing::Test {
protected:
    void SetUp() override {
        root_ = fs::temp_directory_path() / ("loom_cgroup_" + std::to_string(getpid()) + "_" +
                                             ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(root_);
        fs::create_directories(root_);
    }
    void TearDown() override { fs::remove_all(root_); }
    void write(const std::string& rel, const std::string& text) {
        fs::path p = root_ / rel;
        fs::create_directories(p.parent_path());
        std::ofstream(p) << text;
    }
    [[nodiscard]] std::string root() const { return root_.string(); }
    fs::path root_;
};

TEST_F(FakeCgroup, V2OwnGroupQuota) {
    write("cpu.max", "max 100000\n");
    write("system.slice/app.service/cpu.max", "150000 100000\n");
    EXPECT_EQ(cgroup_cpu_limit(root(), "0::/system.slice/app.service\n"), 2U);
}

TEST_F(FakeCgroup, V2TightestAncestorWins) {
    write("a/cpu.max", "100000 100000\n");            // 1 CPU at the parent
    write("a/b/cpu.max", "400000 100000\n");          // 4 at the process's group
    EXPECT_EQ(cgroup_cpu_limit(root(), "0::/a/b\n"), 1U);
}

TEST_F(FakeCgroup, V2NoLimitAnywhere) {
    write("cpu.max", "max 100000\n");
    write("a/cpu.max", "max 100000\n");
    EXPECT_FALSE(cgroup_cpu_limit(root(), "0::/a\n").has_value());
}

TEST_F(FakeCgroup, V1CpuController) {
    write("cpu,cpuacct/cpu.cfs_quota_us", "-1\n");
    write("cpu,cpuacct/cpu.cfs_period_us", "100000\n");
    write("cpu,cpuacct/docker/abc/cpu.cfs_quota_us", "250000\n");
    write("cpu,cpuacct/docker/abc/cpu.cfs_period_us", "100000\n");
    EXPECT_EQ(cgroup_cpu_limit(root(), "12:memory:/docker/abc\n4:cpu,cpuacct:/docker/abc\n"), 3U);
}

TEST_F(FakeCgroup, RootOnlyAsBefore) {
    write("cpu.max", "200000 100000\n");
    EXPECT_EQ(cgroup_cpu_limit(root(), ""), 2U);
}

TEST_F(FakeCgroup, MalformedFilesMeanNoLimit) {
    write("a/cpu.max", "lots\n");
    EXPECT_FALSE(cgroup_cpu_limit(root(), "0::/a\n").has_value());
}

}  // namespace
