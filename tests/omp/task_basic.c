// Explicit tasks: deferred tasks see firstprivate/shared data, taskwait waits for
// children only, if(0) tasks run at once, final tasks make included descendants
// (omp_in_final), omp_in_explicit_task, untied tasks with parts, mergeable, priority,
// large task records (heap path), taskyield, task affinity as a hint.
// loom-test: threads 4
// loom-test: env OMP_MAX_TASK_PRIORITY=10
#include <omp.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

struct big { char bytes[4096]; };

int main(void) {
    CHECK(!omp_in_explicit_task());
    int x = 0, sum = 0;
#pragma omp parallel
#pragma omp single
    {
        CHECK(!omp_in_explicit_task());
        for (int i = 0; i < 100; ++i) {
#pragma omp task firstprivate(i) shared(sum)
            {
                CHECK(omp_in_explicit_task());
#pragma omp atomic
                sum += i;
            }
        }
#pragma omp taskwait
        CHECK(sum == 4950);

        // if(0): runs before the construct completes.
        int done = 0;
#pragma omp task if (0) shared(done)
        {
            CHECK(omp_in_explicit_task());
            done = 1;
        }
        CHECK(done == 1);

        // final: the task and every descendant are final and included.
        int in_final = 0, child_final = 0, child_done = 0;
#pragma omp task final(1) shared(in_final, child_final, child_done)
        {
            in_final = omp_in_final();
#pragma omp task shared(child_final, child_done)
            {
                child_final = omp_in_final();
                child_done = 1;
            }
            CHECK(child_done == 1);  // included: already complete
        }
#pragma omp taskwait
        CHECK(in_final == 1 && child_final == 1);
        CHECK(!omp_in_final());
#pragma omp task final(0) shared(in_final)
        in_final = omp_in_final();
#pragma omp taskwait
        CHECK(in_final == 0);

        // mergeable and untied tasks (with a task and a taskwait inside: parts).
        int m = 0, u = 0;
#pragma omp task mergeable shared(m)
        m = 1;
#pragma omp task untied shared(u)
        {
            int v = 0;
#pragma omp task shared(v)
            v = 41;
#pragma omp taskwait
            u = v + 1;
#pragma omp taskyield
        }
#pragma omp taskwait
        CHECK(m == 1 && u == 42);

        // priorities (any order is allowed; all must run).
        int pr[8] = {0};
        for (int i = 0; i < 8; ++i) {
#pragma omp task priority(i) firstprivate(i) shared(pr)
            pr[i] = i + 1;
        }
#pragma omp taskwait
        for (int i = 0; i < 8; ++i) CHECK(pr[i] == i + 1);
        CHECK(omp_get_max_task_priority() == 10);

        // A task whose private data do not fit the pooled record.
        struct big b;
        memset(b.bytes, 7, sizeof b.bytes);
        long s = 0;
#pragma omp task firstprivate(b) shared(s)
        {
            long t = 0;
            for (int i = 0; i < 4096; ++i) t += b.bytes[i];
            s = t;
        }
#pragma omp taskwait
        CHECK(s == 7 * 4096);

        // affinity is accepted as a hint.
        int arr[16] = {0};
#pragma omp task affinity(arr[0:16]) shared(arr)
        arr[3] = 3;
#pragma omp taskwait
        CHECK(arr[3] == 3);
        x = 1;
    }
    CHECK(x == 1);

    // Tasks outside any parallel region (the initial task's team of one).
    int outside = 0;
#pragma omp task shared(outside)
    outside = 5;
#pragma omp taskwait
    CHECK(outside == 5);

    // taskwait waits for children, not for grandchildren ... but all of them are done
    // by the end of the region.
    int grand = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
    {
#pragma omp task shared(grand)
        {
#pragma omp task shared(grand)
            {
#pragma omp atomic
                grand++;
            }
        }
    }
    CHECK(grand == 1);

    if (failures) return 1;
    printf("task_basic: all passed\n");
    return 0;
}
