// OMP_TARGET_OFFLOAD in any case, and kmp_set_defaults changing it later:
// __kmpc_get_target_offload answers libomp's values (0 disabled, 1 default,
// 2 mandatory); a value that matches nothing means default (with a warning).
// loom-test: env OMP_TARGET_OFFLOAD=DiSaBlEd
// loom-test: expect-stderr-loom OMP_TARGET_OFFLOAD=.mandatry
// loom-test: expect-stderr-libomp OMP_TARGET_OFFLOAD
#include <omp.h>
#include <stdio.h>

extern int __kmpc_get_target_offload(void);
extern void kmp_set_defaults(const char* str);

int main(void) {
    int initial = __kmpc_get_target_offload();
    kmp_set_defaults("OMP_TARGET_OFFLOAD=MANDATORY");
    int mandatory = __kmpc_get_target_offload();
    kmp_set_defaults("OMP_TARGET_OFFLOAD=mandatry");
    int fallback = __kmpc_get_target_offload();
    kmp_set_defaults("OMP_TARGET_OFFLOAD=disabled");
    int disabled = __kmpc_get_target_offload();
    if (initial != 0 || mandatory != 2 || fallback != 1 || disabled != 0) {
        printf("FAILED: %d %d %d %d (want 0 2 1 0)\n", initial, mandatory, fallback, disabled);
        return 1;
    }
    printf("env_target_offload: all passed\n");
    return 0;
}
