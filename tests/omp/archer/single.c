// Race-free: a single construct writes shared data and its implicit barrier publishes
// it to the whole team, round after round; the team's reads of one round end at the
// next round's single (also behind a barrier: the reads are before it). Without
// Archer, ThreadSanitizer does not see the barrier and reports the writes and reads.
#include <omp.h>
#include <stdio.h>

#define N 128
#define ROUNDS 16
static int table[N];

int main(void) {
    long seen[4] = {0};
#pragma omp parallel num_threads(4)
    {
        int me = omp_get_thread_num();
        for (int r = 0; r < ROUNDS; r++) {
#pragma omp single
            for (int i = 0; i < N; i++) table[i] = r + i;
            long s = 0;
            for (int i = 0; i < N; i++) s += table[i];
            if (me < 4) seen[me] += s;
#pragma omp barrier
        }
    }
    long expect = 0;
    for (int r = 0; r < ROUNDS; r++) expect += (long)N * r + (long)N * (N - 1) / 2;
    int bad = 0;
    for (int t = 0; t < omp_get_max_threads() && t < 4; t++) bad |= seen[t] != expect;
    printf("single: %s\n", bad ? "FAILED" : "all passed");
    return bad;
}
