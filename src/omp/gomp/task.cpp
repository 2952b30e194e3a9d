// GOMP_task, GOMP_taskwait, GOMP_taskwait_depend, GOMP_taskyield: gcc's explicit tasks
// as kmpc task records (tasking/), created, launched, made to wait for their
// dependences and completed by the same code as clang's __kmpc_omp_task* calls.
//
// A gcc task is a body `fn(arg)` plus an argument block that the runtime copies
// (cpyfn or memcpy, aligned to arg_align: task.c GOMP_task). The record holds
//   [ kmp_task_t ][ copy of the block, aligned ]
// with fn in the kmp_task_t's `shareds` and arg in its `data1` (a gcc task has no
// shareds block and no destructors thunk: kmpc_flags never sets kf_destructors), and
// the kmpc routine of every gcc task is run_body, which calls fn(arg). So a task whose
// block fits in 16 bytes (fib's: an int and a pointer) takes a 128-byte record of the
// per-thread caches, as clang's does: with a separate {fn, arg} pair it needed 256.
//
// Untied gcc tasks run tied: gcc does not split a task body into parts at scheduling
// points (libgomp_g.h gives it one `fn`), so a task is one part from start to end and
// running it on the thread that started it is a valid schedule for an untied task.
#include <cstdint>
#include <cstring>
#include <thread>

#include "gomp/task.hpp"
#include "gomp/task_abi.hpp"
#include "tasking/dep.hpp"
#include "tasking/inline_task.hpp"
#include "tasking/task.hpp"
#include "worksharing/cancel.hpp"

using loom::omp::ident_t;
using loom::omp::kmp_depend_info;
using loom::omp::kmp_int32;
using loom::omp::kmp_routine_entry_t;
using loom::omp::kmp_task_t;

// What this layer translates to: the explicit-task functions clang's __kmpc_omp_task*
// entry points call (tasking/task.hpp, tasking/dep.hpp).
namespace tasking = loom::omp::tasking;

namespace loom::omp::gomp {

namespace {

// fn and arg in the kmp_task_t (top of this file). memcpy: the fields' own types are a
// pointer to data and a union, neither of which fn or arg is.
inline void set_arg(kmp_task_t* kt, void* arg) noexcept { std::memcpy(&kt->data1, &arg, sizeof arg); }
inline void set_body(kmp_task_t* kt, body_fn fn, void* arg) noexcept {
    std::memcpy(&kt->shareds, &fn, sizeof fn);
    set_arg(kt, arg);
}
inline body_fn fn_of(const kmp_task_t* kt) noexcept {
    body_fn fn;
    std::memcpy(&fn, &kt->shareds, sizeof fn);
    return fn;
}
inline void* arg_of(const kmp_task_t* kt) noexcept {
    void* arg;
    std::memcpy(&arg, &kt->data1, sizeof arg);
    return arg;
}
static_assert(sizeof(body_fn) == sizeof(void*) && sizeof(kmp_cmplrdata_t) == sizeof(void*));

kmp_int32 run_body(kmp_int32, void* p) {
    const auto* kt = static_cast<const kmp_task_t*>(p);
    fn_of(kt)(arg_of(kt));
    return 0;
}

// The block starts right after the kmp_task_t: records are 64-byte aligned
// (ext::task) and the kmp_task_t ends 16-byte aligned within one, so a block aligned
// to 16 or less needs no slack.
constexpr std::size_t block_start_alignment = 16;
static_assert((tasking::ktask_offset + sizeof(kmp_task_t)) % block_start_alignment == 0);
static_assert(alignof(loom::ext::task) % block_start_alignment == 0);

kmp_int32 kmpc_flags(const task_spec& s) {
    kmp_int32 f = kf_tied;  // untied too: see the top of this file
    if (s.flags & task_final) f |= kf_final;
    if (s.priority > 0) f |= kf_priority;
    if (s.flags & task_detach) f |= kf_detachable;
    return f;
}

// detach(event): libgomp hands the event out through `detach` and, when there is an
// argument block, in its first word, before the block is copied (task.c GOMP_task).
void publish_event(kmp_task_t* kt, const task_spec& s, void* detach) {
    void* ev = tasking::allow_completion_event(kt);
    if (detach) *static_cast<void**>(detach) = ev;
    if (s.data) *static_cast<void**>(s.data) = ev;
}

// The argument block of most tasks is a few firstprivates and pointers: 8 to 16 bytes
// are two 8-byte copies that may overlap (both read before either is written), cheaper
// than memcpy's call and size dispatch (~16 instructions per task, callgrind).
inline void copy_block(char* to, const void* from, std::size_t n) noexcept {
    if (n >= 8 && n <= 16) {
        std::uint64_t head, tail;
        std::memcpy(&head, from, 8);
        std::memcpy(&tail, static_cast<const char*>(from) + n - 8, 8);
        std::memcpy(to, &head, 8);
        std::memcpy(to + n - 8, &tail, 8);
        return;
    }
    std::memcpy(to, from, n);
}

inline char* align_up(char* p, std::size_t a) noexcept {
    const auto v = reinterpret_cast<std::uintptr_t>(p);
    return reinterpret_cast<char*>((v + a - 1) & ~(std::uintptr_t{a} - 1));
}

// The fulfilling thread may be this one, running a sibling: run queued tasks of the
// parent meanwhile.
void wait_fulfilled(kmp_task_t* kt) {
    using namespace tasking;
    ext::task* rec = record_of(kt);
    extra* x = extra_of(rec);
    node* parent = parent_node(rec);
    while (x->detach.load(std::memory_order_acquire) != 1) {
        if (!help_one(parent)) std::this_thread::yield();
    }
}

// new_task, inlined into GOMP_task, which knows whether a tool is active (`Tool`).
// Called from both of its paths, new_task itself would not be inlined there, and the
// call costs the no-tool path ~38 instructions per task (callgrind, fib with a task
// per call).
template <tasking::tool_state Tool>
[[gnu::always_inline]] inline kmp_task_t* make_task(const tasking::here& h, const task_spec& s, bool copy,
                                                    void* detach, bool with_node) {
    const std::size_t align = s.arg_align > 0 ? static_cast<std::size_t>(s.arg_align) : 1;
    const bool block = copy && s.arg_size > 0;
    const std::size_t slack = align > block_start_alignment ? align - 1 : 0;
    const std::size_t room = block ? static_cast<std::size_t>(s.arg_size) + slack : 0;
    kmp_task_t* kt = tasking::allocate<Tool>(h, kmpc_flags(s), sizeof(kmp_task_t) + room, 0,
                                             &run_body, with_node);
    kt->data2.priority = s.priority;
    set_body(kt, s.fn, s.data);
    if (s.flags & task_detach) publish_event(kt, s, detach);
    if (block) {
        char* a = align_up(reinterpret_cast<char*>(kt + 1), align);
        if (s.cpyfn) {
            s.cpyfn(a, s.data);
            // The copies' destructors are in fn: a cancelled group must still run it.
            tasking::record_of(kt)->user |= tasking::u_body_destroys;
        } else {
            copy_block(a, s.data, static_cast<std::size_t>(s.arg_size));
        }
        set_arg(kt, a);
    }
    return kt;
}

}  // namespace

kmp_task_t* new_task(const task_spec& s, bool copy, void* detach, bool with_node) {
    return make_task<tasking::tool_state::unknown>(tasking::current_here(), s, copy, detach, with_node);
}

void* task_arg(kmp_task_t* kt) noexcept { return arg_of(kt); }

void run_undeferred(kmp_task_t* kt) {
    const bool detached = (tasking::record_of(kt)->user & tasking::u_detach) != 0;
    tasking::undeferred_task_begin(kt);
    run_body(0, kt);
    // libgomp waits for the event of an undeferred detached task before the encountering
    // task goes on (task.c GOMP_task: gomp_sem_wait (&completion_sem)).
    if (detached) wait_fulfilled(kt);
    tasking::undeferred_task_end(kt);
}

namespace {

// The largest argument block run_now copies onto this stack (libgomp copies any size
// onto its thread's stack; a fiber's stack is smaller). A larger one takes the general
// path, whose record holds the copy.
constexpr long stack_copy_limit = 1024;

}  // namespace

bool run_now(tasking::here h, task_spec s) {
    void* arg = s.data;
    if (s.cpyfn) {
        const long align = s.arg_align > 0 ? s.arg_align : 1;
        if (s.arg_size > stack_copy_limit || align > stack_copy_limit) return false;
        char* block = static_cast<char*>(__builtin_alloca(static_cast<std::size_t>(s.arg_size + align - 1)));
        arg = align_up(block, static_cast<std::size_t>(align));
    }
    ext::task* rec = tasking::begin_inline(h, (s.flags & task_final) != 0);
    // The copy is made under the task's identity (task.c: thr->task is set first): its
    // copy constructors belong to the task's data environment.
    if (s.cpyfn) s.cpyfn(arg, s.data);
    s.fn(arg);
    tasking::end_inline(h, rec);
    return true;
}

}  // namespace loom::omp::gomp

using namespace loom::omp;
namespace gomp = loom::omp::gomp;

namespace {

// Waits for the tasks gcc's depend array names (task.c: an undeferred task's
// predecessors, taskwait depend). Out of line: the list's inline entries would make
// every caller's frame larger.
[[gnu::noinline]] void wait_for_depend(void** depend) {
    gomp::depend_list l(depend);
    tasking::wait_deps(l.size(), l.data(), 0, nullptr);
}

// if(0): wait for the predecessors, then run at once (task.c GOMP_task). Without a
// cpyfn libgomp runs fn on the caller's block itself; so does loom.
// Without a tool (Observed false) and without detach, it runs as an inline task
// (tasking/inline_task.hpp); else through a record that carries the OMPT events and
// the detach event.
template <bool Observed>
void undeferred(const gomp::task_spec& s, void** depend, void* detach) {
    if ((s.flags & gomp::task_depend) && depend) wait_for_depend(depend);
    if (!Observed && !(s.flags & gomp::task_detach) && gomp::run_now(tasking::current_here(), s)) return;
    gomp::run_undeferred(gomp::new_task(s, s.cpyfn != nullptr, detach));
}

}  // namespace

// libgomp_g.h: void GOMP_task (void (*) (void *), void *, void (*) (void *, void *), long,
// long, bool, unsigned, void **, int, void *).
#include "ompt/events.hpp"

namespace {

// Inlined into both paths of GOMP_task: a call with its ten arguments would cost the
// no-tool path ~30 instructions per task (callgrind).
template <bool Observed>
[[gnu::always_inline]] inline void spawn(gomp::body_fn fn, void* data, gomp::copy_fn cpyfn, long arg_size, long arg_align,
           bool if_clause, unsigned flags, void** depend, int priority, void* detach) {
    // A cancelled parallel region or taskgroup starts no new task, deferred or not
    // (task.c GOMP_task): nothing is copied, so no cpyfn copy needs its destructor.
    // Two loads of process-wide counts while nothing is cancelled (the check itself
    // walks the running task's ancestors).
    if (tasking::create_detail::fixed().cancellation &&
        (loom::omp::any_cancelled_region() || tasking::any_cancelled_group()) &&
        loom::omp::new_task_cancelled()) [[unlikely]]
        return;
    const gomp::task_spec s{fn, data, cpyfn, arg_size, arg_align, flags,
                            (flags & gomp::task_priority) ? priority : 0};
    if (!if_clause) {
        undeferred<Observed>(s, depend, detach);
        return;
    }
    const bool with_deps = (flags & gomp::task_depend) && depend;
    const tasking::here h = tasking::current_here();
    // A descendant of a final task or a task of a team of one is included: without a
    // tool, depend, detach or a trace to draw it in, it runs as an inline task, as
    // libgomp runs it (task.c: the undeferred path serves final tasks and teams of
    // one). Otherwise the launch includes it (tasking/task_create.hpp), as for clang.
    if (!Observed && (h.rc->immediate || tasking::running_task_is_final(h))) [[unlikely]] {
        if (!with_deps && !(flags & gomp::task_detach) && !loom::ext::tracing() && gomp::run_now(h, s))
            return;
    }
    constexpr auto tool = Observed ? tasking::tool_state::present : tasking::tool_state::absent;
    kmp_task_t* kt = gomp::make_task<tool>(h, s, true, detach, with_deps);
    if (with_deps) {
        gomp::depend_list l(depend);
        tasking::task_spawn_with_deps(kt, l.size(), l.data(), 0, nullptr);
        return;
    }
    tasking::task_spawn<Observed>(kt);
}

}  // namespace

// Per-task entry points: with a tool, their frame bookkeeping out of line
// (ompt::observed_entry), so that without one they cost one branch more than the work.
LOOM_OMP_API void GOMP_task(gomp::body_fn fn, void* data, gomp::copy_fn cpyfn, long arg_size,
                            long arg_align, bool if_clause, unsigned flags, void** depend,
                            int priority, void* detach) {
    if (ompt::on()) [[unlikely]] {
        ompt::observed_entry(LOOM_OMPT_RA, LOOM_OMPT_FRAME_ADDRESS(), [=](const void*) {
            spawn<true>(fn, data, cpyfn, arg_size, arg_align, if_clause, flags, depend, priority, detach);
        });
        return;
    }
    spawn<false>(fn, data, cpyfn, arg_size, arg_align, if_clause, flags, depend, priority, detach);
}

LOOM_OMP_API void GOMP_taskwait() {
    if (ompt::on()) [[unlikely]] {
        tasking::task_wait_observed(LOOM_OMPT_RA, LOOM_OMPT_FRAME_ADDRESS());
        return;
    }
    tasking::task_wait();
}

// task.c: waits "as if it was a mergeable included task construct with empty body":
// for the listed dependences only.
LOOM_OMP_API void GOMP_taskwait_depend(void** depend) {
    LOOM_OMPT_ENTER();
    wait_for_depend(depend);
}

LOOM_OMP_API void GOMP_taskyield() { tasking::task_yield(); }
