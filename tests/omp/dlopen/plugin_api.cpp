// A plugin that uses loom's C++ API (linked to libloom.so): the same contract as the
// OpenMP plugin, for processes that load and unload a library built on loom's tasks.
#include <loom/async.hpp>
#include <loom/when_all.hpp>

#include <vector>

extern "C" long plugin_sum(int n) {
    std::vector<loom::future<long>> parts;
    const int chunks = 8;
    for (int c = 0; c < chunks; ++c) {
        parts.push_back(loom::async([=] {
            long s = 0;
            for (int i = c * n / chunks; i < (c + 1) * n / chunks; ++i) s += i;
            return s;
        }));
    }
    long sum = 0;
    for (auto& f : parts) sum += f.get();
    return sum;
}
