# A race checker on OMPT: LLVM's Archer (libarcher.so of Debian's clang packages) with
# ThreadSanitizer, on loom and, as the reference, on Debian's libomp. Included by
# tests/omp/CMakeLists.txt; README.md there ("Archer") explains the runs.
#
# Every program here is built with -fsanitize=thread by clang (kmpc ABI) and by gcc
# (GOMP ABI) and run with OMP_NUM_THREADS=4:
#   omp.loom.archer_<p>[_gcc]      loom + Archer: racy.c reports exactly its one race,
#                                  every other program nothing
#   omp.libomp.archer_<p>[_gcc]    Debian's libomp + Archer: the same verdicts (a gcc
#                                  build loads libomp under the name libgomp.so.1)
#   omp.libomp.archer_off_<p>[_gcc] libomp without a tool (OMP_TOOL=disabled): the race-
#                                  free team programs are reported, so Archer is what
#                                  makes them clean
# Without libarcher.so, a TSan runtime for the compiler or llvm-symbolizer, the runs
# are registered and report SKIP.

set(archer_programs racy reduction barrier depend taskwait taskgroup critical locks ordered
    single nested_tasks)
# The reference without a tool runs only the team programs: their shared accesses are
# made by distinct members of a team of 4 by construction (static loops, every member
# in the critical section, the barrier or the lock), so ThreadSanitizer reports them in
# every run. In the task programs which thread runs a task is the scheduler's choice: on
# a loaded machine one thread may run all of them and nothing crosses threads (seen in
# CI: nested_tasks without Archer, 0 reports), so their false positives are not a
# verdict a test can ask for.
set(archer_team_programs reduction barrier critical locks ordered single)
set(archer_src ${CMAKE_CURRENT_LIST_DIR})
set(archer_bin ${CMAKE_CURRENT_BINARY_DIR}/bin/archer)
set(archer_runner ${archer_src}/run_archer.cmake)

find_file(LOOM_OMP_ARCHER libarcher.so HINTS ${LOOM_OMP_LIBOMP_DIR} NO_DEFAULT_PATH)
find_program(LOOM_OMP_SYMBOLIZER NAMES llvm-symbolizer-19 llvm-symbolizer
             HINTS /usr/lib/llvm-19/bin)
if(LOOM_OMP_SYMBOLIZER)
  get_filename_component(archer_symbolizer ${LOOM_OMP_SYMBOLIZER} REALPATH)
endif()

include(${PROJECT_SOURCE_DIR}/cmake/LoomCompileProbe.cmake)

# Can `cc` link a -fsanitize=thread OpenMP program? (clang needs libclang-rt-19-dev.)
function(loom_archer_probe cc out)
  loom_compile_probe(ok ${cc} archer_probe.c
                     "int main(void) { int x = 0;\n#pragma omp parallel\n#pragma omp atomic\n x++;\n return x == 0; }\n"
                     -fopenmp -fsanitize=thread)
  set(${out} ${ok} PARENT_SCOPE)
endfunction()

set(archer_compilers clang)
if(LOOM_OMP_GCC AND "gcc" IN_LIST LOOM_OMP_TEST_COMPILERS)
  list(APPEND archer_compilers gcc)
endif()

# libomp serves gcc's GOMP_* calls too: a folder where it is libgomp.so.1.
set(archer_libomp_gomp ${CMAKE_CURRENT_BINARY_DIR}/libomp-as-libgomp)
file(MAKE_DIRECTORY ${archer_libomp_gomp})
file(CREATE_LINK ${LOOM_OMP_LIBOMP_DIR}/libomp.so.5 ${archer_libomp_gomp}/libgomp.so.1 SYMBOLIC)

set(archer_outputs "")
foreach(compiler IN LISTS archer_compilers)
  if(compiler STREQUAL "clang")
    set(cc ${LOOM_OMP_CLANG})
    set(suffix "")
    set(soname libomp.so.5)
    set(libomp_dir ${LOOM_OMP_LIBOMP_DIR})
    set(labels "omp;archer")
  else()
    set(cc ${LOOM_OMP_GCC})
    set(suffix _gcc)
    set(soname libgomp.so.1)
    set(libomp_dir ${archer_libomp_gomp})
    set(labels "omp;archer;gcc")
  endif()
  loom_archer_probe(${cc} tsan_ok)
  set(skip "")
  if(NOT LOOM_OMP_ARCHER)
    set(skip "libarcher.so not found beside libomp (${LOOM_OMP_LIBOMP_DIR})")
  elseif(NOT tsan_ok)
    set(skip "${compiler} cannot build -fsanitize=thread programs (clang: install libclang-rt-19-dev; gcc: libtsan)")
  elseif(NOT LOOM_OMP_SYMBOLIZER)
    set(skip "llvm-symbolizer not found (the race's source line cannot be checked)")
  endif()

  foreach(p IN LISTS archer_programs)
    set(exe ${archer_bin}/${compiler}/${p})
    if(skip STREQUAL "")
      add_custom_command(OUTPUT ${exe}
        COMMAND ${CMAKE_COMMAND} -E make_directory ${archer_bin}/${compiler}
        COMMAND ${cc} -std=gnu17 -fopenmp -fsanitize=thread -g -O1 -Wall -Wextra
                ${archer_src}/${p}.c -o ${exe}
        DEPENDS ${archer_src}/${p}.c ${archer_src}/gate.h
        COMMENT "Archer test program ${p} (${compiler}, ThreadSanitizer)" VERBATIM)
      list(APPEND archer_outputs ${exe})
    endif()
    if(p STREQUAL "racy")
      set(expect race)
    else()
      set(expect clean)
    endif()
    set(runs "")
    if(TARGET loom-omp)
      list(APPEND runs "loom|$<TARGET_FILE_DIR:loom-omp>|archer|${expect}|archer_${p}${suffix}|omp-loom")
    endif()
    list(APPEND runs "libomp|${libomp_dir}|archer|${expect}|archer_${p}${suffix}|omp-libomp")
    if(p IN_LIST archer_team_programs)
      list(APPEND runs "libomp|${libomp_dir}|off|false-positives|archer_off_${p}${suffix}|omp-libomp")
    endif()
    foreach(run IN LISTS runs)
      string(REPLACE "|" ";" f "${run}")
      list(GET f 0 rt)
      list(GET f 1 dir)
      list(GET f 2 mode)
      list(GET f 3 verdict)
      list(GET f 4 tname)
      list(GET f 5 rtlabel)
      set(test omp.${rt}.${tname})
      add_test(NAME ${test}
        COMMAND ${CMAKE_COMMAND} -DEXE=${exe} -DRUNTIME_DIR=${dir} -DSONAME=${soname}
                -DMODE=${mode} -DEXPECT=${verdict} -DSRC=${archer_src}/${p}.c
                -DARCHER=${LOOM_OMP_ARCHER} -DSYMBOLIZER=${archer_symbolizer}
                -DENV_EXE=${LOOM_OMP_ENV} -DTIMEOUT=120 -DTHREADS=4 "-DSKIP=${skip}"
                -P ${archer_runner})
      set_tests_properties(${test} PROPERTIES LABELS "${labels};${rtlabel}" TIMEOUT 150
                           SKIP_REGULAR_EXPRESSION "SKIP: ")
    endforeach()
  endforeach()
endforeach()
if(archer_outputs)
  add_custom_target(omp-archer-programs ALL DEPENDS ${archer_outputs})
endif()
