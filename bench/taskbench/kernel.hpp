// Task Bench kernels, header-only: the work one task does, and how much of it a
// whole graph holds (the FLOPs or bytes that METG's efficiency is measured in).
//
//   compute_bound   `grain` iterations over 48 doubles, 2 FLOPs each per iteration
//   memory_bound    `grain` iterations, each copying half of one sample of the
//                   worker's scratch buffer onto its other half
//   load_imbalance  compute_bound with a grain drawn per task from
//                   [1 - imbalance/2, 1 + imbalance/2) x grain, as Task Bench does
#pragma once

#include <cmath>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "graph.hpp"

namespace taskbench {

enum class KernelType { compute_bound, memory_bound, load_imbalance };

inline const std::vector<std::string>& kernel_names() {
  static const std::vector<std::string> names = {"compute_bound", "memory_bound",
                                                 "load_imbalance"};
  return names;
}

inline std::optional<KernelType> parse_kernel(std::string_view name) {
  const auto& names = kernel_names();
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return KernelType(i);
  }
  return std::nullopt;
}

constexpr int kLanes = 48;
constexpr double kFlopsPerIteration = 2.0 * kLanes;  // one multiply and one add per lane

struct Kernel {
  KernelType type = KernelType::compute_bound;
  long grain = 1024;           // iterations per task
  double imbalance = 1.0;      // load_imbalance only, in [0, 2]
  long scratch_bytes = 65536;  // memory_bound only: scratch per worker
  long samples = 16;           // memory_bound only: the scratch is cycled in this many parts

  [[nodiscard]] long iterations_at(long graph_index, long t, long x) const {
    if (type != KernelType::load_imbalance) return grain;
    const double u = hash_uniform({graph_index, t, x});
    return std::lround((1.0 + (u - 0.5) * imbalance) * double(grain));
  }

  [[nodiscard]] long sample_bytes() const { return scratch_bytes / samples; }
};

// The recurrence a = a*c + d stays near 1: no overflow or subnormal slow paths,
// whatever the grain. Returns a value that depends on every lane, for the caller
// to store so the loop cannot be dropped.
//
// Written so that every compiler gives the same register-only loop: two blocks of
// 24 lanes, each block twelve 2-wide vectors held in named variables (12 of the 16
// SSE2 registers, room for the two constants, and twelve independent chains to
// hide the multiply-add latency), and never inlined, so every benchmark binary
// runs one identical copy. A plain loop over all lanes kept them in a stack array
// and ran 1.5x slower or faster depending on where the task's stack lay (a
// worker's stack, a fiber, the main thread); a FLOP-rate yardstick must not
// measure stack placement or one compiler's register allocation.
[[gnu::noinline]] inline double compute_kernel(long iterations) {
  using v2 = double __attribute__((vector_size(16)));
  static_assert(kLanes == 2 * 2 * 12, "two blocks of twelve 2-wide vectors");
  const v2 c = {0.999, 0.999}, d = {0.001, 0.001};
  v2 sum = {0.0, 0.0};
  for (int block = 0; block < 2; ++block) {
    const double b = 0.024 * block;  // lane l starts at 1 + 0.001 * l
    v2 a0 = {1.000 + b, 1.001 + b}, a1 = {1.002 + b, 1.003 + b}, a2 = {1.004 + b, 1.005 + b},
       a3 = {1.006 + b, 1.007 + b}, a4 = {1.008 + b, 1.009 + b}, a5 = {1.010 + b, 1.011 + b},
       a6 = {1.012 + b, 1.013 + b}, a7 = {1.014 + b, 1.015 + b}, a8 = {1.016 + b, 1.017 + b},
       a9 = {1.018 + b, 1.019 + b}, a10 = {1.020 + b, 1.021 + b}, a11 = {1.022 + b, 1.023 + b};
    for (long it = 0; it < iterations; ++it) {
      a0 = a0 * c + d, a1 = a1 * c + d, a2 = a2 * c + d, a3 = a3 * c + d;
      a4 = a4 * c + d, a5 = a5 * c + d, a6 = a6 * c + d, a7 = a7 * c + d;
      a8 = a8 * c + d, a9 = a9 * c + d, a10 = a10 * c + d, a11 = a11 * c + d;
    }
    sum += ((a0 + a1) + (a2 + a3)) + ((a4 + a5) + (a6 + a7)) + ((a8 + a9) + (a10 + a11));
  }
  return sum[0] + sum[1];
}

// Task Bench's memory kernel: iteration i of the task at row t copies within sample
// (t * grain + i) mod samples, so consecutive tasks sweep the whole scratch buffer.
inline double memory_kernel(const Kernel& k, long t, char* scratch) {
  const long sample = k.sample_bytes(), half = sample / 2;
  for (long it = 0; it < k.grain; ++it) {
    char* s = scratch + ((t * k.grain + it) % k.samples) * sample;
    std::memcpy(s + half, s, size_t(half));
  }
  return double(scratch[0]);
}

// Runs the kernel of task (t, x); `scratch` is the running worker's own buffer.
inline double run_kernel(const Kernel& k, long graph_index, long t, long x, char* scratch) {
  if (k.type == KernelType::memory_bound) return memory_kernel(k, t, scratch);
  return compute_kernel(k.iterations_at(graph_index, t, x));
}

// One scratch buffer per worker, for memory_bound: a task uses the buffer of the
// worker running it, so no two running tasks share one.
class ScratchPool {
 public:
  ScratchPool(const Kernel& k, int workers)
      : bytes_(k.type == KernelType::memory_bound ? k.scratch_bytes : 0),
        data_(size_t(bytes_) * size_t(workers), 1) {}
  char* at(int worker) { return bytes_ ? data_.data() + size_t(worker) * size_t(bytes_) : nullptr; }

 private:
  long bytes_;
  std::vector<char> data_;
};

// Work of a whole graph, the denominators of METG's efficiency.
struct GraphWork {
  long tasks = 0;
  long dependencies = 0;  // edges: inputs summed over all tasks
  double iterations = 0;  // kernel iterations summed over all tasks
  double flops = 0;       // compute_bound, load_imbalance
  double bytes = 0;       // memory_bound: bytes read plus bytes written
};

inline GraphWork graph_work(const Graph& g, const Kernel& k) {
  GraphWork w;
  for (long t = 0; t < g.steps; ++t) {
    for (long x = g.offset_at(t); x < g.offset_at(t) + g.width_at(t); ++x) {
      ++w.tasks;
      g.for_each_input(t, x, [&](long) { ++w.dependencies; });
      w.iterations += double(k.iterations_at(g.graph_index, t, x));
    }
  }
  if (k.type == KernelType::memory_bound) {
    w.bytes = w.iterations * double(2 * (k.sample_bytes() / 2));
  } else {
    w.flops = w.iterations * kFlopsPerIteration;
  }
  return w;
}

}  // namespace taskbench
