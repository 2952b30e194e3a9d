// What an algorithm call knows about its policy at run time (exec_info), and the
// schedule derived from it and the number of iterations (bulk_plan). Kept apart from
// the engine so that scans and sort, which cut their work themselves, share the rules.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>

#include "loom/execution.hpp"
#include "loom/ext/scheduler.hpp"
#include "loom/ext/task.hpp"

// Leaf loops are unrolled four times. A vectorised body of a few instructions ran at
// half speed when the compiler happened to place it across a 64-byte boundary
// (for_each over doubles, gcc 12 -O3: 0.27 against 0.14 ns per element, the same
// instructions at another address); unrolled, its speed no longer depends on where
// it lands. gcc and clang both read this pragma.
#define LOOM_DETAIL_UNROLL_LEAF _Pragma("GCC unroll 4")

namespace loom::detail {

struct exec_info {
    execution::policy_kind kind = execution::policy_kind::seq;
    execution::detail::chunk_parameters params{};
    priority prio = priority::normal;

    [[nodiscard]] bool parallel() const noexcept {
        return kind == execution::policy_kind::par || kind == execution::policy_kind::par_unseq;
    }
    /// par_unseq and unseq: an exception leaving user code calls std::terminate.
    [[nodiscard]] bool terminates() const noexcept {
        return kind == execution::policy_kind::par_unseq || kind == execution::policy_kind::unseq;
    }
};

template <class Policy>
exec_info info_of(const Policy& p) noexcept {
    return {std::remove_cvref_t<Policy>::kind, p.parameters(), p.executor().priority()};
}

/// How [0, n) is run: split recursively into chunks of `chunk` (each leaf one chunk),
/// or claimed chunk by chunk by `lanes` tasks from a shared index.
struct bulk_plan {
    std::size_t chunk = 1;
    unsigned lanes = 1;
    bool claim = false;
    bool guided = false;
    bool measure = false;  // auto_chunk_size: time the first iterations first
    bool adaptive = false; // default schedule: chunks are the finest grain, not the task size
    std::chrono::nanoseconds target{20'000};
};

inline std::size_t ceil_div(std::size_t a, std::size_t b) noexcept { return (a + b - 1) / b; }

/// Workers the call may use: the pool, capped by num_cores.
inline unsigned cores_for(const exec_info& ei) {
    const unsigned pool = ext::worker_count();  // starts the pool if needed
    return ei.params.cores != 0 ? std::min(ei.params.cores, pool) : pool;
}

/// Eight chunks per core by default: the finest grain the default schedule cuts a
/// range into, enough slack for stealing to even out a worker that starts late or
/// iterations of uneven cost. Whether a chunk becomes a task of its own is decided
/// while the call runs (bulk_runner::split): only where another worker wants work.
inline constexpr std::size_t default_chunks_per_core = 8;

inline bulk_plan make_plan(const exec_info& ei, std::size_t n) {
    using execution::detail::schedule;
    bulk_plan p;
    const unsigned cores = cores_for(ei);
    p.lanes = cores;
    p.chunk = std::max<std::size_t>(1, ceil_div(n, default_chunks_per_core * cores));
    switch (ei.params.kind) {
        case schedule::unspecified: p.adaptive = true; break;
        case schedule::fixed:
            p.chunk = ei.params.chunk != 0 ? ei.params.chunk : std::max<std::size_t>(1, ceil_div(n, cores));
            break;
        case schedule::dynamic: p.claim = true; p.chunk = ei.params.chunk; break;
        case schedule::guided: p.claim = p.guided = true; p.chunk = ei.params.chunk; break;
        case schedule::measured: p.measure = true; p.target = ei.params.target; break;
    }
    // An explicit num_cores below the pool's size bounds the concurrency: only then do
    // fixed-size lanes (claiming) replace recursive splitting, whose stolen halves
    // would spread over every worker.
    if (ei.params.cores != 0 && cores < ext::worker_count()) p.claim = true;
    return p;
}

}  // namespace loom::detail
