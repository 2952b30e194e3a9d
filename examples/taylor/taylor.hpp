// The Taylor series of ln(1 + x), |x| < 1, which every taylor_<style>.cpp sums in
// parallel in its own way (docs/tutorial.md):
//
//     ln(1 + x) = sum_{k >= 1} (-1)^(k+1) x^k / k
//
// Each term is computed on its own (std::pow), as in "Shared memory parallelism in
// Modern C++ and HPX", so any split of 1..n into chunks gives the same work. The
// series alternates with falling terms, so the first term left out bounds the error:
// the check compares the sum with std::log1p within that bound (plus rounding).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace taylor {

inline double term(std::uint64_t k, double x) {
    const double sign = (k % 2 == 1) ? 1.0 : -1.0;
    return sign * std::pow(x, static_cast<double>(k)) / static_cast<double>(k);
}

/// The terms first .. last-1, in order.
inline double partial_sum(std::uint64_t first, std::uint64_t last, double x) {
    double s = 0.0;
    for (std::uint64_t k = first; k < last; ++k) s += term(k, x);
    return s;
}

struct options {
    double x = 0.5;
    std::uint64_t n = 10'000'000;  // terms
    std::uint64_t chunk = 0;       // terms per task; 0: the example's own choice
};

/// --x=X, --n=N and --chunk=C; anything else is an error (exit 2).
inline options parse(int argc, char** argv) {
    options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        char* end = nullptr;
        if (a.rfind("--x=", 0) == 0) {
            o.x = std::strtod(a.c_str() + 4, &end);
        } else if (a.rfind("--n=", 0) == 0) {
            o.n = std::strtoull(a.c_str() + 4, &end, 10);
        } else if (a.rfind("--chunk=", 0) == 0) {
            o.chunk = std::strtoull(a.c_str() + 8, &end, 10);
        }
        if (end == nullptr || *end != '\0' || !(std::fabs(o.x) < 1.0) || o.n == 0) {
            std::fprintf(stderr, "usage: %s [--x=X (|X| < 1)] [--n=TERMS (> 0)] [--chunk=TERMS] [--loom:threads=N]\n",
                         argv[0]);
            std::exit(2);
        }
    }
    return o;
}

/// Whether `sum` of n terms is std::log1p(x) within the first term left out, plus
/// rounding: each addition rounds by at most 2^-53 of a partial sum, and every
/// partial sum (of the whole series or of a run of its terms) lies within [-1, 1].
inline bool within_bound(double sum, double x, std::uint64_t n) {
    const double terms = static_cast<double>(n);
    const double truncation = std::pow(std::fabs(x), terms + 1) / (terms + 1);
    const double rounding = (terms + 16) * std::ldexp(1.0, -53);
    return std::fabs(sum - std::log1p(x)) <= truncation + rounding;
}

/// Prints the result and how far it is from std::log1p; 0 if within the bound.
inline int report(const char* style, const options& o, double sum) {
    const double expected = std::log1p(o.x);
    const double diff = std::fabs(sum - expected);
    const bool ok = within_bound(sum, o.x, o.n);
    std::printf("taylor (%s): ln(1 + %g) with %llu terms = %.15f; std::log1p = %.15f; |difference| = %.2e: %s\n",
                style, o.x, static_cast<unsigned long long>(o.n), sum, expected, diff, ok ? "ok" : "WRONG");
    return ok ? 0 : 1;
}

}  // namespace taylor
