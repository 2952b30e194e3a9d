// Under binding asked for by the user (here OMP_PLACES=threads, OMP_PROC_BIND=close:
// every team thread, the main thread too, is bound to one processor), what the process
// sees stays the process's: omp_get_num_procs() counts the processors the program
// started with, never the bound thread's one place, and a fork child — forked by the
// main thread or by another team thread — gets that mask back and the parent's default
// team size, as libomp's fork handler does. Before, the child kept the forking thread's
// one-processor mask (nproc 1, a default team of 1).
// affinity_process_mask_pinned.c runs the same under the scheduler's own pinning.
// loom-test: env OMP_PLACES=threads OMP_PROC_BIND=close
// loom-test: timeout 120
// loom-test: no-tsan forks a multi-threaded process, which TSan does not support
#define _GNU_SOURCE
#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

static cpu_set_t g_start;

static int same_as_start(void) {
    cpu_set_t now;
    CPU_ZERO(&now);
    return sched_getaffinity(0, sizeof now, &now) == 0 && CPU_EQUAL(&now, &g_start);
}

static int team_size(void) {
    int n = 0;
#pragma omp parallel
    {
#pragma omp single
        n = omp_get_num_threads();
    }
    return n;
}

// Forks; the child reports its mask, omp_get_num_procs and default team size as exit
// bits. Returns the child's exit code (-1: it did not exit).
static int fork_child_status(int procs, int team) {
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        int bad = 0;
        if (!same_as_start()) bad |= 1;
        if (omp_get_num_procs() != procs) bad |= 2;
        if (team_size() != team) bad |= 4;
        _exit(bad);
    }
    int status = -1;
    if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) return -1;
    return WEXITSTATUS(status);
}

int main(void) {
    CPU_ZERO(&g_start);
    CHECK(sched_getaffinity(0, sizeof g_start, &g_start) == 0);
    const int procs = CPU_COUNT(&g_start);
    const int team = omp_get_max_threads();

    CHECK(team_size() == team);
    CHECK(omp_get_num_procs() == procs);
    int inside_ok = 1;
#pragma omp parallel reduction(&& : inside_ok)
    inside_ok = omp_get_num_procs() == procs;
    CHECK(inside_ok);

    int from_main = fork_child_status(procs, team);
    if (from_main != 0) printf("child of the main thread: %d (1: mask, 2: num_procs, 4: team)\n", from_main);
    CHECK(from_main == 0);

    int from_member = 0;
#pragma omp parallel num_threads(2)
    if (omp_get_thread_num() == omp_get_num_threads() - 1) from_member = fork_child_status(procs, team);
    if (from_member != 0) printf("child of a team member: %d (1: mask, 2: num_procs, 4: team)\n", from_member);
    CHECK(from_member == 0);

    CHECK(omp_get_num_procs() == procs);
    if (failures == 0) printf("affinity_process_mask_bound: all passed\n");
    return failures != 0;
}
