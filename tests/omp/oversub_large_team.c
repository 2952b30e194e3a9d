// Teams far larger than the machine, with tasks: num_threads(300) and (1000) on a
// 2-CPU machine, a single member creating 1000 tasks while the others wait in the
// barrier (a task scheduling point), and the same with a taskloop. Every region must
// make steady progress. Before, waiting members lent their workers to the team's tasks
// round after round without ever sleeping or yielding, so the member creating the
// tasks got a sliver of a CPU: about one run in ten stalled for 8-30 s, one spun past
// 90 s. The time limit is the hang guard; the program checks every task ran once.
// loom-test: timeout 40
// loom-test: no-tsan 300 and 1000 workers stealing: TSan serialises their fences (one lock per atomic word), > 200 s
#include <omp.h>
#include <stdio.h>

#include "check.h"

enum { TASKS = 1000 };

static void tasks_from_single(int nthreads) {
    long ran = 0;
    int team = 0;
#pragma omp parallel num_threads(nthreads) shared(ran, team)
#pragma omp single
    {
        team = omp_get_num_threads();
        for (int i = 0; i < TASKS; i++) {
#pragma omp task shared(ran)
            {
#pragma omp atomic
                ran++;
            }
        }
    }
    CHECK(ran == TASKS);
    CHECK(team >= 1 && team <= nthreads);
}

static void taskloop_from_single(int nthreads) {
    static char hit[TASKS];
    for (int i = 0; i < TASKS; i++) hit[i] = 0;
#pragma omp parallel num_threads(nthreads)
#pragma omp single
#pragma omp taskloop grainsize(1)
    for (int i = 0; i < TASKS; i++) hit[i]++;
    int bad = 0;
    for (int i = 0; i < TASKS; i++) bad += hit[i] != 1;
    CHECK(bad == 0);
}

int main(void) {
    const int sizes[] = {300, 1000};
    for (int s = 0; s < 2; s++) {
        for (int r = 0; r < 20; r++) {
            double t0 = omp_get_wtime();
            tasks_from_single(sizes[s]);
            taskloop_from_single(sizes[s]);
            printf("num_threads(%d) round %d: %.3f s\n", sizes[s], r, omp_get_wtime() - t0);
        }
    }
    if (failures == 0) printf("oversub_large_team: all passed\n");
    return failures != 0;
}
