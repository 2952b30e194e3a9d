# Install rules: the CMake package `loom` (find_package(loom) -> loom::loom, and the
# OpenMP runtime as loom::omp once it exists), the public headers and loom.pc.
# Included from the top-level CMakeLists.txt after every target is defined.
#
# Layout under the install prefix:
#   include/loom/...                 public headers (include/loom of the source tree)
#   <libdir>/libloom.so*             the scheduler and the C++ API
#   <libdir>/libloom-omp.so*         the OpenMP runtime (when src/omp defines loom-omp)
#   <libdir>/libloom-mpi.so*         loom::mpi (when src/mpi found MPI), loom-mpi.pc
#   <libdir>/loom/libomp.so ...      the names OpenMP programs look for, as links to
#                                    ../libloom-omp.so*, kept out of <libdir> itself so
#                                    that installing loom never shadows the system's
#                                    libomp or libgomp (LD_LIBRARY_PATH=<libdir>/loom)
#   include/loom/omp/omp.h           loom-omp's PUBLIC_HEADER files (-I include/loom/omp)
#   <libdir>/cmake/loom/             loomConfig.cmake, loomConfigVersion.cmake, targets
#   <libdir>/pkgconfig/loom.pc
include_guard(GLOBAL)
include(CMakePackageConfigHelpers)

set(LOOM_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/loom" CACHE STRING
    "Where loomConfig.cmake is installed, relative to the prefix")
set(LOOM_INSTALL_OMPDIR "${CMAKE_INSTALL_LIBDIR}/loom" CACHE STRING
    "Where the libomp.so/libomp.so.5/libiomp5.so links to libloom-omp.so go")
set(LOOM_OMP_DEFAULT_ALIASES libomp.so libomp.so.5 libiomp5.so)

if(NOT TARGET loom)
  message(STATUS "loom install: no target 'loom' yet; nothing to install")
  return()
endif()

# In-tree spelling of the exported name, so that code inside the build can use the
# same name as consumers.
if(NOT TARGET loom::loom)
  add_library(loom::loom ALIAS loom)
endif()

# A usage requirement that names a path in the source or build tree cannot be
# exported. Wrap such include directories in $<BUILD_INTERFACE:...>; the installed
# include directory is added by install(TARGETS ... INCLUDES DESTINATION).
function(_loom_wrap_build_includes target)
  get_target_property(_dirs ${target} INTERFACE_INCLUDE_DIRECTORIES)
  if(NOT _dirs)
    return()
  endif()
  set(_out "")
  foreach(_d IN LISTS _dirs)
    if(_d MATCHES "^\\$<" OR NOT IS_ABSOLUTE "${_d}")
      list(APPEND _out "${_d}")
    else()
      cmake_path(IS_PREFIX PROJECT_SOURCE_DIR "${_d}" NORMALIZE _in_src)
      cmake_path(IS_PREFIX PROJECT_BINARY_DIR "${_d}" NORMALIZE _in_bin)
      if(_in_src OR _in_bin)
        list(APPEND _out "$<BUILD_INTERFACE:${_d}>")
      else()
        list(APPEND _out "${_d}")
      endif()
    endif()
  endforeach()
  set_property(TARGET ${target} PROPERTY INTERFACE_INCLUDE_DIRECTORIES "${_out}")
endfunction()

# The find_dependency() calls loomConfig.cmake needs for the imported targets that
# the exported targets' link interfaces name.
set(LOOM_CONFIG_DEPENDENCIES "find_dependency(Threads)\n")
function(_loom_collect_dependencies target)
  get_target_property(_libs ${target} INTERFACE_LINK_LIBRARIES)
  if(NOT _libs)
    return()
  endif()
  set(_deps "${LOOM_CONFIG_DEPENDENCIES}")
  if(_libs MATCHES "Boost::context" AND NOT _deps MATCHES "boost_context")
    string(APPEND _deps "find_dependency(boost_context ${boost_context_VERSION} CONFIG)\n")
  endif()
  if(_libs MATCHES "PkgConfig::HWLOC" AND NOT _deps MATCHES "HWLOC")
    string(APPEND _deps "find_dependency(PkgConfig)\npkg_check_modules(HWLOC REQUIRED IMPORTED_TARGET hwloc)\n")
  endif()
  set(LOOM_CONFIG_DEPENDENCIES "${_deps}" PARENT_SCOPE)
endfunction()

# ---- libloom ------------------------------------------------------------------------
_loom_wrap_build_includes(loom)
_loom_collect_dependencies(loom)
install(TARGETS loom EXPORT loomTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime NAMELINK_COMPONENT development
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT development
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/loom"
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT development
  FILES_MATCHING PATTERN "*.hpp" PATTERN "*.h" PATTERN "*.ipp")
# Headers generated into the build tree (if any part of the build makes some).
if(IS_DIRECTORY "${PROJECT_BINARY_DIR}/include/loom")
  install(DIRECTORY "${PROJECT_BINARY_DIR}/include/loom"
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT development
    FILES_MATCHING PATTERN "*.hpp" PATTERN "*.h")
endif()

# ---- libloom-omp (src/omp) ------------------------------------------------------------
set(LOOM_HAVE_OMP OFF)
if(TARGET loom-omp)
  set(LOOM_HAVE_OMP ON)
  _loom_wrap_build_includes(loom-omp)
  _loom_collect_dependencies(loom-omp)
  get_target_property(_name loom-omp EXPORT_NAME)
  if(NOT _name)
    set_property(TARGET loom-omp PROPERTY EXPORT_NAME omp)
  endif()
  # Loaded through a link in <libdir>/loom, $ORIGIN is <libdir>/loom (the loader does
  # not resolve the link), so libloom.so is found through $ORIGIN/..; loaded from
  # <libdir> itself, through $ORIGIN.
  get_target_property(_rpath loom-omp INSTALL_RPATH)
  if(NOT _rpath)
    set(_rpath "")
  endif()
  foreach(_entry "$ORIGIN" "$ORIGIN/..")
    if(NOT _entry IN_LIST _rpath)
      list(APPEND _rpath "${_entry}")
    endif()
  endforeach()
  set_property(TARGET loom-omp PROPERTY INSTALL_RPATH "${_rpath}")
  install(TARGETS loom-omp EXPORT loomTargets
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime NAMELINK_COMPONENT development
    PUBLIC_HEADER DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/loom/omp COMPONENT development
    INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/loom/omp)
  # Without a PUBLIC_HEADER list, the headers (omp.h, ...) of loom-omp's own public
  # include directories go to include/loom/omp, so that -I<prefix>/include/loom/omp
  # selects loom's omp.h without exposing loom's other headers under bare names.
  get_target_property(_omp_headers loom-omp PUBLIC_HEADER)
  if(NOT _omp_headers)
    get_target_property(_omp_dirs loom-omp INTERFACE_INCLUDE_DIRECTORIES)
    foreach(_d IN LISTS _omp_dirs)
      string(REGEX REPLACE "^\\$<BUILD_INTERFACE:(.*)>$" "\\1" _d "${_d}")
      if(IS_ABSOLUTE "${_d}" AND IS_DIRECTORY "${_d}" AND NOT _d STREQUAL "${PROJECT_SOURCE_DIR}/include")
        install(DIRECTORY "${_d}/" DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/loom/omp
          COMPONENT development FILES_MATCHING PATTERN "*.h")
      endif()
    endforeach()
  endif()

  # The library names OpenMP programs look for. A list in the target property
  # LOOM_OMP_ALIASES (set by src/omp, e.g. to add libgomp.so.1 once the GOMP ABI
  # exists) replaces the default list.
  get_target_property(_aliases loom-omp LOOM_OMP_ALIASES)
  if(NOT _aliases)
    set(_aliases ${LOOM_OMP_DEFAULT_ALIASES})
  endif()
  string(JOIN " " _aliases_str ${_aliases})
  install(CODE "
    set(_dir \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${LOOM_INSTALL_OMPDIR}\")
    if(IS_ABSOLUTE \"${LOOM_INSTALL_OMPDIR}\")
      set(_dir \"\$ENV{DESTDIR}${LOOM_INSTALL_OMPDIR}\")
    endif()
    file(MAKE_DIRECTORY \"\${_dir}\")
    foreach(_n ${_aliases_str})
      message(STATUS \"Installing: \${_dir}/\${_n} -> ../$<TARGET_SONAME_FILE_NAME:loom-omp>\")
      file(CREATE_LINK \"../$<TARGET_SONAME_FILE_NAME:loom-omp>\" \"\${_dir}/\${_n}\" SYMBOLIC)
      list(APPEND CMAKE_INSTALL_MANIFEST_FILES \"\${_dir}/\${_n}\")
    endforeach()
  " COMPONENT runtime)
endif()

# ---- libloom-mpi (src/mpi, optional) ----------------------------------------------------
# loom::mpi in the CMake package and loom-mpi.pc, only when src/mpi found MPI's C API.
# Its link interface names MPI::MPI_C, so loomConfig.cmake looks for MPI first.
set(LOOM_HAVE_MPI OFF)
if(TARGET loom-mpi)
  set(LOOM_HAVE_MPI ON)
  _loom_wrap_build_includes(loom-mpi)
  set_property(TARGET loom-mpi PROPERTY EXPORT_NAME mpi)
  install(TARGETS loom-mpi EXPORT loomTargets
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime NAMELINK_COMPONENT development
    INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
endif()

# ---- CMake package --------------------------------------------------------------------
install(EXPORT loomTargets
  NAMESPACE loom::
  FILE loomTargets.cmake
  DESTINATION ${LOOM_INSTALL_CMAKEDIR}
  COMPONENT development)
configure_package_config_file(
  "${CMAKE_CURRENT_LIST_DIR}/loomConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/loomConfig.cmake"
  INSTALL_DESTINATION ${LOOM_INSTALL_CMAKEDIR}
  PATH_VARS LOOM_INSTALL_OMPDIR)
# Before 1.0 a minor version may change the API.
write_basic_package_version_file(
  "${PROJECT_BINARY_DIR}/loomConfigVersion.cmake"
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion)
install(FILES
  "${PROJECT_BINARY_DIR}/loomConfig.cmake"
  "${PROJECT_BINARY_DIR}/loomConfigVersion.cmake"
  DESTINATION ${LOOM_INSTALL_CMAKEDIR}
  COMPONENT development)

# ---- pkg-config -------------------------------------------------------------------------
# loom.pc locates the prefix from its own place (${pcfiledir}), so it stays right for
# `cmake --install --prefix DIR` and DESTDIR staging; only an absolute libdir or
# includedir is written as given.
set(_pcdir "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(LOOM_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
  set(LOOM_PC_LIBDIR "${CMAKE_INSTALL_LIBDIR}")
else()
  file(RELATIVE_PATH _up "/root/${_pcdir}" "/root")
  string(REGEX REPLACE "/+$" "" _up "${_up}")
  set(LOOM_PC_PREFIX "\${pcfiledir}/${_up}")
  set(LOOM_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
endif()
if(IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(LOOM_PC_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}")
else()
  set(LOOM_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()
configure_file("${CMAKE_CURRENT_LIST_DIR}/loom.pc.in" "${PROJECT_BINARY_DIR}/loom.pc" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/loom.pc" DESTINATION ${_pcdir} COMPONENT development)
# loom-mpi.pc requires loom and the MPI implementation's own module (Open MPI: ompi-c;
# Debian's default MPI: mpi-c); without one, MPI's flags are written out.
if(LOOM_HAVE_MPI)
  set(LOOM_PC_MPI_REQUIRES "")
  set(LOOM_PC_MPI_CFLAGS "")
  set(LOOM_PC_MPI_LIBS "")
  find_package(PkgConfig QUIET)
  foreach(_m ompi-c mpi-c mpich)
    if(PKG_CONFIG_FOUND AND NOT LOOM_PC_MPI_REQUIRES)
      execute_process(COMMAND ${PKG_CONFIG_EXECUTABLE} --exists ${_m} RESULT_VARIABLE _rc)
      if(_rc EQUAL 0)
        set(LOOM_PC_MPI_REQUIRES " ${_m}")
      endif()
    endif()
  endforeach()
  if(NOT LOOM_PC_MPI_REQUIRES)
    foreach(_d IN LISTS MPI_C_INCLUDE_DIRS)
      string(APPEND LOOM_PC_MPI_CFLAGS " -I${_d}")
    endforeach()
    foreach(_l IN LISTS MPI_C_LIBRARIES)
      string(APPEND LOOM_PC_MPI_LIBS " ${_l}")
    endforeach()
  endif()
  configure_file("${CMAKE_CURRENT_LIST_DIR}/loom-mpi.pc.in" "${PROJECT_BINARY_DIR}/loom-mpi.pc" @ONLY)
  install(FILES "${PROJECT_BINARY_DIR}/loom-mpi.pc" DESTINATION ${_pcdir} COMPONENT development)
endif()
