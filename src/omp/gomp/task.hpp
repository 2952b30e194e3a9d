// Shared pieces of the gcc explicit-task entry points (task.cpp, taskloop.cpp,
// depend.cpp, taskgroup.cpp): a gcc task body `fn(arg)` carried by a kmpc task record,
// and gcc's depend arrays translated into kmpc dependence lists, so GOMP tasks go
// through the same allocation, launch, dependence and completion code as clang's.
#pragma once

#include <cstddef>
#include <cstdint>

#include "gomp/gomp_abi.hpp"
#include "tasking/task.hpp"

namespace loom::omp::gomp {

using copy_fn = void (*)(void*, void*);

/// What GOMP_task / GOMP_taskloop know of a task before it is created.
struct task_spec {
    body_fn fn;
    void* data;          // the encountering task's argument block
    copy_fn cpyfn;       // copy-constructs the block, or null (memcpy)
    long arg_size;
    long arg_align;
    unsigned flags;      // GOMP_TASK_FLAG_* (task_abi.hpp)
    int priority;
};

/// Allocates the kmpc record of a gcc task. With `copy` its argument block is a copy
/// of spec.data made inside the record (cpyfn or memcpy, aligned to arg_align);
/// without, the task runs on spec.data itself (undeferred tasks, as libgomp does).
/// `detach` (or null): where gcc wants the task's event handle.
/// `with_node`: the task comes with depend (its record gets room for its node).
kmp_task_t* new_task(const task_spec& spec, bool copy, void* detach, bool with_node = false);

/// The argument block fn runs on.
void* task_arg(kmp_task_t* kt) noexcept;

/// Runs an allocated task at once, as an undeferred (if(0)) task of the running task;
/// returns when it completed (with detach: when its event was fulfilled, task.c).
void run_undeferred(kmp_task_t* kt);

/// Runs the task here and now as an inline task (tasking/inline_task.hpp) of the
/// running task: fn on spec.data itself, or on a copy on this stack when there is a
/// cpyfn (libgomp task.c). False, having done nothing, when the block is too large
/// for the stack: the caller then takes the general path. Without a tool only.
bool run_now(tasking::here h, task_spec spec);

/// gcc's depend array as kmpc dependence entries (depend.cpp): at most 8 inline.
class depend_list {
public:
    explicit depend_list(void** depend);
    depend_list(const depend_list&) = delete;
    depend_list& operator=(const depend_list&) = delete;
    ~depend_list();
    kmp_int32 size() const noexcept { return static_cast<kmp_int32>(n_); }
    kmp_depend_info* data() noexcept { return items_; }

private:
    static constexpr std::size_t inline_items = 8;
    std::size_t n_ = 0;
    kmp_depend_info* items_;
    kmp_depend_info own_[inline_items];
};

}  // namespace loom::omp::gomp
