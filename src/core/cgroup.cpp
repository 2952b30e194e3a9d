#include "cgroup.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

namespace loom::core {

namespace {

struct quota {
    double cpus = 0;  // quota / period; 0: no limit at this level
};

// "a/b/c" -> "a/b/c", "a/b", "a", "" (the root last).
std::vector<std::string> path_and_ancestors(std::string path) {
    while (!path.empty() && path.back() == '/') path.pop_back();
    std::vector<std::string> out{path};
    while (!path.empty()) {
        std::size_t slash = path.rfind('/');
        path = slash == std::string::npos ? std::string() : path.substr(0, slash);
        out.push_back(path);
    }
    return out;
}

quota read_v2(const std::string& dir) {
    std::ifstream f(dir + "/cpu.max");
    std::string q;
    double period = 0;
    if (!(f >> q >> period) || q == "max" || period <= 0) return {};
    double v = std::atof(q.c_str());
    return v > 0 ? quota{v / period} : quota{};
}

quota read_v1(const std::string& dir) {
    std::ifstream q(dir + "/cpu.cfs_quota_us"), p(dir + "/cpu.cfs_period_us");
    double qv = -1, pv = 0;
    if (!(q >> qv) || !(p >> pv) || qv <= 0 || pv <= 0) return {};
    return {qv / pv};
}

bool has_cpu_controller(const std::string& controllers) {
    std::stringstream ss(controllers);
    std::string c;
    while (std::getline(ss, c, ','))
        if (c == "cpu") return true;
    return false;
}

// The smallest limit from `base + path` up to `base`.
double tightest(const std::string& base, const std::string& path, quota (*read)(const std::string&)) {
    double best = 0;
    for (const std::string& p : path_and_ancestors(path)) {
        quota q = read(base + p);
        if (q.cpus > 0 && (best == 0 || q.cpus < best)) best = q.cpus;
    }
    return best;
}

}  // namespace

std::optional<unsigned> cgroup_cpu_limit(const std::string& root, const std::string& self_cgroup) {
    double best = 0;
    auto take = [&](double v) {
        if (v > 0 && (best == 0 || v < best)) best = v;
    };
    std::stringstream lines(self_cgroup);
    std::string line;
    while (std::getline(lines, line)) {
        std::size_t a = line.find(':'), b = a == std::string::npos ? a : line.find(':', a + 1);
        if (b == std::string::npos) continue;
        std::string controllers = line.substr(a + 1, b - a - 1), path = line.substr(b + 1);
        if (!path.empty() && path[0] != '/') path = "/" + path;
        if (line.compare(0, a, "0") == 0 && controllers.empty())
            take(tightest(root, path, read_v2));
        else if (has_cpu_controller(controllers))
            take(tightest(root + "/" + controllers, path, read_v1));
    }
    // No /proc/self/cgroup entry (or none that limits): the root's own files, as before.
    if (best == 0) take(read_v2(root).cpus);
    if (best == 0) take(read_v1(root + "/cpu").cpus);
    if (best == 0) return std::nullopt;
    return static_cast<unsigned>(std::max(1.0, std::ceil(best)));
}

std::optional<unsigned> process_cgroup_cpu_limit() {
    std::ifstream f("/proc/self/cgroup");
    std::stringstream text;
    text << f.rdbuf();
    return cgroup_cpu_limit("/sys/fs/cgroup", text.str());
}

}  // namespace loom::core
