// omp_get_proc_bind() inside a region that has a proc_bind clause: the clause binds
// that region's team; whether it also becomes the bind-var of the region's implicit
// tasks differs between the two runtimes a program was built for, and loom answers each
// compiler's programs as its own runtime does.
//   gcc (libgomp team.c, gomp_team_start): the clause becomes bind-var of the new
//   implicit tasks unless OMP_PROC_BIND names a policy for their level, and unless
//   bind-var is false.
//   clang (libomp kmp_runtime.cpp, __kmp_fork_call): the clause "overrides
//   proc-bind-var for this parallel region, but does not change proc-bind-var".
// Checked with serialized regions (if(0)) and with a team of two, with OMP_PROC_BIND
// a single policy (close) and a list (spread,close) whose entries win over the clause.
// The test runs itself again for the list, so one program covers both settings.
// loom-test: env OMP_PROC_BIND=close OMP_NUM_THREADS=2 OMP_MAX_ACTIVE_LEVELS=4
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

#if defined(__clang__)
#define CLAUSE_SETS_BIND_VAR 0
#else
#define CLAUSE_SETS_BIND_VAR 1
#endif

// Inside a region with proc_bind(clause) whose encountering task's bind-var is `outer`
// and whose level OMP_PROC_BIND has no entry for.
static omp_proc_bind_t expected_inside(omp_proc_bind_t clause, omp_proc_bind_t outer) { return CLAUSE_SETS_BIND_VAR ? clause : outer; }

static void single_policy(void) {
    CHECK(omp_get_proc_bind() == omp_proc_bind_close);
#pragma omp parallel if (0) proc_bind(master)
    {
        CHECK(omp_get_proc_bind() == expected_inside(omp_proc_bind_master, omp_proc_bind_close));
#pragma omp parallel if (0)  // no clause: inherits whatever the level above has
        CHECK(omp_get_proc_bind() == expected_inside(omp_proc_bind_master, omp_proc_bind_close));
    }
#pragma omp parallel if (0)
    CHECK(omp_get_proc_bind() == omp_proc_bind_close);
    int seen[2] = {-1, -1};
#pragma omp parallel num_threads(2) proc_bind(spread)
    seen[omp_get_thread_num()] = (int)omp_get_proc_bind();
    for (int i = 0; i < 2; ++i) CHECK(seen[i] == (int)expected_inside(omp_proc_bind_spread, omp_proc_bind_close));
}

static void policy_list(void) {
    // Level 0 spread, level 1 close: the list names level 1, so the clause only binds.
    CHECK(omp_get_proc_bind() == omp_proc_bind_spread);
#pragma omp parallel if (0) proc_bind(master)
    {
        CHECK(omp_get_proc_bind() == omp_proc_bind_close);
        // Level 2 has no entry: the last one (close) stays, or the gcc clause replaces it.
#pragma omp parallel if (0) proc_bind(spread)
        CHECK(omp_get_proc_bind() == expected_inside(omp_proc_bind_spread, omp_proc_bind_close));
    }
    int seen[2] = {-1, -1};
#pragma omp parallel num_threads(2) proc_bind(master)
    seen[omp_get_thread_num()] = (int)omp_get_proc_bind();
    for (int i = 0; i < 2; ++i) CHECK(seen[i] == (int)omp_proc_bind_close);
}

int main(int argc, char** argv) {
    (void)argc;
    const char* bind = getenv("OMP_PROC_BIND");
    if (bind && strcmp(bind, "spread,close") == 0) {
        policy_list();
        return failures != 0;
    }
    single_policy();
    if (failures) return 1;
    // The list: this program again, with OMP_PROC_BIND changed before the runtime reads it.
    setenv("OMP_PROC_BIND", "spread,close", 1);
    execv("/proc/self/exe", argv);
    printf("execv failed\n");
    return 1;
}
