// A task with many predecessors: more than the edges a dependence node holds inline
// (4) and than one overflow block (7), through distinct addresses, through readers of
// one address, and through omp_all_memory; also an edge given back when its
// predecessor had already completed. Each waiting task must see every write before it.
// loom-test: threads 2
#include <omp.h>
#include <time.h>

#include "check.h"

enum { N = 40 };

static void nap_us(long us) {
    struct timespec t = {0, us * 1000L};
    nanosleep(&t, NULL);
}

int main(void) {
    int a[N] = {0};
    int seen_all = 0, readers_done = 0, after_all = 0, early = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
    {
        // N writers on N addresses, then one reader of all N: N edges into one node.
        for (int i = 0; i < N; ++i) {
#pragma omp task depend(out : a[i]) firstprivate(i) shared(a)
            {
                nap_us(200 + 50 * (i % 3));
                a[i] = i + 1;
            }
        }
#pragma omp task depend(iterator(k = 0 : N), in : a[k]) shared(a, seen_all)
        {
            int ok = 1;
            for (int i = 0; i < N; ++i) ok = ok && a[i] == i + 1;
            seen_all = ok;
        }

        // N readers of a[0], then a writer of a[0]: N edges again, from one group.
        int count = 0;
        for (int i = 0; i < N; ++i) {
#pragma omp task depend(in : a[0]) shared(count)
            {
                nap_us(100);
#pragma omp atomic
                count++;
            }
        }
#pragma omp task depend(inout : a[0]) shared(count, readers_done)
        readers_done = count;

        // omp_all_memory after tasks on N addresses.
        int b[N] = {0};
        for (int i = 0; i < N; ++i) {
#pragma omp task depend(out : b[i]) firstprivate(i) shared(b)
            {
                nap_us(100);
                b[i] = 1;
            }
        }
#pragma omp task depend(inout : omp_all_memory) shared(b, after_all)
        {
            int s = 0;
            for (int i = 0; i < N; ++i) s += b[i];
            after_all = s;
        }

        // Predecessors already complete: their edges are not needed.
        int c = 0;
#pragma omp task depend(out : c) shared(c)
        c = 1;
#pragma omp taskwait
#pragma omp task depend(in : c) depend(iterator(k = 0 : N), in : b[k]) shared(c, early)
        early = c;
#pragma omp taskwait
    }
    CHECK(seen_all == 1);
    CHECK(readers_done == N);
    CHECK(after_all == N);
    CHECK(early == 1);
    return failures != 0;
}
