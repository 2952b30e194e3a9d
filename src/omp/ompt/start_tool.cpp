// Tool discovery, initialisation and finalisation (OpenMP 5.2, 19.2).
//
// When the first thread registers with the runtime: unless OMP_TOOL=disabled, look for
// `ompt_start_tool` in the process (the program or a library already loaded), then in
// each library of OMP_TOOL_LIBRARIES (colon-separated) until one returns non-null, then
// in libarcher.so (LLVM's race checker, which starts only under ThreadSanitizer), as
// libomp does. The tool's initialize gets the lookup function (entry_points.cpp); a
// non-zero answer activates the interface. OMP_TOOL_VERBOSE_INIT=stdout|stderr|<file>
// logs the search in libomp's words. Finalisation runs once, at exit or from
// ompt_finalize_tool.
#include <dlfcn.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

#include "ompt/events.hpp"
#include "ompt/ompt.hpp"
#include "ompt/tool.hpp"
#include "parallel/thread.hpp"

namespace loom::omp::ompt {

std::atomic<bool> g_on{false};
std::atomic<ompt_callback_t> g_callbacks[max_event + 1];
__thread const void* t_return_address = nullptr;

namespace {

ompt_start_tool_result_t* g_tool = nullptr;
std::once_flag g_start_once;
std::atomic<bool> g_finalized{false};

// The OMP_TOOL_VERBOSE_INIT log: null when not asked for.
struct verbose_log {
    FILE* f = nullptr;
    bool close = false;
    void open(const char* v) {
        if (!v || !*v || std::strcmp(v, "disabled") == 0) return;
        if (std::strcmp(v, "stdout") == 0) {
            f = stdout;
        } else if (std::strcmp(v, "stderr") == 0) {
            f = stderr;
        } else {
            f = std::fopen(v, "w");
            close = f != nullptr;
            if (!f) std::fprintf(stderr, "loom: OMP_TOOL_VERBOSE_INIT: cannot open '%s'; no log\n", v);
        }
    }
    template <class... A>
    void print(const char* fmt, A... a) {
        if (!f) return;
        std::fprintf(f, fmt, a...);
        std::fflush(f);
    }
    void done() {
        if (close) std::fclose(f);
        f = nullptr;
    }
};

using start_fn = ompt_start_tool_result_t* (*)(unsigned, const char*);

constexpr unsigned omp_version = 201611;  // what libomp passes (_OPENMP of 5.0 drafts)
constexpr const char* runtime_version = "loom OpenMP runtime (LLVM libomp 19 ABI)";

// ompt_start_tool already in the process (not found in this library: loom defines none).
ompt_start_tool_result_t* search_process(verbose_log& log) {
    log.print("Search for OMP tool in current address space... ");
    auto fn = reinterpret_cast<start_fn>(dlsym(RTLD_DEFAULT, "ompt_start_tool"));
    ompt_start_tool_result_t* r = fn ? fn(omp_version, runtime_version) : nullptr;
    log.print(r ? "Success.\n" : "Failed.\n");
    return r;
}

// One library of OMP_TOOL_LIBRARIES; the handle stays open when its tool starts.
ompt_start_tool_result_t* try_library(verbose_log& log, const std::string& name) {
    log.print("Opening %s... ", name.c_str());
    void* h = dlopen(name.c_str(), RTLD_LAZY);
    if (!h) {
        const char* e = dlerror();
        log.print("Failed: %s\n", e ? e : "unknown error");
        return nullptr;
    }
    log.print("Success.\n");
    log.print("Searching for ompt_start_tool in %s... ", name.c_str());
    dlerror();
    auto fn = reinterpret_cast<start_fn>(dlsym(h, "ompt_start_tool"));
    if (!fn) {
        const char* e = dlerror();
        log.print("Failed: %s\n", e ? e : "ompt_start_tool = NULL");
        dlclose(h);
        return nullptr;
    }
    ompt_start_tool_result_t* r = fn(omp_version, runtime_version);
    if (r) {
        log.print("Success.\n");
        return r;
    }
    dlclose(h);
    return nullptr;
}

ompt_start_tool_result_t* search_libraries(verbose_log& log) {
    log.print("Searching tool libraries...\n");
    const char* libs = std::getenv("OMP_TOOL_LIBRARIES");
    if (!libs || !*libs) return nullptr;
    log.print("OMP_TOOL_LIBRARIES = %s\n", libs);
    std::string all(libs);
    std::size_t pos = 0;
    while (pos <= all.size()) {
        std::size_t end = all.find(':', pos);
        if (end == std::string::npos) end = all.size();
        std::string name = all.substr(pos, end - pos);
        pos = end + 1;
        if (name.empty()) continue;
        if (ompt_start_tool_result_t* r = try_library(log, name)) return r;
    }
    return nullptr;
}

// LLVM's race checker: its ompt_start_tool returns null unless the program runs under
// ThreadSanitizer, so trying it costs a failed dlopen in most processes.
ompt_start_tool_result_t* search_archer(verbose_log& log) {
    void* h = dlopen("libarcher.so", RTLD_LAZY);
    if (!h) return nullptr;
    log.print("Opening libarcher.so... Success.\n");
    auto fn = reinterpret_cast<start_fn>(dlsym(h, "ompt_start_tool"));
    ompt_start_tool_result_t* r = fn ? fn(omp_version, runtime_version) : nullptr;
    if (!r) dlclose(h);
    return r;
}

ompt_start_tool_result_t* discover() {
    const char* tool = std::getenv("OMP_TOOL");
    verbose_log log;
    log.open(std::getenv("OMP_TOOL_VERBOSE_INIT"));
    log.print("----- START LOGGING OF TOOL REGISTRATION -----\n");
    ompt_start_tool_result_t* r = nullptr;
    if (tool && std::strcmp(tool, "disabled") == 0) {
        log.print("OMP tool disabled. \n");
    } else {
        if (tool && *tool && std::strcmp(tool, "enabled") != 0)
            std::fprintf(stderr, "loom: OMP_TOOL='%s' is not enabled or disabled; using enabled\n", tool);
        r = search_process(log);
        if (!r) r = search_libraries(log);
        if (!r) r = search_archer(log);
        log.print(r ? "Tool was started and is using the OMPT interface.\n" : "No OMP tool loaded.\n");
    }
    log.print("----- END LOGGING OF TOOL REGISTRATION -----\n");
    log.done();
    return r;
}

void finalize_at_exit() { finalize_tool(); }

}  // namespace

void start_tool_once() noexcept {
#if LOOM_OMPT
    std::call_once(g_start_once, [] {
        ompt_start_tool_result_t* r = discover();
        if (!r || !r->initialize) return;
        g_tool = r;
        // The interface is on while the tool initialises (it may call entry points).
        if (r->initialize(&lookup, 0, &r->tool_data) == 0) {
            for (auto& c : g_callbacks) c.store(nullptr, std::memory_order_relaxed);
            g_tool = nullptr;
            return;
        }
        g_on.store(true, std::memory_order_relaxed);
        std::atexit(&finalize_at_exit);
    });
#endif
}

void finalize_tool() noexcept {
    if (!g_tool || g_finalized.exchange(true)) return;
    thread_state* th = this_thread_if_known();
    if (on() && th && th->gtid == 0) {
        initial_task(th, ompt_scope_end);
        thread_end(th);
    }
    g_on.store(false, std::memory_order_relaxed);
    if (g_tool->finalize) g_tool->finalize(&g_tool->tool_data);
}

}  // namespace loom::omp::ompt

// A weak definition, as libomp has: a program linked against this library then exports
// its own ompt_start_tool (the linker sees a shared library that defines the name), so
// the search in the process finds it before this one, which starts no tool.
extern "C" __attribute__((weak, visibility("default"))) ompt_start_tool_result_t* ompt_start_tool(
    unsigned int, const char*) {
    return nullptr;
}
