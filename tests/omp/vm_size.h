/* The process's mapped address space, for the OpenMP test programs that limit it
 * (RLIMIT_AS, as `ulimit -v`). Included by one source file each. */
#ifndef LOOM_TESTS_OMP_VM_SIZE_H
#define LOOM_TESTS_OMP_VM_SIZE_H

#include <stdio.h>
#include <string.h>

/* VmSize of /proc/self/status in KiB; -1 if unreadable. */
static long vm_size_kib(void) {
    FILE* f = fopen("/proc/self/status", "r");
    char line[256];
    long kib = -1;
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "VmSize:", 7) == 0) sscanf(line + 7, "%ld", &kib);
    if (f) fclose(f);
    return kib;
}

/* Whether an address-space limit can be tested at all: not under a sanitizer, whose
 * shadow maps terabytes (nor when VmSize is unreadable). */
static int address_space_limit_testable(long vm_kib) {
    return vm_kib >= 0 && vm_kib <= (1L << 30);
}

#endif
