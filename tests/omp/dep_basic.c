// Task dependences: read-after-write, write-after-read, write-after-write chains,
// inoutset groups, mutexinoutset mutual exclusion, depobj, omp_all_memory, iterator
// dependences, taskwait depend, undeferred tasks with depend, many addresses (the
// hash has no size limit).
// loom-test: threads 4
#include <omp.h>
#include <stdio.h>
#include <unistd.h>

#include "check.h"
#include "spin_for.h"

int main(void) {
#pragma omp parallel
#pragma omp single
    {
        // RAW / WAR / WAW on one variable, with sleeps to tempt reordering.
        int x = 0, seen1 = -1, seen2 = -1;
#pragma omp task depend(out : x) shared(x)
        {
            spin(2000);
            x = 1;
        }
#pragma omp task depend(in : x) shared(x, seen1)
        {
            spin(1000);
            seen1 = x;
        }
#pragma omp task depend(in : x) shared(x, seen2)
        seen2 = x;
#pragma omp task depend(inout : x) shared(x)
        x = 2;
#pragma omp task depend(out : x) shared(x)
        {
            spin(500);
            x *= 10;
        }
#pragma omp taskwait
        CHECK(seen1 == 1 && seen2 == 1 && x == 20);

        // A chain of 1000 inout tasks keeps order.
        int chain = 0, bad = 0;
        for (int i = 0; i < 1000; ++i) {
#pragma omp task depend(inout : chain) firstprivate(i) shared(chain, bad)
            {
                if (chain != i) bad++;
                chain = i + 1;
            }
        }
#pragma omp taskwait
        CHECK(chain == 1000 && bad == 0);

        // inoutset: members run after the writer, before the next reader, and may
        // run together.
        int s = 0, cnt = 0, after = -1;
#pragma omp task depend(out : s) shared(s)
        {
            spin(1000);
            s = 100;
        }
        for (int i = 0; i < 8; ++i) {
#pragma omp task depend(inoutset : s) shared(s, cnt, bad)
            {
                if (s != 100) bad++;
#pragma omp atomic
                cnt++;
            }
        }
#pragma omp task depend(in : s) shared(cnt, after)
        after = cnt;
#pragma omp taskwait
        CHECK(after == 8 && bad == 0);

        // mutexinoutset: never two at once.
        int inside = 0, overlap = 0, total = 0;
        for (int i = 0; i < 16; ++i) {
#pragma omp task depend(mutexinoutset : total) shared(inside, overlap, total)
            {
                int v;
#pragma omp atomic capture
                v = ++inside;
                if (v != 1) overlap++;
                spin(100);
                total += 1;
#pragma omp atomic
                inside--;
            }
        }
#pragma omp task depend(in : total) shared(total, after)
        after = total;
#pragma omp taskwait
        CHECK(overlap == 0 && after == 16);

        // depobj
        int d = 0, dv = -1;
        omp_depend_t obj;
#pragma omp depobj(obj) depend(out : d)
#pragma omp task depend(depobj : obj) shared(d)
        {
            spin(500);
            d = 7;
        }
#pragma omp depobj(obj) update(in)
#pragma omp task depend(depobj : obj) shared(d, dv)
        dv = d;
#pragma omp taskwait
#pragma omp depobj(obj) destroy
        CHECK(dv == 7);

        // omp_all_memory orders against every address.
        int a = 0, b = 0, sum = -1;
#pragma omp task depend(out : a) shared(a)
        {
            spin(800);
            a = 1;
        }
#pragma omp task depend(out : b) shared(b)
        {
            spin(400);
            b = 2;
        }
#pragma omp task depend(inout : omp_all_memory) shared(a, b, sum)
        sum = a + b;
#pragma omp task depend(in : a) shared(a, sum, bad)
        if (sum != 3) bad++;
#pragma omp taskwait
        CHECK(sum == 3 && bad == 0);

        // iterator dependences: one reader of 64 elements after 64 writers.
        int v[64], total64 = -1;
        for (int i = 0; i < 64; ++i) {
#pragma omp task depend(out : v[i]) firstprivate(i) shared(v)
            {
                spin(i % 3 ? 10 : 300);
                v[i] = i;
            }
        }
#pragma omp task depend(iterator(j = 0 : 64), in : v[j]) shared(v, total64)
        {
            int t = 0;
            for (int j = 0; j < 64; ++j) t += v[j];
            total64 = t;
        }
#pragma omp taskwait
        CHECK(total64 == 64 * 63 / 2);

        // taskwait depend: waits only for the named predecessors.
        int p = 0, q = 0;
#pragma omp task depend(out : p) shared(p)
        {
            spin(1000);
            p = 1;
        }
#pragma omp taskwait depend(in : p)
        CHECK(p == 1);
        (void)q;

        // undeferred task with dependences.
        int u = 0, uv = -1;
#pragma omp task depend(out : u) shared(u)
        {
            spin(1000);
            u = 9;
        }
#pragma omp task if (0) depend(in : u) shared(u, uv)
        uv = u;
        CHECK(uv == 9);

        // 100000 different addresses.
        static char many[100000];
        for (int i = 0; i < 100000; ++i) {
#pragma omp task depend(out : many[i]) firstprivate(i)
            many[i] = 1;
        }
        for (int i = 0; i < 100000; i += 1000) {
#pragma omp task depend(in : many[i]) firstprivate(i) shared(bad)
            if (many[i] != 1) bad++;
        }
#pragma omp taskwait
        CHECK(bad == 0);
    }
    if (failures) return 1;
    printf("dep_basic: all passed\n");
    return 0;
}
