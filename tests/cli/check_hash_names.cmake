# Every spelling of SHA-256/384/512 names the same hash: `fipsmod sign --pkcs1 --hash NAME` makes
# the signature OpenSSL makes with -sha256/-sha384/-sha512 (PKCS#1 v1.5 is deterministic), and
# each of the other SHA-2 and SHA3 names is either that hash or "unsupported hash NAME".
#   -DCLI=<fipsmod> -DOPENSSL=<openssl> -DKEY=<RSA PKCS#8 PEM> -DWORK=<scratch directory>
cmake_minimum_required(VERSION 3.20)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
set(msg "${WORK}/msg.txt")
file(WRITE "${msg}" "the same message under every name of its hash\n")

foreach(bits 256 384 512)
  execute_process(COMMAND "${OPENSSL}" dgst -sha${bits} -sign "${KEY}" -out "${WORK}/ref.sig"
    "${msg}" RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "openssl dgst -sha${bits} -sign failed")
  endif()
  file(SHA256 "${WORK}/ref.sig" want)
  foreach(name sha${bits} SHA${bits} sha-${bits} SHA-${bits} SHA2-${bits} sha2-${bits} Sha${bits})
    execute_process(COMMAND "${CLI}" sign --key "${KEY}" --pkcs1 --hash ${name}
      --out "${WORK}/${name}.sig" "${msg}" RESULT_VARIABLE rc ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "sign --hash ${name}: exit ${rc}\n${err}")
    endif()
    file(SHA256 "${WORK}/${name}.sig" got)
    if(NOT got STREQUAL want)
      message(FATAL_ERROR "sign --hash ${name}: not OpenSSL's -sha${bits} signature")
    endif()
  endforeach()
endforeach()

# The names of the other hashes: the module offers them (the signature verifies) or the name is
# refused as unsupported, never as an unknown option or another hash.
foreach(name sha224 SHA2-224 sha512-224 SHA-512/224 sha512-256 SHA2-512/256 sha3-224 SHA3-256
        sha3-384 SHA3-512)
  execute_process(COMMAND "${CLI}" sign --key "${KEY}" --pkcs1 --hash ${name}
    --out "${WORK}/other.sig" "${msg}" RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(rc EQUAL 2)
    if(NOT err MATCHES "^fipsmod sign: unsupported hash ${name} \\(this module offers ")
      message(FATAL_ERROR "sign --hash ${name}: exit 2 without naming the hash\n${err}")
    endif()
  elseif(rc EQUAL 1)
    # The module knows the hash but not RSA with it.
    if(NOT err MATCHES "FM_ERR_UNSUPPORTED")
      message(FATAL_ERROR "sign --hash ${name}: exit 1\n${err}")
    endif()
  elseif(rc EQUAL 0)
    execute_process(COMMAND "${CLI}" verify --key "${KEY}" --pkcs1 --hash ${name}
      --sig "${WORK}/other.sig" "${msg}" RESULT_VARIABLE rc OUTPUT_VARIABLE out)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "sign --hash ${name} made a signature verify --hash ${name} refuses")
    endif()
  else()
    message(FATAL_ERROR "sign --hash ${name}: exit ${rc}\n${err}")
  endif()
endforeach()
