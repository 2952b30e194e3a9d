// An OpenMP program built against the system's libomp (clang -fopenmp) that must run
// on loom's installed libomp.so through LD_LIBRARY_PATH. It checks its own result
// and reports which runtime library is mapped into the process.
#include <omp.h>
#include <stdio.h>
#include <string.h>

static int runtime_is_loom(void) {
    FILE* maps = fopen("/proc/self/maps", "r");
    char line[4096];
    int found = 0;
    if (!maps) return 0;
    while (!found && fgets(line, sizeof line, maps))
        found = strstr(line, "libloom-omp") != NULL;
    fclose(maps);
    return found;
}

int main(void) {
    enum { n = 10000 };
    long sum = 0;
#pragma omp parallel for reduction(+ : sum)
    for (int i = 1; i <= n; ++i) sum += i;
    if (sum != (long)n * (n + 1) / 2) {
        fprintf(stderr, "omp_consumer: wrong sum %ld\n", sum);
        return 1;
    }
    if (!runtime_is_loom()) {
        fprintf(stderr, "omp_consumer: libloom-omp is not loaded\n");
        return 1;
    }
    printf("omp_consumer: sum %ld on libloom-omp, %d threads available\n", sum, omp_get_max_threads());
    return 0;
}
