/* libFuzzer target: fm_rsa_verify_pkcs1v15 with a fuzzed signature or encoded message and a
 * fuzzed message against the fixed key (input layout in fuzz_verify.h).
 * Properties: the status is FM_OK or FM_ERR_VERIFY (FM_ERR_UNSUPPORTED for an unknown hash);
 * with an encoded message, FM_OK exactly when it is the one RFC 8017 9.2 builds (the
 * verification is strict), checked against the encoding built here. */
#include "tests/fuzz/fuzz_verify.h"

/* RFC 8017 9.2 note 1: the DER DigestInfo prefixes. */
static const uint8_t kPrefix256[] = {0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01,
                                     0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04, 0x20};
static const uint8_t kPrefix384[] = {0x30, 0x41, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01,
                                     0x65, 0x03, 0x04, 0x02, 0x02, 0x05, 0x00, 0x04, 0x30};
static const uint8_t kPrefix512[] = {0x30, 0x51, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01,
                                     0x65, 0x03, 0x04, 0x02, 0x03, 0x05, 0x00, 0x04, 0x40};

/* reference_em builds EMSA-PKCS1-v1_5(M) for emLen = FUZZ_K (RFC 8017 9.2, steps 1-5). */
static void reference_em(fm_hash_alg hash, size_t hlen, const uint8_t *msg, size_t msg_len,
                         uint8_t em[FUZZ_K]) {
  const uint8_t *prefix = hash == FM_HASH_SHA256 ? kPrefix256
                          : hash == FM_HASH_SHA384 ? kPrefix384
                                                   : kPrefix512;
  size_t t_len = sizeof(kPrefix256) + hlen;
  em[0] = 0x00;
  em[1] = 0x01;
  memset(em + 2, 0xff, FUZZ_K - t_len - 3);
  em[FUZZ_K - t_len - 1] = 0x00;
  memcpy(em + FUZZ_K - t_len, prefix, sizeof(kPrefix256));
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
  int em_mode = fuzz_byte(&in) & 1, known;
  size_t hlen;
  fm_hash_alg hash = fuzz_hash(fuzz_byte(&in), &known, &hlen);
  const uint8_t *f, *s;
  size_t f_len, s_len;
  fuzz_field(&in, &f, &f_len);
  static uint8_t sig[FUZZ_K];
  uint8_t em[FUZZ_K];
  if (!fuzz_make_signature(em_mode, f, f_len, sig, &s, &s_len, em)) return 0;

  int st = fm_rsa_verify_pkcs1v15(g_public, hash, in.p, in.n, s, s_len);
  if (!known) {
    FUZZ_ASSERT(st == FM_ERR_UNSUPPORTED);
  } else {
    FUZZ_ASSERT(st == FM_OK || st == FM_ERR_VERIFY);
    if (em_mode) {
      uint8_t want[FUZZ_K];
      reference_em(hash, hlen, in.p, in.n, want);
      FUZZ_ASSERT((st == FM_OK) == (memcmp(em, want, FUZZ_K) == 0));
    }
    /* The private key verifies the same way. */
    FUZZ_ASSERT(fm_rsa_verify_pkcs1v15(g_private, hash, in.p, in.n, s, s_len) == st);
  }
  fuzz_require_operational();
  return 0;
}
