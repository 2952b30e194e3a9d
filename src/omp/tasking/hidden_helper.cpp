// Hidden helper threads (see hidden_helper.hpp for the numbering).
//
// Each helper has its own FIFO; a task goes to the helper of its creator's gtid
// (2 + gtid mod n, libomp's "shadow" helper), or, when that helper is running a task,
// is taken by the lowest-numbered helper that is not, woken for it if it sleeps (so
// the numbers in use stay low, as under libomp, whose tests expect gtids <= n). A helper runs its own queue
// first, then any other, then sleeps. One mutex guards all queues: hidden helper tasks
// are `target nowait` regions, few and long next to the cost of a lock.
//
// KMP_HIDDEN_HELPER_AFFINITY (libomp's syntax, the subset that applies here):
// `explicit,proclist=[...]` binds helper i to the i-th listed CPU (round robin); any
// other type leaves the helpers free to run on every CPU of the process; `verbose`
// prints libomp's messages #145 / #254 on stderr.
#include "tasking/hidden_helper.hpp"

#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "env/env.hpp"
#include "loom/ext/scheduler.hpp"
#include "loom/ext/task.hpp"
#include "env/places.hpp"
#include "parallel/thread.hpp"

namespace loom::omp::hidden_helper {

namespace {

// libomp's count of helper gtids (the helpers' master included): 8 by default; a
// value n given in LIBOMP_NUM_HIDDEN_HELPER_THREADS becomes n + 1 (kmp_settings.cpp),
// so n helpers run tasks then, and 7 by default.
constexpr int default_gtids = 8;
constexpr int max_helpers = 256;

bool env_flag(const char* name, bool fallback) {
    const char* v = std::getenv(name);
    if (!v || !*v) return fallback;
    if (!strcasecmp(v, "1") || !strcasecmp(v, "true") || !strcasecmp(v, "on") || !strcasecmp(v, "yes"))
        return true;
    if (!strcasecmp(v, "0") || !strcasecmp(v, "false") || !strcasecmp(v, "off") || !strcasecmp(v, "no"))
        return false;
    warn("%s='%s' is not a boolean; using %s instead", name, v, fallback ? "true" : "false");
    return fallback;
}

int env_gtids(const char* name) {
    const char* v = std::getenv(name);
    if (!v || !*v) return default_gtids;
    char* end = nullptr;
    const long n = std::strtol(v, &end, 10);
    if (*end != 0 || n < 0 || n > max_helpers) {
        warn("%s='%s' is not a number of threads in 0..%d; using %d instead", name, v, max_helpers,
             default_gtids - 1);
        return default_gtids;
    }
    return n == 0 ? 0 : static_cast<int>(n) + 1;
}

// Helper gtids held (1..n), 0 when off.
int gtid_count() noexcept {
    static const int n = env_flag("LIBOMP_USE_HIDDEN_HELPER_TASK", true)
                             ? env_gtids("LIBOMP_NUM_HIDDEN_HELPER_THREADS")
                             : 0;
    return n;
}

// Helper threads (gtids 2..n).
int helper_count() noexcept { return gtid_count() > 1 ? gtid_count() - 1 : 0; }

// ---- affinity -------------------------------------------------------------------------

struct affinity_setting {
    bool verbose = false;
    bool fine = false;            // granularity fine / thread
    std::vector<int> proclist;    // explicit
};

// Splits at commas outside brackets: "verbose,explicit,proclist=[0,1]".
std::vector<std::string> split_top(const std::string& s) {
    std::vector<std::string> out(1);
    int depth = 0;
    for (char c : s) {
        if (c == '[') ++depth;
        if (c == ']') --depth;
        if (c == ',' && depth == 0) {
            out.emplace_back();
            continue;
        }
        out.back() += c;
    }
    return out;
}

bool parse_proclist(const std::string& text, std::vector<int>& out) {
    if (text.size() < 2 || text.front() != '[' || text.back() != ']') return false;
    for (const std::string& item : split_top(text.substr(1, text.size() - 2))) {
        char* end = nullptr;
        const long a = std::strtol(item.c_str(), &end, 10);
        long b = a;
        if (*end == '-') b = std::strtol(end + 1, &end, 10);
        if (item.empty() || *end != 0 || a < 0 || b < a || b >= CPU_SETSIZE) return false;
        for (long c = a; c <= b; ++c) out.push_back(static_cast<int>(c));
    }
    return !out.empty();
}

affinity_setting read_affinity() {
    affinity_setting a;
    const char* v = std::getenv("KMP_HIDDEN_HELPER_AFFINITY");
    if (!v || !*v) return a;
    bool is_explicit = false;
    for (const std::string& w : split_top(v)) {
        if (w == "verbose") {
            a.verbose = true;
        } else if (w.rfind("granularity=", 0) == 0) {
            const std::string g = w.substr(12);
            a.fine = g == "fine" || g == "thread";
        } else if (w.rfind("proclist=", 0) == 0) {
            if (!parse_proclist(w.substr(9), a.proclist)) {
                warn("KMP_HIDDEN_HELPER_AFFINITY='%s': malformed proclist; helpers are not bound", v);
                a.proclist.clear();
            }
        } else if (w == "explicit") {
            is_explicit = true;
        }
        // Other words (compact, scatter, noverbose, ...) leave the helpers unbound.
    }
    if (!is_explicit) a.proclist.clear();
    return a;
}

// The CPUs of the process, read when the library is loaded (before the scheduler pins
// the initial thread): helpers start from loom workers, whose binding they would
// inherit. Never destroyed: a helper may still be starting while the process exits.
const std::vector<int>& g_process_cpus = *new std::vector<int>(available_cpus());

std::string cpu_list(const std::vector<int>& cpus) {
    std::string s;
    for (std::size_t i = 0; i < cpus.size();) {
        std::size_t j = i;
        while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
        if (!s.empty()) s += ',';
        s += std::to_string(cpus[i]);
        if (j > i) {
            s += j == i + 1 ? ',' : '-';
            s += std::to_string(cpus[j]);
        }
        i = j + 1;
    }
    return s;
}

void bind_helper(int index, kmp_int32 gtid, const affinity_setting& a) {
    std::vector<int> cpus = g_process_cpus;
    if (!a.proclist.empty()) cpus = {a.proclist[static_cast<std::size_t>(index) % a.proclist.size()]};
    if (!set_thread_mask(cpus)) {
        warn("KMP_HIDDEN_HELPER_AFFINITY: cannot bind helper %d to OS proc set %s; it stays unbound",
             gtid, cpu_list(cpus).c_str());
        return;
    }
    if (a.verbose)
        std::fprintf(stderr,
                     "OMP: Info #254: KMP_HIDDEN_HELPER_AFFINITY: pid %d tid %d thread %d bound to OS "
                     "proc set %s\n",
                     static_cast<int>(getpid()), static_cast<int>(syscall(SYS_gettid)), gtid,
                     cpu_list(cpus).c_str());
}

// ---- helpers ---------------------------------------------------------------------------

struct helper {
    std::deque<ext::task*> queue;
    std::condition_variable cv;
    bool idle = false;     // waiting on cv
    bool running = false;  // running a task
};

struct helpers {
    std::mutex m;
    std::unique_ptr<helper[]> h;
    std::size_t live;             // helpers running (guarded by m)
    std::size_t ready = 0;        // helpers registered and bound (guarded by m)
    std::condition_variable all_ready;
    affinity_setting aff;
    explicit helpers(int n)
        : h(new helper[static_cast<std::size_t>(n)]), live(static_cast<std::size_t>(n)), aff(read_affinity()) {}
};

// Never destroyed: helpers may sleep on it while the process runs its destructors.
std::mutex g_start_mutex;
helpers* g_helpers = nullptr;

ext::task* take(helpers& hs, std::size_t self) {
    if (!hs.h[self].queue.empty()) {
        ext::task* t = hs.h[self].queue.front();
        hs.h[self].queue.pop_front();
        return t;
    }
    // Only from helpers busy with a task: the others take their own (a helper that
    // is just starting must not run what its shadow creator's helper will).
    for (std::size_t i = 0; i < hs.live; ++i) {
        helper& o = hs.h[i];
        if (o.queue.empty() || !o.running) continue;
        ext::task* t = o.queue.front();
        o.queue.pop_front();
        return t;
    }
    return nullptr;
}

void helper_main(helpers* hs, std::size_t index) {
    const auto gtid = static_cast<kmp_int32>(index + 2);
    register_held_thread(gtid);
    bind_helper(static_cast<int>(index), gtid, hs->aff);
    std::unique_lock lk(hs->m);
    ++hs->ready;
    hs->all_ready.notify_all();
    for (;;) {
        if (ext::task* t = take(*hs, index)) {
            hs->h[index].running = true;
            lk.unlock();
            t->run(t);  // runs it as a thread outside the pool (task.cpp, run_entry)
            lk.lock();
            hs->h[index].running = false;
            continue;
        }
        hs->h[index].idle = true;
        hs->h[index].cv.wait(lk);
        hs->h[index].idle = false;
    }
}

helpers* start_locked() {
    const int n = helper_count();
    auto* hs = new helpers(n);
    if (hs->aff.verbose && hs->aff.proclist.empty() && !hs->aff.fine)
        std::fprintf(stderr, "OMP: Info #145: KMP_HIDDEN_HELPER_AFFINITY: Threads may migrate across OS proc set %s\n",
                     cpu_list(g_process_cpus).c_str());
    int started = 0;
    for (int i = 0; i < n; ++i) {
        pthread_t tid;
        struct arg_t {
            helpers* hs;
            std::size_t index;
        };
        auto* arg = new arg_t{hs, static_cast<std::size_t>(i)};
        auto entry = [](void* p) -> void* {
            auto* a = static_cast<arg_t*>(p);
            helpers* s = a->hs;
            const std::size_t index = a->index;
            delete a;
            helper_main(s, index);
            return nullptr;
        };
        if (pthread_create(&tid, nullptr, entry, arg) != 0) {
            delete arg;
            break;
        }
        pthread_detach(tid);
        ++started;
    }
    if (started == 0) {
        warn("cannot start hidden helper threads; target nowait tasks run as ordinary tasks");
        delete hs;
        return nullptr;
    }
    std::unique_lock lk(hs->m);
    if (started < n) {
        warn("started %d of %d hidden helper threads", started, n);
        hs->live = static_cast<std::size_t>(started);
    }
    // As libomp (__kmp_hidden_helper_threads_initz_wait): the first hidden helper task
    // waits until every helper is registered and bound, so their gtids and binding
    // lines (KMP_HIDDEN_HELPER_AFFINITY=verbose) exist before any of them runs a task,
    // and before a short program can exit.
    hs->all_ready.wait(lk, [hs] { return hs->ready == hs->live; });
    return hs;
}

helpers* get_helpers() {
    std::lock_guard lk(g_start_mutex);
    if (!g_helpers) g_helpers = start_locked();
    return g_helpers;
}

// In a fork() child the helpers are gone: the next hidden helper task starts new ones.
struct fork_reset {
    fork_reset() {
        pthread_atfork(nullptr, nullptr, [] {
            new (&g_start_mutex) std::mutex;
            g_helpers = nullptr;
        });
    }
} g_fork_reset;

}  // namespace

kmp_int32 held_gtids() noexcept { return helper_count() > 0 ? gtid_count() : 0; }

void submit(ext::task* rec, kmp_int32 creator_gtid) {
    helpers* hs = get_helpers();
    if (!hs) {
        ext::submit(rec);
        return;
    }
    std::lock_guard lk(hs->m);
    const std::size_t n = hs->live;
    const std::size_t shadow = static_cast<std::size_t>(creator_gtid < 0 ? 0 : creator_gtid) % n;
    hs->h[shadow].queue.push_back(rec);
    // The first helper not running a task (its shadow helper if possible) takes it:
    // one that is awake or already woken scans every queue before it sleeps again.
    std::size_t pick = shadow;
    for (std::size_t i = 0; i < n && hs->h[pick].running; ++i) pick = i;
    helper& o = hs->h[pick];
    if (!o.running && o.idle) {
        o.idle = false;
        o.cv.notify_one();
    }
}

}  // namespace loom::omp::hidden_helper
