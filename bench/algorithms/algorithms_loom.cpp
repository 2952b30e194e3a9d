// for_each, reduce, sort and inclusive_scan with loom's parallel algorithms
// (loom::execution::par, default chunking); the workloads and checks are in
// algorithms_kernels.hpp, the std::execution::par peer in algorithms_std.cpp.
#include <cstdint>
#include <string>
#include <vector>

#include "algorithms_kernels.hpp"
#include "loom/algorithm.hpp"
#include "loom/numeric.hpp"
#include "loom/runtime.hpp"

namespace lb = loom_bench;

int main(int argc, char** argv) {
    lb::Cli cli(argc, argv, "algorithms", "loom parallel algorithms: for_each, reduce, sort, inclusive_scan");
    const std::string algo =
        cli.choice("algo", "reduce", {"for_each", "reduce", "sort", "inclusive_scan"}, "the algorithm");
    const long n = long(cli.integer("n", 1000000, 1, 1L << 31, "number of elements"));
    auto run = lb::run_options(cli);
    cli.finish();
    const int threads = lb::default_threads(run);
    loom::runtime rt{loom::runtime_options{.num_threads = unsigned(threads)}};
    const auto par = loom::execution::par;
    return algo_bench::run(
        cli, run, int(loom::num_threads()), algo, n,
        [&](std::vector<double>& x) {
            loom::for_each(par, x.begin(), x.end(), [](double& v) { v = v * 1.000001 + 0.5; });
        },
        [&](const std::vector<std::int64_t>& v) { return loom::reduce(par, v.begin(), v.end(), std::int64_t(0)); },
        [&](std::vector<std::uint32_t>& k) { loom::sort(par, k.begin(), k.end()); },
        [&](const std::vector<std::int64_t>& v, std::vector<std::int64_t>& out) {
            loom::inclusive_scan(par, v.begin(), v.end(), out.begin());
        });
}
