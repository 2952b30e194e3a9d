/* Captures what the program, and the OpenMP runtime in it (OMP_DISPLAY_AFFINITY lines),
 * write on stdout between stdout_capture_begin and stdout_capture_end: stdout goes to an
 * unlinked temporary file meanwhile, read back at the end. Included by one source file
 * each (static functions). */
#ifndef LOOM_TESTS_OMP_STDOUT_CAPTURE_H
#define LOOM_TESTS_OMP_STDOUT_CAPTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct stdout_capture {
    int fd;     /* the temporary file */
    int saved;  /* the real stdout */
};

/* 0 on success. */
static int stdout_capture_begin(struct stdout_capture* c) {
    char path[] = "/tmp/loom-stdout-capture-XXXXXX";
    c->fd = mkstemp(path);
    if (c->fd < 0) return -1;
    unlink(path);
    fflush(stdout);
    c->saved = dup(1);
    return dup2(c->fd, 1) < 0 ? -1 : 0;
}

/* Puts stdout back and copies what was written into `out` (NUL-terminated, at most
 * size - 1 bytes); returns that length, or -1. */
static ssize_t stdout_capture_end(struct stdout_capture* c, char* out, size_t size) {
    fflush(stdout);
    dup2(c->saved, 1);
    close(c->saved);
    memset(out, 0, size);
    lseek(c->fd, 0, SEEK_SET);
    ssize_t len = read(c->fd, out, size - 1);
    close(c->fd);
    return len;
}

#endif
