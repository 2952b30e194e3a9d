// Helpers of the parallel-algorithm tests: every policy / parameter combination the
// tests run each algorithm under, the input sizes, and seeded random inputs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "loom/execution.hpp"

namespace loom_test {

namespace ex = loom::execution;

/// Calls fn(policy, name) for every policy and chunk parameter (policies of one kind
/// share a type, so fn is instantiated once per kind).
template <class Fn>
void for_each_policy(Fn&& fn) {
    fn(ex::seq, "seq");
    fn(ex::unseq, "unseq");
    fn(ex::par, "par");
    fn(ex::par_unseq, "par_unseq");
    fn(ex::par.with(ex::static_chunk_size(1)), "par static(1)");
    fn(ex::par.with(ex::static_chunk_size(37)), "par static(37)");
    fn(ex::par.with(ex::static_chunk_size()), "par static()");
    fn(ex::par.with(ex::dynamic_chunk_size(1)), "par dynamic(1)");
    fn(ex::par.with(ex::dynamic_chunk_size(100)), "par dynamic(100)");
    fn(ex::par.with(ex::guided_chunk_size()), "par guided()");
    fn(ex::par.with(ex::guided_chunk_size(50)), "par guided(50)");
    fn(ex::par.with(ex::auto_chunk_size()), "par auto");
    fn(ex::par.with(ex::auto_chunk_size(std::chrono::microseconds(1))), "par auto(1us)");
    fn(ex::par.with(ex::num_cores(1)), "par num_cores(1)");
    fn(ex::par.with(ex::num_cores(2), ex::static_chunk_size(64)), "par num_cores(2) static(64)");
    fn(ex::par_unseq.with(ex::dynamic_chunk_size(16)), "par_unseq dynamic(16)");
    fn(ex::par.on(ex::parallel_executor(loom::priority::high)), "par on high");
}

/// Calls fn(policy, name) for the sequential and the plain parallel policy: for
/// tests whose cases multiply too fast to run under every chunk parameter.
template <class Fn>
void for_seq_and_par(Fn&& fn) {
    fn(ex::seq, "seq");
    fn(ex::par, "par");
}

/// Sizes every algorithm is checked at: empty, one element, small, around a chunk
/// boundary, and large enough that every worker gets chunks.
inline const std::vector<std::size_t>& sizes() {
    static const std::vector<std::size_t> s{0, 1, 2, 17, 1000, 100000};
    return s;
}

inline std::vector<int> random_ints(std::size_t n, int lo, int hi, std::uint32_t seed = 42) {
    std::mt19937 gen(seed + static_cast<std::uint32_t>(n));
    std::uniform_int_distribution<int> dist(lo, hi);
    std::vector<int> v(n);
    for (int& x : v) x = dist(gen);
    return v;
}

inline std::vector<std::string> random_strings(std::size_t n, std::uint32_t seed = 7) {
    std::mt19937 gen(seed + static_cast<std::uint32_t>(n));
    std::uniform_int_distribution<int> len(0, 12);
    std::uniform_int_distribution<int> ch('a', 'e');
    std::vector<std::string> v(n);
    for (auto& s : v) {
        s.resize(static_cast<std::size_t>(len(gen)));
        for (char& c : s) c = static_cast<char>(ch(gen));
    }
    return v;
}

}  // namespace loom_test
