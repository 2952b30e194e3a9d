// bench/taylor: ln(1 + x) as a sum of n Taylor terms, the same sum in every system.
// The series and its check are the examples' (examples/taylor/taylor.hpp), so this
// measures the kernel the tutorial shows: each term computed on its own with
// std::pow, about 12 ns. Every repetition's sum is checked against std::log1p within
// the first term left out (plus rounding). work.terms = n, so terms/s = n / time.
//
// x defaults to 0.9999999, not the examples' 0.5: there the series needs 1e8 terms
// to reach double precision, and x^k stays a normal number. With x = 0.5, x^k
// underflows from k = 1075 on, and std::pow's underflow path (glibc: a subnormal
// product and errno) then takes nearly every call; its cost changed by 1.5x with the
// address of the calling thread's stack (measured on AMD EPYC: 19.5 or 29.5 ns a term
// for 16-byte shifts of the same thread's stack), which would have measured where
// each runtime puts its stacks instead of the runtimes.
#pragma once

#include <cstdint>
#include <string>

#include "bench.hpp"
#include "taylor.hpp"

namespace taylor_bench {

namespace lb = loom_bench;

struct problem {
    std::uint64_t n = 0;
    double x = 0.5;
};

inline problem read_problem(lb::Cli& cli) {
    problem p;
    p.n = static_cast<std::uint64_t>(cli.integer("n", 10000000, 1, 1LL << 40, "terms of the series"));
    p.x = cli.real("x", 0.9999999, -0.9999999, 0.9999999, "the x of ln(1 + x)");
    return p;
}

/// Times sum() (which returns the series' value) and reports the record.
template <class Sum>
int run(lb::Cli& cli, const lb::RunOptions& run, int threads, const problem& p, Sum&& sum,
        const lb::JsonObject& extra = {}) {
    double s = 0.0;
    const lb::Timing t = lb::measure_checked(
        run, [&] { s = 0.0; },
        [&] {
            s = sum();
            lb::do_not_optimize(s);
        },
        [&] { return taylor::within_bound(s, p.x, p.n); });
    return lb::report(cli, run, threads, t.times, t.verified,
                      lb::JsonObject().set("terms", static_cast<double>(p.n)), extra,
                      "the sum is not std::log1p(x) within the first omitted term");
}

}  // namespace taylor_bench
