// Out of memory while creating tasks: loom says what it was allocating and stops.
// A child process limits its address space (RLIMIT_AS, as `ulimit -v`) a little above
// what it uses, then creates dependent tasks that stay held (their first predecessor
// spins until the loop ends) until the runtime's task records no longer fit. Before,
// the std::bad_alloc of the record's allocation crossed the runtime's noexcept paths
// and ended in std::terminate ("terminate called after throwing an instance of
// 'std::bad_alloc'"), naming nothing the user could act on. Expected now: the child
// stops with loom's one message. (libomp and libgomp stop with messages of their own,
// so this runs on loom only.)
// loom-test: runtimes loom
// loom-test: threads 2
// loom-test: no-tsan TSan maps terabytes of shadow: no address-space limit to run out of
// loom-test: timeout 120
#include <omp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "vm_size.h"

// Exits 3 if the tasks all fit (no limit took effect), else never returns.
static void exhaust_task_records(void) {
    volatile int go = 0;
    int x = 0;
#pragma omp parallel
    {
    }  // the pool and its stacks exist before the limit
    const rlim_t limit = (rlim_t)(vm_size_kib() + 64 * 1024) * 1024;
    struct rlimit lim = {limit, limit};
    if (setrlimit(RLIMIT_AS, &lim) != 0) exit(4);
#pragma omp parallel num_threads(2) shared(go, x)
#pragma omp single
    {
#pragma omp task depend(out : x) shared(go)
        while (!go) {
        }
        for (long i = 0; i < 20000000; i++) {
#pragma omp task depend(inout : x) shared(x)
            x++;
        }
        go = 1;
    }
    exit(3);
}

int main(void) {
    long vm = vm_size_kib();
    if (!address_space_limit_testable(vm)) {
        printf("out_of_memory_message: skipped (VmSize %ld KiB)\n", vm);
        return 0;
    }
    int pipefd[2];
    CHECK(pipe(pipefd) == 0);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(pipefd[1], 2);
        close(pipefd[0]);
        exhaust_task_records();
    }
    close(pipefd[1]);
    char out[8192];
    size_t len = 0;
    ssize_t got;
    while ((got = read(pipefd[0], out + len, sizeof out - 1 - len)) > 0) len += (size_t)got;
    out[len] = 0;
    int status = 0;
    CHECK(waitpid(pid, &status, 0) == pid);
    printf("child: %s %d; its stderr:\n%s", WIFSIGNALED(status) ? "signal" : "exit",
           WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status), out);
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
    CHECK(strstr(out, "loom: error: out of memory allocating") != NULL);
    CHECK(strstr(out, "terminate called") == NULL);
    if (failures == 0) printf("out_of_memory_message: all passed\n");
    return failures != 0;
}
