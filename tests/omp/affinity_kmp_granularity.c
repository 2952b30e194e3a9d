// KMP_AFFINITY=granularity=core,compact without OMP_PLACES: one place per core, each
// holding that core's hardware threads (sysfs thread_siblings_list).
// loom-test: env KMP_AFFINITY=granularity=core,compact
#define _GNU_SOURCE
#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

// The core siblings of `cpu` as a string like "0-1" or "0,4".
static int siblings(int cpu, char* out, size_t size) {
    char path[128];
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", cpu);
    FILE* f = fopen(path, "r");
    if (!f) return 0;
    int ok = fgets(out, (int)size, f) != NULL;
    fclose(f);
    out[strcspn(out, "\n")] = 0;
    return ok;
}

int main(void) {
    cpu_set_t mask;
    CPU_ZERO(&mask);
    sched_getaffinity(0, sizeof mask, &mask);
    int failures = 0, cores = 0;
    char seen[64][64];
    for (int c = 0; c < CPU_SETSIZE && cores < 64; ++c) {
        if (!CPU_ISSET(c, &mask)) continue;
        char s[64];
        if (!siblings(c, s, sizeof s)) {
            printf("no sysfs topology: nothing to check\n");
            return 0;
        }
        int known = 0;
        for (int i = 0; i < cores; ++i) known |= strcmp(seen[i], s) == 0;
        if (!known) strcpy(seen[cores++], s);
    }
    if (omp_get_num_places() != cores) {
        printf("FAIL: %d places for %d cores\n", omp_get_num_places(), cores);
        ++failures;
    }
    for (int p = 0; p < omp_get_num_places(); ++p) {
        int ids[256];
        int n = omp_get_place_num_procs(p);
        if (n < 1 || n > 256) {
            printf("FAIL: place %d has %d processors\n", p, n);
            ++failures;
            continue;
        }
        omp_get_place_proc_ids(p, ids);
        char s[64];
        siblings(ids[0], s, sizeof s);
        int count = 0;  // the place must hold every usable sibling of its first processor
        for (int c = 0; c < CPU_SETSIZE; ++c) {
            char t[64];
            if (CPU_ISSET(c, &mask) && siblings(c, t, sizeof t) && strcmp(s, t) == 0) ++count;
        }
        if (count != n) {
            printf("FAIL: place %d has %d processors, its core %d\n", p, n, count);
            ++failures;
        }
    }
    if (failures) return 1;
    printf("affinity_kmp_granularity: all passed\n");
    return 0;
}
