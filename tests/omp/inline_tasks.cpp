// Tasks run at once by their encountering thread -- undeferred (if(0)), included
// (descendants of a final task, tasks of a team of one) -- are tasks in their own
// right: their children count as theirs (taskwait waits for them, a taskgroup around
// them catches the ones that outlive them), they have their own data environment
// (firstprivate copies, ICVs set inside them), they own the locks they set, they see
// omp_in_final, and an if(0) task waits for its dependences. gcc runs all of them
// without a heap record unless a child outlives the task (gomp/task.cpp, run_now);
// each case below is one way that identity could be lost.
// loom-test: threads 4
// loom-test: timeout 120
#include <omp.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>

#include "check.h"

namespace {

std::atomic<long> live{0};
std::atomic<long> copies{0};

struct counted {
    int v = 7;
    counted() { ++live; }
    counted(const counted& o) : v(o.v) { ++live, ++copies; }
    counted& operator=(const counted&) = default;
    ~counted() { --live; }
};

// Larger than a runtime would copy onto a fiber's stack.
struct big_counted {
    counted c;
    char bytes[4000] = {};
};

void spin_us(int us) {
    const double end = omp_get_wtime() + us * 1e-6;
    while (omp_get_wtime() < end) {
    }
}

// Children of an if(0) task that are still running when it ends: the taskgroup around
// it waits for all of them, and each saw the if(0) task as its parent's child.
void children_outlive_undeferred_task() {
    std::atomic<int> done{0};
    int early = -1;
#pragma omp parallel
#pragma omp single
    {
#pragma omp taskgroup
        {
#pragma omp task if (0) shared(done, early)
            {
                for (int i = 0; i < 64; ++i) {
#pragma omp task shared(done)
                    {
                        spin_us(200);
                        done.fetch_add(1);
                    }
                }
                early = done.load();
            }
        }
        CHECK(done.load() == 64);
        CHECK(early >= 0 && early <= 64);
    }
}

// taskwait inside an if(0) task waits for that task's children only, and the children
// of an included child count as the included child's.
void taskwait_in_undeferred_task() {
    std::atomic<int> mine{0};
    int seen = -1;
#pragma omp parallel
#pragma omp single
    {
#pragma omp task if (0) shared(mine, seen)
        {
            for (int i = 0; i < 32; ++i) {
#pragma omp task shared(mine)
                {
                    spin_us(100);
                    mine.fetch_add(1);
                }
            }
#pragma omp taskwait
            seen = mine.load();
        }
        CHECK(seen == 32);
    }
}

// final: every descendant is included and final; a taskgroup and a taskwait inside an
// included task still work, and the result is the serial one.
long fib_final(int n, int depth) {
    if (n < 2) return n;
    long x = 0, y = 0;
#pragma omp task shared(x) final(depth >= 3)
    x = fib_final(n - 1, depth + 1);
#pragma omp task shared(y) final(depth >= 3)
    y = fib_final(n - 2, depth + 1);
#pragma omp taskwait
    return x + y;
}

long fib_cutoff(int n, int depth) {
    if (n < 2) return n;
    long x = 0, y = 0;
#pragma omp task shared(x) if (depth < 4)
    x = fib_cutoff(n - 1, depth + 1);
#pragma omp task shared(y) if (depth < 4)
    y = fib_cutoff(n - 2, depth + 1);
#pragma omp taskwait
    return x + y;
}

void recursion_with_cutoffs() {
    long a = 0, b = 0;
#pragma omp parallel
#pragma omp single
    {
        a = fib_final(24, 0);
        b = fib_cutoff(24, 0);
    }
    CHECK(a == 46368);
    CHECK(b == 46368);
}

void final_descendants() {
    int in_final = 0, child_final = 0, grandchild_final = 0, group_done = 0;
#pragma omp parallel
#pragma omp single
    {
#pragma omp task final(1) shared(in_final, child_final, grandchild_final, group_done)
        {
            in_final = omp_in_final();
#pragma omp task shared(child_final, grandchild_final, group_done)
            {
                child_final = omp_in_final();
#pragma omp taskgroup
                {
#pragma omp task shared(grandchild_final)
                    grandchild_final = omp_in_final();
                }
                group_done = grandchild_final;
            }
        }
#pragma omp taskwait
    }
    CHECK(in_final == 1);
    CHECK(child_final == 1);
    CHECK(grandchild_final == 1);
    CHECK(group_done == 1);
}

// An ICV set inside a task is the task's own: the encountering task does not see it
// after the task (its data environment ends with it), whichever way the task ran.
void icvs_end_with_the_task() {
    int before = 0, inside_if0 = 0, after_if0 = 0, inside_team1 = 0, after_team1 = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
    {
        before = omp_get_max_threads();
#pragma omp task if (0) shared(inside_if0)
        {
            omp_set_num_threads(before + 3);
            inside_if0 = omp_get_max_threads();
        }
        after_if0 = omp_get_max_threads();
    }
#pragma omp parallel num_threads(1)
    {
        const int outer = omp_get_max_threads();
#pragma omp task shared(inside_team1)
        {
            omp_set_num_threads(outer + 2);
            inside_team1 = omp_get_max_threads() - outer;
        }
        after_team1 = omp_get_max_threads() - outer;
    }
    CHECK(inside_if0 == before + 3);
    CHECK(after_if0 == before);
    CHECK(inside_team1 == 2);
    CHECK(after_team1 == 0);
}

// A nestable lock set twice by one undeferred task is owned by that task throughout,
// also after the task created a child.
void nest_lock_owned_by_undeferred_task() {
    omp_nest_lock_t l;
    omp_init_nest_lock(&l);
    int depth = 0;
#pragma omp parallel
#pragma omp single
    {
#pragma omp task if (0) shared(l, depth)
        {
            omp_set_nest_lock(&l);
#pragma omp task
            spin_us(10);
            omp_set_nest_lock(&l);
            depth = omp_test_nest_lock(&l);
            omp_unset_nest_lock(&l);
            omp_unset_nest_lock(&l);
            omp_unset_nest_lock(&l);
#pragma omp taskwait
        }
    }
    CHECK(depth == 3);
    omp_destroy_nest_lock(&l);
}

// firstprivate C++ objects of tasks run at once: copied once, each copy destroyed, the
// task's changes stay in its copy; also for a block too large for a stack copy.
void firstprivate_objects() {
    counted small;
    big_counted large;
    int seen_small = 0, seen_large = 0;
    const long copies_before = copies.load();
#pragma omp parallel num_threads(2) shared(seen_small, seen_large)
#pragma omp single
    {
#pragma omp task if (0) firstprivate(small) shared(seen_small)
        {
            small.v += 1;
            seen_small = small.v;
        }
#pragma omp task if (0) firstprivate(large) shared(seen_large)
        {
            large.c.v += 2;
            large.bytes[3999] = 1;
            seen_large = large.c.v + large.bytes[3999];
        }
#pragma omp task final(1) firstprivate(small)
        {
#pragma omp task firstprivate(small) shared(seen_small)
            seen_small += small.v;
        }
#pragma omp taskwait
    }
    CHECK(seen_small == 8 + 7);
    CHECK(seen_large == 10);
    CHECK(small.v == 7);
    CHECK(large.c.v == 7);
    CHECK(live.load() == 2);
    CHECK(copies.load() > copies_before);
}

// An if(0) task waits for the tasks it depends on before it runs.
void undeferred_waits_for_dependences() {
    int x = 0, seen = -1;
#pragma omp parallel
#pragma omp single
    {
#pragma omp task depend(out : x) shared(x)
        {
            spin_us(2000);
            x = 42;
        }
#pragma omp task if (0) depend(in : x) shared(x, seen)
        seen = x;
    }
    CHECK(seen == 42);
}

}  // namespace

int main() {
    for (int round = 0; round < 20; ++round) {
        children_outlive_undeferred_task();
        taskwait_in_undeferred_task();
        final_descendants();
        icvs_end_with_the_task();
        nest_lock_owned_by_undeferred_task();
        firstprivate_objects();
        undeferred_waits_for_dependences();
    }
    recursion_with_cutoffs();
    if (failures == 0) std::printf("inline_tasks: all passed\n");
    return failures != 0;
}
