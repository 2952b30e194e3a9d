// for_each, reduce, sort and inclusive_scan with std::execution::par: libstdc++'s
// parallel algorithms, which run on oneTBB (tbb::global_control caps the threads).
// Same workloads and checks as the loom version (algorithms_kernels.hpp).
#include <tbb/global_control.h>

#include <algorithm>
#include <cstdint>
#include <execution>
#include <numeric>
#include <string>
#include <vector>

#include "algorithms_kernels.hpp"

namespace lb = loom_bench;

int main(int argc, char** argv) {
    lb::Cli cli(argc, argv, "algorithms", "std::execution::par on oneTBB: for_each, reduce, sort, inclusive_scan");
    const std::string algo =
        cli.choice("algo", "reduce", {"for_each", "reduce", "sort", "inclusive_scan"}, "the algorithm");
    const long n = long(cli.integer("n", 1000000, 1, 1L << 31, "number of elements"));
    auto run = lb::run_options(cli);
    cli.finish();
    const int threads = lb::default_threads(run);
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, std::size_t(threads));
    const auto& par = std::execution::par;
    return algo_bench::run(
        cli, run, threads, algo, n,
        [&](std::vector<double>& x) {
            std::for_each(par, x.begin(), x.end(), [](double& v) { v = v * 1.000001 + 0.5; });
        },
        [&](const std::vector<std::int64_t>& v) { return std::reduce(par, v.begin(), v.end(), std::int64_t(0)); },
        [&](std::vector<std::uint32_t>& k) { std::sort(par, k.begin(), k.end()); },
        [&](const std::vector<std::int64_t>& v, std::vector<std::int64_t>& out) {
            std::inclusive_scan(par, v.begin(), v.end(), out.begin());
        });
}
