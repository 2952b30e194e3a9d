/* dlopen / call / dlclose a -fopenmp plugin many times (argv[1]: its path, argv[2]: the
 * number of cycles). The driver itself does not link the OpenMP runtime, so each
 * dlclose drops the last reference to it: a runtime whose threads still run its code,
 * or that left thread-exit destructors or atexit handlers pointing into it, crashes
 * here or at exit. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s PLUGIN CYCLES\n", argv[0]);
        return 2;
    }
    int cycles = atoi(argv[2]);
    for (int c = 0; c < cycles; c++) {
        void* h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
        if (!h) {
            printf("dlopen failed: %s\n", dlerror());
            return 1;
        }
        long (*sum)(int) = (long (*)(int))dlsym(h, "plugin_sum");
        if (!sum) {
            printf("dlsym failed: %s\n", dlerror());
            return 1;
        }
        long got = sum(10000);
        if (got != 10000L * 9999 / 2) {
            printf("cycle %d: sum %ld\n", c, got);
            return 1;
        }
        if (dlclose(h) != 0) {
            printf("dlclose failed: %s\n", dlerror());
            return 1;
        }
    }
    printf("dlopen_cycles: %d cycles passed\n", cycles);
    return 0;
}
