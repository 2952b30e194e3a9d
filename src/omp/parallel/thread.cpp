// Thread registration: dense gtids, one small record per OS thread.
#include "parallel/thread.hpp"

#include <pthread.h>

#include <array>
#include <mutex>
#include <new>
#include <utility>
#include <vector>

#include "ompt/events.hpp"
#include "tasking/hidden_helper.hpp"
#include "parallel/outside_masters.hpp"
#include "parallel/team.hpp"

namespace loom::omp {

__thread thread_state* tl_state = nullptr;

namespace {

std::mutex g_reg_mutex;
// Never destroyed: pool threads release their records (release_thread) while the
// process runs its static destructors.
std::vector<kmp_int32>& g_free_gtids = *new std::vector<kmp_int32>;
kmp_int32 g_next_gtid = 0;
int g_live = 0;
pthread_key_t g_key;
std::once_flag g_key_once;

void release_thread(void* p) {
    auto* th = static_cast<thread_state*>(p);
    dismiss_hot_teams(th);
    forget_outside_master(th);
    if (ompt::on()) ompt::thread_exiting(th);
    std::lock_guard lk(g_reg_mutex);
    if (!hidden_helper::is_held_gtid(th->gtid)) g_free_gtids.push_back(th->gtid);
    --g_live;
    delete th;
}

// `held`: a gtid held back for a hidden helper thread (hidden_helper.cpp), else -1.
thread_state* register_thread(kmp_int32 held = -1) {
    std::call_once(g_key_once, [] { pthread_key_create(&g_key, release_thread); });
    auto* th = new thread_state;
    {
        std::lock_guard lk(g_reg_mutex);
        // libomp numbers the hidden helpers 1..n; other threads skip them.
        if (g_next_gtid == 1) g_next_gtid += hidden_helper::held_gtids();
        if (held >= 0) {
            th->gtid = held;
        } else if (!g_free_gtids.empty()) {
            th->gtid = g_free_gtids.back();
            g_free_gtids.pop_back();
        } else {
            th->gtid = g_next_gtid++;
        }
        ++g_live;
    }
    th->initial.icv = globals().initial;
    th->current = &th->initial;
    // The thread's own stack: code running there on the slot-0 thread is its native
    // context, which the scheduler keeps on worker 0 when it parks (wait.cpp).
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
        void* addr = nullptr;
        std::size_t size = 0;
        if (pthread_attr_getstack(&attr, &addr, &size) == 0) {
            th->native_lo = reinterpret_cast<std::uintptr_t>(addr);
            th->native_hi = th->native_lo + size;
        }
        pthread_attr_destroy(&attr);
    }
    pthread_setspecific(g_key, th);
    tl_state = th;
    ompt::start_tool_once();
    if (ompt::on()) ompt::thread_registered(th);
    return th;
}

}  // namespace

__attribute__((noinline)) thread_state* this_thread() {
    thread_state* th = tl_state;
    if (__builtin_expect(th == nullptr, 0)) th = register_thread();
    return th;
}

__attribute__((noinline)) implicit_task* current_task() { return this_thread()->current; }

thread_state* this_thread_if_known() noexcept { return tl_state; }

thread_state* register_held_thread(kmp_int32 gtid) {
    return tl_state ? tl_state : register_thread(gtid);
}

int known_threads() noexcept {
    std::lock_guard lk(g_reg_mutex);
    return g_live;
}

void reset_threads_after_fork() noexcept {
    // Only the forking thread exists in the child; its record stays, with gtid kept.
    thread_state* th = tl_state;
    new (&g_reg_mutex) std::mutex;
    g_free_gtids.clear();
    g_live = th ? 1 : 0;
    reset_outside_masters_after_fork(th);
    if (th) {
        for (team*& t : th->hot) t = nullptr;  // the members are gone; leak the records
        th->current = &th->initial;
        th->initial.ws_count = 0;
        th->initial.single_count = 0;
        // gtids of the parent's other threads may be reused.
        for (kmp_int32 g = 0; g < g_next_gtid; ++g)
            if (g != th->gtid && !hidden_helper::is_held_gtid(g)) g_free_gtids.push_back(g);
    }
}

namespace {

using call_fn = void (*)(kmpc_micro, kmp_int32*, kmp_int32*, void**);

template <std::size_t... I>
void call_with(kmpc_micro fn, kmp_int32* g, kmp_int32* t, void** a, std::index_sequence<I...>) {
    fn(g, t, a[I]...);
}

template <std::size_t N>
void call_n(kmpc_micro fn, kmp_int32* g, kmp_int32* t, void** a) {
    call_with(fn, g, t, a, std::make_index_sequence<N>{});
}

template <std::size_t... N>
constexpr auto make_table(std::index_sequence<N...>) {
    return std::array<call_fn, sizeof...(N)>{&call_n<N>...};
}

constexpr std::size_t max_args = 64;
constexpr auto g_calls = make_table(std::make_index_sequence<max_args + 1>{});

// The OMPT variant: the body's caller frame (what __builtin_frame_address(1) gives in
// the body) is this function's, so it keeps a frame pointer, and the call must not
// become a tail call (the exit_frame is cleared after it).
using framed_call_fn = void (*)(kmpc_micro, kmp_int32*, kmp_int32*, void**, ompt_frame_t*);

template <std::size_t N>
[[gnu::noinline]] void framed_call_n(kmpc_micro fn, kmp_int32* g, kmp_int32* t, void** a,
                                     ompt_frame_t* f) {
    f->exit_frame.ptr = __builtin_frame_address(0);
    call_with(fn, g, t, a, std::make_index_sequence<N>{});
    f->exit_frame.ptr = nullptr;
}

template <std::size_t... N>
constexpr auto make_framed_table(std::index_sequence<N...>) {
    return std::array<framed_call_fn, sizeof...(N)>{&framed_call_n<N>...};
}

constexpr auto g_framed_calls = make_framed_table(std::make_index_sequence<max_args + 1>{});

}  // namespace

thread_local const char* t_fork_psource = nullptr;

void invoke_microtask(kmpc_micro fn, kmp_int32 gtid, kmp_int32 tid, int argc, void** args,
                      ompt_frame_t* exit_frame) {
    kmp_int32 g = gtid, t = tid;
    if (argc < 0 || static_cast<std::size_t>(argc) > max_args) __builtin_trap();
    if (exit_frame) [[unlikely]]
        g_framed_calls[static_cast<std::size_t>(argc)](fn, &g, &t, args, exit_frame);
    else
        g_calls[static_cast<std::size_t>(argc)](fn, &g, &t, args);
}

}  // namespace loom::omp
