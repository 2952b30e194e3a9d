// Another OpenMP runtime in the process: found by the names the runtimes are loaded
// under, told from loom's own file (loaded as libomp.so.5, libgomp.so.1 and libiomp5.so
// alike) by device and inode, said once on stderr. loom keeps working either way.
#include "routines/foreign_runtime.hpp"

#include <dlfcn.h>
#include <link.h>
#include <sys/stat.h>
#include <time.h>

#include <atomic>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>

namespace loom::omp {

namespace {

std::atomic<bool> g_said{false};
std::atomic<unsigned long long> g_seen_changes{0};  // dlpi_adds + dlpi_subs last scanned
std::atomic<long long> g_next_check_ns{0};
std::mutex g_scan_mutex;
constexpr long long recheck_interval_ns = 100'000'000;

struct file_id {
    dev_t dev = 0;
    ino_t ino = 0;
    bool valid = false;
};

file_id identify(const char* path) {
    struct stat st {};
    if (!path || !*path || stat(path, &st) != 0) return {};
    return {st.st_dev, st.st_ino, true};
}

// loom's own file, whatever name it was loaded under (stat follows the links). Never
// from inside a dl_iterate_phdr callback: glibc holds its namespace write lock through
// the callbacks and dladdr takes the load lock, the reverse of dlopen's order, so a
// thread in dlopen at that moment deadlocks with this one (tests/omp/loader_race).
const file_id& own_file() {
    static const file_id id = [] {
        Dl_info info{};
        if (dladdr(reinterpret_cast<void*>(&check_foreign_runtimes), &info) == 0) return file_id{};
        return identify(info.dli_fname);
    }();
    return id;
}

bool starts_with(const char* s, const char* prefix) {
    return std::strncmp(s, prefix, std::strlen(prefix)) == 0;
}

// The file names OpenMP runtimes are loaded under: libgomp.so.1, libomp.so(.5),
// libiomp5.so, and the hashed copies wheels vendor (libgomp-<hash>.so.1, ...).
bool runtime_name(const char* path) {
    const char* slash = std::strrchr(path, '/');
    const char* base = slash ? slash + 1 : path;
    for (const char* stem : {"libgomp", "libomp", "libiomp5"}) {
        if (!starts_with(base, stem)) continue;
        const char* rest = base + std::strlen(stem);
        if (starts_with(rest, ".so") || (*rest == '-' && std::strstr(rest, ".so"))) return true;
    }
    return false;
}

struct scan_state {
    file_id own;  // resolved before the walk: the callback must not enter the loader
    std::string foreign;
    unsigned long long changes = 0;
};

// A dl_iterate_phdr callback: runs under the loader's write lock, so it calls nothing
// that takes a loader lock (dladdr, dlsym, dlopen), only stat and the allocator.
int scan_object(dl_phdr_info* info, std::size_t, void* data) {
    auto* st = static_cast<scan_state*>(data);
    st->changes = info->dlpi_adds + info->dlpi_subs;
    if (!info->dlpi_name || !runtime_name(info->dlpi_name)) return 0;
    const file_id id = identify(info->dlpi_name);
    const file_id& own = st->own;
    if (id.valid && own.valid && id.dev == own.dev && id.ino == own.ino) return 0;
    st->foreign = info->dlpi_name;
    return 1;
}

// The load/unload counters alone: the walk stops at the first object.
int read_changes(dl_phdr_info* info, std::size_t, void* data) {
    *static_cast<unsigned long long*>(data) = info->dlpi_adds + info->dlpi_subs;
    return 1;
}

void say_once(const std::string& path) {
    if (g_said.exchange(true)) return;
    std::fprintf(stderr,
                 "loom: another OpenMP runtime is loaded in this process (%s); code bound to "
                 "it runs on its own threads beside loom's, which may oversubscribe the CPUs "
                 "(load loom under that name instead: LD_LIBRARY_PATH, LD_PRELOAD or loomrun)\n",
                 path.c_str());
}

long long coarse_now_ns() {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
    return static_cast<long long>(ts.tv_sec) * 1'000'000'000LL + ts.tv_nsec;
}

}  // namespace

void check_foreign_runtimes() noexcept {
    if (g_said.load(std::memory_order_relaxed)) return;
    std::unique_lock lk(g_scan_mutex, std::try_to_lock);
    if (!lk.owns_lock()) return;  // another thread is looking
    scan_state st;
    st.own = own_file();
    try {
        dl_iterate_phdr(scan_object, &st);
        if (!st.foreign.empty()) say_once(st.foreign);
    } catch (...) {  // no memory for a path: say nothing rather than fail a region
    }
    g_seen_changes.store(st.changes, std::memory_order_relaxed);
}

void recheck_foreign_runtimes() noexcept {
    if (g_said.load(std::memory_order_relaxed)) return;
    const long long now = coarse_now_ns();
    if (now < g_next_check_ns.load(std::memory_order_relaxed)) return;
    g_next_check_ns.store(now + recheck_interval_ns, std::memory_order_relaxed);
    unsigned long long changes = 0;
    dl_iterate_phdr(read_changes, &changes);
    if (changes != g_seen_changes.load(std::memory_order_relaxed)) check_foreign_runtimes();
}

}  // namespace loom::omp
