# Running built programs in a cross build (cmake/toolchain-aarch64-linux-gnu.cmake): ctest puts
# CMAKE_CROSSCOMPILING_EMULATOR in front of a test whose COMMAND names a target, and the build in
# front of a custom command's target, but a program that a script, a generator or another program
# starts needs it too. fipsmod_runner(<var> <target>) sets <var> to what those must run: the
# program itself ($<TARGET_FILE:...>) in a native build; in a cross build a wrapper script
# (<build>/run/<target>) that execs the program under the emulator with the same arguments (a
# shell script, so that it also works where a program under the emulator starts it with execve).
function(fipsmod_runner var target)
  if(NOT (CMAKE_CROSSCOMPILING AND CMAKE_CROSSCOMPILING_EMULATOR))
    set(${var} $<TARGET_FILE:${target}> PARENT_SCOPE)
    return()
  endif()
  set(wrapper ${PROJECT_BINARY_DIR}/run/${target})
  get_property(done GLOBAL PROPERTY FIPSMOD_RUNNER_${target})
  if(NOT done)
    set(emulator "")
    foreach(arg IN LISTS CMAKE_CROSSCOMPILING_EMULATOR)
      string(APPEND emulator "'${arg}' ")
    endforeach()
    file(GENERATE OUTPUT ${wrapper}
      CONTENT "#!/bin/sh\nexec ${emulator}'$<TARGET_FILE:${target}>' \"$@\"\n"
      FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
                       WORLD_READ WORLD_EXECUTE)
    set_property(GLOBAL PROPERTY FIPSMOD_RUNNER_${target} 1)
  endif()
  set(${var} ${wrapper} PARENT_SCOPE)
endfunction()
