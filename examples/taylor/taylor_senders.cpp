// ln(1 + x) with senders: a description of the work -- start on loom's pool, one bulk
// iteration per chunk of terms writing its partial sum, then add the partial sums --
// run and waited for by sync_wait.
//
//     example_taylor_senders [--x=0.5] [--n=10000000] [--chunk=TERMS] [--loom:threads=N]
#include <loom/loom_main.hpp>
#include <loom/loom.hpp>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "taylor.hpp"

namespace ex = loom::execution::experimental;
namespace tt = loom::this_thread::experimental;

int loom_main(int argc, char** argv) {
    const taylor::options opt = taylor::parse(argc, argv);
    const std::uint64_t chunk =
        opt.chunk > 0 ? opt.chunk : std::max<std::uint64_t>(1, opt.n / (4 * loom::get_os_thread_count()));
    const std::size_t chunks = static_cast<std::size_t>((opt.n + chunk - 1) / chunk);

    ex::pool_scheduler pool;
    auto work = ex::schedule(pool)
              | ex::then([chunks] { return std::vector<double>(chunks, 0.0); })
              | ex::bulk(chunks, [&](std::size_t i, std::vector<double>& parts) {
                    const std::uint64_t first = 1 + i * chunk;
                    parts[i] = taylor::partial_sum(first, std::min(first + chunk, opt.n + 1), opt.x);
                })
              | ex::then([](std::vector<double> parts) {
                    return std::accumulate(parts.begin(), parts.end(), 0.0);  // in chunk order
                });
    auto [sum] = tt::sync_wait(std::move(work)).value();
    return taylor::report("senders + bulk", opt, sum);
}
