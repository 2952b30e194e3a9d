// Composition, loom side: P loom tasks each call OpenBLAS dgemm on their own matrices.
// Built twice, once per OpenBLAS build (COMPOSITION_BLAS names it):
//  - "openmp": OpenBLAS's OpenMP regions run on loom's pool (its libgomp.so.1 is
//    loom's), so the regions of P concurrent calls share the P workers instead of
//    starting P x P threads; with --callers 1 the one call's region gets the idle
//    workers. The run fails, loudly, when OpenBLAS's runtime is not loom.
//  - "pthread": OpenBLAS keeps its own thread pool, which loom cannot own; what is
//    measured is that loom's workers stay out of its way.
#include <loom/async.hpp>
#include <loom/future.hpp>

#include "bench.hpp"
#include "composition.hpp"

#ifndef COMPOSITION_BLAS
#error "compile with -DCOMPOSITION_BLAS=\"openmp\" or \"pthread\""
#endif

namespace lb = loom_bench;

namespace {

// Why this process cannot measure what it claims to, or "" when it can.
std::string wrong_setup() {
    if (std::string wrong = composition::wrong_blas(COMPOSITION_BLAS); !wrong.empty()) return wrong;
    if (std::string_view(COMPOSITION_BLAS) != "openmp") return {};
    const std::string runtime = composition::loaded_path("libgomp.so.1");
    if (runtime.find("loom") != std::string::npos) return {};
    return "OpenBLAS's OpenMP runtime is " + (runtime.empty() ? std::string("(none)") : runtime) +
           ", not loom's libgomp.so.1";
}

}  // namespace

int main(int argc, char** argv) {
    lb::Cli cli(argc, argv, "composition_blas", "P tasks x OpenBLAS dgemm");
    const int n = int(cli.integer("n", 256, 8, 8192, "matrix order"));
    const int blas_threads = int(cli.integer("blas_threads", 0, 0, 4096,
                                             "threads per dgemm (0: OpenBLAS's default)"));
    const int callers_opt = int(cli.integer("callers", 0, 0, 4096,
                                            "tasks calling dgemm (0: one per worker)"));
    auto run = lb::run_options(cli, 3);
    cli.finish();
    const int workers = lb::default_threads(run);
    const int callers = composition::callers_or(callers_opt, workers);
    const long calls = composition::calls_for(n);
    lb::JsonObject extra;
    extra.set("blas", composition::loaded_path("libopenblas"));
    if (const std::string wrong = wrong_setup(); !wrong.empty()) {
        std::fprintf(stderr, "composition_blas: %s\n", wrong.c_str());
        lb::report(cli, run, workers, composition::no_times, false, lb::JsonObject(), extra, wrong);
        return 77;  // not this benchmark's to measure: the wrong libraries are on the path
    }
    composition::limit_blas(blas_threads);
    std::vector<composition::gemm_problem> problems;
    for (int t = 0; t < callers; ++t) problems.emplace_back(n);
    composition::thread_peak peak({composition::stall_limit_for(n), [&](double limit_s) {
        lb::report(cli, run, workers, {limit_s}, false, lb::JsonObject(), extra,
                   composition::stall_text(limit_s));
    }});
    auto times = lb::measure(run, [&] {
        std::vector<loom::future<void>> done;
        for (int t = 0; t < callers; ++t)
            done.push_back(loom::async([&, t] {
                composition::limit_blas(blas_threads);
                for (long c = 0; c < calls; ++c) problems[std::size_t(t)].run();
            }));
        for (auto& f : done) f.get();
    });
    const int peak_threads = peak.stop();
    bool ok = true;
    for (auto& p : problems) ok = ok && p.correct();
    return lb::report(cli, run, workers, times, ok,
                      lb::JsonObject()
                          .set("flops", double(callers) * double(calls) * problems[0].flops())
                          .set("peak_threads", peak_threads),
                      extra);
}
