// taskgroup / end taskgroup and cancellation of taskgroups. A taskgroup is a node that
// counts the release of the tasks created in it (task.hpp): a released task has
// completed together with all its descendants, so waiting for the taskgroup's
// released count to reach 0 waits for every descendant.
#include <atomic>
#include <new>

#include "env/icv.hpp"
#include "tasking/task.hpp"
#include "tasking/taskred.hpp"
#include "parallel/team.hpp"
#include "sync/wait.hpp"

namespace loom::omp::tasking {

tgroup* binding_group(const here& h) noexcept {
    if (tgroup* g = current_group(h)) return g;
    if (!h.rc->current) return nullptr;
    for (ext::task* r = record_of(h.rc->current);;) {
        if (tgroup* g = rel_group(r)) return g;
        if (!parent_is_task(r)) {
            // Created by the implicit task outside any taskgroup.
            return nullptr;
        }
        r = record_of(reinterpret_cast<tdata*>(parent_node(r)));
    }
}

namespace {

int cancel_taskgroup(bool request) {
    if (!globals().cancellation) return 0;
    if (!request && !any_cancelled_group()) return 0;
    here h = current_here();
    tgroup* g = binding_group(h);
    if (!g) return 0;
    if (g->workshare && g->parent) g = g->parent;
    if (request) {
        if (g->cancelled.exchange(1, std::memory_order_acq_rel) == 0)
            g_cancelled_groups.fetch_add(1, std::memory_order_relaxed);
        return 1;
    }
    return g->cancelled.load(std::memory_order_acquire) ? 1 : 0;
}

struct install {
    install() { g_task_hooks.cancel_taskgroup = &cancel_taskgroup; }
} g_install;

}  // namespace

void open_group(const here& h) {
    static_assert(sizeof(tgroup) <= sizeof(ext::task));
    auto* g = ::new (static_cast<void*>(new_record())) tgroup;
    g->parent = current_group(h);
    set_current_group(h, g);
}

void close_group(const here& h) {
    tgroup* g = current_group(h);
    if (!g) return;
    wait_node(h, &g->n, current_node(h), true);
    if (g->red) finish_reductions(h, g);
    set_current_group(h, g->parent);
    // Every task of the group has ended: none of them can look at its flag any more.
    if (g->cancelled.load(std::memory_order_relaxed))
        g_cancelled_groups.fetch_sub(1, std::memory_order_relaxed);
    g->~tgroup();
    free_raw(reinterpret_cast<ext::task*>(g));
}

}  // namespace loom::omp::tasking
