// LOOM_TRACE's file: which file (one per rank in a distributed run), and the Chrome /
// Perfetto trace-event JSON written at exit. Slices are "B"/"E" pairs per worker track
// ("tid" = worker index), arrows "s"/"f" pairs (the "f" binds to the slice it lies
// in, "bp":"e"), counters "C", asynchronous spans "b"/"e" on the process's "MPI" (or
// other) track; times in microseconds since the trace began. "otherData" keeps the
// rank and the CLOCK_REALTIME of the trace's start, which tools/loom-trace-merge uses
// to put the ranks of one run on one time line. Opens in chrome://tracing and
// ui.perfetto.dev.
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <mutex>
#include <string>
#include <unordered_set>

#include "trace.hpp"

namespace loom::core {

namespace {

// Function statics: set while the library loads (runtime.cpp), before or after this
// file's own globals would have been constructed.
std::string& trace_path() {
    static auto* path = new std::string();
    return *path;
}
std::chrono::steady_clock::time_point g_epoch;
long long g_realtime_epoch_ns = 0;
int g_rank = -1;  // the process's rank under an MPI launcher, else -1
std::mutex g_write_lock;
bool g_written = false;

// The launchers' rank variables (Open MPI, PMIx, MPICH/Hydra, MVAPICH): known before
// MPI_Init, so the tracer needs no MPI.
int launcher_rank() noexcept {
    for (const char* var : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "MV2_COMM_WORLD_RANK"}) {
        const char* v = std::getenv(var);
        if (!v || !*v) continue;
        char* end = nullptr;
        const long r = std::strtol(v, &end, 10);
        if (*end == '\0' && r >= 0 && r < (1L << 30)) return static_cast<int>(r);
    }
    return -1;
}

// "%r" becomes the rank (0 outside MPI); without it, a rank adds ".rankN" before a
// ".json" ending (or at the end): one file per rank either way.
std::string per_rank_path(std::string path, int rank) {
    const std::string r = std::to_string(rank < 0 ? 0 : rank);
    bool substituted = false;
    for (std::size_t at = path.find("%r"); at != std::string::npos; at = path.find("%r", at + r.size())) {
        path.replace(at, 2, r);
        substituted = true;
    }
    if (substituted || rank < 0) return path;
    const std::string ext = ".json";
    const bool has_ext = path.size() > ext.size() && path.compare(path.size() - ext.size(), ext.size(), ext) == 0;
    if (has_ext) return path.insert(path.size() - ext.size(), ".rank" + r);
    return path + ".rank" + r;
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

double micros(std::uint64_t ns) { return static_cast<double>(ns) / 1000.0; }

// Arrows whose two ends were both recorded (a task run outside the pool, or one that
// never ran, leaves a start without an end).
std::unordered_set<std::uint64_t> complete_flows(const std::vector<trace_track>& tracks) {
    std::unordered_set<std::uint64_t> starts, both;
    for (const trace_track& t : tracks)
        for (const trace_event& e : t.events)
            if (e.phase == trace_phase::flow_start) starts.insert(e.value);
    for (const trace_track& t : tracks)
        for (const trace_event& e : t.events)
            if (e.phase == trace_phase::flow_end && starts.count(e.value)) both.insert(e.value);
    return both;
}

class json_writer {
public:
    explicit json_writer(std::FILE* out) : out_(out) {}
    // Starts the next element of "traceEvents".
    std::FILE* next() {
        if (!first_) std::fputs(",\n", out_);
        first_ = false;
        return out_;
    }

private:
    std::FILE* out_;
    bool first_ = true;
};

void write_track_event(std::FILE* out, unsigned tid, const trace_event& e) {
    const double ts = micros(e.ns);
    switch (e.phase) {
        case trace_phase::begin:
            std::fprintf(out, "{\"ph\":\"B\",\"pid\":1,\"tid\":%u,\"ts\":%.3f,\"name\":", tid, ts);
            put_json_string(out, e.resumed ? display_name(e.name) + " (resumed)" : display_name(e.name));
            std::fputc('}', out);
            break;
        case trace_phase::end:
            std::fprintf(out, "{\"ph\":\"E\",\"pid\":1,\"tid\":%u,\"ts\":%.3f}", tid, ts);
            break;
        case trace_phase::flow_start:
        case trace_phase::flow_end:
            std::fprintf(out, "{\"ph\":\"%s\",\"pid\":1,\"tid\":%u,\"ts\":%.3f,\"cat\":\"flow\",\"id\":%llu,%s\"name\":",
                         e.phase == trace_phase::flow_start ? "s" : "f", tid, ts,
                         static_cast<unsigned long long>(e.value), e.phase == trace_phase::flow_end ? "\"bp\":\"e\"," : "");
            put_json_string(out, e.name);
            std::fputc('}', out);
            break;
        case trace_phase::counter: {
            std::string name = e.name;
            if (e.name == trace_deque_counter) name = "deque (worker " + std::to_string(tid) + ")";
            std::fprintf(out, "{\"ph\":\"C\",\"pid\":1,\"tid\":%u,\"ts\":%.3f,\"name\":", tid, ts);
            put_json_string(out, name);
            std::fprintf(out, ",\"args\":{\"tasks\":%llu}}", static_cast<unsigned long long>(e.value));
            break;
        }
    }
}

void write_async_event(std::FILE* out, unsigned tid, const trace_async_event& e) {
    std::fprintf(out, "{\"ph\":\"%s\",\"pid\":1,\"tid\":%u,\"ts\":%.3f,\"id\":%llu,\"cat\":", e.begin ? "b" : "e", tid,
                 micros(e.ns), static_cast<unsigned long long>(e.id));
    put_json_string(out, e.track);
    std::fputs(",\"name\":", out);
    put_json_string(out, e.name);
    std::fputs(",\"args\":{", out);
    for (std::size_t i = 0; i < e.args.size(); ++i) {
        if (i) std::fputc(',', out);
        put_json_string(out, e.args[i].key);
        std::fprintf(out, ":%lld", e.args[i].value);
    }
    std::fputs("}}", out);
}

}  // namespace

std::uint64_t trace_now_ns() noexcept {
    return static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - g_epoch).count());
}

void trace_configure() noexcept {
    static std::once_flag once;
    std::call_once(once, [] {
        const char* path = std::getenv("LOOM_TRACE");
        if (!path || !*path) return;
        g_rank = launcher_rank();
        trace_path() = per_rank_path(path, g_rank);
        timespec rt{};
        clock_gettime(CLOCK_REALTIME, &rt);
        g_epoch = std::chrono::steady_clock::now();
        g_realtime_epoch_ns = static_cast<long long>(rt.tv_sec) * 1'000'000'000LL + rt.tv_nsec;
        ext::g_tracing.store(true, std::memory_order_relaxed);
    });
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
    const std::vector<trace_track>& tracks = trace_archived();
    const std::vector<trace_async_event> async = trace_async_events();
    const auto workers = static_cast<unsigned>(tracks.size());
    const unsigned async_tid = workers;  // the asynchronous spans' own row
    std::fprintf(out, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"loom_rank\":%d,\"loom_realtime_epoch_ns\":%lld},"
                 "\"traceEvents\":[\n", g_rank, g_realtime_epoch_ns);
    json_writer j(out);
    std::fprintf(j.next(), "{\"ph\":\"M\",\"pid\":1,\"tid\":0,\"name\":\"process_name\",\"args\":{\"name\":\"%s\"}}",
                 g_rank < 0 ? "loom" : ("rank " + std::to_string(g_rank)).c_str());
    for (unsigned i = 0; i < workers; ++i) {
        std::fprintf(j.next(), "{\"ph\":\"M\",\"pid\":1,\"tid\":%u,\"name\":\"thread_name\",\"args\":{\"name\":\"worker %u\"}}",
                     i, i);
    }
    if (!async.empty()) {
        std::fprintf(j.next(), "{\"ph\":\"M\",\"pid\":1,\"tid\":%u,\"name\":\"thread_name\",\"args\":{\"name\":\"MPI\"}}",
                     async_tid);
    }
    const std::unordered_set<std::uint64_t> flows = complete_flows(tracks);
    for (unsigned i = 0; i < workers; ++i) {
        for (const trace_event& e : tracks[i].events) {
            const bool flow = e.phase == trace_phase::flow_start || e.phase == trace_phase::flow_end;
            if (flow && !flows.count(e.value)) continue;
            write_track_event(j.next(), i, e);
        }
    }
    for (const trace_async_event& e : async) write_async_event(j.next(), async_tid, e);
    std::fprintf(out, "\n]}\n");
    std::fclose(out);
}

}  // namespace loom::core
