// EPCC-taskbench-style overheads of OpenMP tasking (after the EPCC OpenMP micro-benchmark
// suite, taskbench): each test runs `inner` tasks of `delay` busy iterations per thread
// and reports the time per repetition; the driver compares runtimes on the same test.
//   parallel_task          every member creates its tasks (PARALLEL TASK)
//   master_task            one member creates all tasks (MASTER TASK)
//   master_task_busy_slaves  one member creates them, the others also work (MASTER TASK BUSY SLAVES)
//   conditional_task       every member creates if(0) tasks (CONDITIONAL TASK)
//   task_wait              every member creates tasks and waits after each (TASK WAIT)
//   task_barrier           every member creates tasks, then a barrier (TASK BARRIER)
//   nested_task            every member creates tasks that create tasks (NESTED TASK)
//   nested_master_task     one member creates tasks that create tasks (NESTED MASTER TASK)
//   branch_task_tree       binary tree of tasks, work at every node (BRANCH TASK TREE)
//   leaf_task_tree         binary tree of tasks, work at the leaves (LEAF TASK TREE)
// and three rows for dependences, in the same style:
//   dep_independent        every member creates tasks with depend(inout) on addresses of
//                          its own, none ordered: the cost of tracking (DEP INDEPENDENT)
//   dep_chain              one member creates tasks that all depend(inout) on one
//                          variable: each released by the one before (DEP CHAIN)
//   dep_fan                one member creates groups of a depend(out) task followed by 7
//                          depend(in) tasks on one variable: readers released together
//                          by the writer, the next writer waits for all of them (DEP FAN)
// Work is counted (every delay() adds 1) and checked against the expected count.
#include <atomic>
#include <string>
#include <vector>

#include "bench.hpp"
#include "cli.hpp"
#include "json.hpp"
#include "omp_team.hpp"

namespace lb = loom_bench;

namespace {

std::atomic<long> g_work{0};
int g_delay = 100;
// Dependence addresses: one per task of a member in dep_independent (up to 64 members
// of `inner` tasks each), the first one in dep_chain and dep_fan.
std::vector<char> g_dep_slots;

void delay() {
  volatile int a = 0;
  for (int i = 0; i < g_delay; ++i) a = a + i;
  lb::do_not_optimize(a);
  g_work.fetch_add(1, std::memory_order_relaxed);
}

void tree(int depth, bool branch) {
  if (branch || depth == 0) delay();
  if (depth == 0) return;
#pragma omp task
  tree(depth - 1, branch);
#pragma omp task
  tree(depth - 1, branch);
}

}  // namespace

int main(int argc, char** argv) {
  lb::Cli cli(argc, argv, "omp_taskbench", "EPCC-style OpenMP task overheads");
  const std::string test = cli.choice(
      "test", "parallel_task",
      {"parallel_task", "master_task", "master_task_busy_slaves", "conditional_task", "task_wait",
       "task_barrier", "nested_task", "nested_master_task", "branch_task_tree", "leaf_task_tree",
       "dep_independent", "dep_chain", "dep_fan"},
      "pattern");
  const int inner = int(cli.integer("inner", 64, 1, 1 << 20, "tasks per thread per repetition"));
  g_delay = int(cli.integer("delay", 100, 0, 1 << 24, "busy iterations per task"));
  const int depth = int(cli.integer("depth", 10, 1, 24, "tree depth (task trees)"));
  auto run = lb::run_options(cli, 20);
  cli.finish();
  const int threads = lb::omp_team_size(run);
  g_dep_slots.assign(static_cast<std::size_t>(threads) * static_cast<std::size_t>(inner), 0);

  long expect = 0;
  if (test == "branch_task_tree") expect = long(threads) * ((2L << depth) - 1);
  else if (test == "leaf_task_tree") expect = long(threads) * (1L << depth);
  else if (test == "nested_task") expect = long(threads) * inner;
  else if (test == "nested_master_task") expect = long(threads) * inner;
  else if (test == "master_task_busy_slaves") expect = long(threads) * inner + long(threads - 1) * inner;
  else expect = long(threads) * inner;

  auto timing = lb::measure_checked(
      run, [] { g_work.store(0); },
      [&] {
        if (test == "parallel_task") {
#pragma omp parallel
          for (int j = 0; j < inner; ++j) {
#pragma omp task
            delay();
          }
        } else if (test == "master_task") {
#pragma omp parallel
#pragma omp master
          for (int j = 0; j < inner * omp_get_num_threads(); ++j) {
#pragma omp task
            delay();
          }
        } else if (test == "master_task_busy_slaves") {
#pragma omp parallel
          {
            if (omp_get_thread_num() == 0) {
              for (int j = 0; j < inner * omp_get_num_threads(); ++j) {
#pragma omp task
                delay();
              }
            } else {
              for (int j = 0; j < inner; ++j) delay();
            }
          }
        } else if (test == "conditional_task") {
#pragma omp parallel
          for (int j = 0; j < inner; ++j) {
#pragma omp task if (0)
            delay();
          }
        } else if (test == "task_wait") {
#pragma omp parallel
          for (int j = 0; j < inner; ++j) {
#pragma omp task
            delay();
#pragma omp taskwait
          }
        } else if (test == "task_barrier") {
#pragma omp parallel
          {
            for (int j = 0; j < inner; ++j) {
#pragma omp task
              delay();
#pragma omp barrier
            }
          }
        } else if (test == "nested_task") {
#pragma omp parallel
          for (int j = 0; j < inner / 8 + (inner % 8 != 0); ++j) {
#pragma omp task firstprivate(j)
            for (int k = j * 8; k < j * 8 + 8 && k < inner; ++k) {
#pragma omp task
              delay();
            }
          }
        } else if (test == "nested_master_task") {
#pragma omp parallel
#pragma omp master
          for (int t = 0; t < omp_get_num_threads(); ++t) {
#pragma omp task
            for (int k = 0; k < inner; ++k) {
#pragma omp task
              delay();
            }
          }
        } else if (test == "dep_independent") {
#pragma omp parallel
          {
            [[maybe_unused]] char* mine =  // gcc sees no use in depend()
                g_dep_slots.data() + static_cast<std::size_t>(omp_get_thread_num()) * inner;
            for (int j = 0; j < inner; ++j) {
#pragma omp task depend(inout : mine[j])
              delay();
            }
          }
        } else if (test == "dep_chain") {
          [[maybe_unused]] char* x = g_dep_slots.data();  // gcc sees no use in depend()
#pragma omp parallel
#pragma omp master
          for (int j = 0; j < inner * omp_get_num_threads(); ++j) {
#pragma omp task depend(inout : x[0])
            delay();
          }
        } else if (test == "dep_fan") {
          [[maybe_unused]] char* x = g_dep_slots.data();  // gcc sees no use in depend()
#pragma omp parallel
#pragma omp master
          for (int j = 0; j < inner * omp_get_num_threads(); ++j) {
            if (j % 8 == 0) {
#pragma omp task depend(out : x[0])
              delay();
            } else {
#pragma omp task depend(in : x[0])
              delay();
            }
          }
        } else {
          const bool branch = test == "branch_task_tree";
#pragma omp parallel
          tree(depth, branch);
        }
      },
      [&] { return g_work.load() == expect; });
  return lb::report(cli, run, threads, timing.times, timing.verified,
                    lb::JsonObject().set("tasks", expect));
}
