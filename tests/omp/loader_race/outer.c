/* Loaded by main.c's loader thread: tells main that the loader's lock is held (glibc
 * holds it through constructors), gives main time to enter its first OpenMP region,
 * then either loads another library, which takes the loader's namespace write lock, or
 * (built with -fopenmp -DREGION_IN_CONSTRUCTOR) runs an OpenMP region of its own, which
 * needs whatever the runtime's start holds. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

void loader_race_signal(void);
void loader_race_region(int running);

__attribute__((constructor)) static void outer_init(void) {
    loader_race_signal();
    usleep(300 * 1000);
#ifdef REGION_IN_CONSTRUCTOR
    int members = 0;
    loader_race_region(1);
#pragma omp parallel reduction(+ : members)
    members += 1;
    loader_race_region(0);
    if (members < 1) {
        printf("FAIL: constructor region of %d threads\n", members);
        exit(1);
    }
#else
    const char* inner = getenv("LOADER_RACE_INNER");
    if (!inner || !dlopen(inner, RTLD_NOW | RTLD_LOCAL)) {
        printf("FAIL: nested dlopen %s: %s\n", inner ? inner : "(unset)", dlerror());
        exit(1);
    }
#endif
}
