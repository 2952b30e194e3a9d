// Environment parsing. See docs/omp.md ("Environment") for the accepted forms.
#include "env/env.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <optional>
#include <string>

#include "abi.hpp"
#include "loom/ext/size_parse.hpp"
#include "routines/alloc.hpp"
#include "env/env_text.hpp"
#include "env/gomp_env.hpp"
#include "env/places.hpp"

namespace loom::omp {

namespace {

bool g_warnings = true;

const char* env(const char* name) { return env_value(name); }

// Boolean spellings accepted by libomp.
int parse_bool(const std::string& text) {
    std::string s = lower(trim(text));
    if (s == "true" || s == "1" || s == "yes" || s == "on" || s == ".t." || s == "t" || s == "y")
        return 1;
    if (s == "false" || s == "0" || s == "no" || s == "off" || s == ".f." || s == "f" || s == "n")
        return 0;
    return -1;
}

void env_bool(const char* name, bool& field, bool* was_set = nullptr) {
    const char* v = env(name);
    if (!v) return;
    int b = parse_bool(v);
    if (b < 0) {
        warn("%s='%s' is not a boolean (true/false); using %s instead", name, v,
             field ? "true" : "false");
        return;
    }
    field = b == 1;
    if (was_set) *was_set = true;
}

void env_nonneg(const char* name, int& field, long hi = INT_MAX, bool positive = false) {
    const char* v = env(name);
    if (!v) return;
    long x;
    if (!parse_int(v, positive ? 1 : 0, hi, x)) {
        warn("%s='%s' is not a %s integer%s; using %d instead", name, v,
             positive ? "positive" : "non-negative", hi == INT_MAX ? "" : " in range", field);
        return;
    }
    field = static_cast<int>(x);
}

// Size with an optional unit (B, K, M, G, T; default `unit`), by the parser every
// layer shares (ext/size_parse.hpp); a size of 0 is no size for OpenMP.
bool parse_size(const std::string& text, char unit, std::size_t& out) {
    const std::optional<std::size_t> n = ext::parse_size(text, unit);
    if (!n || *n == 0) return false;
    out = *n;
    return true;
}

int bind_value(const std::string& word) {
    std::string w = lower(trim(word));
    if (w == "false") return proc_bind_false;
    if (w == "true") return proc_bind_true;
    if (w == "master" || w == "primary") return proc_bind_master;
    if (w == "close") return proc_bind_close;
    if (w == "spread") return proc_bind_spread;
    return -1;
}

void parse_num_threads(global_icvs& g) {
    const char* v = env("OMP_NUM_THREADS");
    if (!v) return;
    std::vector<int> list;
    for (const std::string& part : split(v, ',')) {
        long x;
        if (!parse_int(part, 1, 1 << 20, x)) {
            warn("OMP_NUM_THREADS='%s' is not a list of positive integers; using the number "
                 "of available processors instead", v);
            g.nthreads_malformed = true;
            return;
        }
        list.push_back(static_cast<int>(x));
    }
    g.nthreads_list = list;
    g.nthreads_set = true;
    g.initial.nthreads = list[0];
}

bool parse_schedule_text(const std::string& text, sched_icv& out) {
    std::string s = lower(trim(text));
    sched_icv r;
    std::size_t colon = s.find(':');
    if (colon != std::string::npos) {
        std::string mod = trim(s.substr(0, colon));
        if (mod == "monotonic") r.monotonic = true;
        else if (mod == "nonmonotonic") r.nonmonotonic = true;
        else return false;
        s = trim(s.substr(colon + 1));
    }
    std::string kind = s, chunk;
    std::size_t comma = s.find(',');
    if (comma != std::string::npos) {
        kind = trim(s.substr(0, comma));
        chunk = trim(s.substr(comma + 1));
    }
    if (kind == "static") r.kind = omp_sched_static;
    else if (kind == "dynamic") r.kind = omp_sched_dynamic;
    else if (kind == "guided") r.kind = omp_sched_guided;
    else if (kind == "auto") r.kind = omp_sched_auto;
    // libomp's own kinds: trapezoidal (kmp_sched_trapezoidal = 101, kmp.h); static_steal,
    // which libomp reports as dynamic.
    else if (kind == "trapezoidal") r.kind = 101;
    else if (kind == "static_steal") r.kind = omp_sched_dynamic;
    else return false;
    // Without a chunk, libomp's run-sched-var chunk is 1 (KMP_DEFAULT_CHUNK) for every kind
    // but static (0), and omp_get_schedule reports it.
    if (r.kind != omp_sched_static) r.chunk = 1;
    if (comma != std::string::npos) {
        long c;
        if (r.kind == omp_sched_auto || !parse_int(chunk, 1, INT_MAX, c)) return false;
        r.chunk = static_cast<int>(c);
    }
    if (r.nonmonotonic && r.kind == omp_sched_static) return false;  // not allowed
    out = r;
    return true;
}

void parse_schedule(global_icvs& g) {
    const char* v = env("OMP_SCHEDULE");
    if (!v) return;
    sched_icv s;
    if (!parse_schedule_text(v, s)) {
        // A valid kind with a bad chunk keeps the kind.
        std::string t = lower(trim(v));
        std::size_t comma = t.find(',');
        if (comma != std::string::npos && parse_schedule_text(t.substr(0, comma), s) &&
            s.kind != omp_sched_auto) {
            warn("OMP_SCHEDULE='%s' has an invalid chunk size; using the default chunk "
                 "instead", v);
            g.initial.sched = s;
            g.schedule_text = t.substr(0, comma);
            return;
        }
        warn("OMP_SCHEDULE='%s' is not [monotonic|nonmonotonic:]static|dynamic|guided|"
             "auto[,chunk]; using static instead", v);
        return;
    }
    g.initial.sched = s;
    g.schedule_text = lower(trim(v));
}

void parse_proc_bind(global_icvs& g) {
    const char* v = env("OMP_PROC_BIND");
    if (!v) return;
    std::vector<int> list;
    for (const std::string& part : split(v, ',')) {
        int b = bind_value(part);
        if (b < 0 || ((b == proc_bind_false || b == proc_bind_true) && !list.empty())) {
            warn("OMP_PROC_BIND='%s' is not true, false or a list of primary/master, "
                 "close, spread; using false instead", v);
            return;
        }
        list.push_back(b);
    }
    if (list.size() > 1 && (list[0] == proc_bind_false || list[0] == proc_bind_true)) {
        warn("OMP_PROC_BIND='%s' is not true, false or a list of primary/master, close, "
             "spread; using false instead", v);
        return;
    }
    g.bind_list = list;
    g.bind_set = true;
    g.initial.bind = static_cast<signed char>(list[0]);
}

// As libomp on Linux (LLVM bug 26540, misc_bugs/stack-propagate): with no stack size
// asked for, workers get the main thread's stack limit, at most 64 MiB (libomp's cap for
// an unlimited one); 0 (the scheduler's default) when that is smaller than 1 MiB.
std::size_t main_stack_limit() {
    constexpr std::size_t cap = std::size_t{64} << 20;
    rlimit r{};
    if (getrlimit(RLIMIT_STACK, &r) != 0) return 0;
    std::size_t s = r.rlim_cur == RLIM_INFINITY || r.rlim_cur > cap ? cap : r.rlim_cur;
    return s >= (std::size_t{1} << 20) ? s : 0;
}

void parse_stacksize(global_icvs& g) {
    for (const char* name : {"GOMP_STACKSIZE", "KMP_STACKSIZE", "OMP_STACKSIZE"}) {
        const char* v = env(name);
        if (!v) continue;
        std::size_t bytes;
        if (!parse_size(v, 'K', bytes)) {
            warn("%s='%s' is not a size (a number with an optional B, K, M, G or T unit); "
                 "using the default stack size instead", name, v);
            continue;
        }
        const std::size_t used = clamp_stacksize(bytes);
        if (used != bytes)
            warn("%s='%s' is outside the fiber stack sizes loom supports (64K to 1G); using %zuK "
                 "instead", name, v, used >> 10);
        g.stacksize = used;  // OMP_STACKSIZE, parsed last, wins
    }
    if (g.stacksize == 0 && !env("LOOM_STACKSIZE")) g.stacksize = main_stack_limit();
}

void parse_wait_policy(global_icvs& g) {
    if (const char* v = env("OMP_WAIT_POLICY")) {
        std::string s = lower(trim(v));
        if (s == "active") {
            g.wait_policy_active = true;
            g.wait_policy_set = true;
        } else if (s == "passive") {
            g.wait_policy_active = false;
            g.wait_policy_set = true;
        } else {
            warn("OMP_WAIT_POLICY='%s' is neither active nor passive; using the default "
                 "(spin briefly, then sleep) instead", v);
        }
    }
    parse_gomp_spincount(g);  // gomp_env.cpp
    if (const char* v = env("KMP_BLOCKTIME")) {
        std::string s = lower(trim(v));
        long ms;
        if (s == "infinite" || s == "infinity") {
            g.blocktime_infinite = true;
        } else if (!s.empty() && s.back() == 's' && s.size() > 2 && s[s.size() - 2] == 'u' &&
                   parse_int(s.substr(0, s.size() - 2), 0, INT_MAX, ms)) {
            g.blocktime_us = ms;
            g.blocktime_infinite = false;
        } else if (!s.empty() && s.back() == 's' && s.size() > 2 && s[s.size() - 2] == 'm' &&
                   parse_int(s.substr(0, s.size() - 2), 0, INT_MAX / 1000, ms)) {
            g.blocktime_us = ms * 1000;
            g.blocktime_infinite = false;
        } else if (parse_int(s, 0, INT_MAX / 1000, ms)) {
            g.blocktime_us = ms * 1000;
            g.blocktime_infinite = false;
        } else {
            warn("KMP_BLOCKTIME='%s' is not a number of milliseconds or 'infinite'; using "
                 "the default spin budget instead", v);
        }
    }
}

void parse_nesting(global_icvs& g) {
    bool nested = false, nested_set = false;
    env_bool("OMP_NESTED", nested, &nested_set);
    const char* mal = env("OMP_MAX_ACTIVE_LEVELS");
    if (mal) {
        long x;
        if (!parse_int(mal, 0, INT_MAX, x)) {
            warn("OMP_MAX_ACTIVE_LEVELS='%s' is not a non-negative integer; using %d "
                 "instead", mal, nested_set && nested ? INT_MAX : 1);
        } else {
            g.initial.max_active_levels = static_cast<int>(x);
            g.max_active_levels_set = true;
        }
    }
    if (!g.max_active_levels_set) {
        if (nested_set) {
            g.initial.max_active_levels = nested ? INT_MAX : 1;
        } else if (g.nthreads_list.size() > 1 || g.bind_list.size() > 1) {
            // A list asks for nesting (OpenMP 5.0, 2.6.1).
            g.initial.max_active_levels = INT_MAX;
        }
    }
    g.nested_set = nested_set;
    // libomp's hot-team depth: the members of teams at levels 1..N stay for their
    // team's next region (linger_budget_us). Unset (0): loom's adaptive lingering.
    env_nonneg("KMP_HOT_TEAMS_MAX_LEVEL", g.hot_teams_max_level);
}

// KMP_DISP_NUM_BUFFERS: how many worksharing loops with nowait a team may have in flight
// (libomp's bounds 1..4096 and its messages #80 / #106, which programs and LLVM's
// env/kmp_dispatch_buf_range look for).
void parse_disp_num_buffers(global_icvs& g) {
    const char* v = env("KMP_DISP_NUM_BUFFERS");
    if (!v) return;
    long x;
    const char* problem = nullptr;
    unsigned use = g.disp_num_buffers;
    if (!parse_int(v, LONG_MIN, LONG_MAX, x)) problem = "not a number";
    else if (x < 1) problem = "value too small", use = 1;
    else if (x > 4096) problem = "value too large", use = 4096;
    else use = static_cast<unsigned>(x);
    if (problem) {
        warn_numbered(80, "KMP_DISP_NUM_BUFFERS=\"%s\": %s.", v, problem);
        info_numbered(106, "KMP_DISP_NUM_BUFFERS value \"%u\" will be used.", use);
    }
    g.disp_num_buffers = use;
}

void parse_kmp_library(global_icvs& g) {
    const char* v = env("KMP_LIBRARY");
    if (!v) return;
    std::string s = lower(trim(v));
    if (s == "serial") g.library = 0;
    else if (s == "throughput") g.library = 1;
    else if (s == "turnaround") g.library = 2;
    else
        warn("KMP_LIBRARY='%s' is not serial, throughput or turnaround; using throughput "
             "instead", v);
}

// granularity=fine|thread|core|tile|socket|package|numa: the places KMP_AFFINITY binds
// to when OMP_PLACES is not set (a tile is taken as a core).
bool kmp_granularity(const std::string& w, kmp_affinity_settings& ka) {
    if (w == "fine" || w == "thread") ka.granularity = "threads";
    else if (w == "core" || w == "tile") ka.granularity = "cores";
    else if (w == "socket" || w == "package") ka.granularity = "sockets";
    else if (w == "numa" || w == "numa_domain") ka.granularity = "numa_domains";
    else return false;
    return true;
}

void parse_kmp_affinity(global_icvs& g) {
    const char* v = env("KMP_AFFINITY");
    if (!v) return;
    int bind = -1;
    bool ok = true;
    kmp_affinity_settings ka;
    for (const std::string& raw : split(v, ',')) {
        std::string w = lower(trim(raw));
        if (w.empty()) continue;
        if (w == "none" || w == "disabled") bind = proc_bind_false;
        else if (w == "compact") bind = proc_bind_close;
        else if (w == "scatter" || w == "balanced") bind = proc_bind_spread;
        else if (w.rfind("granularity=", 0) == 0) ok = ok && kmp_granularity(w.substr(12), ka);
        else if (w == "reset" || w == "noreset") ka.reset = w == "reset";
        else if (w == "verbose" || w == "noverbose") ka.verbose = w == "verbose";
        else if (w == "warnings" || w == "nowarnings" || w == "respect" || w == "norespect" ||
                 std::isdigit(static_cast<unsigned char>(w[0])))
            continue;
        else
            ok = false;
    }
    ka.set = bind > proc_bind_false;
    ka.disabled = bind == proc_bind_false;
    ka.initial_mask = available_cpus();  // read before the pool binds this thread
    if (ok) kmp_affinity() = ka;
    if (!ok) {
        warn("KMP_AFFINITY='%s' is not one of the supported forms (none, disabled, compact, "
             "scatter, balanced with modifiers); ignoring it", v);
        return;
    }
    if (bind >= 0 && !g.bind_set) {
        g.bind_list = {bind};
        g.initial.bind = static_cast<signed char>(bind);
    }
}

void parse_display(global_icvs& g) {
    if (const char* v = env("OMP_DISPLAY_ENV")) {
        std::string s = lower(trim(v));
        if (s == "verbose") g.display_env = 2;
        else if (parse_bool(s) >= 0) g.display_env = parse_bool(s);
        else warn("OMP_DISPLAY_ENV='%s' is not true, false or verbose; using false instead", v);
    }
    env_bool("OMP_DISPLAY_AFFINITY", g.display_affinity);
    if (const char* v = env("OMP_AFFINITY_FORMAT")) g.affinity_format = v;
}

// Without OMP_PLACES, a KMP_AFFINITY binding type gives the places of its granularity
// (cores by default), OMP_PROC_BIND other than false the cores (the places are then
// implementation defined, OpenMP 5.2 21.1.7: libomp's cores; libgomp takes hardware
// threads, the same places without SMT), and KMP_HW_SUBSET alone one place of the
// processors it keeps. Before, OMP_PROC_BIND alone gave one place of every processor
// while the scheduler pinned each worker to its own core: every thread answered place
// 0 of 1, and spread/close had nothing to spread over.
void default_places(global_icvs& g) {
    const kmp_affinity_settings& ka = kmp_affinity();
    if (ka.set) {
        g.places_text = ka.granularity.empty() ? "cores" : ka.granularity;
        parse_places(g.places_text, g.places);
    } else if (g.bind_set && g.initial.bind != proc_bind_false && !ka.disabled) {
        g.places_text = "cores";
        parse_places(g.places_text, g.places);
    } else if (env("KMP_HW_SUBSET") && !ka.disabled) {
        std::vector<int> kept;
        for (const cpu_info& c : subset_cpus()) kept.push_back(c.cpu);
        g.places = {kept};
    }
}

// A malformed OMP_PLACES falls back as in libomp: to the abstract name it starts with
// ("sockets(" gives sockets), else to cores.
std::string places_fallback(const char* v) {
    std::string s = lower(trim(v));
    for (const char* name : {"threads", "cores", "ll_caches", "numa_domains", "sockets"})
        if (s.rfind(name, 0) == 0) return name;
    return "cores";
}

// OMP_PLACES without OMP_PROC_BIND (or a KMP_AFFINITY type) binds threads, as in
// libomp: bind-var is true.
void bind_by_default(global_icvs& g) {
    if (g.bind_set || kmp_affinity().set || kmp_affinity().disabled) return;
    g.bind_list = {proc_bind_true};
    g.initial.bind = proc_bind_true;
}

// Processor ids outside the process's mask (absent or not allowed) are dropped from
// their places with one warning naming them, and places left empty are dropped, as
// libomp ("Ignoring invalid OS proc ID"). False when no place is left.
bool keep_usable_processors(const char* text, std::vector<std::vector<int>>& places) {
    const std::vector<int> usable = available_cpus();
    std::vector<int> ignored;
    for (auto& place : places)
        std::erase_if(place, [&](int c) {
            if (std::binary_search(usable.begin(), usable.end(), c)) return false;
            if (std::find(ignored.begin(), ignored.end(), c) == ignored.end()) ignored.push_back(c);
            return true;
        });
    std::erase_if(places, [](const std::vector<int>& p) { return p.empty(); });
    if (!ignored.empty()) {
        std::string ids;
        for (int c : ignored) ids += (ids.empty() ? "" : ", ") + std::to_string(c);
        warn("OMP_PLACES='%s' names processors this process may not use (%s); ignoring them",
             text, ids.c_str());
    }
    return !places.empty();
}

void parse_places_env(global_icvs& g) {
    const char* v = env("OMP_PLACES");
    if (!v) {
        if (!parse_gomp_cpu_affinity(g)) default_places(g);  // gomp_env.cpp
        return;
    }
    std::vector<std::vector<int>> places;
    if (!parse_places(v, places) || places.empty()) {
        std::string fallback = places_fallback(v);
        warn("OMP_PLACES='%s' is not an abstract name (threads, cores, ll_caches, "
             "numa_domains, sockets with an optional count) or a place list; using %s "
             "instead", v, fallback.c_str());
        g.places_text = fallback;
        parse_places(fallback, g.places);
        bind_by_default(g);
        return;
    }
    if (!keep_usable_processors(v, places)) {
        warn("OMP_PLACES='%s' names no processor this process may use; not binding threads "
             "to places", v);
        return;
    }
    g.places = places;
    g.places_text = v;
    bind_by_default(g);
}

// Any case, as libomp; a value that matches nothing means "default" (libomp 19 does
// the same after its warning; LLVM env/omp_target_offload).
void parse_target_offload(global_icvs& g, const char* v) {
    std::string s = lower(trim(v));
    if (s == "default") g.target_offload = 0;
    else if (s == "disabled") g.target_offload = 1;
    else if (s == "mandatory") g.target_offload = 2;
    else {
        g.target_offload = 0;
        warn("OMP_TARGET_OFFLOAD='%s' is not mandatory, disabled or default; using "
             "default instead", v);
    }
}

// One trait of OMP_ALLOCATOR's "memspace:key=value,..." form (OpenMP 5.2, 21.5.1).
bool parse_alloc_trait(const std::string& item, alloc_trait& t) {
    static const std::map<std::string, int> keys = {
        {"sync_hint", 1}, {"alignment", 2}, {"access", 3}, {"pool_size", 4},
        {"fallback", 5}, {"pinned", 7}, {"partition", 8}};
    static const std::map<std::string, std::uintptr_t> values = {
        {"false", 0}, {"true", 1}, {"contended", 3}, {"uncontended", 4}, {"serialized", 5},
        {"sequential", 5}, {"private", 6}, {"all", 7}, {"thread", 8}, {"pteam", 9},
        {"cgroup", 10}, {"default_mem_fb", 11}, {"null_fb", 12}, {"abort_fb", 13},
        {"environment", 15}, {"nearest", 16}, {"blocked", 17}, {"interleaved", 18}};
    std::size_t eq = item.find('=');
    if (eq == std::string::npos) return false;
    auto k = keys.find(lower(trim(item.substr(0, eq))));
    if (k == keys.end()) return false;
    t.key = k->second;
    std::string val = trim(item.substr(eq + 1));
    if (t.key == 2 || t.key == 4) {  // alignment, pool_size: byte counts
        std::size_t n;
        if (!parse_size(val, 'B', n)) return false;
        t.value = n;
        return true;
    }
    auto v = values.find(lower(val));
    if (v == values.end()) return false;
    t.value = v->second;
    return true;
}

// A predefined allocator name, or a memory space with optional traits; names in any
// case (as libomp). Returns null_allocator if the text is neither.
allocator_handle parse_allocator(const std::string& text) {
    static const char* const allocs[] = {
        "omp_default_mem_alloc", "omp_large_cap_mem_alloc", "omp_const_mem_alloc",
        "omp_high_bw_mem_alloc", "omp_low_lat_mem_alloc",  "omp_cgroup_mem_alloc",
        "omp_pteam_mem_alloc",   "omp_thread_mem_alloc"};
    static const char* const spaces[] = {"omp_default_mem_space", "omp_large_cap_mem_space",
                                         "omp_const_mem_space", "omp_high_bw_mem_space",
                                         "omp_low_lat_mem_space"};
    std::size_t colon = text.find(':');
    std::string name = lower(trim(text.substr(0, colon)));
    for (allocator_handle a = 0; a < std::size(allocs); ++a)
        if (colon == std::string::npos && name == allocs[a]) return a + 1;
    for (allocator_handle m = 0; m < std::size(spaces); ++m) {
        if (name != spaces[m]) continue;
        std::vector<alloc_trait> traits;
        if (colon != std::string::npos) {
            for (const std::string& item : split(text.substr(colon + 1), ',')) {
                alloc_trait t{};
                if (!parse_alloc_trait(item, t)) return null_allocator;
                traits.push_back(t);
            }
        }
        return make_allocator(m, static_cast<int>(traits.size()), traits.data());
    }
    return null_allocator;
}

void parse_allocator_env(global_icvs& g) {
    const char* v = env("OMP_ALLOCATOR");
    if (!v || trim(v).empty()) return;
    allocator_handle a = parse_allocator(v);
    if (a == null_allocator) {
        // libomp's message and number: programs and LLVM's env/omp_alloc_env_invalid
        // look for "OMP: Warning #".
        warn_numbered(42, "OMP_ALLOCATOR: \"%s\" is an invalid value; ignored (using "
                          "omp_default_mem_alloc)", v);
        return;
    }
    g.initial.def_allocator = a;
    g.default_allocator = trim(v);
}

void parse_misc(global_icvs& g) {
    env_bool("OMP_DYNAMIC", g.initial.dynamic);
    env_bool("OMP_CANCELLATION", g.cancellation);
    if (const char* v = env("OMP_THREAD_LIMIT")) {
        long x;
        if (parse_int(v, 1, INT_MAX, x)) g.initial.thread_limit = static_cast<int>(x);
        else warn("OMP_THREAD_LIMIT='%s' is not a positive integer; using no limit instead", v);
    }
    env_nonneg("OMP_MAX_TASK_PRIORITY", g.max_task_priority);
    env_nonneg("OMP_DEFAULT_DEVICE", g.initial.default_device);
    env_nonneg("OMP_NUM_TEAMS", g.num_teams, INT_MAX, true);
    env_nonneg("OMP_TEAMS_THREAD_LIMIT", g.teams_thread_limit, INT_MAX, true);
    if (const char* v = env("OMP_TARGET_OFFLOAD")) parse_target_offload(g, v);
    parse_allocator_env(g);
}

}  // namespace

void set_warnings(bool on) noexcept { g_warnings = on; }

namespace {
// One line on stderr: `prefix`, then the formatted message (all three report forms).
void report(const char* prefix, const char* fmt, va_list ap) {
    char buf[1024];
    std::vsnprintf(buf, sizeof buf, fmt, ap);
    std::fprintf(stderr, "%s%s\n", prefix, buf);
}

void report_numbered(const char* kind, int number, const char* fmt, va_list ap) {
    char prefix[64];
    std::snprintf(prefix, sizeof prefix, "OMP: %s #%d: ", kind, number);
    report(prefix, fmt, ap);
}
}  // namespace

void warn(const char* fmt, ...) {
    if (!g_warnings) return;
    va_list ap;
    va_start(ap, fmt);
    report("loom: warning: ", fmt, ap);
    va_end(ap);
}

void info_numbered(int number, const char* fmt, ...) {
    if (!g_warnings) return;
    va_list ap;
    va_start(ap, fmt);
    report_numbered("Info", number, fmt, ap);
    va_end(ap);
}

void warn_numbered(int number, const char* fmt, ...) {
    if (!g_warnings) return;
    va_list ap;
    va_start(ap, fmt);
    report_numbered("Warning", number, fmt, ap);
    va_end(ap);
}

void apply_setting(const char* assignment) {
    const std::string text = assignment ? assignment : "";
    const std::size_t eq = text.find('=');
    const std::string name = trim(text.substr(0, eq));
    if (eq != std::string::npos && name == "OMP_TARGET_OFFLOAD") {
        parse_target_offload(globals(), text.c_str() + eq + 1);
        return;
    }
    if (eq != std::string::npos && name == "KMP_WARNINGS") {
        if (int b = parse_bool(text.substr(eq + 1)); b >= 0) set_warnings(b == 1);
        return;
    }
    warn("kmp_set_defaults('%s'): only OMP_TARGET_OFFLOAD and KMP_WARNINGS can be set "
         "this way; ignored", text.c_str());
}

void parse_environment(global_icvs& g) {
    if (const char* v = env("KMP_WARNINGS")) {
        if (parse_bool(v) == 0) g_warnings = false;
    }
    parse_num_threads(g);
    parse_schedule(g);
    parse_proc_bind(g);
    parse_kmp_affinity(g);
    parse_nesting(g);
    parse_stacksize(g);
    parse_wait_policy(g);
    parse_kmp_library(g);
    parse_disp_num_buffers(g);
    parse_display(g);
    parse_places_env(g);
    parse_misc(g);
    parse_gomp_debug();  // gomp_env.cpp
    if (g.library == 0) g.initial.nthreads = 1;  // KMP_LIBRARY=serial
}

}  // namespace loom::omp
