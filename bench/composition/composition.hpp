// Shared parts of the composition benchmarks: OpenMP-parallel libraries called from
// many threads or tasks at once. The peak number of OS threads of the process is
// sampled while a run lasts; the matrices are chosen so that every product is exact.
#pragma once

#include <link.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <string>
#include <thread>
#include <vector>

extern "C" {
// CBLAS and OpenBLAS's own control, declared here: the benchmark links one OpenBLAS
// build explicitly (the OpenMP or the pthreads variant), whatever cblas.h is installed.
void cblas_dgemm(int order, int transa, int transb, int m, int n, int k, double alpha,
                 const double* a, int lda, const double* b, int ldb, double beta, double* c, int ldc);
void openblas_set_num_threads(int n);
int openblas_get_parallel();  // 0 sequential build, 1 pthreads, 2 OpenMP
}

namespace composition {

constexpr int kRowMajor = 101, kNoTrans = 111;

// dgemm calls that returned, in any caller: the stall check's sign of progress.
inline std::atomic<long> g_calls_done{0};

// A = 1 everywhere, B(k, j) = j % 3: C(i, j) = n * (j % 3), exact in double.
struct gemm_problem {
    int n;
    std::vector<double> a, b, c;
    explicit gemm_problem(int size)
        : n(size), a(std::size_t(size) * size, 1.0), b(std::size_t(size) * size), c(std::size_t(size) * size) {
        for (int k = 0; k < n; ++k)
            for (int j = 0; j < n; ++j) b[std::size_t(k) * n + j] = double(j % 3);
    }
    void run() {
        cblas_dgemm(kRowMajor, kNoTrans, kNoTrans, n, n, n, 1.0, a.data(), n, b.data(), n, 0.0, c.data(), n);
        g_calls_done.fetch_add(1, std::memory_order_relaxed);
    }
    [[nodiscard]] bool correct() const {
        for (int i = 0; i < n; i += std::max(1, n / 17))
            for (int j = 0; j < n; ++j)
                if (c[std::size_t(i) * n + j] != double(n) * double(j % 3)) return false;
        return true;
    }
    [[nodiscard]] double flops() const { return 2.0 * double(n) * double(n) * double(n); }
};

// dgemm calls per task so that one repetition does about 4e8 flops (at least one call).
inline long calls_for(int n) {
    const double per_call = 2.0 * double(n) * double(n) * double(n);
    return std::max(1L, long(4e8 / per_call));
}

// Callers of a run: --callers 0 means one per thread (every worker busy with its own
// BLAS calls), 1 leaves the other workers idle for the one call to use.
inline int callers_or(int callers, int threads) { return callers > 0 ? callers : threads; }

// Sets OpenBLAS's thread count for calls made by the calling thread (0: its default).
// Every caller must do it itself: the OpenMP build takes the count from
// omp_get_max_threads() at each call, and omp_set_num_threads, which
// openblas_set_num_threads calls there, sets only the calling thread's ICV, so a count
// set by main alone is undone by every other caller's first call (which then forks
// teams of the default size).
inline void limit_blas(int blas_threads) {
    if (blas_threads > 0) openblas_set_num_threads(blas_threads);
}

// The times of a run that could not measure: the result-line protocol wants a
// non-empty list, and "verified": false with the error marks the cell failed anyway.
inline const std::vector<double> no_times{0.0};

// Which OpenBLAS build the process loaded. The benchmark names the build it wants
// ("openmp" or "pthread"); a run on the other one would measure something else, so
// it fails with this text instead.
inline std::string wrong_blas(const char* want) {
    const int got = openblas_get_parallel();
    const int expected = std::strcmp(want, "pthread") == 0 ? 1 : 2;
    if (got == expected) return {};
    static const char* const names[] = {"sequential", "pthreads", "OpenMP"};
    return std::string("OpenBLAS is its ") + (got >= 0 && got <= 2 ? names[got] : "unknown") +
           " build, not the " + want + " one";
}

inline int os_threads_now() {
    std::ifstream status("/proc/self/status");
    std::string key;
    while (status >> key) {
        if (key == "Threads:") {
            int n = 0;
            status >> n;
            return n;
        }
        std::getline(status, key);
    }
    return 0;
}

// A run whose callers stop returning from dgemm: a BLAS that waits for threads which
// never come spins for ever, and the run would otherwise end only by the driver's
// timeout, with no word of what happened. After `limit_s` seconds without a returned
// call, on_stall() reports the run and the process ends at once (the stuck threads
// cannot be joined).
struct stall_rule {
    double limit_s = 0;  // 0: no check
    std::function<void(double)> on_stall;
};

// The longest a dgemm of order n may take before the run counts as stuck: 10 s plus
// one second per GFLOP of a call (1 GFLOP/s is far below any core's dgemm rate, so a
// merely slow or oversubscribed run never trips it).
inline double stall_limit_for(int n) { return 10.0 + 2.0 * double(n) * double(n) * double(n) / 1e9; }

// The failure of a stuck run (its `times_s` holds the limit: the stuck repetition
// lasted at least that long).
inline std::string stall_text(double limit_s) {
    char text[320];
    std::snprintf(text, sizeof text,
                  "stuck: no dgemm call returned for %.0f s (OpenBLAS's threads wait for one "
                  "another; its OpenMP build needs every thread of the team it asked for)",
                  limit_s);
    return text;
}

// Samples the process's OS thread count every 200 us from a thread of its own (not
// counted) while the object lives, and applies the stall rule.
class thread_peak {
public:
    explicit thread_peak(stall_rule rule = {}) : rule_(std::move(rule)), sampler_([this] { sample(); }) {}
    ~thread_peak() { stop(); }
    int stop() {
        if (sampler_.joinable()) {
            stop_.store(true);
            sampler_.join();
        }
        return peak_.load();
    }

private:
    void sample() {
        using clock = std::chrono::steady_clock;
        long seen = g_calls_done.load(std::memory_order_relaxed);
        auto last_progress = clock::now();
        while (!stop_.load(std::memory_order_relaxed)) {
            const int n = os_threads_now() - 1;
            if (n > peak_.load(std::memory_order_relaxed)) peak_.store(n, std::memory_order_relaxed);
            std::this_thread::sleep_for(std::chrono::microseconds(200));
            const long now_done = g_calls_done.load(std::memory_order_relaxed);
            const auto now = clock::now();
            if (now_done != seen) {
                seen = now_done;
                last_progress = now;
            } else if (rule_.limit_s > 0 &&
                       std::chrono::duration<double>(now - last_progress).count() > rule_.limit_s) {
                rule_.on_stall(rule_.limit_s);
                std::fflush(nullptr);
                std::_Exit(1);
            }
        }
    }

    stall_rule rule_;
    std::atomic<bool> stop_{false};
    std::atomic<int> peak_{0};
    std::thread sampler_;
};

// The file the loader resolved `soname` to in this process ("" if not loaded).
inline std::string loaded_path(const char* soname) {
    struct query {
        const char* soname;
        std::string path;
    } q{soname, {}};
    dl_iterate_phdr(
        [](dl_phdr_info* info, std::size_t, void* data) {
            auto* qq = static_cast<query*>(data);
            const char* name = info->dlpi_name;
            if (name && std::strstr(name, qq->soname)) {
                char real[4096];
                qq->path = realpath(name, real) ? real : name;
                return 1;
            }
            return 0;
        },
        &q);
    return q.path;
}

}  // namespace composition
