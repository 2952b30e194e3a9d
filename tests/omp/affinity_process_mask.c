// With no binding asked for, the runtime leaves what the process sees as it was: after
// parallel regions the main thread's mask is unchanged, omp_get_num_procs() counts the
// processors of the process, threads created afterwards (other libraries' pools) and
// fork children inherit the full mask, and a child's default team is the parent's.
// Before, the main thread was bound to place 0 by default: omp_get_num_procs() then
// returned 1 on 2 CPUs, `nproc` in a child printed 1, and a fork child got a team of 1.
// loom-test: timeout 60
// loom-test: no-tsan forks a multi-threaded process, which TSan does not support
#define _GNU_SOURCE
#include <omp.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

static int mask_count(void) {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0) return -1;
    return CPU_COUNT(&set);
}

static void* report_mask(void* out) {
    *(int*)out = mask_count();
    return NULL;
}

static int team_size(void) {
    int n = 0;
#pragma omp parallel
#pragma omp single
    n = omp_get_num_threads();
    return n;
}

int main(void) {
    const int cpus = mask_count();
    const int team = team_size();
    for (int r = 0; r < 100; r++) {
#pragma omp parallel
        {
#pragma omp barrier
        }
    }
    printf("cpus %d, team %d, omp_get_num_procs %d, main mask %d\n", cpus, team, omp_get_num_procs(),
           mask_count());
    CHECK(mask_count() == cpus);
    CHECK(omp_get_num_procs() == cpus);

    int thread_mask = 0;
    pthread_t t;
    CHECK(pthread_create(&t, NULL, report_mask, &thread_mask) == 0);
    pthread_join(t, NULL);
    CHECK(thread_mask == cpus);

    // A child process: what `nproc` would print, and its default team.
    int pipefd[2];
    CHECK(pipe(pipefd) == 0);
    pid_t pid = fork();
    if (pid == 0) {
        int got[2] = {mask_count(), team_size()};
        if (write(pipefd[1], got, sizeof got) != (ssize_t)sizeof got) _exit(2);
        _exit(0);
    }
    int got[2] = {0, 0};
    CHECK(read(pipefd[0], got, sizeof got) == (ssize_t)sizeof got);
    int status = 0;
    waitpid(pid, &status, 0);
    printf("child: mask %d, team %d\n", got[0], got[1]);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    CHECK(got[0] == cpus);
    CHECK(got[1] == team);
    if (failures == 0) printf("affinity_process_mask: all passed\n");
    return failures != 0;
}
