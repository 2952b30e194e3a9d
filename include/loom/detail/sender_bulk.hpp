// bulk(sndr, shape, f) and bulk(sndr, policy, shape, f): f(i, values&...) for every i in
// [0, shape) once sndr sends its values, then the values are sent on.
//
// With loom::execution::par or par_unseq, and in the P2300R10 form without a policy, the
// iterations run on the pool: the shape is cut into up to four chunks per worker, and
// the completing context plus up to P-1 helper tasks claim chunks from an atomic index
// (so a slow chunk does not hold the others back). Whoever finishes last completes the
// receiver, on its own worker. The values are kept in the operation state meanwhile.
// With seq or unseq the iterations run in order in the completing context.
//
// The first exception thrown by f is sent as set_error(exception_ptr) once the chunks
// already running have finished (no new chunk starts); a stop request seen between
// chunks makes the operation send set_stopped.
#pragma once

#include <algorithm>
#include <atomic>
#include <concepts>
#include <exception>
#include <functional>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>

#include "loom/detail/sender_closure.hpp"
#include "loom/detail/sender_concepts.hpp"
#include "loom/execution.hpp"
#include "loom/ext/scheduler.hpp"
#include "loom/ext/task.hpp"

namespace loom::execution::experimental {

namespace detail {

template <class Sig>
struct bulk_parallel_signature {
    using type = completion_signatures<Sig>;
};
template <class... As>
struct bulk_parallel_signature<set_value_t(As...)> {
    using type = completion_signatures<set_value_t(std::decay_t<As>...)>;
};

template <class Sig>
struct value_tuple_of {
    using type = type_list<>;
};
template <class... As>
struct value_tuple_of<set_value_t(As...)> {
    using type = type_list<std::tuple<std::decay_t<As>...>>;
};
template <class Sigs>
struct bulk_values;
template <class... Sigs>
struct bulk_values<completion_signatures<Sigs...>> {
    template <class L>
    struct to_variant;
    template <class... Ts>
    struct to_variant<type_list<Ts...>> {
        using type = std::variant<std::monostate, Ts...>;
    };
    using type =
        typename to_variant<unique_list_t<typename concat_lists<typename value_tuple_of<Sigs>::type...>::type>>::type;
};

template <class S, class Shape, class F, bool Parallel>
class bulk_sender {
    using child_sigs = completion_signatures_of_t<S>;

public:
    using sender_concept = sender_t;
    using completion_signatures = std::conditional_t<
        Parallel,
        merge_signatures_t<transform_signatures_t<child_sigs, bulk_parallel_signature>,
                           experimental::completion_signatures<set_error_t(std::exception_ptr), set_stopped_t()>>,
        merge_signatures_t<child_sigs, experimental::completion_signatures<set_error_t(std::exception_ptr)>>>;

    template <class S2, class F2>
    bulk_sender(S2&& s, Shape shape, F2&& f)
        : sndr_(std::forward<S2>(s)), shape_(shape), fn_(std::forward<F2>(f)) {}

    template <class CvS, class R>
    class operation {
        struct child_receiver {
            using receiver_concept = receiver_t;
            operation* op;

            template <class... As>
            void set_value(As&&... as) && noexcept {
                if constexpr (Parallel) {
                    op->run_parallel(std::forward<As>(as)...);
                } else {
                    op->run_here(std::forward<As>(as)...);
                }
            }
            template <class E>
            void set_error(E&& e) && noexcept {
                experimental::set_error(std::move(op->rcvr_), std::forward<E>(e));
            }
            void set_stopped() && noexcept { experimental::set_stopped(std::move(op->rcvr_)); }
            env_of_t<R> get_env() const noexcept { return experimental::get_env(op->rcvr_); }
        };
        struct no_values {};

    public:
        using operation_state_concept = operation_state_t;

        operation(CvS&& s, Shape shape, F f, R r)
            : rcvr_(std::move(r)),
              shape_(shape),
              fn_(std::move(f)),
              child_(experimental::connect(std::forward<CvS>(s), child_receiver{this})) {}
        operation(const operation&) = delete;
        operation& operator=(const operation&) = delete;

        void start() & noexcept { experimental::start(child_); }

    private:
        template <class... As>
        void run_here(As&&... as) noexcept {
            complete_or_send_error(std::move(rcvr_), [&] {
                for (Shape i = 0; i < shape_; ++i) std::invoke(fn_, i, as...);
                experimental::set_value(std::move(rcvr_), std::forward<As>(as)...);
            });
        }

        template <class... As>
        void run_parallel(As&&... as) noexcept {
            using values_t = std::tuple<std::decay_t<As>...>;
            std::exception_ptr error;
            try {
                values_.template emplace<values_t>(std::forward<As>(as)...);
            } catch (...) {
                error = std::current_exception();
            }
            if (error) {
                experimental::set_error(std::move(rcvr_), std::move(error));
                return;
            }
            const Shape n = shape_ > 0 ? shape_ : Shape(0);
            const auto workers = static_cast<Shape>(std::min<unsigned>(ext::worker_count(), 1024));
            // Up to four chunks per worker: enough to even out chunks of uneven cost.
            const Shape wanted = std::max<Shape>(1, std::min<Shape>(n, static_cast<Shape>(workers * 4)));
            chunk_size_ = n == 0 ? Shape(1) : static_cast<Shape>((n + wanted - 1) / wanted);
            chunks_ = n == 0 ? Shape(0) : static_cast<Shape>((n + chunk_size_ - 1) / chunk_size_);
            const unsigned helpers =
                static_cast<unsigned>(std::min<Shape>(workers, std::max<Shape>(chunks_, 1))) - 1;
            active_.store(helpers + 1, std::memory_order_relaxed);
            for (unsigned h = 0; h < helpers; ++h) {
                try {
                    ext::submit(ext::make_task([this] {
                        work<values_t>();
                        leave<values_t>();
                    }));
                } catch (...) {
                    // No record for a helper: the others (this context at least) do its share.
                    active_.fetch_sub(1, std::memory_order_relaxed);
                }
            }
            work<values_t>();
            leave<values_t>();
        }

        template <class Values>
        void work() noexcept {
            Values& vals = std::get<Values>(values_);
            const auto token = get_stop_token(experimental::get_env(rcvr_));
            for (;;) {
                if (failed_.load(std::memory_order_relaxed)) return;
                if (token.stop_requested()) {
                    stopped_.store(true, std::memory_order_relaxed);
                    return;
                }
                const Shape c = next_chunk_.fetch_add(1, std::memory_order_relaxed);
                if (c >= chunks_) return;
                const Shape begin = c * chunk_size_;
                const Shape end = std::min<Shape>(shape_, begin + chunk_size_);
                try {
                    for (Shape i = begin; i < end; ++i) {
                        std::apply([&](auto&... v) { std::invoke(fn_, i, v...); }, vals);
                    }
                } catch (...) {
                    if (!failed_.exchange(true, std::memory_order_relaxed)) error_ = std::current_exception();
                    return;
                }
            }
        }

        // The last one out completes: acq_rel makes every helper's writes (error_,
        // stopped_, what f wrote through the values) visible to it.
        template <class Values>
        void leave() noexcept {
            if (active_.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
            if (failed_.load(std::memory_order_relaxed)) {
                experimental::set_error(std::move(rcvr_), std::move(error_));
            } else if (stopped_.load(std::memory_order_relaxed)) {
                experimental::set_stopped(std::move(rcvr_));
            } else {
                std::apply([this](auto&... v) { experimental::set_value(std::move(rcvr_), std::move(v)...); },
                           std::get<Values>(values_));
            }
        }

        R rcvr_;
        Shape shape_;
        [[no_unique_address]] F fn_;
        [[no_unique_address]] std::conditional_t<Parallel, typename bulk_values<child_sigs>::type, no_values> values_;
        Shape chunk_size_ = 1;
        Shape chunks_ = 0;
        std::atomic<Shape> next_chunk_{0};
        std::atomic<unsigned> active_{0};
        std::atomic<bool> failed_{false};
        std::atomic<bool> stopped_{false};
        std::exception_ptr error_;
        connect_result_t<CvS, child_receiver> child_;
    };

    template <receiver R>
    operation<S, std::decay_t<R>> connect(R&& r) && {
        return {std::move(sndr_), shape_, std::move(fn_), std::forward<R>(r)};
    }
    template <receiver R>
        requires std::copy_constructible<S> && std::copy_constructible<F>
    operation<const S&, std::decay_t<R>> connect(R&& r) const& {
        return {sndr_, shape_, fn_, std::forward<R>(r)};
    }

    env_of_t<const S&> get_env() const noexcept { return experimental::get_env(sndr_); }

private:
    S sndr_;
    Shape shape_;
    [[no_unique_address]] F fn_;
};

template <class P>
inline constexpr bool parallel_policy_v =
    P::kind == loom::execution::policy_kind::par || P::kind == loom::execution::policy_kind::par_unseq;

}  // namespace detail

struct bulk_t {
    template <sender S, std::integral Shape, class F>
    auto operator()(S&& s, Shape shape, F&& f) const {
        return detail::bulk_sender<std::decay_t<S>, Shape, std::decay_t<F>, true>(std::forward<S>(s), shape,
                                                                                  std::forward<F>(f));
    }
    template <sender S, loom::execution::execution_policy P, std::integral Shape, class F>
    auto operator()(S&& s, const P& /*policy*/, Shape shape, F&& f) const {
        constexpr bool parallel = detail::parallel_policy_v<std::remove_cvref_t<P>>;
        return detail::bulk_sender<std::decay_t<S>, Shape, std::decay_t<F>, parallel>(std::forward<S>(s), shape,
                                                                                      std::forward<F>(f));
    }
    template <std::integral Shape, class F>
    auto operator()(Shape shape, F&& f) const {
        return detail::bind_closure<bulk_t>(shape, std::forward<F>(f));
    }
    template <loom::execution::execution_policy P, std::integral Shape, class F>
    auto operator()(const P& policy, Shape shape, F&& f) const {
        return detail::bind_closure<bulk_t>(policy, shape, std::forward<F>(f));
    }
};

/// bulk(sndr, [policy,] shape, f): f(i, values&...) for i in [0, shape), then the values.
inline constexpr bulk_t bulk{};

}  // namespace loom::execution::experimental
