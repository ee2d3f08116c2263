/* libFuzzer target: fm_rsa_verify_pss with a fuzzed signature or encoded message, salt length
 * and message against the fixed key (input layout in fuzz_verify.h).
 * Properties: the status is FM_OK or FM_ERR_VERIFY (FM_ERR_UNSUPPORTED for an unknown hash);
 * with an encoded message, checked against EMSA-PSS-VERIFY written here (RFC 8017 9.1.2, MGF1
 * with the same hash, emBits = 2047): the module never accepts what the reference rejects, and
 * accepts what the reference accepts whenever the salt is at most the hash length (FIPS 186-5
 * 5.4 allows the module to refuse longer salts). */
#include "tests/fuzz/fuzz_verify.h"

#define EM_LEN FUZZ_K

/* mgf1 writes MGF1(seed, len) with |hash| into out (RFC 8017 B.2.1). */
static void mgf1(fm_hash_alg hash, size_t hlen, const uint8_t *seed, uint8_t *out, size_t len) {
  uint8_t block[64 + 4], digest[64];
  memcpy(block, seed, hlen);
  for (uint32_t counter = 0; len > 0; counter++) {
    block[hlen] = (uint8_t)(counter >> 24);
    block[hlen + 1] = (uint8_t)(counter >> 16);
    block[hlen + 2] = (uint8_t)(counter >> 8);
    block[hlen + 3] = (uint8_t)counter;
    FUZZ_ASSERT(fm_sha_digest(hash, block, hlen + 4, digest, sizeof(digest)) == FM_OK);
    size_t take = len < hlen ? len : hlen;
    memcpy(out, digest, take);
    out += take;
    len -= take;
  }
}

/* reference_verify is EMSA-PSS-VERIFY (RFC 8017 9.1.2) for emLen = 256, emBits = 2047; salt_len
 * FM_RSA_PSS_SALT_LEN_ANY takes the salt length from the padding. Returns 1 for "consistent" and
 * sets *found_salt_len. */
static int reference_verify(fm_hash_alg hash, size_t hlen, const uint8_t *msg, size_t msg_len,
                            const uint8_t em[EM_LEN], size_t salt_len, size_t *found_salt_len) {
  uint8_t mhash[64], db[EM_LEN], mprime[8 + 64 + EM_LEN], h2[64];
  FUZZ_ASSERT(fm_sha_digest(hash, msg, msg_len, mhash, sizeof(mhash)) == FM_OK); /* steps 1-2 */
  if (salt_len != FM_RSA_PSS_SALT_LEN_ANY && EM_LEN < hlen + salt_len + 2) return 0; /* 3 */
  if (em[EM_LEN - 1] != 0xbc) return 0;                                             /* 4 */
  size_t db_len = EM_LEN - hlen - 1;
  const uint8_t *h = em + db_len;                                                   /* 5 */
  if (em[0] & 0x80) return 0;                                        /* 6: 8*emLen - emBits = 1 */
  mgf1(hash, hlen, h, db, db_len);                                                  /* 7 */
  for (size_t i = 0; i < db_len; i++) db[i] ^= em[i];                               /* 8 */
  db[0] &= 0x7f;                                                                    /* 9 */
  size_t i = 0;                                                                     /* 10 */
  while (i < db_len && db[i] == 0) i++;
  if (i == db_len || db[i] != 0x01) return 0;
  size_t found = db_len - i - 1;
  if (salt_len != FM_RSA_PSS_SALT_LEN_ANY && found != salt_len) return 0;
  memset(mprime, 0, 8);                                                       /* 11-12: M' */
  memcpy(mprime + 8, mhash, hlen);
  memcpy(mprime + 8 + hlen, db + db_len - found, found);
  FUZZ_ASSERT(fm_sha_digest(hash, mprime, 8 + hlen + found, h2, sizeof(h2)) == FM_OK); /* 13 */
  *found_salt_len = found;
  return memcmp(h, h2, hlen) == 0;                                                  /* 14 */
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  fuzz_verify_init();
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_input in = {data, size};
  int em_mode = fuzz_byte(&in) & 1, known;
  size_t hlen;
  fm_hash_alg hash = fuzz_hash(fuzz_byte(&in), &known, &hlen);
  uint8_t salt_byte = fuzz_byte(&in);
  size_t salt_len = salt_byte == 0xff ? FM_RSA_PSS_SALT_LEN_ANY : salt_byte;
  const uint8_t *f, *s;
  size_t f_len, s_len;
  fuzz_field(&in, &f, &f_len);
  static uint8_t sig[FUZZ_K];
  uint8_t em[FUZZ_K];
  if (!fuzz_make_signature(em_mode, f, f_len, sig, &s, &s_len, em)) return 0;

  int st = fm_rsa_verify_pss(g_public, hash, in.p, in.n, salt_len, s, s_len);
  if (!known) {
    FUZZ_ASSERT(st == FM_ERR_UNSUPPORTED);
  } else {
    FUZZ_ASSERT(st == FM_OK || st == FM_ERR_VERIFY);
    if (em_mode) {
      size_t found = 0;
      int ref = reference_verify(hash, hlen, in.p, in.n, em, salt_len, &found);
      if (st == FM_OK) FUZZ_ASSERT(ref);
      if (ref && found <= hlen) FUZZ_ASSERT(st == FM_OK);
    }
    FUZZ_ASSERT(fm_rsa_verify_pss(g_private, hash, in.p, in.n, salt_len, s, s_len) == st);
  }
  fuzz_require_operational();
  return 0;
}
