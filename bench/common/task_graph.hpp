// The task graph of one run of a tile benchmark (--record-graph FILE), for the
// scheduling simulator (tools/loom_bench/simulate.py) and the Gantt charts.
//
// The benchmark names, next to each `#pragma omp task`, the tiles the task reads
// and writes -- the same addresses as its depend clauses -- and the graph derives
// the edges from them with the rules the OpenMP runtimes apply (a reader waits for
// the last writer group, a writer for the readers since, or for the last writer;
// one edge per pair), so the recorded edges are the ones the runtime linked. Each
// task body is timed with steady_clock inside the task (TaskTimer), together with
// omp_get_thread_num(): these timestamps come from the benchmark itself, so they
// are the same for every OpenMP runtime and need no tool interface.
//
// Tasks are added only by the thread that creates them (inside `single`), so the
// dependence table needs no lock. A task writes only its own record, which lives
// in a deque (stable addresses while the creator appends) and is read after the
// parallel region has ended.
#pragma once

#include <omp.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <initializer_list>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "json.hpp"

namespace loom_bench {

struct GraphTask {
  const char* kind = "";
  long i = 0, j = 0, k = 0;  // tile row, tile column, step
  bool panel = false;         // one of the tasks --priority marks priority(1)
  std::int64_t created_ns = 0;
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
  int thread = -1;
};

class TaskGraph {
 public:
  using clock = std::chrono::steady_clock;

  [[nodiscard]] bool on() const { return on_; }
  void enable() { on_ = true; }

  // Forgets the previous repetition: only the last one is written.
  void begin() {
    if (!on_) return;
    tasks_.clear();
    edges_.clear();
    deps_.clear();
    t0_ = clock::now();
  }

  // Records a task about to be created; null when recording is off. `reads` and
  // `writes` are the addresses of its depend(in:) and depend(out/inout:) items.
  GraphTask* add(const char* kind, long i, long j, long k, bool panel,
                 std::initializer_list<const void*> reads,
                 std::initializer_list<const void*> writes) {
    if (!on_) return nullptr;
    const long me = long(tasks_.size());
    GraphTask& t = tasks_.emplace_back();
    t.kind = kind;
    t.i = i;
    t.j = j;
    t.k = k;
    t.panel = panel;
    t.created_ns = now_ns();
    preds_.clear();
    for (const void* a : reads) access(a, false, me);
    for (const void* a : writes) access(a, true, me);
    for (long p : preds_) edges_.emplace_back(p, me);
    return &t;
  }

  [[nodiscard]] std::int64_t now_ns() const {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(clock::now() - t0_).count();
  }

  // One JSON document: `header` members, then "tasks" and "edges".
  bool write(std::FILE* f, const JsonObject& header) const {
    std::string head = header.str();
    head.pop_back();  // the closing brace: tasks and edges follow
    std::fprintf(f, "%s,\"tasks\":[\n", head.c_str());
    for (std::size_t n = 0; n < tasks_.size(); ++n) {
      const GraphTask& t = tasks_[n];
      std::fprintf(f,
                   "{\"id\":%zu,\"kind\":%s,\"tile\":[%ld,%ld,%ld],\"panel\":%s,"
                   "\"thread\":%d,\"created_ns\":%lld,\"start_ns\":%lld,\"end_ns\":%lld}%s\n",
                   n, json_string(t.kind).c_str(), t.i, t.j, t.k, t.panel ? "true" : "false",
                   t.thread, (long long)t.created_ns, (long long)t.start_ns, (long long)t.end_ns,
                   n + 1 < tasks_.size() ? "," : "");
    }
    std::fprintf(f, "],\"edges\":[");
    for (std::size_t n = 0; n < edges_.size(); ++n) {
      std::fprintf(f, "%s[%ld,%ld]", n ? "," : "", edges_[n].first, edges_[n].second);
    }
    std::fprintf(f, "]}\n");
    return std::ferror(f) == 0;
  }

  [[nodiscard]] std::size_t size() const { return tasks_.size(); }

 private:
  // Per address: the last group of tasks of one kind (writers replace it, readers
  // join it) and the group before it, which later readers wait for.
  struct Access {
    std::vector<long> last;
    std::vector<long> prev;
    bool last_reads = false;
  };

  void access(const void* addr, bool write, long me) {
    Access& a = deps_[addr];
    if (!write && a.last_reads) {
      link(a.prev);
      a.last.push_back(me);
      return;
    }
    link(a.last);
    if (write) {
      a.prev.clear();
      a.last.assign(1, me);
    } else {
      a.prev.swap(a.last);
      a.last.assign(1, me);
    }
    a.last_reads = !write;
  }

  void link(const std::vector<long>& from) {
    for (long p : from) {
      bool seen = false;
      for (long q : preds_) seen = seen || q == p;
      if (!seen) preds_.push_back(p);
    }
  }

  bool on_ = false;
  clock::time_point t0_ = clock::now();
  std::deque<GraphTask> tasks_;
  std::vector<std::pair<long, long>> edges_;
  std::unordered_map<const void*, Access> deps_;
  std::vector<long> preds_;
};

// Times one task body (construct first thing inside the task, destroyed at its end).
class TaskTimer {
 public:
  TaskTimer(const TaskGraph& g, GraphTask* t) : g_(g), t_(t) {
    if (!t_) return;
    t_->thread = omp_get_thread_num();
    t_->start_ns = g_.now_ns();
  }
  ~TaskTimer() {
    if (t_) t_->end_ns = g_.now_ns();
  }
  TaskTimer(const TaskTimer&) = delete;
  TaskTimer& operator=(const TaskTimer&) = delete;

 private:
  const TaskGraph& g_;
  GraphTask* t_;
};

}  // namespace loom_bench
