// Shared parts of the composition benchmarks: OpenMP-parallel libraries called from
// many threads or tasks at once. The peak number of OS threads of the process is
// sampled while a run lasts; the matrices are chosen so that every product is exact.
#pragma once

#include <link.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

extern "C" {
// CBLAS and OpenBLAS's own control, declared here: the benchmark links one OpenBLAS
// build explicitly (the OpenMP or the pthreads variant), whatever cblas.h is installed.
void cblas_dgemm(int order, int transa, int transb, int m, int n, int k, double alpha,
                 const double* a, int lda, const double* b, int ldb, double beta, double* c, int ldc);
void openblas_set_num_threads(int n);
}

namespace composition {

constexpr int kRowMajor = 101, kNoTrans = 111;

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

// Samples the process's OS thread count every 200 us from a thread of its own (not
// counted) while the object lives.
class thread_peak {
public:
    thread_peak() : sampler_([this] {
        while (!stop_.load(std::memory_order_relaxed)) {
            const int n = os_threads_now() - 1;
            if (n > peak_.load(std::memory_order_relaxed)) peak_.store(n, std::memory_order_relaxed);
            std::this_thread::sleep_for(std::chrono::microseconds(200));
        }
    }) {}
    ~thread_peak() { stop(); }
    int stop() {
        if (sampler_.joinable()) {
            stop_.store(true);
            sampler_.join();
        }
        return peak_.load();
    }

private:
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
