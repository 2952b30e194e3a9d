// With no OMP_STACKSIZE, the threads of a team get the main thread's stack limit (as
// libomp on Linux, LLVM bug 26540): 6 MB of stack in every thread must work when the
// limit is 8 MB or more (the common default); skipped below that.
// loom-test: threads 4
#include <omp.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#define STACK_USE (6 * 1024 * 1024)

__attribute__((noinline)) static long deep(int seed) {
    volatile char buf[STACK_USE];
    memset((char*)buf, seed, sizeof buf);
    long s = 0;
    for (int i = 0; i < STACK_USE; i += 4096) s += buf[i];
    return s;
}

int main(void) {
    struct rlimit r;
    if (getrlimit(RLIMIT_STACK, &r) != 0 || r.rlim_cur < 8u * 1024 * 1024) {
        printf("env_stack_propagate: stack limit below 8 MB, skipped\n");
        return 0;
    }
    long total = 0;
#pragma omp parallel num_threads(4) reduction(+ : total)
    total += deep(1);
    if (total != 4L * (STACK_USE / 4096)) {
        printf("FAILED: %ld\n", total);
        return 1;
    }
    printf("env_stack_propagate: all passed\n");
    return 0;
}
