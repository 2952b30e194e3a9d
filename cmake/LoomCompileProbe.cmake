include_guard(GLOBAL)

# Whether `compiler` compiles and links `source` (the program's text, written to
# `name` under the build tree) with the flags that follow; sets `out` to TRUE or
# FALSE. For compilers other than the project's (the OpenMP tests and benchmarks
# build with gcc and clang side by side), which try_compile cannot call.
function(loom_compile_probe out compiler name source)
  set(dir ${PROJECT_BINARY_DIR}/CMakeFiles/loom_probes)
  get_filename_component(tag ${compiler} NAME)
  file(WRITE ${dir}/${name} "${source}")
  execute_process(COMMAND ${compiler} ${ARGN} ${dir}/${name} -o ${dir}/${name}-${tag}.out
                  RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
  if(rc EQUAL 0)
    set(${out} TRUE PARENT_SCOPE)
  else()
    set(${out} FALSE PARENT_SCOPE)
  endif()
endfunction()
