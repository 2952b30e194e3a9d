// A barrier inside a taskgroup completes every explicit task of the region, the
// grandchildren of the members' tasks included (OpenMP 5.2 15.3.1: "all explicit tasks
// generated in the parallel region ... are complete" at a barrier). The taskgroup's
// subtrees are tracked by the group, not by the member that created them, so a barrier
// that waits only for the member's own tasks lets the team go on while grandchildren
// still run. gcc opens such a taskgroup around every worksharing loop with task
// reductions (its GOMP_loop_end barrier is inside it): the reduction is combined after
// that barrier, and a grandchild still running then loses its contribution.
// loom-test: threads 4
// loom-test: compilers clang gcc
#include <omp.h>
#include <stdio.h>

#include "check.h"
#include "spin_for.h"

// Each task creates two children that create two more: only the leaves count.
static void tree(int depth, int* leaves) {
    if (depth == 0) {
        spin(200);
#pragma omp atomic
        (*leaves)++;
        return;
    }
    for (int i = 0; i < 2; i++) {
#pragma omp task firstprivate(leaves)
        tree(depth - 1, leaves);
    }
}

static void explicit_barrier(int rounds) {
    for (int r = 0; r < rounds; r++) {
        int leaves = 0, seen = -1;
#pragma omp parallel num_threads(4) shared(leaves, seen)
        {
#pragma omp taskgroup
            {
#pragma omp single nowait
                tree(3, &leaves);
#pragma omp barrier
#pragma omp single
                {
                    int v;
#pragma omp atomic read
                    v = leaves;
                    seen = v;
                }
            }
        }
        CHECK(seen == 8);
        if (seen != 8) printf("round %d: %d of 8 leaves done at the barrier\n", r, seen);
    }
}

// gcc: GOMP_loop_start registers the reduction in a taskgroup and combines after
// GOMP_loop_end's barrier; clang: the same construct through __kmpc_*.
static void worksharing_task_reduction(int rounds) {
    for (int r = 0; r < rounds; r++) {
        int sum = 0;
#pragma omp parallel num_threads(4)
#pragma omp for reduction(task, + : sum) schedule(dynamic, 1)
        for (int i = 0; i < 8; i++) {
#pragma omp task in_reduction(+ : sum)
            {
                sum += 1;
                for (int j = 0; j < 2; j++) {
#pragma omp task in_reduction(+ : sum)
                    {
                        spin(100);
                        sum += 10;
                    }
                }
            }
        }
        CHECK(sum == 8 * 21);
        if (sum != 8 * 21) printf("round %d: sum %d, want %d\n", r, sum, 8 * 21);
    }
}

int main(void) {
    explicit_barrier(50);
    worksharing_task_reduction(50);
    if (failures == 0) printf("PASS\n");
    return failures != 0;
}
