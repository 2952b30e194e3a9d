// The shared shape of every GOMP loop entry point (loop.cpp, loop_ull.cpp,
// doacross.cpp): gcc hands out [istart, iend) with an exclusive end and the sign of the
// increment giving the direction; the dispatch loops (worksharing/dispatch_loop.hpp, as
// __kmpc_dispatch_*_8/_8u) take and give inclusive bounds. Each member's chunks come
// from the same dispatch loop clang's code uses, so schedules, the team's ring of loop
// buffers (nowait loops back to back) and ordered turns are one implementation.
#pragma once

#include <cstdint>

#include "gomp/gomp_abi.hpp"
#include "parallel/thread.hpp"
#include "worksharing/dispatch_loop.hpp"

namespace loom::omp::gomp {

/// The dispatch loop of a GOMP loop's iteration type: `long` (loop.c) and
/// `unsigned long long` (loop_ull.c).
template <class T>
struct dispatch_of;

template <>
struct dispatch_of<long> {
    using bound = kmp_int64;
    static void init(kmp_int32 sched, bound lb, bound ub, kmp_int64 st, kmp_int64 chunk) {
        dispatch_init<bound, kmp_int64>(current_task(), sched, lb, ub, st, chunk);
    }
    static int next(kmp_int32* last, bound* lb, bound* ub, kmp_int64* st) {
        return dispatch_next<bound, kmp_int64>(last, lb, ub, st);
    }
};

template <>
struct dispatch_of<unsigned long long> {
    using bound = kmp_uint64;
    static void init(kmp_int32 sched, bound lb, bound ub, kmp_int64 st, kmp_int64 chunk) {
        dispatch_init<bound, kmp_int64>(current_task(), sched, lb, ub, st, chunk);
    }
    static int next(kmp_int32* last, bound* lb, bound* ub, kmp_int64* st) {
        return dispatch_next<bound, kmp_int64>(last, lb, ub, st);
    }
};

/// Begins the calling member's share of the loop [start, end) step `incr` (`up`: the
/// loop counts upwards; ull loops say so, long loops by incr's sign). An empty range
/// (loop.c gomp_loop_init: start >= end going up) still begins a loop of no iterations,
/// so every member enters the same construct. `incr` is the step as a signed value
/// (gcc passes a downward ull step as its two's complement).
template <class T>
void loop_begin(bool up, T start, T end, kmp_int64 incr, kmp_int32 sched, kmp_int64 chunk) {
    using B = typename dispatch_of<T>::bound;
    const bool empty = up ? !(start < end) : !(start > end);
    if (empty) {
        dispatch_of<T>::init(sched, B(1), B(0), 1, chunk);
        return;
    }
    // The last value the loop may take, inclusive: end -/+ 1 cannot wrap here, since the
    // range holds at least `start` strictly before `end`.
    const B ub = up ? B(end) - 1 : B(end) + 1;
    dispatch_of<T>::init(sched, B(start), ub, incr, chunk);
}

/// The member's next chunk as [*istart, *iend), or false when the loop is done for it.
template <class T>
bool loop_next(T* istart, T* iend) {
    using B = typename dispatch_of<T>::bound;
    kmp_int32 last = 0;
    B lb{}, ub{};
    kmp_int64 st = 1;
    if (!dispatch_of<T>::next(&last, &lb, &ub, &st)) return false;
    *istart = T(lb);
    // One past the chunk's last iteration in the loop's direction: gcc's loop runs while
    // i < iend (up) or i > iend (down), so this bounds the chunk for any step.
    *iend = st > 0 ? T(ub) + 1 : T(ub) - 1;
    return true;
}

/// Before an ordered loop's member asks for its next chunk: iterations of its chunk that
/// ran no ordered region give their turn on (libgomp passes the ordered turn per chunk,
/// ordered.c gomp_ordered_next; loom's dispatch counts turns per iteration, and gcc's
/// code reports only the iterations that execute `ordered`).
inline void pass_ordered_turns() {
    implicit_task* it = current_task();
    const loop_state& L = it->loop;
    while (L.ordered && L.cur_iter < L.chunk_end) dispatch_fini(it);
}

/// The end of a worksharing loop for the calling member: ends its doacross loop if the
/// loop was one (gcc ends doacross loops with the plain GOMP_loop_end*; doacross.cpp).
void end_doacross();

}  // namespace loom::omp::gomp
