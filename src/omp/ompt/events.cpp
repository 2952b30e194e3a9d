// OMPT events of threads, parallel regions, implicit tasks, synchronisation and
// worksharing (events.hpp). Only reached while a tool is active (ompt::on()).
#include "ompt/events.hpp"

#include <atomic>
#include <string>

#include "abi.hpp"
#include "loom/ext/scheduler.hpp"
#include "ompt/scheduled_task.hpp"
#include "parallel/team.hpp"
#include "parallel/thread.hpp"
#include "tasking/hidden_helper.hpp"

namespace loom::omp::ompt {

namespace {

std::atomic<std::uint64_t> g_next_id{1};

ompt_data_t* region_of(implicit_task* it) { return it->tm ? &it->tm->ompt_parallel : &it->ompt_parallel; }

// What ompt_get_state reports while the calling thread waits in a region of `kind`.
int wait_state(ompt_sync_region_t kind) {
    switch (kind) {
    case ompt_sync_region_barrier_implicit_parallel: return ompt_state_wait_barrier_implicit_parallel;
    case ompt_sync_region_barrier_implicit_workshare: return ompt_state_wait_barrier_implicit_workshare;
    case ompt_sync_region_barrier_explicit: return ompt_state_wait_barrier_explicit;
    case ompt_sync_region_barrier_implementation: return ompt_state_wait_barrier_implementation;
    case ompt_sync_region_barrier_teams: return ompt_state_wait_barrier_teams;
    case ompt_sync_region_taskwait: return ompt_state_wait_taskwait;
    case ompt_sync_region_taskgroup: return ompt_state_wait_taskgroup;
    default: return ompt_state_wait_barrier_implicit;
    }
}

int mutex_wait_state(ompt_mutex_t kind) {
    switch (kind) {
    case ompt_mutex_critical: return ompt_state_wait_critical;
    case ompt_mutex_atomic: return ompt_state_wait_atomic;
    case ompt_mutex_ordered: return ompt_state_wait_ordered;
    default: return ompt_state_wait_lock;
    }
}

constexpr unsigned mutex_impl = kmp_mutex_impl_queuing;  // futex word: waiters sleep

}  // namespace

std::uint64_t unique_id() noexcept { return g_next_id.fetch_add(1, std::memory_order_relaxed); }

void thread_begin(thread_state* th, ompt_thread_t type) {
    if (auto f = callback<ompt_callback_thread_begin_t>(ompt_callback_thread_begin)) f(type, &th->ompt_thread);
}

void thread_end(thread_state* th) {
    if (auto f = callback<ompt_callback_thread_end_t>(ompt_callback_thread_end)) f(&th->ompt_thread);
}

void thread_registered(thread_state* th) {
    // As libomp, every thread that enters OpenMP on its own (a root: the first one, or
    // a foreign std::thread) is an initial thread with an initial task; pool workers
    // are workers, hidden helpers other.
    const bool worker = th->gtid != 0 && ext::current_worker() >= 0;
    if (th->gtid == 0 || (!worker && !hidden_helper::is_held_gtid(th->gtid))) {
        th->ompt_initial = true;
        thread_begin(th, ompt_thread_initial);
        initial_task(th, ompt_scope_begin);
        return;
    }
    thread_begin(th, worker ? ompt_thread_worker : ompt_thread_other);
}

void thread_exiting(thread_state* th) {
    if (th->ompt_initial) initial_task(th, ompt_scope_end);
    th->ompt_initial = false;
    thread_end(th);
}

void initial_task(thread_state* th, ompt_scope_endpoint_t endpoint) {
    auto f = callback<ompt_callback_implicit_task_t>(ompt_callback_implicit_task);
    if (!f) return;
    implicit_task& it = th->initial;
    if (endpoint == ompt_scope_begin) {
        f(endpoint, &it.ompt_parallel, &it.ompt_task, 1, 1, ompt_task_initial);
        set_scheduled_task(&it.ompt_task);
        return;
    }
    const ompt_data_t ended = it.ompt_task;  // as the view holds it, whatever the tool does now
    f(endpoint, nullptr, &it.ompt_task, 0, 1, ompt_task_initial);
    implicit_task_ended(&ended);
}

void league_initial_task(implicit_task* it, ompt_data_t* league, ompt_scope_endpoint_t endpoint, int nteams,
                         int index) {
    auto f = callback<ompt_callback_implicit_task_t>(ompt_callback_implicit_task);
    if (endpoint == ompt_scope_begin) it->ompt_task = ompt_data_t{};
    if (!f) return;
    if (endpoint == ompt_scope_begin) {
        f(endpoint, league, &it->ompt_task, static_cast<unsigned>(nteams), static_cast<unsigned>(index),
          ompt_task_initial);
        set_scheduled_task(&it->ompt_task);
        return;
    }
    const ompt_data_t ended = it->ompt_task;
    f(endpoint, nullptr, &it->ompt_task, 0, static_cast<unsigned>(index), ompt_task_initial);
    implicit_task_ended(&ended);
}

const void* parallel_begin(implicit_task* parent, ompt_data_t* pdata, int requested, int flags) {
    const void* ra = take_return_address();
    *pdata = ompt_data_t{};
    if (auto f = callback<ompt_callback_parallel_begin_t>(ompt_callback_parallel_begin)) {
        (void)parent;
        f(current_task_data(), current_task_frame(), pdata, static_cast<unsigned>(requested), flags, ra);
    }
    return ra;
}

void parallel_end(implicit_task* parent, ompt_data_t* pdata, int flags, const void* ra) {
    (void)parent;
    if (auto f = callback<ompt_callback_parallel_end_t>(ompt_callback_parallel_end))
        f(pdata, current_task_data(), flags, ra);
    // The encountering task goes on here (its implicit task of the region ended).
    set_scheduled_task(current_task_data());
}

void implicit_task_begin(implicit_task* it, ompt_data_t* pdata, int n) {
    it->ompt_task = ompt_data_t{};
    it->ompt_frame = ompt_frame_t{};
    if (auto f = callback<ompt_callback_implicit_task_t>(ompt_callback_implicit_task))
        f(ompt_scope_begin, pdata, &it->ompt_task, static_cast<unsigned>(n), static_cast<unsigned>(it->tid),
          ompt_task_implicit);
    set_scheduled_task(&it->ompt_task);
}

void implicit_task_end(implicit_task* it, int n) {
    const ompt_data_t ended = it->ompt_task;
    // As libomp: no region data at the end (the region may be over for the others).
    if (auto f = callback<ompt_callback_implicit_task_t>(ompt_callback_implicit_task))
        f(ompt_scope_end, nullptr, &it->ompt_task, static_cast<unsigned>(n), static_cast<unsigned>(it->tid),
          ompt_task_implicit);
    // Not back to what ran here before it began: with fibers that may have ended since.
    implicit_task_ended(&ended);
}

void sync_region(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint, const void* ra) {
    if (endpoint == ompt_scope_begin) {
        sync_region_bound(kind, endpoint, ra);
        sync_region_wait(kind, endpoint, ra);
    } else {
        sync_region_wait(kind, endpoint, ra);
        sync_region_bound(kind, endpoint, ra);
    }
}

void sync_region_bound(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint, const void* ra) {
    ompt_data_t* pdata = region_of(this_thread()->current);
    // The region ended in its implicit barrier: libomp reports no region at its end.
    if (endpoint == ompt_scope_end && kind == ompt_sync_region_barrier_implicit_parallel) pdata = nullptr;
    if (auto f = callback<ompt_callback_sync_region_t>(ompt_callback_sync_region))
        f(kind, endpoint, pdata, current_task_data(), ra);
}

void sync_region_wait(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint, const void* ra) {
    thread_state* th = this_thread();
    ompt_data_t* pdata = region_of(th->current);
    if (endpoint == ompt_scope_end && kind == ompt_sync_region_barrier_implicit_parallel) pdata = nullptr;
    th->ompt_state = endpoint == ompt_scope_begin ? wait_state(kind) : 0;
    th->ompt_wait_id = 0;
    if (auto f = callback<ompt_callback_sync_region_t>(ompt_callback_sync_region_wait))
        f(kind, endpoint, pdata, current_task_data(), ra);
}

std::uint64_t ordered_wait_id(implicit_task* it) {
    return it->tm ? reinterpret_cast<std::uintptr_t>(it->tm) : reinterpret_cast<std::uintptr_t>(it);
}

void mutex_acquire(ompt_mutex_t kind, unsigned hint, std::uint64_t wait_id, const void* ra) {
    thread_state* th = this_thread();
    th->ompt_state = mutex_wait_state(kind);
    th->ompt_wait_id = wait_id;
    if (auto f = callback<ompt_callback_mutex_acquire_t>(ompt_callback_mutex_acquire))
        f(kind, hint, mutex_impl, wait_id, ra);
}

void mutex_acquired(ompt_mutex_t kind, std::uint64_t wait_id, const void* ra) {
    this_thread()->ompt_state = 0;
    if (auto f = callback<ompt_callback_mutex_t>(ompt_callback_mutex_acquired)) f(kind, wait_id, ra);
}

void mutex_released_wait() { this_thread()->ompt_state = 0; }

void mutex_released(ompt_mutex_t kind, std::uint64_t wait_id, const void* ra) {
    if (auto f = callback<ompt_callback_mutex_t>(ompt_callback_mutex_released)) f(kind, wait_id, ra);
}

void nest_lock(ompt_scope_endpoint_t endpoint, std::uint64_t wait_id, const void* ra) {
    if (auto f = callback<ompt_callback_nest_lock_t>(ompt_callback_nest_lock)) f(endpoint, wait_id, ra);
}

void lock_init(ompt_mutex_t kind, unsigned hint, std::uint64_t wait_id, const void* ra) {
    if (auto f = callback<ompt_callback_mutex_acquire_t>(ompt_callback_lock_init))
        f(kind, hint, mutex_impl, wait_id, ra);
}

void lock_destroy(ompt_mutex_t kind, std::uint64_t wait_id, const void* ra) {
    if (auto f = callback<ompt_callback_mutex_t>(ompt_callback_lock_destroy)) f(kind, wait_id, ra);
}

void flush(const void* ra) {
    if (auto f = callback<ompt_callback_flush_t>(ompt_callback_flush)) f(&this_thread()->ompt_thread, ra);
}

void work(ompt_work_t type, ompt_scope_endpoint_t endpoint, std::uint64_t count, const void* ra) {
    if (auto f = callback<ompt_callback_work_t>(ompt_callback_work))
        f(type, endpoint, region_of(this_thread()->current), current_task_data(), count, ra);
}

namespace {

// OMPT work type of a dispatched loop, as libomp names them: its schedule kind with
// schedule(runtime) resolved through run-sched-var, auto counted as guided (the way
// both runtimes serve it).
ompt_work_t loop_work_type(int schedule) {
    int s = base_schedule(schedule);
    if (s == sch_runtime || s == sch_runtime_simd) {
        switch (current_task()->icv.sched.kind) {
        case omp_sched_dynamic: s = sch_dynamic_chunked; break;
        case omp_sched_guided: s = sch_guided_chunked; break;
        case omp_sched_auto: s = sch_auto; break;
        case omp_sched_static: s = sch_static; break;
        default: s = sch_trapezoidal; break;
        }
    }
    ompt_work_t w = ompt_work_loop_other;
    switch (s) {
    case sch_static_chunked: case sch_static: case sch_static_greedy: case sch_static_balanced:
    case sch_static_balanced_chunked:
        w = ompt_work_loop_static; break;
    case sch_dynamic_chunked: case sch_static_steal:
        w = ompt_work_loop_dynamic; break;
    case sch_guided_chunked: case sch_auto: case sch_guided_iterative_chunked:
    case sch_guided_analytical_chunked: case sch_guided_simd: case sch_trapezoidal:
        w = ompt_work_loop_guided; break;
    default: break;
    }
    // A team of one runs guided and auto loops as one static block (libomp too).
    if (w == ompt_work_loop_guided && current_task()->nthreads == 1) w = ompt_work_loop_static;
    return w;
}

}  // namespace

void loop_work_begin(int schedule, std::uint64_t count, const void* ra) {
    const ompt_work_t w = loop_work_type(schedule);
    this_thread()->ompt_loop_work = w;
    work(w, ompt_scope_begin, count, ra);
}

void loop_work_end(const void* ra) {
    thread_state* th = this_thread();
    const auto w = static_cast<ompt_work_t>(th->ompt_loop_work);
    if (!w) return;
    th->ompt_loop_work = 0;
    work(w, ompt_scope_end, 0, ra);
}

void dispatch(ompt_dispatch_t kind, std::uint64_t start, std::uint64_t iterations) {
    dispatch_chunk(this_thread()->current, current_task_data(), kind, ompt_dispatch_chunk_t{start, iterations});
}

void dispatch_chunk(implicit_task* it, ompt_data_t* task, ompt_dispatch_t kind, ompt_dispatch_chunk_t chunk) {
    auto f = callback<ompt_callback_dispatch_t>(ompt_callback_dispatch);
    if (!f) return;
    // A chunk is reported by its first iteration and its length (the spec's
    // ompt_dispatch_chunk_t, passed by address in instance.ptr).
    ompt_data_t instance;
    instance.ptr = &chunk;
    f(region_of(it), task, kind, instance);
}

void dispatch_section(const void* ra) {
    auto f = callback<ompt_callback_dispatch_t>(ompt_callback_dispatch);
    if (!f) return;
    ompt_data_t instance;
    instance.ptr = const_cast<void*>(ra);
    f(region_of(this_thread()->current), current_task_data(), ompt_dispatch_section, instance);
}

void masked(ompt_scope_endpoint_t endpoint, const void* ra) {
    if (auto f = callback<ompt_callback_masked_t>(ompt_callback_masked))
        f(endpoint, region_of(this_thread()->current), current_task_data(), ra);
}

int control_tool(int command, int modifier, void* arg, const void* ra) {
    auto f = callback<ompt_callback_control_tool_t>(ompt_callback_control_tool);
    if (!f) return -1;
    return f(static_cast<std::uint64_t>(command), static_cast<std::uint64_t>(modifier), arg, ra);
}

void error(int severity, const char* message, const void* ra) {
    auto f = callback<ompt_callback_error_t>(ompt_callback_error);
    if (!f) return;
    const char* m = message ? message : "";
    f(severity == 2 ? ompt_fatal : ompt_warning, m, std::char_traits<char>::length(m), ra);
}

void reduction(ompt_scope_endpoint_t endpoint, const void* ra) {
    if (auto f = callback<ompt_callback_sync_region_t>(ompt_callback_reduction))
        f(ompt_sync_region_reduction, endpoint, region_of(this_thread()->current), current_task_data(), ra);
}

void cancel(int flags, const void* ra) {
    if (auto f = callback<ompt_callback_cancel_t>(ompt_callback_cancel)) f(current_task_data(), flags, ra);
}

void cancel_construct(int kind, int how, const void* ra) {
    const int construct = kind == cancel_parallel ? ompt_cancel_parallel
                          : kind == cancel_loop   ? ompt_cancel_loop
                          : kind == cancel_sections ? ompt_cancel_sections
                                                    : ompt_cancel_taskgroup;
    cancel(construct | how, ra);
}

}  // namespace loom::omp::ompt
