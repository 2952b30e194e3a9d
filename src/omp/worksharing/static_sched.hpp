// Static worksharing: a member's bounds of a static loop, of a distribute loop and of
// a distribute parallel for. Pure arithmetic on the member's thread number; no shared
// state. Inline templates: the ABI entry points of both compilers instantiate them
// directly, so a loop's set-up costs no call beyond the entry point's own.
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "abi.hpp"
#include "parallel/thread.hpp"

namespace loom::omp {

namespace static_detail {

template <class T, class ST>
std::uint64_t trip_count(T lb, T ub, ST incr) {
    using U = std::make_unsigned_t<T>;
    if (incr > 0) {
        if (ub < lb) return 0;
        return static_cast<std::uint64_t>((static_cast<U>(ub) - static_cast<U>(lb)) /
                                          static_cast<U>(incr)) + 1;
    }
    if (incr < 0) {
        if (lb < ub) return 0;
        U step = static_cast<U>(U{0} - static_cast<U>(incr));
        return static_cast<std::uint64_t>((static_cast<U>(lb) - static_cast<U>(ub)) / step) + 1;
    }
    return 1;
}

template <class T, class ST>
T advance(T lb, std::uint64_t n, ST incr) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(lb) + static_cast<U>(n) * static_cast<U>(incr));
}

}  // namespace static_detail

/// Bounds of the calling member's share of a static loop (schedule kinds static,
/// static chunked, balanced chunked, distribute): *plower, *pupper, the stride between
/// its chunks and whether it runs the last iteration.
template <class T, class ST>
void for_static_init(implicit_task* it, kmp_int32 schedtype, kmp_int32* plast, T* plower,
                 T* pupper, ST* pstride, ST incr, ST chunk) {
    const int s = base_schedule(schedtype);
    const bool dist = s == distribute_static || s == distribute_static_chunked;
    const std::uint64_t tid = static_cast<std::uint64_t>(dist ? it->team_num : it->tid);
    const std::uint64_t nth = static_cast<std::uint64_t>(dist ? it->num_teams : it->nthreads);
    const T lb = *plower, ub = *pupper;
    const std::uint64_t trip = static_detail::trip_count(lb, ub, incr);
    if (plast) *plast = 0;
    if (trip == 0) {
        *pstride = incr;
        return;
    }
    if (nth <= 1) {
        if (plast) *plast = 1;
        *pstride = static_cast<ST>(static_detail::advance(T{0}, trip, incr));
        return;
    }
    const bool chunked =
        s == sch_static_chunked || s == distribute_static_chunked || s == sch_static_balanced_chunked;
    if (!chunked) {
        const std::uint64_t small = trip / nth, extras = trip % nth;
        const std::uint64_t begin = tid * small + std::min(tid, extras);
        const std::uint64_t count = small + (tid < extras ? 1 : 0);
        if (count == 0) {
            *plower = static_detail::advance(ub, 1, incr);
            *pupper = ub;
        } else {
            *plower = static_detail::advance(lb, begin, incr);
            *pupper = static_detail::advance(*plower, count - 1, incr);
        }
        if (plast) *plast = (count != 0 && begin + count == trip) ? 1 : 0;
        *pstride = static_cast<ST>(static_detail::advance(T{0}, trip, incr));
        return;
    }
    std::uint64_t c = chunk < 1 ? 1 : static_cast<std::uint64_t>(chunk);
    if (s == sch_static_balanced_chunked) {
        std::uint64_t per = (trip + nth - 1) / nth;
        c = (per + c - 1) / c * c;
    }
    *plower = static_detail::advance(lb, tid * c, incr);
    *pupper = static_detail::advance(*plower, c - 1, incr);
    *pstride = static_cast<ST>(static_detail::advance(T{0}, nth * c, incr));
    if (plast) *plast = (((trip - 1) / c) % nth == tid) ? 1 : 0;
}

/// distribute parallel for: split among teams (block), then among the team's threads.
template <class T, class ST>
void dist_for_static_init(implicit_task* it, kmp_int32 schedule, kmp_int32* plast, T* plower,
                      T* pupper, T* pupper_dist, ST* pstride, ST incr, ST chunk) {
    const T lb = *plower, ub = *pupper;
    const std::uint64_t trip = static_detail::trip_count(lb, ub, incr);
    const std::uint64_t nteams = static_cast<std::uint64_t>(it->num_teams);
    const std::uint64_t team = static_cast<std::uint64_t>(it->team_num);
    bool team_last = true;
    if (trip != 0 && nteams > 1) {
        const std::uint64_t small = trip / nteams, extras = trip % nteams;
        const std::uint64_t begin = team * small + std::min(team, extras);
        const std::uint64_t count = small + (team < extras ? 1 : 0);
        if (count == 0) {
            *plower = static_detail::advance(ub, 1, incr);
            *pupper = ub;
            *pupper_dist = ub;
            if (plast) *plast = 0;
            *pstride = incr;
            return;
        }
        *plower = static_detail::advance(lb, begin, incr);
        *pupper = static_detail::advance(*plower, count - 1, incr);
        team_last = begin + count == trip;
    }
    *pupper_dist = *pupper;
    for_static_init<T, ST>(it, schedule, plast, plower, pupper, pstride, incr, chunk);
    if (plast && !team_last) *plast = 0;
}

/// distribute with a chunk: the calling team's first chunk and the stride between them.
template <class T, class ST>
void team_static_init(implicit_task* it, kmp_int32* plast, T* plower, T* pupper, ST* pstride,
                      ST incr, ST chunk) {
    const T lb = *plower, ub = *pupper;
    const std::uint64_t trip = static_detail::trip_count(lb, ub, incr);
    const std::uint64_t n = static_cast<std::uint64_t>(it->num_teams);
    const std::uint64_t id = static_cast<std::uint64_t>(it->team_num);
    const std::uint64_t c = chunk < 1 ? 1 : static_cast<std::uint64_t>(chunk);
    *plower = static_detail::advance(lb, id * c, incr);
    *pupper = static_detail::advance(*plower, c - 1, incr);
    *pstride = static_cast<ST>(static_detail::advance(T{0}, n * c, incr));
    if (plast) *plast = trip != 0 && ((trip - 1) / c) % n == id;
}

}  // namespace loom::omp
