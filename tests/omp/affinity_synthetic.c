// OpenMP places, binding and affinity strings on a machine this one is not: a
// synthetic hwloc topology of 2 sockets x 2 NUMA domains x 8 cores x 2 hardware
// threads (64 processors), which reaches the OpenMP layer through loom's one topology
// source; bindings are computed and reported, not applied. Each case runs in a fresh
// process (places are read once) with its own OMP_PLACES / OMP_PROC_BIND /
// KMP_HW_SUBSET, and checks the places, each thread's place and its %A string.
// A loom feature (the peers read the real machine).
// loom-test: runtimes loom
// loom-test: threads 4
#define _GNU_SOURCE
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

struct test_case {
    const char* places;
    const char* bind;
    const char* subset;  // KMP_HW_SUBSET or NULL
    int threads;
    int num_places;
    const char* masks[4];  // %A of threads 0..threads-1
};

static const struct test_case cases[] = {
    {"numa_domains", "spread", NULL, 4, 4, {"0-15", "16-31", "32-47", "48-63"}},
    {"sockets", "spread", NULL, 2, 2, {"0-31", "32-63"}},
    {"cores", "close", NULL, 3, 32, {"0,1", "2,3", "4,5"}},
    {"threads", "close", NULL, 2, 64, {"0", "1"}},
    {"cores", "spread", NULL, 4, 32, {"0,1", "16,17", "32,33", "48,49"}},
    {"threads", "close", "1s,4c,1t", 4, 4, {"0", "2", "4", "6"}},
    {"threads", "close", "2s@0,2c@1,1t", 4, 4, {"2", "4", "34", "36"}},
    {"{0:4}:4:8,!{8:4}", "close", NULL, 3, 3, {"0-3", "16-19", "24-27"}},
    {"{0:8,!2}", "close", NULL, 2, 1, {"0,1,3-7", "0,1,3-7"}},
    // OMP_PROC_BIND without OMP_PLACES: the cores, as libomp (was one place of all 64).
    {NULL, "spread", NULL, 4, 32, {"0,1", "16,17", "32,33", "48,49"}},
    {NULL, "true", NULL, 2, 32, {"0,1", "32,33"}},
};
#define NCASES ((int)(sizeof cases / sizeof cases[0]))

static int run_case(const struct test_case* c) {
    CHECK(omp_get_num_places() == c->num_places);
    char got[4][128];
    int bound[4];
#pragma omp parallel num_threads(c->threads)
    {
        int t = omp_get_thread_num();
        omp_capture_affinity(got[t], sizeof got[t], "%A");
        bound[t] = omp_get_place_num();
    }
    for (int t = 0; t < c->threads; ++t) {
        if (strcmp(got[t], c->masks[t]) != 0)
            printf("OMP_PLACES=%s OMP_PROC_BIND=%s thread %d: %%A '%s', expected '%s'\n",
                   c->places ? c->places : "unset",
                   c->bind, t, got[t], c->masks[t]);
        CHECK(strcmp(got[t], c->masks[t]) == 0);
        CHECK(bound[t] >= 0);
    }
    return failures ? 1 : 0;
}

int main(int argc, char** argv) {
    if (argc == 2) return run_case(&cases[atoi(argv[1])]);
    for (int i = 0; i < NCASES; ++i) {
        pid_t pid = fork();
        if (pid == 0) {
            char index[16];
            snprintf(index, sizeof index, "%d", i);
            setenv("HWLOC_SYNTHETIC", "pack:2 numa:2 core:8 pu:2", 1);
            if (cases[i].places) setenv("OMP_PLACES", cases[i].places, 1);
            else unsetenv("OMP_PLACES");
            setenv("OMP_PROC_BIND", cases[i].bind, 1);
            if (cases[i].subset) setenv("KMP_HW_SUBSET", cases[i].subset, 1);
            char* args[] = {argv[0], index, NULL};
            execv("/proc/self/exe", args);
            _exit(3);
        }
        int status = 0;
        waitpid(pid, &status, 0);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
            printf("case %d (OMP_PLACES=%s) failed\n", i,
                   cases[i].places ? cases[i].places : "unset");
        CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    if (failures) return 1;
    printf("affinity_synthetic: %d cases as expected\n", NCASES);
    return 0;
}
