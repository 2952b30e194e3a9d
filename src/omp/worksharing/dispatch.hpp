// Shared state of dynamic worksharing loops (__kmpc_dispatch_*): a small ring of
// buffers per team, one per loop in flight, so members may run ahead through
// `nowait` loops. See dispatch.cpp for the protocol.
#pragma once

#include <atomic>
#include <cstdint>

namespace loom::omp {

struct implicit_task;
struct team;
struct doacross_loop;

/// One member's share of a nonmonotonic dynamic loop, in chunks: (hi << 32) | lo. The
/// owner sets it up, then publishes `loop` (the loop's construct number + 1); it takes
/// chunk lo (CAS lo -> lo + 1); a member whose share ran out takes the upper half of
/// another's published share (CAS hi -> hi - half). All on the owner's own line.
struct alignas(64) chunk_range {
    std::atomic<std::uint64_t> v{0};
    std::atomic<std::uint32_t> loop{0};
};

struct alignas(64) dispatch_buffer {
    std::atomic<std::uint64_t> next{0};        // next normalised iteration to hand out
    alignas(64) std::atomic<std::uint32_t> claimed{0};  // construct number + 1 being set up
    std::atomic<std::uint32_t> ready{0};       // construct number + 1 ready to use
    std::atomic<std::uint32_t> finished{0};    // members done with the current construct
    std::atomic<std::uint64_t> ord_next{0};    // ordered: next iteration allowed in
    std::uint64_t trip = 0;
    std::uint64_t chunk = 1;
    int kind = 0;
    // doacross loop served by this buffer (doacross.cpp): made by the claimer, freed by
    // the last member to finish it (or here, if a region ended without that).
    std::atomic<doacross_loop*> doacross{nullptr};
    // Nonmonotonic dynamic loops: a share per member (the team's capacity of them),
    // allocated by the first claimer that needs them.
    chunk_range* ranges = nullptr;

    dispatch_buffer() = default;
    ~dispatch_buffer();
    dispatch_buffer(const dispatch_buffer&) = delete;
    dispatch_buffer& operator=(const dispatch_buffer&) = delete;
};

/// Resets a team's `count` buffers for a new region.
void reset_dispatch(dispatch_buffer* ring, unsigned count) noexcept;

/// The team's buffer that serves construct number `construct`.
dispatch_buffer& ring_buffer(team* t, std::uint32_t construct) noexcept;
/// Enters the buffer of construct `construct` (after every member finished the construct
/// that used it before). True: the caller claimed it, must set it up and then call
/// publish_buffer. False: the claimer already published it.
bool enter_buffer(team* t, std::uint32_t construct);
void publish_buffer(dispatch_buffer& b, std::uint32_t construct) noexcept;
/// The member is done with the construct `b` serves; true for the last of `nthreads`.
bool leave_buffer(dispatch_buffer& b, int nthreads) noexcept;

/// Frees a doacross loop's shared state (doacross.cpp).
void free_doacross(doacross_loop* d) noexcept;

/// Ordered region entry/exit for the current dispatch loop of `it`.
void ordered_enter(implicit_task* it);
void ordered_exit(implicit_task* it);
/// The member leaves its current dynamic loop early (cancellation).
void abandon_loop(implicit_task* it);

}  // namespace loom::omp
