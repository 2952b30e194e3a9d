/* The first OpenMP region of a process starts while another thread is inside dlopen.
 * argv[1]: a library whose constructor calls loader_race_signal(), waits, then either
 * dlopens argv[2] or runs an OpenMP region (outer.c); glibc holds its load lock through
 * a constructor. A runtime that calls into the loader (dladdr, dlsym, dlopen) from a
 * dl_iterate_phdr callback holds the namespace write lock while waiting for the load
 * lock, which the nested dlopen holds while waiting for the write lock; one that loads
 * hwloc's plugins while holding its own start-up lock waits for the load lock, which
 * the constructor's region holds while waiting for that start-up lock. Either way the
 * two threads deadlock: the alarm turns the hang into a failure. (Debian's libomp 19
 * deadlocks in the second case, so that case runs on loom and libgomp only.) */
#include <dlfcn.h>
#include <omp.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static atomic_int constructor_entered;
/* The constructor's own region (outer.c with REGION_IN_CONSTRUCTOR): 0 not begun, 1
 * running, 2 over. */
static atomic_int constructor_region;

/* Called by the library's constructor, with the loader's lock held. */
void loader_race_signal(void) { atomic_store(&constructor_entered, 1); }

/* Called by the constructor around its region. */
void loader_race_region(int running) { atomic_store(&constructor_region, running ? 1 : 2); }

static void* load(void* path) {
    if (!dlopen((const char*)path, RTLD_NOW | RTLD_LOCAL)) {
        printf("FAIL: dlopen %s: %s\n", (const char*)path, dlerror());
        exit(1);
    }
    return NULL;
}

static void on_alarm(int sig) {
    (void)sig;
    static const char msg[] = "FAIL: loader race: no progress in 30 s (deadlock with dlopen)\n";
    ssize_t ignored = write(1, msg, sizeof msg - 1);
    (void)ignored;
    _exit(1);
}

int main(int argc, char** argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s OUTER_LIBRARY INNER_LIBRARY\n", argv[0]);
        return 2;
    }
    signal(SIGALRM, on_alarm);
    alarm(30);
    setenv("LOADER_RACE_INNER", argv[2], 1);
    pthread_t loader;
    if (pthread_create(&loader, NULL, load, argv[1]) != 0) {
        printf("FAIL: pthread_create\n");
        return 1;
    }
    while (!atomic_load(&constructor_entered)) usleep(100);
    /* The process's first OpenMP call, while the loader thread holds the load lock. */
    int members = 0;
    const int before = atomic_load(&constructor_region);
#pragma omp parallel reduction(+ : members)
    members += 1;
    const int after = atomic_load(&constructor_region);
    pthread_join(loader, NULL);
    /* The constructor waits 300 ms before its region, so ours is normally over by then;
     * on a loaded machine the two may overlap, and then they share the workers (two
     * regions never share one), so ours may have fewer. */
    const int overlapped = before == 1 || before != after;
    if (members < 1 || (!overlapped && members != omp_get_max_threads())) {
        printf("FAIL: %d members, expected %d\n", members, omp_get_max_threads());
        return 1;
    }
    printf("loader race: passed (%d threads)\n", members);
    return 0;
}
