// Composition, the usual way: P std::threads each call OpenMP-parallel OpenBLAS dgemm
// on their own matrices, each call forking its own team in the OpenMP runtime the
// process loaded (GNU libgomp, or llvm's libomp under the libgomp.so.1 name). With
// --callers 1 one thread calls while the others' CPUs are free for its team.
#include "bench.hpp"
#include "composition.hpp"

namespace lb = loom_bench;

int main(int argc, char** argv) {
    lb::Cli cli(argc, argv, "composition_blas", "P threads x OpenMP OpenBLAS dgemm");
    const int n = int(cli.integer("n", 256, 8, 8192, "matrix order"));
    const int blas_threads = int(cli.integer("blas_threads", 0, 0, 4096,
                                             "threads per dgemm (0: OpenBLAS's default)"));
    const int callers_opt = int(cli.integer("callers", 0, 0, 4096,
                                            "threads calling dgemm (0: one per thread)"));
    auto run = lb::run_options(cli, 3);
    cli.finish();
    const int threads = lb::default_threads(run);
    const int callers = composition::callers_or(callers_opt, threads);
    const long calls = composition::calls_for(n);
    lb::JsonObject extra;
    extra.set("runtime", composition::loaded_path("libgomp.so.1"))
        .set("blas", composition::loaded_path("libopenblas"));
    if (const std::string wrong = composition::wrong_blas("openmp"); !wrong.empty())
        return lb::report(cli, run, threads, composition::no_times, false, lb::JsonObject(), extra, wrong);
    composition::limit_blas(blas_threads);
    std::vector<composition::gemm_problem> problems;
    for (int t = 0; t < callers; ++t) problems.emplace_back(n);
    composition::thread_peak peak({composition::stall_limit_for(n), [&](double limit_s) {
        lb::report(cli, run, threads, {limit_s}, false, lb::JsonObject(), extra,
                   composition::stall_text(limit_s));
    }});
    auto times = lb::measure(run, [&] {
        std::vector<std::thread> pool;
        for (int t = 0; t < callers; ++t)
            pool.emplace_back([&, t] {
                composition::limit_blas(blas_threads);
                for (long c = 0; c < calls; ++c) problems[std::size_t(t)].run();
            });
        for (auto& th : pool) th.join();
    });
    const int peak_threads = peak.stop();
    bool ok = true;
    for (auto& p : problems) ok = ok && p.correct();
    return lb::report(cli, run, threads, times, ok,
                      lb::JsonObject()
                          .set("flops", double(callers) * double(calls) * problems[0].flops())
                          .set("peak_threads", peak_threads),
                      extra);
}
