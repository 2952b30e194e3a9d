// taskgroup waits for all descendants (not only children), nests, and can be
// cancelled; detached tasks complete when their event is fulfilled.
// loom-test: threads 4
// loom-test: env OMP_CANCELLATION=true
#include <omp.h>
#include <stdio.h>

#include "check.h"
#include "spin_for.h"

static void tree(int depth, int* count) {
#pragma omp atomic
    (*count)++;
    if (depth == 0) return;
#pragma omp task
    tree(depth - 1, count);
#pragma omp task
    tree(depth - 1, count);
}

int main(void) {
#pragma omp parallel
#pragma omp single
    {
        int count = 0;
#pragma omp taskgroup
        tree(10, &count);  // no taskwait inside: the group waits for all 2^11-1
        CHECK(count == 2047);

        // Nested taskgroups inside tasks.
        int inner = 0, outer = 0;
#pragma omp taskgroup
        {
#pragma omp task shared(inner, outer)
            {
#pragma omp taskgroup
                {
#pragma omp task shared(inner)
                    {
                        spin(1000);
#pragma omp atomic
                        inner++;
                    }
                }
                CHECK(inner == 1);
#pragma omp task shared(outer)
                {
                    spin(1000);
#pragma omp atomic
                    outer++;
                }
            }
        }
        CHECK(outer == 1);

        // cancel taskgroup: tasks not started yet are skipped.
        int ran = 0;
#pragma omp taskgroup
        {
            for (int i = 0; i < 1000; ++i) {
#pragma omp task shared(ran) firstprivate(i)
                {
                    if (i == 0) {
#pragma omp cancel taskgroup
                    }
                    spin(20);
#pragma omp atomic
                    ran++;
                }
            }
        }
        CHECK(ran < 1000);

        // detach: complete when fulfilled, even after the body ended.
        omp_event_handle_t ev;
        int body = 0, after = 0;
#pragma omp task detach(ev) shared(body)
        body = 1;
#pragma omp task shared(ev)
        {
            spin(2000);
            omp_fulfill_event(ev);
        }
#pragma omp taskwait
        CHECK(body == 1);
        // A detached task that a dependence waits for.
        int dv = 0;
        omp_event_handle_t ev2;
#pragma omp task detach(ev2) depend(out : dv) shared(dv)
        dv = 1;
#pragma omp task depend(in : dv) shared(dv, after)
        after = dv + 1;
        spin(1000);
        CHECK(after == 0);
        omp_fulfill_event(ev2);
#pragma omp taskwait
        CHECK(after == 2);
    }
    if (failures) return 1;
    printf("taskgroup_basic: all passed\n");
    return 0;
}
