// The Fortran entry points of the omp_* routines, as gfortran calls them and libgomp
// exports them (GCC 12 libgomp/fortran.c; objdump -T libgomp.so.1): the name with a
// trailing underscore, arguments by reference, LOGICAL results as int32_t, `_8_`
// variants for -fdefault-integer-8 whose 64-bit arguments are clamped to int, and
// CHARACTER arguments as (pointer, length) pairs with the lengths last, blank-padded
// rather than NUL-terminated. LLVM's libomp exports the same names (kmp_ftn_entry.h).
//
// Locks: gfortran's omp_lock_kind is 4 and omp_nest_lock_kind 8 on Linux, and loom's
// locks are their first 4 / 8 bytes, so the Fortran variable is the lock itself.
#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "abi.hpp"

// The C routines these forward to (defined elsewhere in libloom-omp; declared here
// rather than through omp.h, whose macros rename the affinity routines).
extern "C" {
void omp_set_dynamic(int);
void omp_set_nested(int);
void omp_set_num_threads(int);
int omp_get_dynamic();
int omp_get_nested();
int omp_in_parallel();
int omp_get_max_threads();
int omp_get_num_procs();
int omp_get_num_threads();
int omp_get_thread_num();
double omp_get_wtick();
double omp_get_wtime();
void omp_set_schedule(int, int);
void omp_get_schedule(int*, int*);
int omp_get_thread_limit();
void omp_set_max_active_levels(int);
int omp_get_max_active_levels();
int omp_get_supported_active_levels();
int omp_get_level();
int omp_get_ancestor_thread_num(int);
int omp_get_team_size(int);
int omp_get_active_level();
int omp_in_final();
void omp_set_num_teams(int);
int omp_get_max_teams();
void omp_set_teams_thread_limit(int);
int omp_get_teams_thread_limit();
int omp_get_cancellation();
int omp_get_proc_bind();
int omp_get_num_places();
int omp_get_place_num_procs(int);
void omp_get_place_proc_ids(int, int*);
int omp_get_place_num();
int omp_get_partition_num_places();
void omp_get_partition_place_nums(int*);
void omp_set_default_device(int);
int omp_get_default_device();
int omp_get_num_devices();
int omp_get_num_teams();
int omp_get_team_num();
int omp_is_initial_device();
int omp_get_initial_device();
int omp_get_device_num();
int omp_get_max_task_priority();
void omp_fulfill_event(std::uintptr_t);
void omp_set_affinity_format(const char*);
std::size_t omp_get_affinity_format(char*, std::size_t);
void omp_display_affinity(const char*);
std::size_t omp_capture_affinity(char*, std::size_t, const char*);
int omp_pause_resource(int, int);
int omp_pause_resource_all(int);
std::uintptr_t omp_init_allocator(std::uintptr_t, int, const void*);
void omp_destroy_allocator(std::uintptr_t);
void omp_set_default_allocator(std::uintptr_t);
std::uintptr_t omp_get_default_allocator();
void omp_display_env(int);
void omp_init_lock(void*);
void omp_destroy_lock(void*);
void omp_set_lock(void*);
void omp_unset_lock(void*);
int omp_test_lock(void*);
void omp_init_nest_lock(void*);
void omp_destroy_nest_lock(void*);
void omp_set_nest_lock(void*);
void omp_unset_nest_lock(void*);
int omp_test_nest_lock(void*);
}

namespace {

// libgomp's TO_INT: an INTEGER(8) argument clamped into int.
int to_int(std::int64_t x) {
    return static_cast<int>(std::clamp<std::int64_t>(x, INT_MIN, INT_MAX));
}

// A CHARACTER argument as a C string (its length is exact; no trailing NUL).
std::string c_string(const char* text, std::size_t len) { return std::string(text, len); }

// Copies `text` into a CHARACTER buffer of `len`, blank-padded (Fortran's convention).
void blank_padded(const std::string& text, char* buffer, std::size_t len) {
    const std::size_t n = std::min(text.size(), len);
    std::memcpy(buffer, text.data(), n);
    std::memset(buffer + n, ' ', len - n);
}

// omp_sched_monotonic: masked off, since OpenMP 4.5 Fortran code does not expect it
// (libgomp omp_get_schedule_).
constexpr unsigned sched_monotonic = 0x80000000u;

}  // namespace

// ---- locks --------------------------------------------------------------------------------

LOOM_OMP_API void omp_init_lock_(void* l) { omp_init_lock(l); }
LOOM_OMP_API void omp_destroy_lock_(void* l) { omp_destroy_lock(l); }
LOOM_OMP_API void omp_set_lock_(void* l) { omp_set_lock(l); }
LOOM_OMP_API void omp_unset_lock_(void* l) { omp_unset_lock(l); }
LOOM_OMP_API std::int32_t omp_test_lock_(void* l) { return omp_test_lock(l); }
LOOM_OMP_API void omp_init_nest_lock_(void* l) { omp_init_nest_lock(l); }
LOOM_OMP_API void omp_destroy_nest_lock_(void* l) { omp_destroy_nest_lock(l); }
LOOM_OMP_API void omp_set_nest_lock_(void* l) { omp_set_nest_lock(l); }
LOOM_OMP_API void omp_unset_nest_lock_(void* l) { omp_unset_nest_lock(l); }
LOOM_OMP_API std::int32_t omp_test_nest_lock_(void* l) { return omp_test_nest_lock(l); }

// ---- threads, nesting, schedules ------------------------------------------------------------

LOOM_OMP_API void omp_set_dynamic_(const std::int32_t* v) { omp_set_dynamic(*v); }
LOOM_OMP_API void omp_set_dynamic_8_(const std::int64_t* v) { omp_set_dynamic(*v != 0); }
LOOM_OMP_API void omp_set_nested_(const std::int32_t* v) { omp_set_nested(*v); }
LOOM_OMP_API void omp_set_nested_8_(const std::int64_t* v) { omp_set_nested(*v != 0); }
LOOM_OMP_API void omp_set_num_threads_(const std::int32_t* n) { omp_set_num_threads(*n); }
LOOM_OMP_API void omp_set_num_threads_8_(const std::int64_t* n) { omp_set_num_threads(to_int(*n)); }
LOOM_OMP_API std::int32_t omp_get_dynamic_() { return omp_get_dynamic(); }
LOOM_OMP_API std::int32_t omp_get_nested_() { return omp_get_nested(); }
LOOM_OMP_API std::int32_t omp_in_parallel_() { return omp_in_parallel(); }
LOOM_OMP_API std::int32_t omp_get_max_threads_() { return omp_get_max_threads(); }
LOOM_OMP_API std::int32_t omp_get_num_procs_() { return omp_get_num_procs(); }
LOOM_OMP_API std::int32_t omp_get_num_threads_() { return omp_get_num_threads(); }
LOOM_OMP_API std::int32_t omp_get_thread_num_() { return omp_get_thread_num(); }
LOOM_OMP_API double omp_get_wtick_() { return omp_get_wtick(); }
LOOM_OMP_API double omp_get_wtime_() { return omp_get_wtime(); }

LOOM_OMP_API void omp_set_schedule_(const std::int32_t* kind, const std::int32_t* chunk) {
    omp_set_schedule(*kind, *chunk);
}
LOOM_OMP_API void omp_set_schedule_8_(const std::int32_t* kind, const std::int64_t* chunk) {
    omp_set_schedule(*kind, to_int(*chunk));
}
LOOM_OMP_API void omp_get_schedule_(std::int32_t* kind, std::int32_t* chunk) {
    int k = 0, c = 0;
    omp_get_schedule(&k, &c);
    *kind = static_cast<std::int32_t>(static_cast<unsigned>(k) & ~sched_monotonic);
    *chunk = c;
}
LOOM_OMP_API void omp_get_schedule_8_(std::int32_t* kind, std::int64_t* chunk) {
    std::int32_t c = 0;
    omp_get_schedule_(kind, &c);
    *chunk = c;
}

LOOM_OMP_API std::int32_t omp_get_thread_limit_() { return omp_get_thread_limit(); }
LOOM_OMP_API void omp_set_max_active_levels_(const std::int32_t* n) { omp_set_max_active_levels(*n); }
LOOM_OMP_API void omp_set_max_active_levels_8_(const std::int64_t* n) {
    omp_set_max_active_levels(to_int(*n));
}
LOOM_OMP_API std::int32_t omp_get_max_active_levels_() { return omp_get_max_active_levels(); }
LOOM_OMP_API std::int32_t omp_get_supported_active_levels_() { return omp_get_supported_active_levels(); }
LOOM_OMP_API std::int32_t omp_get_level_() { return omp_get_level(); }
LOOM_OMP_API std::int32_t omp_get_ancestor_thread_num_(const std::int32_t* level) {
    return omp_get_ancestor_thread_num(*level);
}
LOOM_OMP_API std::int32_t omp_get_ancestor_thread_num_8_(const std::int64_t* level) {
    return omp_get_ancestor_thread_num(to_int(*level));
}
LOOM_OMP_API std::int32_t omp_get_team_size_(const std::int32_t* level) { return omp_get_team_size(*level); }
LOOM_OMP_API std::int32_t omp_get_team_size_8_(const std::int64_t* level) {
    return omp_get_team_size(to_int(*level));
}
LOOM_OMP_API std::int32_t omp_get_active_level_() { return omp_get_active_level(); }
LOOM_OMP_API std::int32_t omp_in_final_() { return omp_in_final(); }
LOOM_OMP_API std::int32_t omp_get_cancellation_() { return omp_get_cancellation(); }
LOOM_OMP_API std::int32_t omp_get_max_task_priority_() { return omp_get_max_task_priority(); }
LOOM_OMP_API void omp_fulfill_event_(std::intptr_t event) {
    omp_fulfill_event(static_cast<std::uintptr_t>(event));
}

// ---- teams ----------------------------------------------------------------------------------

LOOM_OMP_API void omp_set_num_teams_(const std::int32_t* n) { omp_set_num_teams(*n); }
LOOM_OMP_API void omp_set_num_teams_8_(const std::int64_t* n) { omp_set_num_teams(to_int(*n)); }
LOOM_OMP_API std::int32_t omp_get_max_teams_() { return omp_get_max_teams(); }
LOOM_OMP_API void omp_set_teams_thread_limit_(const std::int32_t* n) { omp_set_teams_thread_limit(*n); }
LOOM_OMP_API void omp_set_teams_thread_limit_8_(const std::int64_t* n) {
    omp_set_teams_thread_limit(to_int(*n));
}
LOOM_OMP_API std::int32_t omp_get_teams_thread_limit_() { return omp_get_teams_thread_limit(); }
LOOM_OMP_API std::int32_t omp_get_num_teams_() { return omp_get_num_teams(); }
LOOM_OMP_API std::int32_t omp_get_team_num_() { return omp_get_team_num(); }

// ---- places ---------------------------------------------------------------------------------

LOOM_OMP_API std::int32_t omp_get_proc_bind_() { return omp_get_proc_bind(); }
LOOM_OMP_API std::int32_t omp_get_num_places_() { return omp_get_num_places(); }
LOOM_OMP_API std::int32_t omp_get_place_num_procs_(const std::int32_t* place) {
    return omp_get_place_num_procs(*place);
}
LOOM_OMP_API std::int32_t omp_get_place_num_procs_8_(const std::int64_t* place) {
    return omp_get_place_num_procs(to_int(*place));
}
LOOM_OMP_API void omp_get_place_proc_ids_(const std::int32_t* place, std::int32_t* ids) {
    omp_get_place_proc_ids(*place, ids);
}
LOOM_OMP_API void omp_get_place_proc_ids_8_(const std::int64_t* place, std::int64_t* ids) {
    const int p = to_int(*place);
    std::vector<int> narrow(static_cast<std::size_t>(std::max(omp_get_place_num_procs(p), 0)));
    omp_get_place_proc_ids(p, narrow.data());
    std::copy(narrow.begin(), narrow.end(), ids);
}
LOOM_OMP_API std::int32_t omp_get_place_num_() { return omp_get_place_num(); }
LOOM_OMP_API std::int32_t omp_get_partition_num_places_() { return omp_get_partition_num_places(); }
LOOM_OMP_API void omp_get_partition_place_nums_(std::int32_t* nums) { omp_get_partition_place_nums(nums); }
LOOM_OMP_API void omp_get_partition_place_nums_8_(std::int64_t* nums) {
    std::vector<int> narrow(static_cast<std::size_t>(std::max(omp_get_partition_num_places(), 0)));
    omp_get_partition_place_nums(narrow.data());
    std::copy(narrow.begin(), narrow.end(), nums);
}

// ---- devices --------------------------------------------------------------------------------

LOOM_OMP_API void omp_set_default_device_(const std::int32_t* d) { omp_set_default_device(*d); }
LOOM_OMP_API void omp_set_default_device_8_(const std::int64_t* d) { omp_set_default_device(to_int(*d)); }
LOOM_OMP_API std::int32_t omp_get_default_device_() { return omp_get_default_device(); }
LOOM_OMP_API std::int32_t omp_get_num_devices_() { return omp_get_num_devices(); }
LOOM_OMP_API std::int32_t omp_is_initial_device_() { return omp_is_initial_device(); }
LOOM_OMP_API std::int32_t omp_get_initial_device_() { return omp_get_initial_device(); }
LOOM_OMP_API std::int32_t omp_get_device_num_() { return omp_get_device_num(); }

// ---- affinity format (CHARACTER arguments) --------------------------------------------------

LOOM_OMP_API void omp_set_affinity_format_(const char* format, std::size_t len) {
    omp_set_affinity_format(c_string(format, len).c_str());
}
LOOM_OMP_API std::int32_t omp_get_affinity_format_(char* buffer, std::size_t len) {
    std::string text(len + 1, '\0');
    const std::size_t n = omp_get_affinity_format(text.data(), text.size());
    text.resize(std::min(n, len));
    blank_padded(text, buffer, len);
    return static_cast<std::int32_t>(n);
}
LOOM_OMP_API void omp_display_affinity_(const char* format, std::size_t len) {
    omp_display_affinity(len ? c_string(format, len).c_str() : nullptr);
}
LOOM_OMP_API std::int32_t omp_capture_affinity_(char* buffer, const char* format,
                                               std::size_t buffer_len, std::size_t format_len) {
    const std::string fmt = c_string(format, format_len);
    const char* f = format_len ? fmt.c_str() : nullptr;
    std::string text(buffer_len + 1, '\0');
    const std::size_t n = omp_capture_affinity(text.data(), text.size(), f);
    text.resize(std::min(n, buffer_len));
    blank_padded(text, buffer, buffer_len);
    return static_cast<std::int32_t>(n);
}

// ---- resources, allocators, environment -----------------------------------------------------

LOOM_OMP_API std::int32_t omp_pause_resource_(const std::int32_t* kind, const std::int32_t* device) {
    return omp_pause_resource(*kind, *device);
}
LOOM_OMP_API std::int32_t omp_pause_resource_all_(const std::int32_t* kind) {
    return omp_pause_resource_all(*kind);
}
LOOM_OMP_API std::intptr_t omp_init_allocator_(const std::intptr_t* space, const std::int32_t* ntraits,
                                              const void* traits) {
    return static_cast<std::intptr_t>(
        omp_init_allocator(static_cast<std::uintptr_t>(*space), *ntraits, traits));
}
LOOM_OMP_API std::intptr_t omp_init_allocator_8_(const std::intptr_t* space, const std::int64_t* ntraits,
                                                const void* traits) {
    return static_cast<std::intptr_t>(
        omp_init_allocator(static_cast<std::uintptr_t>(*space), to_int(*ntraits), traits));
}
LOOM_OMP_API void omp_destroy_allocator_(const std::intptr_t* a) {
    omp_destroy_allocator(static_cast<std::uintptr_t>(*a));
}
LOOM_OMP_API void omp_set_default_allocator_(const std::intptr_t* a) {
    omp_set_default_allocator(static_cast<std::uintptr_t>(*a));
}
LOOM_OMP_API std::intptr_t omp_get_default_allocator_() {
    return static_cast<std::intptr_t>(omp_get_default_allocator());
}
LOOM_OMP_API void omp_display_env_(const std::int32_t* verbose) { omp_display_env(*verbose); }
LOOM_OMP_API void omp_display_env_8_(const std::int64_t* verbose) { omp_display_env(*verbose != 0); }
