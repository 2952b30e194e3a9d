// The futex and the spin-wait hint as the scheduler names them: the one copy lives in
// the extension interface (include/loom/ext/futex.hpp, spin.hpp), shared with the
// C++ API and the OpenMP layer.
#pragma once

#include <atomic>
#include <cstdint>

#include "loom/ext/futex.hpp"
#include "loom/ext/spin.hpp"

namespace loom::core {

using ext::cpu_relax;
using ext::futex_wait;
using ext::futex_wait_for;
using ext::futex_wake;

}  // namespace loom::core
