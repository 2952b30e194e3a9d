// ln(1 + x) on loom's C++ API, in the styles of examples/taylor (--style):
//   futures     one loom::async per chunk, loom::when_all, a .then that adds them
//   for_loop    experimental::for_loop with a reduction, par.with(static_chunk_size)
//   coroutines  a loom::lazy<double> that halves its range: spawn one half, co_await
//               the other, down to a chunk
//   senders     schedule(pool) | then(make the parts) | bulk(one chunk per index) |
//               then(add the parts), waited for by sync_wait
// --chunk: terms per task (0: the style's default, recorded in extra.chunk).
#include <algorithm>
#include <cstdint>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

#include "loom/for_loop.hpp"
#include "loom/future.hpp"
#include "loom/async.hpp"
#include "loom/lazy.hpp"
#include "loom/runtime.hpp"
#include "loom/sender.hpp"
#include "loom/when_all.hpp"
#include "taylor_bench.hpp"

namespace lb = loom_bench;

namespace {

double with_futures(std::uint64_t n, double x, std::uint64_t chunk) {
    std::vector<loom::future<double>> parts;
    parts.reserve(static_cast<std::size_t>(n / chunk + 1));
    for (std::uint64_t first = 1; first <= n; first += chunk) {
        parts.push_back(loom::async(taylor::partial_sum, first, std::min(first + chunk, n + 1), x));
    }
    return loom::when_all(std::move(parts))
        .then([](auto all) {
            double s = 0.0;
            for (loom::future<double>& part : all.get()) s += part.get();
            return s;
        })
        .get();
}

double with_for_loop(std::uint64_t n, double x, std::uint64_t chunk) {
    namespace ex = loom::execution;
    double sum = 0.0;
    loom::experimental::for_loop(ex::par.with(ex::static_chunk_size(chunk)), std::uint64_t{1}, n + 1,
                                 loom::experimental::reduction(sum, 0.0, std::plus<>{}),
                                 [x](std::uint64_t k, double& partial) { partial += taylor::term(k, x); });
    return sum;
}

loom::lazy<double> sum_terms(std::uint64_t first, std::uint64_t last, double x, std::uint64_t chunk) {
    if (last - first <= chunk) co_return taylor::partial_sum(first, last, x);
    const std::uint64_t mid = first + (last - first) / 2;
    loom::future<double> left = loom::spawn(sum_terms(first, mid, x, chunk));
    const double right = co_await sum_terms(mid, last, x, chunk);
    co_return co_await std::move(left) + right;
}

double with_coroutines(std::uint64_t n, double x, std::uint64_t chunk) {
    return loom::start(sum_terms(1, n + 1, x, chunk)).get();
}

double with_senders(std::uint64_t n, double x, std::uint64_t chunk) {
    namespace ex = loom::execution::experimental;
    const std::size_t chunks = static_cast<std::size_t>((n + chunk - 1) / chunk);
    auto work = ex::schedule(ex::pool_scheduler{})
              | ex::then([chunks] { return std::vector<double>(chunks, 0.0); })
              | ex::bulk(chunks, [=](std::size_t i, std::vector<double>& parts) {
                    const std::uint64_t first = 1 + i * chunk;
                    parts[i] = taylor::partial_sum(first, std::min(first + chunk, n + 1), x);
                })
              | ex::then([](std::vector<double> parts) { return std::accumulate(parts.begin(), parts.end(), 0.0); });
    return std::get<0>(loom::this_thread::experimental::sync_wait(std::move(work)).value());
}

// Chunks per worker by default: a few, so that a worker slowed by another process
// on the machine hands its share over.
std::uint64_t default_chunk(const std::string& style, std::uint64_t n, unsigned workers) {
    const std::uint64_t per_worker = style == "futures" ? 4 : 8;
    return std::max<std::uint64_t>(1, n / (per_worker * workers));
}

}  // namespace

int main(int argc, char** argv) {
    lb::Cli cli(argc, argv, "taylor", "ln(1 + x) as a Taylor series on loom: futures, for_loop, coroutines, senders");
    const std::string style =
        cli.choice("style", "futures", {"futures", "for_loop", "coroutines", "senders"}, "the style");
    const taylor_bench::problem p = taylor_bench::read_problem(cli);
    const auto chunk_arg = static_cast<std::uint64_t>(cli.integer("chunk", 0, 0, 1LL << 40, "terms per task (0: default)"));
    auto run = lb::run_options(cli);
    cli.finish();
    loom::runtime rt{loom::runtime_options{.num_threads = unsigned(lb::default_threads(run))}};
    const unsigned workers = loom::num_threads();
    const std::uint64_t chunk = chunk_arg > 0 ? chunk_arg : default_chunk(style, p.n, workers);
    double (*sum)(std::uint64_t, double, std::uint64_t) =
        style == "futures"    ? with_futures
        : style == "for_loop" ? with_for_loop
        : style == "senders"  ? with_senders
                              : with_coroutines;
    // The measurement runs as a task, as a loom_main does: on one worker the main thread
    // stays outside the pool, and a parallel algorithm called from there would run
    // chunks on it too (two threads at T = 1).
    return loom::async([&] {
               return taylor_bench::run(
                   cli, run, int(workers), p, [&] { return sum(p.n, p.x, chunk); },
                   lb::JsonObject().set("chunk", static_cast<double>(chunk)));
           })
        .get();
}
