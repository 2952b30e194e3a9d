// Race-free: parallel loops with a reduction, in rounds. Between rounds the initial
// thread rewrites the input that the team reads, and every round's partial sums are
// combined into one shared variable by the runtime's reduction. Without Archer,
// ThreadSanitizer sees neither the fork/join nor the reduction's lock (both inside the
// uninstrumented runtime) and reports races on the input and the sum.
#include <omp.h>
#include <stdio.h>

#define N 4096
#define ROUNDS 8
static int input[N];

int main(void) {
    int bad = 0;
    for (int r = 0; r < ROUNDS; r++) {
        for (int i = 0; i < N; i++) input[i] = i + r;
        long sum = 0;
        double prod = 1.0;
#pragma omp parallel for num_threads(4) reduction(+ : sum) reduction(* : prod) schedule(static, 64)
        for (int i = 0; i < N; i++) {
            sum += input[i];
            if (i % 1024 == 0) prod *= 2.0;
        }
        long expect = (long)N * (N - 1) / 2 + (long)N * r;
        if (sum != expect || prod != 16.0) {
            printf("round %d: sum %ld (expect %ld), prod %g\n", r, sum, expect, prod);
            bad = 1;
        }
    }
    printf("reduction: %s\n", bad ? "FAILED" : "all passed");
    return bad;
}
