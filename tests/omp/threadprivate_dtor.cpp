// threadprivate C++ objects without native TLS (-fnoopenmp-use-tls): the runtime makes
// each thread's copy with the registered copy constructor and, when it shuts down at
// process exit, destroys every copy with the registered destructor. Each destructor
// reports the number of objects still alive on stderr; the last line must say 0.
// loom-test: threads 4
// loom-test: flags -fnoopenmp-use-tls
// loom-test: expect-stderr live=0
#include <omp.h>

#include <atomic>
#include <cstdio>

namespace {
std::atomic<int> live{0};

struct counted {
    int value = 7;
    counted() { ++live; }
    counted(const counted& o) : value(o.value) { ++live; }
    ~counted() { std::fprintf(stderr, "destroyed, live=%d\n", --live); }
};
}  // namespace

static counted tp;
#pragma omp threadprivate(tp)

int main() {
    int sum = 0;
#pragma omp parallel num_threads(4) reduction(+ : sum)
    {
        tp.value += omp_get_thread_num();
        sum += tp.value;
    }
    if (sum != 4 * 7 + 0 + 1 + 2 + 3) {
        std::printf("copies did not start from the original: sum %d\n", sum);
        return 1;
    }
    if (live.load() != 4) {
        std::printf("expected 4 live objects after the region, got %d\n", live.load());
        return 1;
    }
    std::printf("threadprivate_dtor: all passed\n");
    return 0;
}
