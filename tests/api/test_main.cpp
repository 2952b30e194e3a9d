// One pool per test process, started before any test with the options of the
// environment (LOOM_NUM_THREADS; the ctest entries set it), shut down after the last.
#include <gtest/gtest.h>

#include "loom/runtime.hpp"

int main(int argc, char** argv) {
    testing::InitGoogleTest(&argc, argv);
    loom::runtime rt{loom::runtime_options{}};
    return RUN_ALL_TESTS();
}
