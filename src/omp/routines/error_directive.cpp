// The error directive (error_directive.hpp).
#include "routines/error_directive.hpp"

#include <cstdio>
#include <cstdlib>

namespace loom::omp {

void report_error_directive(const char* where, int severity, const char* message) {
    if (!where) where = "";
    const char* kind = severity == error_severity_fatal ? "error" : "warning";
    std::fprintf(stderr, "loom: %s: %s%s%s\n", kind, message ? message : "(no message)",
                 *where ? " at " : "", where);
    if (severity == error_severity_fatal) std::abort();
}

}  // namespace loom::omp
