// Executor parameters for the parallel algorithms, as in HPX: passed to a policy with
// `.with(...)`, e.g. loom::execution::par.with(loom::execution::static_chunk_size(1000)).
// Each one writes its field of detail::chunk_parameters; the algorithms read the
// result (detail/algorithm_plan.hpp turns it into a schedule). See docs/algorithms.md.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace loom::execution {

namespace detail {

/// How the iterations of one algorithm call are cut into chunks and handed out.
enum class schedule : std::uint8_t {
    unspecified,  // the default: about 8 chunks per core, split recursively
    fixed,        // static_chunk_size: chunks of one size, split recursively
    dynamic,      // dynamic_chunk_size: chunks claimed one by one from a shared index
    guided,       // guided_chunk_size: claimed chunks shrinking with what is left
    measured,     // auto_chunk_size: measure the first iterations, then fixed
};

/// Everything `.with(...)` can set; zero means "not given".
struct chunk_parameters {
    schedule kind = schedule::unspecified;
    std::size_t chunk = 0;                          // iterations per chunk (minimum for guided)
    std::chrono::nanoseconds target{20'000};        // auto: what one chunk should cost
    unsigned cores = 0;                             // num_cores: most workers taking part
};

}  // namespace detail

/// Chunks of `n` iterations, split recursively over the workers (OpenMP's
/// schedule(static, n)). Without `n` (or n == 0): one chunk per core.
struct static_chunk_size {
    constexpr static_chunk_size() noexcept = default;
    constexpr explicit static_chunk_size(std::size_t n) noexcept : size(n) {}
    constexpr void apply(detail::chunk_parameters& p) const noexcept {
        p.kind = detail::schedule::fixed;
        p.chunk = size;
    }
    std::size_t size = 0;
};

/// Chunks of `n` iterations claimed one at a time from a shared counter by every
/// taking-part worker (OpenMP's schedule(dynamic, n)): best for uneven iterations.
struct dynamic_chunk_size {
    constexpr explicit dynamic_chunk_size(std::size_t n = 1) noexcept : size(n) {}
    constexpr void apply(detail::chunk_parameters& p) const noexcept {
        p.kind = detail::schedule::dynamic;
        p.chunk = size == 0 ? 1 : size;
    }
    std::size_t size;
};

/// Claimed chunks of (remaining / (2 * workers)) iterations, never fewer than `n`
/// (OpenMP's schedule(guided, n)).
struct guided_chunk_size {
    constexpr explicit guided_chunk_size(std::size_t n = 1) noexcept : min_size(n) {}
    constexpr void apply(detail::chunk_parameters& p) const noexcept {
        p.kind = detail::schedule::guided;
        p.chunk = min_size == 0 ? 1 : min_size;
    }
    std::size_t min_size;
};

/// Runs the first iterations (up to 1 %) on the calling thread while timing them,
/// then picks the chunk size so that one chunk costs about `target` (20 us unless
/// given): enough to hide the cost of a task, small enough to balance.
struct auto_chunk_size {
    constexpr auto_chunk_size() noexcept = default;
    constexpr explicit auto_chunk_size(std::chrono::nanoseconds t) noexcept : target(t) {}
    constexpr void apply(detail::chunk_parameters& p) const noexcept {
        p.kind = detail::schedule::measured;
        p.target = target.count() > 0 ? target : std::chrono::nanoseconds(20'000);
    }
    std::chrono::nanoseconds target{20'000};
};

/// Uses at most `n` workers (the calling one included) for the algorithm; 0 = all.
struct num_cores {
    constexpr explicit num_cores(unsigned n = 0) noexcept : cores(n) {}
    constexpr void apply(detail::chunk_parameters& p) const noexcept { p.cores = cores; }
    unsigned cores;
};

/// True for the types `.with(...)` accepts.
template <class T>
concept executor_parameter = requires(const T& t, detail::chunk_parameters& p) { t.apply(p); };

}  // namespace loom::execution
