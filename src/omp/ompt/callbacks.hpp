// Registration of the tool's callbacks (callbacks.cpp).
#pragma once

#include "omp-tools.h"

namespace loom::omp::ompt {

/// How loom reports `event`: ompt_set_always / sometimes / never, or ompt_set_error
/// for a number that names no event.
ompt_set_result_t delivery(int event) noexcept;
ompt_set_result_t set_callback(ompt_callbacks_t event, ompt_callback_t fn) noexcept;
int get_callback(ompt_callbacks_t event, ompt_callback_t* fn) noexcept;

}  // namespace loom::omp::ompt
