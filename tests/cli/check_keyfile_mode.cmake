# fipsmod keygen --out creates private keys readable by their owner only, whatever was there:
# over an existing 0644 file the result is 0600; through a symlink the link is replaced and its
# target left untouched; under umask 000 still 0600; into a missing directory it fails (exit 2)
# and leaves nothing behind.
#   -DCLI=<fipsmod> -DWORK=<scratch directory>
cmake_minimum_required(VERSION 3.20)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")

function(mode_of path out)
  execute_process(COMMAND stat -c %a "${path}" OUTPUT_VARIABLE m OUTPUT_STRIP_TRAILING_WHITESPACE)
  set(${out} "${m}" PARENT_SCOPE)
endfunction()

function(keygen path expect_rc)
  execute_process(COMMAND sh -c "umask 000; exec \"$0\" keygen --rsa 2048 --out \"$1\"" "${CLI}" "${path}"
    RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL expect_rc)
    message(FATAL_ERROR "keygen --out ${path}: exit ${rc} (${err}), expected ${expect_rc}")
  endif()
endfunction()

# Over an existing world-readable file.
file(WRITE "${WORK}/old.pem" "old contents\n")
execute_process(COMMAND chmod 0644 "${WORK}/old.pem")
keygen("${WORK}/old.pem" 0)
mode_of("${WORK}/old.pem" m)
file(READ "${WORK}/old.pem" text)
if(NOT m STREQUAL "600" OR NOT text MATCHES "BEGIN PRIVATE KEY")
  message(FATAL_ERROR "over a 0644 file: mode ${m}, contents ${text}")
endif()

# Through a symlink: the target keeps its bytes and mode.
file(WRITE "${WORK}/target" "keep me\n")
execute_process(COMMAND chmod 0644 "${WORK}/target")
file(CREATE_LINK "${WORK}/target" "${WORK}/link.pem" SYMBOLIC)
keygen("${WORK}/link.pem" 0)
file(READ "${WORK}/target" kept)
mode_of("${WORK}/target" tm)
mode_of("${WORK}/link.pem" lm)
if(IS_SYMLINK "${WORK}/link.pem" OR NOT kept STREQUAL "keep me\n" OR NOT tm STREQUAL "644"
   OR NOT lm STREQUAL "600")
  message(FATAL_ERROR "through a symlink: target '${kept}' mode ${tm}, new file mode ${lm}")
endif()

# A new file under umask 000.
keygen("${WORK}/new.pem" 0)
mode_of("${WORK}/new.pem" m)
if(NOT m STREQUAL "600")
  message(FATAL_ERROR "new file under umask 000: mode ${m}")
endif()

# A missing directory: exit 2, nothing left.
keygen("${WORK}/missing/key.pem" 2)
file(GLOB left "${WORK}/*.XXXXXX" "${WORK}/*.pem.*")
if(left)
  message(FATAL_ERROR "temporary files left: ${left}")
endif()
message("keygen --out: 0600 over a 0644 file, through a symlink and under umask 000")
