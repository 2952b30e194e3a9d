// clang's synchronisation entry points: barriers (plain, split, nowait), critical
// sections and flush. Translations to sync/barrier.hpp and sync/critical.hpp; the
// critical-section slot protocol is the one GOMP_critical_name_start uses as well.
#include <atomic>
#include <cstdint>

#include "abi.hpp"
#include "parallel/thread.hpp"
#include "sync/barrier.hpp"
#include "sync/critical.hpp"
#include "sync/lock.hpp"

using namespace loom::omp;

LOOM_OMP_API void __kmpc_barrier(ident_t*, kmp_int32) { team_barrier(current_task()); }

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
    critical_enter(reinterpret_cast<void**>(crit), sync_hint_none, "__kmpc_critical");
}
// void __kmpc_critical_with_hint(ident_t *loc, kmp_int32 gtid, kmp_critical_name *crit,
//                                uintptr_t hint)   (clang passes the hint as intptr)
LOOM_OMP_API void __kmpc_critical_with_hint(ident_t*, kmp_int32, kmp_critical_name* crit,
                                            std::uintptr_t hint) {
    // libomp reads the hint as uint32_t: ignore whatever a caller leaves above bit 31.
    critical_enter(reinterpret_cast<void**>(crit), hint & 0xffffffffu,
                   "__kmpc_critical_with_hint");
}
LOOM_OMP_API void __kmpc_end_critical(ident_t*, kmp_int32, kmp_critical_name* crit) {
    critical_exit(reinterpret_cast<void**>(crit), "__kmpc_end_critical");
}

LOOM_OMP_API void __kmpc_flush(ident_t*) { std::atomic_thread_fence(std::memory_order_seq_cst); }
