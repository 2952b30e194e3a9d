// Untied tasks that run undeferred or included must run every part of their body.
// clang splits an untied task into parts; its first part re-queues the task through
// __kmpc_omp_task on itself, so a runtime that only marks the task for re-queueing
// and then completes it (if(0): __kmpc_omp_task_complete_if0) drops the body.
// Covered: if(0), recursive if(depth < 3), final (included children), mergeable,
// a taskwait inside an undeferred untied body, taskloop untied with if(0) / nogroup.
// libomp 19 asserts on an untied if(0) task (kmp_tasking.cpp: the task re-queued
// while it is being executed undeferred), so this runs on loom (and libgomp) only.
// loom-test: runtimes loom libgomp
// loom-test: compilers clang gcc
// loom-test: threads 4
#include <omp.h>
#include <stdio.h>

#include "check.h"

static long fib_serial(int n) { return n < 2 ? n : fib_serial(n - 1) + fib_serial(n - 2); }

static long fib_untied_if(int n, int depth) {
    long x = 0, y = 0;
    if (n < 2) return n;
#pragma omp task untied shared(x) if (depth < 3)
    x = fib_untied_if(n - 1, depth + 1);
#pragma omp task untied shared(y) if (depth < 3)
    y = fib_untied_if(n - 2, depth + 1);
#pragma omp taskwait
    return x + y;
}

static long fib_untied_final(int n, int depth) {
    long x = 0, y = 0;
    if (n < 2) return n;
#pragma omp task untied shared(x) final(depth >= 3)
    x = fib_untied_final(n - 1, depth + 1);
#pragma omp task untied shared(y) final(depth >= 3)
    y = fib_untied_final(n - 2, depth + 1);
#pragma omp taskwait
    return x + y;
}

static void undeferred_loop(void) {
    int ran = 0, seen = 0;
#pragma omp parallel num_threads(4)
#pragma omp single
    for (int i = 0; i < 100; i++) {
        int done = 0;
#pragma omp task untied shared(done, ran) if (0)
        {
            done = 1;
#pragma omp atomic
            ran++;
        }
        seen += done;
    }
    printf("if(0): ran %d seen %d\n", ran, seen);
    CHECK(ran == 100 && seen == 100);
}

static void undeferred_mergeable(void) {
    int ran = 0;
#pragma omp parallel num_threads(4)
#pragma omp single
    for (int i = 0; i < 100; i++) {
        int done = 0;
#pragma omp task untied mergeable shared(done, ran) if (0)
        {
            done = 1;
            ran++;
        }
        CHECK(done == 1);
    }
    CHECK(ran == 100);
}

// An undeferred untied task whose body creates children and waits for them: the
// parts after the taskwait must run before the encountering task goes on.
static void undeferred_with_taskwait(void) {
    int errors = 0;
#pragma omp parallel num_threads(4)
#pragma omp single
    for (int i = 0; i < 50; i++) {
        int a = 0, b = 0, after = 0;
#pragma omp task untied shared(a, b, after) if (0)
        {
#pragma omp task shared(a)
            a = 1;
#pragma omp task shared(b)
            b = 2;
#pragma omp taskwait
            after = a + b;
        }
        if (after != 3) errors++;
    }
    CHECK(errors == 0);
}

static void taskloops(void) {
    enum { N = 1000 };
    static int hits[N];
    for (int i = 0; i < N; i++) hits[i] = 0;
#pragma omp parallel num_threads(4)
#pragma omp single
    {
#pragma omp taskloop untied if (0) grainsize(10)
        for (int i = 0; i < N; i++) hits[i]++;
#pragma omp taskloop untied nogroup grainsize(7)
        for (int i = 0; i < N; i++) {
#pragma omp atomic
            hits[i]++;
        }
#pragma omp taskwait
#pragma omp taskloop untied if (0) nogroup num_tasks(3)
        for (int i = 0; i < N; i++) {
#pragma omp atomic
            hits[i]++;
        }
#pragma omp taskwait
    }
    int bad = 0;
    for (int i = 0; i < N; i++) bad += hits[i] != 3;
    CHECK(bad == 0);
}

int main(void) {
    undeferred_loop();
    undeferred_mergeable();
    undeferred_with_taskwait();
    long want = fib_serial(20);
    long got_if = 0, got_final = 0;
#pragma omp parallel num_threads(4)
#pragma omp single
    {
        got_if = fib_untied_if(20, 0);
        got_final = fib_untied_final(20, 0);
    }
    printf("fib(20): if %ld final %ld want %ld\n", got_if, got_final, want);
    CHECK(got_if == want);
    CHECK(got_final == want);
    taskloops();
    if (failures == 0) printf("task_untied_undeferred: all passed\n");
    return failures != 0;
}
