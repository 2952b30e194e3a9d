// BOTS-style cilksort of N 32-bit integers with OpenMP tasks: split in four, sort
// the quarters as tasks, merge pairs as tasks (the merge itself split recursively
// by binary search). Below the cut-off a range is sorted (sequential quicksort) or
// merged sequentially, so the cut-off sets the task size: at 10 the run is almost
// all task overhead, at or above N it is one sequential sort.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "hash.hpp"
#include "sort_kernels.hpp"
#include "omp_team.hpp"

namespace lb = loom_bench;

namespace {

using namespace sort_kernels;

long g_cutoff = 2048;  // set once from the command line before any task runs

// Merges sorted [low1, high1] and [low2, high2] into dest: split the longer run in
// half, find where its middle element falls in the other, merge both sides as tasks.
void cilkmerge(const Elm* low1, const Elm* high1, const Elm* low2, const Elm* high2, Elm* dest) {
  if (high2 - low2 > high1 - low1) {
    std::swap(low1, low2);
    std::swap(high1, high2);
  }
  if (high1 < low1) return;  // both runs empty
  if (high2 - low2 < g_cutoff) {
    seqmerge(low1, high1, low2, high2, dest);
    return;
  }
  const Elm* split1 = low1 + (high1 - low1 + 1) / 2;
  const Elm* split2 = binsplit(*split1, low2, high2);
  const long lowsize = (split1 - low1) + (split2 - low2);
  dest[lowsize] = *split1;
#pragma omp task untied
  cilkmerge(low1, split1 - 1, low2, split2 - 1, dest);
#pragma omp task untied
  cilkmerge(split1 + 1, high1, split2, high2, dest + lowsize + 1);
#pragma omp taskwait
}

void cilksort(Elm* low, Elm* tmp, long size) {
  if (size < g_cutoff || size < 4) {
    seqquick(low, low + size - 1);
    return;
  }
  const long q = size / 4;
  Elm *a = low, *b = a + q, *c = b + q, *d = c + q;
  Elm *ta = tmp, *tb = ta + q, *tc = tb + q, *td = tc + q;
#pragma omp task untied
  cilksort(a, ta, q);
#pragma omp task untied
  cilksort(b, tb, q);
#pragma omp task untied
  cilksort(c, tc, q);
#pragma omp task untied
  cilksort(d, td, size - 3 * q);
#pragma omp taskwait
#pragma omp task untied
  cilkmerge(a, a + q - 1, b, b + q - 1, ta);
#pragma omp task untied
  cilkmerge(c, c + q - 1, d, low + size - 1, tc);
#pragma omp taskwait
  cilkmerge(ta, tc - 1, tc, ta + size - 1, a);
}

void parallel_sort(Elm* data, Elm* tmp, long n) {
#pragma omp parallel
#pragma omp single nowait
  cilksort(data, tmp, n);
}

std::vector<Elm> make_input(long n) {
  std::vector<Elm> v(static_cast<size_t>(n));
  for (long i = 0; i < n; ++i) v[size_t(i)] = Elm(std::uint32_t(lb::mix64(std::uint64_t(i) + 1)));
  return v;
}

// Order-independent fingerprint of the values: sorting must keep the multiset.
std::uint64_t fingerprint(const std::vector<Elm>& v) {
  std::uint64_t sum = 0;
  for (Elm x : v) sum += lb::mix64(std::uint64_t(std::uint32_t(x)) ^ 0x9e3779b97f4a7c15ULL);
  return sum;
}

bool verify(const std::vector<Elm>& v, std::uint64_t input_fingerprint) {
  return std::is_sorted(v.begin(), v.end()) && fingerprint(v) == input_fingerprint;
}

}  // namespace

int main(int argc, char** argv) {
  lb::Cli cli(argc, argv, "sort", "BOTS-style cilksort of 32-bit integers with OpenMP tasks");
  const long n = long(cli.integer("n", 10000000, 1, 1L << 31, "number of integers"));
  g_cutoff = long(cli.integer("cutoff", 2048, 1, 1L << 40,
                              "sizes below this are sorted/merged sequentially"));
  auto run = lb::run_options(cli);
  cli.finish();
  const int threads = lb::omp_team_size(run);

  const std::vector<Elm> input = make_input(n);
  const std::uint64_t expect = fingerprint(input);
  std::vector<Elm> data(input.size()), tmp(input.size());
  auto timing = lb::measure_checked(
      run, [&] { std::memcpy(data.data(), input.data(), input.size() * sizeof(Elm)); },
      [&] { parallel_sort(data.data(), tmp.data(), n); }, [&] { return verify(data, expect); });
  return lb::report(cli, run, threads, timing.times, timing.verified,
                    lb::JsonObject().set("elements", n));
}
