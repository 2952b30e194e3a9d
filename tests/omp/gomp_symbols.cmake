# omp.gomp_symbols: libloom-omp.so exports every versioned symbol a gcc 12 binary can
# ask for (gomp_symbols.txt), each under libgomp's version, so that a program linked
# against libgomp.so.1 binds to loom. When the system has a libgomp.so.1, the committed
# list is compared with it too.
#
# Included from tests/omp/CMakeLists.txt, this file registers the test; run with
# `cmake -P` (LIB, LIST and optionally LIBGOMP set), it is the check.
if(NOT CMAKE_SCRIPT_MODE_FILE)
  if(TARGET loom-omp)
    set(gomp_symbols_system /usr/lib/x86_64-linux-gnu/libgomp.so.1)
    add_test(NAME omp.gomp_symbols
             COMMAND ${CMAKE_COMMAND} -DLIB=$<TARGET_FILE:loom-omp>
                     -DLIST=${CMAKE_CURRENT_LIST_DIR}/gomp_symbols.txt
                     -DLIBGOMP=${gomp_symbols_system}
                     -P ${CMAKE_CURRENT_LIST_FILE})
    set_tests_properties(omp.gomp_symbols PROPERTIES LABELS "omp;omp-loom")
  endif()
  return()
endif()

cmake_minimum_required(VERSION 3.25)

# The "name version" pairs `file` defines under GOMP_* / OMP_* nodes (default or not),
# less GOMP_PLUGIN_* and the version nodes' own symbols.
function(gcc_versioned_symbols file out)
  execute_process(COMMAND objdump -T ${file} OUTPUT_VARIABLE text RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "objdump -T failed on ${file}")
  endif()
  string(REPLACE "\n" ";" lines "${text}")
  set(pairs "")
  foreach(l IN LISTS lines)
    if(l MATCHES "\\*UND\\*")
      continue()
    endif()
    if(l MATCHES "[ (]((GOMP|OMP)_[0-9][0-9.]*)\\)? +([A-Za-z_][A-Za-z_0-9]*)$")
      if(NOT CMAKE_MATCH_3 STREQUAL CMAKE_MATCH_1)
        list(APPEND pairs "${CMAKE_MATCH_3} ${CMAKE_MATCH_1}")
      endif()
    endif()
  endforeach()
  set(${out} "${pairs}" PARENT_SCOPE)
endfunction()

# The committed list: `required` (to be exported) and `waived` (lines with "! reason").
file(STRINGS ${LIST} entries REGEX "^[^#]")
set(required "")
set(waived "")
foreach(e IN LISTS entries)
  if(e MATCHES "^([^ ]+ [^ ]+) *! *(.+)$")
    list(APPEND waived "${CMAKE_MATCH_1}")
  elseif(e MATCHES "^([^ ]+ [^ ]+) *$")
    list(APPEND required "${CMAKE_MATCH_1}")
  else()
    message(FATAL_ERROR "${LIST}: malformed line '${e}'")
  endif()
endforeach()

gcc_versioned_symbols(${LIB} loom)
set(missing "")
foreach(s IN LISTS required)
  if(NOT s IN_LIST loom)
    list(APPEND missing "${s}")
  endif()
endforeach()

# The list against the system's libgomp.so.1: each listed symbol must be there; one the
# list lacks is an error only when that libgomp is GCC 12's (no node newer than GOMP_5.1
# or OMP_5.1), since a newer libgomp adds symbols a gcc 12 binary never asks for.
set(list_errors "")
if(LIBGOMP AND EXISTS ${LIBGOMP})
  gcc_versioned_symbols(${LIBGOMP} system)
  set(all ${required} ${waived})
  set(newer FALSE)
  foreach(s IN LISTS system)
    if(s MATCHES " (GOMP|OMP)_(5\\.1\\.|5\\.[2-9]|[6-9])")
      set(newer TRUE)
    endif()
  endforeach()
  foreach(s IN LISTS all)
    if(NOT s IN_LIST system)
      string(APPEND list_errors "listed but not in ${LIBGOMP}: ${s}\n")
    endif()
  endforeach()
  foreach(s IN LISTS system)
    if(NOT s IN_LIST all AND NOT newer)
      string(APPEND list_errors "in ${LIBGOMP} but not listed: ${s}\n")
    endif()
  endforeach()
  if(newer)
    message(STATUS "${LIBGOMP} is newer than GCC 12's; compared the list one way only")
  endif()
endif()

list(LENGTH required n_required)
list(LENGTH missing n_missing)
list(LENGTH waived n_waived)
if(list_errors)
  message(SEND_ERROR "${list_errors}")
endif()
if(n_missing GREATER 0)
  list(JOIN missing "\n  " missing_text)
  message(FATAL_ERROR "libloom-omp.so lacks ${n_missing} of the ${n_required} versioned "
                      "symbols of gcc 12's libgomp.so.1:\n  ${missing_text}")
endif()
if(list_errors)
  message(FATAL_ERROR "gomp_symbols.txt does not match the system's libgomp.so.1")
endif()
message(STATUS "libloom-omp.so exports all ${n_required} versioned symbols of gcc 12's "
               "libgomp.so.1 (${n_waived} waived)")
