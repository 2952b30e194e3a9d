// The core's name for the shared full fence (loom/ext/fence.hpp).
#pragma once

#include "loom/ext/fence.hpp"

namespace loom::core {

using ext::full_fence;

}  // namespace loom::core
