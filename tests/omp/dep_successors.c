// libomp's task-graph inspection entry points (__kmpc_task_get_depnode,
// __kmpc_task_get_successors): a successor that shares several addresses with its
// predecessor is linked once; readers of a group of inoutset tasks and the writer
// after them get exactly the edges the dependences call for. The first task waits on
// a gate, so no edge is closed before it is inspected.
// loom-test: threads 2
#include <omp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "check.h"

typedef struct {
    intptr_t addr;
    size_t len;
    unsigned char flags;  // 1 in, 2 out, 8 inoutset
} dep_t;
typedef struct task {
    void* shareds;
    int (*routine)(int, struct task*);
    int part_id;
    void* data1;
    void* data2;
} task_t;
typedef struct node node_t;
typedef struct succ {
    node_t* node;
    struct succ* next;
} succ_t;

task_t* __kmpc_omp_task_alloc(void*, int, int, size_t, size_t, int (*)(int, task_t*));
int __kmpc_omp_task_with_deps(void*, int, task_t*, int, dep_t*, int, dep_t*);
int __kmpc_omp_taskwait(void*, int);
int __kmpc_global_thread_num(void*);
succ_t* __kmpc_task_get_successors(task_t*);
node_t* __kmpc_task_get_depnode(task_t*);

static volatile int gate = 0;

static int wait_gate(int gtid, task_t* t) {
    (void)gtid;
    (void)t;
    while (!__atomic_load_n(&gate, __ATOMIC_ACQUIRE)) {
    }
    return 0;
}
static int nothing(int gtid, task_t* t) {
    (void)gtid;
    (void)t;
    return 0;
}

static task_t* spawn(int gtid, int (*fn)(int, task_t*), int n, dep_t* d) {
    task_t* t = __kmpc_omp_task_alloc(NULL, gtid, 1, sizeof(task_t), 0, fn);
    __kmpc_omp_task_with_deps(NULL, gtid, t, n, d, 0, NULL);
    return t;
}

static int count(succ_t* s) {
    int n = 0;
    for (; s; s = s->next) ++n;
    return n;
}
static int has(succ_t* s, node_t* n) {
    int k = 0;
    for (; s; s = s->next) k += s->node == n;
    return k;
}

int main(void) {
    int x, y, z;
#pragma omp parallel
#pragma omp single
    {
        const int gtid = __kmpc_global_thread_num(NULL);
        dep_t out_xy[2] = {{(intptr_t)&x, 4, 2}, {(intptr_t)&y, 4, 2}};
        dep_t in_xy[2] = {{(intptr_t)&x, 4, 1}, {(intptr_t)&y, 4, 1}};
        dep_t in_x[1] = {{(intptr_t)&x, 4, 1}};
        task_t* a = spawn(gtid, wait_gate, 2, out_xy);
        task_t* b = spawn(gtid, nothing, 2, in_xy);
        task_t* c = spawn(gtid, nothing, 1, in_x);
        succ_t* sa = __kmpc_task_get_successors(a);
        CHECK(__kmpc_task_get_depnode(b) != NULL);
        CHECK(count(sa) == 2);
        CHECK(has(sa, __kmpc_task_get_depnode(b)) == 1);
        CHECK(has(sa, __kmpc_task_get_depnode(c)) == 1);
        CHECK(__kmpc_task_get_successors(b) == NULL);

        // inoutset(z) twice, then in(z) and out(z): the reader waits for both members,
        // the writer only for the reader.
        dep_t set_z[1] = {{(intptr_t)&z, 4, 8}};
        dep_t in_z[1] = {{(intptr_t)&z, 4, 1}};
        dep_t out_z[1] = {{(intptr_t)&z, 4, 2}};
        task_t* s1 = spawn(gtid, wait_gate, 1, set_z);
        task_t* s2 = spawn(gtid, wait_gate, 1, set_z);
        task_t* r = spawn(gtid, wait_gate, 1, in_z);
        task_t* w = spawn(gtid, nothing, 1, out_z);
        node_t* rn = __kmpc_task_get_depnode(r);
        CHECK(count(__kmpc_task_get_successors(s1)) == 1 && has(__kmpc_task_get_successors(s1), rn) == 1);
        CHECK(count(__kmpc_task_get_successors(s2)) == 1 && has(__kmpc_task_get_successors(s2), rn) == 1);
        CHECK(count(__kmpc_task_get_successors(r)) == 1 &&
              has(__kmpc_task_get_successors(r), __kmpc_task_get_depnode(w)) == 1);
        (void)w;

        __atomic_store_n(&gate, 1, __ATOMIC_RELEASE);
        __kmpc_omp_taskwait(NULL, gtid);
    }
    if (failures) return 1;
    printf("dep_successors: all passed\n");
    return 0;
}
