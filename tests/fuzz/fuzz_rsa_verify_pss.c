/* libFuzzer target: fm_rsa_verify_pss with a fuzzed signature or encoded message, salt length
 * and message against the fixed key (input layout in fuzz_verify.h).
 * Properties: the status is FM_OK or FM_ERR_VERIFY (FM_ERR_UNSUPPORTED for an unknown hash);
 * with an encoded message (modes 1 and 2), checked against EMSA-PSS-VERIFY written here (RFC 8017 9.1.2, MGF1
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

/* reference_encode is EMSA-PSS-ENCODE (RFC 8017 9.1.1) for emLen = 256, emBits = 2047, with the
 * salt |salt|. Returns 0 when the salt does not fit (step 3). */
static int reference_encode(fm_hash_alg hash, size_t hlen, const uint8_t *msg, size_t msg_len,
                            const uint8_t *salt, size_t salt_len, uint8_t em[EM_LEN]) {
  uint8_t mhash[64], mprime[8 + 64 + EM_LEN], mask[EM_LEN];
  if (EM_LEN < hlen + salt_len + 2) return 0;                                  /* step 3 */
  FUZZ_ASSERT(fm_sha_digest(hash, msg, msg_len, mhash, sizeof(mhash)) == FM_OK); /* 1-2 */
  memset(mprime, 0, 8);                                                          /* 4-5 */
  memcpy(mprime + 8, mhash, hlen);
  memcpy(mprime + 8 + hlen, salt, salt_len);
  size_t db_len = EM_LEN - hlen - 1;
  uint8_t *h = em + db_len;
  FUZZ_ASSERT(fm_sha_digest(hash, mprime, 8 + hlen + salt_len, h, hlen) == FM_OK); /* 6 */
  memset(em, 0, db_len - salt_len - 1);                                          /* 7-8 */
  em[db_len - salt_len - 1] = 0x01;
  memcpy(em + db_len - salt_len, salt, salt_len);
  mgf1(hash, hlen, h, mask, db_len);                                             /* 9-10 */
  for (size_t i = 0; i < db_len; i++) em[i] ^= mask[i];
  em[0] &= 0x7f;                                                                 /* 11 */
  em[EM_LEN - 1] = 0xbc;                                                         /* 12 */
  return 1;
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  fuzz_verify_init();
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_input in = {data, size};
  int mode = fuzz_byte(&in) % 3, known;
  size_t hlen;
  fm_hash_alg hash = fuzz_hash(fuzz_byte(&in), &known, &hlen);
  uint8_t salt_byte = fuzz_byte(&in);
  size_t salt_len = salt_byte == 0xff ? FM_RSA_PSS_SALT_LEN_ANY : salt_byte;
  const uint8_t *f;
  size_t f_len;
  fuzz_field(&in, &f, &f_len);
  const uint8_t *msg = in.p;
  size_t msg_len = in.n;

  static uint8_t sig[FUZZ_K];
  uint8_t em[FUZZ_K];
  const uint8_t *s = f;
  size_t s_len = f_len;
  if (mode == 1) {
    if (!fuzz_em_from_field(f, f_len, em) || !fuzz_sign_em(f, f_len, sig)) return 0;
  } else if (mode == 2) {
    /* The salt: the first bytes of a fixed pattern, hLen of them for "any length". */
    uint8_t salt[EM_LEN];
    size_t n = salt_len == FM_RSA_PSS_SALT_LEN_ANY ? hlen : salt_len;
    for (size_t i = 0; i < n && i < sizeof(salt); i++) salt[i] = (uint8_t)(0x5a + 7 * i);
    if (!known || !reference_encode(hash, hlen, msg, msg_len, salt, n, em)) return 0;
    fuzz_apply_edits(f, f_len, em);
    if (!fuzz_sign_em(em, FUZZ_K, sig)) return 0;
  }
  if (mode != 0) {
    s = sig;
    s_len = FUZZ_K;
  }

  int st = fm_rsa_verify_pss(g_public, hash, msg, msg_len, salt_len, s, s_len);
  if (!known) {
    FUZZ_ASSERT(st == FM_ERR_UNSUPPORTED);
  } else {
    FUZZ_ASSERT(st == FM_OK || st == FM_ERR_VERIFY);
    if (mode != 0) {
      size_t found = 0;
      int ref = reference_verify(hash, hlen, msg, msg_len, em, salt_len, &found);
      if (st == FM_OK) FUZZ_ASSERT(ref);
      if (ref && found <= hlen) FUZZ_ASSERT(st == FM_OK);
    }
    FUZZ_ASSERT(fm_rsa_verify_pss(g_private, hash, msg, msg_len, salt_len, s, s_len) == st);
  }
  fuzz_require_operational();
  return 0;
}
