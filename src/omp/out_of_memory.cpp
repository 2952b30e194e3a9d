#include "out_of_memory.hpp"

#include <cstdio>
#include <cstdlib>

namespace loom::omp {

void out_of_memory(const char* what, std::size_t bytes) noexcept {
    std::fprintf(stderr,
                 "loom: error: out of memory allocating %zu bytes for %s; stopping (memory "
                 "or address-space limit: ulimit -v)\n",
                 bytes, what);
    std::abort();
}

}  // namespace loom::omp
