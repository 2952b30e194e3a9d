// gcc's depend arrays (both layouts, task_abi.hpp) translated into the kmp_depend_info
// lists that loom's dependence hash takes (tasking/dep.cpp), so GOMP_task and
// GOMP_taskwait_depend share clang's dependence machinery.
#include <cstdio>
#include <cstdlib>

#include "gomp/task.hpp"
#include "gomp/task_abi.hpp"

namespace loom::omp::gomp {

namespace {

// kmp_depend_info::flags (tasking/task.hpp): 1 in, 2 out, 4 mutexinoutset, 8 inoutset,
// 0x80 omp_all_memory.
constexpr std::uint8_t k_in = 1, k_out = 3, k_mtx = 4, k_set = 8, k_all = 0x80;

kmp_depend_info item(void* addr, std::uint8_t kind) {
    // A null address among the out entries is omp_all_memory (task.c).
    if (addr == nullptr && kind == k_out) return kmp_depend_info{0, 0, k_all};
    return kmp_depend_info{reinterpret_cast<std::intptr_t>(addr), 1, kind};
}

std::uint8_t kind_of_depobj(std::uintptr_t k) {
    switch (k) {
        case depobj_in: return k_in;
        case depobj_out:
        case depobj_inout: return k_out;
        case depobj_mutexinoutset: return k_mtx;
        case depobj_inoutset: return k_set;
        default: break;
    }
    // task.c: gomp_fatal ("unknown omp_depend_t dependence type %d").
    std::fprintf(stderr, "loom: unknown omp_depend_t dependence type %d\n", static_cast<int>(k));
    std::abort();
}

std::size_t total_of(void** depend) {
    const auto first = reinterpret_cast<std::uintptr_t>(depend[0]);
    return first != 0 ? first : reinterpret_cast<std::uintptr_t>(depend[1]);
}

void fill_old(void** depend, kmp_depend_info* out) {
    const auto n = reinterpret_cast<std::uintptr_t>(depend[0]);
    const auto nout = reinterpret_cast<std::uintptr_t>(depend[1]);
    void** addr = depend + depend_old_header;
    for (std::size_t i = 0; i < n; ++i) out[i] = item(addr[i], i < nout ? k_out : k_in);
}

void fill_new(void** depend, kmp_depend_info* out) {
    const auto n = reinterpret_cast<std::uintptr_t>(depend[1]);
    const auto nout = reinterpret_cast<std::uintptr_t>(depend[2]);
    const auto nmtx = reinterpret_cast<std::uintptr_t>(depend[3]);
    const auto nin = reinterpret_cast<std::uintptr_t>(depend[4]);
    void** addr = depend + depend_new_header;
    std::size_t i = 0;
    for (; i < nout; ++i) out[i] = item(addr[i], k_out);
    for (; i < nout + nmtx; ++i) out[i] = item(addr[i], k_mtx);
    for (; i < nout + nmtx + nin; ++i) out[i] = item(addr[i], k_in);
    for (; i < n; ++i) {
        // omp_depend_t (depobj, or gcc's lowering of inoutset): {address, kind}.
        auto** obj = static_cast<void**>(addr[i]);
        out[i] = item(obj[0], kind_of_depobj(reinterpret_cast<std::uintptr_t>(obj[1])));
    }
}

}  // namespace

depend_list::depend_list(void** depend) : items_(own_) {
    if (!depend) return;
    n_ = total_of(depend);
    // An array whose iterators all came out empty: gcc writes the old header {0, 0} and
    // nothing after it (the words that follow are not part of it), and depend[0] == 0
    // would otherwise read it as the 5.0 layout. libgomp looks at nothing past the total
    // then (task.c: no depend entries when the total is 0).
    if (n_ == 0) return;
    if (n_ > inline_items)
        items_ = static_cast<kmp_depend_info*>(std::malloc(n_ * sizeof(kmp_depend_info)));
    if (depend[0] != nullptr) {
        fill_old(depend, items_);
    } else {
        fill_new(depend, items_);
    }
}

depend_list::~depend_list() {
    if (items_ != own_) std::free(items_);
}

}  // namespace loom::omp::gomp
