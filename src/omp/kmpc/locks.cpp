// clang's lock entry points: (ident_t *loc, kmp_int32 gtid, void **user_lock[, uintptr_t
// hint]), the same objects and operations as the omp_*_lock routines (sync/lock.hpp).
// Misuse reports name the omp_* routine. With a tool active each takes the routine's
// twin of ompt/lock_events.cpp, as the omp_* routines do (wait id: the user's lock
// object; codeptr_ra: the entry point's caller).
#include <cstdint>

#include "abi.hpp"
#include "ompt/events.hpp"
#include "sync/lock.hpp"

using namespace loom::omp;

LOOM_OMP_API void __kmpc_init_lock(ident_t*, kmp_int32, void** l) {
    LOOM_OMPT_TRACED(lock_init_traced(l, sync_hint_none, false, "omp_init_lock", LOOM_OMPT_RA));
    simple_lock_init(l, sync_hint_none, "omp_init_lock");
}
LOOM_OMP_API void __kmpc_init_lock_with_hint(ident_t*, kmp_int32, void** l, std::uintptr_t hint) {
    LOOM_OMPT_TRACED(lock_init_traced(l, hint, false, "omp_init_lock_with_hint", LOOM_OMPT_RA));
    simple_lock_init(l, hint, "omp_init_lock_with_hint");
}
LOOM_OMP_API void __kmpc_destroy_lock(ident_t*, kmp_int32, void** l) {
    LOOM_OMPT_TRACED(lock_destroy_traced(l, false, "omp_destroy_lock", LOOM_OMPT_RA));
    simple_lock_destroy(l, "omp_destroy_lock");
}
LOOM_OMP_API void __kmpc_set_lock(ident_t*, kmp_int32, void** l) {
    LOOM_OMPT_TRACED(lock_set_traced(l, "omp_set_lock", LOOM_OMPT_RA));
    simple_lock_set(l, "omp_set_lock");
}
LOOM_OMP_API void __kmpc_unset_lock(ident_t*, kmp_int32, void** l) {
    LOOM_OMPT_TRACED(lock_unset_traced(l, "omp_unset_lock", LOOM_OMPT_RA));
    simple_lock_unset(l, "omp_unset_lock");
}
LOOM_OMP_API int __kmpc_test_lock(ident_t*, kmp_int32, void** l) {
    LOOM_OMPT_TRACED(lock_test_traced(l, "omp_test_lock", LOOM_OMPT_RA));
    return simple_lock_test(l, "omp_test_lock");
}

LOOM_OMP_API void __kmpc_init_nest_lock(ident_t*, kmp_int32, void** l) {
    LOOM_OMPT_TRACED(lock_init_traced(l, sync_hint_none, true, "omp_init_nest_lock", LOOM_OMPT_RA));
    nest_lock_init(l, sync_hint_none, "omp_init_nest_lock");
}
LOOM_OMP_API void __kmpc_init_nest_lock_with_hint(ident_t*, kmp_int32, void** l,
                                                  std::uintptr_t hint) {
    LOOM_OMPT_TRACED(lock_init_traced(l, hint, true, "omp_init_nest_lock_with_hint", LOOM_OMPT_RA));
    nest_lock_init(l, hint, "omp_init_nest_lock_with_hint");
}
LOOM_OMP_API void __kmpc_destroy_nest_lock(ident_t*, kmp_int32, void** l) {
    LOOM_OMPT_TRACED(lock_destroy_traced(l, true, "omp_destroy_nest_lock", LOOM_OMPT_RA));
    nest_lock_destroy(l, "omp_destroy_nest_lock");
}
LOOM_OMP_API void __kmpc_set_nest_lock(ident_t*, kmp_int32, void** l) {
    if (ompt::on()) [[unlikely]] {
        (void)ompt::nest_lock_set_traced(l, "omp_set_nest_lock", current_owner_id(), LOOM_OMPT_RA);
        return;
    }
    (void)nest_lock_set(l, "omp_set_nest_lock");
}
LOOM_OMP_API void __kmpc_unset_nest_lock(ident_t*, kmp_int32, void** l) {
    LOOM_OMPT_TRACED(nest_lock_unset_traced(l, "omp_unset_nest_lock", current_owner_id(), LOOM_OMPT_RA));
    (void)nest_lock_unset(l, "omp_unset_nest_lock");
}
LOOM_OMP_API int __kmpc_test_nest_lock(ident_t*, kmp_int32, void** l) {
    LOOM_OMPT_TRACED(nest_lock_test_traced(l, "omp_test_nest_lock", current_owner_id(), LOOM_OMPT_RA));
    return nest_lock_test(l, "omp_test_nest_lock");
}
