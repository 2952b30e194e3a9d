/* One process, two compilers: the interface of the OpenMP library built twice from
 * mixed_lib.c (by clang -fopenmp: libmixed_clang.so, kmpc ABI; by gcc -fopenmp:
 * libmixed_gcc.so, GOMP ABI), and the record each call fills in. */
#ifndef LOOM_TESTS_OMP_MIXED_H
#define LOOM_TESTS_OMP_MIXED_H

#define MIXED_MAX_TIDS 256

struct mixed_report {
    long result;               /* sum over the tasks' work */
    int team_size;             /* omp_get_num_threads() in the region */
    int ntids;                 /* distinct OS thread ids (gettid) of members and task runners */
    int tids[MIXED_MAX_TIDS];
    const char* compiler;      /* who built the library */
};

#ifdef __cplusplus
extern "C" {
#endif
/* A parallel region of `threads` members; one member creates `ntasks` tasks, each
 * computing sum(i*i, i < 1000 + k) for its index k; every member and every task records
 * the OS thread it runs on. */
void mixed_clang_work(int threads, int ntasks, struct mixed_report* r);
void mixed_gcc_work(int threads, int ntasks, struct mixed_report* r);
#ifdef __cplusplus
}
#endif

static inline long mixed_expected(int ntasks) {
    long total = 0;
    for (int k = 0; k < ntasks; ++k)
        for (long i = 0; i < 1000 + k; ++i) total += i * i;
    return total;
}

#endif
