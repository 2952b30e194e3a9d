// LOOM_CRITICAL_PATH=1: when a task completes, the dependent task that six others wait
// for runs before the one that one task waits for, although neither names a
// priority. Both are released by the same root task; thread 1 stays in its own code
// until every task has run, so thread 0 alone runs them (in its taskwait), and
// without the automatic priority its deque would run the one released last (the
// narrow task) first. A loom feature: libomp and libgomp have no automatic priority.
// loom-test: threads 2
// loom-test: runtimes loom
// loom-test: env LOOM_CRITICAL_PATH=1
#include <omp.h>
#include <stdio.h>

#include "check.h"

enum { ROOT, NARROW, NARROW_USER, HUB, HUB_USER, TOTAL = 10 };

static int order[TOTAL], ran = 0;

static void record(int id) {
    int slot;
#pragma omp atomic capture
    slot = ran++;
    order[slot] = id;
}

int main(void) {
    int x = 0, narrow_out = 0, hub_out = 0;
#pragma omp parallel num_threads(2) shared(x, narrow_out, hub_out)
    {
        if (omp_get_thread_num() == 0) {
#pragma omp task depend(out : x)
            record(ROOT);
#pragma omp task depend(in : x) depend(out : narrow_out)
            record(NARROW);
#pragma omp task depend(in : narrow_out)
            record(NARROW_USER);
#pragma omp task depend(in : x) depend(out : hub_out)
            record(HUB);
            for (int i = 0; i < 6; ++i) {
#pragma omp task depend(in : hub_out)
                record(HUB_USER);
            }
#pragma omp taskwait
        } else {
            int seen;
            do {
#pragma omp atomic read
                seen = ran;
            } while (seen < TOTAL);
        }
    }
    (void)x;
    (void)narrow_out;
    (void)hub_out;
    CHECK(ran == TOTAL);
    printf("order:");
    for (int k = 0; k < TOTAL; ++k) printf(" %d", order[k]);
    printf("\n");
    CHECK(order[0] == ROOT);
    CHECK(order[1] == HUB);
    return failures ? 1 : 0;
}
