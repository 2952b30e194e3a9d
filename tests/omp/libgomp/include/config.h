/* The one libgomp build-configuration macro the libgomp C tests read from libgomp's
 * config.h (libgomp.c/affinity-1.c): Debian's libgomp1 on Linux is built with
 * pthread_getaffinity_np. The test harness (libgomp_suite.py) puts this folder on the
 * include path the way libgomp's DejaGnu driver puts the build tree there. */
#define HAVE_PTHREAD_AFFINITY_NP 1
