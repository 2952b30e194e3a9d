// clang's runtime-level entry points that are no construct: the error directive, the
// thread_limit of a target task, OMP_TARGET_OFFLOAD, pausing. Translations to
// routines/.
#include "abi.hpp"
#include "routines/error_directive.hpp"
#include "routines/routines.hpp"

#include "ompt/events.hpp"

using namespace loom::omp;

// OpenMP 5.1 error directive: severity 1 = warning, 2 = fatal.
LOOM_OMP_API void __kmpc_error(ident_t* loc, int severity, const char* message) {
    LOOM_OMPT_EVENT(error(severity, message, LOOM_OMPT_RA));
    report_error_directive_kmpc(loc ? loc->psource : nullptr, severity, message);
}

LOOM_OMP_API void __kmpc_set_thread_limit(ident_t*, kmp_int32, kmp_int32 limit) {
    set_target_thread_limit(limit);
}

LOOM_OMP_API int __kmpc_get_target_offload() { return target_offload_kind(); }

// kind 0 is omp_pause_resume: nothing to do, the next region restarts the pool.
LOOM_OMP_API int __kmpc_pause_resource(int kind) { return kind == 0 ? 0 : pause_resources(kind); }
