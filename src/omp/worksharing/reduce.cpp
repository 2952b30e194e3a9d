// Reductions of a worksharing or parallel construct (reduce.hpp; clang's
// __kmpc_reduce{,_nowait} / __kmpc_end_reduce{,_nowait} in kmpc/worksharing.cpp).
//
// Methods (returned to the compiled code as libomp does):
//  - team of one: return 1, nothing to synchronise;
//  - atomic (the compiler said atomics are possible, team of up to 4): return 2, every
//    member updates the shared variables atomically; the blocking form ends in a barrier;
//  - tree: members other than 0 publish their private copies and wait; member 0 combines
//    them with reduce_func, returns 1 and combines into the shared variables; the others
//    return 0 (released at once for nowait, after __kmpc_end_reduce otherwise).
// No lock is needed: the tree method serialises the combine on member 0.
#include "worksharing/reduce.hpp"

#include "abi.hpp"
#include "sync/barrier.hpp"
#include "parallel/team.hpp"
#include "parallel/thread.hpp"

namespace loom::omp {

namespace {
enum method : int { m_empty = 0, m_atomic = 2, m_tree = 3 };
constexpr int atomic_max_team = 4;
}  // namespace

int reduce_begin(implicit_task* it, bool atomic_allowed, void* reduce_data,
                 void (*reduce_func)(void*, void*), bool nowait) {
    team* t = it->tm;
    if (!t || it->nthreads == 1) {
        it->reduce_method = m_empty;
        return 1;
    }
    if (atomic_allowed && it->nthreads <= atomic_max_team) {
        it->reduce_method = m_atomic;
        return 2;
    }
    it->reduce_method = m_tree;
    t->slots[it->tid].reduce_data = reduce_data;
    std::uint32_t e = gather(it);
    if (it->tid != 0) {
        wait_released(it, e);
        return 0;
    }
    for (int i = 1; i < it->nthreads; ++i) reduce_func(reduce_data, t->slots[i].reduce_data);
    if (nowait) release_gathered(it);
    return 1;
}

void reduce_end(implicit_task* it) {
    switch (it->reduce_method) {
        case m_atomic: team_barrier(it); break;
        case m_tree:
            if (it->tid == 0) release_gathered(it);
            break;
        default: break;
    }
}

}  // namespace loom::omp
