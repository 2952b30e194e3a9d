// affinity_process_mask_bound.c under OMP_PROC_BIND=true without OMP_PLACES: here the
// scheduler binds its workers and the adopted main thread to its own places (as with
// LOOM_PIN=true); a fork child of any of them gets the process's mask back.
// loom-test: env OMP_PROC_BIND=true
// loom-test: timeout 120
// loom-test: no-tsan forks a multi-threaded process, which TSan does not support
#include "affinity_process_mask_bound.c"
