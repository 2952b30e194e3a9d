// The task a tool was last told each thread runs (scheduled_task.hpp).
#include "ompt/scheduled_task.hpp"

#include "ompt/events.hpp"

namespace loom::omp::ompt {

namespace {
// A copy, not a pointer: the data of a stand-in lives in the frame of the task it runs.
__thread ompt_data_t t_scheduled{};
__thread bool t_known = false;

// Tools give each task distinct data (a pointer or an id); empty data names no task.
bool names_a_task(const ompt_data_t* d) noexcept { return d && d->value != 0; }
}  // namespace

ompt_data_t* scheduled_task() noexcept { return t_known ? &t_scheduled : nullptr; }

void set_scheduled_task(const ompt_data_t* d) noexcept {
    t_known = names_a_task(d);
    t_scheduled = t_known ? *d : ompt_data_t{};
}

void context_resumed(ompt_data_t* mine, ompt_data_t* return_to) noexcept {
    // No event from an unknown task: there is nothing to name as the prior one. A tool
    // then sees the resumed task go on from where the thread's last event left it.
    if (!t_known || !names_a_task(mine) || t_scheduled.value == mine->value) return;
    if (return_to) *return_to = t_scheduled;
    ompt_data_t prior = t_scheduled;
    set_scheduled_task(mine);
    task_schedule(&prior, ompt_task_switch, mine);
}

}  // namespace loom::omp::ompt
