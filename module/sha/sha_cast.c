/* sha_selftest_ensure and hmac_selftest_ensure: the first-use known-answer tests (FIPS 140-3
 * IG 10.3.A) that the services of the module ask for before they hash or MAC with an algorithm.
 * The tests themselves are selftest/'s (kat.c's table); this maps an algorithm to its test. Not
 * part of the hash core: the post-link injector knows nothing of self-tests. */
#include "fipsmod/sha.h"
#include "module/internal.h"
#include "module/sha/internal.h"

int sha_selftest_ensure(fm_hash_alg alg) {
  switch (alg) {
    case FM_HASH_SHA256: return fm_selftest_ensure(FM_ST_SHA256_KAT);
    case FM_HASH_SHA384: return fm_selftest_ensure(FM_ST_SHA384_KAT);
    case FM_HASH_SHA512: return fm_selftest_ensure(FM_ST_SHA512_KAT);
    default: return FM_OK; /* an algorithm the module does not offer: refused by the caller */
  }
}

int hmac_selftest_ensure(fm_hash_alg alg) {
  switch (alg) {
    case FM_HASH_SHA256: return fm_selftest_ensure(FM_ST_HMAC_SHA256_KAT); /* at power-on */
    case FM_HASH_SHA384: return fm_selftest_ensure(FM_ST_HMAC_SHA384_KAT);
    case FM_HASH_SHA512: return fm_selftest_ensure(FM_ST_HMAC_SHA512_KAT);
    default: return FM_OK;
  }
}
