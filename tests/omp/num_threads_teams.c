// Host teams with num_teams(lb:ub) and thread_limit (libomp 19's
// __kmpc_push_num_teams_51): the number of teams lies in the bounds, every team's
// parallel region has the same size, within the limit, and all teams run it.
// loom-test: threads 4
#include <omp.h>
#include <stdio.h>

extern int __kmpc_global_thread_num(void*);
extern void __kmpc_push_num_teams_51(void*, int, int, int, int);

static int check(int lb, int ub, int limit) {
    int nteams = 0, size0 = 0, count = 0, uneven = 0;
    __kmpc_push_num_teams_51(NULL, __kmpc_global_thread_num(NULL), lb, ub, limit);
#pragma omp teams reduction(+ : uneven)
    {
        if (omp_get_team_num() == 0) nteams = omp_get_num_teams();
        int team = omp_get_team_num();
#pragma omp parallel reduction(+ : uneven)
        {
            if (team == 0 && omp_get_thread_num() == 0) size0 = omp_get_num_threads();
#pragma omp atomic
            count++;
            if (limit && omp_get_num_threads() > limit) uneven++;
        }
    }
    int lo = lb ? lb : 1, hi = ub ? ub : nteams;
    if (nteams < lo || nteams > hi || uneven || count != nteams * size0) {
        printf("FAILED (%d:%d, %d): %d teams of %d, %d threads ran, %d over the limit\n", lb,
               ub, limit, nteams, size0, count, uneven);
        return 1;
    }
    return 0;
}

int main(void) {
    omp_set_num_threads(8);
    int failures = 0;
    for (int rep = 0; rep < 5; ++rep) {
        failures += check(1, 8, 2);
        failures += check(2, 2, 2);
        failures += check(2, 2, 0);
        failures += check(8, 16, 2);
        failures += check(9, 16, 0);
        failures += check(2, 3, 0);
        failures += check(0, 0, 2);
        failures += check(0, 4, 0);
        failures += check(3, 3, 1);
    }
    if (failures) return 1;
    printf("num_threads_teams: all passed\n");
    return 0;
}
