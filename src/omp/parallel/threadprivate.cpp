// threadprivate without native TLS (-fno-openmp-use-tls; clang's entry points
// __kmpc_threadprivate_cached, __kmpc_threadprivate_register, __kmpc_threadprivate are
// kmpc/threadprivate.cpp).
//
// *cache points to a per-variable table indexed by gtid; the thread with gtid 0 (the
// initial thread) uses the original variable. Other threads get a copy made from the
// variable's image taken at the first threadprivate access, or by the registered
// constructor / copy constructor (C++). Tables grow by replacement (old ones are kept,
// readers never see freed memory).
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "parallel/threadprivate.hpp"

#include "abi.hpp"
#include "parallel/thread.hpp"

namespace loom::omp {

namespace {

struct registration {
    ctor_fn ctor = nullptr;
    cctor_fn cctor = nullptr;
    dtor_fn dtor = nullptr;
};

struct variable {
    void* original = nullptr;
    std::size_t size = 0;
    std::vector<unsigned char> image;  // initial value (POD variables)
    std::atomic<void**> table{nullptr};
    std::atomic<std::size_t> capacity{0};
};

std::mutex g_tp_mutex;
std::unordered_map<void*, registration>& registrations() {
    static auto* r = new std::unordered_map<void*, registration>;
    return *r;
}
std::unordered_map<void*, variable*>& variables() {
    static auto* v = new std::unordered_map<void*, variable*>;
    return *v;
}

variable* variable_for(void* data, std::size_t size) {
    auto& vars = variables();
    auto found = vars.find(data);
    if (found != vars.end()) return found->second;
    auto* v = new variable;
    v->original = data;
    v->size = size;
    v->image.assign(static_cast<unsigned char*>(data), static_cast<unsigned char*>(data) + size);
    vars.emplace(data, v);
    return v;
}

void* make_copy(variable* v) {
    void* copy = std::calloc(1, v->size ? v->size : 1);
    registration reg;
    auto r = registrations().find(v->original);
    if (r != registrations().end()) reg = r->second;
    if (reg.cctor) reg.cctor(copy, v->original);
    else if (reg.ctor) reg.ctor(copy);
    else std::memcpy(copy, v->image.data(), v->size);
    return copy;
}

// Returns the calling thread's copy; creates it (under the lock) if needed.
void* lookup(variable* v, kmp_int32 gtid) {
    const std::size_t g = static_cast<std::size_t>(gtid);
    void** table = v->table.load(std::memory_order_acquire);
    if (table && g < v->capacity.load(std::memory_order_acquire) && table[g]) return table[g];
    std::lock_guard lk(g_tp_mutex);
    table = v->table.load(std::memory_order_relaxed);
    std::size_t cap = v->capacity.load(std::memory_order_relaxed);
    if (g >= cap) {
        std::size_t ncap = std::max<std::size_t>(64, cap * 2);
        while (ncap <= g) ncap *= 2;
        auto** nt = static_cast<void**>(std::calloc(ncap, sizeof(void*)));
        if (table) std::memcpy(nt, table, cap * sizeof(void*));
        v->table.store(nt, std::memory_order_release);
        v->capacity.store(ncap, std::memory_order_release);
        table = nt;  // the old table is leaked on purpose: readers may still use it
    }
    if (!table[g]) table[g] = gtid == 0 ? v->original : make_copy(v);
    return table[g];
}

// The copies of variables registered with a destructor are destroyed when the library
// shuts down at process exit, as libomp does when its threads end (the initial thread's
// gtid-0 entry is the original variable: the program destroys that one itself).
void destroy_copies() noexcept {
    std::lock_guard lk(g_tp_mutex);
    for (auto& [data, v] : variables()) {
        auto r = registrations().find(data);
        if (r == registrations().end() || !r->second.dtor) continue;
        void** table = v->table.load(std::memory_order_acquire);
        const std::size_t cap = v->capacity.load(std::memory_order_acquire);
        for (std::size_t g = 1; table && g < cap; ++g) {
            if (!table[g] || table[g] == v->original) continue;
            r->second.dtor(table[g]);
            std::free(table[g]);
            table[g] = nullptr;
        }
    }
}

struct copies_at_exit {
    ~copies_at_exit() { destroy_copies(); }
} g_copies_at_exit;

}  // namespace

void threadprivate_register(void* data, ctor_fn ctor, cctor_fn cctor, dtor_fn dtor) {
    std::lock_guard lk(g_tp_mutex);
    registrations()[data] = registration{ctor, cctor, dtor};
}

void* threadprivate_copy(kmp_int32 gtid, void* data, std::size_t size) {
    variable* v;
    {
        std::lock_guard lk(g_tp_mutex);
        v = variable_for(data, size);
    }
    return lookup(v, gtid);
}

void* threadprivate_copy_cached(kmp_int32 gtid, void* data, std::size_t size, void*** cache) {
    auto* slot = reinterpret_cast<std::atomic<variable*>*>(cache);
    variable* v = slot->load(std::memory_order_acquire);
    if (!v) {
        std::lock_guard lk(g_tp_mutex);
        v = slot->load(std::memory_order_relaxed);
        if (!v) {
            v = variable_for(data, size);
            slot->store(v, std::memory_order_release);
        }
    }
    return lookup(v, gtid);
}

}  // namespace loom::omp
