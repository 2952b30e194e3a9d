#include "fiber.hpp"

#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>

#include "address_space.hpp"
#include "stack_guard.hpp"

#if defined(LOOM_SANITIZE_ADDRESS)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#include <sanitizer/lsan_interface.h>
#endif
#if defined(LOOM_SANITIZE_THREAD)
#include <sanitizer/tsan_interface.h>
#endif
// Valgrind's client requests cost a few no-op instructions when not under valgrind;
// without them memcheck takes a switch to a fiber for a huge stack frame and reports
// every access on the fiber's stack.
#if defined(LOOM_HAVE_VALGRIND_H)
#include <valgrind/valgrind.h>
#endif

namespace loom::core {

namespace {
std::size_t page_size() noexcept {
    static const std::size_t size = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    return size;
}
}  // namespace

// One reservation per fiber: the guard (PROT_NONE, stack_guard.hpp says how large and
// why) at the low end, the stack above it. Mapped PROT_NONE first, so the guard is
// never committed memory; only the stack is made writable. Under `ulimit -v` a fiber
// that would leave less than address_space_reserve free is refused like a failed mmap.
fiber* fiber::create(std::size_t stack_size) noexcept {
    const std::size_t page = page_size();
    const std::size_t usable = (stack_size + page - 1) / page * page;
    const std::size_t guard = guard_size(usable);
    const std::size_t total = guard + usable;
    if (!address_space_allows(total)) return nullptr;
    void* mem = mmap(nullptr, total, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (mem == MAP_FAILED) return nullptr;
    char* stack = static_cast<char*>(mem) + guard;
    if (mprotect(stack, usable, PROT_READ | PROT_WRITE) != 0) {
        const int err = errno;  // the pool's message names it
        munmap(mem, total);
        errno = err;
        return nullptr;
    }
    auto* f = new (std::nothrow) fiber();
    if (!f) {
        munmap(mem, total);
        errno = ENOMEM;
        return nullptr;
    }
    f->mapping_ = mem;
    f->mapping_size_ = total;
    f->usable_ = usable;
    f->guard_id_ = register_guard(mem, guard, usable);
#if defined(LOOM_HAVE_VALGRIND_H)
    f->valgrind_id_ = VALGRIND_STACK_REGISTER(stack, stack + usable);
#endif
    f->ctx.owner = f;
    f->ctx.san.stack_bottom = stack;
    f->ctx.san.stack_size = usable;
#if defined(LOOM_SANITIZE_ADDRESS)
    // LeakSanitizer scans thread stacks and globals, not mappings: a task parked on
    // this stack holds records only here (at exit inside a parallel region it reported
    // the members' task records as leaked).
    __lsan_register_root_region(stack, usable);
#endif
    return f;
}

void fiber::destroy(fiber* f) noexcept {
    if (!f) return;
#if defined(LOOM_SANITIZE_ADDRESS)
    __lsan_unregister_root_region(f->ctx.san.stack_bottom, f->usable_);
#endif
#if defined(LOOM_SANITIZE_THREAD)
    if (f->ctx.san.tsan_fiber) __tsan_destroy_fiber(f->ctx.san.tsan_fiber);
#endif
#if defined(LOOM_HAVE_VALGRIND_H)
    VALGRIND_STACK_DEREGISTER(f->valgrind_id_);
#endif
    // Out of the registry before the range can be mapped again for something else.
    unregister_guard(f->guard_id_);
    munmap(f->mapping_, f->mapping_size_);
    delete f;
}

void fiber::restart(entry_fn entry) noexcept {
    void* top = static_cast<char*>(mapping_) + mapping_size_;
    ctx.fctx = bctx::make_fcontext(top, usable_, entry);
    ctx.tied = -1;
#if defined(LOOM_SANITIZE_ADDRESS)
    // The previous life of this stack may have left poisoned frames behind.
    __asan_unpoison_memory_region(ctx.san.stack_bottom, usable_);
#endif
#if defined(LOOM_SANITIZE_THREAD)
    // The previous life's frames were abandoned, never returned from, so they stay on
    // TSan's shadow call stack of this fiber: a few per life. A new TSan fiber every
    // life would bound that at none, but a tasking program may park a million times
    // in one run, and that churn of TSan thread contexts crashed TSan's own report code
    // (a SEGV in RestoreStack, libgomp's cancel-taskgroup-1.c). One TSan fiber serves
    // tsan_lives_per_fiber lives: its shadow stack stays far below TSan's 64 Ki
    // entries. Created here, not by create(): the next switch makes it current at
    // once (TSan's trace state of a fiber destroyed without ever running is broken).
    if (!ctx.san.tsan_fiber || ++tsan_lives_ >= tsan_lives_per_fiber) {
        if (ctx.san.tsan_fiber) __tsan_destroy_fiber(ctx.san.tsan_fiber);
        ctx.san.tsan_fiber = __tsan_create_fiber(0);
        tsan_lives_ = 0;
    }
#endif
}

void init_native_context(context& c, int tied) noexcept {
    c.owner = nullptr;
    c.tied = tied;
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
        void* addr = nullptr;
        std::size_t size = 0;
        pthread_attr_getstack(&attr, &addr, &size);
        c.san.stack_bottom = addr;
        c.san.stack_size = size;
        pthread_attr_destroy(&attr);
    }
#if defined(LOOM_SANITIZE_THREAD)
    c.san.tsan_fiber = __tsan_get_current_fiber();
#endif
}

void destroy_native_context(context&) noexcept {}

bctx::transfer_t jump(context* from, context* to, arrival* a) noexcept {
#if defined(LOOM_SANITIZE_ADDRESS)
    // A fiber that is being recycled never comes back: ASan must drop its fake stack.
    __sanitizer_start_switch_fiber(a->what == arrival::action::recycle ? nullptr : &from->san.fake_stack,
                                   to->san.stack_bottom, to->san.stack_size);
#endif
#if defined(LOOM_SANITIZE_THREAD)
    __tsan_switch_to_fiber(to->san.tsan_fiber, 0);
#endif
    bctx::transfer_t t = bctx::jump_fcontext(to->fctx, a);
    finish_switch(from);
    return t;
}

void finish_switch([[maybe_unused]] context* self) noexcept {
#if defined(LOOM_SANITIZE_ADDRESS)
    __sanitizer_finish_switch_fiber(self ? self->san.fake_stack : nullptr, nullptr, nullptr);
#endif
}

}  // namespace loom::core
