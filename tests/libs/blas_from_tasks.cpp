// OpenMP OpenBLAS called from several loom tasks at once, on loom's libgomp.so.1: every
// call returns with the right product. OpenBLAS sizes its region by
// omp_get_max_threads() and its threads wait for one another, so it needs every member
// it asks for. A region entered from a task gets only the workers free at that moment;
// before the routine answered accordingly, two tasks each asking for the whole pool got
// smaller teams and waited forever (dgemm n >= 128 from 2 tasks on 2 workers: stuck in
// nearly every run). Also one task calling while the other workers are idle.
#include "loom_check.h"  // first: it asks for _GNU_SOURCE (dl_iterate_phdr)

#include <loom/loom.hpp>

#include <cstdio>
#include <vector>

extern "C" void cblas_dgemm(int, int, int, int, int, int, double, const double*, int,
                            const double*, int, double, double*, int);

namespace {

constexpr int row_major = 101, no_trans = 111;

// Integer entries keep the product exact, so any wrong or missing block shows.
bool product_right(int n, int seed) {
    std::vector<double> a(static_cast<std::size_t>(n) * n), b(a.size()), c(a.size(), -1.0);
    for (std::size_t i = 0; i < a.size(); ++i) {
        a[i] = static_cast<double>((static_cast<int>(i) * 7 + seed) % 11 - 5);
        b[i] = static_cast<double>((static_cast<int>(i) * 3 + seed) % 13 - 6);
    }
    cblas_dgemm(row_major, no_trans, no_trans, n, n, n, 1.0, a.data(), n, b.data(), n, 0.0,
                c.data(), n);
    for (int i = 0; i < n; i += 13)
        for (int j = 0; j < n; ++j) {
            double s = 0;
            for (int k = 0; k < n; ++k) s += a[i * n + k] * b[k * n + j];
            if (s != c[i * n + j]) return false;
        }
    return true;
}

int calls_from_tasks(int tasks, int n, int reps) {
    std::vector<loom::future<int>> done;
    for (int t = 0; t < tasks; ++t)
        done.push_back(loom::async([=] {
            int wrong = 0;
            for (int r = 0; r < reps; ++r) wrong += product_right(n, t * 31 + r) ? 0 : 1;
            return wrong;
        }));
    int wrong = 0;
    for (auto& f : done) wrong += f.get();
    return wrong;
}

}  // namespace

int main() {
    int failures = 0;
    // Enough calls per task that the tasks' calls overlap.
    const int sizes[][2] = {{64, 40}, {256, 24}, {512, 6}};
    for (const auto& [n, reps] : sizes) {
        const int workers = static_cast<int>(loom::ext::worker_count());
        const int wrong = calls_from_tasks(workers, n, reps) + calls_from_tasks(1, n, reps);
        if (wrong != 0) std::printf("FAIL: n = %d: %d wrong products\n", n, wrong);
        failures += wrong;
    }
    if (loom_bound() != 0) {
        std::printf("OpenBLAS does not run on loom's libgomp.so.1\n");
        return 77;
    }
    if (failures == 0) std::printf("PASS\n");
    return failures == 0 ? 0 : 1;
}
