# Fails when the library LIB imports (has a dynamic relocation against) one of the functions
# that move or fetch the module's secrets: they must bind to the module's own (module/mem.c,
# module/rand's direct system calls), never to a symbol an LD_PRELOAD library could replace.
# __tls_get_addr too: it would hand an interposer the address of every thread's DRBG state and
# RSA blinding pair; the module's thread-local data is initial-exec, reached without a call.
# getpid (it keys the RSA blinding pairs to their process) and sched_yield (cleanup's bounded
# waits) are direct system calls too (module/syscall.h).
execute_process(COMMAND ${READELF} -rW ${LIB} OUTPUT_VARIABLE relocs RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "readelf failed on ${LIB}")
endif()
set(bad "")
foreach(fn IN ITEMS memcpy memmove memset memcmp bcmp getrandom getentropy syscall read
                    __memcpy_chk __memset_chk __memmove_chk __tls_get_addr getpid sched_yield)
  if(relocs MATCHES "[ \t]${fn}(@|[ \t\n])")
    list(APPEND bad ${fn})
  endif()
endforeach()
if(bad)
  message(FATAL_ERROR "${LIB} imports ${bad}")
endif()
message(STATUS "${LIB} imports none of the secret-path functions")
