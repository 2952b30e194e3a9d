// A strict num_threads clause from a thread outside the pool is not cut by the count of
// outside masters (parallel/outside_masters.hpp): fewer threads than a strict clause
// names is an error (OpenMP 6.0), so on a pool of 2 a pthread's strict region of 2
// beside another pthread's region of one thread (which leaves worker 1 free but takes
// a CPU) still gets 2 threads, silently, where a plain one would run alone.
// loom-test: threads 2
// loom-test: compilers clang
// loom-test: runtimes loom libomp
// loom-test: timeout 60
#include <omp.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>

#include "check.h"

extern int __kmpc_global_thread_num(void*);
extern void __kmpc_push_num_threads_strict(void*, int, int, int, const char*);

static atomic_int first_in, second_size;

static void* first(void* arg) {
    (void)arg;
#pragma omp parallel num_threads(1)
    {
        atomic_store(&first_in, 1);
        while (atomic_load(&second_size) == 0) sched_yield();
    }
    return NULL;
}

static void* second(void* arg) {
    (void)arg;
    while (atomic_load(&first_in) == 0) sched_yield();
    int size = 0;
    __kmpc_push_num_threads_strict(NULL, __kmpc_global_thread_num(NULL), 2, 1,
                                   "strict region cut: this message must not appear");
#pragma omp parallel
#pragma omp master
    size = omp_get_num_threads();
    atomic_store(&second_size, size);
    return NULL;
}

int main(void) {
    CHECK(omp_get_max_threads() == 2);
    pthread_t a, b;
    pthread_create(&a, NULL, first, NULL);
    pthread_create(&b, NULL, second, NULL);
    pthread_join(b, NULL);
    pthread_join(a, NULL);
    CHECK(atomic_load(&second_size) == 2);
    if (failures == 0) printf("outside_masters_strict: all passed\n");
    return failures != 0;
}
