// Scans (inclusive, exclusive, with a transformation) and copy_if, in two passes over
// the same fixed chunks: (1) every chunk but the last folds its elements (copy_if:
// counts and remembers its matches); (2) a sequential scan of the C chunk results
// gives each chunk its starting value (offset); (3) every chunk scans (copies) its
// elements from there. The output may be the input (in-place scans): each element is
// read before its slot is written.
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <iterator>
#include <optional>
#include <utility>
#include <vector>

#include "loom/detail/algorithm_bulk.hpp"
#include "loom/detail/algorithm_dispatch.hpp"

namespace loom::detail {

/// Scans [first, last) into out starting from `acc` (none: the first element starts
/// the inclusive scan). Exclusive: out[i] gets the sum before element i.
template <bool Inclusive, class In, class Out, class T, class Op, class Un>
Out scan_range(In first, In last, Out out, std::optional<T> acc, Op& op, Un& un) {
    if (first == last) return out;
    if constexpr (Inclusive) {
        // The first element settles whether there is a start value; the loop then
        // works on a plain T (an optional per step costs ~50 % on int64 scans).
        T sum(acc ? T(std::invoke(op, std::move(*acc), std::invoke(un, *first))) : T(std::invoke(un, *first)));
        *out = sum;
        for (++first, ++out; first != last; ++first, ++out) {
            sum = std::invoke(op, std::move(sum), std::invoke(un, *first));
            *out = sum;
        }
    } else {
        T sum(std::move(*acc));
        for (; first != last; ++first, ++out) {
            T next(std::invoke(op, sum, std::invoke(un, *first)));  // read before the write
            *out = std::move(sum);
            sum = std::move(next);
        }
    }
    return out;
}

template <class T, class In, class Op, class Un>
T fold_range(In first, In last, Op& op, Un& un) {
    T acc(std::invoke(un, *first));
    for (++first; first != last; ++first) acc = std::invoke(op, std::move(acc), std::invoke(un, *first));
    return acc;
}

/// The chunk-index loop of the two passes: the policy's kind and priority, one chunk
/// index per leaf, claiming if the policy claims.
inline exec_info per_chunk(const exec_info& ei, const bulk_plan& plan) {
    exec_info r = ei;
    r.params.kind = plan.claim ? execution::detail::schedule::dynamic : execution::detail::schedule::fixed;
    r.params.chunk = 1;
    return r;
}

/// Smallest default chunk of the two-pass algorithms (elements).
inline constexpr std::size_t min_two_pass_chunk = 16384;

/// Chunk size of the two-pass algorithms (auto_chunk_size: as the default; the
/// passes are too short to time separately).
inline bulk_plan two_pass_plan(const exec_info& ei, std::size_t n) {
    bulk_plan plan = make_plan(ei, n);
    if (plan.measure || plan.guided) plan.chunk = std::max<std::size_t>(1, ceil_div(n, default_chunks_per_core * plan.lanes));
    // Two joins per call: below this many elements per chunk by default, waiting for
    // a second pass costs more than it saves (scan of 1e4 int64 on 2 workers: 60 us
    // split vs 5 us inline), so small inputs run inline.
    if (ei.params.kind == execution::detail::schedule::unspecified) plan.chunk = std::max(plan.chunk, min_two_pass_chunk);
    return plan;
}

template <bool Inclusive, class In, class Out, class T, class Op, class Un>
Out scan_impl(const exec_info& ei, In first, In last, Out out, std::optional<T> init, Op& op, Un& un) {
    if constexpr (all_random_access<In, Out>) {
        if (ei.parallel()) {
            const std::size_t n = std::size_t(last - first);
            const bulk_plan plan = two_pass_plan(ei, n);
            if (plan.lanes > 1 && n > plan.chunk) {
                const std::size_t cs = plan.chunk;
                const std::size_t chunks = ceil_div(n, cs);
                std::vector<std::optional<T>> start(chunks);
                const exec_info pc = per_chunk(ei, plan);
                bulk_for(pc, chunks - 1, [&](std::size_t cb, std::size_t ce) {
                    for (std::size_t c = cb; c < ce; ++c)
                        start[c + 1].emplace(fold_range<T>(first + c * cs, first + (c + 1) * cs, op, un));
                });
                start[0] = std::move(init);
                for (std::size_t c = 1; c < chunks; ++c) {
                    if (start[c - 1]) start[c].emplace(std::invoke(op, *start[c - 1], std::move(*start[c])));
                }
                bulk_for(pc, chunks, [&](std::size_t cb, std::size_t ce) {
                    for (std::size_t c = cb; c < ce; ++c) {
                        const std::size_t b = c * cs;
                        const std::size_t e = std::min(n, b + cs);
                        scan_range<Inclusive>(first + b, first + e, out + b, start[c], op, un);
                    }
                });
                return out + n;
            }
        }
    }
    return run_inline(ei, [&] { return scan_range<Inclusive>(first, last, out, std::move(init), op, un); });
}

template <class In, class Out, class Pred>
Out copy_if_impl(const exec_info& ei, In first, In last, Out out, Pred& pred) {
    if constexpr (all_random_access<In, Out>) {
        if (ei.parallel()) {
            const std::size_t n = std::size_t(last - first);
            const bulk_plan plan = two_pass_plan(ei, n);
            if (plan.lanes > 1 && n > plan.chunk) {
                const std::size_t cs = plan.chunk;
                const std::size_t chunks = ceil_div(n, cs);
                // The predicate runs once per element (as the standard counts): pass 1
                // keeps its answers for pass 2.
                std::vector<unsigned char> keep(n);
                std::vector<std::size_t> offset(chunks + 1, 0);
                const exec_info pc = per_chunk(ei, plan);
                bulk_for(pc, chunks, [&](std::size_t cb, std::size_t ce) {
                    for (std::size_t c = cb; c < ce; ++c) {
                        std::size_t k = 0;
                        for (std::size_t i = c * cs, e = std::min(n, i + cs); i < e; ++i) {
                            keep[i] = std::invoke(pred, first[i]) ? 1 : 0;
                            k += keep[i];
                        }
                        offset[c + 1] = k;
                    }
                });
                for (std::size_t c = 0; c < chunks; ++c) offset[c + 1] += offset[c];
                bulk_for(pc, chunks, [&](std::size_t cb, std::size_t ce) {
                    Out o = out + std::ptrdiff_t(offset[cb]);
                    for (std::size_t i = cb * cs, e = std::min(n, ce * cs); i < e; ++i) {
                        if (keep[i]) *o++ = first[i];
                    }
                });
                return out + std::ptrdiff_t(offset[chunks]);
            }
        }
    }
    return run_inline(ei, [&] { return std::copy_if(first, last, out, std::ref(pred)); });
}

}  // namespace loom::detail
