// The four workloads of bench/algorithms, shared by the loom and the
// std::execution::par (oneTBB) binaries so that both run the same operations on the
// same inputs and are checked the same way:
//   for_each        x[i] = x[i] * 1.000001 + 0.5 over doubles (memory-bound stream)
//   reduce          sum of int64 values (exact, so the check is equality)
//   sort            ascending sort of uint32 keys
//   inclusive_scan  prefix sums of int64 values into a second array
// Small n repeat the call inside one repetition (`inner`), as daxpy does, so that a
// repetition lasts long enough to time; sort always runs once (each call needs fresh
// input).
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "bench.hpp"
#include "hash.hpp"

namespace algo_bench {

namespace lb = loom_bench;

inline long inner_calls(const std::string& algo, long n) {
    if (algo == "sort") return 1;
    return std::max(1L, std::min(1000L, 2000000L / n));
}

struct data {
    std::vector<double> x;
    std::vector<std::int64_t> ints, scanned;
    std::vector<std::uint32_t> keys, sorted;
};

inline data make_data(const std::string& algo, long n) {
    data d;
    const auto un = static_cast<std::size_t>(n);
    if (algo == "for_each") d.x.assign(un, 1.0);
    if (algo == "reduce" || algo == "inclusive_scan") {
        d.ints.resize(un);
        for (std::size_t i = 0; i < un; ++i) d.ints[i] = std::int64_t(lb::mix64(i + 1) % 1000);
        d.scanned.resize(un);
    }
    if (algo == "sort") {
        d.keys.resize(un);
        d.sorted.resize(un);
    }
    return d;
}

/// Fresh keys for each repetition: sorting the same keys again lets the branch
/// predictor learn the comparisons' outcomes, and a sort of 1e4 keys then gets 2-3x
/// faster over twenty repetitions on either runtime (measured), so a median of five
/// would time the learning rather than the sort.
inline void deal_keys(data& d, std::uint64_t round) {
    const std::uint64_t base = round * 0x9E3779B97F4A7C15ull + 7;
    for (std::size_t i = 0; i < d.keys.size(); ++i) d.keys[i] = std::uint32_t(lb::mix64(base + i));
    d.sorted = d.keys;
}

inline bool check_for_each(const data& d, long calls) {
    double expect = 1.0;
    for (long c = 0; c < calls; ++c) expect = expect * 1.000001 + 0.5;
    return std::all_of(d.x.begin(), d.x.end(), [&](double v) { return v == expect; });
}

inline bool check_reduce(const data& d, std::int64_t got) {
    return got == std::accumulate(d.ints.begin(), d.ints.end(), std::int64_t(0));
}

inline bool check_scan(const data& d) {
    std::int64_t s = 0;
    for (std::size_t i = 0; i < d.ints.size(); ++i) {
        s += d.ints[i];
        if (d.scanned[i] != s) return false;
    }
    return true;
}

inline bool check_sort(const data& d) {
    if (!std::is_sorted(d.sorted.begin(), d.sorted.end())) return false;
    std::uint64_t a = 0, b = 0;
    for (auto k : d.keys) a += lb::mix64(k);
    for (auto k : d.sorted) b += lb::mix64(k);
    return a == b;
}

/// Runs the workload `algo` with the system's four calls and reports the record.
/// Calls: for_each(x, f), reduce(ints) -> int64, sort(keys), scan(ints, out).
template <class ForEach, class Reduce, class Sort, class Scan>
int run(lb::Cli& cli, const lb::RunOptions& run, int threads, const std::string& algo, long n, ForEach&& for_each,
        Reduce&& reduce, Sort&& sort, Scan&& scan) {
    data d = make_data(algo, n);
    const long calls = inner_calls(algo, n);
    std::int64_t sum = 0;
    lb::Timing t;
    if (algo == "for_each") {
        t = lb::measure_checked(
            run, [&] { std::fill(d.x.begin(), d.x.end(), 1.0); },
            [&] {
                for (long c = 0; c < calls; ++c) for_each(d.x);
            },
            [&] { return check_for_each(d, calls); });
    } else if (algo == "reduce") {
        t = lb::measure_checked(
            run, [&] { sum = 0; },
            [&] {
                for (long c = 0; c < calls; ++c) sum = reduce(d.ints);
            },
            [&] { return check_reduce(d, sum); });
    } else if (algo == "sort") {
        std::uint64_t round = 0;
        t = lb::measure_checked(
            run, [&] { deal_keys(d, round++); }, [&] { sort(d.sorted); }, [&] { return check_sort(d); });
    } else {
        t = lb::measure_checked(
            run, [&] { std::fill(d.scanned.begin(), d.scanned.end(), 0); },
            [&] {
                for (long c = 0; c < calls; ++c) scan(d.ints, d.scanned);
            },
            [&] { return check_scan(d); });
    }
    return lb::report(cli, run, threads, t.times, t.verified,
                      lb::JsonObject().set("elements", n * calls).set("calls", calls));
}

}  // namespace algo_bench
