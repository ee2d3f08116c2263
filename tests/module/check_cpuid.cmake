# CPUID and XGETBV only in module/cpu.c: every algorithm asks fm_cpu_use (module/internal.h), so
# that one place decides the CPU paths and FIPSMOD_CPU=portable reaches all of them. Checked on
# what is built: no object of the module but cpu.c's contains either instruction (objdump -d), and
# the linked libfipsmod.so contains exactly as many as cpu.c's object, and some (so that the
# check can see one).
#   cmake -DOBJDUMP=... -DOBJECTS=a.o|b.o|... -DLIB=libfipsmod.so -P check_cpuid.cmake
string(REPLACE "|" ";" objects "${OBJECTS}")

# count_insns(<var> <file>): how many cpuid and xgetbv instructions |file| has.
function(count_insns var file)
  execute_process(COMMAND ${OBJDUMP} -d --no-show-raw-insn ${file}
    OUTPUT_VARIABLE text RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "objdump -d ${file} failed (${rc})")
  endif()
  string(REGEX MATCHALL "\t(cpuid|xgetbv)( |\n)" hits "${text}")
  list(LENGTH hits n)
  set(${var} ${n} PARENT_SCOPE)
endfunction()

set(in_cpu 0)
set(bad "")
list(LENGTH objects nobj)
if(nobj LESS 10)
  message(FATAL_ERROR "only ${nobj} objects given: ${OBJECTS}")
endif()
foreach(obj IN LISTS objects)
  count_insns(n ${obj})
  get_filename_component(name ${obj} NAME)
  if(name MATCHES "^cpu\\.c\\.o(bj)?$")
    math(EXPR in_cpu "${in_cpu} + ${n}")
  elseif(n GREATER 0)
    list(APPEND bad "${obj} (${n})")
  endif()
endforeach()
if(bad)
  message(FATAL_ERROR "CPUID/XGETBV outside module/cpu.c: ${bad}")
endif()
if(in_cpu EQUAL 0)
  message(FATAL_ERROR "no CPUID in cpu.c's object: the check cannot see the instruction")
endif()
count_insns(in_lib ${LIB})
if(NOT in_lib EQUAL in_cpu)
  message(FATAL_ERROR "${LIB} has ${in_lib} CPUID/XGETBV instructions, cpu.c's object ${in_cpu}")
endif()
message(STATUS "CPUID/XGETBV: ${in_cpu} in cpu.c, none elsewhere, ${in_lib} in ${LIB}")
