// LOOM_TRACE recording (trace.hpp): slices on each worker's track, flow arrows between
// the slice that queues a task and the slice it runs in, queue-length counters.
#include "trace.hpp"

#include <array>
#include <mutex>
#include <unordered_map>

#include "pool.hpp"
#include "runtime.hpp"

namespace loom::ext {
std::atomic<bool> g_tracing{false};
}

namespace loom::core {

namespace {

std::mutex g_archive_lock;
// Tracks of pools that ended (a pause, an OpenMP pool rebuilt larger), by worker index.
std::vector<trace_track> g_archive;

// ---- flow arrows. The ids of the arrows waiting for a queued task, keyed by its
// record: the record has no spare field, and the table exists only while tracing. The
// spawner inserts, whoever runs the task takes the entry out (any thread: striped
// locks). A record that is freed without running through a hook leaves its entry
// behind; its next life's first arrow replaces it (`more` says the next arrow is not
// a first one), and arrows that never got both ends are dropped when the file is
// written.
// Chrome and Perfetto pair an arrow's two ends by id, category and name: the name
// travels with the id.
struct flow_end_point {
    std::uint64_t id;
    const char* name;
};
struct flow_entry {
    std::vector<flow_end_point> ids;
    bool more = false;
};
struct alignas(64) flow_stripe {
    std::mutex lock;
    std::unordered_map<const void*, flow_entry> waiting;
};
constexpr std::size_t flow_stripes = 64;
std::array<flow_stripe, flow_stripes> g_flows;
std::atomic<std::uint64_t> g_next_flow{1};

flow_stripe& stripe_of(const void* t) noexcept {
    // Records are at least 64-byte aligned: the low bits say nothing.
    return g_flows[(reinterpret_cast<std::uintptr_t>(t) >> 7) % flow_stripes];
}

void flow_out(trace_track* track, const void* t, const char* name, bool more) noexcept {
    const bool drawn = track != nullptr && !track->open.empty();
    const std::uint64_t id = drawn ? g_next_flow.fetch_add(1, std::memory_order_relaxed) : 0;
    flow_stripe& s = stripe_of(t);
    {
        std::lock_guard guard(s.lock);
        auto it = s.waiting.find(t);
        if (it == s.waiting.end()) {
            if (!drawn && !more) return;
            it = s.waiting.emplace(t, flow_entry{}).first;
        }
        flow_entry& e = it->second;
        if (!e.more) e.ids.clear();  // a first arrow: what is there is stale
        if (drawn) e.ids.push_back({id, name});
        e.more = more;
    }
    if (drawn) track->events.push_back({trace_now_ns(), name, id, trace_phase::flow_start});
}

// Takes the arrows waiting for `t` out of the table; they end in the innermost slice
// of `track` (none: they are dropped, their starts have no end).
void flows_in(trace_track* track, const void* t) noexcept {
    flow_entry e;
    flow_stripe& s = stripe_of(t);
    {
        std::lock_guard guard(s.lock);
        auto it = s.waiting.find(t);
        if (it == s.waiting.end()) return;
        e = std::move(it->second);
        s.waiting.erase(it);
    }
    if (!track || track->open.empty()) return;
    const std::uint64_t ns = trace_now_ns();
    for (const flow_end_point& f : e.ids) track->events.push_back({ns, f.name, f.id, trace_phase::flow_end});
}

// ---- queue-length counters, at most every 100 us per worker; the pool's shared
// queues at most every 100 us in all (the first worker due takes the sample).
constexpr std::uint64_t sample_interval_ns = 100'000;
std::atomic<std::uint64_t> g_pool_sample_due{0};

void sample_queues(worker& w, std::uint64_t ns) noexcept {
    if (ns < w.trace.next_sample_ns) return;
    w.trace.next_sample_ns = ns + sample_interval_ns;
    auto& ev = w.trace.events;
    const auto own = static_cast<std::uint64_t>(w.deques[0].size_hint() + w.deques[1].size_hint());
    ev.push_back({ns, trace_deque_counter, own, trace_phase::counter});
    std::uint64_t due = g_pool_sample_due.load(std::memory_order_relaxed);
    if (ns < due || !g_pool_sample_due.compare_exchange_strong(due, ns + sample_interval_ns,
                                                              std::memory_order_relaxed)) {
        return;
    }
    pool& p = w.owner;
    long injected = 0;
    for (const auto& q : p.injection) injected += q.size_hint();
    const long high = p.high.size_hint();
    ev.push_back({ns, trace_injection_counter, static_cast<std::uint64_t>(injected > 0 ? injected : 0),
                  trace_phase::counter});
    ev.push_back({ns, trace_priority_counter, static_cast<std::uint64_t>(high > 0 ? high : 0),
                  trace_phase::counter});
}

void open_slice(trace_track& t, const char* name, bool resumed = false) {
    t.events.push_back({trace_now_ns(), name, 0, trace_phase::begin, resumed});
    t.open.push_back(name);
}

void close_slice(trace_track& t) {
    if (t.open.empty()) return;
    t.open.pop_back();
    t.events.push_back({trace_now_ns(), nullptr, 0, trace_phase::end});
}

}  // namespace

void open_slice_on(worker& w, const char* name) noexcept { open_slice(w.trace, name); }
void close_slice_on(worker& w) noexcept { close_slice(w.trace); }

void trace_task_begin(worker& w, const ext::task* t) noexcept {
    open_slice(w.trace, "task");
    flows_in(&w.trace, t);
    sample_queues(w, w.trace.events.back().ns);
}

void trace_task_end(worker& w) noexcept {
    close_slice(w.trace);
    sample_queues(w, w.trace.events.back().ns);
}

void trace_submit(worker* w, const ext::task* t) noexcept {
    flow_out(w ? &w->trace : nullptr, t, "submit", false);
}

void trace_park(worker& w, context& c) noexcept {
    auto* saved = new std::vector<const char*>(w.trace.open);
    while (!w.trace.open.empty()) close_slice(w.trace);
    c.trace_saved = saved;
}

void trace_resume(worker& w, context& c) noexcept {
    auto* saved = static_cast<std::vector<const char*>*>(c.trace_saved);
    if (!saved) return;
    c.trace_saved = nullptr;
    for (const char* name : *saved) open_slice(w.trace, name, true);
    delete saved;
}

void trace_archive(pool& p) noexcept {
    if (!ext::tracing()) return;
    std::lock_guard guard(g_archive_lock);
    if (g_archive.size() < p.size()) g_archive.resize(p.size());
    for (unsigned i = 0; i < p.size(); ++i) {
        trace_track& t = p.at(i).trace;
        while (!t.open.empty()) close_slice(t);  // cut short by the pool's end
        g_archive[i].events.insert(g_archive[i].events.end(), t.events.begin(), t.events.end());
        t.events.clear();
    }
}

// Read by the writer after every pool ended (trace_write holds its own lock, and no
// pool archives concurrently with the exit's write).
std::vector<trace_track>& trace_archived() noexcept { return g_archive; }

}  // namespace loom::core

namespace loom::ext {

void trace_begin(const char* name) noexcept {
    if (!tracing()) return;
    if (core::worker* w = core::this_worker_here()) core::open_slice_on(*w, name);
}

void trace_end() noexcept {
    if (!tracing()) return;
    if (core::worker* w = core::this_worker_here()) core::close_slice_on(*w);
}

void trace_flow(const task* t, const char* name, bool more) noexcept {
    if (!tracing()) return;
    core::worker* w = core::this_worker_here();
    core::flow_out(w ? &w->trace : nullptr, t, name, more);
}

void trace_begin_task(const char* name, const task* t) noexcept {
    if (!tracing()) return;
    core::worker* w = core::this_worker_here();
    if (w) core::open_slice_on(*w, name);
    core::flows_in(w ? &w->trace : nullptr, t);  // outside the pool too: no stale entry
}

void trace_run_inline(task* t, const char* name) noexcept {
    trace_begin_task(name, t);
    t->run(t);
    trace_end();  // on the worker it ends on: the slice moved with it if it parked
}

void trace_name(const char* name) noexcept {
    if (!tracing()) return;
    core::worker* w = core::this_worker_here();
    if (!w || w->trace.open.empty()) return;
    // The begin event of the innermost open slice is the last begin not yet ended.
    w->trace.open.back() = name;
    auto& ev = w->trace.events;
    int depth = 0;
    for (auto it = ev.rbegin(); it != ev.rend(); ++it) {
        if (it->phase == core::trace_phase::end) {
            ++depth;
        } else if (it->phase == core::trace_phase::begin) {
            if (depth == 0) {
                it->name = name;
                return;
            }
            --depth;
        }
    }
}

}  // namespace loom::ext
