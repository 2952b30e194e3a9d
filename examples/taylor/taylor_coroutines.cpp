// ln(1 + x) with coroutines: a loom::lazy<double> halves its range of terms, spawns
// one half as a task of its own, co_awaits the other half here, then co_awaits the
// spawned half. Below `chunk` terms it adds them up itself.
//
//     example_taylor_coroutines [--x=0.5] [--n=10000000] [--chunk=TERMS] [--loom:threads=N]
#include <loom/loom_main.hpp>
#include <loom/loom.hpp>

#include <algorithm>
#include <cstdint>

#include "taylor.hpp"

namespace {

loom::lazy<double> sum_terms(std::uint64_t first, std::uint64_t last, double x, std::uint64_t chunk) {
    if (last - first <= chunk) co_return taylor::partial_sum(first, last, x);
    const std::uint64_t mid = first + (last - first) / 2;
    loom::future<double> left = loom::spawn(sum_terms(first, mid, x, chunk));  // may be stolen
    const double right = co_await sum_terms(mid, last, x, chunk);                // runs here
    co_return co_await std::move(left) + right;  // inline if no other worker took it
}

}  // namespace

int loom_main(int argc, char** argv) {
    const taylor::options opt = taylor::parse(argc, argv);
    const std::uint64_t chunk =
        opt.chunk > 0 ? opt.chunk : std::max<std::uint64_t>(1, opt.n / (8 * loom::get_os_thread_count()));
    // start() runs the lazy coroutine now and hands back a future of its result.
    const double sum = loom::start(sum_terms(1, opt.n + 1, opt.x, chunk)).get();
    return taylor::report("coroutines (lazy + co_await)", opt, sum);
}
