// LOOM_TRACE: Chrome / Perfetto trace-event JSON (trace.hpp). Events are "B"/"E" pairs
// per worker track ("tid" = worker index), in microseconds since the trace began;
// metadata events name each track. The file opens in chrome://tracing and
// ui.perfetto.dev.
#include "trace.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

#include "loom/ext/trace.hpp"
#include "pool.hpp"
#include "runtime.hpp"

namespace loom::ext {
std::atomic<bool> g_tracing{false};
}

namespace loom::core {

namespace {

// Function statics: set while the library loads (runtime.cpp), before or after this
// file's own globals would have been constructed.
std::string& trace_path() {
    static auto* path = new std::string();
    return *path;
}
std::chrono::steady_clock::time_point g_epoch;
std::mutex g_write_lock;
bool g_written = false;
// Tracks of pools that ended (a pause, an OpenMP pool rebuilt larger), by worker index.
std::vector<trace_track> g_archive;

std::uint64_t now_ns() noexcept {
    return static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - g_epoch).count());
}

void open_slice(trace_track& t, const char* name, bool resumed = false) {
    t.events.push_back({now_ns(), name, resumed});
    t.open.push_back(name);
}

void close_slice(trace_track& t) {
    if (t.open.empty()) return;
    t.open.pop_back();
    t.events.push_back({now_ns(), nullptr});
}

// ";file;function;line;col;;" -> "function (file:line)"; anything else as it is.
std::string display_name(const char* raw) {
    std::string s = raw ? raw : "task";
    if (s.empty() || s[0] != ';') return s;
    std::vector<std::string> f;
    std::size_t pos = 1;
    while (pos <= s.size()) {
        std::size_t next = s.find(';', pos);
        if (next == std::string::npos) next = s.size();
        f.push_back(s.substr(pos, next - pos));
        pos = next + 1;
    }
    if (f.size() < 3 || f[0] == "unknown") return "omp region";
    std::string file = f[0].substr(f[0].rfind('/') == std::string::npos ? 0 : f[0].rfind('/') + 1);
    return f[1] + " (" + file + ":" + f[2] + ")";
}

void put_json_string(std::FILE* out, const std::string& s) {
    std::fputc('"', out);
    for (unsigned char c : s) {
        if (c == '"' || c == '\\') std::fputc('\\', out), std::fputc(c, out);
        else if (c < 0x20) std::fprintf(out, "\\u%04x", c);
        else std::fputc(c, out);
    }
    std::fputc('"', out);
}

}  // namespace

void open_slice_on(worker& w, const char* name) noexcept { open_slice(w.trace, name); }
void close_slice_on(worker& w) noexcept { close_slice(w.trace); }

void trace_configure() noexcept {
    static std::once_flag once;
    std::call_once(once, [] {
        const char* path = std::getenv("LOOM_TRACE");
        if (!path || !*path) return;
        trace_path() = path;
        g_epoch = std::chrono::steady_clock::now();
        ext::g_tracing.store(true, std::memory_order_relaxed);
    });
}

void trace_task_begin(worker& w) noexcept { open_slice(w.trace, "task"); }
void trace_task_end(worker& w) noexcept { close_slice(w.trace); }

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
    std::lock_guard guard(g_write_lock);
    if (g_archive.size() < p.size()) g_archive.resize(p.size());
    for (unsigned i = 0; i < p.size(); ++i) {
        trace_track& t = p.at(i).trace;
        while (!t.open.empty()) close_slice(t);  // cut short by the pool's end
        g_archive[i].events.insert(g_archive[i].events.end(), t.events.begin(), t.events.end());
        t.events.clear();
    }
}

void trace_write() noexcept {
    std::lock_guard guard(g_write_lock);
    if (g_written || !ext::tracing()) return;
    g_written = true;
    ext::g_tracing.store(false, std::memory_order_relaxed);
    std::FILE* out = std::fopen(trace_path().c_str(), "w");
    if (!out) {
        std::fprintf(stderr, "loom: warning: LOOM_TRACE='%s' cannot be written (%s); no trace\n",
                     trace_path().c_str(), std::strerror(errno));
        return;
    }
    std::fprintf(out, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
    bool first = true;
    auto sep = [&] {
        if (!first) std::fputs(",\n", out);
        first = false;
    };
    const unsigned workers = static_cast<unsigned>(g_archive.size());
    for (unsigned i = 0; i < workers; ++i) {
        sep();
        std::fprintf(out, "{\"ph\":\"M\",\"pid\":1,\"tid\":%u,\"name\":\"thread_name\",\"args\":{\"name\":\"worker %u\"}}",
                     i, i);
    }
    for (unsigned i = 0; i < workers; ++i) {
        for (const trace_event& e : g_archive[i].events) {
            sep();
            std::fprintf(out, "{\"ph\":\"%s\",\"pid\":1,\"tid\":%u,\"ts\":%.3f", e.name ? "B" : "E", i,
                         static_cast<double>(e.ns) / 1000.0);
            if (e.name) {
                std::fputs(",\"name\":", out);
                put_json_string(out, e.resumed ? display_name(e.name) + " (resumed)" : display_name(e.name));
            }
            std::fputc('}', out);
        }
    }
    std::fprintf(out, "\n]}\n");
    std::fclose(out);
}

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

void trace_name(const char* name) noexcept {
    if (!tracing()) return;
    core::worker* w = core::this_worker_here();
    if (!w || w->trace.open.empty()) return;
    // The begin event of the innermost open slice is the last begin not yet ended.
    w->trace.open.back() = name;
    auto& ev = w->trace.events;
    int depth = 0;
    for (auto it = ev.rbegin(); it != ev.rend(); ++it) {
        if (!it->name) {
            ++depth;
        } else if (depth == 0) {
            it->name = name;
            return;
        } else {
            --depth;
        }
    }
}

}  // namespace loom::ext
