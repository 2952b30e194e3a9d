// Task Bench task graphs, header-only, shared by every taskbench implementation
// (OpenMP tasks, plain threads, loom's native API).
//
// A graph has `steps` rows of up to `width` tasks; task (t, x) reads the outputs of
// some tasks (t-1, y) of the row before, chosen by the dependence pattern. The
// patterns follow Task Bench's definitions (core.cc in the Task Bench sources):
// which rows are how wide (dom, tree), which y a point depends on, and how the
// dependence set changes with t (fft, spread, random_nearest). One difference: a
// point is listed once even where Task Bench lists it twice (periodic stencils of
// width 1 or 2), so "inputs" is always a set.
#pragma once

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hash.hpp"

namespace taskbench {

enum class Pattern {
  trivial,
  no_comm,
  stencil_1d,
  stencil_1d_periodic,
  dom,
  tree,
  fft,
  all_to_all,
  nearest,
  spread,
  random_nearest,
};

inline const std::vector<std::string>& pattern_names() {
  static const std::vector<std::string> names = {
      "trivial",    "no_comm", "stencil_1d", "stencil_1d_periodic", "dom",           "tree",
      "fft",        "all_to_all", "nearest", "spread",              "random_nearest"};
  return names;
}

inline std::optional<Pattern> parse_pattern(std::string_view name) {
  const auto& names = pattern_names();
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return Pattern(i);
  }
  return std::nullopt;
}

// Uniform in [0, 1) from a tuple of integers: Task Bench draws its random edges
// and imbalanced grains from a hash, so every implementation sees the same graph.
inline double hash_uniform(std::initializer_list<long> values) {
  std::uint64_t h = 0x243f6a8885a308d3ULL;
  for (long v : values) h = loom_bench::mix64(h ^ (std::uint64_t(v) + 0x9e3779b97f4a7c15ULL));
  return loom_bench::unit_interval(h);
}

constexpr long kMaxRadix = 64;

struct Graph {
  Pattern pattern = Pattern::stencil_1d;
  long width = 1;
  long steps = 1;
  long radix = 3;           // nearest, spread, random_nearest; at most kMaxRadix
  long period = 3;          // spread, random_nearest: dependence sets cycled through
  double fraction = 0.25;   // random_nearest: share of neighbours connected
  long graph_index = 0;     // seeds the random patterns

  // First point and number of points of row t (rows before 0 are empty).
  [[nodiscard]] long offset_at(long t) const {
    if (t < 0 || pattern != Pattern::dom) return 0;
    return std::max(0L, t + width - steps);
  }

  [[nodiscard]] long width_at(long t) const {
    if (t < 0) return 0;
    if (pattern == Pattern::dom) return std::min(width, std::min(t + 1, steps - t));
    if (pattern == Pattern::tree) return std::min(width, 1L << std::min(t, 62L));
    return width;
  }

  // Patterns that change from row to row cycle through this many variants.
  [[nodiscard]] long dependence_sets() const {
    switch (pattern) {
      case Pattern::fft: {
        long sets = 0;
        while ((1L << sets) < width) ++sets;  // ceil(log2(width))
        return std::max(1L, sets);
      }
      case Pattern::spread:
      case Pattern::random_nearest: return std::max(1L, period);
      default: return 1;
    }
  }

  [[nodiscard]] long dependence_set_at(long t) const {
    const long sets = dependence_sets();
    if (pattern == Pattern::fft) return (t + sets - 1) % sets;
    return t % sets;
  }

  // Calls f(y) once for each point y of row t-1 whose output task (t, x) reads,
  // in increasing order of y.
  template <class F>
  void for_each_input(long t, long x, F&& f) const {
    if (t <= 0) return;
    const long lo = offset_at(t - 1), hi = lo + width_at(t - 1);  // row t-1 is [lo, hi)
    auto visit = [&](long y) {
      if (y >= lo && y < hi) f(y);
    };
    for_each_candidate(dependence_set_at(t), x, visit);
  }

  // The inputs of task (t, x), appended to `out` (cleared first); returns their count.
  long inputs(long t, long x, std::vector<long>& out) const {
    out.clear();
    for_each_input(t, x, [&](long y) { out.push_back(y); });
    return long(out.size());
  }

  [[nodiscard]] long task_count() const {
    long n = 0;
    for (long t = 0; t < steps; ++t) n += width_at(t);
    return n;
  }

 private:
  // Every point the pattern names for x, before clipping to the previous row.
  template <class F>
  void for_each_candidate(long dset, long x, F& f) const {
    switch (pattern) {
      case Pattern::trivial: return;
      case Pattern::no_comm: f(x); return;
      case Pattern::stencil_1d: range(x - 1, x + 1, f); return;
      case Pattern::stencil_1d_periodic: periodic_stencil(x, f); return;
      case Pattern::dom: range(x - 1, x, f); return;
      case Pattern::tree: f(x / 2); return;
      case Pattern::fft: fft(dset, x, f); return;
      case Pattern::all_to_all: range(0, width - 1, f); return;
      case Pattern::nearest:
        if (radix > 0) range(x - radix / 2, x + (radix - 1) / 2, f);
        return;
      case Pattern::spread: spread(dset, x, f); return;
      case Pattern::random_nearest: random_nearest(dset, x, f); return;
    }
  }

  template <class F>
  void range(long first, long last, F& f) const {
    for (long y = std::max(0L, first); y <= std::min(last, width - 1); ++y) f(y);
  }

  template <class F>
  void periodic_stencil(long x, F& f) const {
    // Neighbours x-1, x, x+1 modulo width, each once, in increasing order.
    long ys[3] = {(x - 1 + width) % width, x, (x + 1) % width};
    std::sort(ys, ys + 3);
    for (int i = 0; i < 3; ++i) {
      if (i == 0 || ys[i] != ys[i - 1]) f(ys[i]);
    }
  }

  template <class F>
  void fft(long dset, long x, F& f) const {
    const long stride = 1L << dset;
    if (x - stride >= 0) f(x - stride);
    f(x);
    if (x + stride < width) f(x + stride);
  }

  template <class F>
  void spread(long dset, long x, F& f) const {
    // Task Bench: the i-th input is x + i*width/radix (+ dset for i > 0) modulo width.
    // A fixed array: this runs inside every task, where an allocation would be
    // a cost of the benchmark rather than of the runtime.
    long ys[kMaxRadix];
    for (long i = 0; i < radix; ++i) ys[i] = (x + i * width / radix + (i > 0 ? dset : 0)) % width;
    std::sort(ys, ys + radix);
    const long n = std::unique(ys, ys + radix) - ys;
    for (long i = 0; i < n; ++i) f(ys[i]);
  }

  template <class F>
  void random_nearest(long dset, long x, F& f) const {
    const long first = std::max(0L, x - radix / 2), last = std::min(x + (radix - 1) / 2, width - 1);
    for (long y = first; y <= last; ++y) {
      if (y == x || hash_uniform({graph_index, radix, dset, y, x}) < fraction) f(y);
    }
  }
};

}  // namespace taskbench
