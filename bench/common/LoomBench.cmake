# Helpers for the benchmark folders (bench/<workload>/CMakeLists.txt).
#
# An OpenMP benchmark is one source compiled twice: by clang-19 (links Debian's
# libomp; the driver also runs this binary on loom by pointing LD_LIBRARY_PATH at
# loom's libomp.so.5) and by gcc (links libgomp.so.1). CMake allows one C++ compiler
# per project, so the variant whose compiler is not the project's is built by a
# plain add_custom_command that calls that compiler directly: one command compiles
# and links the single source (the shared code is header-only), with a depfile so
# header edits rebuild it. The variant matching the project compiler is an ordinary
# add_executable. Both get the same optimisation flags (LOOM_BENCH_OPT_FLAGS), so the
# runtimes, not the flags, differ between them.
#
# A compiler that cannot build and link an OpenMP program (clang-19 or libomp-19-dev
# missing) is reported once at configure time and its targets are skipped.
include_guard(GLOBAL)

set(LOOM_BENCH_OPT_FLAGS "-O3" CACHE STRING "Optimisation flags for every benchmark binary")
set(LOOM_BENCH_COMMON_DIR ${CMAKE_CURRENT_LIST_DIR})
# Tiny verification runs under CTest use two threads, and OpenBLAS must not start its
# own threads beside the runtime's (the tile kernels run inside tasks).
set(LOOM_BENCH_TEST_ENV "OMP_NUM_THREADS=2;OPENBLAS_NUM_THREADS=1")

include(${PROJECT_SOURCE_DIR}/cmake/LoomCompileProbe.cmake)

# Compiles and links a tiny OpenMP program with `compiler`; sets `out` to TRUE/FALSE.
function(_loom_bench_probe_openmp out compiler)
  loom_compile_probe(ok ${compiler} openmp_probe.cpp
                     "#include <omp.h>\nint main() { int n = 0;\n#pragma omp parallel reduction(+ : n)\nn += 1;\nreturn n > 0 && omp_get_max_threads() > 0 ? 0 : 1; }\n"
                     -std=c++20 -fopenmp)
  set(${out} ${ok} PARENT_SCOPE)
endfunction()

# Finds the compiler for one OpenMP variant. Sets LOOM_BENCH_<VAR>_MODE to NATIVE
# (the project compiler), FOREIGN (LOOM_BENCH_<VAR>_CXX, called directly) or OFF.
function(_loom_bench_openmp_compiler var native_test program_names)
  if(${native_test})
    set(cxx ${CMAKE_CXX_COMPILER})
    set(mode NATIVE)
  else()
    find_program(LOOM_BENCH_${var}_CXX NAMES ${program_names})
    set(cxx ${LOOM_BENCH_${var}_CXX})
    set(mode FOREIGN)
  endif()
  if(cxx)
    _loom_bench_probe_openmp(ok ${cxx})
  else()
    set(ok FALSE)
  endif()
  if(NOT ok)
    string(TOLOWER ${var} suffix)
    message(STATUS "bench: no OpenMP-capable ${program_names}; skipping the *_${suffix} benchmark variants")
    set(mode OFF)
  endif()
  set(LOOM_BENCH_${var}_MODE ${mode} PARENT_SCOPE)
  set(LOOM_BENCH_${var}_PATH ${cxx} PARENT_SCOPE)
endfunction()

set(_native_clang FALSE)
if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang" AND CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL 19
   AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 20)
  set(_native_clang TRUE)
endif()
set(_native_gcc FALSE)
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  set(_native_gcc TRUE)
endif()
_loom_bench_openmp_compiler(CLANG _native_clang "clang++-19")
_loom_bench_openmp_compiler(GCC _native_gcc "g++;g++-12")

# Optional libraries, found once. TBB: oneTBB's CMake package (libtbb-dev).
# BLAS: OpenBLAS's CBLAS plus LAPACKE (libopenblas-dev, liblapacke-dev), as plain
# file paths so the foreign-compiler command line can use them too.
find_package(TBB CONFIG QUIET)
if(NOT TBB_FOUND)
  message(STATUS "bench: oneTBB not found (libtbb-dev); skipping the *_tbb benchmarks")
endif()
find_path(LOOM_BENCH_CBLAS_INCLUDE cblas.h)
find_path(LOOM_BENCH_LAPACKE_INCLUDE lapacke.h)
find_library(LOOM_BENCH_OPENBLAS_LIB openblas)
find_library(LOOM_BENCH_LAPACKE_LIB lapacke)
if(LOOM_BENCH_CBLAS_INCLUDE AND LOOM_BENCH_LAPACKE_INCLUDE AND LOOM_BENCH_OPENBLAS_LIB
   AND LOOM_BENCH_LAPACKE_LIB)
  set(LOOM_BENCH_HAVE_LAPACK TRUE)
else()
  set(LOOM_BENCH_HAVE_LAPACK FALSE)
  message(STATUS "bench: OpenBLAS/LAPACKE not found (libopenblas-dev, liblapacke-dev); "
                 "skipping the tile factorisations")
endif()

# Same warnings as the project's loom_warnings target, for the foreign command line.
function(_loom_bench_warning_flags out compiler_kind)
  set(flags -Wall -Wextra -Wshadow)
  if(compiler_kind STREQUAL "CLANG")
    list(APPEND flags -Wpedantic)
  endif()
  set(${out} ${flags} PARENT_SCOPE)
endfunction()

# Registers the CTest tiny-size verification run of one binary.
function(_loom_bench_test workload suffix exe)
  add_test(NAME bench.${workload}.${suffix}.verify COMMAND ${exe} ${ARGN})
  set_tests_properties(bench.${workload}.${suffix}.verify PROPERTIES
                       ENVIRONMENT "${LOOM_BENCH_TEST_ENV}" TIMEOUT 120 LABELS bench)
endfunction()

# The same run writing its task graph (--record-graph), for the tile benchmarks: the
# result must still verify with the recording on.
function(_loom_bench_graph_test workload suffix exe)
  set(test bench.${workload}.${suffix}.record_graph)
  add_test(NAME ${test} COMMAND ${exe} ${ARGN}
           --record-graph ${CMAKE_CURRENT_BINARY_DIR}/graph-${suffix}.json)
  set_tests_properties(${test} PROPERTIES ENVIRONMENT "${LOOM_BENCH_TEST_ENV}" TIMEOUT 120
                       LABELS bench)
endfunction()

# Both kinds of executable below land in <build>/bench/<workload>/bin/, the paths the
# manifests name. (Not in <build>/bench/<workload>/ itself: Ninja also names each
# target by its folder, bench/<workload>/<target>, and a custom command's output
# there would collide with its own target.)

# An executable from one source built by the project compiler.
function(_loom_bench_native_exe name source system)
  cmake_parse_arguments(A "" "" "LIBS;INCLUDES;FLAGS" ${ARGN})
  add_executable(${name} ${source})
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY
                                            ${CMAKE_CURRENT_BINARY_DIR}/bin)
  target_include_directories(${name} PRIVATE ${LOOM_BENCH_COMMON_DIR} ${CMAKE_CURRENT_SOURCE_DIR}
                                             ${A_INCLUDES})
  target_compile_definitions(${name} PRIVATE LOOM_BENCH_SYSTEM="${system}")
  target_compile_options(${name} PRIVATE ${LOOM_BENCH_OPT_FLAGS} ${A_FLAGS})
  target_link_options(${name} PRIVATE ${A_FLAGS})
  target_link_libraries(${name} PRIVATE Threads::Threads ${A_LIBS})
  if(TARGET loom_warnings)
    target_link_libraries(${name} PRIVATE loom_warnings)
  endif()
endfunction()

# An executable from one source built by calling another compiler directly.
function(_loom_bench_foreign_exe name source system compiler compiler_kind)
  cmake_parse_arguments(A "" "" "LIBS;INCLUDES;FLAGS" ${ARGN})
  set(out ${CMAKE_CURRENT_BINARY_DIR}/bin/${name})
  get_filename_component(src ${source} ABSOLUTE)
  _loom_bench_warning_flags(warn ${compiler_kind})
  # System folders stay off the command line: -I/usr/include would put C headers
  # ahead of libstdc++'s wrappers and break their #include_next.
  set(incs ${LOOM_BENCH_COMMON_DIR} ${CMAKE_CURRENT_SOURCE_DIR} ${A_INCLUDES})
  list(REMOVE_ITEM incs ${CMAKE_CXX_IMPLICIT_INCLUDE_DIRECTORIES} /usr/include /usr/local/include)
  list(TRANSFORM incs PREPEND "-I")
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${compiler} -std=c++20 ${LOOM_BENCH_OPT_FLAGS} ${warn} ${A_FLAGS} ${incs}
            "-DLOOM_BENCH_SYSTEM=\"${system}\"" -MD -MF ${out}.d -o ${out} ${src}
            ${A_LIBS} -pthread
    DEPENDS ${src}
    DEPFILE ${out}.d
    COMMENT "Building ${name} with ${compiler}"
    VERBATIM COMMAND_EXPAND_LISTS)
  add_custom_target(${name} ALL DEPENDS ${out})
endfunction()

# loom_bench_openmp(<workload> <source> [LIBS <files>...] [INCLUDES <dirs>...]
#                   [TEST_ARGS <args>...] [GRAPH_TEST])
# Builds bench_<workload>_clang (system llvm-omp) and bench_<workload>_gcc (system
# gnu-omp) from one OpenMP source, each with a CTest verification run (GRAPH_TEST:
# and one more with --record-graph).
function(loom_bench_openmp workload source)
  cmake_parse_arguments(A "GRAPH_TEST" "" "LIBS;INCLUDES;TEST_ARGS" ${ARGN})
  foreach(variant CLANG GCC)
    string(TOLOWER ${variant} suffix)
    set(name bench_${workload}_${suffix})
    if(variant STREQUAL "CLANG")
      set(system llvm-omp)
    else()
      set(system gnu-omp)
    endif()
    if(LOOM_BENCH_${variant}_MODE STREQUAL "NATIVE")
      _loom_bench_native_exe(${name} ${source} ${system} LIBS ${A_LIBS} INCLUDES ${A_INCLUDES}
                             FLAGS -fopenmp)
      set(exe $<TARGET_FILE:${name}>)
      _loom_bench_test(${workload} ${suffix} ${exe} ${A_TEST_ARGS})
    elseif(LOOM_BENCH_${variant}_MODE STREQUAL "FOREIGN")
      _loom_bench_foreign_exe(${name} ${source} ${system} ${LOOM_BENCH_${variant}_PATH} ${variant}
                              LIBS ${A_LIBS} INCLUDES ${A_INCLUDES} FLAGS -fopenmp)
      set(exe ${CMAKE_CURRENT_BINARY_DIR}/bin/${name})
      _loom_bench_test(${workload} ${suffix} ${exe} ${A_TEST_ARGS})
    else()
      continue()
    endif()
    if(A_GRAPH_TEST)
      _loom_bench_graph_test(${workload} ${suffix} ${exe} ${A_TEST_ARGS})
    endif()
  endforeach()
endfunction()

# loom_bench_program(<workload> <suffix> <system> <source> [LIBS <libs>...]
#                    [TEST_ARGS <args>...])
# Builds bench_<workload>_<suffix> with the project compiler (serial, oneTBB and
# std::thread versions), with a CTest verification run.
function(loom_bench_program workload suffix system source)
  cmake_parse_arguments(A "" "" "LIBS;INCLUDES;TEST_ARGS" ${ARGN})
  set(name bench_${workload}_${suffix})
  _loom_bench_native_exe(${name} ${source} ${system} LIBS ${A_LIBS} INCLUDES ${A_INCLUDES})
  _loom_bench_test(${workload} ${suffix} $<TARGET_FILE:${name}> ${A_TEST_ARGS})
endfunction()
