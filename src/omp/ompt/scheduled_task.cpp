// The tasks a tool was told each thread runs (scheduled_task.hpp).
#include "ompt/scheduled_task.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "ompt/events.hpp"
#include "parallel/thread.hpp"

namespace loom::omp::ompt {

namespace {

constexpr std::uint64_t no_task = 0;

// What the tool callbacks receive for an entry of the view: a copy (a stand-in's data
// lives in the frame of the task it runs, the view outlives it).
__thread ompt_data_t t_named{};

std::uint64_t value_of(const ompt_data_t* d) noexcept { return d ? d->value : no_task; }

// The thread's view, bottom first (thread_state::ompt_view). Never an empty entry at
// the bottom (below the bottom is no task already) nor two empty entries in a row.
class view {
public:
    view() : v_(this_thread()->ompt_view) {}

    std::uint64_t top() const noexcept { return v_.empty() ? no_task : v_.back(); }

    // `x` goes on top: moved there when the view holds it.
    void raise(std::uint64_t x) {
        if (x == no_task) {
            if (top() != no_task) v_.push_back(no_task);
            return;
        }
        if (top() == x) return;
        remove(x);
        v_.push_back(x);
    }

    // Searched from the top: the entry sought is nearly always there or close below.
    void remove(std::uint64_t x) noexcept {
        auto at = std::find(v_.rbegin(), v_.rend(), x);
        if (at == v_.rend()) return;
        auto it = v_.erase(std::next(at).base());
        // The removed entry's neighbours now touch: two empty entries in a row say no
        // more than one. An empty top stays: a task begun from no task returns there.
        if (it != v_.begin() && it != v_.end() && *it == no_task && *(it - 1) == no_task) v_.erase(it);
        if (!v_.empty() && v_.front() == no_task) v_.erase(v_.begin());
    }

private:
    std::vector<std::uint64_t>& v_;
};

ompt_data_t* named(std::uint64_t x) noexcept {
    t_named.value = x;
    return &t_named;
}

}  // namespace

ompt_data_t* scheduled_task() noexcept {
    const std::uint64_t top = view().top();
    return top == no_task ? nullptr : named(top);
}

void set_scheduled_task(const ompt_data_t* d) noexcept { view().raise(value_of(d)); }

void implicit_task_ended(const ompt_data_t* d) noexcept {
    view v;
    v.remove(value_of(d));
    v.raise(no_task);
}

void task_begins(const ompt_data_t* prior, const ompt_data_t* mine) noexcept {
    view v;
    v.raise(value_of(prior));
    v.raise(value_of(mine));
}

ompt_data_t* task_ends(const ompt_data_t* mine, ompt_data_t* resumes) noexcept {
    view v;
    v.remove(value_of(mine));
    if (resumes) {
        v.raise(value_of(resumes));
        return resumes;
    }
    return named(v.top());
}

void context_resumed(ompt_data_t* mine) noexcept {
    if (value_of(mine) == no_task) return;
    view v;
    const std::uint64_t prior = v.top();
    if (prior == mine->value) return;
    v.raise(mine->value);
    // From no known task there is no prior to name: the tool sees the resumed task go
    // on from where the thread's last event left it (and it returns there).
    if (prior == no_task) return;
    ompt_data_t from{};
    from.value = prior;
    task_schedule(&from, ompt_task_switch, mine);
}

}  // namespace loom::omp::ompt
