// single (with copyprivate), master and masked: which member runs the block.
//
// single: the team counts single constructs; a member at its s-th single wins iff it
// moves the team counter from s to s+1. The counter is never behind any member, so
// exactly one member wins each construct, also with nowait. Inline: every member calls
// it once per construct, through the entry points of both compilers.
#pragma once

#include <atomic>
#include <cstdint>

#include "parallel/team.hpp"
#include "parallel/thread.hpp"

namespace loom::omp {

/// True for the one member of `it`'s team that runs the current single construct.
inline bool single_begin(implicit_task* it) {
    team* t = it->tm;
    if (!t || it->nthreads == 1) return true;
    std::uint32_t s = it->single_count++;
    if (t->single_count.load(std::memory_order_relaxed) != s) return false;
    return t->single_count.compare_exchange_strong(s, s + 1, std::memory_order_acq_rel);
}

/// master / masked(filter): the member whose thread number is `filter`.
inline bool is_masked_member(const implicit_task* it, int filter) { return it->tid == filter; }

/// copyprivate: the member that ran the single (`didit`) publishes `data`; after a
/// barrier the others copy from it with `copy(dst, src)`; a second barrier keeps the
/// source alive until everyone copied.
void copyprivate_broadcast(implicit_task* it, void* data, void (*copy)(void*, void*), bool didit);
/// The light form: returns the pointer the single's member passed (non-null `data`),
/// after one barrier.
void* copyprivate_pointer(implicit_task* it, void* data);

}  // namespace loom::omp
