// Composition: P plain pthreads each run many small `parallel for` regions that ask for
// P threads (a few microseconds of work each), as independent libraries or request handlers
// do. A runtime that gives every caller its own team runs P x P threads on P CPUs.
// --team 1 gives every region one thread: no oversubscription, the yardstick for the
// P-thread regions.
#include <pthread.h>

#include <vector>

#include "composition.hpp"
#include "omp_team.hpp"

namespace lb = loom_bench;

namespace {

struct caller {
    int team = 0;
    long calls = 0;
    std::vector<double> data;
    double sum = 0;
};

void* run_caller(void* arg) {
    auto* c = static_cast<caller*>(arg);
    const long n = long(c->data.size());
    double* d = c->data.data();
    for (long k = 0; k < c->calls; ++k) {
#pragma omp parallel for num_threads(c->team) schedule(static)
        for (long i = 0; i < n; ++i) d[i] += 1.0;
    }
    double s = 0;
    for (long i = 0; i < n; ++i) s += d[i];
    c->sum = s;
    return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
    lb::Cli cli(argc, argv, "composition_regions", "P pthreads x small parallel-for regions of P threads");
    const long calls = long(cli.integer("calls", 10000, 1, 100000000, "regions per pthread"));
    const long n = long(cli.integer("n", 8192, 1, 1L << 30, "elements per region (8192: a few us)"));
    const int team = int(cli.integer("team", 0, 0, 4096, "threads each region asks for (0: P)"));
    auto run = lb::run_options(cli, 3);
    cli.finish();
    const int p = lb::default_threads(run);
    std::vector<caller> callers(static_cast<std::size_t>(p));
    composition::thread_peak peak;
    auto times = lb::measure(run, [&] {
        std::vector<pthread_t> ids(static_cast<std::size_t>(p));
        for (int t = 0; t < p; ++t) {
            caller& c = callers[std::size_t(t)];
            c.team = team > 0 ? team : p;
            c.calls = calls;
            c.data.assign(std::size_t(n), 0.0);
            pthread_create(&ids[std::size_t(t)], nullptr, run_caller, &c);
        }
        for (auto id : ids) pthread_join(id, nullptr);
    });
    const int peak_threads = peak.stop();
    bool ok = true;
    for (auto& c : callers) ok = ok && c.sum == double(n) * double(calls);
    return lb::report(cli, run, p, times, ok,
                      lb::JsonObject().set("regions", double(p) * double(calls)).set("peak_threads", peak_threads));
}
