// Execution contexts and the switch between them: the only place that touches
// Boost.Context and the sanitizers' fiber hooks.
//
// A context is either a pooled fiber (a guarded mmap'ed stack running the worker loop
// and the tasks it picks up) or a thread's native stack (a pool thread's exit point, or
// the slot-0 thread while it waits inside the runtime). Every switch carries an
// `arrival` record that the *receiving* side acts on once the sender's registers are
// saved: that is what makes it safe to publish a parked context to other workers.
#pragma once

#include <boost/context/detail/fcontext.hpp>

#include <cstddef>

#include "loom/ext/task.hpp"

namespace loom::core {

namespace bctx = boost::context::detail;

class fiber;
struct context;

/// What the receiver of a switch must do on behalf of the sender.
struct arrival {
    enum class action : unsigned char {
        none,     // nothing (first entry of a pool thread)
        park,     // save the sender, then run commit(sender, arg); false = resume it now
        recycle,  // the sender's fiber is finished: give it back to the fiber pool
        save,     // save the sender (a native context that waits to be switched back to)
    };
    action what = action::none;
    context* from = nullptr;
    bool (*commit)(context*, void*) = nullptr;
    void* arg = nullptr;
};

/// Sanitizer bookkeeping for one context (empty in ordinary builds).
struct sanitizer_state {
    void* fake_stack = nullptr;
    const void* stack_bottom = nullptr;
    std::size_t stack_size = 0;
    void* tsan_fiber = nullptr;
};

/// A suspended or running execution context. `resume_task` is the record queued to
/// resume it (kind == resume_kind), so a parked context costs no allocation to wake.
struct context {
    static constexpr std::uint8_t resume_kind = 1;

    ext::task resume_task;
    bctx::fcontext_t fctx = nullptr;
    fiber* owner = nullptr;  // null for a native thread stack
    int tied = -1;           // worker that must resume it, -1 = any
    sanitizer_state san;
    void* trace_saved = nullptr;  // LOOM_TRACE: slices closed when it parked (trace.cpp)

    static context* of(ext::task* t) noexcept {
        return reinterpret_cast<context*>(reinterpret_cast<char*>(t) - offsetof(context, resume_task));
    }
};

/// A pooled stack with a guard region below it (stack_guard.hpp).
class fiber {
public:
    using entry_fn = void (*)(bctx::transfer_t);

    /// Maps a stack of `stack_size` usable bytes; returns null if the OS refuses.
    static fiber* create(std::size_t stack_size) noexcept;
    static void destroy(fiber* f) noexcept;

    /// Prepares a fresh start at `entry` (the previous frames are discarded).
    void restart(entry_fn entry) noexcept;
    [[nodiscard]] std::size_t stack_size() const noexcept { return usable_; }

    context ctx;

private:
    fiber() = default;
    void* mapping_ = nullptr;  // guard, then stack
    std::size_t mapping_size_ = 0;
    std::size_t usable_ = 0;
    int guard_id_ = -1;        // entry in the guard registry
    [[maybe_unused]] unsigned valgrind_id_ = 0;  // VALGRIND_STACK_REGISTER's id
#if defined(LOOM_SANITIZE_THREAD)
    static constexpr unsigned tsan_lives_per_fiber = 1024;
    unsigned tsan_lives_ = 0;  // restarts since ctx.san.tsan_fiber was created
#endif
};

/// Describes the calling thread's native stack as a context.
void init_native_context(context& c, int tied) noexcept;
void destroy_native_context(context& c) noexcept;

/// Switches from `from` (the running context) to `to`, asking the receiver to perform
/// `a`. Returns, on `from`'s stack, the transfer made by whoever switches back.
bctx::transfer_t jump(context* from, context* to, arrival* a) noexcept;
/// The sanitizer half of an arrival: must be the first thing a context does after a
/// switch lands on it (both on return from jump() and at a fiber's entry).
void finish_switch(context* self) noexcept;

}  // namespace loom::core
