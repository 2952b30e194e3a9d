// Two helpers of the task programs here.
//
// gate_open / gate_wait: the team waits in its own code, on a relaxed atomic (which
// orders nothing for ThreadSanitizer), until one thread has created a whole batch of
// tasks; then all of them run the batch at a barrier. No task of a batch ends before
// the batch is created, so no runtime reuses the memory of a finished task (its
// firstprivates, written by the program) for a task of the same batch: every reuse
// comes after a barrier, which the tool sees. Without the gate, a runtime that recycles
// task memory (libomp does, through per-thread free lists) makes ThreadSanitizer report
// the old task's reads against the new task's initialisation, with or without Archer.
//
// busy: a little work per task, so that the whole team, not only the thread that
// created the tasks, takes part.
#pragma once
#include <stdatomic.h>

static atomic_int gate_batches_open;

static inline void gate_open(int batch) {
    atomic_store_explicit(&gate_batches_open, batch + 1, memory_order_relaxed);
}

static inline void gate_wait(int batch) {
    while (atomic_load_explicit(&gate_batches_open, memory_order_relaxed) <= batch) {
    }
}

static inline void busy(int n) {
    for (int k = 0; k < n; k++) __asm__ volatile("" ::: "memory");
}
