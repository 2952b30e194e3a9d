// Teams: the members of one parallel region, each on its own worker (a gang).
//
// Fork (fork.cpp) reserves a worker per member, then publishes the region with one
// store to the team's `start` word, which every lingering member of a cached ("hot")
// team spins on; members that do not linger get a new implicit task in their worker's
// mailbox. Join is one fetch_add per member. A member that finishes a region of a hot
// team lingers for the spin budget, then retires: it releases its worker and its task
// ends. The protocol is in docs/omp.md ("Fork and join").
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "abi.hpp"
#include "worksharing/dispatch.hpp"
#include "tasking/task_team.hpp"
#include "parallel/thread.hpp"
#include "sync/wait.hpp"

namespace loom::omp {

/// `member_slot::reserved` of a member that left (retired or dismissed).
inline constexpr std::uint32_t reserve_retired = 0xffffffffu;

/// The `start` word: region epoch in the high half, its number of members in the low.
inline constexpr std::uint64_t start_word(std::uint32_t epoch, std::uint32_t members) {
    return (std::uint64_t{epoch} << 32) | members;
}
inline constexpr std::uint32_t start_epoch(std::uint64_t w) { return std::uint32_t(w >> 32); }
inline constexpr std::uint32_t start_members(std::uint64_t w) { return std::uint32_t(w); }

struct alignas(64) member_slot {
    // ---- the master's line: it writes it at every fork; the member reads it when its
    // task starts and when it leaves, never while it runs or lingers ----------------------
    // Epoch of the last region the master gave this member, or reserve_retired (a CAS
    // that finds the line in the master's own cache: the member touches it only when it
    // retires, with a CAS from the epoch it served).
    std::atomic<std::uint32_t> reserved{0};
    std::uint32_t last_reserved = 0;    // what the master last wrote (master only)
    int worker = -1;                    // worker the member runs on
    bool running = false;               // a member task exists for this slot (master only)
    std::atomic<bool> released{true};   // its task gave its worker claim back (retired)

    // ---- the member's own lines: it writes them in a region, others read them ----------
    alignas(64) sleeper sleep;          // barrier / reduction sleeps of this member
    void* reduce_data = nullptr;
    dispatch_buffer* doacross = nullptr;  // buffer of the member's doacross loop (doacross.cpp)
    implicit_task task;                 // the member's implicit task
    // The epoch of the last region whose implicit task this member began (member_began
    // in tasking/task_runner.hpp): its worker may run the team's tasks as this member
    // only from then on. A lingering member's worker could otherwise take a task of
    // the next region before the member's implicit task started and set up what its
    // tasks use (gcc initialises each thread's task-reduction copies there).
    std::atomic<std::uint32_t> begun{0};
    // Set while the member's context is parked lending its worker to the team's tasks
    // (tasking/task_hooks.cpp run_one): its worker, finding a task of a region the
    // member has not begun, wakes it through this (tasking/task_runner.cpp).
    std::atomic<tasking::lend_wake*> lend_wake{nullptr};
};

struct team {
    // ---- written by the master before it starts the members ------------------------
    kmpc_micro fn = nullptr;
    int argc = 0;
    void** args = nullptr;
    const char* trace_name = nullptr;  // LOOM_TRACE: the construct's ident_t psource
    std::vector<void*> arg_store;
    int nthreads = 1;
    implicit_task* parent = nullptr;    // the encountering task
    task_icvs child_icvs;
    int level = 0;
    int active_level = 0;
    bool league = false;                // host teams construct: members are team masters
    int proc_bind = -1;                 // the region's proc_bind clause; -1: none (bind-var)
    int league_thread_limit = 0;
    int capacity = 0;
    member_slot* slots = nullptr;       // capacity entries
    bool hot = false;                   // cached by its master thread (members linger)
    ompt_data_t ompt_parallel{};        // OMPT: the tool's data of the current region
    tasking::tdata* ompt_encountering = nullptr;  // OMPT: its encountering explicit task
    // OMPT: a tool was active at the fork of this (non-league) region: members meet at
    // its implicit barrier (ompt_arrived) before they report its end. Fixed per region,
    // so all members and the master agree even if the tool is finalised meanwhile.
    bool ompt_join = false;

    // ---- the master's own (a store here must not take the line above from the members,
    // which read it in every region: fork writes those fields only when they change) --
    alignas(64) std::uint32_t epoch = 0;  // last epoch handed out (regions and pokes)
    bool busy = false;                  // a region runs on it (master only)
    std::uint64_t join_target = 0;      // `joined` once every member of this region joined

    // ---- start: the one line lingering members spin on -----------------------------------
    // start_word(epoch, m): members 1..m-1 run region `epoch`; a word with m = 0 is a
    // poke (look at your `reserved`). start_join_target is written just before it.
    alignas(64) std::atomic<std::uint64_t> start{0};
    std::uint64_t start_join_target = 0;
    // The epoch of the region running now (pokes leave it), written before its start
    // word. A worker that took one of the team's tasks reads it after the task (whose
    // creator saw the start word), so it reads this region's epoch or a later one.
    std::atomic<std::uint32_t> region_epoch{0};

    // ---- join --------------------------------------------------------------------------
    // Members that finished a region of this team, counted since the team was made:
    // never re-armed, so a fork writes nothing here (the members' increments own it).
    alignas(64) std::atomic<std::uint64_t> joined{0};
    std::atomic<int> live{0};           // member tasks that may still touch this team
    std::atomic<int> ompt_arrived{0};   // OMPT: members at the implicit barrier (ompt_join)

    // ---- barrier -----------------------------------------------------------------------
    alignas(64) std::atomic<int> bar_count{0};
    std::atomic<std::uint32_t> bar_epoch{0};

    // ---- single, copyprivate, cancellation ----------------------------------------------
    alignas(64) std::atomic<std::uint32_t> single_count{0};
    void* copyprivate_data = nullptr;
    std::atomic<int> cancel_request{0};
    // cancel_request as the last member to arrive at a cancellable barrier saw it: what
    // every member of that barrier acts on (cancel.cpp), since a member that left the
    // barrier first may already request the next construct's cancellation.
    std::atomic<int> cancel_at_barrier{0};

    // ---- reductions ----------------------------------------------------------------------
    alignas(64) std::atomic<int> red_count{0};
    std::atomic<std::uint32_t> red_epoch{0};

    // ---- dynamic loops ---------------------------------------------------------------------
    unsigned dispatch_count;            // KMP_DISP_NUM_BUFFERS
    dispatch_buffer* dispatch;          // dispatch_count buffers, reused round-robin

    // ---- explicit tasks (task.cpp) ---------------------------------------------------------
    task_team tasks;

    explicit team(int cap);
    ~team();
    team(const team&) = delete;
    team& operator=(const team&) = delete;
};

/// Workers the members of `t` hold: its lingering members', and those of retired ones
/// that have not given theirs back yet (read by the master).
inline int held_workers(const team* t) {
    int held = 0;
    for (int i = 1; i < t->capacity; ++i) held += t->slots[i].running ? 1 : 0;
    return held;
}

/// Retires the lingering members of `th`'s cached teams and frees them, at the exit of
/// thread `th` (its own call). Only when `th` is not inside a region it forked.
void dismiss_hot_teams(thread_state* th);
/// Dismisses the idle cached teams of every thread that registered one
/// (omp_pause_resource, with no region in flight); safe against owners that exit
/// meanwhile.
void dismiss_all_hot_teams();

/// Initialises member `i`'s implicit task for the region now set up in `t` (member.cpp).
void setup_task(team* t, int i, implicit_task& it, int worker);
/// One team of a host league, with a tool (member.cpp): as libomp, the team's initial
/// task (index = its team number, in `league`'s region), then a region of one thread
/// whose implicit task runs the body.
void run_league_team_observed(implicit_task& team, ompt_data_t& league, kmpc_micro fn, int gtid, int argc,
                              void** args);
/// Runs member i's share of the region: one implicit task, or for a host teams league
/// the teams i, i + m, i + 2m, ... one after another (member.cpp).
void run_share(team* t, int i, implicit_task& it, thread_state* th);

/// OMPT (ompt_join): a member or the master reaches the region's implicit barrier; the
/// last of the team to arrive wakes the members waiting there (member.cpp).
void arrive_at_observed_join(team* t);
/// Body of a member task on its worker, first running region `epoch` (member.cpp).
void run_member(team* t, int index, std::uint32_t epoch);

}  // namespace loom::omp
