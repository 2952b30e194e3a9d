// clang's lock entry points: (ident_t *loc, kmp_int32 gtid, void **user_lock[, uintptr_t
// hint]), the same objects and operations as the omp_*_lock routines (sync/lock.hpp).
// Misuse reports name the omp_* routine.
#include <cstdint>

#include "abi.hpp"
#include "sync/lock.hpp"

using namespace loom::omp;

LOOM_OMP_API void __kmpc_init_lock(ident_t*, kmp_int32, void** l) {
    simple_lock_init(l, sync_hint_none, "omp_init_lock");
}
LOOM_OMP_API void __kmpc_init_lock_with_hint(ident_t*, kmp_int32, void** l, std::uintptr_t hint) {
    simple_lock_init(l, hint, "omp_init_lock_with_hint");
}
LOOM_OMP_API void __kmpc_destroy_lock(ident_t*, kmp_int32, void** l) {
    simple_lock_destroy(l, "omp_destroy_lock");
}
LOOM_OMP_API void __kmpc_set_lock(ident_t*, kmp_int32, void** l) {
    simple_lock_set(l, "omp_set_lock");
}
LOOM_OMP_API void __kmpc_unset_lock(ident_t*, kmp_int32, void** l) {
    simple_lock_unset(l, "omp_unset_lock");
}
LOOM_OMP_API int __kmpc_test_lock(ident_t*, kmp_int32, void** l) {
    return simple_lock_test(l, "omp_test_lock");
}

LOOM_OMP_API void __kmpc_init_nest_lock(ident_t*, kmp_int32, void** l) {
    nest_lock_init(l, sync_hint_none, "omp_init_nest_lock");
}
LOOM_OMP_API void __kmpc_init_nest_lock_with_hint(ident_t*, kmp_int32, void** l,
                                                  std::uintptr_t hint) {
    nest_lock_init(l, hint, "omp_init_nest_lock_with_hint");
}
LOOM_OMP_API void __kmpc_destroy_nest_lock(ident_t*, kmp_int32, void** l) {
    nest_lock_destroy(l, "omp_destroy_nest_lock");
}
LOOM_OMP_API void __kmpc_set_nest_lock(ident_t*, kmp_int32, void** l) {
    (void)nest_lock_set(l, "omp_set_nest_lock");
}
LOOM_OMP_API void __kmpc_unset_nest_lock(ident_t*, kmp_int32, void** l) {
    (void)nest_lock_unset(l, "omp_unset_nest_lock");
}
LOOM_OMP_API int __kmpc_test_nest_lock(ident_t*, kmp_int32, void** l) {
    return nest_lock_test(l, "omp_test_nest_lock");
}
