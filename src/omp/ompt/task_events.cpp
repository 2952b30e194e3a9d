// OMPT events of explicit tasks (events.hpp): creation, scheduling, dependences. An
// explicit task's tool data lives in its extra block (tasking/task.hpp), made at
// creation only while a tool is active.
#include "ompt/events.hpp"
#include "parallel/thread.hpp"
#include "tasking/task.hpp"

namespace loom::omp::ompt {

namespace {

tasking::tdata* running_explicit(thread_state* th) {
    auto* rc = static_cast<tasking::root_ctx*>(th->current->tasking);
    return rc ? rc->current : nullptr;
}

}  // namespace

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
    ompt_data_t* mine = task_data_of(d);
    *mine = ompt_data_t{};
    *task_frame_of(d) = ompt_frame_t{};
    if (auto f = callback<ompt_callback_task_create_t>(ompt_callback_task_create))
        f(current_task_data(), current_task_frame(), mine, flags, has_deps ? 1 : 0, ra);
}

void task_schedule(ompt_data_t* prior, ompt_task_status_t status, ompt_data_t* next) {
    if (auto f = callback<ompt_callback_task_schedule_t>(ompt_callback_task_schedule)) f(prior, status, next);
}

void dependences(tasking::tdata* d, const ompt_dependence_t* deps, int ndeps) {
    if (auto f = callback<ompt_callback_dependences_t>(ompt_callback_dependences)) f(task_data_of(d), deps, ndeps);
}

void task_dependence(tasking::tdata* src, tasking::tdata* sink) {
    if (auto f = callback<ompt_callback_task_dependence_t>(ompt_callback_task_dependence))
        f(task_data_of(src), task_data_of(sink));
}

void task_launched(ext::task* rec, bool undeferred) {
    int flags = ompt_task_explicit;
    if (!(rec->flags & tasking::f_tied)) flags |= ompt_task_untied;
    if (rec->flags & tasking::f_final) flags |= ompt_task_final;
    if (undeferred || (rec->user & tasking::u_included)) flags |= ompt_task_undeferred;
    task_create(tasking::data_of(rec), flags, (rec->user & tasking::u_deps) != 0, take_return_address());
}

ompt_data_t* task_switch_in(tasking::tdata* prev, implicit_task* it, tasking::tdata* d) {
    ompt_data_t* prior = prev ? task_data_of(prev) : &it->ompt_task;
    task_schedule(prior, ompt_task_switch, task_data_of(d));
    return prior;
}

void task_switch_out(tasking::tdata* d, ompt_data_t* prior) {
    task_schedule(task_data_of(d), ompt_task_complete, prior);
}

}  // namespace loom::omp::ompt
