// Shared state of dynamic worksharing loops (__kmpc_dispatch_*): a small ring of
// buffers per team, one per loop in flight, so members may run ahead through
// `nowait` loops. See dispatch.cpp for the protocol.
#pragma once

#include <atomic>
#include <cstdint>

namespace loom::omp {

struct implicit_task;

struct alignas(64) dispatch_buffer {
    std::atomic<std::uint64_t> next{0};        // next normalised iteration to hand out
    alignas(64) std::atomic<std::uint32_t> claimed{0};  // construct number + 1 being set up
    std::atomic<std::uint32_t> ready{0};       // construct number + 1 ready to use
    std::atomic<std::uint32_t> finished{0};    // members done with the current construct
    std::atomic<std::uint64_t> ord_next{0};    // ordered: next iteration allowed in
    std::uint64_t trip = 0;
    std::uint64_t chunk = 1;
    int kind = 0;
};

inline constexpr unsigned dispatch_ring = 8;

/// Resets a team's buffers for a new region.
void reset_dispatch(dispatch_buffer* ring) noexcept;

/// Ordered region entry/exit for the current dispatch loop of `it`.
void ordered_enter(implicit_task* it);
void ordered_exit(implicit_task* it);
/// The member leaves its current dynamic loop early (cancellation).
void abandon_loop(implicit_task* it);

}  // namespace loom::omp
