// The dependence hash of one parent task: address -> the recent history of that
// address (its last group of tasks and the group before it). Only the parent touches
// it (it alone creates its children): no lock, no atomics. Used by dep.cpp alone.
//
// Open addressing with the entries in the table itself: an address costs no
// allocation of its own, and an entry, once made, serves every later task of the
// parent on that address. Entries are never removed one by one (omp_all_memory clears
// them all), so linear probing needs no tombstones. Every field is zero when empty,
// so a table is calloc'd, and an entry moves by memcpy when the table grows.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>

#include "out_of_memory.hpp"

namespace loom::omp::tasking {

struct depnode;

namespace deptable {

/// The tasks of one group on an address (one writer, or readers / inoutset members /
/// mutexinoutset members of one kind): in place up to 4, beyond in a heap array that
/// the entry keeps (a group is emptied and refilled, task after task, on its address).
class group {
public:
    depnode** begin() noexcept { return cap_ ? heap_ : own_; }
    depnode** end() noexcept { return begin() + size_; }
    bool empty() const noexcept { return size_ == 0; }
    depnode* back() noexcept { return begin()[size_ - 1]; }
    void clear() noexcept { size_ = 0; }
    void push_back(depnode* d) {
        if (size_ < (cap_ ? cap_ : inline_n)) [[likely]] {
            begin()[size_++] = d;
            return;
        }
        grow();
        heap_[size_++] = d;
    }
    /// Frees the heap array (the table is going away).
    void release() noexcept {
        if (cap_) std::free(heap_);
    }

private:
    static constexpr std::uint32_t inline_n = 4;
    void grow() {
        const std::uint32_t n = cap_ ? 2 * cap_ : 2 * inline_n;
        auto* d = static_cast<depnode**>(std::malloc(n * sizeof(depnode*)));
        if (!d) out_of_memory("a dependence list", n * sizeof(depnode*));
        std::memcpy(d, begin(), size_ * sizeof(depnode*));
        if (cap_) std::free(heap_);
        heap_ = d;
        cap_ = n;
    }
    std::uint32_t size_;
    std::uint32_t cap_;  // 0: the nodes are in own_
    union {
        depnode* own_[inline_n];
        depnode** heap_;
    };
};

struct entry {
    std::intptr_t addr;
    std::uint8_t last_kind;  // 0: a free slot; else k_in, k_out, k_mtx or k_set
    std::uint8_t cur;        // which of g[] is the last group (the other: the one before)
    group g[2];
    group& last() noexcept { return g[cur]; }
    group& prev() noexcept { return g[cur ^ 1]; }
};

/// The table itself: 2^bits entries, at most half of them used.
struct table {
    entry* slots = nullptr;
    std::uint32_t bits = 0;
    std::uint32_t used = 0;

    static constexpr std::uint32_t initial_bits = 4;

    table() { init(initial_bits); }
    table(const table&) = delete;
    table& operator=(const table&) = delete;
    ~table() {
        for (entry* e = slots; e != slots + size(); ++e) {
            e->g[0].release();
            e->g[1].release();
        }
        std::free(slots);
    }
    std::size_t size() const noexcept { return std::size_t{1} << bits; }

    /// The entry of `a`, or the free slot where it would go (last_kind 0).
    // Fibonacci hashing: the high bits of the product, so addresses that differ by a
    // stride (array elements, rows) spread over the table.
    entry* probe(std::intptr_t a) noexcept {
        const std::size_t mask = size() - 1;
        std::size_t i = static_cast<std::size_t>((static_cast<std::uint64_t>(a) * 0x9e3779b97f4a7c15ULL) >> (64 - bits));
        for (;; i = (i + 1) & mask) {
            entry* e = slots + i;
            if (e->addr == a || e->last_kind == 0) return e;
        }
    }
    /// The entry of `a`, made (and the table grown) if the address is new. A new
    /// entry has last_kind 0 until its first task sets it.
    entry* find_or_add(std::intptr_t a) {
        entry* e = probe(a);
        if (e->last_kind != 0) [[likely]] return e;
        if (2 * (used + 1) > size()) {
            grow();
            e = probe(a);
        }
        ++used;
        e->addr = a;
        return e;
    }
    /// Every entry dropped (their nodes let go by the caller first).
    void reset() noexcept {
        for (entry* e = slots; e != slots + size(); ++e) {
            e->last_kind = 0;
            e->addr = 0;
        }
        used = 0;
    }

private:
    void init(std::uint32_t b) {
        slots = static_cast<entry*>(std::calloc(std::size_t{1} << b, sizeof(entry)));
        if (!slots) out_of_memory("a dependence hash", (std::size_t{1} << b) * sizeof(entry));
        bits = b;
    }
    void grow() {
        entry* old = slots;
        const std::size_t n = size();
        init(bits + 1);
        for (entry* e = old; e != old + n; ++e) {
            if (e->last_kind != 0) {
                std::memcpy(static_cast<void*>(probe(e->addr)), e, sizeof(entry));
            } else {
                e->g[0].release();  // a free slot may keep arrays from before a reset
                e->g[1].release();
            }
        }
        std::free(old);
    }
};

}  // namespace deptable
}  // namespace loom::omp::tasking
