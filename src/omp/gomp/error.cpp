// The error directive of OpenMP 5.1 as gcc emits it (libgomp error.c): GOMP_warning for
// severity(warning), GOMP_error for severity(fatal), reported as clang's __kmpc_error
// (routines/error_directive.hpp).
#include <string>

#include "gomp/gomp_abi.hpp"
#include "routines/error_directive.hpp"

namespace {

// error.c: msglen (size_t)-1 means a NUL-terminated message; a null msg, none.
std::string message_of(const char* msg, std::size_t msglen) {
    if (!msg) return {};
    return msglen == static_cast<std::size_t>(-1) ? std::string(msg) : std::string(msg, msglen);
}

void report(int severity, const char* msg, std::size_t msglen) {
    const std::string text = message_of(msg, msglen);
    loom::omp::report_error_directive(nullptr, severity, msg ? text.c_str() : nullptr);
}

}  // namespace

// severity 1 warns and goes on, 2 is fatal (kmpc's __kmpc_error encoding).
LOOM_OMP_API void GOMP_warning(const char* msg, std::size_t msglen) { report(1, msg, msglen); }
LOOM_OMP_API void GOMP_error(const char* msg, std::size_t msglen) { report(2, msg, msglen); }
