// The whole public C++ API of loom.
#pragma once

#include "loom/async.hpp"
#include "loom/barrier.hpp"
#include "loom/channel.hpp"
#include "loom/condition_variable.hpp"
#include "loom/dataflow.hpp"
#include "loom/future.hpp"
#include "loom/latch.hpp"
#include "loom/mutex.hpp"
#include "loom/runtime.hpp"
#include "loom/semaphore.hpp"
#include "loom/task_group.hpp"
#include "loom/unwrapping.hpp"
#include "loom/when_all.hpp"
#include "loom/when_any.hpp"
