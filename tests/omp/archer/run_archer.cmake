# Runs one program of tests/omp/archer under ThreadSanitizer and checks the verdict.
#   -DEXE -DRUNTIME_DIR -DSONAME   the program, the folder its OpenMP runtime comes from
#   -DMODE=archer|off              Archer attached (OMP_TOOL_LIBRARIES) or no tool at all
#   -DEXPECT=clean|race|false-positives
#   -DSRC                          the source (race: the line marked ARCHER-RACE)
#   -DARCHER -DSYMBOLIZER -DENV_EXE -DTIMEOUT -DTHREADS
#   -DSKIP=reason                  prints "SKIP: reason" and stops (CTest: skipped)
cmake_minimum_required(VERSION 3.25)
if(SKIP)
  message("SKIP: ${SKIP}")
  return()
endif()
get_filename_component(name "${SRC}" NAME)

include(${CMAKE_CURRENT_LIST_DIR}/../run_support.cmake)
omp_require_runtime("${EXE}" "${SONAME}" "${RUNTIME_DIR}")
# A clean environment: no inherited OpenMP, loom, Archer or sanitizer settings.
omp_unset_inherited(unset_args "${ENV_EXE}" "OMP|KMP|GOMP|LOOM|ARCHER|TSAN")
# exitcode=66: a run with reports exits 66 whatever the program returned, so the
# program's own verdict is its "all passed" line. The noninstrumented runtime's own
# accesses are not checked (as Archer asks).
set(tsan "TSAN_OPTIONS=ignore_noninstrumented_modules=1 exitcode=66 halt_on_error=0 external_symbolizer_path=${SYMBOLIZER}")
if(MODE STREQUAL "archer")
  set(tool "OMP_TOOL_LIBRARIES=${ARCHER}" "ARCHER_OPTIONS=verbose=1")
else()
  set(tool "OMP_TOOL=disabled")
endif()
execute_process(
  COMMAND ${ENV_EXE} ${unset_args} "LD_LIBRARY_PATH=${RUNTIME_DIR}" "OMP_NUM_THREADS=${THREADS}"
          "${tsan}" ${tool} ${EXE}
  TIMEOUT ${TIMEOUT} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("---- stdout\n${out}\n---- stderr\n${err}")

set(problems "")
if(NOT out MATCHES "all passed")
  string(APPEND problems "the program's own check did not pass (no 'all passed' line)\n")
endif()
if(err MATCHES "CHECK failed|FATAL|Segmentation fault")
  string(APPEND problems "ThreadSanitizer or the program failed (see stderr)\n")
endif()
set(attached FALSE)
if(out MATCHES "Archer detected OpenMP application with TSan")
  set(attached TRUE)
endif()
if(MODE STREQUAL "archer" AND NOT attached)
  string(APPEND problems "Archer did not attach (no 'Archer detected' line with ARCHER_OPTIONS=verbose=1)\n")
elseif(MODE STREQUAL "off" AND attached)
  string(APPEND problems "Archer attached although OMP_TOOL=disabled\n")
endif()
string(REGEX MATCHALL "WARNING: ThreadSanitizer:" warnings "${err}")
string(REGEX MATCHALL "WARNING: ThreadSanitizer: data race" races "${err}")
list(LENGTH warnings n_warnings)
list(LENGTH races n_races)

if(EXPECT STREQUAL "clean")
  if(NOT rc EQUAL 0 OR n_warnings GREATER 0)
    string(APPEND problems "expected no report: ${n_warnings} ThreadSanitizer warnings, exit status ${rc}\n")
  endif()
elseif(EXPECT STREQUAL "race")
  # The line of the one race: the line that ends with the marker comment.
  file(READ ${SRC} text)
  string(FIND "${text}" "// ARCHER-RACE\n" at)
  if(at LESS 0)
    message(FATAL_ERROR "${SRC}: no line ends with // ARCHER-RACE")
  endif()
  string(SUBSTRING "${text}" 0 ${at} before)
  string(REGEX MATCHALL "\n" newlines "${before}")
  list(LENGTH newlines line)
  math(EXPR line "${line} + 1")
  if(NOT rc EQUAL 66 OR NOT n_warnings EQUAL 1 OR NOT n_races EQUAL 1)
    string(APPEND problems "expected exactly one report, a data race: ${n_warnings} warnings (${n_races} data races), exit status ${rc}\n")
  endif()
  # Both accesses of the report (this one and the previous one) are at that line.
  string(REGEX MATCHALL "${name}:${line}[^0-9]" at_line "${err}")
  list(LENGTH at_line n_at_line)
  if(n_at_line LESS 2)
    string(APPEND problems "the report does not name ${name}:${line} for both accesses\n")
  endif()
elseif(EXPECT STREQUAL "false-positives")
  # The reference: without Archer ThreadSanitizer cannot see the runtime's
  # synchronisation, so this race-free program is reported.
  if(NOT rc EQUAL 66 OR n_races EQUAL 0)
    string(APPEND problems "expected ThreadSanitizer to report races without Archer: ${n_races} data races, exit status ${rc}\n")
  endif()
endif()
if(problems)
  message(FATAL_ERROR "${problems}")
endif()
