// The runtime entry points a tool reaches through the lookup function (OpenMP 5.2,
// 19.6): inquiry of threads, parallel regions, tasks, states, places; callback
// registration; unique ids; finalisation. Called from tool callbacks on the thread the
// event happened on, or from any thread for the thread-independent ones.
#include <sched.h>

#include <cstring>

#include "omp.h"
#include "ompt/callbacks.hpp"
#include "ompt/events.hpp"
#include "ompt/ompt.hpp"
#include "ompt/tool.hpp"
#include "parallel/team.hpp"
#include "parallel/thread.hpp"
#include "tasking/task.hpp"

namespace loom::omp::ompt {

namespace {

struct state_name {
    int value;
    const char* name;
};
// In libomp's order: the tool enumerates from ompt_state_undefined.
constexpr state_name g_states[] = {
    {ompt_state_undefined, "ompt_state_undefined"},
    {ompt_state_work_serial, "ompt_state_work_serial"},
    {ompt_state_work_parallel, "ompt_state_work_parallel"},
    {ompt_state_work_reduction, "ompt_state_work_reduction"},
    {ompt_state_wait_barrier, "ompt_state_wait_barrier"},
    {ompt_state_wait_barrier_implicit_parallel, "ompt_state_wait_barrier_implicit_parallel"},
    {ompt_state_wait_barrier_implicit_workshare, "ompt_state_wait_barrier_implicit_workshare"},
    {ompt_state_wait_barrier_implicit, "ompt_state_wait_barrier_implicit"},
    {ompt_state_wait_barrier_explicit, "ompt_state_wait_barrier_explicit"},
    {ompt_state_wait_barrier_implementation, "ompt_state_wait_barrier_implementation"},
    {ompt_state_wait_barrier_teams, "ompt_state_wait_barrier_teams"},
    {ompt_state_wait_taskwait, "ompt_state_wait_taskwait"},
    {ompt_state_wait_taskgroup, "ompt_state_wait_taskgroup"},
    {ompt_state_wait_mutex, "ompt_state_wait_mutex"},
    {ompt_state_wait_lock, "ompt_state_wait_lock"},
    {ompt_state_wait_critical, "ompt_state_wait_critical"},
    {ompt_state_wait_atomic, "ompt_state_wait_atomic"},
    {ompt_state_wait_ordered, "ompt_state_wait_ordered"},
    {ompt_state_wait_target, "ompt_state_wait_target"},
    {ompt_state_wait_target_map, "ompt_state_wait_target_map"},
    {ompt_state_wait_target_update, "ompt_state_wait_target_update"},
    {ompt_state_idle, "ompt_state_idle"},
    {ompt_state_overhead, "ompt_state_overhead"},
};

constexpr state_name g_mutex_impls[] = {
    {kmp_mutex_impl_none, "kmp_mutex_impl_none"},
    {kmp_mutex_impl_spin, "kmp_mutex_impl_spin"},
    {kmp_mutex_impl_queuing, "kmp_mutex_impl_queuing"},
    {kmp_mutex_impl_speculative, "kmp_mutex_impl_speculative"},
};

template <std::size_t N>
int enumerate(const state_name (&list)[N], int current, int* next, const char** name) {
    for (std::size_t i = 0; i + 1 < N; ++i) {
        if (list[i].value != current) continue;
        *next = list[i + 1].value;
        *name = list[i + 1].name;
        return 1;
    }
    return 0;
}

int enumerate_states(int current, int* next, const char** name) {
    return enumerate(g_states, current, next, name);
}
int enumerate_mutex_impls(int current, int* next, const char** name) {
    return enumerate(g_mutex_impls, current, next, name);
}

ompt_set_result_t entry_set_callback(ompt_callbacks_t e, ompt_callback_t c) { return set_callback(e, c); }
int entry_get_callback(ompt_callbacks_t e, ompt_callback_t* c) { return get_callback(e, c); }

// A thread of the runtime while the interface is on; null otherwise (a foreign thread,
// or a tool that declined): the inquiry entry points then answer as libomp.
thread_state* thread_of_active_runtime() { return on() ? this_thread_if_known() : nullptr; }

ompt_data_t* get_thread_data() {
    thread_state* th = thread_of_active_runtime();
    return th ? &th->ompt_thread : nullptr;
}

int get_state(ompt_wait_id_t* wait_id) {
    thread_state* th = thread_of_active_runtime();
    if (wait_id) *wait_id = th && th->ompt_state ? th->ompt_wait_id : 0;
    if (!th) return ompt_state_work_serial;
    if (th->ompt_state) return th->ompt_state;
    // Inside any region (a serialized one or a league's team too) as libomp: parallel.
    const implicit_task* it = th->current;
    return it && (it->tm || it->level > 0 || it->in_league) ? ompt_state_work_parallel : ompt_state_work_serial;
}

ompt_data_t* region_data(implicit_task* it) { return it->tm ? &it->tm->ompt_parallel : &it->ompt_parallel; }

int get_parallel_info(int level, ompt_data_t** pdata, int* team_size) {
    thread_state* th = thread_of_active_runtime();
    if (!th || level < 0) return 0;
    implicit_task* it = th->current;
    for (int i = 0; i < level && it; ++i) it = it->parent;
    if (!it) return 0;
    if (pdata) *pdata = region_data(it);
    if (team_size) *team_size = it->nthreads;
    return 2;
}

// The explicit task that created task `d` (null: its implicit task).
tasking::tdata* parent_of(tasking::tdata* d) {
    ext::task* rec = tasking::record_of(d);
    return tasking::parent_is_task(rec) ? reinterpret_cast<tasking::tdata*>(tasking::parent_node(rec)) : nullptr;
}

// The flags task_create reported (a task created before the tool started has none).
int explicit_flags(tasking::tdata* d) {
    ext::task* rec = tasking::record_of(d);
    if (const tasking::extra* x = tasking::extra_of(rec); x && x->ompt_flags) return x->ompt_flags;
    int f = ompt_task_explicit;
    if (!(rec->flags & tasking::f_tied)) f |= ompt_task_untied;
    if (rec->flags & tasking::f_final) f |= ompt_task_final;
    return f;
}

int get_task_info(int level, int* flags, ompt_data_t** tdata_out, ompt_frame_t** frame,
                  ompt_data_t** pdata, int* thread_num) {
    thread_state* th = thread_of_active_runtime();
    if (!th || level < 0) return 0;
    implicit_task* it = th->current;
    auto* rc = static_cast<tasking::root_ctx*>(it->tasking);
    tasking::tdata* d = rc ? rc->current : nullptr;
    // Innermost out: the explicit tasks running in an implicit task, then the implicit
    // task, then the explicit task that encountered its region, and so on.
    for (; level > 0; --level) {
        if (d) {
            d = parent_of(d);
            continue;
        }
        d = it->ompt_encountering;
        it = it->parent;
        if (!it) return 0;
    }
    if (d) {
        tasking::extra* x = tasking::extra_of(tasking::record_of(d));
        if (flags) *flags = explicit_flags(d);
        if (tdata_out) *tdata_out = x ? &x->ompt_task : nullptr;
        if (frame) *frame = x ? &x->ompt_frame : nullptr;
    } else {
        // As libomp: an implicit task is undeferred (its encountering thread runs it).
        if (flags) *flags = it->parent ? ompt_task_implicit | ompt_task_undeferred : ompt_task_initial;
        if (tdata_out) *tdata_out = &it->ompt_task;
        if (frame) *frame = &it->ompt_frame;
    }
    if (pdata) *pdata = region_data(it);
    if (thread_num) *thread_num = it->tid;
    return 2;
}

int get_task_memory(void** addr, std::size_t* size, int block) {
    (void)block;
    if (addr) *addr = nullptr;
    if (size) *size = 0;
    return 0;
}

int get_num_procs() { return omp_get_num_procs(); }
int get_num_places() { return omp_get_num_places(); }
int get_place_proc_ids(int place, int ids_size, int* ids) {
    const int n = omp_get_place_num_procs(place);
    if (ids && ids_size >= n) omp_get_place_proc_ids(place, ids);
    return n;
}
int get_place_num() { return thread_of_active_runtime() ? omp_get_place_num() : -1; }
int get_partition_place_nums(int size, int* nums) {
    if (!thread_of_active_runtime()) return 0;
    const int n = omp_get_partition_num_places();
    if (nums && size >= n) omp_get_partition_place_nums(nums);
    return n;
}
int get_proc_id() { return thread_of_active_runtime() ? sched_getcpu() : -1; }
int get_num_devices() { return 0; }
int get_target_info(std::uint64_t*, ompt_id_t*, ompt_id_t*) { return 0; }
std::uint64_t get_unique_id() { return unique_id(); }
void entry_finalize_tool() { finalize_tool(); }

struct entry {
    const char* name;
    ompt_interface_fn_t fn;
};

template <class F>
ompt_interface_fn_t as_fn(F f) {
    return reinterpret_cast<ompt_interface_fn_t>(f);
}

const entry g_entries[] = {
    {"ompt_enumerate_states", as_fn(&enumerate_states)},
    {"ompt_enumerate_mutex_impls", as_fn(&enumerate_mutex_impls)},
    {"ompt_set_callback", as_fn(&entry_set_callback)},
    {"ompt_get_callback", as_fn(&entry_get_callback)},
    {"ompt_get_state", as_fn(&get_state)},
    {"ompt_get_parallel_info", as_fn(&get_parallel_info)},
    {"ompt_get_task_info", as_fn(&get_task_info)},
    {"ompt_get_task_memory", as_fn(&get_task_memory)},
    {"ompt_get_thread_data", as_fn(&get_thread_data)},
    {"ompt_get_unique_id", as_fn(&get_unique_id)},
    {"ompt_finalize_tool", as_fn(&entry_finalize_tool)},
    {"ompt_get_num_procs", as_fn(&get_num_procs)},
    {"ompt_get_num_places", as_fn(&get_num_places)},
    {"ompt_get_place_proc_ids", as_fn(&get_place_proc_ids)},
    {"ompt_get_place_num", as_fn(&get_place_num)},
    {"ompt_get_partition_place_nums", as_fn(&get_partition_place_nums)},
    {"ompt_get_proc_id", as_fn(&get_proc_id)},
    {"ompt_get_target_info", as_fn(&get_target_info)},
    {"ompt_get_num_devices", as_fn(&get_num_devices)},
};

}  // namespace

ompt_interface_fn_t lookup(const char* name) {
    if (!name) return nullptr;
    for (const entry& e : g_entries)
        if (std::strcmp(e.name, name) == 0) return e.fn;
    return nullptr;
}

}  // namespace loom::omp::ompt
