// The error directive (OpenMP 5.1) at run time, shared by the ABIs and by a strict
// num_threads clause that gets fewer threads.
#pragma once

namespace loom::omp {

inline constexpr int error_severity_warning = 1;
inline constexpr int error_severity_fatal = 2;

/// Prints "loom: warning|error: <message> at <where>" on stderr; a fatal one aborts.
/// `where` (a psource string) and `message` may be null.
void report_error_directive(const char* where, int severity, const char* message);

/// The same for clang's entry points (__kmpc_error, strict num_threads), in libomp's
/// words, which programs built for libomp and LLVM's tests look for:
/// "OMP: Warning #283: <file:line:col | unknown>: Encountered user-directed warning:
/// <message>." (unless warnings are off), or "OMP: Error #282: ... error: ..." and abort.
/// `psource` (";file;function;line;column;;") and `message` may be null.
void report_error_directive_kmpc(const char* psource, int severity, const char* message);

}  // namespace loom::omp
