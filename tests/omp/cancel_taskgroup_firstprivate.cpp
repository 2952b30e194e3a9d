// Tasks of a cancelled taskgroup still destroy their firstprivate C++ objects: every
// object the program copy-constructs for a task is destroyed exactly once, whether the
// task ran, ended at a cancellation point or was never started. gcc copy-constructs
// the copies when the task is created (the task's cpyfn) and destroys them at the end
// of the task's body, so a runtime must run the body of such a task even when its group
// is cancelled (libgomp: copy_ctors_done); clang destroys them in a destructor thunk the
// runtime calls whether the body ran or not. The shape of GCC's
// libgomp.c++/cancel-taskgroup-3.C.
// loom-test: env OMP_CANCELLATION=true OMP_NUM_THREADS=4
#include <omp.h>
#include <unistd.h>

#include <atomic>

#include "check.h"

namespace {

std::atomic<long> live{0};
std::atomic<long> made{0};

struct counted {
    int v = 0;
    counted() { ++live, ++made; }
    counted(const counted& o) : v(o.v) { ++live, ++made; }
    counted& operator=(const counted&) = default;
    ~counted() { --live; }
    void bump() { ++v; }
};

// One task cancels its own group, which holds only it.
void cancel_from_the_only_task() {
    counted a, b;
#pragma omp parallel firstprivate(a)
#pragma omp taskgroup
    {
        a.bump();
#pragma omp task firstprivate(b)
        {
            counted h;
            b.bump();
#pragma omp cancel taskgroup
            CHECK(!omp_get_cancellation());  // cancel ends the task when cancellation is on
        }
    }
}

// Fifty tasks in one group, cancelled from the seventh on: the later ones may be
// queued, running or not yet created when the group is cancelled.
void cancel_among_many(int rounds) {
    for (int r = 0; r < rounds; ++r) {
        counted b, f;
#pragma omp parallel firstprivate(f)
        {
#pragma omp single
#pragma omp taskgroup
            for (int i = 0; i < 50; i++) {
#pragma omp task firstprivate(b, f)
                {
                    counted h;
                    b.bump();
                    f.bump();
#pragma omp cancellation point taskgroup
                    usleep(20);
#pragma omp cancel taskgroup if (i > 5)
                }
            }
        }
    }
}

}  // namespace

int main() {
    CHECK(omp_get_cancellation());
    cancel_from_the_only_task();
    CHECK(live.load() == 0);
    cancel_among_many(20);
    CHECK(live.load() == 0);
    CHECK(made.load() > 0);
    if (live.load() != 0) printf("%ld objects never destroyed of %ld made\n", live.load(), made.load());
    return failures != 0;
}
