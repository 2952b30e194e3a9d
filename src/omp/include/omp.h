/* omp.h of loom, a drop-in OpenMP runtime. Declares the host API of OpenMP 5.2 with
   the types, values and kmp_* extensions of LLVM's libomp 19, so programs compiled
   against this header and against libomp's are interchangeable. */
#ifndef __OMP_H
#define __OMP_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#define KMP_VERSION_MAJOR 5
#define KMP_VERSION_MINOR 0
#define KMP_VERSION_BUILD 20140926
#define KMP_BUILD_DATE "No_Timestamp"

#ifdef __cplusplus
extern "C" {
#endif

/* libomp routes these four through ompc_* entry points; loom exports both names. */
#define omp_set_affinity_format ompc_set_affinity_format
#define omp_get_affinity_format ompc_get_affinity_format
#define omp_display_affinity ompc_display_affinity
#define omp_capture_affinity ompc_capture_affinity

/* ---- schedules ------------------------------------------------------------------- */
typedef enum omp_sched_t {
    omp_sched_static = 1,
    omp_sched_dynamic = 2,
    omp_sched_guided = 3,
    omp_sched_auto = 4,
    omp_sched_monotonic = 0x80000000
} omp_sched_t;

/* ---- threads, teams, nesting ------------------------------------------------------ */
extern void omp_set_num_threads(int);
extern void omp_set_dynamic(int);
extern void omp_set_nested(int);
extern void omp_set_max_active_levels(int);
extern void omp_set_schedule(omp_sched_t, int);
extern int omp_get_num_threads(void);
extern int omp_get_dynamic(void);
extern int omp_get_nested(void);
extern int omp_get_max_threads(void);
extern int omp_get_thread_num(void);
extern int omp_get_num_procs(void);
extern int omp_in_parallel(void);
extern int omp_in_final(void);
extern int omp_get_active_level(void);
extern int omp_get_level(void);
extern int omp_get_ancestor_thread_num(int);
extern int omp_get_team_size(int);
extern int omp_get_thread_limit(void);
extern int omp_get_max_active_levels(void);
extern void omp_get_schedule(omp_sched_t*, int*);
extern int omp_get_max_task_priority(void);
extern int omp_get_supported_active_levels(void);
extern void omp_set_num_teams(int num_teams);
extern int omp_get_max_teams(void);
extern void omp_set_teams_thread_limit(int limit);
extern int omp_get_teams_thread_limit(void);
extern int omp_in_explicit_task(void);

/* ---- locks ---------------------------------------------------------------------- */
typedef struct omp_lock_t {
    void* _lk;
} omp_lock_t;
typedef struct omp_nest_lock_t {
    void* _lk;
} omp_nest_lock_t;

extern void omp_init_lock(omp_lock_t*);
extern void omp_set_lock(omp_lock_t*);
extern void omp_unset_lock(omp_lock_t*);
extern void omp_destroy_lock(omp_lock_t*);
extern int omp_test_lock(omp_lock_t*);
extern void omp_init_nest_lock(omp_nest_lock_t*);
extern void omp_set_nest_lock(omp_nest_lock_t*);
extern void omp_unset_nest_lock(omp_nest_lock_t*);
extern void omp_destroy_nest_lock(omp_nest_lock_t*);
extern int omp_test_nest_lock(omp_nest_lock_t*);

typedef enum omp_sync_hint_t {
    omp_sync_hint_none = 0,
    omp_lock_hint_none = omp_sync_hint_none,
    omp_sync_hint_uncontended = 1,
    omp_lock_hint_uncontended = omp_sync_hint_uncontended,
    omp_sync_hint_contended = (1 << 1),
    omp_lock_hint_contended = omp_sync_hint_contended,
    omp_sync_hint_nonspeculative = (1 << 2),
    omp_lock_hint_nonspeculative = omp_sync_hint_nonspeculative,
    omp_sync_hint_speculative = (1 << 3),
    omp_lock_hint_speculative = omp_sync_hint_speculative,
    kmp_lock_hint_hle = (1 << 16),
    kmp_lock_hint_rtm = (1 << 17),
    kmp_lock_hint_adaptive = (1 << 18)
} omp_sync_hint_t;
typedef omp_sync_hint_t omp_lock_hint_t;

extern void omp_init_lock_with_hint(omp_lock_t*, omp_lock_hint_t);
extern void omp_init_nest_lock_with_hint(omp_nest_lock_t*, omp_lock_hint_t);

/* ---- time ------------------------------------------------------------------------ */
extern double omp_get_wtime(void);
extern double omp_get_wtick(void);

/* ---- devices (the host is the only device) ------------------------------------------ */
extern int omp_get_default_device(void);
extern void omp_set_default_device(int);
extern int omp_get_num_devices(void);
extern int omp_get_num_teams(void);
extern int omp_get_team_num(void);
extern int omp_get_cancellation(void);
extern int omp_get_initial_device(void);
extern int omp_get_device_num(void);
typedef void* omp_depend_t;
typedef intptr_t omp_intptr_t;

#if defined(_OPENMP) && _OPENMP >= 201811
#pragma omp begin declare variant match(device = {kind(host)})
static inline int omp_is_initial_device(void) { return 1; }
#pragma omp end declare variant
#pragma omp begin declare variant match(device = {kind(nohost)})
static inline int omp_is_initial_device(void) { return 0; }
#pragma omp end declare variant
#else
extern int omp_is_initial_device(void);
#endif

/* ---- kmp extensions ------------------------------------------------------------- */
extern int kmp_get_stacksize(void);
extern void kmp_set_stacksize(int);
extern size_t kmp_get_stacksize_s(void);
extern void kmp_set_stacksize_s(size_t);
extern int kmp_get_blocktime(void);
extern int kmp_get_library(void);
extern void kmp_set_blocktime(int);
extern void kmp_set_library(int);
extern void kmp_set_library_serial(void);
extern void kmp_set_library_turnaround(void);
extern void kmp_set_library_throughput(void);
extern void kmp_set_defaults(char const*);
extern void kmp_set_disp_num_buffers(int);

typedef void* kmp_affinity_mask_t;
extern int kmp_set_affinity(kmp_affinity_mask_t*);
extern int kmp_get_affinity(kmp_affinity_mask_t*);
extern int kmp_get_affinity_max_proc(void);
extern void kmp_create_affinity_mask(kmp_affinity_mask_t*);
extern void kmp_destroy_affinity_mask(kmp_affinity_mask_t*);
extern int kmp_set_affinity_mask_proc(int, kmp_affinity_mask_t*);
extern int kmp_unset_affinity_mask_proc(int, kmp_affinity_mask_t*);
extern int kmp_get_affinity_mask_proc(int, kmp_affinity_mask_t*);

extern void* kmp_malloc(size_t);
extern void* kmp_aligned_malloc(size_t, size_t);
extern void* kmp_calloc(size_t, size_t);
extern void* kmp_realloc(void*, size_t);
extern void kmp_free(void*);
extern void kmp_set_warnings_on(void);
extern void kmp_set_warnings_off(void);

/* ---- affinity -------------------------------------------------------------------- */
typedef enum omp_proc_bind_t {
    omp_proc_bind_false = 0,
    omp_proc_bind_true = 1,
    omp_proc_bind_master = 2,
    omp_proc_bind_close = 3,
    omp_proc_bind_spread = 4
} omp_proc_bind_t;
#define omp_proc_bind_primary omp_proc_bind_master

extern omp_proc_bind_t omp_get_proc_bind(void);
extern int omp_get_num_places(void);
extern int omp_get_place_num_procs(int);
extern void omp_get_place_proc_ids(int, int*);
extern int omp_get_place_num(void);
extern int omp_get_partition_num_places(void);
extern void omp_get_partition_place_nums(int*);

extern void omp_set_affinity_format(char const*);
extern size_t omp_get_affinity_format(char*, size_t);
extern void omp_display_affinity(char const*);
extern size_t omp_capture_affinity(char*, size_t, char const*);

/* ---- tools ----------------------------------------------------------------------- */
typedef enum omp_control_tool_result_t {
    omp_control_tool_notool = -2,
    omp_control_tool_nocallback = -1,
    omp_control_tool_success = 0,
    omp_control_tool_ignored = 1
} omp_control_tool_result_t;
typedef enum omp_control_tool_t {
    omp_control_tool_start = 1,
    omp_control_tool_pause = 2,
    omp_control_tool_flush = 3,
    omp_control_tool_end = 4
} omp_control_tool_t;
extern int omp_control_tool(int, int, void*);

/* ---- memory management ---------------------------------------------------------- */
typedef uintptr_t omp_uintptr_t;

typedef enum {
    omp_atk_sync_hint = 1,
    omp_atk_alignment = 2,
    omp_atk_access = 3,
    omp_atk_pool_size = 4,
    omp_atk_fallback = 5,
    omp_atk_fb_data = 6,
    omp_atk_pinned = 7,
    omp_atk_partition = 8
} omp_alloctrait_key_t;

typedef enum {
    omp_atv_false = 0,
    omp_atv_true = 1,
    omp_atv_contended = 3,
    omp_atv_uncontended = 4,
    omp_atv_serialized = 5,
    omp_atv_sequential = omp_atv_serialized,
    omp_atv_private = 6,
    omp_atv_all = 7,
    omp_atv_thread = 8,
    omp_atv_pteam = 9,
    omp_atv_cgroup = 10,
    omp_atv_default_mem_fb = 11,
    omp_atv_null_fb = 12,
    omp_atv_abort_fb = 13,
    omp_atv_allocator_fb = 14,
    omp_atv_environment = 15,
    omp_atv_nearest = 16,
    omp_atv_blocked = 17,
    omp_atv_interleaved = 18
} omp_alloctrait_value_t;
#define omp_atv_default ((omp_uintptr_t)-1)

typedef struct {
    omp_alloctrait_key_t key;
    omp_uintptr_t value;
} omp_alloctrait_t;

#if defined(__cplusplus) && __cplusplus >= 201103
typedef enum omp_allocator_handle_t : omp_uintptr_t
#else
typedef enum omp_allocator_handle_t
#endif
{
    omp_null_allocator = 0,
    omp_default_mem_alloc = 1,
    omp_large_cap_mem_alloc = 2,
    omp_const_mem_alloc = 3,
    omp_high_bw_mem_alloc = 4,
    omp_low_lat_mem_alloc = 5,
    omp_cgroup_mem_alloc = 6,
    omp_pteam_mem_alloc = 7,
    omp_thread_mem_alloc = 8,
    llvm_omp_target_host_mem_alloc = 100,
    llvm_omp_target_shared_mem_alloc = 101,
    llvm_omp_target_device_mem_alloc = 102,
    KMP_ALLOCATOR_MAX_HANDLE = UINTPTR_MAX
} omp_allocator_handle_t;

#if defined(__cplusplus) && __cplusplus >= 201103
typedef enum omp_memspace_handle_t : omp_uintptr_t
#else
typedef enum omp_memspace_handle_t
#endif
{
    omp_default_mem_space = 0,
    omp_large_cap_mem_space = 1,
    omp_const_mem_space = 2,
    omp_high_bw_mem_space = 3,
    omp_low_lat_mem_space = 4,
    llvm_omp_target_host_mem_space = 100,
    llvm_omp_target_shared_mem_space = 101,
    llvm_omp_target_device_mem_space = 102,
    KMP_MEMSPACE_MAX_HANDLE = UINTPTR_MAX
} omp_memspace_handle_t;

extern omp_allocator_handle_t omp_init_allocator(omp_memspace_handle_t m, int ntraits,
                                                 omp_alloctrait_t traits[]);
extern void omp_destroy_allocator(omp_allocator_handle_t allocator);
extern void omp_set_default_allocator(omp_allocator_handle_t a);
extern omp_allocator_handle_t omp_get_default_allocator(void);
#ifdef __cplusplus
extern void* omp_alloc(size_t size, omp_allocator_handle_t a = omp_null_allocator);
extern void* omp_aligned_alloc(size_t align, size_t size,
                               omp_allocator_handle_t a = omp_null_allocator);
extern void* omp_calloc(size_t nmemb, size_t size, omp_allocator_handle_t a = omp_null_allocator);
extern void* omp_aligned_calloc(size_t align, size_t nmemb, size_t size,
                                omp_allocator_handle_t a = omp_null_allocator);
extern void* omp_realloc(void* ptr, size_t size,
                         omp_allocator_handle_t allocator = omp_null_allocator,
                         omp_allocator_handle_t free_allocator = omp_null_allocator);
extern void omp_free(void* ptr, omp_allocator_handle_t a = omp_null_allocator);
#else
extern void* omp_alloc(size_t size, omp_allocator_handle_t a);
extern void* omp_aligned_alloc(size_t align, size_t size, omp_allocator_handle_t a);
extern void* omp_calloc(size_t nmemb, size_t size, omp_allocator_handle_t a);
extern void* omp_aligned_calloc(size_t align, size_t nmemb, size_t size, omp_allocator_handle_t a);
extern void* omp_realloc(void* ptr, size_t size, omp_allocator_handle_t allocator,
                         omp_allocator_handle_t free_allocator);
extern void omp_free(void* ptr, omp_allocator_handle_t a);
#endif

/* ---- events (explicit tasks with detach) ------------------------------------------ */
typedef enum omp_event_handle_t { KMP_EVENT_MAX_HANDLE = UINTPTR_MAX } omp_event_handle_t;
extern void omp_fulfill_event(omp_event_handle_t event);

/* ---- pause ------------------------------------------------------------------------ */
typedef enum omp_pause_resource_t {
    omp_pause_resume = 0,
    omp_pause_soft = 1,
    omp_pause_hard = 2
} omp_pause_resource_t;
extern int omp_pause_resource(omp_pause_resource_t, int);
extern int omp_pause_resource_all(omp_pause_resource_t);

/* ---- environment display ------------------------------------------------------------- */
extern void omp_display_env(int verbose);

/* Deprecated, kept for source compatibility with libomp's header. */
typedef int omp_int_t;
typedef double omp_wtime_t;

#ifdef __cplusplus
}
#endif

#endif /* __OMP_H */
