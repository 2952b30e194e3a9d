// Text helpers for environment values and OMP_PLACES lists (env.cpp, place_syntax.cpp).
#pragma once

#include <string>
#include <vector>

namespace loom::omp {

/// The value of environment variable `name`, or null when it is unset or empty: an
/// empty variable counts as unset everywhere (docs/configuration.md).
const char* env_value(const char* name);
/// `s` in lower case (ASCII).
std::string lower(std::string s);
/// `s` without leading and trailing white space.
std::string trim(const std::string& s);
/// Parses a whole string (white space around it allowed) as a decimal integer in
/// [lo, hi]; false, leaving `out`, if it is not one.
bool parse_int(const std::string& text, long lo, long hi, long& out);
/// The fields of `s` between separators `sep` (empty fields kept).
std::vector<std::string> split(const std::string& s, char sep);

}  // namespace loom::omp
