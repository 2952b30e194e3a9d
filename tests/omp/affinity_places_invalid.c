// A malformed OMP_PLACES warns and falls back to the abstract name it begins with
// ("sockets(" gives sockets), as libomp does.
// loom-test: env OMP_PLACES=sockets(
// loom-test: expect-stderr-loom OMP_PLACES='sockets\(' .*using sockets instead
// loom-test: expect-stderr-libomp OMP_PLACES: syntax error, using sockets
#include <omp.h>
#include <stdio.h>

// Distinct physical_package_id values among the processors this process may use.
static int count_sockets(void) {
    int ids[256], n = 0;
    for (int c = 0; c < 4096; ++c) {
        char path[128];
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", c);
        FILE* f = fopen(path, "r");
        if (!f) break;
        int id = -1;
        if (fscanf(f, "%d", &id) != 1) id = -1;
        fclose(f);
        int known = 0;
        for (int i = 0; i < n; ++i) known |= ids[i] == id;
        if (!known && n < 256) ids[n++] = id;
    }
    return n;
}

int main(void) {
    int n = omp_get_num_places(), sockets = count_sockets();
    if (sockets > 0 && n != sockets) {
        printf("FAIL: %d places for %d sockets\n", n, sockets);
        return 1;
    }
    int total = 0;
    for (int p = 0; p < n; ++p) total += omp_get_place_num_procs(p);
    if (total != omp_get_num_procs()) {
        printf("FAIL: the socket places hold %d processors, not %d\n", total, omp_get_num_procs());
        return 1;
    }
    printf("affinity_places_invalid: all passed\n");
    return 0;
}
