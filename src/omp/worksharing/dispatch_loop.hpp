// A member's side of a dynamic worksharing loop (schedule dynamic, guided, runtime,
// auto, ordered, distribute + dispatch): begin, next chunk, ordered step. The protocol
// and the team's ring of buffers: dispatch.hpp / dispatch.cpp.
//
// The per-chunk path (dispatch_next) is inline here: the ABI entry points of both
// compilers call it once per chunk, and a call into dispatch.cpp on top of theirs
// would cost every chunk a frame. Everything rarer stays out of line in dispatch.cpp.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <type_traits>

#include "abi.hpp"
#include "parallel/team.hpp"
#include "parallel/thread.hpp"
#include "worksharing/dispatch.hpp"

namespace loom::omp {

/// Begins a dynamic loop over [lb, ub] step st for `it` with a kmpc schedule kind
/// (sched_type, modifiers included) and chunk. Instantiated for the four kmpc integer
/// pairs (int32/int32, uint32/int32, int64/int64, uint64/int64).
template <class T, class ST>
void dispatch_init(implicit_task* it, kmp_int32 schedule, T lb, T ub, ST st, ST chunk);
/// As dispatch_init, on this team's block of the iteration space (distribute parallel
/// for); *plast tells whether the team's block holds the last iteration.
template <class T, class ST>
void dist_dispatch_init(implicit_task* it, kmp_int32 schedule, kmp_int32* plast, T lb, T ub,
                        ST st, ST chunk);
/// The end of one chunk of an ordered loop: passes the ordered turn on if the chunk's
/// iteration did not run its ordered region.
void dispatch_fini(implicit_task* it);
/// Next chunk of the calling member's current dynamic loop, in the loop's type:
/// 1 and [*plb, *pub] (stride *pst, *plast set on the last chunk), or 0 when done.
template <class T, class ST>
int dispatch_next(kmp_int32* plast, T* plb, T* pub, ST* pst);

namespace dispatch_detail {

// Resolved kinds (loop_state::kind). k_block_rounded: one block per member, its size
// rounded up to the chunk (the simd width); k_guided_simd: guided chunks that are
// multiples of the chunk.
enum kind_t : int {
    k_block = 0,
    k_chunked = 1,
    k_dynamic = 2,
    k_guided = 3,
    k_done = 4,
    k_block_rounded = 5,
    k_guided_simd = 6,
    k_steal = 7,  // nonmonotonic dynamic: per-member shares of chunks, stealing
};

constexpr std::uint64_t pack_range(std::uint64_t lo, std::uint64_t hi) { return (hi << 32) | lo; }

/// Every case but a team loop's dynamic, stealing or guided chunk: out of line, so that
/// the per-chunk path stays a leaf that saves no registers.
template <class T, class ST>
__attribute__((noinline)) int next_general(implicit_task* it, kmp_int32* plast, T* plb, T* pub,
                                           ST* pst);
/// The member's loop is done: leaves its buffer; returns 0.
__attribute__((noinline)) int finish_loop(implicit_task* it);
/// Takes the upper half of another member's share (its first chunk for the caller, the
/// rest as the caller's new share); false once every share is empty.
__attribute__((noinline)) bool steal_chunk(chunk_range* ranges, std::uint64_t tid,
                                           std::uint64_t n, std::uint32_t loop,
                                           std::uint64_t& chunk_index);

// A guided chunk: remaining / threads, at least `chunk`, as GNU OpenMP (half the
// chunks of libomp's remaining / (2 threads) for the same balance at the loop's end).
inline bool next_guided(dispatch_buffer& b, std::uint64_t trip, std::uint64_t chunk,
                        std::uint64_t n, std::uint64_t& begin, std::uint64_t& end) {
    std::uint64_t cur = b.next.load(std::memory_order_relaxed);
    for (;;) {
        if (cur >= trip) return false;
        const std::uint64_t rem = trip - cur;
        const std::uint64_t size = std::min(std::max(chunk, (rem + n - 1) / n), rem);
        if (b.next.compare_exchange_weak(cur, cur + size, std::memory_order_relaxed)) {
            begin = cur;
            end = cur + size;
            return true;
        }
    }
}

// The next chunk of a stealing loop: from the member's own share (a CAS on its own
// line), else stolen.
//
// A member that took the loop's last chunk takes no other: compilers copy lastprivate
// and linear variables out in the member that ran the last iteration, and clang knows
// it from the last chunk's `last` flag, which the next chunk handed out would clear
// (libomp's static_steal loses the copy-out that way). The last chunk is always the top
// of the share holding it (thieves take upper halves and own what they took), so an
// empty own share ending at the loop's chunk count means this member took it; a member
// whose initial share was empty (fewer chunks than members) has nothing to steal anyway.
inline bool next_share(chunk_range* ranges, std::uint64_t tid, std::uint64_t n,
                       std::uint32_t loop, std::uint64_t trip, std::uint64_t chunk,
                       std::uint64_t& chunk_index) {
    chunk_range& mine = ranges[tid];
    std::uint64_t v = mine.v.load(std::memory_order_relaxed);
    for (;;) {
        const std::uint64_t lo = v & 0xffffffffu, hi = v >> 32;
        if (lo >= hi)  // the division only here, off the per-chunk path
            return hi != (trip + chunk - 1) / chunk &&
                   steal_chunk(ranges, tid, n, loop, chunk_index);
        if (mine.v.compare_exchange_weak(v, pack_range(lo + 1, hi), std::memory_order_relaxed)) {
            chunk_index = lo;
            return true;
        }
    }
}

// A chunk [begin, end) of normalised iterations in the loop's own type and stride.
template <class T, class ST>
int hand_out(const loop_state& L, std::uint64_t begin, std::uint64_t end, kmp_int32* plast,
             T* plb, T* pub, ST* pst) {
    using U = std::make_unsigned_t<T>;
    const U lb = static_cast<U>(L.lb);
    const U st = static_cast<U>(L.st);
    *plb = static_cast<T>(lb + static_cast<U>(begin) * st);
    *pub = static_cast<T>(lb + static_cast<U>(end - 1) * st);
    if (pst) *pst = static_cast<ST>(L.st);
    if (plast) *plast = end == L.trip ? 1 : 0;
    return 1;
}

}  // namespace dispatch_detail

// The per-chunk path of schedule(dynamic) (shared counter or shares) and
// schedule(guided) in a team, worth its own branch: ~45 instructions around the atomic,
// a leaf that saves no registers (next_general serves every other case the long way).
// It reaches no suspension point, so the TLS pointer may be read inline (thread.hpp).
template <class T, class ST>
inline int dispatch_next(kmp_int32* plast, T* plb, T* pub, ST* pst) {
    using namespace dispatch_detail;
    thread_state* th = tl_state;
    if (__builtin_expect(th == nullptr, 0))
        return next_general<T, ST>(current_task(), plast, plb, pub, pst);
    implicit_task* it = th->current;
    const loop_state& L = it->loop;
    if (L.shared_kind == 0 ||
        it->tm->cancel_request.load(std::memory_order_relaxed) == cancel_loop)
        return next_general<T, ST>(it, plast, plb, pub, pst);
    // Loaded before the RMW: the compiler does not move plain loads across an atomic.
    const std::uint64_t chunk = L.chunk, trip = L.trip;
    std::uint64_t begin, end;
    if (L.shared_kind == k_steal) {
        std::uint64_t c = 0;
        if (!next_share(L.buf->ranges, static_cast<std::uint64_t>(it->tid),
                        static_cast<std::uint64_t>(it->nthreads), L.construct + 1, trip, chunk,
                        c))
            return finish_loop(it);
        begin = c * chunk;
        end = std::min(begin + chunk, trip);
    } else if (L.shared_kind == k_dynamic) {
        // One read-modify-write and no read before it: a load would first share the
        // contended line and the RMW then upgrade it, two transfers per chunk. Past the
        // end `next` keeps growing by a chunk per call (64-bit: no overflow).
        begin = L.buf->next.fetch_add(chunk, std::memory_order_relaxed);
        if (begin >= trip) return finish_loop(it);
        end = std::min(begin + chunk, trip);
    } else if (!next_guided(*L.buf, trip, chunk, static_cast<std::uint64_t>(it->nthreads), begin,
                            end)) {
        return finish_loop(it);
    }
    return hand_out(L, begin, end, plast, plb, pub, pst);
}

}  // namespace loom::omp
