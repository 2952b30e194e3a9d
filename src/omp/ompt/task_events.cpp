// OMPT events of explicit tasks (events.hpp): creation, scheduling, dependences. An
// explicit task's tool data lives in its extra block (tasking/task.hpp), made at
// creation only while a tool is active.
#include "ompt/events.hpp"

#include <algorithm>
#include <atomic>
#include <vector>

#include "loom/ext/spin.hpp"
#include "env/icv.hpp"
#include "ompt/scheduled_task.hpp"
#include "parallel/thread.hpp"
#include "tasking/task.hpp"

namespace loom::omp::ompt {

namespace {

tasking::tdata* running_explicit(thread_state* th) {
    auto* rc = static_cast<tasking::root_ctx*>(th->current->tasking);
    return rc ? rc->current : nullptr;
}

}  // namespace

tasking::tdata* encountering_task(implicit_task* it) {
    auto* rc = static_cast<tasking::root_ctx*>(it->tasking);
    return rc ? rc->current : nullptr;
}

ompt_data_t* task_data_of(tasking::tdata* d) {
    tasking::extra* x = tasking::ensure_extra(tasking::record_of(d));
    return &x->ompt_task;
}

ompt_frame_t* task_frame_of(tasking::tdata* d) { return &tasking::ensure_extra(tasking::record_of(d))->ompt_frame; }

ompt_data_t* current_task_data() {
    thread_state* th = this_thread();
    if (tasking::tdata* d = running_explicit(th)) return task_data_of(d);
    return &th->current->ompt_task;
}

ompt_frame_t* current_task_frame() {
    thread_state* th = this_thread();
    if (tasking::tdata* d = running_explicit(th)) return task_frame_of(d);
    return &th->current->ompt_frame;
}

// What LOOM_OMPT_FRAME_ADDRESS() gives (ompt.hpp).
#if defined(__clang__)
constexpr int frame_kind = ompt_frame_framepointer;
#else
constexpr int frame_kind = ompt_frame_cfa;
#endif

ompt_frame_t* enter_runtime(const void* ra, void* frame) noexcept {
    t_return_address = ra;
    ompt_frame_t* f = current_task_frame();
    // An entry point called by another one (a gcc entry built on a clang one, say)
    // leaves the outer one's frame in place.
    if (f->enter_frame.ptr) return nullptr;
    f->enter_frame.ptr = frame;
    f->enter_frame_flags = ompt_frame_runtime | frame_kind;
    return f;
}

void undeferred_frames(tasking::tdata* prev, implicit_task* it, tasking::tdata* d, void* frame) {
    ompt_frame_t* parent = prev ? task_frame_of(prev) : &it->ompt_frame;
    parent->enter_frame.ptr = frame;
    parent->enter_frame_flags = ompt_frame_runtime | frame_kind;
    task_frame_of(d)->exit_frame.ptr = frame;
    task_frame_of(d)->exit_frame_flags = ompt_frame_runtime | frame_kind;
}

void task_create(tasking::tdata* d, int flags, bool has_deps, const void* ra) {
    // The extra block is made zeroed with the task; its frame may already hold the
    // exit_frame of an undeferred task (undeferred_frames runs first).
    ompt_data_t* mine = task_data_of(d);
    *mine = ompt_data_t{};
    // ompt_get_task_info answers with the same flags (undeferred is known only here).
    tasking::extra_of(tasking::record_of(d))->ompt_flags = flags;
    if (auto f = callback<ompt_callback_task_create_t>(ompt_callback_task_create))
        f(current_task_data(), current_task_frame(), mine, flags, has_deps ? 1 : 0, ra);
}

void task_schedule(ompt_data_t* prior, ompt_task_status_t status, ompt_data_t* next) {
    if (auto f = callback<ompt_callback_task_schedule_t>(ompt_callback_task_schedule)) f(prior, status, next);
}

namespace {

// libomp's mapping of a depend item (kmp_taskdeps.cpp, in its order of tests).
ompt_dependence_type_t dependence_type(const kmp_depend_info& i) noexcept {
    if (i.base_addr == -1) return ompt_dependence_type_out_all_memory;
    if ((i.flags & 3) == 3) return ompt_dependence_type_inout;
    if (i.flags & 2) return ompt_dependence_type_out;
    if (i.flags & 1) return ompt_dependence_type_in;
    if (i.flags & 4) return ompt_dependence_type_mutexinoutset;
    if (i.flags & 8) return ompt_dependence_type_inoutset;
    return ompt_dependence_type_out_all_memory;  // 0x80, omp_all_memory
}

// The dependences event of `task` for the construct's two lists, as given.
void report_dependences(ompt_data_t* task, int n1, const kmp_depend_info* l1, int n2,
                        const kmp_depend_info* l2) {
    auto f = callback<ompt_callback_dependences_t>(ompt_callback_dependences);
    n1 = l1 ? std::max(n1, 0) : 0;
    n2 = l2 ? std::max(n2, 0) : 0;
    if (!f || n1 + n2 == 0) return;
    std::vector<ompt_dependence_t> deps;
    deps.reserve(static_cast<std::size_t>(n1 + n2));
    auto add = [&](int n, const kmp_depend_info* l) {
        for (int i = 0; i < n; ++i) {
            ompt_dependence_t d{};
            d.variable.ptr = reinterpret_cast<void*>(l[i].base_addr);
            d.dependence_type = dependence_type(l[i]);
            deps.push_back(d);
        }
    };
    add(n1, l1);
    add(n2, l2);
    f(task, deps.data(), static_cast<int>(deps.size()));
}

// The taskwait task of the calling thread (libomp: one per thread, reset after each).
__thread ompt_data_t t_taskwait_task;

// Striped locks for lock_depnode (held for a few instructions and a tool callback, only
// while a tool is active): the layers' shared spin lock, which yields when the holder
// is slow.
constexpr std::size_t n_depnode_locks = 64;
struct alignas(64) depnode_lock {
    ext::spin_lock lock;
};
depnode_lock g_depnode_locks[n_depnode_locks];

depnode_lock& stripe(const void* node) noexcept {
    return g_depnode_locks[(reinterpret_cast<std::uintptr_t>(node) >> 7) % n_depnode_locks];
}

int task_flags(ext::task* rec, bool undeferred) noexcept {
    int flags = ompt_task_explicit;
    if (!(rec->flags & tasking::f_tied)) flags |= ompt_task_untied;
    if (rec->flags & tasking::f_final) flags |= ompt_task_final;
    // Included tasks run at once: descendants of a final task, and tasks of a team of
    // one (libomp's serialized team), hidden helper tasks excepted (launch()).
    const bool in_team_of_one = !(rec->user & tasking::u_helper) && tasking::data_of(rec)->root->immediate;
    const bool included = (rec->user & tasking::u_included) || in_team_of_one;
    if (undeferred || included) flags |= ompt_task_undeferred;
    return flags;
}

}  // namespace

void task_launched_with_deps(ext::task* rec, int n1, const kmp_depend_info* l1, int n2,
                             const kmp_depend_info* l2) {
    tasking::tdata* d = tasking::data_of(rec);
    task_create(d, task_flags(rec, false), true, take_return_address());
    report_dependences(task_data_of(d), n1, l1, n2, l2);
}

void taskwait_deps_begin(int n1, const kmp_depend_info* l1, int n2, const kmp_depend_info* l2) {
    t_taskwait_task = ompt_data_t{};
    if (auto f = callback<ompt_callback_task_create_t>(ompt_callback_task_create))
        f(current_task_data(), current_task_frame(), &t_taskwait_task,
          ompt_task_taskwait | ompt_task_undeferred | ompt_task_mergeable, 1, take_return_address());
    report_dependences(&t_taskwait_task, n1, l1, n2, l2);
}

void taskwait_deps_end() {
    task_schedule(&t_taskwait_task, ompt_taskwait_complete, nullptr);
    t_taskwait_task = ompt_data_t{};
}

void task_dependence(ext::task* src, ext::task* sink) {
    if (auto f = callback<ompt_callback_task_dependence_t>(ompt_callback_task_dependence))
        f(task_data_of(tasking::data_of(src)), sink ? task_data_of(tasking::data_of(sink)) : &t_taskwait_task);
}

void doacross_dependences(ompt_dependence_type_t type, const std::uint64_t* iteration, int ndims) {
    auto f = callback<ompt_callback_dependences_t>(ompt_callback_dependences);
    if (!f || ndims <= 0) return;
    std::vector<ompt_dependence_t> deps(static_cast<std::size_t>(ndims));
    for (int i = 0; i < ndims; ++i) {
        deps[static_cast<std::size_t>(i)].variable.value = iteration[i];
        deps[static_cast<std::size_t>(i)].dependence_type = type;
    }
    f(current_task_data(), deps.data(), ndims);
}

void lock_depnode(const void* node) noexcept { stripe(node).lock.lock(); }

void unlock_depnode(const void* node) noexcept { stripe(node).lock.unlock(); }

void task_launched(ext::task* rec, bool undeferred) {
    task_create(tasking::data_of(rec), task_flags(rec, undeferred), (rec->user & tasking::u_deps) != 0,
                take_return_address());
}

namespace {
__thread bool t_yielding = false;  // set by a taskyield, for the switch it makes next
}  // namespace

void next_switch_is_yield() noexcept { t_yielding = true; }

// The prior task of a stand-in's task_schedule events: what this thread runs in the
// tool's view (scheduled_task.hpp), a context parked here (an explicit task in a
// taskwait or taskgroup, a member in its barrier) or one that ran here before. libomp's
// threads run a task only from inside their current task, and a tool may keep
// per-thread state for the task it is told was running and balance it at the switch
// back: Archer ends, on this thread, the ignore-writes scope that an implicit task's
// barrier began, and begins it again when the task completes. Where the thread's view is
// unknown (no task began here since the last implicit task here ended), the member
// context this worker holds parked, when it is still in its share or its join; else
// empty data, as no task: never the creator's context (running or waiting on another
// thread), nor a member whose implicit task ended (the tool freed its data).
void stand_in(implicit_task* si, implicit_task* member) {
    if (const ompt_data_t* scheduled = scheduled_task()) {
        si->ompt_task = *scheduled;
        return;
    }
    const bool parked_here =
        member && (std::atomic_ref(member->ompt_in_join).load(std::memory_order_acquire) ||
                   !std::atomic_ref(member->share_done).load(std::memory_order_acquire));
    if (!parked_here) si->ompt_task = ompt_data_t{};
}

void taskloop_task(ext::task* rec, const void* ra, std::uint64_t start, std::uint64_t iterations) {
    t_return_address = ra;
    tasking::ensure_extra(rec)->ompt_chunk = ompt_dispatch_chunk_t{start, iterations};
}

namespace {

// What task_switch_in hands back for a task run by a stand-in: its task returns to the
// thread's view as it is when the task ends (scheduled_task.hpp), not to the copy the
// stand-in took when it began. Only its address is used.
ompt_data_t g_returns_to_view{};

}  // namespace

ompt_data_t* return_target(tasking::tdata* prev, implicit_task* it) {
    if (prev) return task_data_of(prev);
    const auto* rc = static_cast<const tasking::root_ctx*>(it->tasking);
    return rc && rc->standin ? &g_returns_to_view : &it->ompt_task;
}

ompt_data_t* task_switch_in(tasking::tdata* prev, implicit_task* it, tasking::tdata* d) {
    ompt_data_t* prior = prev ? task_data_of(prev) : &it->ompt_task;
    const ompt_task_status_t status = t_yielding ? ompt_task_yield : ompt_task_switch;
    t_yielding = false;
    ompt_data_t* mine = task_data_of(d);
    task_begins(prior, mine);
    task_schedule(prior, status, mine);
    // A taskloop task's chunk, once, as it starts (an untied task may switch in again).
    tasking::extra* x = tasking::extra_of(tasking::record_of(d));
    if (x && x->ompt_chunk.iterations) {
        dispatch_chunk(it, &x->ompt_task, ompt_dispatch_taskloop_chunk, x->ompt_chunk);
        x->ompt_chunk = ompt_dispatch_chunk_t{};
    }
    return return_target(prev, it);
}

ompt_data_t* task_discarded(tasking::tdata* prev, implicit_task* it, tasking::tdata* d) {
    // Never switched in: the thread's view stays at the prior task, which the
    // task_switch_out that follows names.
    set_scheduled_task(prev ? task_data_of(prev) : &it->ompt_task);
    if (auto f = callback<ompt_callback_cancel_t>(ompt_callback_cancel))
        f(task_data_of(d), ompt_cancel_taskgroup | ompt_cancel_discarded_task, nullptr);
    return return_target(prev, it);
}

void task_switch_out(tasking::tdata* d, ompt_data_t* back_to, bool detached) {
    ext::task* rec = tasking::record_of(d);
    // Not only tasks marked u_cancel_check: an undeferred task is never launched.
    const bool cancelled = globals().cancellation && tasking::in_cancelled_group(rec);
    const ompt_task_status_t status = detached ? ompt_task_detach : cancelled ? ompt_task_cancel : ompt_task_complete;
    ompt_data_t* mine = task_data_of(d);
    ompt_data_t* next = task_ends(mine, back_to == &g_returns_to_view ? nullptr : back_to);
    task_schedule(mine, status, next);
}

}  // namespace loom::omp::ompt
