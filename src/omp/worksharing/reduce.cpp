// Reductions: __kmpc_reduce{,_nowait} and __kmpc_end_reduce{,_nowait}.
//
// Methods (returned to the compiled code as libomp does):
//  - team of one: return 1, nothing to synchronise;
//  - atomic (the compiler said atomics are possible, team of up to 4): return 2, every
//    member updates the shared variables atomically; the blocking form ends in a barrier;
//  - tree: members other than 0 publish their private copies and wait; member 0 combines
//    them with reduce_func, returns 1 and combines into the shared variables; the others
//    return 0 (released at once for nowait, after __kmpc_end_reduce otherwise).
// No lock is needed: the tree method serialises the combine on member 0.
#include "abi.hpp"
#include "sync/barrier.hpp"
#include "parallel/team.hpp"
#include "parallel/thread.hpp"

using namespace loom::omp;

namespace {

enum method : int { m_empty = 0, m_atomic = 2, m_tree = 3 };
constexpr int atomic_max_team = 4;

kmp_int32 reduce(ident_t* loc, void* reduce_data, void (*reduce_func)(void*, void*),
                 bool nowait) {
    implicit_task* it = current_task();
    team* t = it->tm;
    if (!t || it->nthreads == 1) {
        it->reduce_method = m_empty;
        return 1;
    }
    if (loc && (loc->flags & ident_atomic_reduce) && it->nthreads <= atomic_max_team) {
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

}  // namespace

LOOM_OMP_API kmp_int32 __kmpc_reduce_nowait(ident_t* loc, kmp_int32, kmp_int32, std::size_t,
                                            void* reduce_data, void (*reduce_func)(void*, void*),
                                            kmp_critical_name*) {
    return reduce(loc, reduce_data, reduce_func, true);
}

LOOM_OMP_API void __kmpc_end_reduce_nowait(ident_t*, kmp_int32, kmp_critical_name*) {}

LOOM_OMP_API kmp_int32 __kmpc_reduce(ident_t* loc, kmp_int32, kmp_int32, std::size_t,
                                     void* reduce_data, void (*reduce_func)(void*, void*),
                                     kmp_critical_name*) {
    return reduce(loc, reduce_data, reduce_func, false);
}

LOOM_OMP_API void __kmpc_end_reduce(ident_t*, kmp_int32, kmp_critical_name*) {
    implicit_task* it = current_task();
    switch (it->reduce_method) {
        case m_atomic: team_barrier(it); break;
        case m_tree:
            if (it->tid == 0) release_gathered(it);
            break;
        default: break;
    }
}
