// Task reductions. Private copies are indexed by worker (not by team member): a task of
// the team may run on any worker, and one worker runs one task at a time (tied tasks
// resume where they started), so a copy is never used by two tasks at once. The slot
// after the last worker serves threads outside the pool.
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <new>
#include <type_traits>

#include "tasking/task.hpp"
#include "tasking/taskred.hpp"
#include "parallel/team.hpp"

namespace loom::omp::tasking {

struct red_item {
    void* shar = nullptr;
    void* orig = nullptr;
    std::size_t size = 0;       // one copy, rounded to a cache line
    void* init = nullptr;
    void* fini = nullptr;
    void* comb = nullptr;
    bool two_args = true;       // init(priv, orig) (taskred) or init(priv) (old interface)
    char* priv = nullptr;       // nth copies
    char* pend = nullptr;
};

struct red_set {
    int num = 0;
    int nth = 0;
    red_item* items = nullptr;
    bool owns_priv = true;
    int modifier = -1;          // 0 parallel, 1 worksharing; -1 a plain taskgroup
};

namespace {

// Compiler input, new interface (kmp_taskred_input_t).
struct taskred_input {
    void* reduce_shar;
    void* reduce_orig;
    std::size_t reduce_size;
    void* reduce_init;
    void* reduce_fini;
    void* reduce_comb;
    std::uint32_t flags;
};
// Old interface (kmp_task_red_input_t).
struct task_red_input {
    void* reduce_shar;
    std::size_t reduce_size;
    void* reduce_init;
    void* reduce_fini;
    void* reduce_comb;
    std::uint32_t flags;
};

int copies() { return static_cast<int>(ext::worker_count()) + 1; }

inline int my_copy(int nth) {
    int w = ext::current_worker();
    return w >= 0 && w < nth - 1 ? w : nth - 1;
}

void init_copy(const red_item& it, char* p) {
    if (!it.init) {
        std::memset(p, 0, it.size);
    } else if (it.two_args) {
        reinterpret_cast<void (*)(void*, void*)>(it.init)(p, it.orig);
    } else {
        reinterpret_cast<void (*)(void*)>(it.init)(p);
    }
}

// A set and its `num` items (out_of_memory.hpp: no bad_alloc into the entry points).
red_set* new_red_set(int num) noexcept {
    auto* s =
        allocate_or_stop([] { return new red_set; }, "a task-reduction set", sizeof(red_set));
    const std::size_t n = static_cast<std::size_t>(num);
    s->items = allocate_or_stop([n] { return new red_item[n]; }, "task-reduction items",
                                n * sizeof(red_item));
    return s;
}

template <class In>
red_set* build(int num, In* data) {
    auto* s = new_red_set(num);
    s->num = num;
    s->nth = copies();
    for (int i = 0; i < num; ++i) {
        red_item& it = s->items[i];
        it.shar = data[i].reduce_shar;
        if constexpr (std::is_same_v<In, taskred_input>) {
            it.orig = data[i].reduce_orig ? data[i].reduce_orig : data[i].reduce_shar;
            it.two_args = true;
        } else {
            it.orig = data[i].reduce_shar;
            it.two_args = false;
        }
        std::size_t sz = data[i].reduce_size ? data[i].reduce_size : 1;
        it.size = (sz + 63) & ~std::size_t{63};
        it.init = data[i].reduce_init;
        it.fini = data[i].reduce_fini;
        it.comb = data[i].reduce_comb;
        const std::size_t bytes = it.size * static_cast<std::size_t>(s->nth);
        it.priv = static_cast<char*>(std::aligned_alloc(64, bytes));
        if (!it.priv) out_of_memory("task-reduction copies", bytes);
        it.pend = it.priv + bytes;
        for (int j = 0; j < s->nth; ++j) init_copy(it, it.priv + it.size * static_cast<std::size_t>(j));
    }
    return s;
}

void combine(red_set* s, void* const* shar) {
    for (int i = 0; i < s->num; ++i) {
        red_item& it = s->items[i];
        auto comb = reinterpret_cast<void (*)(void*, void*)>(it.comb);
        auto fini = reinterpret_cast<void (*)(void*)>(it.fini);
        for (int j = 0; j < s->nth; ++j) {
            char* p = it.priv + it.size * static_cast<std::size_t>(j);
            comb(shar ? shar[i] : it.shar, p);
            if (fini) fini(p);
        }
    }
}

void free_set(red_set* s, bool privs) {
    if (privs)
        for (int i = 0; i < s->num; ++i) std::free(s->items[i].priv);
    delete[] s->items;
    delete s;
}

template <class In>
void* init(int num, In* data) {
    here h = current_here();
    tgroup* g = current_group(h);
    if (!g || num <= 0) return g;
    g->red = build(num, data);
    return g;
}

template <class In>
void* modifier_init(int is_ws, int num, In* data) {
    here h = current_here();
    open_group(h);
    tgroup* g = current_group(h);
    team* tm = h.rc->tm;
    if (!tm || h.rc->it->nthreads <= 1 || h.rc->current) {
        g->red = build(num, data);
        return g;
    }
    task_team& tt = tm->tasks;
    void* expected = nullptr;
    red_set* tmpl;
    if (tt.red_data[is_ws].compare_exchange_strong(expected, reinterpret_cast<void*>(1),
                                                   std::memory_order_acq_rel)) {
        tmpl = build(num, data);
        tt.red_data[is_ws].store(tmpl, std::memory_order_release);
    } else {
        while ((expected = tt.red_data[is_ws].load(std::memory_order_acquire)) ==
               reinterpret_cast<void*>(1))
            spin_pause();
        tmpl = static_cast<red_set*>(expected);
    }
    auto* s = new_red_set(num);
    s->num = tmpl->num;
    s->nth = tmpl->nth;
    s->owns_priv = false;
    s->modifier = is_ws;
    for (int i = 0; i < num; ++i) {
        s->items[i] = tmpl->items[i];
        s->items[i].shar = data[i].reduce_shar;
    }
    g->red = s;
    return g;
}

}  // namespace

void* reduction_init(int num, void* data) { return init(num, static_cast<taskred_input*>(data)); }

void* reduction_init_v1(int num, void* data) {
    return init(num, static_cast<task_red_input*>(data));
}

void* reduction_modifier_init(bool is_ws, int num, void* data) {
    return modifier_init(is_ws ? 1 : 0, num, static_cast<taskred_input*>(data));
}

void* reduction_modifier_init_v1(bool is_ws, int num, void* data) {
    return modifier_init(is_ws ? 1 : 0, num, static_cast<task_red_input*>(data));
}

void reduction_modifier_fini() { close_group(current_here()); }

void* reduction_private_copy(void* taskgroup, void* data) {
    tgroup* g = static_cast<tgroup*>(taskgroup);
    if (!g) g = binding_group(current_here());
    for (; g; g = g->parent) {
        red_set* s = g->red;
        if (!s) continue;
        for (int i = 0; i < s->num; ++i) {
            red_item& it = s->items[i];
            if (data == it.shar || (data >= it.priv && data < it.pend))
                return it.priv + it.size * static_cast<std::size_t>(my_copy(s->nth));
        }
    }
    return data;  // not a reduction item of any enclosing taskgroup
}

void finish_reductions(const here& h, tgroup* g) {
    red_set* s = g->red;
    g->red = nullptr;
    if (s->modifier < 0) {
        combine(s, nullptr);
        free_set(s, true);
        return;
    }
    // Modifier: the members share the copies; the last one to finish combines them
    // into its own item (the parallel reduction then combines the members' items).
    team* tm = h.rc->tm;
    task_team& tt = tm->tasks;
    const int is_ws = s->modifier;
    if (tt.red_fini[is_ws].fetch_add(1, std::memory_order_acq_rel) == h.rc->it->nthreads - 1) {
        auto* tmpl = static_cast<red_set*>(tt.red_data[is_ws].load(std::memory_order_acquire));
        combine(s, nullptr);
        free_set(tmpl, true);
        tt.red_data[is_ws].store(nullptr, std::memory_order_relaxed);
        tt.red_fini[is_ws].store(0, std::memory_order_release);
    }
    free_set(s, false);
}

}  // namespace loom::omp::tasking
