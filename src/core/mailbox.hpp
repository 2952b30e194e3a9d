// A worker's mailbox: many producers, one consumer (the worker), FIFO. Holds work that
// must run on that worker: resumptions of tied contexts and OpenMP implicit tasks.
//
// Producers push onto a lock-free stack (Treiber, CAS on head); the consumer takes the
// whole stack with one exchange and reverses it into a private FIFO list. The exchange
// removes every node at once, so there is no ABA problem. Orderings: push publishes
// the node with release; take_all acquires.
#pragma once

#include <atomic>

#include "loom/ext/task.hpp"

namespace loom::core {

class mailbox {
public:
    /// Any thread.
    void push(ext::task* t) noexcept {
        ext::task* head = incoming_.load(std::memory_order_relaxed);
        do {
            t->next = head;
        } while (!incoming_.compare_exchange_weak(head, t, std::memory_order_release,
                                                  std::memory_order_relaxed));
    }

    /// Owner only. Returns null when empty.
    ext::task* pop() noexcept {
        if (!ready_) {
            if (incoming_.load(std::memory_order_relaxed) == nullptr) return nullptr;
            ready_ = reverse(incoming_.exchange(nullptr, std::memory_order_acquire));
        }
        ext::task* t = ready_;
        if (t) ready_ = t->next;
        return t;
    }

    /// A hint for sleepers; exact only for the owner.
    [[nodiscard]] bool looks_empty() const noexcept {
        return ready_ == nullptr && incoming_.load(std::memory_order_relaxed) == nullptr;
    }
    [[nodiscard]] bool has_incoming() const noexcept {
        return incoming_.load(std::memory_order_seq_cst) != nullptr;
    }

private:
    static ext::task* reverse(ext::task* t) noexcept {
        ext::task* out = nullptr;
        while (t) {
            ext::task* next = t->next;
            t->next = out;
            out = t;
            t = next;
        }
        return out;
    }

    alignas(64) std::atomic<ext::task*> incoming_{nullptr};
    alignas(64) ext::task* ready_ = nullptr;  // owner only
};

}  // namespace loom::core
