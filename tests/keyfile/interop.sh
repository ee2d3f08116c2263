#!/usr/bin/env bash
# Keys and signatures interoperate with OpenSSL both ways:
#  - keys from openssl genpkey / rsa / pkey sign in fipsmod, and OpenSSL verifies;
#  - fipsmod's keys pass `openssl pkey -check`, and its signatures pass `openssl dgst -verify`;
#  - OpenSSL's signatures verify in fipsmod; a changed message fails (exit 1) in both.
# Usage: interop.sh FIPSMOD SCRATCH
set -euo pipefail
fipsmod=$1 dir=$2
rm -rf "$dir" && mkdir -p "$dir" && cd "$dir"
fail() { echo "interop: $*" >&2; exit 1; }

openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:3072 -out ossl8.pem 2>/dev/null
openssl rsa -in ossl8.pem -traditional -out ossl1.pem 2>/dev/null
openssl pkey -in ossl8.pem -outform DER -out ossl.der
openssl pkey -in ossl8.pem -pubout -out ossl.pub
"$fipsmod" keygen --rsa 2048 --out fm.pem
[ "$(stat -c %a fm.pem)" = 600 ] || fail "private key file is not mode 0600"
openssl pkey -in fm.pem -check -noout >/dev/null || fail "openssl pkey -check rejects fipsmod's key"
"$fipsmod" pubkey fm.pem --out fm.pub
"$fipsmod" pubkey -der -pkcs1 fm.pem -out fm-pub1.der
openssl rsa -RSAPublicKey_in -inform DER -in fm-pub1.der -noout 2>/dev/null || fail "PKCS#1 public DER"
cmp <(openssl pkey -in fm.pem -pubout) fm.pub || fail "fipsmod's SPKI differs from OpenSSL's"
head -c 100000 /dev/urandom > msg
printf 'other' > other

for h in sha256 sha384 sha512; do
  for key in ossl8.pem ossl1.pem ossl.der fm.pem; do
    pub=ossl.pub; [ "$key" = fm.pem ] && pub=fm.pub
    "$fipsmod" sign --key "$key" --pss --hash "$h" --out s.pss msg
    openssl dgst -"$h" -sigopt rsa_padding_mode:pss -sigopt rsa_pss_saltlen:-1 -verify "$pub" \
      -signature s.pss msg >/dev/null || fail "OpenSSL rejects fipsmod PSS $h with $key"
    "$fipsmod" sign -key "$key" -pkcs1 -hash "$h" -out s.p1 msg
    openssl dgst -"$h" -verify "$pub" -signature s.p1 msg >/dev/null ||
      fail "OpenSSL rejects fipsmod PKCS#1 $h with $key"
    if openssl dgst -"$h" -verify "$pub" -signature s.p1 other >/dev/null 2>&1; then
      fail "OpenSSL accepts a signature of a changed message"
    fi
  done
  for signer in ossl8.pem fm.pem; do
    pub=ossl.pub; [ "$signer" = fm.pem ] && pub=fm.pub
    openssl dgst -"$h" -sign "$signer" -out o.p1 msg
    openssl dgst -"$h" -sign "$signer" -sigopt rsa_padding_mode:pss -sigopt rsa_pss_saltlen:-1 -out o.pss msg
    "$fipsmod" verify --key "$pub" --pkcs1 --hash "$h" --sig o.p1 msg >/dev/null ||
      fail "fipsmod rejects OpenSSL's PKCS#1 $h"
    "$fipsmod" verify --key "$signer" --pss --hash "$h" --sig o.pss msg >/dev/null ||
      fail "fipsmod rejects OpenSSL's PSS $h"
    rc=0; "$fipsmod" verify --key "$pub" --pss --hash "$h" --sig o.pss other >/dev/null || rc=$?
    [ "$rc" = 1 ] || fail "a changed message gave exit $rc, not 1"
  done
done
rc=0; "$fipsmod" verify --key nonexistent --pss --hash sha256 --sig o.pss msg 2>/dev/null || rc=$?
[ "$rc" = 2 ] || fail "an unreadable key gave exit $rc, not 2"
echo "interop: keys and signatures agree with OpenSSL both ways"
