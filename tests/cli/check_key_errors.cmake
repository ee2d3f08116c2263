# A key file the module does not take is named for what it is: an EC key and its curve, an
# Ed25519 key, an RSASSA-PSS-restricted or multi-prime RSA key, an encrypted PKCS#8 or legacy
# encrypted PEM key, a certificate, an RSA key with e = 3; signing with a public key names the
# file. The keys OpenSSL makes at test time, the others are tests/vectors/keys.
#   -DCLI=<fipsmod> -DOPENSSL=<openssl> -DKEYS=<tests/vectors/keys> -DWORK=<scratch directory>
cmake_minimum_required(VERSION 3.20)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
file(WRITE "${WORK}/msg" "message\n")

function(openssl)
  execute_process(COMMAND "${OPENSSL}" ${ARGN} RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err
    WORKING_DIRECTORY "${WORK}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "openssl ${ARGN}: ${err}")
  endif()
endfunction()
openssl(genpkey -algorithm ed25519 -out ed25519.pem)
openssl(pkey -in ed25519.pem -pubout -outform DER -out ed25519-pub.der)
openssl(genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-384 -out p384.pem)
openssl(ecparam -name prime256v1 -genkey -noout -out p256-sec1.pem)
openssl(pkey -in p384.pem -pubout -out p384-pub.pem)
openssl(genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -pkeyopt rsa_keygen_pubexp:3
  -out e3.pem)
openssl(pkey -in e3.pem -pubout -out e3-pub.pem)
openssl(req -x509 -key ${KEYS}/rsa2048-pkcs8.pem -subj /CN=fipsmod -days 1 -out cert.pem)
openssl(x509 -in cert.pem -outform DER -out cert.der)

# expect(<file> <regex>): pubkey, sign and verify --pss all say it, exit 2. pubkey takes any key
# type, so a key of another algorithm the module takes is for sign and verify only (expect_rsa),
# and pubkey names an unsupported algorithm without ", not an RSA key".
function(expect file regex)
  set(cmds pubkey sign verify)
  if(ARGV2 STREQUAL "RSA_ONLY")
    set(cmds sign verify)
  endif()
  foreach(cmd ${cmds})
    set(want "${regex}")
    if(cmd STREQUAL "pubkey")
      string(REPLACE ", not an RSA key" "" want "${want}")
    endif()
    if(cmd STREQUAL "pubkey")
      set(args pubkey "${file}")
    elseif(cmd STREQUAL "sign")
      set(args sign --key "${file}" --pss --hash sha256 msg)
    else()
      set(args verify --key "${file}" --pss --hash sha256 --sig msg msg)
    endif()
    execute_process(COMMAND "${CLI}" ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out
      ERROR_VARIABLE err WORKING_DIRECTORY "${WORK}")
    set(want "^fipsmod ${cmd}: [^\n]*${file}: ${want}[^\n]* \\(FM_ERR_")
    if(NOT rc EQUAL 2 OR NOT err MATCHES "${want}")
      message(FATAL_ERROR "${cmd} ${file}: exit ${rc}, expected 2 and \"${regex}\":\n${err}")
    endif()
  endforeach()
endfunction()
expect(ed25519.pem "an Ed25519 key, not an RSA key")
expect(ed25519-pub.der "an Ed25519 key, not an RSA key")
expect(p384.pem "an EC key \\(P-384\\), not an RSA key" RSA_ONLY)
expect(p384-pub.pem "an EC key \\(P-384\\), not an RSA key" RSA_ONLY)
expect(p256-sec1.pem "an EC key \\(P-256\\), not an RSA key" RSA_ONLY)
expect(${KEYS}/ec-p256-pkcs8.pem "an EC key \\(P-256\\), not an RSA key" RSA_ONLY)
expect(e3.pem "an RSA key with e = 3, below 65537")
expect(e3-pub.pem "an RSA key with e = 3, below 65537")
expect(cert.pem "a certificate, not a key")
expect(cert.der "a certificate, not a key")
expect(${KEYS}/rsa2048-encrypted.pem "an encrypted PKCS#8 key")
expect(${KEYS}/rsa2048-legacy-encrypted.pem "a legacy OpenSSL-encrypted PEM key")
expect(${KEYS}/rsapss2048-pkcs8.pem "an RSASSA-PSS-restricted RSA key")
expect(${KEYS}/rsa2048-3prime-pkcs8.pem "a multi-prime RSA key")
expect(${KEYS}/rsa2048-3prime-pkcs1.der "a multi-prime RSA key")

# Signing with a public key names the file.
execute_process(COMMAND "${CLI}" sign --key ${KEYS}/rsa2048-spki.pem --pss --hash sha256
  "${WORK}/msg" RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_VARIABLE out)
if(NOT rc EQUAL 2 OR NOT err MATCHES
   "^fipsmod sign: [^\n]*rsa2048-spki.pem is a public key: signing needs the private key\n$")
  message(FATAL_ERROR "sign with a public key: exit ${rc}\n${err}")
endif()
