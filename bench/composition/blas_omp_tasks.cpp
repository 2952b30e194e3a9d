// Composition with a BLAS that keeps its own threads: P OpenMP tasks each call
// Debian's pthreads OpenBLAS (libopenblas0-pthread) dgemm on their own matrices.
// OpenBLAS's pool is not the OpenMP runtime's, so no runtime can fold it into its
// team; what differs between runtimes is how much CPU their own threads keep while
// OpenBLAS's threads need it (team members waiting at the region's end barrier, or,
// with --callers 1, every member but the one calling). The run fails when the process
// did not load the pthreads build.
#include "composition.hpp"
#include "omp_team.hpp"

namespace lb = loom_bench;

int main(int argc, char** argv) {
    lb::Cli cli(argc, argv, "composition_blas", "P OpenMP tasks x pthreads OpenBLAS dgemm");
    const int n = int(cli.integer("n", 256, 8, 8192, "matrix order"));
    const int blas_threads = int(cli.integer("blas_threads", 0, 0, 4096,
                                             "threads per dgemm (0: OpenBLAS's default)"));
    const int callers_opt = int(cli.integer("callers", 0, 0, 4096,
                                            "tasks calling dgemm (0: one per team member)"));
    auto run = lb::run_options(cli, 3);
    cli.finish();
    const int team = lb::omp_team_size(run);
    const int callers = composition::callers_or(callers_opt, team);
    const long calls = composition::calls_for(n);
    lb::JsonObject extra;
    extra.set("blas", composition::loaded_path("libopenblas"));
    if (const std::string wrong = composition::wrong_blas("pthread"); !wrong.empty())
        return lb::report(cli, run, team, composition::no_times, false, lb::JsonObject(), extra, wrong);
    composition::limit_blas(blas_threads);
    std::vector<composition::gemm_problem> problems;
    for (int t = 0; t < callers; ++t) problems.emplace_back(n);
    composition::thread_peak peak({composition::stall_limit_for(n), [&](double limit_s) {
        lb::report(cli, run, team, {limit_s}, false, lb::JsonObject(), extra,
                   composition::stall_text(limit_s));
    }});
    auto times = lb::measure(run, [&] {
#pragma omp parallel
#pragma omp single
        for (int t = 0; t < callers; ++t) {
#pragma omp task firstprivate(t)
            {
                composition::limit_blas(blas_threads);
                for (long c = 0; c < calls; ++c) problems[std::size_t(t)].run();
            }
        }
    });
    const int peak_threads = peak.stop();
    bool ok = true;
    for (auto& p : problems) ok = ok && p.correct();
    return lb::report(cli, run, team, times, ok,
                      lb::JsonObject()
                          .set("flops", double(callers) * double(calls) * problems[0].flops())
                          .set("peak_threads", peak_threads),
                      extra);
}
