// OMPT: every task_schedule event a thread receives starts from the task that thread's
// previous event switched to (OpenMP 5.2, 19.5.2.10: the prior task is the task that
// was running on the thread), while waiting members run tasks that park in taskwaits.
// A tool built into the program keeps, per thread, the task it was last told runs
// there (an implicit task's begin, a task_schedule's next task) and checks each event's
// prior task against it. It also keeps Archer's per-thread count: one for an implicit
// task in a barrier, given up while the thread switches to another task and taken again
// when it switches back (Archer ignores the runtime's writes in barriers that way); the
// count must never go below zero and must be zero when an implicit task ends. And no
// event names a task that already completed, as the prior or the next task: a task run
// from a worker's loop once went back, when it ended, to a task that had completed
// meanwhile (26 of 30 runs failed that check), and a tool that frees a task's data at
// its completion would have been handed freed memory.
//
// The program: rounds of a team of 4 in which the master creates a recursive Fibonacci
// (each task waits for its two children) right after a barrier, while the other
// members may still be parked in that barrier; their workers take the new tasks, which
// park in their taskwaits. On loom a member then resumed and left its barrier under a
// parked task without an event, and Archer's count went below zero (a ThreadSanitizer
// CHECK failure in tests/omp/archer/taskwait.c, about once in 100 runs under load).
// loom-test: runtimes loom libomp
// loom-test: threads 4
// loom-test: flags -rdynamic
#include "../../src/omp/include/omp-tools.h"
#include <omp.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define ROUNDS 300

typedef struct task_info {
    uint64_t id;
    int in_barrier;  // an implicit task between its barrier begin and end
    atomic_int completed;  // its task_schedule `complete` came: no thread runs it again
    struct task_info* made_before;  // every record stays reachable (below)
} task_info;

// Records are never freed: the check below must not depend on when a runtime stops
// naming a task. They stay reachable from here, so LeakSanitizer (loom's asan build)
// does not count them as leaks.
static _Atomic(task_info*) all_records;

static ompt_get_unique_id_t get_unique_id;
static int initialized;
static atomic_int wrong_prior, below_zero, open_at_end, schedule_events, switches_checked, completed_named;
static _Thread_local task_info* running;  // the task this thread was last told runs here
static _Thread_local int known;
static _Thread_local int ignore_count;  // Archer's ignore-writes depth on this thread

static task_info* new_task(ompt_data_t* data) {
    task_info* t = calloc(1, sizeof *t);
    t->made_before = atomic_load(&all_records);
    while (!atomic_compare_exchange_weak(&all_records, &t->made_before, t)) {
    }
    t->id = get_unique_id();
    data->ptr = t;
    return t;
}

static void scheduled(task_info* t) {
    running = t;
    known = t != NULL;
}

static void on_implicit_task(ompt_scope_endpoint_t ep, ompt_data_t* par, ompt_data_t* task,
                             unsigned int n, unsigned int index, int flags) {
    (void)par, (void)n, (void)index, (void)flags;
    if (ep == ompt_scope_begin) {
        scheduled(new_task(task));
        return;
    }
    if (ignore_count != 0) atomic_fetch_add(&open_at_end, 1);
    scheduled(NULL);  // a worker between regions runs no task
}

static void on_task_create(ompt_data_t* parent, const ompt_frame_t* frame, ompt_data_t* task,
                           int flags, int has_deps, const void* ra) {
    (void)parent, (void)frame, (void)flags, (void)has_deps, (void)ra;
    new_task(task);
}

static void on_sync_region(ompt_sync_region_t kind, ompt_scope_endpoint_t ep, ompt_data_t* par,
                           ompt_data_t* task, const void* ra) {
    (void)par, (void)ra;
    if (kind != ompt_sync_region_barrier_explicit && kind != ompt_sync_region_barrier_implicit &&
        kind != ompt_sync_region_barrier_implicit_workshare &&
        kind != ompt_sync_region_barrier_implicit_parallel && kind != ompt_sync_region_barrier &&
        kind != ompt_sync_region_barrier_implementation)
        return;
    task_info* t = task ? task->ptr : NULL;
    if (!t) return;
    if (ep == ompt_scope_begin) {
        t->in_barrier = 1;
        ++ignore_count;
    } else {
        t->in_barrier = 0;
        if (--ignore_count < 0) {
            atomic_fetch_add(&below_zero, 1);
            ignore_count = 0;
        }
    }
}

static void on_task_schedule(ompt_data_t* prior, ompt_task_status_t status, ompt_data_t* next) {
    if (status == ompt_task_early_fulfill || status == ompt_task_late_fulfill ||
        status == ompt_taskwait_complete)
        return;  // not a switch on this thread
    atomic_fetch_add(&schedule_events, 1);
    task_info* from = prior ? prior->ptr : NULL;
    task_info* to = next ? next->ptr : NULL;
    if (known) {
        atomic_fetch_add(&switches_checked, 1);
        if (from != running) atomic_fetch_add(&wrong_prior, 1);
    }
    if (from && from->in_barrier && --ignore_count < 0) {
        atomic_fetch_add(&below_zero, 1);
        ignore_count = 0;
    }
    if (to && to->in_barrier) ++ignore_count;
    // A completed task is never switched from or returned to again: a tool that frees or
    // recycles its data at completion (Archer recycles its task records) would be
    // handed a dead object.
    if ((from && atomic_load(&from->completed)) || (to && atomic_load(&to->completed)))
        atomic_fetch_add(&completed_named, 1);
    if (from && (status == ompt_task_complete || status == ompt_task_cancel)) atomic_store(&from->completed, 1);
    scheduled(to);
}

static int tool_initialize(ompt_function_lookup_t lookup, int device, ompt_data_t* data) {
    (void)device, (void)data;
    ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
    get_unique_id = (ompt_get_unique_id_t)lookup("ompt_get_unique_id");
    set(ompt_callback_implicit_task, (ompt_callback_t)on_implicit_task);
    set(ompt_callback_task_create, (ompt_callback_t)on_task_create);
    set(ompt_callback_sync_region, (ompt_callback_t)on_sync_region);
    set(ompt_callback_task_schedule, (ompt_callback_t)on_task_schedule);
    initialized = 1;
    return 1;
}

static void tool_finalize(ompt_data_t* data) { (void)data; }

ompt_start_tool_result_t* ompt_start_tool(unsigned int version, const char* runtime) {
    (void)version, (void)runtime;
    static ompt_start_tool_result_t result = {&tool_initialize, &tool_finalize, {0}};
    return &result;
}

static long fib(int n) {
    if (n < 2) return n;
    long x, y;
#pragma omp task shared(x) firstprivate(n)
    x = fib(n - 1);
#pragma omp task shared(y) firstprivate(n)
    y = fib(n - 2);
#pragma omp taskwait
    return x + y;
}

int main(void) {
    omp_get_num_threads();  // the runtime starts the tool when the first thread registers
    if (!initialized) {
        printf("FAIL: the tool was not initialised\n");
        return 1;
    }
    long wrong_fib = 0;
#pragma omp parallel num_threads(4) reduction(+ : wrong_fib)
    for (int r = 0; r < ROUNDS; r++) {
#pragma omp masked
        wrong_fib += fib(9) != 34;
#pragma omp barrier
    }
    printf("%d task_schedule events, %d checked against the thread's last one\n", schedule_events,
           switches_checked);
    int bad = 0;
    if (wrong_fib) printf("FAIL: fib(9) wrong in %ld rounds\n", wrong_fib), bad = 1;
    if (switches_checked < ROUNDS * 10) printf("FAIL: too few task switches seen\n"), bad = 1;
    if (wrong_prior) printf("FAIL: %d events named a prior task other than the thread's\n", wrong_prior), bad = 1;
    if (below_zero) printf("FAIL: the barrier count went below zero %d times\n", below_zero), bad = 1;
    if (completed_named) printf("FAIL: %d events named a task that had completed\n", completed_named), bad = 1;
    if (open_at_end) printf("FAIL: %d implicit tasks ended inside a counted barrier\n", open_at_end), bad = 1;
    if (!bad) printf("all passed\n");
    return bad;
}
