// ln(1 + x) with `parallel for reduction(+ : sum)`, static schedule; built by clang
// (llvm-omp, and loom-omp through loom's libomp.so.5) and by gcc (gnu-omp, loom-gomp).
#include <cstdint>

#include "omp_team.hpp"
#include "taylor_bench.hpp"

namespace lb = loom_bench;

int main(int argc, char** argv) {
    lb::Cli cli(argc, argv, "taylor", "ln(1 + x) as a Taylor series with an OpenMP parallel for reduction");
    const taylor_bench::problem p = taylor_bench::read_problem(cli);
    auto run = lb::run_options(cli);
    cli.finish();
    const int threads = lb::omp_team_size(run);
    return taylor_bench::run(cli, run, threads, p, [&] {
        const std::uint64_t n = p.n;
        const double x = p.x;
        double sum = 0.0;
#pragma omp parallel for reduction(+ : sum) schedule(static)
        for (std::uint64_t k = 1; k <= n; ++k) sum += taylor::term(k, x);
        return sum;
    });
}
