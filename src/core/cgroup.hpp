// The CPU quota of the cgroup this process runs in (docker --cpus, systemd CPUQuota).
#pragma once

#include <optional>
#include <string>

namespace loom::core {

/// ceil(quota / period) of the tightest CPU limit on the path from the process's own
/// cgroup up to the hierarchy's root, or nothing when no level limits it. `root` is
/// where the cgroup file system is mounted (/sys/fs/cgroup) and `self_cgroup` the text
/// of /proc/self/cgroup; both are parameters so that tests can use a fake tree.
/// cgroup v2: "0::<path>" and <root><path>/cpu.max ("<quota> <period>" or "max ...").
/// cgroup v1: "<n>:<controllers>:<path>" whose controllers include cpu, and
/// <root>/<controllers>/<path>/cpu.cfs_quota_us (-1: none) / cpu.cfs_period_us.
std::optional<unsigned> cgroup_cpu_limit(const std::string& root, const std::string& self_cgroup);

/// The same for this process (/sys/fs/cgroup and /proc/self/cgroup).
std::optional<unsigned> process_cgroup_cpu_limit();

}  // namespace loom::core
