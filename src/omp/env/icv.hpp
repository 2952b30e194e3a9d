// Internal control variables. The global ones are parsed from the environment once
// (env.cpp); the per-task ones travel with every implicit task (thread.hpp) and are
// inherited at each fork as the OpenMP specification prescribes.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace loom::omp {

/// run-sched-var: an omp_sched_t kind (1..4), a chunk (0 = unspecified) and the
/// monotonic modifier bit as omp_get_schedule reports it.
struct sched_icv {
    int kind = 1;              // omp_sched_static
    int chunk = 0;
    bool monotonic = false;
    bool nonmonotonic = false;
    bool operator==(const sched_icv&) const = default;
};

/// ICVs of one data environment (one implicit or initial task).
struct task_icvs {
    int nthreads = 0;                 // nthreads-var; 0 = the pool size
    const std::vector<int>* nthreads_list = nullptr;  // the list nthreads_pos indexes:
                                      // a num_threads list clause's; null = OMP_NUM_THREADS
    unsigned char nthreads_pos = 0;   // index of nthreads in the OMP_NUM_THREADS list
    bool nthreads_from_list = true;
    signed char bind = 0;             // bind-var (omp_proc_bind_t)
    unsigned char bind_pos = 0;
    bool dynamic = false;             // dyn-var
    int max_active_levels = 1;        // max-active-levels-var
    int thread_limit = 0;             // thread-limit-var; 0 = unlimited
    int default_device = 0;           // default-device-var
    std::uintptr_t def_allocator = 1; // def-allocator-var (omp_default_mem_alloc)
    sched_icv sched;                  // run-sched-var
    bool operator==(const task_icvs&) const = default;
};

/// ICVs of the whole device, fixed at start-up except where a routine may change them.
struct global_icvs {
    std::vector<int> nthreads_list;   // OMP_NUM_THREADS
    std::vector<int> bind_list;       // OMP_PROC_BIND
    bool nthreads_set = false;
    bool nthreads_malformed = false;  // OMP_NUM_THREADS was set but invalid
    bool bind_set = false;
    task_icvs initial;                // the initial task's ICVs
    bool cancellation = false;        // cancel-var
    std::size_t stacksize = 0;        // stacksize-var in bytes; 0 = not set
    bool wait_policy_active = false;  // wait-policy-var
    bool wait_policy_set = false;
    long blocktime_us = -1;           // spin budget; -1 = the scheduler's default
    bool blocktime_infinite = false;
    int hot_teams_max_level = 0;      // KMP_HOT_TEAMS_MAX_LEVEL; 0 = not set (adaptive lingering)
    int max_task_priority = 0;
    int display_env = 0;              // 0 no, 1 true, 2 verbose
    bool display_affinity = false;
    std::string affinity_format = "OMP: pid %P tid %i thread %n bound to OS proc set {%A}";
    std::string places_text;          // as given (empty = not set)
    std::vector<std::vector<int>> places;
    int num_teams = 0;                // nteams-var
    int teams_thread_limit = 0;       // teams-thread-limit-var
    int target_offload = 0;           // 0 default, 1 disabled, 2 mandatory
    int library = 1;                  // KMP_LIBRARY: 0 serial, 1 throughput, 2 turnaround
    unsigned disp_num_buffers = 8;    // KMP_DISP_NUM_BUFFERS: dispatch buffers per team
    bool nested_set = false;
    bool max_active_levels_set = false;
    std::string schedule_text = "static";
    std::string default_allocator = "omp_default_mem_alloc";
};

/// The global ICVs, parsed from the environment on first use (thread-safe).
global_icvs& globals();
/// Spin budget in microseconds derived from KMP_BLOCKTIME, OMP_WAIT_POLICY,
/// GOMP_SPINCOUNT and the scheduler's default (-1 = spin forever).
long spin_budget_us() noexcept;
/// True when KMP_BLOCKTIME, OMP_WAIT_POLICY, GOMP_SPINCOUNT or kmp_set_blocktime fixed
/// the spin budget (otherwise the scheduler may adapt it: ext::idle_spin_budget_us).
bool spin_budget_fixed() noexcept;
/// True for a team at nesting `level` (1 = a top-level region's team) that
/// KMP_HOT_TEAMS_MAX_LEVEL makes hot, as libomp's hot teams: its members stay reserved
/// for its next region and do not give their workers to regions elsewhere.
bool hot_team_level(int level) noexcept;
/// How long a member of a team at nesting `level` lingers for its team's next region
/// before it gives its worker back: the spin budget when an OpenMP setting fixed it;
/// libomp's blocktime (200 ms) for a hot team; else the calling worker's adaptive idle
/// budget (ext::idle_spin_budget_us: ask it on the member's thread). -1 = until the
/// next region.
long linger_budget_us(int level) noexcept;
/// Runtime-settable copies (kmp_set_blocktime etc.).
void set_blocktime_ms(int ms) noexcept;
int blocktime_ms() noexcept;

/// Default size of a team when nthreads-var is 0: the number of workers.
int default_nthreads();

/// The ICVs a setter routine (omp_set_num_threads, ...) changes: those of the running
/// task's data environment. An explicit task shares its implicit task's ICVs until it
/// changes one (OpenMP 5.2, 2.4: each task has its own data environment, copied from
/// its generating task): then the implicit task's are saved and put back when the task's
/// body ends (copy on write: creating a task costs nothing for it; tasking/task.cpp).
task_icvs& writable_icvs();

/// Advances the list ICVs from a parent task to its child implicit tasks.
void inherit_icvs(const task_icvs& parent, task_icvs& child) noexcept;
/// A num_threads list clause's list as a shared, never freed object (one per distinct
/// list), so tasks can point at it: the ICVs of a region sized by it (`n` > 1 entries)
/// start at its entry 1 (OpenMP 6.0, num_threads clause; libomp 19).
const std::vector<int>* intern_nthreads_list(const int* list, unsigned n);
/// The threads a top-level region of `n` threads can have at once when its nested
/// levels follow a list (`child`: the ICVs of its implicit tasks); n when no list
/// (of more than one entry) says how the region nests.
int nest_demand(int n, const task_icvs& child, int limit);

}  // namespace loom::omp
