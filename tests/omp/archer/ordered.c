// Race-free: the ordered regions of a loop append to a shared sequence in iteration
// order. Without Archer, ThreadSanitizer does not see the ordering the runtime imposes
// and reports the appends. (schedule(static, 1): every thread takes part.)
#include <omp.h>
#include <stdio.h>

#define N 1000
static int seq[N];
static int len;

int main(void) {
#pragma omp parallel for ordered schedule(static, 1) num_threads(4)
    for (int i = 0; i < N; i++) {
        int v = i * i % 97;
#pragma omp ordered
        seq[len++] = v;
    }
    int bad = len != N;
    for (int i = 0; i < N && !bad; i++) bad = seq[i] != i * i % 97;
    printf("ordered: %s\n", bad ? "FAILED" : "all passed");
    return bad;
}
