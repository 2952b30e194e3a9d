// GOMP_taskloop and GOMP_taskloop_ull. gcc hands the runtime the loop (start, end,
// step) and one task body whose argument block begins with the chunk's bounds: the
// runtime cuts the iterations into chunks with libgomp's arithmetic (taskloop.c, so a
// program sees the chunks it sees on libgomp: num_tasks defaults to the team size),
// and creates one gcc task per chunk (gomp/task.cpp) with {start, end} written into the
// first two words of its copy of the block. The tasks are ordinary kmpc task records:
// loom's taskloop.cpp is shaped by kmpc's pattern task and task_dup, which gcc has not.
#include <type_traits>
#include <vector>

#include "gomp/task.hpp"
#include "gomp/task_abi.hpp"
#include "ompt/events.hpp"
#include "tasking/task.hpp"

using loom::omp::ident_t;
using loom::omp::kmp_int32;
using loom::omp::kmp_task_t;

LOOM_OMP_API int omp_get_num_threads();
LOOM_OMP_API void GOMP_taskgroup_reduction_register(std::uintptr_t* data);

namespace loom::omp::gomp {

namespace {

/// The chunks of one taskloop: `count` chunks of `step` iterations (times the loop
/// step), the one after chunk `nfirst` switching to `later` (taskloop.c).
template <class T>
struct chunking {
    unsigned long count;
    T step;
    T later;
    unsigned long nfirst;
};

/// Iterations of the loop, 0 for none (taskloop.c).
template <class T>
std::make_unsigned_t<T> trip_count(unsigned flags, T start, T end, T step) {
    using U = std::make_unsigned_t<T>;
    if constexpr (std::is_signed_v<T>) {
        (void)flags;
        if (step > 0 ? start >= end : start <= end) return 0;
        const T s = step > 0 ? step - 1 : step + 1;
        return static_cast<U>((end - start + s) / step);
    } else {
        if (flags & task_up) return start >= end ? 0 : (end - start + step - 1) / step;
        return start <= end ? 0 : (start - end - step - 1) / -step;
    }
}

/// Even split of n iterations into k chunks, the first n % k one iteration longer.
template <class T>
void split_even(chunking<T>& c, std::make_unsigned_t<T> n, T step) {
    const auto div = n / c.count, mod = n % c.count;
    c.step = static_cast<T>(div) * step;
    if (mod) {
        c.later = c.step;
        c.step += step;
        c.nfirst = static_cast<unsigned long>(mod - 1);
    }
}

template <class T>
chunking<T> by_grainsize(unsigned flags, unsigned long grain, std::make_unsigned_t<T> n, T start,
                         T end, T step) {
    if (grain == 0) grain = 1;
    chunking<T> c{static_cast<unsigned long>(n / grain), step, step, static_cast<unsigned long>(n)};
    if (flags & task_strict) {
        // Every chunk has `grain` iterations but the last, which has the rest.
        const auto mod = n % grain;
        c.step = static_cast<T>(grain) * step;
        if (mod) {
            ++c.count;
            c.later = static_cast<T>(mod) * step;
            if (c.count == 1) {
                c.step = c.later;
            } else {
                c.nfirst = c.count - 2;
            }
        }
    } else if (c.count <= 1) {
        c.count = 1;
        c.step = end - start;
    } else if (c.count >= grain) {
        const auto mul = static_cast<std::make_unsigned_t<T>>(c.count) * grain;
        c.step = static_cast<T>(grain) * step;
        if (mul != n) {
            c.later = c.step;
            c.step += step;
            c.nfirst = static_cast<unsigned long>(n - mul - 1);
        }
    } else {
        split_even(c, n, step);
    }
    return c;
}

template <class T>
chunking<T> by_num_tasks(unsigned long num_tasks, std::make_unsigned_t<T> n, T step) {
    chunking<T> c{num_tasks, step, step, static_cast<unsigned long>(n)};
    if (c.count == 0) c.count = static_cast<unsigned long>(omp_get_num_threads());
    if (c.count >= n) {
        c.count = static_cast<unsigned long>(n);
    } else {
        split_even(c, n, step);
    }
    return c;
}

/// Writes the next chunk's bounds into a task's argument block.
template <class T>
struct cursor {
    T start;
    chunking<T> c;
    unsigned long i = 0;

    void next(void* arg) {
        using U = std::make_unsigned_t<T>;
        T* bounds = static_cast<T*>(arg);
        bounds[0] = start;
        start = static_cast<T>(static_cast<U>(start) + static_cast<U>(c.step));
        bounds[1] = start;
        if (i++ == c.nfirst) c.step = c.later;
    }
};

/// OMPT: task `kt`, its bounds written, runs a chunk of the taskloop of loop step `step`
/// whose codeptr_ra is `ra`: as libomp, the chunk starts at its lowest iteration value.
template <class T>
void report_chunk(kmp_task_t* kt, T step, const void* ra) {
    using S = std::make_signed_t<T>;
    using U = std::make_unsigned_t<T>;
    const T* b = static_cast<const T*>(task_arg(kt));
    const auto span = static_cast<S>(static_cast<U>(b[1]) - static_cast<U>(b[0]));
    const auto st = static_cast<S>(step);
    const auto abs_span = static_cast<U>(span < 0 ? -span : span);
    const auto abs_step = static_cast<U>(st < 0 ? -st : st);
    const U iterations = (abs_span + abs_step - 1) / abs_step;
    const U first = static_cast<U>(b[0]);
    const U lowest = st > 0 ? first : first + (iterations - 1) * static_cast<U>(st);
    ompt::taskloop_task(tasking::record_of(kt), ra, static_cast<std::uint64_t>(lowest),
                        static_cast<std::uint64_t>(iterations));
}

template <class T>
void run_chunks_deferred(const task_spec& s, cursor<T>& at, T step, const void* ra) {
    for (unsigned long i = 0; i < at.c.count; ++i) {
        kmp_task_t* kt = new_task(s, true, nullptr);
        at.next(task_arg(kt));
        if (ompt::on()) [[unlikely]] report_chunk(kt, step, ra);
        tasking::task_spawn(kt);
    }
}

// if(0): the chunks run one after another in the encountering task. With a cpyfn all
// copies are made before the first chunk runs, as libgomp does (taskloop.c); without,
// the chunks run on gcc's own block.
template <class T>
void run_chunks_now(const task_spec& s, cursor<T>& at, T step, const void* ra) {
    if (!s.cpyfn) {
        for (unsigned long i = 0; i < at.c.count; ++i) {
            kmp_task_t* kt = new_task(s, false, nullptr);
            at.next(task_arg(kt));
            if (ompt::on()) [[unlikely]] report_chunk(kt, step, ra);
            run_undeferred(kt);
        }
        return;
    }
    std::vector<kmp_task_t*> tasks(at.c.count);
    for (kmp_task_t*& kt : tasks) kt = new_task(s, true, nullptr);
    for (kmp_task_t* kt : tasks) {
        at.next(task_arg(kt));
        if (ompt::on()) [[unlikely]] report_chunk(kt, step, ra);
        run_undeferred(kt);
    }
}

/// The reduction descriptors gcc puts after the bounds (taskloop.c gomp_data_head).
template <class T>
std::uintptr_t* reductions_of(void* data) {
    struct head {
        T start, end;
        std::uintptr_t* reductions;
    };
    return static_cast<head*>(data)->reductions;
}

template <class T>
void taskloop(const task_spec& s, unsigned long num_tasks, T start, T end, T step, const void* ra) {
    const auto n = trip_count(s.flags, start, end, step);
    const bool group = !(s.flags & task_nogroup);
    const bool reduce = group && (s.flags & task_reduction);
    if (n == 0) {
        // taskloop.c: tells the compiler's code that nothing was registered.
        if (reduce) reductions_of<T>(s.data)[red_base] = 0;
        return;
    }
    cursor<T> at{start, (s.flags & task_grainsize) ? by_grainsize(s.flags, num_tasks, n, start, end, step)
                                                   : by_num_tasks(num_tasks, n, step)};
    if (group) tasking::open_group(tasking::current_here());
    if (reduce) GOMP_taskgroup_reduction_register(reductions_of<T>(s.data));
    LOOM_OMPT_EVENT(work(ompt_work_taskloop, ompt_scope_begin, static_cast<std::uint64_t>(n), ra));
    if (s.flags & task_if) {
        run_chunks_deferred(s, at, step, ra);
    } else {
        run_chunks_now(s, at, step, ra);
    }
    LOOM_OMPT_EVENT(work(ompt_work_taskloop, ompt_scope_end, static_cast<std::uint64_t>(n), ra));
    if (group) tasking::close_group(tasking::current_here());
}

task_spec spec_of(body_fn fn, void* data, copy_fn cpyfn, long arg_size, long arg_align,
                  unsigned flags, int priority) {
    // GOMP_TASK_FLAG_DETACH and _DEPEND do not apply to taskloops.
    return task_spec{fn, data, cpyfn, arg_size, arg_align, flags & ~(task_detach | task_depend),
                     priority > 0 ? priority : 0};
}

}  // namespace
}  // namespace loom::omp::gomp

namespace gomp = loom::omp::gomp;

// libgomp_g.h: void GOMP_taskloop (void (*)(void *), void *, void (*)(void *, void *),
// long, long, unsigned, unsigned long, int, long, long, long).
LOOM_OMP_API void GOMP_taskloop(gomp::body_fn fn, void* data, gomp::copy_fn cpyfn, long arg_size,
                                long arg_align, unsigned flags, unsigned long num_tasks,
                                int priority, long start, long end, long step) {
    gomp::taskloop<long>(gomp::spec_of(fn, data, cpyfn, arg_size, arg_align, flags, priority),
                         num_tasks, start, end, step, LOOM_OMPT_RA);
}

// libgomp_g.h: the same with unsigned long long start, end, step; the direction is
// GOMP_TASK_FLAG_UP.
LOOM_OMP_API void GOMP_taskloop_ull(gomp::body_fn fn, void* data, gomp::copy_fn cpyfn,
                                    long arg_size, long arg_align, unsigned flags,
                                    unsigned long num_tasks, int priority,
                                    unsigned long long start, unsigned long long end,
                                    unsigned long long step) {
    gomp::taskloop<unsigned long long>(
        gomp::spec_of(fn, data, cpyfn, arg_size, arg_align, flags, priority), num_tasks, start,
        end, step, LOOM_OMPT_RA);
}
