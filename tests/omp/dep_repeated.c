// Task dependences with an address named more than once in one construct's lists
// (the runtime handles the repeat in place: the merged kind is out when the kinds
// differ), and omp_all_memory listed after other items (clang only).
// loom-test: threads 4
#include <omp.h>
#include <stdio.h>

#include "check.h"
#include "spin_for.h"

int main(void) {
#pragma omp parallel
#pragma omp single
    {
        // in + out on x: after the writer and the reader before it, before the reader
        // after it.
        int x = 0, r1 = -1, r2 = -1;
#pragma omp task depend(out : x) shared(x)
        {
            spin(2000);
            x = 1;
        }
#pragma omp task depend(in : x) shared(x, r1)
        {
            spin(2000);
            r1 = x;
        }
#pragma omp task depend(in : x) depend(out : x) shared(x)
        x = 2;
#pragma omp task depend(in : x) shared(x, r2)
        r2 = x;
#pragma omp taskwait
        CHECK(r1 == 1 && r2 == 2 && x == 2);

        // out + in on y: a writer.
        int y = 0, ry = -1;
#pragma omp task depend(in : y) shared(y, ry)
        {
            spin(2000);
            ry = y;
        }
#pragma omp task depend(out : y) depend(in : y) shared(y)
        y = 5;
#pragma omp task depend(in : y) shared(y)
        y += 1;
#pragma omp taskwait
        CHECK(ry == 0 && y == 6);

        // in twice on z: one reader; the writer after it waits for it.
        int z = 7, rz = -1;
#pragma omp task depend(in : z) depend(in : z) shared(z, rz)
        {
            spin(2000);
            rz = z;
        }
#pragma omp task depend(out : z) shared(z)
        z = 8;
#pragma omp taskwait
        CHECK(rz == 7 && z == 8);

        // mutexinoutset + in on m: a writer after the members before it.
        int m = 0, cm = -1;
        for (int i = 0; i < 4; ++i) {
#pragma omp task depend(mutexinoutset : m) shared(m)
            {
                spin(300);
                m += 1;
            }
        }
#pragma omp task depend(mutexinoutset : m) depend(in : m) shared(m, cm)
        cm = m;
#pragma omp taskwait
        CHECK(cm == 4 && m == 4);

        // Chains with the repeat on every task keep their order.
        int chain = 0, bad = 0;
        for (int i = 0; i < 500; ++i) {
#pragma omp task depend(in : chain) depend(out : chain) firstprivate(i) shared(chain, bad)
            {
                if (chain != i) bad = 1;
                chain = i + 1;
            }
        }
#pragma omp taskwait
        CHECK(!bad && chain == 500);

#if defined(__clang__)  // gcc 12 has no omp_all_memory
        // omp_all_memory after another item: after the tasks before it, before those
        // after it.
        int a = 0, b = 0, ra = -1;
#pragma omp task depend(out : a) shared(a)
        {
            spin(2000);
            a = 1;
        }
#pragma omp task depend(in : b) depend(out : omp_all_memory) shared(a, b)
        {
            b = a + 1;
        }
#pragma omp task depend(in : b) shared(b, ra)
        ra = b;
#pragma omp taskwait
        CHECK(a == 1 && b == 2 && ra == 2);
#endif
    }
    if (failures) return 1;
    printf("dep_repeated: all passed\n");
    return 0;
}
