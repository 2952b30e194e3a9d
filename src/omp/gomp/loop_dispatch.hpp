// The shared shape of every GOMP loop entry point (loop.cpp, loop_ull.cpp,
// doacross.cpp): gcc hands out [istart, iend) with an exclusive end and the sign of the
// increment giving the direction; the dispatch loops (worksharing/dispatch_loop.hpp, as
// __kmpc_dispatch_*_8/_8u) take and give inclusive bounds. Each member's chunks come
// from the same dispatch loop clang's code uses, so schedules, the team's ring of loop
// buffers (nowait loops back to back) and ordered turns are one implementation.
#pragma once

#include <cstdint>
#include <type_traits>

#include "gomp/gomp_abi.hpp"
#include "ompt/events.hpp"
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
/// An unsigned loop whose step's magnitude is 2^63 or more: kmpc's signed 64-bit step
/// cannot say it (loop-6.c: `j += LLONG_MAX + 50ULL` counting up). Such a loop has one
/// or two iterations; the dispatch runs over their numbers instead.
inline bool step_beyond_int64(bool up, unsigned long long incr) {
    const unsigned long long magnitude = up ? incr : 0ULL - incr;
    return magnitude > static_cast<unsigned long long>(INT64_MAX);
}

inline void begin_scaled(bool up, unsigned long long start, unsigned long long end,
                         unsigned long long incr, kmp_int32 sched, kmp_int64 chunk) {
    const unsigned long long magnitude = up ? incr : 0ULL - incr;
    const unsigned long long span = up ? (end - 1) - start : start - (end + 1);
    loop_state& L = current_task()->loop;
    const unsigned long long trip = span / magnitude + 1;
    dispatch_of<unsigned long long>::init(sched, 0, trip - 1, 1, chunk);
    // After init, which resets the member's loop state.
    L.scaled = true;
    L.scaled_base = start;
    L.scaled_step = incr;  // two's complement when counting down: the sum wraps right
    L.scaled_end = end;
    L.scaled_trip = trip;
}

/// Iterations of a non-empty loop [start, end) of step `incr`, for its OMPT work event.
template <class T>
std::uint64_t loop_trip_count(bool up, T start, T end, kmp_int64 incr) {
    const auto first = static_cast<std::uint64_t>(start);
    const auto last = static_cast<std::uint64_t>(end) + (up ? std::uint64_t(-1) : 1);  // inclusive
    const std::uint64_t span = up ? last - first : first - last;
    const std::uint64_t magnitude = up ? static_cast<std::uint64_t>(incr) : 0 - static_cast<std::uint64_t>(incr);
    return span / magnitude + 1;
}

/// `ra`: the construct's codeptr_ra (OMPT work begin; the entry point's end reports the
/// work's end through ompt::loop_work_end).
template <class T>
void loop_begin(bool up, T start, T end, kmp_int64 incr, kmp_int32 sched, kmp_int64 chunk,
                const void* ra) {
    using B = typename dispatch_of<T>::bound;
    if constexpr (std::is_same_v<T, unsigned long long>) current_task()->loop.scaled = false;
    const bool empty = up ? !(start < end) : !(start > end);
    if (ompt::on()) [[unlikely]]
        ompt::loop_work_begin(sched, empty ? 0 : loop_trip_count(up, start, end, incr), ra);
    if (empty) {
        dispatch_of<T>::init(sched, B(1), B(0), 1, chunk);
        return;
    }
    if constexpr (std::is_same_v<T, unsigned long long>) {
        if (step_beyond_int64(up, static_cast<unsigned long long>(incr))) {
            begin_scaled(up, start, end, static_cast<unsigned long long>(incr), sched, chunk);
            return;
        }
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
    if constexpr (std::is_same_v<T, unsigned long long>) {
        const loop_state& L = current_task()->loop;
        if (__builtin_expect(L.scaled, 0)) {
            // Iteration numbers back to values; the last chunk ends at the loop's end
            // (a value one step past the last iteration could wrap).
            *istart = L.scaled_base + lb * L.scaled_step;
            *iend = ub + 1 == L.scaled_trip ? L.scaled_end : L.scaled_base + (ub + 1) * L.scaled_step;
            LOOM_OMPT_EVENT(dispatch(ompt_dispatch_ws_loop_chunk, *istart, ub - lb + 1));
            return true;
        }
    }
    if (ompt::on()) [[unlikely]] {
        // The chunk's first iteration and its length (lb .. ub inclusive, step st).
        const auto span = st > 0 ? static_cast<std::uint64_t>(ub) - static_cast<std::uint64_t>(lb)
                                 : static_cast<std::uint64_t>(lb) - static_cast<std::uint64_t>(ub);
        const auto magnitude = static_cast<std::uint64_t>(st > 0 ? st : -st);
        ompt::dispatch(ompt_dispatch_ws_loop_chunk, static_cast<std::uint64_t>(lb), span / magnitude + 1);
    }
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
