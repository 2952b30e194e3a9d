// OMP_PLACES with OMP_PROC_BIND=spread: the initial thread is on place 0; in a team of
// T <= P threads, thread i gets a partition of P/T consecutive places starting at
// place i*P/T and runs on its first place, and its OS affinity mask is exactly that
// place's processors.
// loom-test: env OMP_PLACES=threads OMP_PROC_BIND=spread
// loom-test: threads 2
#define _GNU_SOURCE
#include <omp.h>
#include <sched.h>
#include <stdio.h>

// 1 if the calling thread may run exactly on `place`'s processors.
static int mask_is_place(int place) {
    cpu_set_t mask;
    CPU_ZERO(&mask);
    if (place < 0 || sched_getaffinity(0, sizeof mask, &mask) != 0) return 0;
    int ids[1024], n = omp_get_place_num_procs(place);
    if (n < 1 || n > 1024) return 0;
    omp_get_place_proc_ids(place, ids);
    for (int k = 0; k < n; ++k)
        if (!CPU_ISSET(ids[k], &mask)) return 0;
    return CPU_COUNT(&mask) == n;
}

int main(void) {
    int p = omp_get_num_places(), failures = 0;
    if (p < 2) {
        printf("fewer than 2 places: nothing to check\n");
        return 0;
    }
    if (omp_get_place_num() != 0 || !mask_is_place(0)) {
        printf("FAIL: the initial thread is on place %d\n", omp_get_place_num());
        ++failures;
    }
#pragma omp parallel num_threads(2) reduction(+ : failures)
    {
        int t = omp_get_num_threads(), i = omp_get_thread_num();
        int nums[1024], count = omp_get_partition_num_places();
        omp_get_partition_place_nums(nums);
        int want_first = i * (p / t) + (i < p % t ? i : p % t);
        int want_count = p / t + (i < p % t ? 1 : 0);
        if (count != want_count || nums[0] != want_first) {
            printf("FAIL: thread %d of %d has partition %d+%d, expected %d+%d\n", i, t, nums[0],
                   count, want_first, want_count);
            ++failures;
        }
        if (omp_get_place_num() != want_first || !mask_is_place(want_first)) {
            printf("FAIL: thread %d is on place %d, expected %d with its mask\n", i,
                   omp_get_place_num(), want_first);
            ++failures;
        }
    }
    if (failures) return 1;
    printf("affinity_bind: all passed\n");
    return 0;
}
