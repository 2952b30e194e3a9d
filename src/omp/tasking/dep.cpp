// Task dependences (depend clause, taskwait depend, undeferred tasks with depend).
//
// Each parent task (or implicit task) owns a hash (dephash.hpp) from address to the recent history of
// that address: the last group of tasks (one writer, or readers / inoutset members /
// mutexinoutset members, all of one kind) and the group before it. Only the parent
// touches its hash (it alone creates its children), so the hash needs no lock and
// grows without limit. A new task depends on the last group, or, when it joins a
// group of its own kind, on the group before it; omp_all_memory depends on every
// address and then stands for all of them. mutexinoutset members are chained one
// after another (mutual exclusion by ordering: any order is allowed, creation order is
// one of them).
//
// Edges are lock-free: a predecessor's successor list is a Treiber stack that the
// predecessor closes (exchange with `closed`) when it completes; the parent adds an
// edge with a CAS unless the list is already closed (then there is nothing to wait
// for). A node's predecessor count starts at a bias so it cannot become ready while
// the parent is still adding edges; the parent takes the bias back last.
#include "tasking/dep.hpp"
#include "tasking/dephash.hpp"

#include <algorithm>
#include <cstring>
#include <new>
#include <vector>

#include "tasking/task.hpp"
#include "parallel/thread.hpp"
#include "ompt/events.hpp"

namespace loom::omp::tasking {

struct dephash {
    deptable::table t;
    depnode* last_all = nullptr;      // the last omp_all_memory task
    std::uint64_t pass = 0;           // numbers the tasks added, for depnode::linked
};

namespace {

constexpr std::uint8_t k_in = 1, k_out = 2, k_mtx = 4, k_set = 8;
auto* const closed = reinterpret_cast<depnode::edge*>(std::uintptr_t{1});

// kmp_depend_info::flags (low 4 bits) -> kind: out wins, then mutexinoutset, inoutset.
constexpr std::uint8_t kind_table[16] = {k_in,  k_in,  k_out, k_out, k_mtx, k_mtx, k_out, k_out,
                                         k_set, k_set, k_out, k_out, k_mtx, k_mtx, k_out, k_out};
inline std::uint8_t kind_of(std::uint8_t flags) noexcept { return kind_table[flags & 15]; }

// The hash keeps `d` in one more entry (or as the last all-memory task).
inline void hold(depnode* d) noexcept { ++d->hrefs; }
// ... in one entry less: the last one gives the hash's reference back.
inline void let_go(depnode* d) noexcept {
    if (--d->hrefs == 0) deps::drop_node(d);
}

[[gnu::always_inline]] inline void drop_all(deptable::group& v) noexcept {
    for (depnode* d : v) let_go(d);
    v.clear();
}

void clear_entries(dephash& h) noexcept {
    for (deptable::entry* e = h.t.slots; e != h.t.slots + h.t.size(); ++e) {
        drop_all(e->g[0]);
        drop_all(e->g[1]);
    }
    h.t.reset();
}

// Links `me` after `p` unless p already completed (its list is closed): false then.
bool link(depnode* p, depnode* me) {
    depnode::edge* e = me->take_edge();
    e->to = me;
    depnode::edge* head = p->succ.load(std::memory_order_acquire);
    do {
        if (head == closed) {
            me->untake_edge();
            return false;
        }
        e->next = head;
    } while (!p->succ.compare_exchange_weak(head, e, std::memory_order_acq_rel,
                                            std::memory_order_acquire));
    return true;
}

// Links `me` after `p` (add_edge decided that it should).
[[gnu::noinline]] void add_edge_to(depnode* p, depnode* me) {
    if (!ompt::on()) [[likely]] {
        link(p, me);
        return;
    }
    // With a tool: p's task cannot complete (task_done takes the same lock to close
    // its list) while the event reads its data. Only tasks are in the hash, so p->task
    // is set.
    ompt::lock_depnode(p);
    if (link(p, me)) ompt::task_dependence(p->task, me->task);
    ompt::unlock_depnode(p);
}

// me waits for p (unless p already completed). One edge per pair even when they share
// several addresses (libomp links a successor once; kmp_task_deps_multiple_edges.c
// checks it): `linked` remembers the pass that last added an edge to p. Only the
// parent adds edges, so the plain field needs no ordering. Inline: most calls end in
// this test (a task meets its predecessors again on each address they share).
[[gnu::always_inline]] inline void add_edge(depnode* p, depnode* me, std::uint64_t pass) {
    if (!p || p == me || p->linked == pass) return;
    p->linked = pass;
    add_edge_to(p, me);
}

// Successors linked to `dn` so far (up to `cap`). The list only grows until the task
// completes (it has not run yet), and each edge is the memory of a successor that
// cannot run before this task: safe to walk while the parent adds more.
unsigned successors_linked(depnode* dn, unsigned cap) noexcept {
    unsigned n = 0;
    for (depnode::edge* e = dn->succ.load(std::memory_order_acquire); e && n < cap; e = e->next) ++n;
    return n;
}

// LOOM_CRITICAL_PATH: a task that becomes ready with many successors waiting for it
// is queued as high priority (critical_path.cpp says which). Tasks the program gave
// a priority keep it. Called before the task is queued, by whoever made it ready.
void rank_ready(depnode* dn) noexcept {
    if (!ext::critical_path_enabled()) return;
    ext::task* rec = dn->task;
    if (!rec || rec->prio != loom::priority::normal) return;
    if (const unsigned level = ext::critical_level(successors_linked(dn, 4096))) {
        rec->prio = loom::priority::high;
        rec->level = static_cast<std::uint8_t>(level);
    }
}

inline void edges_from(deptable::group& v, depnode* me, depnode* last_all, std::uint64_t pass) {
    if (v.empty()) {
        add_edge(last_all, me, pass);
        return;
    }
    for (depnode* p : v) add_edge(p, me, pass);
}

// The depend lists of one construct, as the compiler passed them (clang passes the
// noalias items apart). Processed where they lie: copying them into a merged list cost
// ~190 instructions a task, and an address named twice is rare and cheap to handle
// in place (add_item).
struct dep_lists {
    kmp_int32 n1;
    const kmp_depend_info* l1;
    kmp_int32 n2;
    const kmp_depend_info* l2;
};

// omp_all_memory: flag 0x80, or (older code generation) address -1.
inline bool is_all(const kmp_depend_info& d) noexcept { return (d.flags & 0x80) != 0 || d.base_addr == -1; }

enum class scan_result { none, some, all };

// One look over the lists: no live item (flags 0 items are empty iterator slots), some,
// or an omp_all_memory item (it stands for every address, whatever else is listed).
scan_result scan(const dep_lists& d) noexcept {
    scan_result r = scan_result::none;
    auto look = [&](kmp_int32 n, const kmp_depend_info* l) {
        for (kmp_int32 i = 0; i < n; ++i) {
            if (l[i].flags == 0) continue;
            if (is_all(l[i])) return true;
            r = scan_result::some;
        }
        return false;
    };
    if ((d.l1 && look(d.n1, d.l1)) || (d.l2 && look(d.n2, d.l2))) return scan_result::all;
    return r;
}

template <class F>
[[gnu::always_inline]] inline void for_each_item(const dep_lists& d, F&& f) {
    for (kmp_int32 i = 0; d.l1 && i < d.n1; ++i)
        if (d.l1[i].flags != 0) f(d.l1[i].base_addr, kind_of(d.l1[i].flags));
    for (kmp_int32 i = 0; d.l2 && i < d.n2; ++i)
        if (d.l2[i].flags != 0) f(d.l2[i].base_addr, kind_of(d.l2[i].flags));
}

// With a tool, the lists merged first (one item per address, differing kinds becoming
// out), so that the dependence events name exactly the edges libomp would link:
// add_item's in-place handling of a repeated address can add an edge that others
// imply (harmless for the order, but a tool would see it). Items carry their kind as
// flags (k_* are the flag bits kind_of maps to themselves); omp_all_memory stays
// one item.
class merged_list {
public:
    explicit merged_list(const dep_lists& d) {
        const std::size_t n = static_cast<std::size_t>(std::max(d.n1, 0)) + static_cast<std::size_t>(std::max(d.n2, 0));
        items_.resize(std::max<std::size_t>(n, 1));
        if (scan(d) == scan_result::all) {
            items_[size_++] = kmp_depend_info{0, 0, 0x80};
            return;
        }
        for_each_item(d, [&](std::intptr_t a, std::uint8_t k) {
            std::size_t j = 0;
            while (j < size_ && items_[j].base_addr != a) ++j;
            if (j == size_) items_[size_++] = kmp_depend_info{a, 0, k};
            else if (items_[j].flags != k) items_[j].flags = k_out;
        });
    }
    dep_lists lists() const noexcept { return {static_cast<kmp_int32>(size_), items_.data(), 0, nullptr}; }

private:
    std::vector<kmp_depend_info> items_;
    std::size_t size_ = 0;
};

// One depend item of task `me`: edges from the entry's last group (or, joining a
// group of its own kind, from the group before it), and `me` into the entry.
[[gnu::always_inline]] inline void add_item(dephash& h, depnode* me, std::intptr_t a, std::uint8_t k,
                                            std::uint64_t pass) {
    deptable::entry* e = h.t.find_or_add(a);
    deptable::group& last = e->last();
    if (!last.empty() && last.back() == me) [[unlikely]] {
        // The list named `a` before (me is the newest of the last group). The merged
        // kind is out when the kinds differ; nothing changes when they agree or me
        // already writes. As out, me waits for the rest of the group it joined (tasks
        // created before it, as an inout would) and becomes the address's writer.
        if (k == e->last_kind || e->last_kind == k_out) return;
        k = k_out;
    }
    hold(me);  // before the drops below: me may be among them (a repeated address)
    if (k != k_out && e->last_kind == k) {
        edges_from(e->prev(), me, h.last_all, pass);
        if (k == k_mtx) add_edge(last.back(), me, pass);
        last.push_back(me);
        return;
    }
    edges_from(last, me, h.last_all, pass);
    drop_all(e->prev());
    if (k == k_out) drop_all(last);
    else e->cur ^= 1;  // the last group becomes the one before; the new one is empty
    e->last().push_back(me);
    e->last_kind = k;
}

// One depend item of a waiter: the edges a task would get, and no entry.
inline void wait_item(dephash& h, depnode* me, std::intptr_t a, std::uint8_t k, std::uint64_t pass) {
    deptable::entry* e = h.t.probe(a);
    if (e->last_kind == 0) {
        add_edge(h.last_all, me, pass);
    } else if (k != k_out && e->last_kind == k) {
        edges_from(e->prev(), me, h.last_all, pass);
        if (k == k_mtx) add_edge(e->last().back(), me, pass);
    } else {
        edges_from(e->last(), me, h.last_all, pass);
    }
}

// omp_all_memory: after every address's last group and the previous all-memory task;
// a task then stands for all of them (the entries are dropped). `me` may be in some
// entries already (process met the item after others): held before they are let go.
void process_all(dephash& h, depnode* me, std::uint64_t pass, bool insert) {
    add_edge(h.last_all, me, pass);
    for (deptable::entry* e = h.t.slots; e != h.t.slots + h.t.size(); ++e)
        if (e->last_kind != 0)
            for (depnode* p : e->last()) add_edge(p, me, pass);
    if (insert) {
        hold(me);
        clear_entries(h);
        if (h.last_all) let_go(h.last_all);
        h.last_all = me;
    }
}

// The items of one list; false at an omp_all_memory item (it stands for every
// address, whatever else is listed: process_all does the rest).
[[gnu::always_inline]] inline bool add_list(dephash& h, depnode* me, kmp_int32 n, const kmp_depend_info* l,
                                            std::uint64_t pass) {
    for (kmp_int32 i = 0; i < n; ++i) {
        const std::uint8_t f = l[i].flags;
        if (f == 0) continue;  // an empty iterator slot
        if (is_all(l[i])) [[unlikely]]
            return false;
        add_item(h, me, l[i].base_addr, kind_of(f), pass);
    }
    return true;
}

// Adds task `me` to the graph: edges from its predecessors, and `me` into the history.
void process(dephash& h, depnode* me, const dep_lists& d) {
    const std::uint64_t pass = ++h.pass;
    if ((d.l1 && !add_list(h, me, d.n1, d.l1, pass)) || (d.l2 && !add_list(h, me, d.n2, d.l2, pass)))
        process_all(h, me, pass, true);
    // Lists of empty items only: no entry holds me, so the hash has no reference to
    // give back (no edge either: nothing else has seen the node yet).
    if (me->hrefs == 0) [[unlikely]]
        me->refs.store(1, std::memory_order_relaxed);
}

dephash& hash_of(const here& h) {
    dephash** slot = current_deps_slot(h);
    if (!*slot) *slot = new dephash;
    return **slot;
}

// Waits (running own children meanwhile) until the predecessors listed are done.
void wait_for(const here& h, const dep_lists& d) {
    dephash** slot = current_deps_slot(h);
    if (!*slot) return;  // no child with dependences: nothing to wait for
    const scan_result s = scan(d);
    if (s == scan_result::none) return;
    alignas(64) unsigned char block[ext::task::record_size];
    depnode* me = depnode::make_in(block, sizeof block);
    ext::wait_slot ws;
    me->waiter = &ws;
    dephash& dh = **slot;
    const std::uint64_t pass = ++dh.pass;
    if (s == scan_result::all) {
        process_all(dh, me, pass, false);
    } else {
        for_each_item(d, [&](std::intptr_t a, std::uint8_t k) { wait_item(dh, me, a, k, pass); });
    }
    if (!me->end_setup()) {
        node* owner = current_node(h);
        while (!ws.notified() && help_one(owner)) {
        }
        park(ws);
    }
    me->~depnode();
}
}  // namespace

depnode::~depnode() {
    while (edge_block* b = more_edges) {
        more_edges = b->next;
        free_raw(reinterpret_cast<ext::task*>(b));
    }
}

depnode* depnode::make_in(void* block, std::size_t bytes) noexcept {
    static_assert(sizeof(edge) == 16 && alignof(depnode) == 8);
    auto* dn = ::new (static_cast<char*>(block) + bytes - sizeof(depnode)) depnode;
    dn->inline_cap = static_cast<std::uint16_t>((bytes - sizeof(depnode)) / sizeof(edge));
    return dn;
}

depnode::edge* depnode::take_edge() {
    const std::uint32_t i = edges_used++;
    if (i < inline_cap) return &inline_edges()[i];
    const std::uint32_t k = i - inline_cap;
    if (k / edge_block::capacity == blocks) {  // the first slot of a block not made yet
        auto* b = ::new (static_cast<void*>(new_record())) edge_block;
        b->next = more_edges;
        more_edges = b;
        ++blocks;
    }
    // Slots are taken in order (untake_edge gives back only the last), so slot k is
    // in the newest block.
    return &more_edges->e[k % edge_block::capacity];
}

namespace deps {

void drop_node(depnode* dn) noexcept {
    if (dn->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        const bool in_record = dn->in_record;
        ext::task* rec = dn->task;
        dn->~depnode();
        if (in_record) {
            ext::free_large_task(rec);
        } else {
            free_raw(reinterpret_cast<ext::task*>(reinterpret_cast<char*>(dn) + sizeof(depnode) -
                                                  ext::task::record_size));
        }
    }
}

depnode* node_of(ext::task* rec) noexcept {
    if (rec->flags & f_dn_inline) {
        return std::launder(reinterpret_cast<depnode*>(reinterpret_cast<char*>(rec) + ext::record_bytes(rec) -
                                                       sizeof(depnode)));
    }
    return extra_of(rec)->dn;
}

// A node for task `rec` (called before it is queued, while `rec->next` holds the size
// of its data): at the end of its record when the record has room past the data, so
// the task needs no further record (and no extra block to find it); a 128-byte
// record of its own otherwise.
depnode* place(ext::task* rec) {
    const std::size_t bytes = ext::record_bytes(rec);
    const std::size_t used = ktask_offset + reinterpret_cast<std::size_t>(rec->next);
    if (rec->size_class != 0 && bytes >= used + sizeof(depnode)) {
        depnode* dn = depnode::make_in(reinterpret_cast<char*>(rec) + used, bytes - used);
        dn->in_record = true;
        rec->flags |= f_dn_inline;
        return dn;
    }
    depnode* dn = depnode::make_in(new_record(), ext::task::record_size);
    ensure_extra(rec)->dn = dn;
    return dn;
}

void free_hash(dephash* h) noexcept {
    clear_entries(*h);
    if (h->last_all) let_go(h->last_all);
    delete h;
}

void task_done(ext::task* rec) noexcept {
    depnode* dn = node_of(rec);
    depnode::edge* e;
    if (!ompt::on()) [[likely]] {
        e = dn->succ.exchange(closed, std::memory_order_acq_rel);
    } else {
        ompt::lock_depnode(dn);  // add_edge's task_dependence event may be reading our data
        e = dn->succ.exchange(closed, std::memory_order_acq_rel);
        ompt::unlock_depnode(dn);
    }
    while (e) {
        depnode::edge* next = e->next;
        depnode* to = e->to;  // e is `to`'s memory: not touched after the count below
        if (to->npred.fetch_sub(1, std::memory_order_acq_rel) == 1) {
            if (to->task) {
                rank_ready(to);
                make_ready_after(rec, to->task);
            } else {
                to->waiter->notify();
            }
        }
        e = next;
    }
}

}  // namespace deps
}  // namespace loom::omp::tasking

namespace loom::omp::tasking {

namespace {

void spawn(const here& h, ext::task* rec, const dep_lists& d) {
    if (d.n1 <= 0 && d.n2 <= 0) {
        launch(h, rec, false, true);
        return;
    }
    depnode* dn = deps::place(rec);
    if (!(rec->flags & f_dn_inline)) [[unlikely]]
        h.rc->node_room_for = ktask_of(rec)->routine;
    dn->task = rec;
    rec->user |= u_deps;
    process(hash_of(h), dn, d);
    launch(h, rec, true, true);  // counted; queued below or by the last predecessor
    if (dn->end_setup()) {
        rank_ready(dn);
        start_counted(h, rec);
    }
}

}  // namespace

void task_spawn_with_deps(kmp_task_t* kt, kmp_int32 ndeps, kmp_depend_info* dep_list,
                          kmp_int32 ndeps_noalias, kmp_depend_info* noalias_dep_list) {
    here h = current_here();
    ext::task* rec = record_of(kt);
    // libomp reports the task and its dependences before it looks for predecessors.
    if (ompt::on()) [[unlikely]]
        ompt::task_launched_with_deps(rec, ndeps, dep_list, ndeps_noalias, noalias_dep_list);
    const dep_lists given{ndeps, dep_list, ndeps_noalias, noalias_dep_list};
    if (ompt::on()) [[unlikely]] {
        const merged_list m(given);
        spawn(h, rec, m.lists());
        return;
    }
    spawn(h, rec, given);
}

void wait_deps(kmp_int32 ndeps, kmp_depend_info* dep_list, kmp_int32 ndeps_noalias,
               kmp_depend_info* noalias_dep_list) {
    if (ompt::on() && (ndeps > 0 || ndeps_noalias > 0)) [[unlikely]] {
        // libomp reports the wait as an undeferred taskwait task with these dependences.
        ompt::taskwait_deps_begin(ndeps, dep_list, ndeps_noalias, noalias_dep_list);
        wait_for(current_here(), merged_list({ndeps, dep_list, ndeps_noalias, noalias_dep_list}).lists());
        ompt::taskwait_deps_end();
        return;
    }
    wait_for(current_here(), {ndeps, dep_list, ndeps_noalias, noalias_dep_list});
}

depnode* depnode_of(kmp_task_t* kt) noexcept {
    ext::task* rec = record_of(kt);
    return (rec->user & u_deps) ? deps::node_of(rec) : nullptr;
}

depnode::edge* successors_of(kmp_task_t* kt) noexcept {
    depnode* dn = depnode_of(kt);
    if (!dn) return nullptr;
    depnode::edge* e = dn->succ.load(std::memory_order_acquire);
    return e == closed ? nullptr : e;
}

}  // namespace loom::omp::tasking
