# Helpers of the scripts that run one OpenMP test program (cmake -P): the generated
# runner of tests/omp/CMakeLists.txt and tests/omp/archer/run_archer.cmake.

# Fails unless the loader, given LD_LIBRARY_PATH=dir, takes `soname` for `exe` from `dir`:
# a test run on the wrong runtime would pass for the wrong reason.
function(omp_require_runtime exe soname dir)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env "LD_LIBRARY_PATH=${dir}" ldd ${exe}
                  OUTPUT_VARIABLE ldd_out RESULT_VARIABLE ldd_rc)
  string(REGEX MATCH "${soname} => ([^ ]+)" found "${ldd_out}")
  get_filename_component(loaded "${CMAKE_MATCH_1}" DIRECTORY)
  get_filename_component(loaded "${loaded}" REALPATH)
  get_filename_component(want "${dir}" REALPATH)
  if(NOT ldd_rc EQUAL 0 OR NOT loaded STREQUAL want)
    message(FATAL_ERROR "${exe} would not load ${soname} from ${dir}:\n${ldd_out}")
  endif()
endfunction()

# Sets `out` to env(1)'s `-u NAME` arguments for every variable of the caller's
# environment whose name starts with one of `prefixes` (a regex alternation such as
# "OMP|KMP") and an underscore, so a run sees only the settings the test gives it.
function(omp_unset_inherited out env_exe prefixes)
  execute_process(COMMAND ${env_exe} OUTPUT_VARIABLE all_env)
  string(REGEX MATCHALL "(^|\n)(${prefixes})_[A-Za-z0-9_]*=" inherited "${all_env}")
  set(args "")
  foreach(v IN LISTS inherited)
    string(REGEX REPLACE "^\n?([^=]*)=$" "\\1" v "${v}")
    list(APPEND args -u ${v})
  endforeach()
  set(${out} ${args} PARENT_SCOPE)
endfunction()
