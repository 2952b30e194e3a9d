// OMP_DISPLAY_ENV=true prints the environment block (libomp's format) on stderr.
// loom-test: env OMP_DISPLAY_ENV=true OMP_NUM_THREADS=2 OMP_SCHEDULE=dynamic,3
// loom-test: expect-stderr OPENMP DISPLAY ENVIRONMENT BEGIN.*_OPENMP='201611'.*\[host\] OMP_NUM_THREADS='2'.*\[host\] OMP_SCHEDULE='dynamic,3'.*OPENMP DISPLAY ENVIRONMENT END
#include <omp.h>
#include <stdio.h>

int main(void) {
    int n = 0;
#pragma omp parallel reduction(+ : n)
    n++;
    printf("ok %d\n", n);
    return n == 2 ? 0 : 1;
}
