# fipsmod's ML-KEM and ML-DSA commands (OpenSSL 3.0 has neither, so round trips): keygen writes
# the seed form (PKCS#8 PEM, mode 0600 over a 0644 file), pubkey its SPKI; encap to the public
# or private key and decap give equal 32-byte secrets (files 0600), a changed ciphertext another
# secret (implicit rejection) and one of the wrong length exit 2; sign/verify with and without a
# context, hedged (two signatures differ) and --deterministic (equal), and a wrong context, a
# changed message or a changed signature fail with exit 1; every usage error exits 2 and names
# the mistake first; a key of another type says what it is.
#   -DCLI=<fipsmod> -DWORK=<scratch directory>
cmake_minimum_required(VERSION 3.20)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
file(WRITE "${WORK}/msg" "a message for ML-DSA\n")
file(WRITE "${WORK}/other" "a message for ML-DSA.\n")

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
  execute_process(COMMAND stat -c %a "${WORK}/${path}" OUTPUT_VARIABLE m
    OUTPUT_STRIP_TRAILING_WHITESPACE)
  set(${out} "${m}" PARENT_SCOPE)
endfunction()

function(hex_of path out)
  file(READ "${WORK}/${path}" x HEX)
  set(${out} "${x}" PARENT_SCOPE)
endfunction()

# The DER of a PEM file's first block: its length in bytes.
function(der_len pem out)
  file(STRINGS "${WORK}/${pem}" lines REGEX "^[A-Za-z0-9+/=]+$")
  string(JOIN "" b64 ${lines})
  string(LENGTH "${b64}" n)
  string(REGEX MATCHALL "=" pad "${b64}")
  list(LENGTH pad p)
  math(EXPR len "${n} / 4 * 3 - ${p}")
  set(${out} ${len} PARENT_SCOPE)
endfunction()

# ML-KEM: name, ciphertext length, seed-form PKCS#8 length (22 + 2 + 64 bytes).
foreach(p "512;768" "768;1088" "1024;1568")
  list(GET p 0 n)
  list(GET p 1 ct_len)
  file(WRITE "${WORK}/kem${n}.pem" "old\n")
  execute_process(COMMAND chmod 0644 "${WORK}/kem${n}.pem")
  run(0 "" "${CLI}" keygen --ml-kem ${n} --out kem${n}.pem)
  mode_of(kem${n}.pem m)
  file(READ "${WORK}/kem${n}.pem" text)
  der_len(kem${n}.pem len)
  if(NOT m STREQUAL "600" OR NOT text MATCHES "^-----BEGIN PRIVATE KEY-----\n" OR
     NOT len EQUAL 86)
    message(FATAL_ERROR "keygen --ml-kem ${n}: mode ${m}, ${len} DER bytes (86, the seed form)")
  endif()
  run(0 "^-----BEGIN PUBLIC KEY-----\n" "${CLI}" pubkey kem${n}.pem)
  run(0 "" "${CLI}" pubkey kem${n}.pem --out kem${n}-pub.pem)
  foreach(k kem${n}-pub.pem kem${n}.pem)
    run(0 "" "${CLI}" encap --key ${k} --out ct --secret ss-a)
    run(0 "" "${CLI}" decap --key kem${n}.pem --in ct --secret ss-b)
    hex_of(ss-a a)
    hex_of(ss-b b)
    hex_of(ct c)
    string(LENGTH "${a}" al)
    string(LENGTH "${c}" cl)
    math(EXPR cl "${cl} / 2")
    if(NOT al EQUAL 64 OR NOT a STREQUAL b OR NOT cl EQUAL ct_len)
      message(FATAL_ERROR "ML-KEM-${n} to ${k}: secrets ${a} / ${b}, ciphertext ${cl} bytes")
    endif()
    mode_of(ss-a ma)
    mode_of(ss-b mb)
    if(NOT ma STREQUAL "600" OR NOT mb STREQUAL "600")
      message(FATAL_ERROR "ML-KEM-${n}: secret files mode ${ma} and ${mb}, expected 600")
    endif()
  endforeach()
  # A changed ciphertext: another secret, exit 0 (implicit rejection).
  string(SUBSTRING "${c}" 2 -1 rest)
  string(SUBSTRING "${c}" 0 2 first)
  if(first STREQUAL "00")
    set(first "01")
  else()
    set(first "00")
  endif()
  file(WRITE "${WORK}/ct-bad.hex" "${first}${rest}")
  execute_process(COMMAND xxd -r -p ct-bad.hex ct-bad WORKING_DIRECTORY "${WORK}"
    RESULT_VARIABLE xrc)
  if(xrc EQUAL 0)
    run(0 "" "${CLI}" decap --key kem${n}.pem --in ct-bad --secret ss-c)
    hex_of(ss-c cc)
    if(cc STREQUAL b OR NOT cc MATCHES "^[0-9a-f]+$")
      message(FATAL_ERROR "ML-KEM-${n}: a changed ciphertext gave the same secret")
    endif()
  endif()
  # A ciphertext of the wrong length, a public key to decap: exit 2.
  run(2 "^fipsmod decap: msg is 21 bytes: an ML-KEM-${n} ciphertext is ${ct_len}\n" "${CLI}"
    decap --key kem${n}.pem --in msg --secret ss-d)
  run(2 "^fipsmod decap: kem${n}-pub.pem is a public key" "${CLI}" decap --key kem${n}-pub.pem
    --in ct --secret ss-d)
endforeach()

# ML-DSA: seed-form PKCS#8 is 22 + 2 + 32 bytes.
foreach(n 44 65 87)
  run(0 "" "${CLI}" keygen --ml-dsa ${n} --out dsa${n}.pem)
  mode_of(dsa${n}.pem m)
  der_len(dsa${n}.pem len)
  if(NOT m STREQUAL "600" OR NOT len EQUAL 54)
    message(FATAL_ERROR "keygen --ml-dsa ${n}: mode ${m}, ${len} DER bytes (54, the seed form)")
  endif()
  run(0 "" "${CLI}" pubkey dsa${n}.pem --out dsa${n}-pub.pem)
  set(ok "^Verified OK\n")
  set(bad "^Verification failure\n")
  # No context.
  run(0 "" "${CLI}" sign --key dsa${n}.pem --ml-dsa --out s0 msg)
  run(0 "${ok}" "${CLI}" verify --key dsa${n}-pub.pem --ml-dsa --sig s0 msg)
  run(0 "${ok}" "${CLI}" verify --key dsa${n}.pem --ml-dsa --sig s0 msg)
  run(1 "${bad}" "${CLI}" verify --key dsa${n}-pub.pem --ml-dsa --sig s0 other)
  run(1 "${bad}" "${CLI}" verify --key dsa${n}-pub.pem --ml-dsa --context 00 --sig s0 msg)
  # A context (255 bytes at most), as hex text signatures.
  string(REPEAT "ab" 255 ctx)
  run(0 "" "${CLI}" sign --key dsa${n}.pem --ml-dsa --context ${ctx} --hex --out s1 msg)
  run(0 "${ok}" "${CLI}" verify --key dsa${n}-pub.pem --ml-dsa --context ${ctx} --sig s1 msg)
  run(1 "${bad}" "${CLI}" verify --key dsa${n}-pub.pem --ml-dsa --sig s1 msg)
  string(REPEAT "ab" 254 ctx2)
  run(1 "${bad}" "${CLI}" verify --key dsa${n}-pub.pem --ml-dsa --context ${ctx2}ac --sig s1 msg)
  # A changed signature.
  hex_of(s0 sig)
  string(SUBSTRING "${sig}" 0 20 head)
  string(SUBSTRING "${sig}" 22 -1 tail)
  file(WRITE "${WORK}/s0-bad.hex" "${head}ff${tail}\n")
  if(NOT "${head}ff${tail}" STREQUAL sig)
    run(1 "${bad}" "${CLI}" verify --key dsa${n}-pub.pem --ml-dsa --sig s0-bad.hex msg)
  endif()
  # Hedged signatures differ; deterministic ones are equal, and verify.
  run(0 "" "${CLI}" sign --key dsa${n}.pem --ml-dsa --out s2 msg)
  hex_of(s2 sig2)
  run(0 "" "${CLI}" sign --key dsa${n}.pem --ml-dsa --deterministic --context 01 --out d1 msg)
  run(0 "" "${CLI}" sign --key dsa${n}.pem --ml-dsa --deterministic --context 01 --base64
    --out d2 msg)
  run(0 "${ok}" "${CLI}" verify --key dsa${n}-pub.pem --ml-dsa --context 01 --sig d2 msg)
  hex_of(d1 dd1)
  run(0 "" "${CLI}" sign --key dsa${n}.pem --ml-dsa --deterministic --context 01 --out d3 msg)
  hex_of(d3 dd3)
  if(sig STREQUAL sig2 OR NOT dd1 STREQUAL dd3)
    message(FATAL_ERROR "ML-DSA-${n}: hedged signatures equal, or deterministic ones differ")
  endif()
endforeach()

# A key of another type names what it is; a public key cannot sign.
run(2 "^fipsmod sign: kem512.pem: an ML-KEM-512 key, not an ML-DSA key \\(FM_ERR_UNSUPPORTED"
  "${CLI}" sign --key kem512.pem --ml-dsa msg)
run(2 "^fipsmod encap: dsa44.pem: an ML-DSA-44 key, not an ML-KEM key \\(FM_ERR_UNSUPPORTED"
  "${CLI}" encap --key dsa44.pem --out ct --secret ss)
run(2 "^fipsmod sign: dsa44.pem: an ML-DSA-44 key, not an RSA key" "${CLI}" sign
  --key dsa44.pem --pss --hash sha256 msg)
run(2 "^fipsmod derive: kem768.pem: an ML-KEM-768 key, not an EC key" "${CLI}" derive
  --key kem768.pem --peer kem768.pem)
run(2 "^fipsmod sign: dsa65-pub.pem is a public key: signing needs the private key" "${CLI}"
  sign --key dsa65-pub.pem --ml-dsa msg)
run(0 "" "${CLI}" keygen --ec P-256 --out ec.pem)
run(2 "^fipsmod sign: ec.pem: an EC key \\(P-256\\), not an ML-DSA key \\(FM_ERR_UNSUPPORTED"
  "${CLI}" sign --key ec.pem --ml-dsa msg)
run(2 "^fipsmod decap: ec.pem: an EC key \\(P-256\\), not an ML-KEM key" "${CLI}" decap
  --key ec.pem --in ct --secret ss)

# Usage errors: the mistake first, in one line, then the synopsis; exit 2.
set(u "\nusage: fipsmod")
foreach(c
    "keygen: unsupported ML-KEM parameter set 256 \\(512, 768 or 1024\\)${u} keygen|keygen;--ml-kem;256"
    "keygen: unsupported ML-DSA parameter set 33 \\(44, 65 or 87\\)${u} keygen|keygen;--ml-dsa;33"
    "keygen: unsupported curve P-192 \\(P-256, P-384, P-521 or P-224\\)${u}|keygen;--ec;P-192"
    "keygen: --rsa, --ec, --ml-kem and --ml-dsa exclude each other${u}|keygen;--ec;P-256;--ml-kem;512"
    "keygen: --pkcs1 is for --rsa${u}|keygen;--ml-dsa;44;--pkcs1"
    "keygen: --ml-kem needs a value${u}|keygen;--ml-kem"
    "sign: --hash is not for --ml-dsa \\(pure ML-DSA signs the message\\)${u}|sign;--key;dsa44.pem;--ml-dsa;--hash;sha256;msg"
    "sign: --context is for --ml-dsa${u}|sign;--key;ec.pem;--ecdsa;--hash;sha256;--context;00;msg"
    "sign: --deterministic is for --ml-dsa${u}|sign;--key;ec.pem;--ecdsa;--hash;sha256;--deterministic;msg"
    "sign: --context takes up to 255 bytes in hex, not 0g${u}|sign;--key;dsa44.pem;--ml-dsa;--context;0g;msg"
    "sign: --context takes up to 255 bytes in hex, not abc${u}|sign;--key;dsa44.pem;--ml-dsa;--context;abc;msg"
    "sign: --context takes up to 255 bytes in hex, not (ab)+${u}|sign;--key;dsa44.pem;--ml-dsa;--context;${ctx}ab;msg"
    "sign: --pss, --pkcs1, --ecdsa and --ml-dsa exclude each other${u}|sign;--key;ec.pem;--ecdsa;--ml-dsa;msg"
    "sign: --hash H is required${u}|sign;--key;ec.pem;--ecdsa;msg"
    "sign: --context needs a value${u}|sign;--key;dsa44.pem;--ml-dsa;msg;--context"
    "verify: --sig SIG is required${u}|verify;--key;dsa44.pem;--ml-dsa;msg"
    "verify: unknown option --deterministic${u}|verify;--key;dsa44.pem;--ml-dsa;--deterministic;--sig;s0;msg"
    "derive: --key KEY is required${u} derive|derive;--peer;ec.pem"
    "derive: --peer PEER is required${u} derive|derive;--key;ec.pem"
    "derive: unknown option --hex${u} derive|derive;--key;ec.pem;--peer;ec.pem;--hex"
    "derive: unexpected argument extra${u} derive|derive;--key;ec.pem;--peer;ec.pem;extra"
    "encap: --key KEY is required${u} encap|encap;--out;ct;--secret;ss"
    "encap: --out CT is required${u} encap|encap;--key;kem512.pem;--secret;ss"
    "encap: --secret SS is required${u} encap|encap;--key;kem512.pem;--out;ct"
    "encap: unknown option --in${u} encap|encap;--key;kem512.pem;--in;ct;--secret;ss"
    "decap: --in CT is required${u} decap|decap;--key;kem512.pem;--secret;ss"
    "decap: --secret SS is required${u} decap|decap;--key;kem512.pem;--in;ct"
    "decap: --secret needs a value${u} decap|decap;--key;kem512.pem;--in;ct;--secret")
  string(FIND "${c}" "|" bar)
  string(SUBSTRING "${c}" 0 ${bar} regex)
  math(EXPR bar "${bar} + 1")
  string(SUBSTRING "${c}" ${bar} -1 args)
  run(2 "^fipsmod ${regex}" "${CLI}" ${args})
endforeach()
message("ML-KEM and ML-DSA: keygen, pubkey, encap/decap, sign/verify and usage errors")
