// Explicit tasks that run nested parallel regions while the other members of the
// enclosing team wait at its barrier. A member waiting at a barrier while the team's
// tasks run elsewhere lends its worker to the scheduler (it parks, and the worker runs
// other contexts); the members of the nested teams are tied to their workers and park
// in their own waits. A context that resumed with another context's view of the thread
// (whether it is a member task) then waited by blocking its worker's thread instead of
// parking, and a nested member tied to that worker never ran again: every thread
// asleep, the program hung (GCC's libgomp.fortran/target7.f90, where each task runs a
// `target` region with a `parallel do`: 3 of 400 runs on loom's release build, about
// half the runs on its ThreadSanitizer build; here each task runs a nested region). It
// happens while the pool grows for the first nested teams, so the program runs the
// pattern in fresh processes: itself again, `runs` times, each child killed by an alarm
// if it hangs.
// loom-test: env OMP_NUM_THREADS=4
// loom-test: timeout 240
#include <omp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

enum { n = 1000, chunk = 100, runs = 24, child_limit_s = 20 };

static float bump(float x) { return x + 1.0f; }

// One round; 0 when every element was bumped once.
static int one_round(void) {
    omp_set_max_active_levels(2);  // the nested regions get teams of their own
    static float a[n];
    for (int i = 0; i < n; i++) a[i] = (float)i;
#pragma omp parallel
#pragma omp single
    for (int i = 0; i < n; i += chunk) {
#pragma omp task firstprivate(i)
#pragma omp parallel for num_threads(4)
        for (int j = i; j < i + chunk; j++) a[j] = bump(a[j]);
    }
    int bad = 0;
    for (int i = 0; i < n; i++) bad += a[i] != (float)i + 1.0f;
    return bad;
}

int main(int argc, char** argv) {
    if (argc > 1 && strcmp(argv[1], "child") == 0) return one_round() != 0;
    for (int k = 0; k < runs; ++k) {
        const pid_t pid = fork();
        if (pid == 0) {
            alarm(child_limit_s);  // kept across exec: a hung child ends with SIGALRM
            execl("/proc/self/exe", argv[0], "child", (char*)0);
            _exit(127);
        }
        int status = 0;
        CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
        if (WIFSIGNALED(status)) printf("run %d: killed by signal %d (%s)\n", k, WTERMSIG(status),
                                        WTERMSIG(status) == SIGALRM ? "hung" : "crashed");
        CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        if (failures) break;
    }
    return failures != 0;
}
