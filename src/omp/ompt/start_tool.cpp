// Tool discovery, initialisation and finalisation (OpenMP 5.2, 19.2).
//
// Unless OMP_TOOL=disabled: `ompt_start_tool` in the process (the program or a library
// already loaded), then in each library of OMP_TOOL_LIBRARIES (colon-separated), then
// in libarcher.so (LLVM's race checker, which starts only under ThreadSanitizer), as
// libomp does. The candidates are found when this library is loaded and tried in that
// order when the first thread registers with the runtime, until one returns non-null
// (see search_step below for why). The tool's initialize gets the lookup function
// (entry_points.cpp); a non-zero answer activates the interface.
// OMP_TOOL_VERBOSE_INIT=stdout|stderr|<file> logs the search in libomp's words.
// Finalisation runs once, at exit or from ompt_finalize_tool.
#include <dlfcn.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

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
#if LOOM_OMPT
std::once_flag g_start_once;
#endif
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
    void print(const char* text) {
        if (!f) return;
        std::fputs(text, f);
        std::fflush(f);
    }
    void done() {
        if (close) std::fclose(f);
        f = nullptr;
    }
};

using start_fn = ompt_start_tool_result_t* (*)(unsigned, const char*);

#if LOOM_OMPT
constexpr unsigned omp_version = 201611;  // what libomp passes (_OPENMP of 5.0 drafts)
constexpr const char* runtime_version = "loom OpenMP runtime (LLVM libomp 19 ABI)";
#endif

// Why the search is split in two. Finding the candidates takes glibc's loader lock
// (dlsym, dlopen); done lazily it ran inside start_tool_once's call_once, so a thread in
// dlopen whose library constructor enters OpenMP (holding the loader lock, waiting for
// that call_once) deadlocked with the thread searching (holding the call_once, waiting
// for the loader lock): tests/omp/loader_race. The loader part therefore runs when
// this library is loaded (find_candidates_at_load: the loader lock is this thread's
// already); the lazy part only calls the candidates' ompt_start_tool in order, as
// libomp does, and prints the OMP_TOOL_VERBOSE_INIT log in its words. OMP_TOOL,
// OMP_TOOL_LIBRARIES and OMP_TOOL_VERBOSE_INIT are read at load time.

// One step of the search: what the log says before trying, the function to try (null:
// nothing to try, the text says why), and what the log says after.
struct search_step {
    std::string before;
    start_fn fn = nullptr;
    std::string on_success;  // printed when fn returns a tool
    std::string on_failure;  // printed when fn returns null
};

struct search_plan {
    enum class tool_var { enabled, disabled, unknown } tool = tool_var::enabled;
    std::string tool_value;  // OMP_TOOL when it is neither enabled nor disabled
    std::string verbose;     // OMP_TOOL_VERBOSE_INIT
    std::vector<search_step> steps;
};

// The search and its constructor exist only with the event sites compiled in
// (LOOM_OMPT); without them start_tool_once finds no tool.
#if LOOM_OMPT
search_plan* g_plan = nullptr;  // written by the constructor, read under g_start_once

std::string error_text(const char* fallback) {
    const char* e = dlerror();
    return e ? e : fallback;
}

// By object, not by address of ::ompt_start_tool: that address is the one the global
// scope names, which may be the program's definition.
bool in_this_library(void* fn) {
    Dl_info mine{}, theirs{};
    return dladdr(reinterpret_cast<void*>(&in_this_library), &mine) != 0 && dladdr(fn, &theirs) != 0 &&
           mine.dli_fbase == theirs.dli_fbase;
}

// ompt_start_tool already in the process. The global scope may name this library's
// weak definition first (a tool library linked after it: the loader does not prefer a
// later strong definition to an earlier weak one), so the search then goes on past
// this library, as libomp's weak ompt_start_tool does.
void plan_process(search_plan& p) {
    auto fn = reinterpret_cast<start_fn>(dlsym(RTLD_DEFAULT, "ompt_start_tool"));
    if (fn && in_this_library(reinterpret_cast<void*>(fn)))
        fn = reinterpret_cast<start_fn>(dlsym(RTLD_NEXT, "ompt_start_tool"));
    const char* before = "Search for OMP tool in current address space... ";
    if (!fn) {
        p.steps.push_back({std::string(before) + "Failed.\n", nullptr, "", ""});
        return;
    }
    p.steps.push_back({before, fn, "Success.\n", "Failed.\n"});
}

// One library of OMP_TOOL_LIBRARIES. A handle stays open (a tool that declines keeps
// its library mapped: closing it later would need the loader again).
void plan_library(search_plan& p, const std::string& name) {
    std::string before = "Opening " + name + "... ";
    dlerror();
    void* h = dlopen(name.c_str(), RTLD_LAZY);
    if (!h) {
        p.steps.push_back({before + "Failed: " + error_text("unknown error") + "\n", nullptr, "", ""});
        return;
    }
    before += "Success.\nSearching for ompt_start_tool in " + name + "... ";
    auto fn = reinterpret_cast<start_fn>(dlsym(h, "ompt_start_tool"));
    if (!fn) {
        p.steps.push_back({before + "Failed: " + error_text("ompt_start_tool = NULL") + "\n", nullptr, "", ""});
        dlclose(h);  // at load time: the loader lock is ours
        return;
    }
    p.steps.push_back({before, fn, "Success.\n", "Found but not using the OMPT interface.\nContinuing search...\n"});
}

void plan_libraries(search_plan& p) {
    const char* libs = std::getenv("OMP_TOOL_LIBRARIES");
    if (!libs || !*libs) {
        p.steps.push_back({"No OMP_TOOL_LIBRARIES defined.\n...searching tool libraries failed.\n", nullptr, "", ""});
        return;
    }
    p.steps.push_back({std::string("Searching tool libraries...\nOMP_TOOL_LIBRARIES = ") + libs + "\n", nullptr, "", ""});
    const std::string all(libs);
    std::size_t pos = 0;
    while (pos <= all.size()) {
        std::size_t end = all.find(':', pos);
        if (end == std::string::npos) end = all.size();
        const std::string name = all.substr(pos, end - pos);
        pos = end + 1;
        if (!name.empty()) plan_library(p, name);
    }
    p.steps.push_back({"...searching tool libraries failed.\n", nullptr, "", ""});
}

// LLVM's race checker: its ompt_start_tool returns null unless the program runs under
// ThreadSanitizer, so trying it costs a failed dlopen in most processes.
void plan_archer(search_plan& p) {
    void* h = dlopen("libarcher.so", RTLD_LAZY);
    if (!h) return;
    auto fn = reinterpret_cast<start_fn>(dlsym(h, "ompt_start_tool"));
    if (fn) p.steps.push_back({"Opening libarcher.so... Success.\n", fn, "", ""});
}

__attribute__((constructor)) void find_candidates_at_load() {
    try {
        auto* p = new search_plan;
        const char* tool = std::getenv("OMP_TOOL");
        if (const char* v = std::getenv("OMP_TOOL_VERBOSE_INIT")) p->verbose = v;
        if (tool && std::strcmp(tool, "disabled") == 0) {
            p->tool = search_plan::tool_var::disabled;
        } else {
            if (tool && *tool && std::strcmp(tool, "enabled") != 0) {
                p->tool = search_plan::tool_var::unknown;
                p->tool_value = tool;
            }
            plan_process(*p);
            plan_libraries(*p);
            plan_archer(*p);
        }
        g_plan = p;
    } catch (...) {  // no memory at load time: no tool
    }
}

ompt_start_tool_result_t* discover() {
    if (!g_plan) return nullptr;
    const search_plan& p = *g_plan;
    verbose_log log;
    log.open(p.verbose.empty() ? nullptr : p.verbose.c_str());
    log.print("----- START LOGGING OF TOOL REGISTRATION -----\n");
    ompt_start_tool_result_t* r = nullptr;
    if (p.tool == search_plan::tool_var::disabled) {
        log.print("OMP tool disabled. \n");
    } else {
        if (p.tool == search_plan::tool_var::unknown)
            std::fprintf(stderr, "loom: OMP_TOOL='%s' is not enabled or disabled; using enabled\n",
                         p.tool_value.c_str());
        for (const search_step& step : p.steps) {
            log.print(step.before.c_str());
            if (!step.fn) continue;
            r = step.fn(omp_version, runtime_version);
            log.print((r ? step.on_success : step.on_failure).c_str());
            if (r) break;
        }
        log.print(r ? "Tool was started and is using the OMPT interface.\n" : "No OMP tool loaded.\n");
    }
    log.print("----- END LOGGING OF TOOL REGISTRATION -----\n");
    log.done();
    return r;
}

void finalize_at_exit() { finalize_tool(); }
#endif  // LOOM_OMPT

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
    if (on() && th && th->ompt_initial) thread_exiting(th);
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
