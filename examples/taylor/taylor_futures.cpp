// ln(1 + x) with futures: one loom::async per chunk of terms, loom::when_all to wait
// for all of them, and a continuation (.then) that adds the partial sums.
//
//     example_taylor_futures [--x=0.5] [--n=10000000] [--chunk=TERMS] [--loom:threads=N]
#include <loom/loom_main.hpp>
#include <loom/loom.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "taylor.hpp"

int loom_main(int argc, char** argv) {
    const taylor::options opt = taylor::parse(argc, argv);
    // Four chunks per worker by default: enough for the workers to even out.
    const std::uint64_t chunk =
        opt.chunk > 0 ? opt.chunk : std::max<std::uint64_t>(1, opt.n / (4 * loom::get_os_thread_count()));

    std::vector<loom::future<double>> parts;
    for (std::uint64_t first = 1; first <= opt.n; first += chunk) {
        const std::uint64_t last = std::min(first + chunk, opt.n + 1);
        parts.push_back(loom::async(taylor::partial_sum, first, last, opt.x));
    }
    loom::future<double> sum = loom::when_all(std::move(parts)).then([](auto all) {
        double s = 0.0;
        for (loom::future<double>& part : all.get()) s += part.get();
        return s;
    });
    return taylor::report("futures + when_all", opt, sum.get());
}
