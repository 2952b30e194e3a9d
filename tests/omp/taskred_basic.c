// Task reductions: task_reduction on taskgroups with in_reduction tasks (nested
// groups, several items, user-defined reduction), reduction(task, ...) on parallel and
// worksharing loops.
// loom-test: threads 4
#include <omp.h>
#include <stdio.h>

#include "check.h"

typedef struct { long lo, hi; } range;
#pragma omp declare reduction(rmerge : range : omp_out.lo = omp_in.lo < omp_out.lo ? omp_in.lo : omp_out.lo, omp_out.hi = omp_in.hi > omp_out.hi ? omp_in.hi : omp_out.hi) initializer(omp_priv = {1L << 60, -(1L << 60)})

int main(void) {
    long sum = 0, prod = 1;
    range r = {1L << 60, -(1L << 60)};
#pragma omp parallel
#pragma omp single
    {
#pragma omp taskgroup task_reduction(+ : sum) task_reduction(* : prod) task_reduction(rmerge : r)
        {
            for (int i = 1; i <= 1000; ++i) {
#pragma omp task in_reduction(+ : sum) firstprivate(i)
                sum += i;
            }
            for (int i = 0; i < 20; ++i) {
#pragma omp task in_reduction(* : prod)
                prod *= 2;
            }
            for (int i = -50; i < 50; ++i) {
#pragma omp task in_reduction(rmerge : r) firstprivate(i)
                {
                    if (i < r.lo) r.lo = i;
                    if (i > r.hi) r.hi = i;
                }
            }
            // Nested group with its own reduction; outer item used inside.
            long inner = 0;
#pragma omp taskgroup task_reduction(+ : inner)
            {
                for (int i = 0; i < 100; ++i) {
#pragma omp task in_reduction(+ : inner) in_reduction(+ : sum)
                    {
                        inner += 1;
                        sum += 1;
                    }
                }
            }
            CHECK(inner == 100);
        }
    }
    CHECK(sum == 500500 + 100);
    CHECK(prod == (1L << 20));
    CHECK(r.lo == -50 && r.hi == 49);

    long s2 = 0;
#pragma omp parallel reduction(task, + : s2)
    {
#pragma omp single
        for (int i = 0; i < 100; ++i) {
#pragma omp task in_reduction(+ : s2)
            s2 += 2;
        }
        s2 += 1;
    }
    CHECK(s2 == 200 + omp_get_max_threads());

    long s3 = 0;
#pragma omp parallel
    {
#pragma omp for reduction(task, + : s3)
        for (int i = 0; i < 64; ++i) {
#pragma omp task in_reduction(+ : s3)
            s3 += 3;
        }
    }
    CHECK(s3 == 64 * 3);
    if (failures) return 1;
    printf("taskred_basic: all passed\n");
    return 0;
}
