// libgomp's symbol versions of the omp_* routines.
//
// A gcc-built binary asks for omp_get_num_threads@OMP_1.0 (GCC 12's libgomp.so.1:
// objdump -T); a clang-built one for omp_get_num_threads@VERSION (libomp.so.5). The
// routines keep @@VERSION (libloom-omp.map); this file adds, for each routine libgomp
// exports, a non-default alias under libgomp's node, as LLVM's libomp does
// (kmp_ftn_entry.h, KMP_VERSION_SYMBOL; Debian's libomp.so.5 shows both versions).
//
// A .symver alias must name a symbol defined in the same object, and the routines live
// in other files, so each alias is a one-instruction stub that tail-jumps to the
// routine through the PLT (the routine stays interposable, as a default-visibility
// export must). The stub's own name is local (the map's `local: *`); only
// name@OMP_n.m is exported.
//
// The lock routines appear twice: libgomp keeps its OpenMP 2.5 lock layout under
// OMP_1.0 and the 3.0 one under OMP_3.0 (the default). loom's simple lock is the first
// 4 bytes and its nest lock the first 8 bytes of the object, so both of GCC's layouts
// (4 and 8 bytes in 2.5, 4 and 16 in 3.0) hold it and one routine serves both.

#include "gomp/version_alias.hpp"

#if defined(__x86_64__)
#if defined(__CET__)
#define LOOM_GCC_STUB_ENTRY "endbr64\n"
#else
#define LOOM_GCC_STUB_ENTRY ""
#endif
#define LOOM_GCC_TAIL_JUMP(target) LOOM_GCC_STUB_ENTRY "jmp " #target "@PLT\n"
#define LOOM_GCC_DIRECT_JUMP(target) LOOM_GCC_STUB_ENTRY "jmp " target "\n"
#elif defined(__aarch64__)
#define LOOM_GCC_TAIL_JUMP(target) "b " #target "\n"
#define LOOM_GCC_DIRECT_JUMP(target) "b " target "\n"
#else
#error "gomp/versions.cpp: no tail-jump stub for this architecture"
#endif

// LOOM_GCC_VERSION(routine, "node", node_tag): exports routine@node.
#define LOOM_GCC_VERSION(routine, node, tag)                                  \
    asm(".pushsection .text\n"                                                \
        ".globl __loom_gcc_" #routine "_" #tag "\n"                           \
        ".type __loom_gcc_" #routine "_" #tag ", %function\n"                 \
        ".p2align 4\n"                                                        \
        "__loom_gcc_" #routine "_" #tag ":\n" LOOM_GCC_TAIL_JUMP(routine)     \
        ".size __loom_gcc_" #routine "_" #tag ", . - __loom_gcc_" #routine    \
        "_" #tag "\n"                                                         \
        ".symver __loom_gcc_" #routine "_" #tag ", " #routine "@" node "\n"   \
        ".popsection\n");

// LOOM_GCC_VERSION_DIRECT(routine, "node", node_tag): exports routine@node as a direct
// jump to the routine's hidden alias (gomp/version_alias.hpp), for the routines programs
// call in their inner loops: no PLT jump in between, which is measurable (that header
// says how much and why).
#define LOOM_GCC_VERSION_DIRECT(routine, node, tag)                           \
    asm(".pushsection .text\n"                                                \
        ".globl __loom_gcc_" #routine "_" #tag "\n"                           \
        ".type __loom_gcc_" #routine "_" #tag ", %function\n"                 \
        ".p2align 4\n"                                                        \
        "__loom_gcc_" #routine "_" #tag ":\n"                                 \
        LOOM_GCC_DIRECT_JUMP(LOOM_GCC_DIRECT_NAME(routine))                   \
        ".size __loom_gcc_" #routine "_" #tag ", . - __loom_gcc_" #routine    \
        "_" #tag "\n"                                                         \
        ".symver __loom_gcc_" #routine "_" #tag ", " #routine "@" node "\n"   \
        ".popsection\n");

// LOOM_GCC_VERSION_OF(routine, target, "node", node_tag): exports routine@node as a
// jump to `target` (a routine whose libgomp semantics differ from libomp's).
#define LOOM_GCC_VERSION_OF(routine, target, node, tag)                       \
    asm(".pushsection .text\n"                                               \
        ".globl __loom_gcc_" #routine "_" #tag "\n"                          \
        ".type __loom_gcc_" #routine "_" #tag ", %function\n"                \
        ".p2align 4\n"                                                       \
        "__loom_gcc_" #routine "_" #tag ":\n" LOOM_GCC_TAIL_JUMP(target)     \
        ".size __loom_gcc_" #routine "_" #tag ", . - __loom_gcc_" #routine   \
        "_" #tag "\n"                                                        \
        ".symver __loom_gcc_" #routine "_" #tag ", " #routine "@" node "\n"  \
        ".popsection\n");

// Every omp_* symbol of GCC 12's libgomp.so.1 with its version, by version.
LOOM_GCC_VERSION(omp_destroy_lock, "OMP_1.0", OMP_1_0)
LOOM_GCC_VERSION(omp_destroy_lock_, "OMP_1.0", OMP_1_0)
LOOM_GCC_VERSION(omp_destroy_nest_lock, "OMP_1.0", OMP_1_0)
LOOM_GCC_VERSION(omp_destroy_nest_lock_, "OMP_1.0", OMP_1_0)
LOOM_GCC_VERSION(omp_get_dynamic, "OMP_1.0", OMP_1_0)
LOOM_GCC_VERSION(omp_get_dynamic_, "OMP_1.0", OMP_1_0)
LOOM_GCC_VERSION(omp_get_max_threads, "OMP_1.0", OMP_1_0)
LOOM_GCC_VERSION(omp_get_max_threads_, "OMP_1.0", OMP_1_0)
LOOM_GCC_VERSION(omp_get_nested, "OMP_1.0", OMP_1_0)
LOOM_GCC_VERSION(omp_get_nested_, "OMP_1.0", OMP_1_0)
LOOM_GCC_VERSION(omp_get_num_procs, "OMP_1.0", OMP_1_0)
LOOM_GCC_VERSION(omp_get_num_procs_, "OMP_1.0", OMP_1_0)
LOOM_GCC_VERSION(omp_get_num_threads, "OMP_1.0", OMP_1_0)
LOOM_GCC_VERSION(omp_get_num_threads_, "OMP_1.0", OMP_1_0)
LOOM_GCC_VERSION(omp_get_thread_num, "OMP_1.0", OMP_1_0)
LOOM_GCC_VERSION(omp_get_thread_num_, "OMP_1.0", OMP_1_0)
LOOM_GCC_VERSION(omp_in_parallel, "OMP_1.0", OMP_1_0)
LOOM_GCC_VERSION(omp_in_parallel_, "OMP_1.0", OMP_1_0)
LOOM_GCC_VERSION(omp_init_lock, "OMP_1.0", OMP_1_0)
LOOM_GCC_VERSION(omp_init_lock_, "OMP_1.0", OMP_1_0)
LOOM_GCC_VERSION(omp_init_nest_lock, "OMP_1.0", OMP_1_0)
LOOM_GCC_VERSION(omp_init_nest_lock_, "OMP_1.0", OMP_1_0)
LOOM_GCC_VERSION(omp_set_dynamic, "OMP_1.0", OMP_1_0)
LOOM_GCC_VERSION(omp_set_dynamic_, "OMP_1.0", OMP_1_0)
LOOM_GCC_VERSION(omp_set_dynamic_8_, "OMP_1.0", OMP_1_0)
LOOM_GCC_VERSION_DIRECT(omp_set_lock, "OMP_1.0", OMP_1_0)
LOOM_GCC_VERSION(omp_set_lock_, "OMP_1.0", OMP_1_0)
LOOM_GCC_VERSION_DIRECT(omp_set_nest_lock, "OMP_1.0", OMP_1_0)
LOOM_GCC_VERSION(omp_set_nest_lock_, "OMP_1.0", OMP_1_0)
LOOM_GCC_VERSION(omp_set_nested, "OMP_1.0", OMP_1_0)
LOOM_GCC_VERSION(omp_set_nested_, "OMP_1.0", OMP_1_0)
LOOM_GCC_VERSION(omp_set_nested_8_, "OMP_1.0", OMP_1_0)
LOOM_GCC_VERSION(omp_set_num_threads, "OMP_1.0", OMP_1_0)
LOOM_GCC_VERSION(omp_set_num_threads_, "OMP_1.0", OMP_1_0)
LOOM_GCC_VERSION(omp_set_num_threads_8_, "OMP_1.0", OMP_1_0)
LOOM_GCC_VERSION_DIRECT(omp_test_lock, "OMP_1.0", OMP_1_0)
LOOM_GCC_VERSION(omp_test_lock_, "OMP_1.0", OMP_1_0)
LOOM_GCC_VERSION_DIRECT(omp_test_nest_lock, "OMP_1.0", OMP_1_0)
LOOM_GCC_VERSION(omp_test_nest_lock_, "OMP_1.0", OMP_1_0)
LOOM_GCC_VERSION_DIRECT(omp_unset_lock, "OMP_1.0", OMP_1_0)
LOOM_GCC_VERSION(omp_unset_lock_, "OMP_1.0", OMP_1_0)
LOOM_GCC_VERSION_DIRECT(omp_unset_nest_lock, "OMP_1.0", OMP_1_0)
LOOM_GCC_VERSION(omp_unset_nest_lock_, "OMP_1.0", OMP_1_0)
LOOM_GCC_VERSION(omp_get_wtick, "OMP_2.0", OMP_2_0)
LOOM_GCC_VERSION(omp_get_wtick_, "OMP_2.0", OMP_2_0)
LOOM_GCC_VERSION(omp_get_wtime, "OMP_2.0", OMP_2_0)
LOOM_GCC_VERSION(omp_get_wtime_, "OMP_2.0", OMP_2_0)
LOOM_GCC_VERSION(omp_destroy_lock, "OMP_3.0", OMP_3_0)
LOOM_GCC_VERSION(omp_destroy_lock_, "OMP_3.0", OMP_3_0)
LOOM_GCC_VERSION(omp_destroy_nest_lock, "OMP_3.0", OMP_3_0)
LOOM_GCC_VERSION(omp_destroy_nest_lock_, "OMP_3.0", OMP_3_0)
LOOM_GCC_VERSION(omp_get_active_level, "OMP_3.0", OMP_3_0)
LOOM_GCC_VERSION(omp_get_active_level_, "OMP_3.0", OMP_3_0)
LOOM_GCC_VERSION(omp_get_ancestor_thread_num, "OMP_3.0", OMP_3_0)
LOOM_GCC_VERSION(omp_get_ancestor_thread_num_, "OMP_3.0", OMP_3_0)
LOOM_GCC_VERSION(omp_get_ancestor_thread_num_8_, "OMP_3.0", OMP_3_0)
LOOM_GCC_VERSION(omp_get_level, "OMP_3.0", OMP_3_0)
LOOM_GCC_VERSION(omp_get_level_, "OMP_3.0", OMP_3_0)
LOOM_GCC_VERSION(omp_get_max_active_levels, "OMP_3.0", OMP_3_0)
LOOM_GCC_VERSION(omp_get_max_active_levels_, "OMP_3.0", OMP_3_0)
LOOM_GCC_VERSION(omp_get_schedule, "OMP_3.0", OMP_3_0)
LOOM_GCC_VERSION(omp_get_schedule_, "OMP_3.0", OMP_3_0)
LOOM_GCC_VERSION(omp_get_schedule_8_, "OMP_3.0", OMP_3_0)
LOOM_GCC_VERSION(omp_get_team_size, "OMP_3.0", OMP_3_0)
LOOM_GCC_VERSION(omp_get_team_size_, "OMP_3.0", OMP_3_0)
LOOM_GCC_VERSION(omp_get_team_size_8_, "OMP_3.0", OMP_3_0)
LOOM_GCC_VERSION(omp_get_thread_limit, "OMP_3.0", OMP_3_0)
LOOM_GCC_VERSION(omp_get_thread_limit_, "OMP_3.0", OMP_3_0)
LOOM_GCC_VERSION(omp_init_lock, "OMP_3.0", OMP_3_0)
LOOM_GCC_VERSION(omp_init_lock_, "OMP_3.0", OMP_3_0)
LOOM_GCC_VERSION(omp_init_nest_lock, "OMP_3.0", OMP_3_0)
LOOM_GCC_VERSION(omp_init_nest_lock_, "OMP_3.0", OMP_3_0)
LOOM_GCC_VERSION_DIRECT(omp_set_lock, "OMP_3.0", OMP_3_0)
LOOM_GCC_VERSION(omp_set_lock_, "OMP_3.0", OMP_3_0)
LOOM_GCC_VERSION(omp_set_max_active_levels, "OMP_3.0", OMP_3_0)
LOOM_GCC_VERSION(omp_set_max_active_levels_, "OMP_3.0", OMP_3_0)
LOOM_GCC_VERSION(omp_set_max_active_levels_8_, "OMP_3.0", OMP_3_0)
LOOM_GCC_VERSION_OF(omp_set_nest_lock, loom_gomp30_omp_set_nest_lock, "OMP_3.0", OMP_3_0)  // task-owned: gomp/nest_lock.cpp
LOOM_GCC_VERSION_OF(omp_set_nest_lock_, loom_gomp30_omp_set_nest_lock_, "OMP_3.0", OMP_3_0)  // task-owned
LOOM_GCC_VERSION(omp_set_schedule, "OMP_3.0", OMP_3_0)
LOOM_GCC_VERSION(omp_set_schedule_, "OMP_3.0", OMP_3_0)
LOOM_GCC_VERSION(omp_set_schedule_8_, "OMP_3.0", OMP_3_0)
LOOM_GCC_VERSION_DIRECT(omp_test_lock, "OMP_3.0", OMP_3_0)
LOOM_GCC_VERSION(omp_test_lock_, "OMP_3.0", OMP_3_0)
LOOM_GCC_VERSION_OF(omp_test_nest_lock, loom_gomp30_omp_test_nest_lock, "OMP_3.0", OMP_3_0)  // task-owned: gomp/nest_lock.cpp
LOOM_GCC_VERSION_OF(omp_test_nest_lock_, loom_gomp30_omp_test_nest_lock_, "OMP_3.0", OMP_3_0)  // task-owned
LOOM_GCC_VERSION_DIRECT(omp_unset_lock, "OMP_3.0", OMP_3_0)
LOOM_GCC_VERSION(omp_unset_lock_, "OMP_3.0", OMP_3_0)
LOOM_GCC_VERSION_OF(omp_unset_nest_lock, loom_gomp30_omp_unset_nest_lock, "OMP_3.0", OMP_3_0)  // task-owned: gomp/nest_lock.cpp
LOOM_GCC_VERSION_OF(omp_unset_nest_lock_, loom_gomp30_omp_unset_nest_lock_, "OMP_3.0", OMP_3_0)  // task-owned
LOOM_GCC_VERSION(omp_in_final, "OMP_3.1", OMP_3_1)
LOOM_GCC_VERSION(omp_in_final_, "OMP_3.1", OMP_3_1)
LOOM_GCC_VERSION(omp_get_cancellation, "OMP_4.0", OMP_4_0)
LOOM_GCC_VERSION(omp_get_cancellation_, "OMP_4.0", OMP_4_0)
LOOM_GCC_VERSION(omp_get_default_device, "OMP_4.0", OMP_4_0)
LOOM_GCC_VERSION(omp_get_default_device_, "OMP_4.0", OMP_4_0)
LOOM_GCC_VERSION(omp_get_num_devices, "OMP_4.0", OMP_4_0)
LOOM_GCC_VERSION(omp_get_num_devices_, "OMP_4.0", OMP_4_0)
LOOM_GCC_VERSION(omp_get_num_teams, "OMP_4.0", OMP_4_0)
LOOM_GCC_VERSION(omp_get_num_teams_, "OMP_4.0", OMP_4_0)
LOOM_GCC_VERSION(omp_get_proc_bind, "OMP_4.0", OMP_4_0)
LOOM_GCC_VERSION(omp_get_proc_bind_, "OMP_4.0", OMP_4_0)
LOOM_GCC_VERSION(omp_get_team_num, "OMP_4.0", OMP_4_0)
LOOM_GCC_VERSION(omp_get_team_num_, "OMP_4.0", OMP_4_0)
LOOM_GCC_VERSION(omp_is_initial_device, "OMP_4.0", OMP_4_0)
LOOM_GCC_VERSION(omp_is_initial_device_, "OMP_4.0", OMP_4_0)
LOOM_GCC_VERSION(omp_set_default_device, "OMP_4.0", OMP_4_0)
LOOM_GCC_VERSION(omp_set_default_device_, "OMP_4.0", OMP_4_0)
LOOM_GCC_VERSION(omp_set_default_device_8_, "OMP_4.0", OMP_4_0)
LOOM_GCC_VERSION(omp_get_initial_device, "OMP_4.5", OMP_4_5)
LOOM_GCC_VERSION(omp_get_initial_device_, "OMP_4.5", OMP_4_5)
LOOM_GCC_VERSION(omp_get_max_task_priority, "OMP_4.5", OMP_4_5)
LOOM_GCC_VERSION(omp_get_max_task_priority_, "OMP_4.5", OMP_4_5)
LOOM_GCC_VERSION(omp_get_num_places, "OMP_4.5", OMP_4_5)
LOOM_GCC_VERSION(omp_get_num_places_, "OMP_4.5", OMP_4_5)
LOOM_GCC_VERSION(omp_get_partition_num_places, "OMP_4.5", OMP_4_5)
LOOM_GCC_VERSION(omp_get_partition_num_places_, "OMP_4.5", OMP_4_5)
LOOM_GCC_VERSION(omp_get_partition_place_nums, "OMP_4.5", OMP_4_5)
LOOM_GCC_VERSION(omp_get_partition_place_nums_, "OMP_4.5", OMP_4_5)
LOOM_GCC_VERSION(omp_get_partition_place_nums_8_, "OMP_4.5", OMP_4_5)
LOOM_GCC_VERSION(omp_get_place_num, "OMP_4.5", OMP_4_5)
LOOM_GCC_VERSION(omp_get_place_num_, "OMP_4.5", OMP_4_5)
LOOM_GCC_VERSION(omp_get_place_num_procs, "OMP_4.5", OMP_4_5)
LOOM_GCC_VERSION(omp_get_place_num_procs_, "OMP_4.5", OMP_4_5)
LOOM_GCC_VERSION(omp_get_place_num_procs_8_, "OMP_4.5", OMP_4_5)
LOOM_GCC_VERSION(omp_get_place_proc_ids, "OMP_4.5", OMP_4_5)
LOOM_GCC_VERSION(omp_get_place_proc_ids_, "OMP_4.5", OMP_4_5)
LOOM_GCC_VERSION(omp_get_place_proc_ids_8_, "OMP_4.5", OMP_4_5)
LOOM_GCC_VERSION(omp_target_alloc, "OMP_4.5", OMP_4_5)
LOOM_GCC_VERSION(omp_target_associate_ptr, "OMP_4.5", OMP_4_5)
LOOM_GCC_VERSION(omp_target_disassociate_ptr, "OMP_4.5", OMP_4_5)
LOOM_GCC_VERSION(omp_target_free, "OMP_4.5", OMP_4_5)
LOOM_GCC_VERSION(omp_target_is_present, "OMP_4.5", OMP_4_5)
LOOM_GCC_VERSION(omp_target_memcpy, "OMP_4.5", OMP_4_5)
LOOM_GCC_VERSION(omp_target_memcpy_rect, "OMP_4.5", OMP_4_5)
LOOM_GCC_VERSION(omp_capture_affinity, "OMP_5.0", OMP_5_0)
LOOM_GCC_VERSION(omp_capture_affinity_, "OMP_5.0", OMP_5_0)
LOOM_GCC_VERSION(omp_display_affinity, "OMP_5.0", OMP_5_0)
LOOM_GCC_VERSION(omp_display_affinity_, "OMP_5.0", OMP_5_0)
LOOM_GCC_VERSION(omp_get_affinity_format, "OMP_5.0", OMP_5_0)
LOOM_GCC_VERSION(omp_get_affinity_format_, "OMP_5.0", OMP_5_0)
LOOM_GCC_VERSION(omp_pause_resource, "OMP_5.0", OMP_5_0)
LOOM_GCC_VERSION(omp_pause_resource_, "OMP_5.0", OMP_5_0)
LOOM_GCC_VERSION(omp_pause_resource_all, "OMP_5.0", OMP_5_0)
LOOM_GCC_VERSION(omp_pause_resource_all_, "OMP_5.0", OMP_5_0)
LOOM_GCC_VERSION(omp_set_affinity_format, "OMP_5.0", OMP_5_0)
LOOM_GCC_VERSION(omp_set_affinity_format_, "OMP_5.0", OMP_5_0)
LOOM_GCC_VERSION(omp_alloc, "OMP_5.0.1", OMP_5_0_1)
LOOM_GCC_VERSION(omp_destroy_allocator, "OMP_5.0.1", OMP_5_0_1)
LOOM_GCC_VERSION(omp_destroy_allocator_, "OMP_5.0.1", OMP_5_0_1)
LOOM_GCC_VERSION(omp_free, "OMP_5.0.1", OMP_5_0_1)
LOOM_GCC_VERSION(omp_fulfill_event, "OMP_5.0.1", OMP_5_0_1)
LOOM_GCC_VERSION(omp_fulfill_event_, "OMP_5.0.1", OMP_5_0_1)
LOOM_GCC_VERSION(omp_get_default_allocator, "OMP_5.0.1", OMP_5_0_1)
LOOM_GCC_VERSION(omp_get_default_allocator_, "OMP_5.0.1", OMP_5_0_1)
LOOM_GCC_VERSION(omp_get_supported_active_levels, "OMP_5.0.1", OMP_5_0_1)
LOOM_GCC_VERSION(omp_get_supported_active_levels_, "OMP_5.0.1", OMP_5_0_1)
LOOM_GCC_VERSION(omp_init_allocator, "OMP_5.0.1", OMP_5_0_1)
LOOM_GCC_VERSION(omp_init_allocator_, "OMP_5.0.1", OMP_5_0_1)
LOOM_GCC_VERSION(omp_init_allocator_8_, "OMP_5.0.1", OMP_5_0_1)
LOOM_GCC_VERSION(omp_set_default_allocator, "OMP_5.0.1", OMP_5_0_1)
LOOM_GCC_VERSION(omp_set_default_allocator_, "OMP_5.0.1", OMP_5_0_1)
LOOM_GCC_VERSION(omp_aligned_alloc, "OMP_5.0.2", OMP_5_0_2)
LOOM_GCC_VERSION(omp_aligned_calloc, "OMP_5.0.2", OMP_5_0_2)
LOOM_GCC_VERSION(omp_calloc, "OMP_5.0.2", OMP_5_0_2)
LOOM_GCC_VERSION(omp_get_device_num, "OMP_5.0.2", OMP_5_0_2)
LOOM_GCC_VERSION(omp_get_device_num_, "OMP_5.0.2", OMP_5_0_2)
LOOM_GCC_VERSION(omp_realloc, "OMP_5.0.2", OMP_5_0_2)
LOOM_GCC_VERSION(omp_display_env, "OMP_5.1", OMP_5_1)
LOOM_GCC_VERSION(omp_display_env_, "OMP_5.1", OMP_5_1)
LOOM_GCC_VERSION(omp_display_env_8_, "OMP_5.1", OMP_5_1)
LOOM_GCC_VERSION(omp_get_max_teams, "OMP_5.1", OMP_5_1)
LOOM_GCC_VERSION(omp_get_max_teams_, "OMP_5.1", OMP_5_1)
LOOM_GCC_VERSION(omp_get_teams_thread_limit, "OMP_5.1", OMP_5_1)
LOOM_GCC_VERSION(omp_get_teams_thread_limit_, "OMP_5.1", OMP_5_1)
LOOM_GCC_VERSION(omp_set_num_teams, "OMP_5.1", OMP_5_1)
LOOM_GCC_VERSION(omp_set_num_teams_, "OMP_5.1", OMP_5_1)
LOOM_GCC_VERSION(omp_set_num_teams_8_, "OMP_5.1", OMP_5_1)
LOOM_GCC_VERSION(omp_set_teams_thread_limit, "OMP_5.1", OMP_5_1)
LOOM_GCC_VERSION(omp_set_teams_thread_limit_, "OMP_5.1", OMP_5_1)
LOOM_GCC_VERSION(omp_set_teams_thread_limit_8_, "OMP_5.1", OMP_5_1)
