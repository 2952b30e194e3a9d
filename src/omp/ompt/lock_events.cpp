// OMPT events of the OpenMP lock routines (events.hpp): each routine of sync/lock.cpp
// and gomp/nest_lock.cpp calls its twin here instead of the plain operation while a
// tool is active. The wait id of a lock is the address of the user's lock object, as
// a tool sees it in its own calls (libomp does the same).
#include <cstdint>

#include "ompt/events.hpp"
#include "sync/lock.hpp"

namespace loom::omp::ompt {

namespace {

std::uint64_t id_of(const void* lk) { return reinterpret_cast<std::uintptr_t>(lk); }

}  // namespace

void lock_init_traced(void* lk, std::uintptr_t hint, bool nest, const char* routine, const void* ra) {
    if (nest) nest_lock_init(lk, hint, routine);
    else simple_lock_init(lk, hint, routine);
    lock_init(nest ? ompt_mutex_nest_lock : ompt_mutex_lock, static_cast<unsigned>(hint), id_of(lk), ra);
}

void lock_destroy_traced(void* lk, bool nest, const char* routine, const void* ra) {
    if (nest) nest_lock_destroy(lk, routine);
    else simple_lock_destroy(lk, routine);
    lock_destroy(nest ? ompt_mutex_nest_lock : ompt_mutex_lock, id_of(lk), ra);
}

void lock_set_traced(void* lk, const char* routine, const void* ra) {
    mutex_acquire(ompt_mutex_lock, 0, id_of(lk), ra);
    simple_lock_set(lk, routine);
    mutex_acquired(ompt_mutex_lock, id_of(lk), ra);
}

void lock_unset_traced(void* lk, const char* routine, const void* ra) {
    simple_lock_unset(lk, routine);
    mutex_released(ompt_mutex_lock, id_of(lk), ra);
}

int lock_test_traced(void* lk, const char* routine, const void* ra) {
    mutex_acquire(ompt_mutex_test_lock, 0, id_of(lk), ra);
    const int got = simple_lock_test(lk, routine);
    if (got) mutex_acquired(ompt_mutex_test_lock, id_of(lk), ra);
    else mutex_released_wait();
    return got;
}

int nest_lock_set_traced(void* lk, const char* routine, std::uintptr_t owner, const void* ra) {
    mutex_acquire(ompt_mutex_nest_lock, 0, id_of(lk), ra);
    const int depth = nest_lock_set(lk, routine, owner);
    // The first acquisition is mutex_acquired; a nested one, nest_lock begin.
    if (depth == 1) mutex_acquired(ompt_mutex_nest_lock, id_of(lk), ra);
    else {
        mutex_released_wait();
        nest_lock(ompt_scope_begin, id_of(lk), ra);
    }
    return depth;
}

void nest_lock_unset_traced(void* lk, const char* routine, std::uintptr_t owner, const void* ra) {
    const int depth = nest_lock_unset(lk, routine, owner);
    if (depth == 0) mutex_released(ompt_mutex_nest_lock, id_of(lk), ra);
    else if (depth > 0) nest_lock(ompt_scope_end, id_of(lk), ra);
}

int nest_lock_test_traced(void* lk, const char* routine, std::uintptr_t owner, const void* ra) {
    mutex_acquire(ompt_mutex_test_nest_lock, 0, id_of(lk), ra);
    const int depth = nest_lock_test(lk, routine, owner);
    if (depth == 1) mutex_acquired(ompt_mutex_test_nest_lock, id_of(lk), ra);
    else {
        mutex_released_wait();
        if (depth > 1) nest_lock(ompt_scope_begin, id_of(lk), ra);
    }
    return depth;
}

}  // namespace loom::omp::ompt
