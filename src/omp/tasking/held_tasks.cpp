// The table of held tasks (held_tasks.hpp). An entry's `task` goes from null to
// `claiming` (a holder owns the entry), to the record once `team` and `parent` are
// written, then back to null (its owner withdrew it) or to `taken` (a member, or the
// token, took it: the owner frees the entry when it sees that). A holder that reads the
// task's team turns the record back into `claiming` for that moment (hide/show). The
// owner is the holder, or the token once the holder sent one; only the owner frees an
// entry, so a record seen there is never one of a later publication of the same entry.
#include "tasking/held_tasks.hpp"

#include <atomic>
#include <cstdint>
#include <new>

#include "loom/ext/scheduler.hpp"

namespace loom::omp::tasking::held {
namespace {

void* const claiming = reinterpret_cast<void*>(std::uintptr_t{1});
void* const taken_mark = reinterpret_cast<void*>(std::uintptr_t{2});

struct alignas(32) entry {
    std::atomic<void*> task{nullptr};
    std::atomic<const void*> team{nullptr};    // compared, never followed
    std::atomic<const void*> parent{nullptr};  // the task's parent node, compared
};

// More than the workers a machine has outside one team at once, usually: a holder
// that finds none free sends its task unpublished.
constexpr int entries = 32;
entry g_entries[entries];
// Entries not free: members skip the scan while it is 0 (a barrier wait asks at every
// spin round). Its own line: holders write it, waiting members read it.
alignas(64) std::atomic<int> g_in_use{0};

bool is_record(const void* t) noexcept { return t != nullptr && t != claiming && t != taken_mark; }

void free_entry(int i) noexcept {
    g_entries[i].task.store(nullptr, std::memory_order_release);
    g_in_use.fetch_sub(1, std::memory_order_relaxed);
}

// Runs in the mailbox of the member the holder chose: the task, unless a member took
// it first. Either way the entry is this token's to free.
void run_token(int i) noexcept {
    entry& e = g_entries[i];
    void* t = e.task.load(std::memory_order_acquire);
    ext::task* rec = nullptr;
    if (t != taken_mark &&
        e.task.compare_exchange_strong(t, taken_mark, std::memory_order_acq_rel, std::memory_order_acquire))
        rec = static_cast<ext::task*>(t);
    free_entry(i);
    if (rec) run_entry(rec);  // went through its holder's run_entry: runs here, tied to this worker
}

// A task taken on a stale look at an entry (its record was reused and published
// again in between) that is not what the taker asked for: it goes to its creator's
// worker, whose mailbox runs it as the creator when it next parks.
void send_back(ext::task* rec) noexcept {
    const implicit_task* creator = data_of(rec)->root->it;
    int w = creator ? creator->worker : -1;
    if (w < 0) w = ext::current_worker();
    ext::submit_to(rec, static_cast<unsigned>(w < 0 ? 0 : w));
}

}  // namespace

publication::publication(const team* tm, ext::task* rec) noexcept : rec_(rec) {
    for (int i = 0; i < entries; ++i) {
        entry& e = g_entries[i];
        void* free_value = nullptr;
        if (e.task.load(std::memory_order_relaxed) != nullptr ||
            !e.task.compare_exchange_strong(free_value, claiming, std::memory_order_acquire,
                                            std::memory_order_relaxed))
            continue;
        g_in_use.fetch_add(1, std::memory_order_relaxed);
        e.team.store(tm, std::memory_order_relaxed);
        e.parent.store(parent_node(rec), std::memory_order_relaxed);
        e.task.store(rec, std::memory_order_release);  // team, parent and the record, to the taker
        entry_ = i;
        return;
    }
}

publication::~publication() {
    if (entry_ >= 0 && g_entries[entry_].task.load(std::memory_order_acquire) == taken_mark) free_entry(entry_);
}

// Hidden, the entry reads `claiming` as while it is being published: takers skip it.
bool publication::hide() noexcept {
    if (entry_ < 0) return true;
    void* expected = rec_;
    return g_entries[entry_].task.compare_exchange_strong(expected, claiming, std::memory_order_acq_rel,
                                                          std::memory_order_acquire);
}

void publication::show() noexcept {
    if (entry_ >= 0) g_entries[entry_].task.store(rec_, std::memory_order_release);
}

bool publication::withdraw() noexcept {
    if (entry_ < 0) return true;
    void* expected = rec_;
    if (!g_entries[entry_].task.compare_exchange_strong(expected, nullptr, std::memory_order_acq_rel,
                                                        std::memory_order_relaxed))
        return false;  // taken: the destructor frees the entry
    g_in_use.fetch_sub(1, std::memory_order_relaxed);
    entry_ = -1;
    return true;
}

bool publication::send_token(unsigned worker) noexcept {
    if (entry_ < 0) return false;
    ext::task* token = nullptr;
    try {
        token = ext::make_task([i = entry_] { run_token(i); });
    } catch (...) {  // no record for a token: the task goes itself
        return false;
    }
    entry_ = -1;  // the token's from here on
    ext::submit_to(token, worker);
    return true;
}

ext::task* take(const team* tm, const node* parent) noexcept {
    if (g_in_use.load(std::memory_order_relaxed) == 0) return nullptr;
    for (entry& e : g_entries) {
        void* t = e.task.load(std::memory_order_acquire);
        if (!is_record(t) || e.team.load(std::memory_order_relaxed) != tm) continue;
        if (e.parent.load(std::memory_order_relaxed) != parent) continue;
        if (!e.task.compare_exchange_strong(t, taken_mark, std::memory_order_acq_rel, std::memory_order_relaxed))
            continue;
        auto* rec = static_cast<ext::task*>(t);
        if (data_of(rec)->root->tm != tm || parent_node(rec) != parent) {
            send_back(rec);
            continue;
        }
        return rec;
    }
    return nullptr;
}

void reset_after_fork() noexcept {
    for (entry& e : g_entries) e.task.store(nullptr, std::memory_order_relaxed);
    g_in_use.store(0, std::memory_order_relaxed);
}

}  // namespace loom::omp::tasking::held
