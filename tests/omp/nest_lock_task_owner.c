// Nest locks belong to tasks (OpenMP 3.0 and later; libgomp's omp_*_nest_lock@OMP_3.0):
// a nest lock set by the initial task is not held by the implicit task of a nested
// `parallel if(0)` on the same thread, nor by an explicit task, so testing it there
// fails, while the owner nests. The same through the Fortran entry points
// (omp_*_nest_lock_@OMP_3.0, what gfortran's omp_lib calls with an
// integer(omp_nest_lock_kind) variable: libgomp's fortran.c maps them onto the 3.0
// routines; libgomp.fortran/lock-1.f90). libomp (clang's ABI) keeps thread ownership,
// so this runs for the gcc build only.
// loom-test: compilers gcc
// loom-test: runtimes loom libgomp
#include <omp.h>
#include <stdio.h>

static int failures = 0;
#define CHECK(c)                                                                   \
    do {                                                                           \
        if (!(c)) {                                                                \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); \
            failures++;                                                            \
        }                                                                          \
    } while (0)

// gfortran's view: the lock is an integer(kind=8) passed by reference.
typedef long long fortran_nest_lock;
void omp_init_nest_lock_(fortran_nest_lock*);
void omp_destroy_nest_lock_(fortran_nest_lock*);
void omp_unset_nest_lock_(fortran_nest_lock*);
int omp_test_nest_lock_(fortran_nest_lock*);

static void fortran_entry_points(void) {
    fortran_nest_lock l = 0;
    omp_init_nest_lock_(&l);
    CHECK(omp_test_nest_lock_(&l) == 1);
    CHECK(omp_test_nest_lock_(&l) == 2);
    int in_region = -1;
#pragma omp parallel if (0)
    in_region = omp_test_nest_lock_(&l);
    CHECK(in_region == 0);
    int in_task = -1;
#pragma omp task shared(in_task, l) if (0)
    in_task = omp_test_nest_lock_(&l);
    CHECK(in_task == 0);
    CHECK(omp_test_nest_lock_(&l) == 3);
    omp_unset_nest_lock_(&l);
    omp_unset_nest_lock_(&l);
    omp_unset_nest_lock_(&l);
    omp_destroy_nest_lock_(&l);
}

int main(void) {
    fortran_entry_points();
    omp_nest_lock_t l;
    omp_init_nest_lock(&l);
    CHECK(omp_test_nest_lock(&l) == 1);
    CHECK(omp_test_nest_lock(&l) == 2);
    int in_region = -1;
#pragma omp parallel if (0)
    in_region = omp_test_nest_lock(&l);
    CHECK(in_region == 0);  // another task: the lock is held
    int in_task = -1;
#pragma omp task shared(in_task, l) if (0)
    in_task = omp_test_nest_lock(&l);
    CHECK(in_task == 0);
    CHECK(omp_test_nest_lock(&l) == 3);  // the owner still nests
    omp_unset_nest_lock(&l);
    omp_unset_nest_lock(&l);
    omp_unset_nest_lock(&l);
    // Free again: a task may take it, and nest in it.
#pragma omp task shared(in_task, l) if (0)
    {
        in_task = omp_test_nest_lock(&l);
        if (in_task == 1) in_task += omp_test_nest_lock(&l) == 2;
        omp_unset_nest_lock(&l);
        omp_unset_nest_lock(&l);
    }
    CHECK(in_task == 2);
    // Across the threads of a team: exclusive.
    int holders = 0;
#pragma omp parallel num_threads(4) shared(l, holders)
    {
        omp_set_nest_lock(&l);
        omp_set_nest_lock(&l);
        holders++;
        CHECK(holders == 1);
        holders--;
        omp_unset_nest_lock(&l);
        omp_unset_nest_lock(&l);
    }
    omp_destroy_nest_lock(&l);
    if (failures) return 1;
    printf("nest_lock_task_owner: ok\n");
    return 0;
}
