// LOOM_STATS: a one-screen summary of what the scheduler did, printed on stderr at
// exit (loomrun --stats sets it). Counters of pools that ended (a pause, an OpenMP
// pool rebuilt larger) are added up, so the summary covers the whole process.
#pragma once

namespace loom::core {

class pool;

/// Reads LOOM_STATS once, at the first pool start; notes the start time and energy.
void stats_configure() noexcept;
/// Adds a pool's counters to the totals (its threads joined).
void stats_archive(const pool& p) noexcept;
/// Prints the summary (at exit); `live` is a pool still running, or null.
void stats_report(const pool* live) noexcept;

}  // namespace loom::core
