// single (nowait, copyprivate), master, masked, barrier, flush, reductions of every
// method clang selects (atomic-capable and user-defined), split barriers.
// loom-test: threads 4
#include <omp.h>
#include <stdio.h>

static int failures = 0;
#define CHECK(c)                                                        \
    do {                                                                \
        if (!(c)) {                                                     \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); \
            failures++;                                                 \
        }                                                               \
    } while (0)

typedef struct {
    double re, im;
} cplx;
#pragma omp declare reduction(cadd : cplx : omp_out.re += omp_in.re, omp_out.im += omp_in.im) \
    initializer(omp_priv = (cplx){0, 0})

int main(void) {
    int singles = 0, masters = 0, masked2 = 0, winners[4] = {0};
#pragma omp parallel
    {
        for (int k = 0; k < 1000; ++k) {
#pragma omp single nowait
            {
#pragma omp atomic
                singles++;
                winners[omp_get_thread_num()]++;
            }
        }
#pragma omp barrier
#pragma omp single
        singles += 0;
#pragma omp master
        masters++;
#pragma omp masked filter(2)
        masked2 += omp_get_thread_num();
    }
    CHECK(singles == 1000);
    CHECK(masters == 1 && masked2 == 2);
    CHECK(winners[0] + winners[1] + winners[2] + winners[3] == 1000);

    // copyprivate broadcasts the single's values.
#pragma omp parallel
    {
        for (int k = 0; k < 200; ++k) {
            int v;
            double d;
#pragma omp single copyprivate(v, d)
            {
                v = k * 7 + omp_get_thread_num() * 0;
                d = k * 0.5;
            }
            if (v != k * 7 || d != k * 0.5) {
#pragma omp atomic
                failures++;
            }
        }
    }

    // Barrier: nobody passes before everybody arrived.
    int arrived = 0;
#pragma omp parallel
    {
        for (int round = 1; round <= 500; ++round) {
#pragma omp atomic
            arrived++;
#pragma omp barrier
            int seen;
#pragma omp atomic read
            seen = arrived;
            if (seen < round * omp_get_num_threads()) {
#pragma omp atomic
                failures++;
            }
#pragma omp barrier
        }
    }

    // Reductions: atomic-capable, min/max, logical, user-defined (tree method), nowait.
    for (int nt = 1; nt <= 4; ++nt) {
        long s = 0;
        double p = 1;
        int mx = -1, mn = 1 << 30, all = 1, any = 0;
        cplx c = {0, 0};
#pragma omp parallel for num_threads(nt) reduction(+ : s) reduction(* : p) reduction(max : mx) \
    reduction(min : mn) reduction(&& : all) reduction(|| : any) reduction(cadd : c)
        for (int i = 1; i <= 20; ++i) {
            s += i;
            p *= 1.5;
            if (i > mx) mx = i;
            if (i < mn) mn = i;
            all = all && (i > 0);
            any = any || (i == 13);
            c.re += i;
            c.im -= i;
        }
        CHECK(s == 210 && mx == 20 && mn == 1 && all && any);
        CHECK(p > 3325.25 && p < 3325.26);
        CHECK(c.re == 210 && c.im == -210);
        long t = 0;
#pragma omp parallel num_threads(nt)
        {
#pragma omp for reduction(+ : t) nowait
            for (int i = 0; i < 100; ++i) t += i;
#pragma omp barrier
        }
        CHECK(t == 4950);
    }
    // Reduction into an array section.
    int arr[3] = {0, 0, 0};
#pragma omp parallel for reduction(+ : arr[:3])
    for (int i = 0; i < 300; ++i) arr[i % 3] += 1;
    CHECK(arr[0] == 100 && arr[1] == 100 && arr[2] == 100);

    // flush makes a flag written by one member visible to another.
    int flag = 0, data = 0;
#pragma omp parallel num_threads(2)
    {
        if (omp_get_thread_num() == 0) {
            data = 42;
#pragma omp flush
#pragma omp atomic write
            flag = 1;
        } else {
            int f = 0;
            while (!f) {
#pragma omp atomic read
                f = flag;
            }
#pragma omp flush
            if (data != 42) {
#pragma omp atomic
                failures++;
            }
        }
    }
    if (failures) return 1;
    printf("ok\n");
    return 0;
}
