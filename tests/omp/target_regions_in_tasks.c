// Tasks that each run a host `target` region with a `parallel for` inside, created by
// one member while the others are done with their share of the region. A target
// region run on the host is a new contention group, so its `parallel` is an outermost
// region that may take workers from lingering members (asking them to give their
// workers back) or grow the pool. A member that had lent its worker to the team's
// tasks (it runs one, or is parked while its worker runs them) still counted as
// lingering, so a region forked by such a task waited for it, spinning on the very
// worker it needed: every worker spun and the program never ended (GCC's
// libgomp.fortran/target7.f90 with a static array: every run on loom). gcc only: with
// no offload device it runs target regions on the host through GOMP_target_ext; clang's
// target regions need LLVM's offload library, which loom does not replace.
// loom-test: compilers gcc
// loom-test: env OMP_NUM_THREADS=4
#include <omp.h>
#include <signal.h>
#include <unistd.h>

#include "check.h"

enum { n = 1000, chunk = 100, rounds = 20, limit_s = 30 };

#pragma omp declare target
static float bump(float x) { return x + 1.0f; }
#pragma omp end declare target

static void hung(int sig) {
    (void)sig;
    static const char msg[] = "target_regions_in_tasks: no progress for 30 s (hung)\n";
    (void)!write(2, msg, sizeof msg - 1);
    _exit(2);
}

int main(void) {
    signal(SIGALRM, hung);
    alarm(limit_s);
    static float a[n];
    for (int r = 0; r < rounds; ++r) {
        for (int i = 0; i < n; i++) a[i] = (float)i;
#pragma omp parallel
#pragma omp single
        for (int i = 0; i < n; i += chunk) {
#pragma omp task firstprivate(i)
#pragma omp target map(tofrom : a[i : chunk])
#pragma omp parallel for
            for (int j = i; j < i + chunk; j++) a[j] = bump(a[j]);
        }
        int bad = 0;
        for (int i = 0; i < n; i++) bad += a[i] != (float)i + 1.0f;
        CHECK(bad == 0);
        if (bad) break;
    }
    return failures != 0;
}
