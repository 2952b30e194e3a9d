// Tasks whose private data span every size of task record: the small record, each
// large class and beyond (a heap block). Many of each size are in flight at once,
// created by one thread and run (and freed) by either, some creating children of
// another size; every task must see its own private data intact and run exactly once.
// loom-test: threads 2
#include <omp.h>
#include <string.h>

#include "check.h"

enum { PER_SIZE = 1500, KINDS = 7 };

#define PAYLOAD(N)                 \
    struct p##N {                  \
        unsigned char b[N];        \
    };
PAYLOAD(8)
PAYLOAD(40)
PAYLOAD(180)
PAYLOAD(400)
PAYLOAD(900)
PAYLOAD(2000)
PAYLOAD(9000)

static void fill(unsigned char* b, int n, int seed) {
    for (int i = 0; i < n; ++i) b[i] = (unsigned char)(seed * 31 + i * 7);
}

static int intact(const unsigned char* b, int n, int seed) {
    for (int i = 0; i < n; ++i)
        if (b[i] != (unsigned char)(seed * 31 + i * 7)) return 0;
    return 1;
}

static int ran[KINDS][PER_SIZE];
static int bad = 0;

// One task with a firstprivate payload of N bytes; with `child`, it creates a task
// with the next payload size down before it checks its own.
#define SPAWN(N, K, SEED, CHILD)                                      \
    do {                                                              \
        struct p##N v;                                                \
        int seed = (SEED);                                            \
        fill(v.b, N, seed);                                           \
        _Pragma("omp task firstprivate(v, seed) shared(ran, bad)")    \
        {                                                             \
            if (CHILD) {                                              \
                struct p40 c;                                         \
                fill(c.b, 40, seed + 1);                              \
                _Pragma("omp task firstprivate(c, seed)")             \
                {                                                     \
                    if (!intact(c.b, 40, seed + 1)) {                 \
                        _Pragma("omp atomic") bad++;                  \
                    }                                                 \
                }                                                     \
            }                                                         \
            if (!intact(v.b, N, seed)) {                              \
                _Pragma("omp atomic") bad++;                          \
            }                                                         \
            _Pragma("omp atomic") ran[K][seed % PER_SIZE]++;          \
        }                                                             \
    } while (0)

int main(void) {
#pragma omp parallel num_threads(2)
#pragma omp single
    for (int i = 0; i < PER_SIZE; ++i) {
        const int child = i % 5 == 0;
        SPAWN(8, 0, i, child);
        SPAWN(40, 1, i, child);
        SPAWN(180, 2, i, child);
        SPAWN(400, 3, i, child);
        SPAWN(900, 4, i, child);
        SPAWN(2000, 5, i, child);
        SPAWN(9000, 6, i, child);
        if (i % 100 == 99) {
#pragma omp taskwait
        }
    }
    CHECK(bad == 0);
    for (int k = 0; k < KINDS; ++k)
        for (int i = 0; i < PER_SIZE; ++i) CHECK(ran[k][i] == 1);

    // taskloop: each generated task carries the loop's firstprivate array.
    struct p400 arr;
    fill(arr.b, 400, 5);
    int sum = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
#pragma omp taskloop grainsize(1) firstprivate(arr) reduction(+ : sum)
    for (int i = 0; i < 1000; ++i) sum += intact(arr.b, 400, 5);
    CHECK(sum == 1000);
    return failures != 0;
}
