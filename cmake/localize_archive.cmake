# cmake -DARCHIVE=libfipsmod.a -DLD=ld -DOBJCOPY=objcopy -DAR=ar -DRANLIB=ranlib -P localize_archive.cmake
#
# Rewrites a static archive as one relocatable object whose hidden-visibility symbols are local:
#   ld -r --whole-archive ARCHIVE -o all.o     one object, the members' internal references resolved
#   objcopy --localize-hidden all.o            hidden globals (everything but FM_API) become local
#   ar rcs ARCHIVE all.o                       the archive consumers link
# Run on every fresh archive CMake creates (it deletes the old one first); running it twice gives
# the same result.
foreach(var ARCHIVE LD OBJCOPY AR)
  if(NOT ${var})
    message(FATAL_ERROR "localize_archive.cmake: ${var} is not set")
  endif()
endforeach()
get_filename_component(dir "${ARCHIVE}" DIRECTORY)
get_filename_component(name "${ARCHIVE}" NAME_WE)
set(obj "${dir}/${name}-localized.o")
execute_process(COMMAND "${LD}" -r -o "${obj}" --whole-archive "${ARCHIVE}"
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "ld -r of ${ARCHIVE} failed")
endif()
execute_process(COMMAND "${OBJCOPY}" --localize-hidden "${obj}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "objcopy --localize-hidden ${obj} failed")
endif()
file(REMOVE "${ARCHIVE}")
execute_process(COMMAND "${AR}" rcs "${ARCHIVE}" "${obj}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "ar rcs ${ARCHIVE} failed")
endif()
file(REMOVE "${obj}")
