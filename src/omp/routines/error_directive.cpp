// The error directive (error_directive.hpp).
#include "routines/error_directive.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>

#include "env/env.hpp"

namespace loom::omp {

void report_error_directive(const char* where, int severity, const char* message) {
    if (!where) where = "";
    const char* kind = severity == error_severity_fatal ? "error" : "warning";
    std::fprintf(stderr, "loom: %s: %s%s%s\n", kind, message ? message : "(no message)",
                 *where ? " at " : "", where);
    if (severity == error_severity_fatal) std::abort();
}

namespace {

// libomp's "file:line:col" of a psource ";file;function;line;column;;", or "unknown".
std::string source_location(const char* psource) {
    if (!psource || *psource != ';') return "unknown";
    std::string fields[4];
    const char* p = psource + 1;
    for (std::string& f : fields) {
        const char* end = p;
        while (*end && *end != ';') ++end;
        f.assign(p, end);
        if (!*end) break;
        p = end + 1;
    }
    if (fields[0].empty()) return "unknown";
    return fields[0] + ":" + fields[2] + ":" + fields[3];
}

}  // namespace

void report_error_directive_kmpc(const char* psource, int severity, const char* message) {
    const std::string where = source_location(psource);
    if (!message) message = "";
    if (severity != error_severity_fatal) {
        warn_numbered(283, "%s: Encountered user-directed warning: %s.", where.c_str(), message);
        return;
    }
    std::fprintf(stderr, "OMP: Error #282: %s: Encountered user-directed error: %s.\n", where.c_str(), message);
    std::abort();
}

}  // namespace loom::omp
