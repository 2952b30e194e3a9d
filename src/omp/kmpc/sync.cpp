// clang's synchronisation entry points: barriers (plain, split, nowait), critical
// sections and flush. Translations to sync/barrier.hpp and sync/critical.hpp; the
// critical-section slot protocol is the one GOMP_critical_name_start uses as well.
#include <atomic>
#include <cstdint>

#include "abi.hpp"
#include "loom/ext/fence.hpp"
#include "parallel/thread.hpp"
#include "sync/barrier.hpp"
#include "sync/critical.hpp"
#include "sync/lock.hpp"

#include "ompt/events.hpp"

using namespace loom::omp;

namespace {
// OMPT kind of a clang barrier: the compiler marks the implicit ones in the ident_t.
ompt_sync_region_t barrier_kind(const ident_t* loc) {
    return loc && (loc->flags & ident_barrier_impl) ? ompt_sync_region_barrier_implicit_workshare
                                                     : ompt_sync_region_barrier_explicit;
}
}  // namespace

LOOM_OMP_API void __kmpc_barrier(ident_t* loc, kmp_int32) {
    LOOM_OMPT_ENTER();
    LOOM_OMPT_EVENT(sync_region(barrier_kind(loc), ompt_scope_begin, LOOM_OMPT_RA));
    team_barrier(current_task());
    LOOM_OMPT_EVENT(sync_region(barrier_kind(loc), ompt_scope_end, LOOM_OMPT_RA));
}

// Split barrier: member 0 returns 1 once everybody arrived and releases the others in
// __kmpc_end_barrier_master; the others return 0 after that release.
LOOM_OMP_API kmp_int32 __kmpc_barrier_master(ident_t*, kmp_int32) {
    return split_barrier_begin(current_task()) ? 1 : 0;
}
LOOM_OMP_API void __kmpc_end_barrier_master(ident_t*, kmp_int32) {
    split_barrier_end(current_task());
}

LOOM_OMP_API kmp_int32 __kmpc_barrier_master_nowait(ident_t*, kmp_int32) {
    implicit_task* it = current_task();
    team_barrier(it);
    return it->tid == 0 ? 1 : 0;
}

// void __kmpc_critical(ident_t *loc, kmp_int32 gtid, kmp_critical_name *crit)
LOOM_OMP_API void __kmpc_critical(ident_t*, kmp_int32, kmp_critical_name* crit) {
    auto** slot = reinterpret_cast<void**>(crit);
    if (critical_try_enter_fast(slot)) [[likely]]
        return;
    critical_enter_reported(slot, sync_hint_none, "__kmpc_critical", LOOM_OMPT_RA);
}
// void __kmpc_critical_with_hint(ident_t *loc, kmp_int32 gtid, kmp_critical_name *crit,
//                                uintptr_t hint)   (clang passes the hint as intptr)
LOOM_OMP_API void __kmpc_critical_with_hint(ident_t*, kmp_int32, kmp_critical_name* crit,
                                            std::uintptr_t hint) {
    // libomp reads the hint as uint32_t: ignore whatever a caller leaves above bit 31
    // (critical_enter_reported does).
    critical_enter_reported(reinterpret_cast<void**>(crit), hint, "__kmpc_critical_with_hint", LOOM_OMPT_RA);
}
LOOM_OMP_API void __kmpc_end_critical(ident_t*, kmp_int32, kmp_critical_name* crit) {
    auto** slot = reinterpret_cast<void**>(crit);
    if (critical_try_exit_fast(slot)) [[likely]]
        return;
    critical_exit_reported(slot, "__kmpc_end_critical", LOOM_OMPT_RA);
}

LOOM_OMP_API void __kmpc_flush(ident_t*) {
    loom::ext::full_fence();
    LOOM_OMPT_EVENT(flush(LOOM_OMPT_RA));
}
