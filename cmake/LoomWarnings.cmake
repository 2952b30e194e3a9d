# Warnings are errors-in-waiting: the tree builds warning-free with gcc 12 and clang 19.
add_library(loom_warnings INTERFACE)
target_compile_options(loom_warnings INTERFACE -Wall -Wextra -Wpedantic -Wshadow -Wno-gnu-zero-variadic-macro-arguments)
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  target_compile_options(loom_warnings INTERFACE -Wno-pedantic)
endif()
