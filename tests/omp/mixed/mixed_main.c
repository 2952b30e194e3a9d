/* The program of the mixed-compiler test, built once by clang and once by gcc: it calls
 * libmixed_clang.so (clang-built, kmpc ABI) and libmixed_gcc.so (gcc-built, GOMP ABI),
 * so each library is called from a program built by the other compiler, and runs its
 * own parallel region (its own compiler's ABI) too.
 *
 *   mixed_main_<cc> one-pool    loom: libomp.so.5 and libgomp.so.1 are one library, and
 *                               every OS thread that ran a member or a task of any of the
 *                               three lies in one pool of OMP_NUM_THREADS threads; the
 *                               process has no more OS threads than that
 *   mixed_main_<cc> two-pools   the reference (GNU libgomp + llvm's libomp): two
 *                               runtimes, so only each library's own threads are bounded
 * Results are checked in both modes. Prints "mixed: all passed" at the end. */
#define _GNU_SOURCE
#include <dirent.h>
#include <limits.h>
#include <link.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "mixed.h"

#if defined(__clang__)
#define MAIN_COMPILER "clang"
#else
#define MAIN_COMPILER "gcc"
#endif

static int failures = 0;
#define CHECK(c, ...)                                                    \
    do {                                                                 \
        if (!(c)) {                                                      \
            printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #c);          \
            printf(__VA_ARGS__);                                         \
            printf("\n");                                                \
            ++failures;                                                  \
        }                                                                \
    } while (0)

static int all_tids[4 * MIXED_MAX_TIDS];
static int n_all = 0;

static void add_tids(const struct mixed_report* r) {
    for (int i = 0; i < r->ntids; ++i) {
        int seen = 0;
        for (int j = 0; j < n_all; ++j)
            if (all_tids[j] == r->tids[i]) seen = 1;
        if (!seen && n_all < 4 * MIXED_MAX_TIDS) all_tids[n_all++] = r->tids[i];
    }
}

static int os_threads(void) {
    int n = 0;
    DIR* d = opendir("/proc/self/task");
    if (!d) return -1;
    for (struct dirent* e; (e = readdir(d));)
        if (e->d_name[0] != '.') ++n;
    closedir(d);
    return n;
}

struct lib_query {
    const char* soname;
    char path[PATH_MAX];
};
static int find_lib(struct dl_phdr_info* info, size_t size, void* data) {
    (void)size;
    struct lib_query* q = (struct lib_query*)data;
    const char* base = strrchr(info->dlpi_name, '/');
    if (base && strcmp(base + 1, q->soname) == 0) {
        if (!realpath(info->dlpi_name, q->path)) snprintf(q->path, sizeof q->path, "%s", info->dlpi_name);
        return 1;
    }
    return 0;
}
/* The file a runtime name was loaded from: the loader keeps one entry per distinct
 * file, under the name it was first asked for, so "libomp.so.5" may be the entry of a
 * file that also answers "libgomp.so.1" (loom). */
static void loaded(const char* soname, char* out) {
    struct lib_query q;
    q.soname = soname;
    q.path[0] = '\0';
    dl_iterate_phdr(find_lib, &q);
    strcpy(out, q.path);
}

static void check_report(const struct mixed_report* r, const char* who, int threads, int ntasks,
                         int full_team) {
    CHECK(r->result == mixed_expected(ntasks), "%s: result %ld, expected %ld", who, r->result,
          mixed_expected(ntasks));
    if (full_team)
        CHECK(r->team_size == threads, "%s: team of %d, asked for %d (all workers idle)", who,
              r->team_size, threads);
    else
        CHECK(r->team_size >= 1 && r->team_size <= threads, "%s: team of %d", who, r->team_size);
    CHECK(r->ntids >= 1 && r->ntids <= threads, "%s: %d OS threads ran its members and tasks (pool %d)",
          who, r->ntids, threads);
}

int main(int argc, char** argv) {
    int one_pool = argc > 1 && strcmp(argv[1], "one-pool") == 0;
    if (argc < 2 || (!one_pool && strcmp(argv[1], "two-pools") != 0)) {
        fprintf(stderr, "usage: %s one-pool|two-pools\n", argv[0]);
        return 2;
    }
    int threads = omp_get_max_threads();
    const int ntasks = 200, rounds = 20;
    printf("mixed: program built by %s, OMP_NUM_THREADS -> %d threads, mode %s\n", MAIN_COMPILER,
           threads, argv[1]);

    struct mixed_report own = {0};
    own.compiler = MAIN_COMPILER;
#pragma omp parallel num_threads(threads)
    {
        int tid = (int)syscall(SYS_gettid);
#pragma omp critical
        {
            int seen = 0;
            for (int i = 0; i < own.ntids; ++i)
                if (own.tids[i] == tid) seen = 1;
            if (!seen) own.tids[own.ntids++] = tid;
        }
#pragma omp single
        own.team_size = omp_get_num_threads();
    }
    CHECK(own.team_size == threads, "program's own region: team of %d", own.team_size);
    add_tids(&own);

    int max_clang = 0, max_gcc = 0;
    for (int round = 0; round < rounds; ++round) {
        struct mixed_report c, g;
        /* alternate the order: each runtime name goes first half of the time */
        if (round % 2 == 0) {
            mixed_clang_work(threads, ntasks, &c);
            mixed_gcc_work(threads, ntasks, &g);
        } else {
            mixed_gcc_work(threads, ntasks, &g);
            mixed_clang_work(threads, ntasks, &c);
        }
        CHECK(strcmp(c.compiler, "clang") == 0 && strcmp(g.compiler, "gcc") == 0, "libraries swapped");
        check_report(&c, "libmixed_clang", threads, ntasks, 1);
        check_report(&g, "libmixed_gcc", threads, ntasks, 1);
        if (c.ntids > max_clang) max_clang = c.ntids;
        if (g.ntids > max_gcc) max_gcc = g.ntids;
        add_tids(&c);
        add_tids(&g);
    }

    /* Both libraries called from explicit tasks of the program's own region: nested
     * regions inside tasks; results must stay right (team sizes are the runtime's call). */
    struct mixed_report in_task[8];
    int nt = threads < 4 ? threads : 4;
#pragma omp parallel num_threads(threads)
#pragma omp single
    for (int k = 0; k < 2 * nt; ++k) {
#pragma omp task firstprivate(k)
        {
            if (k % 2 == 0)
                mixed_clang_work(threads, ntasks, &in_task[k]);
            else
                mixed_gcc_work(threads, ntasks, &in_task[k]);
        }
    }
    for (int k = 0; k < 2 * nt; ++k) {
        check_report(&in_task[k], k % 2 == 0 ? "libmixed_clang in a task" : "libmixed_gcc in a task",
                     threads, ntasks, 0);
        if (one_pool) add_tids(&in_task[k]);
    }

    int nos = os_threads();
    char p_omp[PATH_MAX], p_gomp[PATH_MAX];
    loaded("libomp.so.5", p_omp);
    loaded("libgomp.so.1", p_gomp);
    printf("mixed: libomp.so.5 -> %s\nmixed: libgomp.so.1 -> %s\n", p_omp[0] ? p_omp : "(same file, other name)",
           p_gomp[0] ? p_gomp : "(same file, other name)");
    printf("mixed: OS threads seen: program %d, clang library up to %d, gcc library up to %d, "
           "all together %d; threads in the process %d\n",
           own.ntids, max_clang, max_gcc, n_all, nos);
    if (one_pool) {
        /* One runtime under both names: the loader maps the file once, so only one of the
         * two names has an entry of its own (or both name the same file). */
        CHECK(!(p_omp[0] && p_gomp[0]) || strcmp(p_omp, p_gomp) == 0,
              "libomp.so.5 (%s) and libgomp.so.1 (%s) are two libraries", p_omp, p_gomp);
        CHECK(strstr(p_omp[0] ? p_omp : p_gomp, "loom") != NULL, "the runtime is not loom's: %s",
              p_omp[0] ? p_omp : p_gomp);
        CHECK(n_all <= threads, "%d distinct OS threads ran OpenMP work of the two libraries and the "
              "program: more than one pool of %d", n_all, threads);
        /* A sanitizer's runtime may run threads of its own (ThreadSanitizer's background
         * thread): the build that loads one says how many. */
        const char* extra = getenv("MIXED_SANITIZER_THREADS");
        const int allowed = threads + (extra ? atoi(extra) : 0);
        CHECK(nos <= allowed, "%d OS threads in the process, pool of %d", nos, threads);
    }
    if (failures) {
        printf("mixed: %d check(s) FAILED\n", failures);
        return 1;
    }
    printf("mixed: all passed\n");
    return 0;
}
