// The racy program: race-free reductions, barriers, tasks and a critical section
// around exactly one data race: threads 0 and 1 of a region write `shared_int` with no
// synchronisation, at the line marked ARCHER-RACE. Archer must report that race, once,
// and nothing else. Thread 1 writes after thread 0 (it waits for a relaxed flag, which
// orders nothing for ThreadSanitizer), so only thread 1's write finds the race and the
// race is reported once, not once by each of two writers finding the other at once.
// The tasks are created behind a gate (gate.h).
#include <omp.h>
#include <stdatomic.h>
#include <stdio.h>

#include "gate.h"

#define N 512
static int shared_int;
static int data[N];
static atomic_int first_written;

static void set_shared(int v) {
    shared_int = v;  // ARCHER-RACE
}

int main(void) {
    long sum = 0;
    int visits = 0;
#pragma omp parallel num_threads(4) reduction(+ : sum)
    {
#pragma omp for
        for (int i = 0; i < N; i++) data[i] = i;
#pragma omp for
        for (int i = 0; i < N; i++) sum += data[N - 1 - i];
#pragma omp critical
        visits++;
        int me = omp_get_thread_num();
        if (me == 0) {
            set_shared(1);
            atomic_store_explicit(&first_written, 1, memory_order_relaxed);
        } else if (me == 1) {
            while (!atomic_load_explicit(&first_written, memory_order_relaxed)) {
            }
            set_shared(2);
        }
#pragma omp barrier
#pragma omp masked
        {
            for (int i = 0; i < N; i += 8) {
#pragma omp task firstprivate(i) shared(data)
                for (int k = i; k < i + 8; k++) data[k] *= 2;
            }
            gate_open(0);
        }
        gate_wait(0);
    }
    long expect = (long)N * (N - 1) / 2;  // the loop shares the sum among the team
    long twice = 0;
    for (int i = 0; i < N; i++) twice += data[i];
    int ok = sum == expect && twice == (long)N * (N - 1) && visits == 4 && shared_int == 2;
    printf("racy: sum %ld (expect %ld), doubled %ld, visits %d, last writer %d: %s\n", sum,
           expect, twice, visits, shared_int, ok ? "all passed" : "FAILED");
    return !ok;
}
