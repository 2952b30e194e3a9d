/* fib(20) with an OpenMP task per call (21890 tasks) and one nested region, for the
 * loomrun tests: the trace must hold one slice per task. */
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

int main(void) {
    long r = 0;
#pragma omp parallel
#pragma omp single
    r = fib(20);
    printf("fib(20) = %ld\n", r);
    return r != 6765;
}
