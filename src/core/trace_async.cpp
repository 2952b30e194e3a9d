// LOOM_TRACE asynchronous spans (ext::trace_async_begin / _end): spans that begin on
// one thread and end on another (an MPI request: started by a task, completed by
// whichever worker polls), recorded from any thread, pool or not, into one buffer
// under a lock. They are rare next to tasks (one per message), so the lock is cheap.
#include <mutex>
#include <unordered_map>

#include "trace.hpp"

namespace loom::core {

namespace {

struct async_buffer {
    std::mutex lock;
    std::vector<trace_async_event> events;
    // Spans begun and not ended: their track and name, which the "e" repeats.
    std::unordered_map<std::uint64_t, std::pair<std::string, std::string>> open;
    std::uint64_t next_id = 1;
};

async_buffer& buffer() {
    static auto* b = new async_buffer();  // used until the exit's write: never destroyed
    return *b;
}

}  // namespace

std::vector<trace_async_event> trace_async_events() noexcept {
    async_buffer& b = buffer();
    std::lock_guard guard(b.lock);
    try {
        return b.events;
    } catch (...) {
        return {};
    }
}

}  // namespace loom::core

namespace loom::ext {

std::uint64_t trace_async_begin(const char* track, const char* name, const trace_arg* args,
                                unsigned nargs) noexcept {
    if (!tracing()) return 0;
    core::async_buffer& b = core::buffer();
    const std::uint64_t ns = core::trace_now_ns();
    std::lock_guard guard(b.lock);
    try {
        const std::uint64_t id = b.next_id++;
        b.open.emplace(id, std::make_pair(std::string(track), std::string(name)));
        b.events.push_back({ns, id, true, track, name, std::vector<trace_arg>(args, args + nargs)});
        return id;
    } catch (...) {
        return 0;  // no memory: the span is not recorded
    }
}

void trace_async_end(std::uint64_t id, const trace_arg* args, unsigned nargs) noexcept {
    if (id == 0 || !tracing()) return;
    core::async_buffer& b = core::buffer();
    const std::uint64_t ns = core::trace_now_ns();
    std::lock_guard guard(b.lock);
    auto it = b.open.find(id);
    if (it == b.open.end()) return;
    try {
        b.events.push_back({ns, id, false, it->second.first, it->second.second,
                            std::vector<trace_arg>(args, args + nargs)});
    } catch (...) {  // NOLINT(bugprone-empty-catch): the span stays open in the file
    }
    b.open.erase(it);
}

}  // namespace loom::ext
