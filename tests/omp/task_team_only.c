// Explicit tasks run on the threads of their team, even when the pool has more workers
// than the team: inside a task, omp_get_thread_num() names the member whose thread
// runs it (its gtid is that member's), so per-thread slots indexed by thread number are
// never shared by two threads at once. A creator that spins (no scheduling point)
// until another member ran its tasks still completes: the idle member takes them.
// loom-test: threads 4
#include <omp.h>
#include <stdio.h>
#include <unistd.h>

int __kmpc_global_thread_num(void*);

#define N 400
static int seen_tid[N], seen_gtid[N];
static int member_gtid[2];

static void work(void) {
    double t = omp_get_wtime() + 20e-6;
    while (omp_get_wtime() < t) {
    }
}

int main(void) {
    int failures = 0;
    for (int rep = 0; rep < 5; ++rep) {
#pragma omp parallel num_threads(2)
        {
            member_gtid[omp_get_thread_num()] = __kmpc_global_thread_num(NULL);
#pragma omp barrier
#pragma omp single
            for (int i = 0; i < N; ++i) {
#pragma omp task firstprivate(i)
                {
                    seen_tid[i] = omp_get_thread_num();
                    seen_gtid[i] = __kmpc_global_thread_num(NULL);
                    work();
                }
            }
        }
        for (int i = 0; i < N; ++i)
            if (seen_tid[i] < 0 || seen_tid[i] > 1 || seen_gtid[i] != member_gtid[seen_tid[i]]) {
                printf("task %d: thread number %d on gtid %d (members: %d, %d)\n", i, seen_tid[i],
                       seen_gtid[i], member_gtid[0], member_gtid[1]);
                failures++;
                break;
            }
    }

    // The primary creates tasks and waits for them without a scheduling point.
    int done = 0;
#pragma omp parallel num_threads(2)
    if (omp_get_thread_num() == 0) {
        for (int i = 0; i < 8; ++i) {
#pragma omp task shared(done)
            {
                if (omp_get_thread_num() != 1) __atomic_fetch_add(&done, 100, __ATOMIC_SEQ_CST);
                __atomic_fetch_add(&done, 1, __ATOMIC_SEQ_CST);
            }
        }
        while (__atomic_load_n(&done, __ATOMIC_SEQ_CST) < 8) usleep(1000);
    }
    if (done != 8) {
        printf("tasks of a spinning primary: done = %d, expected 8 (all by thread 1)\n", done);
        failures++;
    }
    if (failures) return 1;
    printf("task_team_only: all passed\n");
    return 0;
}
