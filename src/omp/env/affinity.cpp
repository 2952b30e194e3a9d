// The affinity format (OMP_AFFINITY_FORMAT, omp_*_affinity*) and OMP_DISPLAY_AFFINITY.
#include "env/affinity.hpp"

#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "abi.hpp"
#include "env/bind.hpp"
#include "env/env.hpp"
#include "env/icv.hpp"
#include "loom/ext/scheduler.hpp"
#include "env/places.hpp"
#include "parallel/team.hpp"
#include "parallel/thread.hpp"

namespace loom::omp {

namespace {

std::mutex g_format_mutex;

std::string cpu_list(const std::vector<int>& cpus) {
    std::string out;
    for (std::size_t i = 0; i < cpus.size();) {
        std::size_t j = i;
        while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
        if (!out.empty()) out += ',';
        if (j >= i + 2) {
            out += std::to_string(cpus[i]) + "-" + std::to_string(cpus[j]);
        } else {
            for (std::size_t k = i; k <= j; ++k) {
                if (k != i) out += ',';
                out += std::to_string(cpus[k]);
            }
        }
        i = j + 1;
    }
    return out;
}

// Fields of OpenMP 5.2 (table 10.1): a short name and a long name each. Integer
// fields are padded like printf's %d (a '-' sign before the zeros), text fields with
// spaces only, as libomp does.
struct field {
    char letter;
    const char* name;
    bool numeric;
};
constexpr field fields[] = {
    {'t', "team_num", true},    {'T', "num_teams", true},     {'L', "nesting_level", true},
    {'n', "thread_num", true},  {'N', "num_threads", true},   {'a', "ancestor_tnum", true},
    {'H', "host", false},       {'P', "process_id", true},    {'i', "native_thread_id", true},
    {'A', "thread_affinity", false},
};

// %[0][.][width]field: '.' right-justifies, a '0' (before the '.' or as the first
// width digit) pads right-justified integers with zeros; without '.' the value is
// left-justified and padded with spaces. Width keeps its first 8 digits (libomp).
struct field_spec {
    bool zero = false;
    bool right = false;
    int width = 0;
};

const char* parse_spec(const char* p, field_spec& spec) {
    if (*p == '0') {
        spec.zero = true;
        ++p;
    }
    if (*p == '.') {
        spec.right = true;
        ++p;
    }
    if (*p == '0') spec.zero = true;
    for (int digits = 0; std::isdigit(static_cast<unsigned char>(*p)); ++p)
        if (digits++ < 8) spec.width = spec.width * 10 + (*p - '0');
    return p;
}

// Reads the field name at p (a letter or "{long_name}"); returns the field or null
// ("undefined") and advances p past what it consumed.
const field* parse_field(const char*& p) {
    if (*p == '{') {
        const char* q = p + 1;
        while (std::isalnum(static_cast<unsigned char>(*q)) || *q == '_') ++q;
        std::string name(p + 1, q);
        const bool closed = *q == '}';
        p = closed ? q + 1 : q;
        if (closed)
            for (const field& f : fields)
                if (name == f.name) return &f;
        return nullptr;
    }
    if (*p == '\0') return nullptr;
    char c = *p++;
    for (const field& f : fields)
        if (c == f.letter) return &f;
    return nullptr;
}

long number_of(char letter, implicit_task* it) {
    switch (letter) {
        case 't': return it->team_num;
        case 'T': return it->num_teams;
        case 'L': return it->level;
        case 'n': return it->tid;
        case 'N': return it->nthreads;
        case 'a': return it->level > 0 && it->parent ? it->parent->tid : -1;
        case 'P': return static_cast<long>(getpid());
        default: return static_cast<long>(syscall(SYS_gettid));  // 'i'
    }
}

std::string text_of(char letter) {
    if (letter == 'A') return cpu_list(thread_cpus());
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    return host;
}

void append_field(std::string& out, const field* f, const field_spec& spec, implicit_task* it) {
    std::string v;
    if (f && f->numeric) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%ld", number_of(f->letter, it));
        v = buf;
    } else {
        v = f ? text_of(f->letter) : "undefined";
    }
    if (static_cast<int>(v.size()) >= spec.width) {
        out += v;
        return;
    }
    std::size_t pad = static_cast<std::size_t>(spec.width) - v.size();
    if (!spec.right) {
        out += v;
        out.append(pad, ' ');
    } else if (spec.zero && f && f->numeric) {
        std::size_t sign = v[0] == '-' ? 1 : 0;
        out += v.substr(0, sign);
        out.append(pad, '0');
        out += v.substr(sign);
    } else {
        out.append(pad, ' ');
        out += v;
    }
}

}  // namespace

std::string format_affinity(const char* fmt, implicit_task* it) {
    std::string out;
    if (!fmt) return out;
    for (const char* p = fmt; *p;) {
        if (*p != '%') {
            out += *p++;
            continue;
        }
        ++p;
        if (*p == '%') {
            out += '%';
            ++p;
            continue;
        }
        field_spec spec;
        p = parse_spec(p, spec);
        append_field(out, parse_field(p), spec, it);
    }
    return out;
}

namespace {

void maybe_display_affinity(implicit_task* it) {
    if (!globals().display_affinity) return;
    thread_state* th = this_thread();
    // As libomp: a thread shows its line again only when the team it is in looks
    // different to it (nesting level, team size, its number in the team or its place)
    // or is another team (two nested teams in turn on the same free worker).
    const std::uint64_t place = static_cast<std::uint32_t>(assignment_of(it).place + 1);
    std::uint64_t key = (static_cast<std::uint64_t>(it->level) << 48) ^
                        (static_cast<std::uint64_t>(it->nthreads) << 32) ^
                        (static_cast<std::uint64_t>(it->tid) << 16) ^ place ^ 1;
    // A region whose proc_bind clause differs re-displays the whole team (libomp marks
    // the team for display when its proc_bind changes).
    key ^= static_cast<std::uint64_t>(it->tm ? it->tm->proc_bind + 2 : 0) << 56;
    key ^= static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(it->tm)) * 0x9e3779b97f4a7c15ull;
    if (th->affinity_shown == key) return;
    th->affinity_shown = key;
    std::string line;
    {
        std::lock_guard lk(g_format_mutex);
        line = format_affinity(globals().affinity_format.c_str(), it);
    }
    line += '\n';
    std::fputs(line.c_str(), stdout);
    std::fflush(stdout);
}

}  // namespace

void begin_implicit_task(implicit_task* it) {
    bind_for_task(it);
    maybe_display_affinity(it);
}

}  // namespace loom::omp

using namespace loom::omp;

LOOM_OMP_API int omp_get_proc_bind() { return current_task()->icv.bind; }

LOOM_OMP_API void omp_set_affinity_format(const char* format) {
    if (!format) return;
    std::lock_guard lk(g_format_mutex);
    globals().affinity_format = format;
}
LOOM_OMP_API void ompc_set_affinity_format(const char* format) { omp_set_affinity_format(format); }

LOOM_OMP_API std::size_t omp_get_affinity_format(char* buffer, std::size_t size) {
    std::lock_guard lk(g_format_mutex);
    const std::string& f = globals().affinity_format;
    if (buffer && size > 0) {
        std::size_t n = std::min(size - 1, f.size());
        std::memcpy(buffer, f.data(), n);
        buffer[n] = '\0';
    }
    return f.size();
}
LOOM_OMP_API std::size_t ompc_get_affinity_format(char* buffer, std::size_t size) {
    return omp_get_affinity_format(buffer, size);
}

LOOM_OMP_API std::size_t omp_capture_affinity(char* buffer, std::size_t size, const char* format) {
    std::string fmt;
    {
        std::lock_guard lk(g_format_mutex);
        fmt = format && *format ? format : globals().affinity_format;
    }
    std::string s = format_affinity(fmt.c_str(), current_task());
    if (buffer && size > 0) {
        std::size_t n = std::min(size - 1, s.size());
        std::memcpy(buffer, s.data(), n);
        buffer[n] = '\0';
    }
    return s.size();
}
LOOM_OMP_API std::size_t ompc_capture_affinity(char* buffer, std::size_t size, const char* format) {
    return omp_capture_affinity(buffer, size, format);
}

LOOM_OMP_API void omp_display_affinity(const char* format) {
    std::string fmt;
    {
        std::lock_guard lk(g_format_mutex);
        fmt = format && *format ? format : globals().affinity_format;
    }
    std::string s = format_affinity(fmt.c_str(), current_task()) + "\n";
    std::fputs(s.c_str(), stdout);
    std::fflush(stdout);
}
LOOM_OMP_API void ompc_display_affinity(const char* format) { omp_display_affinity(format); }
