#!/usr/bin/env bash
# Encrypted PKCS#8 interoperates with OpenSSL both ways (openssl 3.x on PATH):
#  - keys from `openssl genpkey -aes-256-cbc` and `openssl pkcs8 -topk8 -v2 aes-*-cbc -v2prf
#    hmacWithSHA*` (RSA, EC) sign with `fipsmod sign --passin`, and OpenSSL verifies;
#  - keys from `fipsmod keygen --encrypt` (RSA, EC) are read by `openssl pkey -passin`, and
#    are the keys fipsmod signs with;
#  - ML-KEM and ML-DSA keys (which OpenSSL 3.0 cannot parse) encrypted by fipsmod are decrypted
#    with OpenSSL's PBKDF2 (`openssl kdf`) and AES-CBC (`openssl enc`) from the fields
#    `openssl asn1parse` shows, and the plain key gives the same public key;
#  - a wrong passphrase, no passphrase and a damaged file fail cleanly (exit 2, one message).
# Usage: pkcs8_interop.sh FIPSMOD SCRATCH. Exit 77 (skip) without openssl.
set -euo pipefail
fipsmod=$1 dir=$2
command -v openssl >/dev/null || { echo "pkcs8-interop: no openssl: skipped"; exit 77; }
rm -rf "$dir" && mkdir -p "$dir" && cd "$dir"
fail() { echo "pkcs8-interop: $*" >&2; exit 1; }
pw=correct-horse
printf '%s\n' "$pw" > pw.txt
export PKCS8_PW=$pw
head -c 5000 /dev/urandom > msg

# OpenSSL writes, fipsmod signs, OpenSSL verifies.
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -aes-256-cbc -pass pass:$pw -out rsa.pem 2>/dev/null
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -aes-256-cbc -pass pass:$pw -out ec.pem 2>/dev/null
openssl pkcs8 -topk8 -in ec.pem -passin pass:$pw -v2 aes-128-cbc -v2prf hmacWithSHA512 \
  -passout pass:$pw -outform DER -out ec128.der
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-384 -out p384.pem 2>/dev/null
openssl pkcs8 -topk8 -in p384.pem -v2 aes-192-cbc -v2prf hmacWithSHA384 -passout pass:$pw -out ec192.pem
grep -q "BEGIN ENCRYPTED PRIVATE KEY" rsa.pem || fail "openssl did not write encrypted PKCS#8"
"$fipsmod" sign --key rsa.pem --passin pass:$pw --pss --hash sha256 --out rsa.sig msg ||
  fail "fipsmod cannot sign with openssl's encrypted RSA key"
openssl pkey -in rsa.pem -passin pass:$pw -pubout -out rsa.pub
openssl dgst -sha256 -sigopt rsa_padding_mode:pss -sigopt rsa_pss_saltlen:-1 -verify rsa.pub \
  -signature rsa.sig msg >/dev/null || fail "OpenSSL rejects the RSA signature"
for k in ec.pem ec128.der ec192.pem; do
  "$fipsmod" sign --key "$k" --passin file:pw.txt --ecdsa --hash sha384 --out ec.sig msg ||
    fail "fipsmod cannot sign with openssl's encrypted EC key $k"
  openssl pkey -in "$k" -passin pass:$pw -pubout -out ec.pub
  openssl dgst -sha384 -verify ec.pub -signature ec.sig msg >/dev/null ||
    fail "OpenSSL rejects the ECDSA signature made with $k"
done
# The same key, read encrypted by both: the same public key.
cmp <("$fipsmod" pubkey ec192.pem --passin env:PKCS8_PW) <(openssl pkey -in ec192.pem -passin pass:$pw -pubout) \
  || fail "fipsmod and openssl read different public keys from ec192.pem"

# fipsmod writes, OpenSSL reads.
"$fipsmod" keygen --rsa 2048 --encrypt --passout pass:$pw --iter 10000 --out fm-rsa.pem
"$fipsmod" keygen --ec P-521 --encrypt --passout env:PKCS8_PW --out fm-ec.pem
"$fipsmod" keygen --ec P-256 --encrypt --passout fd:3 --iter 2048 --der --out fm-ec.der 3<pw.txt
for k in fm-rsa.pem fm-ec.pem fm-ec.der; do
  [ "$(stat -c %a "$k")" = 600 ] || fail "$k is not mode 0600"
  openssl pkey -in "$k" -passin pass:$pw -check -noout >/dev/null 2>&1 ||
    openssl pkey -in "$k" -passin pass:$pw -noout || fail "openssl pkey cannot read $k"
  if openssl pkey -in "$k" -passin pass:wrong -noout 2>/dev/null; then
    fail "openssl reads $k with a wrong passphrase"
  fi
done
head -1 fm-rsa.pem | grep -q "BEGIN ENCRYPTED PRIVATE KEY" || fail "fipsmod's PEM label"
openssl asn1parse -in fm-ec.pem | grep -q "hmacWithSHA256" || fail "fipsmod's PRF is not hmacWithSHA256"
openssl asn1parse -in fm-ec.pem | grep -q "aes-256-cbc" || fail "fipsmod's cipher is not aes-256-cbc"
openssl asn1parse -in fm-ec.pem | grep -q "INTEGER *:0927C0" || fail "the default iteration count is not 600000"
"$fipsmod" sign --key fm-ec.pem --passin env:PKCS8_PW --ecdsa --hash sha512 --out s.sig msg
openssl pkey -in fm-ec.pem -passin pass:$pw -pubout -out fm-ec.pub
openssl dgst -sha512 -verify fm-ec.pub -signature s.sig msg >/dev/null || fail "fipsmod's EC key"

# ML-KEM and ML-DSA: decrypted with OpenSSL's primitives from the parsed fields.
for t in "--ml-kem 768" "--ml-dsa 65"; do
  # shellcheck disable=SC2086
  "$fipsmod" keygen $t --encrypt --passout pass:$pw --iter 1000 --der --out pq.der
  parsed=$(openssl asn1parse -inform DER -in pq.der)
  salt=$(echo "$parsed" | awk '/OCTET STRING/ {print; exit}' | sed 's/.*\[HEX DUMP\]://')
  iter=$((16#$(echo "$parsed" | awk '/INTEGER/ {print; exit}' | sed 's/.*INTEGER *://')))
  iv=$(echo "$parsed" | awk '/OCTET STRING/ {n++} n == 2 {print; exit}' | sed 's/.*\[HEX DUMP\]://')
  [ "$iter" = 1000 ] || fail "iteration count $iter"
  key=$(openssl kdf -keylen 32 -kdfopt digest:SHA256 -kdfopt pass:$pw -kdfopt hexsalt:"$salt" \
        -kdfopt iter:"$iter" PBKDF2 | tr -d ':')
  # The ciphertext is the last element: its content is the file's tail.
  len=$(echo "$parsed" | tail -1 | sed 's/.*l= *\([0-9]*\).*/\1/')
  tail -c "$len" pq.der > ct.bin
  openssl enc -d -aes-256-cbc -K "$key" -iv "$iv" -in ct.bin -out plain.der ||
    fail "OpenSSL cannot decrypt fipsmod's $t key"
  cmp <("$fipsmod" pubkey plain.der) <("$fipsmod" pubkey pq.der --passin pass:$pw) ||
    fail "the $t key OpenSSL decrypted differs"
done

# Failures: each exits 2 with one line that says what was found; no output file.
expect_fail() {
  local want=$1; shift
  if "$@" > out 2> err; then fail "$* succeeded"; fi
  grep -q -- "$want" err || { cat err >&2; fail "$*: no \"$want\""; }
  [ ! -s out ] || fail "$*: wrote output"
}
expect_fail "this passphrase does not open" "$fipsmod" sign --key rsa.pem --passin pass:wrong --pss --hash sha256 msg
expect_fail "no passphrase" "$fipsmod" sign --key fm-ec.pem --ecdsa --hash sha256 msg
expect_fail "no passphrase" "$fipsmod" pubkey fm-ec.der
cp fm-ec.der bad.der
printf '\x00' | dd of=bad.der bs=1 seek=$(( $(stat -c %s bad.der) - 3 )) conv=notrunc 2>/dev/null
expect_fail "or a corrupt one" "$fipsmod" pubkey bad.der --passin pass:$pw
openssl pkcs8 -topk8 -in p384.pem -v2 des3 -passout pass:$pw -out des3.pem
expect_fail "des-ede3-cbc" "$fipsmod" pubkey des3.pem --passin pass:$pw
expect_fail "--passin takes" "$fipsmod" pubkey rsa.pem --passin "$pw"
echo "pkcs8-interop: ok"
