// ln(1 + x) with std::transform_reduce(std::execution::par, ...): libstdc++'s parallel
// algorithms, which run on oneTBB (tbb::global_control caps the threads), over the
// term indices 1..n (a counting iterator: no array of n indices).
#include <tbb/global_control.h>

#include <cstdint>
#include <execution>
#include <functional>
#include <numeric>

#include "counting_iterator.hpp"
#include "taylor_bench.hpp"

namespace lb = loom_bench;

int main(int argc, char** argv) {
    lb::Cli cli(argc, argv, "taylor", "ln(1 + x) as a Taylor series with std::execution::par on oneTBB");
    const taylor_bench::problem p = taylor_bench::read_problem(cli);
    auto run = lb::run_options(cli);
    cli.finish();
    const int threads = lb::default_threads(run);
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, std::size_t(threads));
    using it = taylor_bench::counting_iterator;
    return taylor_bench::run(cli, run, threads, p, [&] {
        return std::transform_reduce(std::execution::par, it(1), it(p.n + 1), 0.0, std::plus<>{},
                                     [x = p.x](std::uint64_t k) { return taylor::term(k, x); });
    });
}
