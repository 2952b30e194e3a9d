// A parallel quicksort with loom::task_group: after partitioning around a pivot, the
// left part is sorted by a child task while this task goes on with the right part,
// and task_group::wait() joins them. If no other worker took the child, wait() runs
// it here, so an unshared sort costs little more than the serial one. Below a cut-off
// the parts are small enough for std::sort.
// The program checks its result: sorted, and the same keys as the input (a copy
// sorted by std::sort is compared element by element).
//
//     example_quicksort [--n=1000000] [--cutoff=2048] [--loom:threads=N]
#include <loom/loom_main.hpp>
#include <loom/loom.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace {

template <class It>
It median_of_three(It a, It b, It c) {
    if (*a < *b) return *b < *c ? b : (*a < *c ? c : a);
    return *a < *c ? a : (*b < *c ? c : b);
}

// Sorts [first, last). Three-way partition (< pivot, == pivot, > pivot), so many
// equal keys do not make the recursion deep; the == part is already in place.
template <class It>
void quicksort(It first, It last, std::ptrdiff_t cutoff) {
    loom::task_group children;
    while (last - first > cutoff) {
        const auto pivot = *median_of_three(first, first + (last - first) / 2, last - 1);
        It middle_begin = std::partition(first, last, [&](const auto& k) { return k < pivot; });
        It middle_end = std::partition(middle_begin, last, [&](const auto& k) { return !(pivot < k); });
        // The child sorts the left part; this task loops on the right part.
        children.spawn([=] { quicksort(first, middle_begin, cutoff); });
        first = middle_end;
    }
    std::sort(first, last);
    children.wait();
}

struct options {
    std::size_t n = 1'000'000;
    std::ptrdiff_t cutoff = 2048;
};

options parse(int argc, char** argv) {
    options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a.rfind("--n=", 0) == 0) o.n = std::strtoull(a.c_str() + 4, nullptr, 10);
        else if (a.rfind("--cutoff=", 0) == 0) o.cutoff = std::max(2L, std::strtol(a.c_str() + 9, nullptr, 10));
        else {
            std::fprintf(stderr, "usage: %s [--n=KEYS] [--cutoff=KEYS] [--loom:threads=N]\n", argv[0]);
            std::exit(2);
        }
    }
    return o;
}

}  // namespace

int loom_main(int argc, char** argv) {
    const options opt = parse(argc, argv);
    std::mt19937_64 random(42);
    std::uniform_int_distribution<std::uint32_t> key(0, static_cast<std::uint32_t>(opt.n));  // with duplicates
    std::vector<std::uint32_t> keys(opt.n);
    for (auto& k : keys) k = key(random);
    std::vector<std::uint32_t> reference = keys;

    quicksort(keys.begin(), keys.end(), opt.cutoff);

    std::sort(reference.begin(), reference.end());
    const bool sorted = std::is_sorted(keys.begin(), keys.end());
    const bool permutation = keys == reference;  // sorted and equal to the sorted input
    std::printf("quicksort: %zu keys with task_group (cut-off %td) on %zu workers: %s, %s: %s\n", opt.n,
                opt.cutoff, loom::get_os_thread_count(), sorted ? "sorted" : "NOT sorted",
                permutation ? "a permutation of the input" : "NOT a permutation of the input",
                sorted && permutation ? "ok" : "WRONG");
    return sorted && permutation ? 0 : 1;
}
