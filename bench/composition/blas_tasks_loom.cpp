// Composition, loom side: P loom tasks each call OpenMP-parallel OpenBLAS dgemm on
// their own matrices. OpenBLAS's OpenMP regions run on loom's pool (its libgomp.so.1
// is loom's), so the regions of P concurrent calls share the P workers instead of
// starting P x P threads. The run fails, loudly, when OpenBLAS's runtime is not loom.
#include <loom/async.hpp>
#include <loom/future.hpp>

#include "bench.hpp"
#include "composition.hpp"

namespace lb = loom_bench;

int main(int argc, char** argv) {
    lb::Cli cli(argc, argv, "composition_blas", "P tasks x OpenMP OpenBLAS dgemm");
    const int n = int(cli.integer("n", 256, 8, 8192, "matrix order"));
    const int blas_threads = int(cli.integer("blas_threads", 0, 0, 4096,
                                             "threads per dgemm (0: OpenBLAS's default)"));
    auto run = lb::run_options(cli, 3);
    cli.finish();
    const int tasks = lb::default_threads(run);
    const long calls = composition::calls_for(n);
    const std::string runtime = composition::loaded_path("libgomp.so.1");
    if (runtime.find("loom") == std::string::npos) {
        std::fprintf(stderr, "composition_blas: OpenBLAS's OpenMP runtime is %s, not loom's\n",
                     runtime.empty() ? "(none)" : runtime.c_str());
        lb::report(cli, run, tasks, {}, false, lb::JsonObject(), lb::JsonObject(),
                   "OpenBLAS's libgomp.so.1 is not loom's");
        return 77;  // not this benchmark's to measure: loom's libgomp.so.1 is not on the path
    }
    if (blas_threads > 0) openblas_set_num_threads(blas_threads);
    std::vector<composition::gemm_problem> problems;
    for (int t = 0; t < tasks; ++t) problems.emplace_back(n);
    composition::thread_peak peak;
    auto times = lb::measure(run, [&] {
        std::vector<loom::future<void>> done;
        for (int t = 0; t < tasks; ++t)
            done.push_back(loom::async([&, t] {
                for (long c = 0; c < calls; ++c) problems[std::size_t(t)].run();
            }));
        for (auto& f : done) f.get();
    });
    const int peak_threads = peak.stop();
    bool ok = true;
    for (auto& p : problems) ok = ok && p.correct();
    return lb::report(cli, run, tasks, times, ok,
                      lb::JsonObject()
                          .set("flops", double(tasks) * double(calls) * problems[0].flops())
                          .set("peak_threads", peak_threads));
}
