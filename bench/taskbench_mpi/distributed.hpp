// Task Bench across MPI ranks, shared by the loom, MPI and MPI + OpenMP versions:
// the command line, which rank owns which points, which outputs travel to which rank
// at each step, the timing protocol and the per-rank verification. The graphs,
// kernels and checks are bench/taskbench's (graph.hpp, kernel.hpp, verify.hpp).
//
// Points. Row width = --tasks-per-core x --threads (the cores of the whole run,
// Task Bench's "tasks per core"); rank r owns the contiguous block of points
// [width*r/ranks, width*(r+1)/ranks) of every row and runs their tasks with
// --threads / ranks threads (workers) of its own.
//
// Data. Every rank keeps taskbench::Rows over the full width: its own points' outputs
// and copies of the remote outputs its tasks read. Task (t, x) checks and reads row
// t-1 exactly as on one node (GraphRun::execute), so a remote input that arrived late,
// early or into the wrong slot fails the run.
//
// Messages. The output of (t-1, y) goes once to every rank owning a task of row t
// that reads it (one message per point and destination rank, the 64-byte Record),
// with tag 2y + (t-1)%2: messages of one point alternate between two tags, so a
// receive for row t+1 never matches the message meant for row t-1 even when posted
// before it (the loom version posts receives as soon as their slot is free).
//
// Timing. A repetition is barrier, clock, run, barrier, clock; rank 0 reports the
// largest time of any rank. Rank 0 prints the record; the work (tasks, FLOPs) is the
// whole graph's, and "threads" is the run's cores, as METG wants.
#pragma once

// MPI's C API only (Open MPI's mpi.h would pull in its deprecated C++ bindings).
#ifndef OMPI_SKIP_MPICXX
#define OMPI_SKIP_MPICXX 1
#endif
#ifndef MPICH_SKIP_MPICXX
#define MPICH_SKIP_MPICXX 1
#endif
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "app.hpp"
#include "bench.hpp"

namespace taskbench_mpi {

namespace lb = loom_bench;
namespace tb = taskbench;

// The block of points each rank owns.
struct Layout {
  long width = 1;
  int ranks = 1;
  int rank = 0;

  [[nodiscard]] long first(int r) const { return width * r / ranks; }
  [[nodiscard]] long lo() const { return first(rank); }
  [[nodiscard]] long hi() const { return first(rank + 1); }
  [[nodiscard]] int owner(long x) const {
    int r = int(x * ranks / width);
    while (r > 0 && x < first(r)) --r;
    while (r + 1 < ranks && x >= first(r + 1)) ++r;
    return r;
  }
  [[nodiscard]] bool local(long x) const { return x >= lo() && x < hi(); }
};

inline int tag_of(long t, long y) { return int(2 * y + (t & 1)); }

// One output travelling between ranks: point y of row t, from or to `peer`.
struct Transfer {
  long y;
  int peer;
};

// What crosses ranks between row t-1 and row t, for this rank: the outputs of row
// t-1 it sends (its points, read by another rank's tasks of row t) and the ones it
// receives (other ranks' points its tasks of row t read). Sorted by (peer, y), each
// pair once.
struct Exchange {
  std::vector<Transfer> sends;
  std::vector<Transfer> recvs;
};

inline std::vector<Exchange> plan_exchanges(const tb::Graph& g, const Layout& L) {
  std::vector<Exchange> plan(size_t(g.steps));
  auto add_unique = [](std::vector<Transfer>& v, long y, int peer) {
    for (const Transfer& tr : v)
      if (tr.y == y && tr.peer == peer) return;
    v.push_back({y, peer});
  };
  for (long t = 1; t < g.steps; ++t) {
    Exchange& e = plan[size_t(t)];
    for (long x = g.offset_at(t); x < g.offset_at(t) + g.width_at(t); ++x) {
      const int reader = L.owner(x);
      g.for_each_input(t, x, [&](long y) {
        const int writer = L.owner(y);
        if (writer == reader) return;
        if (reader == L.rank) add_unique(e.recvs, y, writer);
        if (writer == L.rank) add_unique(e.sends, y, reader);
      });
    }
    auto order = [](const Transfer& a, const Transfer& b) { return std::pair(a.peer, a.y) < std::pair(b.peer, b.y); };
    std::sort(e.sends.begin(), e.sends.end(), order);
    std::sort(e.recvs.begin(), e.recvs.end(), order);
  }
  return plan;
}

// The options of every version, parsed before MPI starts (a bad option ends every
// rank the same way, with the same message).
struct Options {
  tb::Config cfg;
  lb::RunOptions run;
  long tasks_per_core = 1;
};

inline Options parse(lb::Cli& cli) {
  Options o;
  o.cfg = tb::parse_config(cli);
  o.tasks_per_core = long(cli.integer("tasks-per-core", 1, 1, 1L << 16,
                                      "points per row and core, when --width is 0"));
  o.run = lb::run_options(cli);
  cli.finish();
  return o;
}

// Everything a version needs once MPI runs: the layout, the threads of this rank, the
// graph sized for the run, the exchange plan.
struct Setup {
  Layout layout;
  int cores = 1;             // the whole run's (--threads)
  int threads_per_rank = 1;
  std::vector<Exchange> plan;
};

inline Setup setup(Options& o, lb::Cli& cli) {
  Setup s;
  MPI_Comm_size(MPI_COMM_WORLD, &s.layout.ranks);
  MPI_Comm_rank(MPI_COMM_WORLD, &s.layout.rank);
  s.cores = std::max(lb::default_threads(o.run), s.layout.ranks);
  s.threads_per_rank = std::max(1, s.cores / s.layout.ranks);
  tb::Graph& g = o.cfg.graph;
  if (g.width == 0) {
    g.width = o.tasks_per_core * s.cores;
    cli.set_param("width", g.width);
  }
  tb::resolve(o.cfg, cli, s.cores);
  if (g.width < s.layout.ranks) cli.fail("width", std::to_string(g.width), "at least one point per rank");
  int* tag_ub = nullptr;
  int found = 0;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &found);
  if (found && 2L * g.width + 1 > long(*tag_ub)) cli.fail("width", std::to_string(g.width), "2 x width below MPI_TAG_UB");
  s.layout.width = g.width;
  s.plan = plan_exchanges(g, s.layout);
  return s;
}

// This rank's share of GraphRun::verified(): its tasks all ran with the right inputs
// and its points of the last row hold their own identity. True on every rank only if
// it holds on all.
inline bool verified_everywhere(const tb::GraphRun& run, const Layout& L) {
  const tb::Graph& g = run.graph;
  long mine = 0;
  for (long t = 0; t < g.steps; ++t)
    for (long x = std::max(L.lo(), g.offset_at(t)); x < std::min(L.hi(), g.offset_at(t) + g.width_at(t)); ++x) ++mine;
  bool ok = run.tally.tasks() == mine && run.tally.errors() == 0;
  const long last = g.steps - 1;
  const tb::Record* out = run.rows.row(last);
  for (long x = std::max(L.lo(), g.offset_at(last)); x < std::min(L.hi(), g.offset_at(last) + g.width_at(last)); ++x)
    ok = ok && out[x].t == last && out[x].x == x;
  int mine_ok = ok ? 1 : 0, all_ok = 0;
  MPI_Allreduce(&mine_ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return all_ok == 1;
}

// Warm-ups and timed repetitions of `body` on every rank; the time of a repetition
// is the slowest rank's.
template <class Prepare, class Body, class Check>
lb::Timing measure(const lb::RunOptions& run, Prepare&& prepare, Body&& body, Check&& check) {
  lb::Timing out;
  for (int i = 0; i < run.warmup + run.reps; ++i) {
    prepare();
    MPI_Barrier(MPI_COMM_WORLD);
    const auto t0 = std::chrono::steady_clock::now();
    body();
    MPI_Barrier(MPI_COMM_WORLD);
    double dt = lb::seconds_since(t0), slowest = 0;
    MPI_Allreduce(&dt, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (i >= run.warmup) out.times.push_back(slowest);
    out.verified = check() && out.verified;
  }
  return out;
}

// Rank 0 prints the record; every rank returns the same status.
inline int report(const lb::Cli& cli, const Options& o, const Setup& s, const lb::Timing& timing) {
  lb::JsonObject extra;
  extra.set("ranks", s.layout.ranks).set("threads_per_rank", s.threads_per_rank);
  if (s.layout.rank == 0) {
    return lb::report(cli, o.run, s.cores, timing.times, timing.verified, tb::work_record(o.cfg), extra);
  }
  return timing.verified ? 0 : 1;
}

// The bulk-synchronous exchange before row t (MPI and MPI + OpenMP versions): receive
// the remote inputs of row t into their slots of row t-1, send this rank's outputs of
// row t-1, wait for all. `reqs` is reused from step to step.
inline void exchange_before(long t, const Setup& s, tb::Rows& rows, std::vector<MPI_Request>& reqs) {
  if (t == 0) return;
  const Exchange& e = s.plan[size_t(t)];
  reqs.clear();
  tb::Record* prev = rows.row(t - 1);
  for (const Transfer& r : e.recvs) {
    reqs.emplace_back();
    MPI_Irecv(&prev[r.y], int(sizeof(tb::Record)), MPI_BYTE, r.peer, tag_of(t - 1, r.y), MPI_COMM_WORLD, &reqs.back());
  }
  for (const Transfer& snd : e.sends) {
    reqs.emplace_back();
    MPI_Isend(&prev[snd.y], int(sizeof(tb::Record)), MPI_BYTE, snd.peer, tag_of(t - 1, snd.y), MPI_COMM_WORLD,
              &reqs.back());
  }
  MPI_Waitall(int(reqs.size()), reqs.data(), MPI_STATUSES_IGNORE);
}

// The bulk-synchronous versions' whole run (MPI, MPI + OpenMP): before every row the
// exchange, then `run_row(t, lo, hi)` over this rank's points [lo, hi) of row t; timed
// over the repetitions, checked on every rank, recorded by rank 0.
template <class RunRow>
int run_bulk_synchronous(const lb::Cli& cli, const Options& o, const Setup& s, tb::GraphRun& run, RunRow&& run_row) {
  const tb::Graph& g = run.graph;
  std::vector<MPI_Request> reqs;
  auto rows = [&] {
    for (long t = 0; t < g.steps; ++t) {
      exchange_before(t, s, run.rows, reqs);
      const long lo = std::max(s.layout.lo(), g.offset_at(t));
      const long hi = std::min(s.layout.hi(), g.offset_at(t) + g.width_at(t));
      run_row(t, lo, hi);
    }
  };
  const lb::Timing timing = measure(
      o.run, [&] { run.reset(); }, rows, [&] { return verified_everywhere(run, s.layout); });
  return report(cli, o, s, timing);
}

}  // namespace taskbench_mpi
