// Resolution of the pool's configuration: explicit options first, then LOOM_* and
// OMP_* environment variables, then what the process may really use (affinity mask,
// cgroup CPU quota). Documented in docs/configuration.md.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "loom/ext/scheduler.hpp"

namespace loom::core {

struct config {
    unsigned num_threads = 1;
    std::size_t stack_size = std::size_t{1} << 20;
    long spin_us = 100;
    /// The spin budget adapts below spin_us (spin_policy.hpp) unless LOOM_SPIN_US or the
    /// pool's options (an OpenMP wait setting) fixed it.
    bool spin_adaptive = true;
    bool pin_workers = false;
    unsigned cpus = 1;  // usable_cpus() when resolved: more workers than this oversubscribe
};

/// Applies the precedence rules; prints one warning per malformed variable.
config resolve_config(const ext::pool_options& opts);

/// The spin budget (us) a pool started with default options would get: LOOM_SPIN_US or
/// 100 (one warning for a malformed value, as at start).
long resolve_default_spin();
/// Whether that budget adapts (spin_policy.hpp): unless LOOM_SPIN_US fixed it.
bool default_spin_adapts();

/// LOOM_EXIT_TIMEOUT: seconds the exit drain waits for work in flight (default 5;
/// `infinite` or a negative number: no bound). One warning for a malformed value.
double resolve_exit_timeout();

/// CPUs this process may use: the affinity mask, capped by a cgroup CPU quota.
unsigned usable_cpus();

/// Parses a size with an optional unit (B, K, M, G, T; case-insensitive; no unit means
/// bytes for LOOM_*, kilobytes for OMP_STACKSIZE, as the OpenMP spec says): the
/// layers' shared parser, ext/size_parse.hpp.
std::optional<std::size_t> parse_size(const std::string& text, char default_unit);
/// Parses a whole, non-negative decimal number that fits a long.
std::optional<long> parse_count(const std::string& text);

/// true/1/yes/on or false/0/no/off, any case; nullopt for anything else.
std::optional<bool> parse_switch(const std::string& text);
/// The switch `variable` of the environment: `fallback` when unset, and when malformed
/// (with one warning).
bool resolve_switch(const char* variable, bool fallback);

/// Prints "loom: warning: VAR='value' <why>; using <instead>" once per variable.
void warn_bad_value(const char* variable, const std::string& value, const char* why,
                    const std::string& instead);

}  // namespace loom::core
