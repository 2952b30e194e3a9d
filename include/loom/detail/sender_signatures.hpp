// Completion signatures (C++26 [exec.cmplsig]): a sender lists how it may complete as
// function types, Tag(Args...), with Tag one of set_value_t, set_error_t, set_stopped_t:
//
//   using completion_signatures = ex::completion_signatures<
//       ex::set_value_t(int), ex::set_error_t(std::exception_ptr), ex::set_stopped_t()>;
//
// An argument type says how the value is passed: `int` as an rvalue, `const int&` as a
// const lvalue. The metafunctions below build adaptors' signatures from their children's:
// merge (a set without duplicates), transform (each signature to a set), gather (the
// arguments of one channel's signatures into a variant of tuples).
#pragma once

#include <tuple>
#include <type_traits>
#include <variant>

namespace loom::execution::experimental {

template <class... Sigs>
struct completion_signatures {};

template <class... Ts>
struct type_list {};

/// std::tuple of the decayed arguments (value_types_of_t's default tuple).
template <class... Ts>
using decayed_tuple = std::tuple<std::decay_t<Ts>...>;

namespace detail {

template <class List, class T>
struct push_unique;
template <template <class...> class L, class... Ts, class T>
struct push_unique<L<Ts...>, T> {
    using type = std::conditional_t<(std::is_same_v<T, Ts> || ...), L<Ts...>, L<Ts..., T>>;
};

template <class List, class... Ts>
struct unique_into;
template <class List>
struct unique_into<List> {
    using type = List;
};
template <class List, class T, class... Ts>
struct unique_into<List, T, Ts...> : unique_into<typename push_unique<List, T>::type, Ts...> {};

/// The distinct elements of a type_list, in first-seen order.
template <class List>
struct unique_list;
template <class... Ts>
struct unique_list<type_list<Ts...>> : unique_into<type_list<>, Ts...> {};
template <class List>
using unique_list_t = typename unique_list<List>::type;

template <class... Ts>
struct variant_or_empty_impl {
    using type = typename unique_into<type_list<>, std::decay_t<Ts>...>::type;
};

template <class List>
struct list_to_variant;
template <>
struct list_to_variant<type_list<>> {
    struct type {};  // no alternatives: an empty struct, as the standard's empty-variant
};
template <class... Ts>
struct list_to_variant<type_list<Ts...>> {
    using type = std::variant<Ts...>;
};

template <class... Ts>
struct single_type {};
template <class T>
struct single_type<T> {
    using type = T;
};

}  // namespace detail

/// std::variant of the distinct decayed Ts, or an empty struct when there are none.
template <class... Ts>
using variant_or_empty =
    typename detail::list_to_variant<typename detail::variant_or_empty_impl<Ts...>::type>::type;

namespace detail {

/// The one type of a one-element pack (the error of a set_error_t signature).
template <class... Ts>
using single_t = typename single_type<Ts...>::type;

// ---- merge: the union of several signature sets ---------------------------------------

template <class... Sets>
struct merge_signatures;
template <>
struct merge_signatures<> {
    using type = completion_signatures<>;
};
template <class... Sigs>
struct merge_signatures<completion_signatures<Sigs...>> {
    using type = typename unique_into<completion_signatures<>, Sigs...>::type;
};
template <class... A, class... B, class... Rest>
struct merge_signatures<completion_signatures<A...>, completion_signatures<B...>, Rest...>
    : merge_signatures<completion_signatures<A..., B...>, Rest...> {};

template <class... Sets>
using merge_signatures_t = typename merge_signatures<Sets...>::type;

// ---- transform: map each signature to a set, merge the sets ------------------------------

template <class Set, template <class> class F>
struct transform_signatures;
template <class... Sigs, template <class> class F>
struct transform_signatures<completion_signatures<Sigs...>, F> {
    using type = merge_signatures_t<completion_signatures<>, typename F<Sigs>::type...>;
};
/// F<Sig>::type is the completion_signatures<...> that Sig becomes.
template <class Set, template <class> class F>
using transform_signatures_t = typename transform_signatures<Set, F>::type;

// ---- gather: one channel's arguments -------------------------------------------------------

template <class Tag, class Sig>
struct args_if {
    using type = type_list<>;  // a signature of another channel: contributes nothing
};
template <class Tag, class... As>
struct args_if<Tag, Tag(As...)> {
    using type = type_list<type_list<As...>>;
};

template <class... Lists>
struct concat_lists;
template <>
struct concat_lists<> {
    using type = type_list<>;
};
template <class... A>
struct concat_lists<type_list<A...>> {
    using type = type_list<A...>;
};
template <class... A, class... B, class... Rest>
struct concat_lists<type_list<A...>, type_list<B...>, Rest...> : concat_lists<type_list<A..., B...>, Rest...> {};

template <class ArgLists, template <class...> class Tuple, template <class...> class Variant>
struct apply_gather;
template <class... ArgLists, template <class...> class Tuple, template <class...> class Variant>
struct apply_gather<type_list<ArgLists...>, Tuple, Variant> {
    template <class L>
    struct to_tuple;
    template <class... As>
    struct to_tuple<type_list<As...>> {
        using type = Tuple<As...>;
    };
    using type = Variant<typename to_tuple<ArgLists>::type...>;
};

/// type_list<type_list<As...>...>: the argument lists of Tag's signatures in Sigs.
template <class Tag, class Sigs>
struct channel_args;
template <class Tag, class... Sigs>
struct channel_args<Tag, completion_signatures<Sigs...>> {
    using type = typename concat_lists<typename args_if<Tag, Sigs>::type...>::type;
};
template <class Tag, class Sigs>
using channel_args_t = typename channel_args<Tag, Sigs>::type;

}  // namespace detail

/// Variant<Tuple<As...>...> over the signatures Tag(As...) in Sigs.
template <class Tag, class Sigs, template <class...> class Tuple, template <class...> class Variant>
using gather_signatures_t = typename detail::apply_gather<detail::channel_args_t<Tag, Sigs>, Tuple, Variant>::type;

}  // namespace loom::execution::experimental
