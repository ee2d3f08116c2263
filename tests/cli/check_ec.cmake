# fipsmod's EC commands against the openssl command: keys openssl makes (genpkey PKCS#8 and
# ecparam -genkey SEC1) sign with `fipsmod sign --ecdsa` and verify with `openssl dgst -verify`,
# and openssl's DER signatures verify with `fipsmod verify --ecdsa` (private or public key, raw,
# hex or base64 text); a changed message or signature fails (exit 1); `fipsmod keygen --ec` keys
# are read by openssl; `fipsmod derive` equals `openssl pkeyutl -derive` both ways; keygen --out
# over a 0644 file leaves mode 0600, and derive --out writes 0600.
#   -DCLI=<fipsmod> -DOPENSSL=<openssl> -DWORK=<scratch directory>
cmake_minimum_required(VERSION 3.20)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
file(WRITE "${WORK}/msg" "a message for ECDSA, signed by one and checked by the other\n")
file(WRITE "${WORK}/other" "another message\n")

# run(<expected exit> <regex for stdout+stderr, or ""> <command...>), in WORK.
function(run want regex)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
    WORKING_DIRECTORY "${WORK}")
  string(REPLACE ";" " " cmd "${ARGN}")
  if(NOT rc STREQUAL "${want}")
    message(FATAL_ERROR "${cmd}: exit ${rc}, expected ${want}\n${out}${err}")
  endif()
  if(NOT regex STREQUAL "" AND NOT "${out}${err}" MATCHES "${regex}")
    message(FATAL_ERROR "${cmd}: output does not match ${regex}\n${out}${err}")
  endif()
endfunction()

function(mode_of path out)
  execute_process(COMMAND stat -c %a "${path}" OUTPUT_VARIABLE m OUTPUT_STRIP_TRAILING_WHITESPACE)
  set(${out} "${m}" PARENT_SCOPE)
endfunction()

function(same a b what)
  file(READ "${WORK}/${a}" x HEX)
  file(READ "${WORK}/${b}" y HEX)
  if(x STREQUAL "" OR NOT x STREQUAL y)
    message(FATAL_ERROR "${what}: ${a} (${x}) differs from ${b} (${y})")
  endif()
endfunction()

set(ok "^Verified OK\n")
set(bad "^Verification failure\n")
foreach(c "P-256;sha256" "P-384;sha384" "P-521;sha512" "P-224;sha256")
  list(GET c 0 curve)
  list(GET c 1 h)
  # openssl's PKCS#8 key and public key, and a SEC1 key (ecparam -genkey, with its
  # EC PARAMETERS block).
  run(0 "" "${OPENSSL}" genpkey -algorithm EC -pkeyopt ec_paramgen_curve:${curve}
    -out ${curve}.pem)
  run(0 "" "${OPENSSL}" pkey -in ${curve}.pem -pubout -out ${curve}-pub.pem)
  if(curve STREQUAL "P-256")
    run(0 "" "${OPENSSL}" ecparam -name prime256v1 -genkey -out sec1.pem)
    run(0 "" "${OPENSSL}" pkey -in sec1.pem -pubout -out sec1-pub.pem)
    set(keys ${curve} sec1)
  else()
    set(keys ${curve})
  endif()
  foreach(k ${keys})
    # fipsmod signs, openssl verifies (and fipsmod, with the private and the public key).
    run(0 "" "${CLI}" sign --key ${k}.pem --ecdsa --hash ${h} --out ${k}-fm.sig msg)
    run(0 "Verified OK" "${OPENSSL}" dgst -${h} -verify ${k}-pub.pem -signature ${k}-fm.sig msg)
    run(0 "${ok}" "${CLI}" verify --key ${k}.pem --ecdsa --hash ${h} --sig ${k}-fm.sig msg)
    run(1 "${bad}" "${CLI}" verify --key ${k}-pub.pem --ecdsa --hash ${h} --sig ${k}-fm.sig other)
    # openssl signs, fipsmod verifies: raw DER, and its hex and base64 text.
    run(0 "" "${OPENSSL}" dgst -${h} -sign ${k}.pem -out ${k}-ossl.sig msg)
    run(0 "${ok}" "${CLI}" verify --key ${k}-pub.pem --ecdsa --hash ${h} --sig ${k}-ossl.sig msg)
    run(1 "${bad}" "${CLI}" verify --key ${k}.pem --ecdsa --hash ${h} --sig ${k}-ossl.sig other)
    file(READ "${WORK}/${k}-ossl.sig" der HEX)
    file(WRITE "${WORK}/${k}-ossl.hex" "${der}\n")
    run(0 "${ok}" "${CLI}" verify --key ${k}-pub.pem --ecdsa --hash ${h} --sig ${k}-ossl.hex msg)
    # A signature with its last byte changed (s changed, or not DER any more) fails.
    string(LENGTH "${der}" n)
    math(EXPR n "${n} - 2")
    string(SUBSTRING "${der}" 0 ${n} head)
    string(SUBSTRING "${der}" ${n} 2 last)
    if(last STREQUAL "01")
      set(last "02")
    else()
      set(last "01")
    endif()
    file(WRITE "${WORK}/${k}-bad.hex" "${head}${last}\n")
    run(1 "${bad}" "${CLI}" verify --key ${k}-pub.pem --ecdsa --hash ${h} --sig ${k}-bad.hex msg)
  endforeach()
  # --hex and --base64 signatures of fipsmod verify.
  run(0 "" "${CLI}" sign --key ${curve}.pem --ecdsa --hash ${h} --base64 --out b64.sig msg)
  run(0 "${ok}" "${CLI}" verify --key ${curve}-pub.pem --ecdsa --hash ${h} --sig b64.sig msg)
  run(0 "" "${CLI}" sign --key ${curve}.pem --ecdsa --hash ${h} --hex --out hex.sig msg)
  run(0 "${ok}" "${CLI}" verify --key ${curve}-pub.pem --ecdsa --hash ${h} --sig hex.sig msg)

  # fipsmod's keys: openssl reads them, and derive agrees with openssl's both ways.
  run(0 "" "${CLI}" keygen --ec ${curve} --out fm-${curve}.pem)
  run(0 "" "${OPENSSL}" pkey -in fm-${curve}.pem -check -noout)
  run(0 "" "${CLI}" pubkey fm-${curve}.pem --out fm-${curve}-pub.pem)
  run(0 "" "${OPENSSL}" pkey -pubin -in fm-${curve}-pub.pem -noout)
  run(0 "" "${CLI}" derive --key fm-${curve}.pem --peer ${curve}-pub.pem --out z-fm.bin)
  run(0 "" "${OPENSSL}" pkeyutl -derive -inkey ${curve}.pem -peerkey fm-${curve}-pub.pem
    -out z-ossl.bin)
  same(z-fm.bin z-ossl.bin "derive on ${curve}")
  run(0 "" "${CLI}" derive --key ${curve}.pem --peer fm-${curve}.pem --out z-fm2.bin)
  same(z-fm2.bin z-ossl.bin "derive the other way on ${curve}")
  mode_of("${WORK}/z-fm.bin" m)
  if(NOT m STREQUAL "600")
    message(FATAL_ERROR "derive --out: mode ${m}, expected 600")
  endif()
endforeach()

# SEC1 key with openssl's ECDH too.
run(0 "" "${CLI}" derive --key sec1.pem --peer P-256-pub.pem --out z-sec1.bin)
run(0 "" "${OPENSSL}" pkeyutl -derive -inkey P-256.pem -peerkey sec1-pub.pem -out z-sec1-o.bin)
same(z-sec1.bin z-sec1-o.bin "derive with a SEC1 key")

# Refusals: keys of two curves, a public key to derive or sign with, a hash ECDSA does not take.
run(2 "^fipsmod derive: P-384-pub.pem is on P-384, P-256.pem on P-256" "${CLI}" derive
  --key P-256.pem --peer P-384-pub.pem)
run(2 "^fipsmod derive: P-256-pub.pem is a public key" "${CLI}" derive --key P-256-pub.pem
  --peer P-256.pem)
run(2 "^fipsmod sign: P-256-pub.pem is a public key" "${CLI}" sign --key P-256-pub.pem --ecdsa
  --hash sha256 msg)
run(2 "^fipsmod sign: P-256.pem: an EC key \\(P-256\\), not an RSA key \\(FM_ERR_UNSUPPORTED"
  "${CLI}" sign --key P-256.pem --pss --hash sha256 msg)

# keygen --ec --out over a 0644 file: 0600, openssl reads it.
file(WRITE "${WORK}/old.pem" "old contents\n")
execute_process(COMMAND chmod 0644 "${WORK}/old.pem")
run(0 "" "${CLI}" keygen --ec P-384 --out old.pem)
mode_of("${WORK}/old.pem" m)
file(READ "${WORK}/old.pem" text)
if(NOT m STREQUAL "600" OR NOT text MATCHES "^-----BEGIN PRIVATE KEY-----\n")
  message(FATAL_ERROR "keygen --ec over a 0644 file: mode ${m}, contents ${text}")
endif()
run(0 "ASN1 OID: secp384r1" "${OPENSSL}" pkey -in old.pem -noout -text)
message("EC: sign/verify/derive agree with openssl on P-256, P-384, P-521, P-224")
