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

        // cancel taskgroup: tasks not started yet are skipped. The creator waits until
        // the cancelling task ran (another thread runs it from the creator's queue), so
        // that the other tasks all come after the cancellation whatever the schedule
        // (with the cancelling task first among 1000, a schedule running it last -- the
        // creator's LIFO at the group's end, no thief -- would let all 1000 run).
        int ran = 0, cancelled = 0;
#pragma omp taskgroup
        {
#pragma omp task shared(cancelled)
            {
#pragma omp atomic write
                cancelled = 1;
#pragma omp cancel taskgroup
            }
            for (int seen = 0; !seen;) {
#pragma omp atomic read
                seen = cancelled;
            }
            for (int i = 1; i < 1000; ++i) {
#pragma omp task shared(ran)
                {
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
