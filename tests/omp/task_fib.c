// Recursive fib with a task per call and no cut-off, at the team's size, plus the
// same inside nested calls with taskwait in tied and untied tasks.
// loom-test: threads 2
#include <omp.h>
#include <stdio.h>

static long fib(int n) {
    long x, y;
    if (n < 2) return n;
#pragma omp task shared(x)
    x = fib(n - 1);
#pragma omp task shared(y)
    y = fib(n - 2);
#pragma omp taskwait
    return x + y;
}

static long fib_untied(int n) {
    long x, y;
    if (n < 2) return n;
#pragma omp task shared(x) untied
    x = fib_untied(n - 1);
#pragma omp task shared(y) untied
    y = fib_untied(n - 2);
#pragma omp taskwait
    return x + y;
}

int main(void) {
    int failures = 0;
    long r = 0, u = 0;
    for (int rep = 0; rep < 3; ++rep) {
#pragma omp parallel
#pragma omp single
        r = fib(25);
        if (r != 75025) {
            printf("fib(25) = %ld\n", r);
            failures++;
        }
    }
#pragma omp parallel
#pragma omp single
    u = fib_untied(22);
    if (u != 17711) {
        printf("fib_untied(22) = %ld\n", u);
        failures++;
    }
    // Every member creates its own tree.
    long per[64] = {0};
#pragma omp parallel
    per[omp_get_thread_num()] = fib(18);
    for (int i = 0; i < omp_get_max_threads(); ++i)
        if (per[i] != 2584) failures++;
    if (failures) return 1;
    printf("task_fib: all passed\n");
    return 0;
}
