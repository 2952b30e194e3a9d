// ln(1 + x) with std::async: one std::launch::async future per thread, each summing a
// contiguous chunk of the terms (a new thread per chunk, per repetition, as the
// standard's async does).
#include <algorithm>
#include <cstdint>
#include <future>
#include <vector>

#include "taylor_bench.hpp"

namespace lb = loom_bench;

int main(int argc, char** argv) {
    lb::Cli cli(argc, argv, "taylor", "ln(1 + x) as a Taylor series with std::async, one future per thread");
    const taylor_bench::problem p = taylor_bench::read_problem(cli);
    auto run = lb::run_options(cli);
    cli.finish();
    const int threads = lb::default_threads(run);
    const std::uint64_t chunk = (p.n + std::uint64_t(threads) - 1) / std::uint64_t(threads);
    return taylor_bench::run(cli, run, threads, p, [&] {
        std::vector<std::future<double>> parts;
        for (std::uint64_t first = 1; first <= p.n; first += chunk) {
            parts.push_back(std::async(std::launch::async, taylor::partial_sum, first,
                                       std::min(first + chunk, p.n + 1), p.x));
        }
        double s = 0.0;
        for (auto& part : parts) s += part.get();
        return s;
    });
}
