// ln(1 + x) with a parallel loop: loom::experimental::for_loop over the terms with a
// reduction into `sum`, cut into chunks of a fixed size (static_chunk_size).
//
//     example_taylor_for_loop [--x=0.5] [--n=10000000] [--chunk=TERMS] [--loom:threads=N]
#include <loom/loom_main.hpp>
#include <loom/loom.hpp>

#include <cstdint>
#include <functional>

#include "taylor.hpp"

int loom_main(int argc, char** argv) {
    const taylor::options opt = taylor::parse(argc, argv);
    const std::uint64_t chunk = opt.chunk > 0 ? opt.chunk : 100'000;
    namespace ex = loom::execution;
    using loom::experimental::for_loop;
    using loom::experimental::reduction;

    double sum = 0.0;
    // Each chunk adds into its own accumulator (starting at 0.0); the accumulators are
    // combined into `sum` with std::plus when the loop ends.
    for_loop(ex::par.with(ex::static_chunk_size(chunk)), std::uint64_t{1}, opt.n + 1,
             reduction(sum, 0.0, std::plus<>{}),
             [x = opt.x](std::uint64_t k, double& partial) { partial += taylor::term(k, x); });
    return taylor::report("for_loop + reduction", opt, sum);
}
