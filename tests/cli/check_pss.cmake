# `fipsmod verify --pss` against signatures OpenSSL makes, at each salt length openssl users
# meet (max, its default; 0; 20; the hash's length), with --saltlen auto (the default), an exact
# N, digest and max; and `fipsmod sign --pss` signatures, which OpenSSL verifies with the salt
# as long as the hash.
#   -DCLI=<fipsmod> -DOPENSSL=<openssl> -DKEY=<RSA-2048 PKCS#8 PEM> -DWORK=<scratch directory>
cmake_minimum_required(VERSION 3.20)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
set(msg "${WORK}/msg.txt")
file(WRITE "${msg}" "a message signed by OpenSSL and checked by fipsmod\n")

# run(<expected exit> <regex for stdout+stderr, or ""> <command...>)
function(run want regex)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc STREQUAL "${want}")
    string(REPLACE ";" " " cmd "${ARGN}")
    message(FATAL_ERROR "${cmd}: exit ${rc}, expected ${want}\n${out}${err}")
  endif()
  if(NOT regex STREQUAL "" AND NOT "${out}${err}" MATCHES "${regex}")
    string(REPLACE ";" " " cmd "${ARGN}")
    message(FATAL_ERROR "${cmd}: output does not match ${regex}\n${out}${err}")
  endif()
  set(last_err "${err}" PARENT_SCOPE)
endfunction()

# RSA-2048 with SHA-256: emLen 256, the longest salt 256 - 32 - 2 = 222 bytes.
foreach(salt max 0 20 32)
  set(sig "${WORK}/sig-${salt}.bin")
  run(0 "" "${OPENSSL}" dgst -sha256 -sign "${KEY}" -sigopt rsa_padding_mode:pss
    -sigopt rsa_pss_saltlen:${salt} -out "${sig}" "${msg}")
  set(v "${CLI}" verify --key "${KEY}" --pss --hash sha256 --sig "${sig}")
  # The default is auto: any salt.
  run(0 "^Verified OK\n" ${v} "${msg}")
  run(0 "^Verified OK\n" ${v} --saltlen auto "${msg}")
  set(n ${salt})
  if(salt STREQUAL "max")
    set(n 222)
  endif()
  run(0 "^Verified OK\n" ${v} --saltlen ${n} "${msg}")
  # Salts longer than the hash verify, and the module's indicator says not approved.
  if(n GREATER 32)
    run(0 "not an approved verification" ${v} "${msg}")
    run(0 "^Verified OK\n" ${v} --saltlen max "${msg}")
  else()
    run(0 "" ${v} "${msg}")
    if(NOT last_err STREQUAL "")
      message(FATAL_ERROR "salt ${n}: approved, yet stderr says: ${last_err}")
    endif()
  endif()
  if(n EQUAL 32)
    run(0 "^Verified OK\n" ${v} --saltlen digest "${msg}")
  else()
    run(1 "^Verification failure\n" ${v} --saltlen digest "${msg}")
  endif()
  # An exact length that is not the signature's fails.
  math(EXPR other "${n} + 1")
  run(1 "^Verification failure\n" ${v} --saltlen ${other} "${msg}")
  # A changed message fails at any salt length.
  file(WRITE "${WORK}/other.txt" "another message\n")
  run(1 "^Verification failure\n" ${v} "${WORK}/other.txt")
endforeach()

run(0 "" "${OPENSSL}" pkey -in "${KEY}" -pubout -out "${WORK}/pub.pem")

# fipsmod signs with a salt as long as the hash (the default, and --saltlen digest), or
# shorter; OpenSSL checks the exact length.
foreach(salt digest 32 0 20)
  set(sig "${WORK}/fm-${salt}.bin")
  run(0 "" "${CLI}" sign --key "${KEY}" --pss --hash sha256 --saltlen ${salt} --out "${sig}"
    "${msg}")
  set(n ${salt})
  if(salt STREQUAL "digest")
    set(n 32)
  endif()
  run(0 "Verified OK" "${OPENSSL}" dgst -sha256 -verify "${WORK}/pub.pem" -sigopt
    rsa_padding_mode:pss -sigopt rsa_pss_saltlen:${n} -signature "${sig}" "${msg}")
  run(0 "^Verified OK\n" "${CLI}" verify --key "${KEY}" --pss --saltlen ${n} --hash sha256
    --sig "${sig}" "${msg}")
endforeach()
