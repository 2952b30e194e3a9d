// Moving work between execution resources:
//   continues_on(sndr, sch) (also named transfer): sndr's completion is decay-copied
//       into the operation state, then sent again from a schedule(sch) operation, so the
//       receiver runs on sch's resource; a schedule that fails or is stopped sends that.
//   starts_on(sch, sndr): sndr is started from a schedule(sch) operation, so it starts on
//       sch's resource; its receiver's environment names sch as get_scheduler.
// Both schedule operations are connected with the operation itself (in its state) and
// started only when needed.
#pragma once

#include <exception>
#include <type_traits>
#include <utility>

#include "loom/detail/sender_closure.hpp"
#include "loom/detail/sender_concepts.hpp"
#include "loom/detail/sender_storage.hpp"

namespace loom::execution::experimental {

namespace detail {

template <class Sch>
struct scheduler_attributes {
    Sch sch;
    Sch query(get_completion_scheduler_t<set_value_t> /*unused*/) const noexcept { return sch; }
};

/// Signatures of a schedule sender, less its value: what a hop may add to a sender.
template <class Sig>
struct hop_signature {
    using type = completion_signatures<Sig>;
};
template <class... As>
struct hop_signature<set_value_t(As...)> {
    using type = completion_signatures<>;
};
template <class Sch>
using hop_signatures_t = transform_signatures_t<completion_signatures_of_t<schedule_result_t<const Sch&>>, hop_signature>;

// ---- continues_on ---------------------------------------------------------------------------

template <class S, class Sch>
class continues_on_sender {
    using child_sigs = completion_signatures_of_t<S>;

public:
    using sender_concept = sender_t;
    using completion_signatures =
        merge_signatures_t<transform_signatures_t<child_sigs, decayed_signature>, storing_error_signatures<child_sigs>,
                           hop_signatures_t<Sch>>;

    template <class S2>
    continues_on_sender(S2&& s, Sch sch) : sndr_(std::forward<S2>(s)), sch_(std::move(sch)) {}

    template <class CvS, class R>
    class operation {
        struct child_receiver {
            using receiver_concept = receiver_t;
            operation* op;

            template <class... As>
            void set_value(As&&... as) && noexcept {
                op->arrived(set_value_t{}, std::forward<As>(as)...);
            }
            template <class E>
            void set_error(E&& e) && noexcept {
                op->arrived(set_error_t{}, std::forward<E>(e));
            }
            void set_stopped() && noexcept { op->arrived(set_stopped_t{}); }
            env_of_t<R> get_env() const noexcept { return experimental::get_env(op->rcvr_); }
        };
        struct hop_receiver {
            using receiver_concept = receiver_t;
            operation* op;

            void set_value() && noexcept { op->result_.replay_move(std::move(op->rcvr_)); }
            template <class E>
            void set_error(E&& e) && noexcept {
                experimental::set_error(std::move(op->rcvr_), std::forward<E>(e));
            }
            void set_stopped() && noexcept { experimental::set_stopped(std::move(op->rcvr_)); }
            env_of_t<R> get_env() const noexcept { return experimental::get_env(op->rcvr_); }
        };

    public:
        using operation_state_concept = operation_state_t;

        operation(CvS&& s, const Sch& sch, R r)
            : rcvr_(std::move(r)),
              child_(experimental::connect(std::forward<CvS>(s), child_receiver{this})),
              hop_(experimental::connect(experimental::schedule(sch), hop_receiver{this})) {}
        operation(const operation&) = delete;
        operation& operator=(const operation&) = delete;

        void start() & noexcept { experimental::start(child_); }

    private:
        template <class Tag, class... As>
        void arrived(Tag tag, As&&... as) noexcept {
            result_.store(tag, std::forward<As>(as)...);
            experimental::start(hop_);
        }

        R rcvr_;
        stored_result<child_sigs> result_;
        connect_result_t<CvS, child_receiver> child_;
        connect_result_t<schedule_result_t<const Sch&>, hop_receiver> hop_;
    };

    template <receiver R>
    operation<S, std::decay_t<R>> connect(R&& r) && {
        return {std::move(sndr_), sch_, std::forward<R>(r)};
    }
    template <receiver R>
        requires std::copy_constructible<S>
    operation<const S&, std::decay_t<R>> connect(R&& r) const& {
        return {sndr_, sch_, std::forward<R>(r)};
    }

    [[nodiscard]] scheduler_attributes<Sch> get_env() const noexcept { return {sch_}; }

private:
    S sndr_;
    [[no_unique_address]] Sch sch_;
};

// ---- starts_on ------------------------------------------------------------------------------

template <class Sch, class S>
class starts_on_sender {
public:
    using sender_concept = sender_t;
    using completion_signatures = merge_signatures_t<completion_signatures_of_t<S>, hop_signatures_t<Sch>>;

    template <class S2>
    starts_on_sender(Sch sch, S2&& s) : sch_(std::move(sch)), sndr_(std::forward<S2>(s)) {}

    template <class CvS, class R>
    class operation {
        using child_env = env<prop<get_scheduler_t, Sch>, env_of_t<R>>;

        struct hop_receiver {
            using receiver_concept = receiver_t;
            operation* op;

            void set_value() && noexcept { experimental::start(op->child_); }
            template <class E>
            void set_error(E&& e) && noexcept {
                experimental::set_error(std::move(op->rcvr_), std::forward<E>(e));
            }
            void set_stopped() && noexcept { experimental::set_stopped(std::move(op->rcvr_)); }
            env_of_t<R> get_env() const noexcept { return experimental::get_env(op->rcvr_); }
        };
        struct child_receiver {
            using receiver_concept = receiver_t;
            operation* op;

            template <class... As>
            void set_value(As&&... as) && noexcept {
                experimental::set_value(std::move(op->rcvr_), std::forward<As>(as)...);
            }
            template <class E>
            void set_error(E&& e) && noexcept {
                experimental::set_error(std::move(op->rcvr_), std::forward<E>(e));
            }
            void set_stopped() && noexcept { experimental::set_stopped(std::move(op->rcvr_)); }
            child_env get_env() const noexcept {
                return child_env(prop<get_scheduler_t, Sch>{{}, op->sch_}, experimental::get_env(op->rcvr_));
            }
        };

    public:
        using operation_state_concept = operation_state_t;

        operation(Sch sch, CvS&& s, R r)
            : rcvr_(std::move(r)),
              sch_(std::move(sch)),
              hop_(experimental::connect(experimental::schedule(std::as_const(sch_)), hop_receiver{this})),
              child_(experimental::connect(std::forward<CvS>(s), child_receiver{this})) {}
        operation(const operation&) = delete;
        operation& operator=(const operation&) = delete;

        void start() & noexcept { experimental::start(hop_); }

    private:
        R rcvr_;
        [[no_unique_address]] Sch sch_;
        connect_result_t<schedule_result_t<const Sch&>, hop_receiver> hop_;
        connect_result_t<CvS, child_receiver> child_;
    };

    template <receiver R>
    operation<S, std::decay_t<R>> connect(R&& r) && {
        return {std::move(sch_), std::move(sndr_), std::forward<R>(r)};
    }
    template <receiver R>
        requires std::copy_constructible<S>
    operation<const S&, std::decay_t<R>> connect(R&& r) const& {
        return {sch_, sndr_, std::forward<R>(r)};
    }

    [[nodiscard]] scheduler_attributes<Sch> get_env() const noexcept { return {sch_}; }

private:
    [[no_unique_address]] Sch sch_;
    S sndr_;
};

}  // namespace detail

struct continues_on_t {
    template <sender S, scheduler Sch>
    auto operator()(S&& s, Sch&& sch) const {
        return detail::continues_on_sender<std::decay_t<S>, std::decay_t<Sch>>(std::forward<S>(s),
                                                                               std::forward<Sch>(sch));
    }
    template <scheduler Sch>
    auto operator()(Sch&& sch) const {
        return detail::bind_closure<continues_on_t>(std::forward<Sch>(sch));
    }
};
struct starts_on_t {
    template <scheduler Sch, sender S>
    auto operator()(Sch&& sch, S&& s) const {
        return detail::starts_on_sender<std::decay_t<Sch>, std::decay_t<S>>(std::forward<Sch>(sch),
                                                                            std::forward<S>(s));
    }
};

/// continues_on(sndr, sch): sndr's completion, sent again from sch's execution resource.
inline constexpr continues_on_t continues_on{};
/// The name continues_on had before C++26 (P2300R7 and earlier).
inline constexpr continues_on_t transfer{};
/// starts_on(sch, sndr): sndr, started on sch's execution resource.
inline constexpr starts_on_t starts_on{};

}  // namespace loom::execution::experimental
