// Symbol visibility: libloom is built with hidden visibility; only what is marked
// LOOM_EXPORT is part of its ABI.
#pragma once

#if defined(LOOM_BUILDING_LIBRARY)
#define LOOM_EXPORT __attribute__((visibility("default")))
#else
#define LOOM_EXPORT
#endif
