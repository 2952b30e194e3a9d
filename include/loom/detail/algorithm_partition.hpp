// partition (not stable): (1) every chunk partitions itself in parallel, counting
// its "true" elements; with T their total, (2) the "false" elements that lie below T
// and the "true" elements at or above T are equally many; the k-th of the one kind
// is swapped with the k-th of the other, in parallel over k. Each kind is a list of
// at most one run per chunk, so finding the k-th is a binary search over run starts.
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <iterator>
#include <vector>

#include "loom/detail/algorithm_bulk.hpp"
#include "loom/detail/algorithm_two_pass.hpp"

namespace loom::detail {

/// Runs of positions, in order; rank k maps to a position.
struct run_list {
    std::vector<std::size_t> begin;  // position of each run
    std::vector<std::size_t> rank;   // ranks before each run (prefix sums)
    std::size_t total = 0;

    void add(std::size_t b, std::size_t e) {
        if (b >= e) return;
        begin.push_back(b);
        rank.push_back(total);
        total += e - b;
    }
    /// Index of the run that holds rank k.
    [[nodiscard]] std::size_t run_of(std::size_t k) const {
        return std::size_t(std::upper_bound(rank.begin(), rank.end(), k) - rank.begin()) - 1;
    }
};

template <class It, class Pred>
It partition_parallel(const exec_info& ei, const bulk_plan& plan, It first, std::size_t n, Pred& pred) {
    const std::size_t cs = plan.chunk;
    const std::size_t chunks = ceil_div(n, cs);
    std::vector<std::size_t> trues(chunks);
    const exec_info pc = per_chunk(ei, plan);
    bulk_for(pc, chunks, [&](std::size_t cb, std::size_t ce) {
        for (std::size_t c = cb; c < ce; ++c) {
            const It b = first + std::ptrdiff_t(c * cs);
            const It e = first + std::ptrdiff_t(std::min(n, (c + 1) * cs));
            trues[c] = std::size_t(std::partition(b, e, std::ref(pred)) - b);
        }
    });
    std::size_t total = 0;
    for (std::size_t t : trues) total += t;
    run_list misplaced_false;  // false elements below total
    run_list misplaced_true;   // true elements at or above total
    for (std::size_t c = 0; c < chunks; ++c) {
        const std::size_t b = c * cs;
        const std::size_t e = std::min(n, b + cs);
        const std::size_t split = b + trues[c];
        misplaced_false.add(split, std::min(e, total));
        misplaced_true.add(std::max(b, total), split);
    }
    bulk_for(ei, misplaced_false.total, [&](std::size_t k, std::size_t end) {
        std::size_t rf = misplaced_false.run_of(k);
        std::size_t rt = misplaced_true.run_of(k);
        std::size_t pf = misplaced_false.begin[rf] + (k - misplaced_false.rank[rf]);
        std::size_t pt = misplaced_true.begin[rt] + (k - misplaced_true.rank[rt]);
        for (; k < end; ++k) {
            // Step to the next run when this one is used up.
            if (rf + 1 < misplaced_false.rank.size() && k == misplaced_false.rank[rf + 1]) {
                pf = misplaced_false.begin[++rf];
            }
            if (rt + 1 < misplaced_true.rank.size() && k == misplaced_true.rank[rt + 1]) {
                pt = misplaced_true.begin[++rt];
            }
            std::iter_swap(first + std::ptrdiff_t(pf++), first + std::ptrdiff_t(pt++));
        }
    });
    return first + std::ptrdiff_t(total);
}


template <class It, class Pred>
It partition_impl(const exec_info& ei, It first, It last, Pred& pred) {
    if constexpr (all_random_access<It>) {
        if (ei.parallel()) {
            const std::size_t n = std::size_t(last - first);
            const bulk_plan plan = two_pass_plan(ei, n);
            if (plan.lanes > 1 && n > plan.chunk) return partition_parallel(ei, plan, first, n, pred);
        }
    }
    return run_inline(ei, [&] { return std::partition(first, last, std::ref(pred)); });
}

}  // namespace loom::detail
