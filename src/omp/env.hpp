// Parsing of OMP_* / KMP_* / GOMP_* environment variables into the global ICVs.
// Every malformed value gives exactly one warning that names the variable and says
// what is used instead; nothing else is printed.
#pragma once

#include <string>
#include <vector>

#include "icv.hpp"

namespace loom::omp {

/// Fills `g` from the environment (called once, from globals()).
void parse_environment(global_icvs& g);

/// Prints "loom: warning: ..." on stderr unless warnings are off (kmp_set_warnings_off).
void warn(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
void set_warnings(bool on) noexcept;

/// Parses an OMP_PLACES value; returns false if malformed.
bool parse_places(const std::string& text, std::vector<std::vector<int>>& out);
/// The CPUs this process may run on, in increasing order.
std::vector<int> available_cpus();

}  // namespace loom::omp
