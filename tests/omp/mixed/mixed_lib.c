/* The library of the mixed-compiler test (see mixed.h): compiled once by clang
 * (-DMIXED_NAME=mixed_clang_work) and once by gcc (-DMIXED_NAME=mixed_gcc_work). */
#define _GNU_SOURCE
#include <omp.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "mixed.h"

#if defined(__clang__)
#define MIXED_COMPILER "clang"
#else
#define MIXED_COMPILER "gcc"
#endif

static void record(struct mixed_report* r, int tid) {
    int seen = 0;
#pragma omp critical(mixed_record)
    {
        for (int i = 0; i < r->ntids; ++i)
            if (r->tids[i] == tid) seen = 1;
        if (!seen && r->ntids < MIXED_MAX_TIDS) r->tids[r->ntids++] = tid;
    }
}

void MIXED_NAME(int threads, int ntasks, struct mixed_report* r) {
    long total = 0;
    r->result = 0;
    r->team_size = 0;
    r->ntids = 0;
    r->compiler = MIXED_COMPILER;
#pragma omp parallel num_threads(threads)
    {
        record(r, (int)syscall(SYS_gettid));
#pragma omp single
        {
            r->team_size = omp_get_num_threads();
            for (int k = 0; k < ntasks; ++k) {
#pragma omp task firstprivate(k) shared(total)
                {
                    long s = 0;
                    for (long i = 0; i < 1000 + k; ++i) s += i * i;
#pragma omp atomic
                    total += s;
                    record(r, (int)syscall(SYS_gettid));
                }
            }
#pragma omp taskwait
        }
    }
    r->result = total;
}
