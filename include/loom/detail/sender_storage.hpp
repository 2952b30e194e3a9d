// Storage the adaptors share:
//   - op_slot<Ops...>: room for one of several operation states, built in place from
//     connect()'s result (operation states cannot move, so they are constructed from the
//     prvalue a callable returns, which C++17's guaranteed elision puts in place);
//   - op_tuple<Ops...>: several operation states built in place, side by side;
//   - stored_result<Sigs>: a completion kept for later (continues_on, split,
//     ensure_started, sync_wait), its arguments decay-copied, and replayed into a receiver.
#pragma once

#include <algorithm>
#include <cstddef>
#include <exception>
#include <new>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>

#include "loom/detail/sender_concepts.hpp"

namespace loom::execution::experimental::detail {

// ---- op_slot --------------------------------------------------------------------------------

template <class... Ops>
class op_slot {
    static constexpr std::size_t size = std::max({std::size_t{1}, sizeof(Ops)...});
    static constexpr std::size_t align = std::max({alignof(std::max_align_t), alignof(Ops)...});

public:
    op_slot() noexcept = default;
    op_slot(const op_slot&) = delete;
    op_slot& operator=(const op_slot&) = delete;
    ~op_slot() { reset(); }

    /// Builds the Op that `make()` returns in place (destroying the one before).
    template <class Op, class Make>
    Op& emplace(Make&& make) {
        reset();
        Op* op = ::new (static_cast<void*>(buf_)) Op(std::forward<Make>(make)());
        destroy_ = [](void* p) noexcept { static_cast<Op*>(p)->~Op(); };
        return *op;
    }
    void reset() noexcept {
        if (destroy_ != nullptr) std::exchange(destroy_, nullptr)(buf_);
    }

private:
    alignas(align) std::byte buf_[size];
    void (*destroy_)(void*) noexcept = nullptr;
};

template <>
class op_slot<> {};

// ---- op_tuple --------------------------------------------------------------------------------

template <std::size_t I, class Op>
struct indexed_op {
    template <class Make>
    explicit indexed_op(Make&& make) : op(std::forward<Make>(make)()) {}
    Op op;
};

template <class Indices, class... Ops>
struct op_tuple_impl;
template <std::size_t... Is, class... Ops>
struct op_tuple_impl<std::index_sequence<Is...>, Ops...> : indexed_op<Is, Ops>... {
    template <class... Makes>
    explicit op_tuple_impl(Makes&&... makes) : indexed_op<Is, Ops>(std::forward<Makes>(makes))... {}

    template <std::size_t I, class Op>
    static Op& get(indexed_op<I, Op>& o) noexcept {
        return o.op;
    }
    void start_all() noexcept { (experimental::start(static_cast<indexed_op<Is, Ops>&>(*this).op), ...); }
};

/// Operation states built in place by the callables given to the constructor, in order.
template <class... Ops>
using op_tuple = op_tuple_impl<std::index_sequence_for<Ops...>, Ops...>;

// ---- stored_result ---------------------------------------------------------------------------

template <class Sig>
struct stored_alternative;
template <class Tag, class... As>
struct stored_alternative<Tag(As...)> {
    using type = std::tuple<Tag, std::decay_t<As>...>;
};

template <class Sigs>
struct stored_variant;
template <class... Sigs>
struct stored_variant<completion_signatures<Sigs...>> {
    using type = typename list_to_variant<
        typename unique_into<type_list<std::monostate>, typename stored_alternative<Sigs>::type...>::type>::type;
};

/// Signatures of replaying a stored Sig as rvalues (Tag(decay_t<As>...)).
template <class Sig>
struct decayed_signature;
template <class Tag, class... As>
struct decayed_signature<Tag(As...)> {
    using type = completion_signatures<Tag(std::decay_t<As>...)>;
};
/// ... and as const lvalues (Tag(const decay_t<As>&...)), for split's many consumers.
template <class Sig>
struct const_ref_signature;
template <class Tag, class... As>
struct const_ref_signature<Tag(As...)> {
    using type = completion_signatures<Tag(const std::decay_t<As>&...)>;
};

template <class Sig>
inline constexpr bool nothrow_decay_copy = false;
template <class Tag, class... As>
inline constexpr bool nothrow_decay_copy<Tag(As...)> = (std::is_nothrow_constructible_v<std::decay_t<As>, As> && ...);
template <class Sigs>
inline constexpr bool all_nothrow_decay_copy = false;
template <class... Sigs>
inline constexpr bool all_nothrow_decay_copy<completion_signatures<Sigs...>> = (nothrow_decay_copy<Sigs> && ...);

/// set_error_t(std::exception_ptr) when storing one of Sigs may throw, else nothing.
template <class Sigs>
using storing_error_signatures =
    std::conditional_t<all_nothrow_decay_copy<Sigs>, completion_signatures<>,
                       completion_signatures<set_error_t(std::exception_ptr)>>;

/// One completion of Sigs, kept until it is replayed.
template <class Sigs>
class stored_result {
public:
    /// Keeps Tag(as...); a throwing copy is kept as set_error(exception_ptr) instead.
    template <class Tag, class... As>
    void store(Tag, As&&... as) noexcept {
        try {
            v_.template emplace<std::tuple<Tag, std::decay_t<As>...>>(Tag{}, std::forward<As>(as)...);
        } catch (...) {
            if constexpr (!all_nothrow_decay_copy<Sigs>) {
                v_.template emplace<std::tuple<set_error_t, std::exception_ptr>>(set_error_t{},
                                                                                 std::current_exception());
            }
        }
    }
    [[nodiscard]] bool empty() const noexcept { return v_.index() == 0; }

    /// Completes `r` with the stored completion, its arguments as rvalues.
    template <class R>
    void replay_move(R&& r) noexcept {
        std::visit(
            [&](auto& alt) {
                if constexpr (!std::is_same_v<std::remove_cvref_t<decltype(alt)>, std::monostate>) {
                    std::apply([&](auto tag, auto&... as) { tag(std::forward<R>(r), std::move(as)...); }, alt);
                }
            },
            v_);
    }
    /// Completes `r` with the stored completion, its arguments as const lvalues.
    template <class R>
    void replay_copy(R&& r) const noexcept {
        std::visit(
            [&](const auto& alt) {
                if constexpr (!std::is_same_v<std::remove_cvref_t<decltype(alt)>, std::monostate>) {
                    std::apply([&](auto tag, const auto&... as) { tag(std::forward<R>(r), as...); }, alt);
                }
            },
            v_);
    }

private:
    using storage_sigs = merge_signatures_t<Sigs, storing_error_signatures<Sigs>>;
    typename stored_variant<storage_sigs>::type v_;
};

}  // namespace loom::execution::experimental::detail
