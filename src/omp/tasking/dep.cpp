// Task dependences (depend clause, taskwait depend, undeferred tasks with depend).
//
// Each parent task (or implicit task) owns a hash from address to the recent history of
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
// for). A node's predecessor count starts at 1 so it cannot become ready while the
// parent is still adding edges; the parent drops that 1 last.
#include "tasking/dep.hpp"

#include <algorithm>
#include <cstring>
#include <new>
#include <vector>

#include "tasking/task.hpp"
#include "parallel/thread.hpp"
#include "ompt/events.hpp"

namespace loom::omp::tasking {

namespace {

// The tasks of one group on an address (one writer, or readers / inoutset members /
// mutexinoutset members of one kind): in place up to 4, on the heap beyond.
class group {
public:
    group() = default;
    group(const group&) = delete;
    group& operator=(const group&) = delete;
    ~group() {
        if (data_ != own_) delete[] data_;
    }
    void push_back(depnode* d) {
        if (size_ == cap_) grow();
        data_[size_++] = d;
    }
    void clear() noexcept { size_ = 0; }
    depnode** begin() const noexcept { return data_; }
    depnode** end() const noexcept { return data_ + size_; }
    bool empty() const noexcept { return size_ == 0; }
    depnode* back() const noexcept { return data_[size_ - 1]; }

private:
    static constexpr std::uint32_t inline_n = 4;
    void grow() {
        auto* d = new depnode*[2 * cap_];
        std::copy(data_, data_ + size_, d);
        if (data_ != own_) delete[] data_;
        data_ = d;
        cap_ *= 2;
    }
    depnode** data_ = own_;
    std::uint32_t size_ = 0;
    std::uint32_t cap_ = inline_n;
    depnode* own_[inline_n];
};

}  // namespace

struct dephash {
    struct entry {
        std::intptr_t addr = 0;
        entry* next = nullptr;
        std::uint8_t last_kind = 0;   // 0 none, k_in, k_out, k_mtx, k_set
        std::uint8_t cur = 0;         // which of g[] is the last group (the other: the one before)
        group g[2];
        group& last() noexcept { return g[cur]; }
        group& prev() noexcept { return g[cur ^ 1]; }
    };
    std::vector<entry*> buckets;
    std::size_t count = 0;
    depnode* last_all = nullptr;      // the last omp_all_memory task
    std::uint64_t pass = 0;           // numbers the tasks added, for depnode::linked

    dephash() : buckets(64, nullptr) {}
};

namespace {

constexpr std::uint8_t k_in = 1, k_out = 2, k_mtx = 4, k_set = 8;
auto* const closed = reinterpret_cast<depnode::edge*>(std::uintptr_t{1});

// kmp_depend_info::flags (low 4 bits) -> kind: out wins, then mutexinoutset, inoutset.
constexpr std::uint8_t kind_table[16] = {k_in,  k_in,  k_out, k_out, k_mtx, k_mtx, k_out, k_out,
                                         k_set, k_set, k_out, k_out, k_mtx, k_mtx, k_out, k_out};
inline std::uint8_t kind_of(std::uint8_t flags) noexcept { return kind_table[flags & 15]; }

inline std::size_t hash_addr(std::intptr_t a, std::size_t n) noexcept {
    auto x = static_cast<std::uint64_t>(a);
    x ^= x >> 29;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 32;
    return static_cast<std::size_t>(x) & (n - 1);
}

void grow(dephash& h) {
    std::vector<dephash::entry*> nb(h.buckets.size() * 2, nullptr);
    for (dephash::entry* e : h.buckets) {
        while (e) {
            dephash::entry* next = e->next;
            std::size_t b = hash_addr(e->addr, nb.size());
            e->next = nb[b];
            nb[b] = e;
            e = next;
        }
    }
    h.buckets.swap(nb);
}

dephash::entry* find(dephash& h, std::intptr_t addr, bool insert) {
    std::size_t b = hash_addr(addr, h.buckets.size());
    for (dephash::entry* e = h.buckets[b]; e; e = e->next)
        if (e->addr == addr) return e;
    if (!insert) return nullptr;
    if (h.count + 1 > h.buckets.size()) {
        grow(h);
        b = hash_addr(addr, h.buckets.size());
    }
    auto* e = new dephash::entry;
    e->addr = addr;
    e->next = h.buckets[b];
    h.buckets[b] = e;
    ++h.count;
    return e;
}

// The hash keeps `d` in one more entry (or as the last all-memory task).
inline void hold(depnode* d) noexcept { ++d->hrefs; }
// ... in one entry less: the last one gives the hash's reference back.
inline void let_go(depnode* d) noexcept {
    if (--d->hrefs == 0) deps::drop_node(d);
}

[[gnu::always_inline]] inline void drop_all(group& v) noexcept {
    for (depnode* d : v) let_go(d);
    v.clear();
}

void clear_entries(dephash& h) noexcept {
    for (dephash::entry*& head : h.buckets) {
        for (dephash::entry* e = head; e;) {
            dephash::entry* next = e->next;
            drop_all(e->g[0]);
            drop_all(e->g[1]);
            delete e;
            e = next;
        }
        head = nullptr;
    }
    h.count = 0;
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

void edges_from(const group& v, depnode* me, depnode* last_all, std::uint64_t pass) {
    if (v.empty()) {
        add_edge(last_all, me, pass);
        return;
    }
    for (depnode* p : v) add_edge(p, me, pass);
}

struct dep_item {
    std::intptr_t addr;
    std::uint8_t kind;
    bool all;
};

// The depend items of one construct: in place up to 8 (almost every task), on the
// heap beyond. A vector per task cost a malloc and a free for every task with depend.
class dep_items {
public:
    explicit dep_items(std::size_t n) {
        if (n > inline_items) {
            heap_.resize(n);
            data_ = heap_.data();
        }
    }
    dep_items(const dep_items&) = delete;
    dep_items& operator=(const dep_items&) = delete;

    void push_back(const dep_item& d) noexcept { data_[size_++] = d; }  // within n
    void shrink(std::size_t n) noexcept { size_ = n; }
    dep_item& operator[](std::size_t i) noexcept { return data_[i]; }
    dep_item* begin() const noexcept { return data_; }
    dep_item* end() const noexcept { return data_ + size_; }
    std::size_t size() const noexcept { return size_; }
    bool empty() const noexcept { return size_ == 0; }
    const dep_item& front() const noexcept { return data_[0]; }

private:
    static constexpr std::size_t inline_items = 8;
    dep_item own_[inline_items];
    std::vector<dep_item> heap_;
    dep_item* data_ = own_;
    std::size_t size_ = 0;
};

std::size_t count_of(kmp_int32 n1, kmp_int32 n2) noexcept {
    return static_cast<std::size_t>(std::max(n1, 0)) + static_cast<std::size_t>(std::max(n2, 0));
}

// Merges the two lists into `v`, one item per address (differing kinds -> out); an
// omp_all_memory item stands for every address, so it is then the only item. A short
// list is merged in place by comparing each item with the ones kept (almost every
// task names a handful of addresses: a sort cost ~340 instructions a task); a long
// one is sorted by address first.
void collect(dep_items& v, kmp_int32 n1, kmp_depend_info* l1, kmp_int32 n2,
             kmp_depend_info* l2) {
    constexpr std::size_t short_list = 8;
    const bool merge_here = count_of(n1, n2) <= short_list;
    bool all = false;
    auto add = [&](kmp_int32 n, kmp_depend_info* l) {
        for (kmp_int32 i = 0; i < n; ++i) {
            if (l[i].flags == 0) continue;
            // omp_all_memory: flag 0x80, or (older code generation) address -1.
            if ((l[i].flags & 0x80) != 0 || l[i].base_addr == -1) {
                all = true;
                continue;
            }
            const std::intptr_t a = l[i].base_addr;
            const std::uint8_t k = kind_of(l[i].flags);
            if (merge_here) {
                std::size_t j = 0;
                while (j < v.size() && v[j].addr != a) ++j;
                if (j < v.size()) {
                    if (v[j].kind != k) v[j].kind = k_out;
                    continue;
                }
            }
            v.push_back(dep_item{a, k, false});
        }
    };
    if (n1 > 0 && l1) add(n1, l1);
    if (n2 > 0 && l2) add(n2, l2);
    if (all) {
        v.shrink(0);
        v.push_back(dep_item{0, k_out, true});
        return;
    }
    if (merge_here || v.size() < 2) return;
    std::sort(v.begin(), v.end(), [](const dep_item& a, const dep_item& b) { return a.addr < b.addr; });
    std::size_t o = 0;
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (o > 0 && v[o - 1].addr == v[i].addr) {
            if (v[o - 1].kind != v[i].kind) v[o - 1].kind = k_out;
            continue;
        }
        v[o++] = v[i];
    }
    v.shrink(o);
}

// Adds `me` to the graph: edges from its predecessors; with `insert`, `me` also
// becomes part of the history (a task); without, it only waits (taskwait depend).
void process(dephash& h, depnode* me, const dep_items& items, bool insert) {
    const std::uint64_t pass = ++h.pass;
    if (!items.empty() && items.front().all) {
        // omp_all_memory: after every address's last group and the previous all-memory.
        add_edge(h.last_all, me, pass);
        for (dephash::entry* head : h.buckets)
            for (dephash::entry* e = head; e; e = e->next) {
                for (depnode* p : e->last()) add_edge(p, me, pass);
            }
        if (insert) {
            clear_entries(h);
            if (h.last_all) let_go(h.last_all);
            hold(me);
            h.last_all = me;
        }
        return;
    }
    for (const dep_item& it : items) {
        dephash::entry* e = find(h, it.addr, insert);
        if (!e) {
            add_edge(h.last_all, me, pass);
            continue;
        }
        const std::uint8_t k = it.kind;
        if (k != k_out && e->last_kind == k) {
            edges_from(e->prev(), me, h.last_all, pass);
            if (k == k_mtx && !e->last().empty()) add_edge(e->last().back(), me, pass);
            if (insert) {
                hold(me);
                e->last().push_back(me);
            }
        } else {
            edges_from(e->last(), me, h.last_all, pass);
            if (insert) {
                drop_all(e->prev());
                if (k == k_out) drop_all(e->last());
                else e->cur ^= 1;  // the last group becomes the one before; the new one is empty
                hold(me);
                e->last().push_back(me);
                e->last_kind = k;
            }
        }
    }
}

dephash& hash_of(const here& h) {
    dephash** slot = current_deps_slot(h);
    if (!*slot) *slot = new dephash;
    return **slot;
}

// Waits (running own children meanwhile) until the predecessors listed are done.
void wait_for(const here& h, kmp_int32 n1, kmp_depend_info* l1, kmp_int32 n2, kmp_depend_info* l2) {
    if (n1 + n2 <= 0) return;
    dephash** slot = current_deps_slot(h);
    if (!*slot) return;  // no child with dependences: nothing to wait for
    dep_items items(count_of(n1, n2));
    collect(items, n1, l1, n2, l2);
    alignas(64) unsigned char block[ext::task::record_size];
    depnode* me = depnode::make_in(block, sizeof block);
    ext::wait_slot s;
    me->waiter = &s;
    process(**slot, me, items, false);
    if (!me->end_setup()) {
        node* owner = current_node(h);
        while (!s.notified() && help_one(owner)) {
        }
        park(s);
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

void task_spawn_with_deps(kmp_task_t* kt, kmp_int32 ndeps, kmp_depend_info* dep_list,
                          kmp_int32 ndeps_noalias, kmp_depend_info* noalias_dep_list) {
    here h = current_here();
    ext::task* rec = record_of(kt);
    // libomp reports the task and its dependences before it looks for predecessors.
    if (ompt::on()) [[unlikely]]
        ompt::task_launched_with_deps(rec, ndeps, dep_list, ndeps_noalias, noalias_dep_list);
    dep_items items(count_of(ndeps, ndeps_noalias));
    collect(items, ndeps, dep_list, ndeps_noalias, noalias_dep_list);
    if (items.empty()) {
        launch(h, rec, false, true);
        return;
    }
    depnode* dn = deps::place(rec);
    dn->task = rec;
    rec->user |= u_deps;
    process(hash_of(h), dn, items, true);
    launch(h, rec, true, true);  // counted; queued below or by the last predecessor
    if (dn->end_setup()) {
        rank_ready(dn);
        start_counted(h, rec);
    }
}

void wait_deps(kmp_int32 ndeps, kmp_depend_info* dep_list, kmp_int32 ndeps_noalias,
               kmp_depend_info* noalias_dep_list) {
    if (ompt::on() && (ndeps > 0 || ndeps_noalias > 0)) [[unlikely]] {
        // libomp reports the wait as an undeferred taskwait task with these dependences.
        ompt::taskwait_deps_begin(ndeps, dep_list, ndeps_noalias, noalias_dep_list);
        wait_for(current_here(), ndeps, dep_list, ndeps_noalias, noalias_dep_list);
        ompt::taskwait_deps_end();
        return;
    }
    wait_for(current_here(), ndeps, dep_list, ndeps_noalias, noalias_dep_list);
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
