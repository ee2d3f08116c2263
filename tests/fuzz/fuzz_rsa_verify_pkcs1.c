/* libFuzzer target: fm_rsa_verify_pkcs1v15 with a fuzzed signature or encoded message and a
 * fuzzed message against the fixed key (input layout in fuzz_verify.h).
 * Properties: the status is FM_OK or FM_ERR_VERIFY (FM_ERR_UNSUPPORTED for an unknown hash);
 * with an encoded message (modes 1 and 2), FM_OK exactly when it is the one RFC 8017 9.2 builds
 * (the verification is strict), checked against the encoder written here. */
#include "tests/fuzz/fuzz_verify.h"

/* The OID arc of each hash under 2.16.840.1.101.3.4.2 (NIST's hashAlgs; RFC 8017 9.2 note 1 for
 * SHA-2, FIPS 202's registration for SHA-3). 0: no DigestInfo (the target then expects a refusal
 * of every signature). */
static uint8_t hash_arc(fm_hash_alg hash) {
  switch (hash) {
    case FM_HASH_SHA256: return 1;
    case FM_HASH_SHA384: return 2;
    case FM_HASH_SHA512: return 3;
    case FM_HASH_SHA224: return 4;
    case FM_HASH_SHA512_224: return 5;
    case FM_HASH_SHA512_256: return 6;
    case FM_HASH_SHA3_224: return 7;
    case FM_HASH_SHA3_256: return 8;
    case FM_HASH_SHA3_384: return 9;
    case FM_HASH_SHA3_512: return 10;
  }
  return 0;
}

/* reference_em builds EMSA-PKCS1-v1_5(M) for emLen = FUZZ_K (RFC 8017 9.2, steps 1-5): the DER
 * DigestInfo SEQUENCE { SEQUENCE { OID, NULL }, OCTET STRING digest }. */
static void reference_em(fm_hash_alg hash, size_t hlen, const uint8_t *msg, size_t msg_len,
                         uint8_t em[FUZZ_K]) {
  const uint8_t prefix[19] = {0x30, (uint8_t)(0x11 + hlen), 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86,
                              0x48, 0x01, 0x65, 0x03, 0x04, 0x02, hash_arc(hash), 0x05, 0x00,
                              0x04, (uint8_t)hlen};
  FUZZ_ASSERT(prefix[14] != 0);
  size_t t_len = sizeof(prefix) + hlen;
  em[0] = 0x00;
  em[1] = 0x01;
  memset(em + 2, 0xff, FUZZ_K - t_len - 3);
  em[FUZZ_K - t_len - 1] = 0x00;
  memcpy(em + FUZZ_K - t_len, prefix, sizeof(prefix));
  FUZZ_ASSERT(fm_sha_digest(hash, msg, msg_len, em + FUZZ_K - hlen, hlen) == FM_OK);
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
    if (!known) return 0;
    reference_em(hash, hlen, msg, msg_len, em);
    fuzz_apply_edits(f, f_len, em);
    if (!fuzz_sign_em(em, FUZZ_K, sig)) return 0;
  }
  if (mode != 0) {
    s = sig;
    s_len = FUZZ_K;
  }

  int st = fm_rsa_verify_pkcs1v15(g_public, hash, msg, msg_len, s, s_len);
  if (!known) {
    FUZZ_ASSERT(st == FM_ERR_UNSUPPORTED);
  } else {
    FUZZ_ASSERT(st == FM_OK || st == FM_ERR_VERIFY);
    if (mode != 0) {
      uint8_t want[FUZZ_K];
      reference_em(hash, hlen, msg, msg_len, want);
      FUZZ_ASSERT((st == FM_OK) == (memcmp(em, want, FUZZ_K) == 0));
    }
    /* The private key verifies the same way. */
    FUZZ_ASSERT(fm_rsa_verify_pkcs1v15(g_private, hash, msg, msg_len, s, s_len) == st);
  }
  fuzz_require_operational();
  return 0;
}
