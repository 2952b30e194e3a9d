// The error directive (OpenMP 5.1) at run time, shared by the ABIs and by a strict
// num_threads clause that gets fewer threads.
#pragma once

namespace loom::omp {

inline constexpr int error_severity_warning = 1;
inline constexpr int error_severity_fatal = 2;

/// Prints "loom: warning|error: <message> at <where>" on stderr; a fatal one aborts.
/// `where` (a psource string) and `message` may be null.
void report_error_directive(const char* where, int severity, const char* message);

}  // namespace loom::omp
