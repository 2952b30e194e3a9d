/* Which file the loader bound a library to: the client tests prove that the OpenMP
 * runtime OpenBLAS / Eigen use is loom's, not GNU libgomp. Exit code 77 (skipped)
 * when loom does not answer to libgomp.so.1 in this build. */
#ifndef LOOM_TESTS_LIBS_LOOM_CHECK_H
#define LOOM_TESTS_LIBS_LOOM_CHECK_H

#ifndef _GNU_SOURCE /* g++ defines it on the command line */
#define _GNU_SOURCE
#endif
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct loom_query {
    const char* soname;
    char path[PATH_MAX];
};

static int loom_find_lib(struct dl_phdr_info* info, size_t size, void* data) {
    (void)size;
    struct loom_query* q = (struct loom_query*)data;
    if (info->dlpi_name && strstr(info->dlpi_name, q->soname)) {
        if (!realpath(info->dlpi_name, q->path)) snprintf(q->path, sizeof q->path, "%s", info->dlpi_name);
        return 1;
    }
    return 0;
}

/* 0 if libgomp.so.1 is loom's; prints where it is from otherwise. */
static int loom_bound(void) {
    struct loom_query q;
    q.soname = "libgomp.so.1";
    q.path[0] = '\0';
    dl_iterate_phdr(loom_find_lib, &q);
    printf("libgomp.so.1 -> %s\n", q.path[0] ? q.path : "(not loaded)");
    return strstr(q.path, "loom") ? 0 : 1;
}

#endif
