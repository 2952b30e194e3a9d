// copy_if in two passes over the same fixed chunks: (1) every chunk counts its matches
// (and remembers them: the predicate runs once per element, as the standard counts);
// (2) a sequential scan of the counts gives each chunk its place in the output; (3)
// every chunk copies its matches there. The chunk plan is shared with partition
// (algorithm_partition.hpp), which cuts its work the same way.
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <vector>

#include "loom/detail/algorithm_bulk.hpp"
#include "loom/detail/algorithm_dispatch.hpp"

namespace loom::detail {

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
