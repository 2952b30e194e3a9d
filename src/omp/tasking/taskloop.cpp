// taskloop: the compiler allocates one pattern task whose privates hold the loop bounds;
// the runtime cuts the iteration space into chunks (grainsize / num_tasks, strict),
// copies the pattern once per chunk (task_dup constructs firstprivates and sets the
// lastprivate flag of the last chunk), and launches the copies, inside a taskgroup
// unless nogroup. Chunking follows libomp's arithmetic so programs see the same chunks.
#include "tasking/taskloop.hpp"

#include <cstring>

#include "ompt/events.hpp"
#include "tasking/task.hpp"

namespace loom::omp::tasking {
namespace {

using task_dup_t = void (*)(kmp_task_t*, kmp_task_t*, kmp_int32);

kmp_task_t* copy_of(const here& h, kmp_task_t* pattern) {
    ext::task* prec = record_of(pattern);
    const auto need = reinterpret_cast<std::size_t>(prec->next);
    kmp_int32 flags = 0;
    if (prec->flags & f_tied) flags |= kf_tied;
    if (prec->flags & f_final) flags |= kf_final;
    if (prec->flags & f_destructors) flags |= kf_destructors;
    if (prec->user & u_prio) flags |= kf_priority;
    kmp_task_t* kt = allocate(h, flags, need, 0, pattern->routine);
    std::memcpy(static_cast<void*>(kt), pattern, need);
    if (pattern->shareds)
        kt->shareds = reinterpret_cast<char*>(kt) +
                      (static_cast<char*>(pattern->shareds) - reinterpret_cast<char*>(pattern));
    return kt;
}

}  // namespace

void taskloop(ident_t*, kmp_int32 gtid, kmp_task_t* task, int if_val, kmp_uint64* lb, kmp_uint64* ub,
              kmp_int64 st, int nogroup, int sched, kmp_uint64 grainsize, int modifier, void* dup) {
    here h = current_here();
    // OMPT: the construct's codeptr_ra, which each of its tasks reports too.
    const void* ra = ompt::on() ? ompt::take_return_address() : nullptr;
    if (!nogroup) open_group(h);
    const kmp_uint64 lower0 = *lb;
    const kmp_uint64 upper0 = *ub;
    kmp_uint64 tc;
    if (st == 1)
        tc = upper0 - lower0 + 1;
    else if (st < 0)
        tc = (lower0 - upper0) / static_cast<kmp_uint64>(-st) + 1;
    else
        tc = (upper0 - lower0) / static_cast<kmp_uint64>(st) + 1;
    const std::size_t lb_off = reinterpret_cast<char*>(lb) - reinterpret_cast<char*>(task);
    const std::size_t ub_off = reinterpret_cast<char*>(ub) - reinterpret_cast<char*>(task);
    ext::task* prec = record_of(task);
    if (tc != 0) {
        LOOM_OMPT_EVENT(work(ompt_work_taskloop, ompt_scope_begin, tc, ra));
        kmp_uint64 num_tasks = 0, extras = 0;
        kmp_int64 last_chunk = 0;
        const auto nproc = static_cast<kmp_uint64>(h.rc->it->nthreads > 0 ? h.rc->it->nthreads : 1);
        switch (sched) {
            case 0:
                grainsize = nproc * 10;
                [[fallthrough]];
            case 2:
                if (grainsize > tc) {
                    num_tasks = tc;
                    grainsize = 1;
                    extras = 0;
                } else {
                    num_tasks = grainsize;
                    grainsize = tc / num_tasks;
                    extras = tc % num_tasks;
                }
                break;
            default:  // 1: grainsize
                if (grainsize == 0) grainsize = 1;
                if (grainsize > tc) {
                    num_tasks = 1;
                    grainsize = tc;
                    extras = 0;
                } else if (modifier) {
                    num_tasks = (tc + grainsize - 1) / grainsize;
                    last_chunk = static_cast<kmp_int64>(tc - num_tasks * grainsize);
                    extras = 0;
                } else {
                    num_tasks = tc / grainsize;
                    grainsize = tc / num_tasks;
                    extras = tc % num_tasks;
                }
                break;
        }
        auto dup_fn = reinterpret_cast<task_dup_t>(dup);
        kmp_uint64 lower = lower0;
        for (kmp_uint64 i = 0; i < num_tasks; ++i) {
            kmp_uint64 chunk_minus_1;
            if (extras == 0) {
                chunk_minus_1 = grainsize - 1;
            } else {
                chunk_minus_1 = grainsize;
                --extras;
            }
            kmp_uint64 upper = lower + static_cast<kmp_uint64>(st) * chunk_minus_1;
            if (st > 0 ? upper > upper0 || upper < lower : upper < upper0 || upper > lower) upper = upper0;
            (void)last_chunk;
            kmp_int32 lastpriv = 0;
            if (i == num_tasks - 1) lastpriv = 1;
            kmp_task_t* kt = copy_of(h, task);
            *reinterpret_cast<kmp_uint64*>(reinterpret_cast<char*>(kt) + lb_off) = lower;
            *reinterpret_cast<kmp_uint64*>(reinterpret_cast<char*>(kt) + ub_off) = upper;
            if (dup_fn) dup_fn(kt, task, lastpriv);
            if (ompt::on()) [[unlikely]] {
                // libomp's chunk: from the lowest iteration value, whatever the direction.
                const auto ast = static_cast<kmp_uint64>(st > 0 ? st : -st);
                ompt::taskloop_task(record_of(kt), ra, st > 0 ? lower : upper,
                                    (st > 0 ? upper - lower : lower - upper) / ast + 1);
            }
            if (if_val == 0) {
                LOOM_OMPT_EVENT(task_launched(record_of(kt), true));
                run_included(h, record_of(kt));
            } else
                launch(h, record_of(kt), false);
            lower = upper + static_cast<kmp_uint64>(st);
        }
        LOOM_OMPT_EVENT(work(ompt_work_taskloop, ompt_scope_end, tc, ra));
    }
    // The pattern itself never runs; its firstprivate copies are destroyed.
    if (prec->flags & f_destructors) task->data1.destructors(gtid, task);
    discard(prec);
    if (!nogroup) close_group(h);
}

}  // namespace loom::omp::tasking
