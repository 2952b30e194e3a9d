// fork() after parallel regions: the child's first region works; omp_pause_resource
// releases the workers and the next region brings them back.
// loom-test: threads 2
// loom-test: no-tsan forks a multi-threaded process, which TSan does not support
#include <omp.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static int region(void) {
    int n = 0;
#pragma omp parallel num_threads(2) reduction(+ : n)
    n += 1;
    return n;
}

int main(void) {
    for (int i = 0; i < 10; ++i)
        if (region() != 2) return 1;
    pid_t pid = fork();
    if (pid == 0) {
        int ok = 1;
        for (int i = 0; i < 10; ++i) ok = ok && region() == 2;
        _exit(ok ? 0 : 7);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return 2;
    if (region() != 2) return 3;

    if (omp_pause_resource_all(omp_pause_soft) != 0) return 4;
    if (region() != 2) return 5;
    if (omp_pause_resource(omp_pause_hard, omp_get_initial_device()) != 0) return 6;
    if (region() != 2) return 7;
    printf("ok\n");
    return 0;
}
