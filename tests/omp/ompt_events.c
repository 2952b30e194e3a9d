// OMPT: a tool built into the program (it defines ompt_start_tool) records the events
// of a parallel region of 4 threads with an explicit barrier, tasks with depend, a
// critical section and a dynamic loop (work and its chunks), and of a lock taken
// through clang's __kmpc_*_lock entry points, and checks the counts and their order.
// With gcc the same program goes through the GOMP entry points.
// loom-test: runtimes loom libomp
// loom-test: threads 4
// A gcc-built program is linked against libgomp.so.1, which (GNU's or loom's under that
// name) the linker does not see asking for ompt_start_tool: -rdynamic puts the tool's
// definition in the dynamic symbol table, where the runtime looks for it.
// loom-test: flags -rdynamic
// loom's own header (installed beside omp.h), for both compilers: gcc ships none.
#include "../../src/omp/include/omp-tools.h"
#include <omp.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static atomic_int n_thread_begin, n_parallel_begin, n_parallel_end, n_implicit_begin,
    n_implicit_end, n_initial, n_barrier_explicit_begin, n_barrier_explicit_end,
    n_barrier_wait, n_task_create, n_task_switch, n_task_complete, n_taskwait,
    n_critical_acquire, n_critical_acquired, n_critical_released, n_work_begin,
    n_work_end, n_masked_begin, n_masked_end, n_chunk_iterations, n_lock_init, n_lock_destroy,
    n_lock_acquire, n_lock_acquired, n_lock_released;
static atomic_int in_critical, critical_overlap, critical_unannounced;
// Set by mutex_acquired, checked and cleared inside the critical body: the event must
// come after the lock is taken and before the body. (Overlap is checked in the body, not
// between the acquired and released events: released is reported after the unlock, as
// libomp does, so the next thread's acquired may come first.)
static _Thread_local int critical_announced;
static int initialized, finalized;
static ompt_get_thread_data_t get_thread_data;
static ompt_get_parallel_info_t get_parallel_info;
static ompt_get_task_info_t get_task_info;
static ompt_get_unique_id_t get_unique_id;
static ompt_get_state_t get_state;
static atomic_int bad_parallel_info, bad_state;

static void on_thread_begin(ompt_thread_t type, ompt_data_t* data) {
    (void)type;
    data->value = get_unique_id();
    atomic_fetch_add(&n_thread_begin, 1);
}

static void on_parallel_begin(ompt_data_t* task, const ompt_frame_t* frame, ompt_data_t* par,
                              unsigned int requested, int flags, const void* ra) {
    (void)task, (void)frame, (void)requested, (void)flags, (void)ra;
    par->value = get_unique_id();
    atomic_fetch_add(&n_parallel_begin, 1);
}

static void on_parallel_end(ompt_data_t* par, ompt_data_t* task, int flags, const void* ra) {
    (void)par, (void)task, (void)flags, (void)ra;
    atomic_fetch_add(&n_parallel_end, 1);
}

static void on_implicit_task(ompt_scope_endpoint_t ep, ompt_data_t* par, ompt_data_t* task,
                             unsigned int n, unsigned int index, int flags) {
    (void)index;
    if (flags & ompt_task_initial) {
        atomic_fetch_add(&n_initial, 1);
        return;
    }
    if (ep == ompt_scope_begin) {
        task->value = get_unique_id();
        atomic_fetch_add(&n_implicit_begin, 1);
        // The region's data is the one parallel_begin handed out, and its size is n.
        ompt_data_t* p = NULL;
        int size = 0;
        if (get_parallel_info(0, &p, &size) != 2 || p != par || size != (int)n)
            atomic_fetch_add(&bad_parallel_info, 1);
    } else {
        atomic_fetch_add(&n_implicit_end, 1);
    }
}

static void on_sync_region(ompt_sync_region_t kind, ompt_scope_endpoint_t ep, ompt_data_t* par,
                           ompt_data_t* task, const void* ra) {
    (void)par, (void)task, (void)ra;
    if (kind == ompt_sync_region_barrier_explicit)
        atomic_fetch_add(ep == ompt_scope_begin ? &n_barrier_explicit_begin : &n_barrier_explicit_end, 1);
    if (kind == ompt_sync_region_taskwait && ep == ompt_scope_begin) atomic_fetch_add(&n_taskwait, 1);
}

static void on_sync_region_wait(ompt_sync_region_t kind, ompt_scope_endpoint_t ep,
                                ompt_data_t* par, ompt_data_t* task, const void* ra) {
    (void)par, (void)task, (void)ra;
    if (kind == ompt_sync_region_barrier_explicit && ep == ompt_scope_begin) atomic_fetch_add(&n_barrier_wait, 1);
}

static void on_task_create(ompt_data_t* parent, const ompt_frame_t* frame, ompt_data_t* task,
                           int flags, int has_deps, const void* ra) {
    (void)parent, (void)frame, (void)has_deps, (void)ra;
    if (flags & ompt_task_explicit) {
        task->value = get_unique_id();
        atomic_fetch_add(&n_task_create, 1);
    }
}

static void on_task_schedule(ompt_data_t* prior, ompt_task_status_t status, ompt_data_t* next) {
    (void)prior, (void)next;
    if (status == ompt_task_switch) atomic_fetch_add(&n_task_switch, 1);
    if (status == ompt_task_complete) atomic_fetch_add(&n_task_complete, 1);
}

// The lock of the __kmpc_*_lock check: its events name it by the user's lock object.
static void* the_lock;
static int is_the_lock(ompt_mutex_t kind, ompt_wait_id_t id) {
    return (kind == ompt_mutex_lock || kind == ompt_mutex_test_lock) && id == (ompt_wait_id_t)(uintptr_t)&the_lock;
}

static void on_mutex_acquire(ompt_mutex_t kind, unsigned int hint, unsigned int impl,
                             ompt_wait_id_t id, const void* ra) {
    (void)hint, (void)impl, (void)ra;
    if (kind == ompt_mutex_critical) atomic_fetch_add(&n_critical_acquire, 1);
    if (is_the_lock(kind, id)) atomic_fetch_add(&n_lock_acquire, 1);
}

static void on_mutex_acquired(ompt_mutex_t kind, ompt_wait_id_t id, const void* ra) {
    (void)ra;
    if (is_the_lock(kind, id)) atomic_fetch_add(&n_lock_acquired, 1);
    if (kind != ompt_mutex_critical) return;
    atomic_fetch_add(&n_critical_acquired, 1);
    critical_announced = 1;
}

static void on_mutex_released(ompt_mutex_t kind, ompt_wait_id_t id, const void* ra) {
    (void)ra;
    if (is_the_lock(kind, id)) atomic_fetch_add(&n_lock_released, 1);
    if (kind != ompt_mutex_critical) return;
    atomic_fetch_add(&n_critical_released, 1);
}

static void on_lock_init(ompt_mutex_t kind, unsigned int hint, unsigned int impl, ompt_wait_id_t id,
                         const void* ra) {
    (void)hint, (void)impl, (void)ra;
    if (is_the_lock(kind, id)) atomic_fetch_add(&n_lock_init, 1);
}

static void on_lock_destroy(ompt_mutex_t kind, ompt_wait_id_t id, const void* ra) {
    (void)ra;
    if (is_the_lock(kind, id)) atomic_fetch_add(&n_lock_destroy, 1);
}

static void on_work(ompt_work_t type, ompt_scope_endpoint_t ep, ompt_data_t* par, ompt_data_t* task,
                    uint64_t count, const void* ra) {
    (void)par, (void)task, (void)count, (void)ra;
    if (type == ompt_work_loop || type == ompt_work_loop_dynamic)
        atomic_fetch_add(ep == ompt_scope_begin ? &n_work_begin : &n_work_end, 1);
}

// The loop's chunks: their iterations add up to the loop's.
static void on_dispatch(ompt_data_t* par, ompt_data_t* task, ompt_dispatch_t kind, ompt_data_t instance) {
    (void)par, (void)task;
    if (kind == ompt_dispatch_ws_loop_chunk)
        atomic_fetch_add(&n_chunk_iterations, (int)((const ompt_dispatch_chunk_t*)instance.ptr)->iterations);
}

static void on_masked(ompt_scope_endpoint_t ep, ompt_data_t* par, ompt_data_t* task, const void* ra) {
    (void)par, (void)task, (void)ra;
    atomic_fetch_add(ep == ompt_scope_begin ? &n_masked_begin : &n_masked_end, 1);
}

static int tool_initialize(ompt_function_lookup_t lookup, int device, ompt_data_t* data) {
    (void)device, (void)data;
    ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
    get_thread_data = (ompt_get_thread_data_t)lookup("ompt_get_thread_data");
    get_parallel_info = (ompt_get_parallel_info_t)lookup("ompt_get_parallel_info");
    get_task_info = (ompt_get_task_info_t)lookup("ompt_get_task_info");
    get_unique_id = (ompt_get_unique_id_t)lookup("ompt_get_unique_id");
    get_state = (ompt_get_state_t)lookup("ompt_get_state");
    if (!set || !get_thread_data || !get_parallel_info || !get_task_info || !get_unique_id || !get_state) {
        printf("FAIL: an entry point is missing\n");
        return 0;
    }
    if (lookup("ompt_no_such_entry_point") != NULL) printf("FAIL: lookup of an unknown name\n");
#define REG(e, f)                                                                  \
    if (set(e, (ompt_callback_t)f) == ompt_set_never) printf("FAIL: cannot register " #e "\n");
    REG(ompt_callback_thread_begin, on_thread_begin);
    REG(ompt_callback_parallel_begin, on_parallel_begin);
    REG(ompt_callback_parallel_end, on_parallel_end);
    REG(ompt_callback_implicit_task, on_implicit_task);
    REG(ompt_callback_sync_region, on_sync_region);
    REG(ompt_callback_sync_region_wait, on_sync_region_wait);
    REG(ompt_callback_task_create, on_task_create);
    REG(ompt_callback_task_schedule, on_task_schedule);
    REG(ompt_callback_mutex_acquire, on_mutex_acquire);
    REG(ompt_callback_mutex_acquired, on_mutex_acquired);
    REG(ompt_callback_mutex_released, on_mutex_released);
    REG(ompt_callback_work, on_work);
    REG(ompt_callback_masked, on_masked);
    REG(ompt_callback_dispatch, on_dispatch);
    REG(ompt_callback_lock_init, on_lock_init);
    REG(ompt_callback_lock_destroy, on_lock_destroy);
    initialized = 1;
    return 1;
}

static void tool_finalize(ompt_data_t* data) {
    (void)data;
    finalized = 1;
}

ompt_start_tool_result_t* ompt_start_tool(unsigned int version, const char* runtime) {
    (void)version, (void)runtime;
    static ompt_start_tool_result_t result = {&tool_initialize, &tool_finalize, {0}};
    return &result;
}

#ifdef __clang__
// clang's lock entry points (libomp's and loom's libomp.so answer to them).
extern int __kmpc_global_thread_num(void* loc);
extern void __kmpc_init_lock(void* loc, int gtid, void** lock);
extern void __kmpc_destroy_lock(void* loc, int gtid, void** lock);
extern void __kmpc_set_lock(void* loc, int gtid, void** lock);
extern void __kmpc_unset_lock(void* loc, int gtid, void** lock);
extern int __kmpc_test_lock(void* loc, int gtid, void** lock);

// init, set + unset, test (taken) + unset, destroy: as the omp_*_lock routines report.
static int kmpc_lock_round(void) {
    const int gtid = __kmpc_global_thread_num(NULL);
    __kmpc_init_lock(NULL, gtid, &the_lock);
    __kmpc_set_lock(NULL, gtid, &the_lock);
    __kmpc_unset_lock(NULL, gtid, &the_lock);
    const int got = __kmpc_test_lock(NULL, gtid, &the_lock);
    if (got) __kmpc_unset_lock(NULL, gtid, &the_lock);
    __kmpc_destroy_lock(NULL, gtid, &the_lock);
    return got;
}
#endif

static int failures;
#define EXPECT(cond)                                                           \
    do {                                                                       \
        if (!(cond)) {                                                         \
            printf("FAIL line %d: %s\n", __LINE__, #cond);                     \
            ++failures;                                                        \
        }                                                                      \
    } while (0)
#define EXPECT_EQ(a, b)                                                        \
    do {                                                                       \
        long va_ = (long)(a), vb_ = (long)(b);                                 \
        if (va_ != vb_) {                                                      \
            printf("FAIL line %d: %s = %ld, expected %ld\n", __LINE__, #a, va_, vb_); \
            ++failures;                                                        \
        }                                                                      \
    } while (0)

int main(void) {
    int x = 0, y = 0, sum = 0, team = 0;
    long iters = 0;
    omp_get_num_threads();  // the runtime starts the tool when the first thread registers
    if (!initialized) {
        printf("FAIL: the tool was not initialised\n");
        return 1;
    }
    EXPECT(get_thread_data() != NULL);
#pragma omp parallel num_threads(4) shared(x, y, sum, team, iters)
    {
        ompt_wait_id_t id;
        if (get_state(&id) != ompt_state_work_parallel) atomic_fetch_add(&bad_state, 1);
#pragma omp master
        team = omp_get_num_threads();
#pragma omp barrier
#pragma omp single
        {
#pragma omp task depend(out : x) shared(x)
            x = 1;
#pragma omp task depend(in : x) depend(out : y) shared(x, y)
            y = x + 1;
#pragma omp taskwait
        }
#pragma omp critical
        {
            if (atomic_fetch_add(&in_critical, 1) != 0) atomic_fetch_add(&critical_overlap, 1);
            if (!critical_announced) atomic_fetch_add(&critical_unannounced, 1);
            critical_announced = 0;
            sum += omp_get_thread_num() + 1;
            atomic_fetch_sub(&in_critical, 1);
        }
#pragma omp for schedule(dynamic, 3) reduction(+ : iters)
        for (int i = 0; i < 100; ++i) iters += 1;
    }
    EXPECT_EQ(team, 4);
    EXPECT_EQ(y, 2);
    EXPECT_EQ(sum, 1 + 2 + 3 + 4);
    EXPECT_EQ(iters, 100);
    EXPECT_EQ(n_initial, 1);          // the initial task began (it ends at exit)
    EXPECT_EQ(n_parallel_begin, 1);
    EXPECT_EQ(n_parallel_end, 1);
    EXPECT_EQ(n_implicit_begin, 4);
    // A worker's implicit task may end after the master left the region (libomp).
    EXPECT(n_implicit_end >= 1 && n_implicit_end <= 4);
    EXPECT_EQ(bad_parallel_info, 0);
    EXPECT(n_thread_begin >= 4);      // the initial thread and at least three workers
#ifdef __clang__
    EXPECT_EQ(n_barrier_explicit_begin, 4);
    EXPECT_EQ(n_barrier_explicit_end, 4);
    EXPECT_EQ(n_barrier_wait, 4);
#else
    // gcc ends a single with the same GOMP_barrier as an explicit barrier.
    EXPECT_EQ(n_barrier_explicit_begin, 8);
    EXPECT_EQ(n_barrier_explicit_end, 8);
    EXPECT_EQ(n_barrier_wait, 8);
#endif
    EXPECT_EQ(bad_state, 0);
    EXPECT_EQ(n_task_create, 2);
    EXPECT_EQ(n_task_switch, 2);
    EXPECT_EQ(n_task_complete, 2);
    EXPECT(n_taskwait >= 1);
    EXPECT_EQ(n_critical_acquire, 4);
    EXPECT_EQ(n_critical_acquired, 4);
    EXPECT_EQ(n_critical_released, 4);
    EXPECT_EQ(critical_overlap, 0);
    EXPECT_EQ(critical_unannounced, 0);
#ifdef __clang__
    EXPECT_EQ(n_masked_begin, 1);     // gcc inlines master: no runtime call to report
    EXPECT_EQ(n_masked_end, 1);
    EXPECT_EQ(kmpc_lock_round(), 1);
    EXPECT_EQ(n_lock_init, 1);
    EXPECT_EQ(n_lock_acquire, 2);
    EXPECT_EQ(n_lock_acquired, 2);
    EXPECT_EQ(n_lock_released, 2);
    EXPECT_EQ(n_lock_destroy, 1);
#endif
    EXPECT_EQ(n_work_begin, 4);       // gcc: GOMP_loop_dynamic_start .. GOMP_loop_end*
    EXPECT_EQ(n_work_end, 4);
    EXPECT_EQ(n_chunk_iterations, 100);
    EXPECT(!finalized);
    if (failures) return 1;
    printf("ompt_events: all passed\n");
    return 0;
}
