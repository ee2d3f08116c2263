# `fipsmod dgst` prints what sha256sum/sha384sum/sha512sum print (and `sha256sum -c` reads it),
# its HMAC tags are OpenSSL's, `fipsmod kdf` derives RFC 5869's and OpenSSL's keys, and
# signatures written as hex or base64 are the raw ones and verify as they are.
#   -DCLI=<fipsmod> -DOPENSSL=<openssl> -DSHASUM_DIR=<folder of sha256sum> -DKEY=<RSA PKCS#8 PEM>
#   -DWORK=<scratch directory>
cmake_minimum_required(VERSION 3.20)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")

# run(<var> <expected exit> <command...>): stdout in <var>, stderr in <var>_err.
function(run var want)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
    WORKING_DIRECTORY "${WORK}")
  if(NOT rc STREQUAL "${want}")
    string(REPLACE ";" " " cmd "${ARGN}")
    message(FATAL_ERROR "${cmd}: exit ${rc}, expected ${want}\n${out}${err}")
  endif()
  set(${var} "${out}" PARENT_SCOPE)
  set(${var}_err "${err}" PARENT_SCOPE)
endfunction()

function(expect_equal what got want)
  if(NOT got STREQUAL want)
    message(FATAL_ERROR "${what}:\n got: ${got}\nwant: ${want}")
  endif()
endfunction()

# --- dgst against coreutils -----------------------------------------------------------------
file(WRITE "${WORK}/a.txt" "abc")
file(WRITE "${WORK}/empty.txt" "")
string(REPEAT "0123456789abcdef" 20000 big)
file(WRITE "${WORK}/big.txt" "${big}")
file(WRITE "${WORK}/back\\slash.txt" "a name with a backslash")
set(files a.txt empty.txt big.txt "back\\slash.txt")
foreach(bits 256 384 512)
  run(want 0 "${SHASUM_DIR}/sha${bits}sum" ${files})
  foreach(name sha${bits} SHA2-${bits})
    run(got 0 "${CLI}" dgst --hash ${name} ${files})
    expect_equal("dgst --hash ${name}" "${got}" "${want}")
  endforeach()
  # Standard input: "-", and no file at all.
  run(want 0 sh -c "'${SHASUM_DIR}/sha${bits}sum' < a.txt")
  run(got 0 sh -c "'${CLI}' dgst --hash sha${bits} < a.txt")
  expect_equal("dgst --hash sha${bits} (stdin)" "${got}" "${want}")
  run(got 0 sh -c "'${CLI}' dgst --hash sha${bits} - < a.txt")
  expect_equal("dgst --hash sha${bits} -" "${got}" "${want}")
endforeach()
run(got 0 "${CLI}" dgst --hash sha256 ${files})
file(WRITE "${WORK}/sums" "${got}")
# Options after the files, as sha256sum takes them, and "--" before a file named like an option.
run(after 0 "${CLI}" dgst ${files} --hash sha256)
expect_equal("dgst FILES --hash sha256" "${after}" "${got}")
file(WRITE "${WORK}/--hash" "abc")
run(dashed 0 "${CLI}" dgst --hash sha256 -- --hash)
expect_equal("dgst -- --hash" "${dashed}"
  "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  --hash\n")
run(check 0 "${SHASUM_DIR}/sha256sum" -c sums)
# FIPS 180-4's "abc" example.
run(got 0 "${CLI}" dgst --hash sha-256 a.txt)
expect_equal("SHA-256(abc)" "${got}"
  "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  a.txt\n")
# An unreadable file: exit 2, the others are still hashed.
run(got 2 "${CLI}" dgst --hash sha256 a.txt no-such-file empty.txt)
if(NOT got MATCHES "  a.txt\n.*  empty.txt\n$" OR NOT got_err MATCHES "cannot read no-such-file")
  message(FATAL_ERROR "dgst with a missing file:\n${got}${got_err}")
endif()

# --- HMAC against OpenSSL -------------------------------------------------------------------
set(hkey 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f)
file(WRITE "${WORK}/hmac.key" "raw key bytes, 32 of them......")
foreach(bits 256 384 512)
  run(ref 0 "${OPENSSL}" dgst -sha${bits} -mac HMAC -macopt hexkey:${hkey} big.txt)
  string(REGEX REPLACE "^.*= ([0-9a-f]+)\n$" "\\1" ref "${ref}")
  run(got 0 "${CLI}" dgst --hash sha${bits} --hmac ${hkey} big.txt)
  expect_equal("dgst --hmac (sha${bits})" "${got}" "${ref}  big.txt\n")
  if(NOT got_err STREQUAL "")
    message(FATAL_ERROR "a 256-bit HMAC key is approved, yet: ${got_err}")
  endif()
  run(ref 0 "${OPENSSL}" dgst -sha${bits} -hmac "raw key bytes, 32 of them......" a.txt)
  string(REGEX REPLACE "^.*= ([0-9a-f]+)\n$" "\\1" ref "${ref}")
  run(got 0 "${CLI}" dgst --hash sha${bits} --hmac-key hmac.key a.txt)
  expect_equal("dgst --hmac-key (sha${bits})" "${got}" "${ref}  a.txt\n")
endforeach()
# A short key works and is reported as not approved.
run(got 0 "${CLI}" dgst --hash sha256 --hmac 6b6579 a.txt)
if(NOT got_err MATCHES "not an approved service")
  message(FATAL_ERROR "a 24-bit HMAC key, and no word of it: ${got_err}")
endif()

# --- kdf ------------------------------------------------------------------------------------
# RFC 5869 A.1 (SHA-256, test case 1).
run(got 0 "${CLI}" kdf hkdf --hash sha256 --key 0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b
  --salt 000102030405060708090a0b0c --info f0f1f2f3f4f5f6f7f8f9 --length 42)
expect_equal("RFC 5869 A.1" "${got}"
  "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865\n")
# RFC 5869 A.3: no salt, no info.
run(got 0 "${CLI}" kdf hkdf --hash sha256 --key 0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b
  --length 42)
expect_equal("RFC 5869 A.3" "${got}"
  "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8\n")
foreach(bits 256 384 512)
  set(salt 73616c7473616c7473616c7473616c74)
  run(ref 0 "${OPENSSL}" kdf -keylen 40 -kdfopt digest:SHA${bits} -kdfopt pass:password
    -kdfopt hexsalt:${salt} -kdfopt iter:1000 PBKDF2)
  string(REPLACE ":" "" ref "${ref}")
  string(STRIP "${ref}" ref)
  string(TOLOWER "${ref}\n" ref)
  run(got 0 "${CLI}" kdf pbkdf2 --hash sha${bits} --pass password --salt ${salt} --iter 1000
    --length 40)
  expect_equal("kdf pbkdf2 (sha${bits})" "${got}" "${ref}")
  file(WRITE "${WORK}/pass.txt" "password\nnot the password\n")
  run(got 0 "${CLI}" kdf pbkdf2 --hash sha${bits} --pass-file pass.txt --salt ${salt} --iter 1000
    --length 40)
  expect_equal("kdf pbkdf2 --pass-file (sha${bits})" "${got}" "${ref}")
  set(k 00112233445566778899aabbccddeeff)
  run(ref 0 "${OPENSSL}" kdf -keylen 48 -kdfopt mac:HMAC -kdfopt digest:SHA${bits}
    -kdfopt hexkey:${k} -kdfopt hexsalt:6c6162656c -kdfopt hexinfo:636f6e74657874 KBKDF)
  string(REPLACE ":" "" ref "${ref}")
  string(STRIP "${ref}" ref)
  string(TOLOWER "${ref}\n" ref)
  run(got 0 "${CLI}" kdf kbkdf --hash sha${bits} --key ${k} --label 6c6162656c
    --context 636f6e74657874 --length 48)
  expect_equal("kdf kbkdf (sha${bits})" "${got}" "${ref}")
  # The same fixed data given whole: Label || 0x00 || Context || [384]_32.
  run(got 0 "${CLI}" kdf kbkdf --hash sha${bits} --key ${k}
    --fixed 6c6162656c00636f6e7465787400000180 --length 48)
  expect_equal("kdf kbkdf --fixed (sha${bits})" "${got}" "${ref}")
endforeach()
file(WRITE "${WORK}/kdk.bin" "0123456789abcdef")
run(got 0 "${CLI}" kdf kbkdf --hash sha256 --key-file kdk.bin --fixed 00 --length 32
  --out dk.bin)
file(SIZE "${WORK}/dk.bin" n)
expect_equal("kdf --out: bytes written" "${n}" "32")
file(READ "${WORK}/dk.bin" dk HEX)
run(got 0 "${CLI}" kdf kbkdf --hash sha256 --key 30313233343536373839616263646566 --fixed 00
  --length 32)
expect_equal("kdf --out holds the key" "${dk}\n" "${got}")
run(got 2 "${CLI}" kdf scrypt --hash sha256)
if(NOT got_err MATCHES "^fipsmod kdf: unsupported KDF scrypt")
  message(FATAL_ERROR "kdf scrypt: ${got_err}")
endif()
run(got 2 "${CLI}" kdf hkdf --hash sha256 --key 00 --iter 5 --length 5)
if(NOT got_err MATCHES "^fipsmod kdf: --iter is not an option of kdf hkdf")
  message(FATAL_ERROR "kdf hkdf --iter: ${got_err}")
endif()

# --- signatures as hex and base64 -----------------------------------------------------------
run(raw 0 "${CLI}" sign --key "${KEY}" --pkcs1 --hash sha256 --out raw.sig a.txt)
file(READ "${WORK}/raw.sig" raw_hex HEX)
run(hex 0 "${CLI}" sign --key "${KEY}" --pkcs1 --hash sha256 --hex a.txt)
expect_equal("sign --hex" "${hex}" "${raw_hex}\n")
run(b64 0 "${CLI}" sign --key "${KEY}" --pkcs1 --hash sha256 --base64 --out b64.sig a.txt)
run(dec 0 "${OPENSSL}" base64 -d -A -in b64.sig -out b64.raw)
file(READ "${WORK}/b64.raw" b64_hex HEX)
expect_equal("sign --base64" "${b64_hex}" "${raw_hex}")
file(WRITE "${WORK}/hex.sig" "${hex}")
foreach(sig raw.sig hex.sig b64.sig)
  run(v 0 "${CLI}" verify --key "${KEY}" --pkcs1 --hash sha256 --sig ${sig} a.txt)
  run(v 1 "${CLI}" verify --key "${KEY}" --pkcs1 --hash sha256 --sig ${sig} empty.txt)
endforeach()
run(pss 0 "${CLI}" sign --key "${KEY}" --pss --hash sha256 --base64 --out pss.b64 a.txt)
run(v 0 "${CLI}" verify --key "${KEY}" --pss --hash sha256 --sig pss.b64 a.txt)
