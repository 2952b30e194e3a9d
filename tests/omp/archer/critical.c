// Race-free: a shared counter and a shared log updated only inside critical sections
// (an unnamed and a named one). Without Archer, ThreadSanitizer does not see the
// runtime's lock behind `critical` and reports the updates.
#include <omp.h>
#include <stdio.h>

#define ITERS 2000
static long counter;
static int log_len;
static int log_entries[4 * ITERS];

int main(void) {
#pragma omp parallel num_threads(4)
    {
        for (int i = 0; i < ITERS; i++) {
#pragma omp critical
            counter += 2;
#pragma omp critical(log)
            log_entries[log_len++] = omp_get_thread_num();
        }
    }
    int nt = log_len / ITERS;
    int bad = counter != 2L * ITERS * nt || log_len != nt * ITERS;
    printf("critical: counter %ld, log %d entries: %s\n", counter, log_len,
           bad ? "FAILED" : "all passed");
    return bad;
}
