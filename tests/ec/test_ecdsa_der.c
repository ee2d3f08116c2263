/* DER ECDSA signatures (ec.h: fm_ecdsa_sig_to_der, fm_ecdsa_sig_from_der): known encodings
 * (sign bytes, leading zeros, the long-form SEQUENCE length of P-521), round trips of real
 * signatures on every curve (high s kept as it is), and strict DER on decode: every malformed
 * encoding refused with FM_ERR_PARSE, every value outside [1, n-1] with FM_ERR_OUT_OF_RANGE, and
 * the argument errors, the output wiped on each. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fipsmod/fipsmod.h"
#include "module/internal.h"
#include "tests/common/test_util.h"

static const uint8_t k_p256_n[32] = {
    0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    0xbc, 0xe6, 0xfa, 0xad, 0xa7, 0x17, 0x9e, 0x84, 0xf3, 0xb9, 0xca, 0xc2, 0xfc, 0x63, 0x25, 0x51};

/* from_der converts |der| on P-256 and checks the status; on error the output is wiped. */
static int from_der(const uint8_t *der, size_t len) {
  uint8_t sig[64];
  size_t sl = 7;
  memset(sig, 0xa5, sizeof sig);
  int st = fm_ecdsa_sig_from_der(FM_EC_P256, der, len, sig, sizeof sig, &sl);
  if (st != FM_OK) {
    CHECK(test_is_all_zero(sig, sizeof sig));
    CHECK_EQ_INT(sl, 0);
  } else {
    CHECK_EQ_INT(sl, 64);
  }
  return st;
}

/* Small values: r = 1, s = 0x80 (a sign byte), and back. */
static void test_known_encodings(void) {
  uint8_t sig[64] = {0}, der[FM_EC_MAX_DER_SIG_BYTES], back[64];
  sig[31] = 1;
  sig[63] = 0x80;
  size_t dl = 0, bl = 0;
  CHECK_EQ_INT(fm_ecdsa_sig_to_der(FM_EC_P256, sig, 64, der, sizeof der, &dl), FM_OK);
  static const uint8_t want[] = {0x30, 0x07, 0x02, 0x01, 0x01, 0x02, 0x02, 0x00, 0x80};
  CHECK_EQ_INT(dl, sizeof want);
  CHECK_MEM(der, want, sizeof want);
  CHECK_EQ_INT(fm_ecdsa_sig_from_der(FM_EC_P256, der, dl, back, sizeof back, &bl), FM_OK);
  CHECK_EQ_INT(bl, 64);
  CHECK_MEM(back, sig, 64);
  /* r = s = n - 1: both need a sign byte (33 + 2 bytes each). */
  memcpy(sig, k_p256_n, 32);
  sig[31]--;
  memcpy(sig + 32, sig, 32);
  CHECK_EQ_INT(fm_ecdsa_sig_to_der(FM_EC_P256, sig, 64, NULL, 0, &dl), FM_OK);
  CHECK_EQ_INT(dl, 2 + 2 * 35);
  CHECK_EQ_INT(fm_ecdsa_sig_to_der(FM_EC_P256, sig, 64, der, sizeof der, &dl), FM_OK);
  CHECK_EQ_INT(der[0], 0x30);
  CHECK_EQ_INT(der[1], 70);
  CHECK_EQ_INT(der[2], 0x02);
  CHECK_EQ_INT(der[3], 33);
  CHECK_EQ_INT(der[4], 0x00);
  CHECK_EQ_INT(fm_ecdsa_sig_from_der(FM_EC_P256, der, dl, back, sizeof back, &bl), FM_OK);
  CHECK_MEM(back, sig, 64);
  /* P-521: the longest form, with a long-form SEQUENCE length. */
  fm_ec_key *k = NULL;
  CHECK_EQ_INT(fm_ec_key_generate(FM_EC_P521, &k), FM_OK);
  uint8_t s521[FM_EC_MAX_SIG_BYTES], d521[FM_EC_MAX_DER_SIG_BYTES], b521[FM_EC_MAX_SIG_BYTES];
  size_t sl = 0;
  CHECK_EQ_INT(fm_ecdsa_sign(k, FM_HASH_SHA512, (const uint8_t *)"m", 1, s521, sizeof s521, &sl),
               FM_OK);
  s521[0] = 0x01; /* the largest top byte of a P-521 scalar; r stays below n */
  memset(s521 + 1, 0, 65);
  s521[66] = 0x01;
  memset(s521 + 67, 0x55, 65);
  CHECK_EQ_INT(fm_ecdsa_sig_to_der(FM_EC_P521, s521, 132, d521, sizeof d521, &dl), FM_OK);
  CHECK_EQ_INT(dl, 3 + 2 * 68);
  CHECK_EQ_INT(d521[0], 0x30);
  CHECK_EQ_INT(d521[1], 0x81);
  CHECK_EQ_INT(d521[2], 136);
  CHECK_EQ_INT(fm_ecdsa_sig_from_der(FM_EC_P521, d521, dl, b521, sizeof b521, &bl), FM_OK);
  CHECK_EQ_INT(bl, 132);
  CHECK_MEM(b521, s521, 132);
  CHECK_EQ_INT(fm_ec_key_free(k), FM_OK);
}

/* Real signatures on every curve round-trip, the DER verifies after the way back, and a high s
 * (n - s, which verifies too) is kept as it is, not normalized. */
static void test_round_trips(void) {
  static const fm_ec_curve curves[] = {FM_EC_P224, FM_EC_P256, FM_EC_P384, FM_EC_P521};
  for (size_t c = 0; c < 4; c++) {
    fm_ec_key *k = NULL;
    CHECK_EQ_INT(fm_ec_key_generate(curves[c], &k), FM_OK);
    const size_t nb = fm_ec_curve_bytes(curves[c]);
    for (int i = 0; i < 50; i++) {
      uint8_t msg[4] = {(uint8_t)i, 1, 2, 3}, sig[FM_EC_MAX_SIG_BYTES], back[FM_EC_MAX_SIG_BYTES];
      uint8_t der[FM_EC_MAX_DER_SIG_BYTES];
      size_t sl = 0, dl = 0, bl = 0, need = 0;
      CHECK_EQ_INT(fm_ecdsa_sign(k, FM_HASH_SHA256, msg, 4, sig, sizeof sig, &sl), FM_OK);
      CHECK_EQ_INT(fm_ecdsa_sig_to_der(curves[c], sig, sl, NULL, 0, &need), FM_OK);
      CHECK_EQ_INT(fm_ecdsa_sig_to_der(curves[c], sig, sl, der, sizeof der, &dl), FM_OK);
      CHECK_EQ_INT(dl, need);
      CHECK(dl <= FM_EC_MAX_DER_SIG_BYTES);
      CHECK_EQ_INT(fm_ecdsa_sig_from_der(curves[c], der, dl, back, sizeof back, &bl), FM_OK);
      CHECK_EQ_INT(bl, 2 * nb);
      CHECK_MEM(back, sig, 2 * nb);
      CHECK_EQ_INT(fm_ecdsa_verify(k, FM_HASH_SHA256, msg, 4, back, bl), FM_OK);
    }
    CHECK_EQ_INT(fm_ec_key_free(k), FM_OK);
  }
  /* High s on P-256: s' = n - s verifies, and converts unchanged both ways. */
  fm_ec_key *k = NULL;
  CHECK_EQ_INT(fm_ec_key_generate(FM_EC_P256, &k), FM_OK);
  uint8_t sig[64], der[FM_EC_MAX_DER_SIG_BYTES], back[64];
  size_t sl = 0, dl = 0, bl = 0;
  CHECK_EQ_INT(fm_ecdsa_sign(k, FM_HASH_SHA256, (const uint8_t *)"x", 1, sig, sizeof sig, &sl), FM_OK);
  int borrow = 0;
  for (int i = 31; i >= 0; i--) {
    int v = k_p256_n[i] - sig[32 + i] - borrow;
    borrow = v < 0;
    sig[32 + i] = (uint8_t)(v + (borrow ? 256 : 0));
  }
  CHECK_EQ_INT(fm_ecdsa_verify(k, FM_HASH_SHA256, (const uint8_t *)"x", 1, sig, 64), FM_OK);
  CHECK_EQ_INT(fm_ecdsa_sig_to_der(FM_EC_P256, sig, 64, der, sizeof der, &dl), FM_OK);
  CHECK_EQ_INT(fm_ecdsa_sig_from_der(FM_EC_P256, der, dl, back, sizeof back, &bl), FM_OK);
  CHECK_MEM(back, sig, 64);
  CHECK_EQ_INT(fm_ec_key_free(k), FM_OK);
}

static void test_strict_der(void) {
  /* A good one to start from: r = 1, s = 2. */
  static const uint8_t good[] = {0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x02};
  CHECK_EQ_INT(from_der(good, sizeof good), FM_OK);
  /* Truncated at every length. */
  for (size_t n = 0; n < sizeof good; n++) CHECK_EQ_INT(from_der(good, n), FM_ERR_PARSE);
  /* Trailing data, after the SEQUENCE and inside it (a third INTEGER). */
  static const uint8_t trailing[] = {0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x02, 0x00};
  CHECK_EQ_INT(from_der(trailing, sizeof trailing), FM_ERR_PARSE);
  static const uint8_t three[] = {0x30, 0x09, 0x02, 0x01, 0x01, 0x02, 0x01, 0x02, 0x02, 0x01, 0x03};
  CHECK_EQ_INT(from_der(three, sizeof three), FM_ERR_PARSE);
  static const uint8_t one[] = {0x30, 0x03, 0x02, 0x01, 0x01};
  CHECK_EQ_INT(from_der(one, sizeof one), FM_ERR_PARSE);
  static const uint8_t empty_seq[] = {0x30, 0x00};
  CHECK_EQ_INT(from_der(empty_seq, sizeof empty_seq), FM_ERR_PARSE);
  /* BER lengths: indefinite, long form for a short length, a length with a leading zero byte. */
  static const uint8_t indefinite[] = {0x30, 0x80, 0x02, 0x01, 0x01, 0x02, 0x01, 0x02, 0x00, 0x00};
  CHECK_EQ_INT(from_der(indefinite, sizeof indefinite), FM_ERR_PARSE);
  static const uint8_t long_form[] = {0x30, 0x81, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x02};
  CHECK_EQ_INT(from_der(long_form, sizeof long_form), FM_ERR_PARSE);
  static const uint8_t int_long[] = {0x30, 0x07, 0x02, 0x81, 0x01, 0x01, 0x02, 0x01, 0x02};
  CHECK_EQ_INT(from_der(int_long, sizeof int_long), FM_ERR_PARSE);
  /* A length past the end; a SEQUENCE shorter than its contents. */
  static const uint8_t past[] = {0x30, 0x07, 0x02, 0x01, 0x01, 0x02, 0x01, 0x02};
  CHECK_EQ_INT(from_der(past, sizeof past), FM_ERR_PARSE);
  static const uint8_t inner_past[] = {0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x02, 0x02};
  CHECK_EQ_INT(from_der(inner_past, sizeof inner_past), FM_ERR_PARSE);
  /* Leading zeros beyond the sign byte, an empty INTEGER, a redundant 0xff. */
  static const uint8_t lead0[] = {0x30, 0x07, 0x02, 0x02, 0x00, 0x01, 0x02, 0x01, 0x02};
  CHECK_EQ_INT(from_der(lead0, sizeof lead0), FM_ERR_PARSE);
  static const uint8_t lead0s[] = {0x30, 0x08, 0x02, 0x01, 0x01, 0x02, 0x03, 0x00, 0x00, 0x80};
  CHECK_EQ_INT(from_der(lead0s, sizeof lead0s), FM_ERR_PARSE);
  static const uint8_t empty_int[] = {0x30, 0x05, 0x02, 0x00, 0x02, 0x01, 0x02};
  CHECK_EQ_INT(from_der(empty_int, sizeof empty_int), FM_ERR_PARSE);
  static const uint8_t leadff[] = {0x30, 0x07, 0x02, 0x02, 0xff, 0x80, 0x02, 0x01, 0x02};
  CHECK_EQ_INT(from_der(leadff, sizeof leadff), FM_ERR_PARSE);
  /* Other tags: a SET, a BIT STRING for r, a constructed INTEGER. */
  static const uint8_t set[] = {0x31, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x02};
  CHECK_EQ_INT(from_der(set, sizeof set), FM_ERR_PARSE);
  static const uint8_t bits[] = {0x30, 0x06, 0x03, 0x01, 0x01, 0x02, 0x01, 0x02};
  CHECK_EQ_INT(from_der(bits, sizeof bits), FM_ERR_PARSE);
  static const uint8_t cons[] = {0x30, 0x06, 0x22, 0x01, 0x01, 0x02, 0x01, 0x02};
  CHECK_EQ_INT(from_der(cons, sizeof cons), FM_ERR_PARSE);
  /* Well-formed, out of range: zero, negative, n, longer than the curve's scalars. */
  static const uint8_t r0[] = {0x30, 0x06, 0x02, 0x01, 0x00, 0x02, 0x01, 0x02};
  CHECK_EQ_INT(from_der(r0, sizeof r0), FM_ERR_OUT_OF_RANGE);
  static const uint8_t s0[] = {0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x00};
  CHECK_EQ_INT(from_der(s0, sizeof s0), FM_ERR_OUT_OF_RANGE);
  static const uint8_t neg[] = {0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0xff};
  CHECK_EQ_INT(from_der(neg, sizeof neg), FM_ERR_OUT_OF_RANGE);
  uint8_t big[80] = {0x30, 0x26, 0x02, 0x21, 0x00};
  memcpy(big + 5, k_p256_n, 32);
  memcpy(big + 37, "\x02\x01\x01", 3);
  CHECK_EQ_INT(from_der(big, 40), FM_ERR_OUT_OF_RANGE); /* r = n */
  big[36]--;
  CHECK_EQ_INT(from_der(big, 40), FM_OK); /* r = n - 1 */
  big[36]++;
  static const uint8_t r33[] = {0x30, 0x26, 0x02, 0x21, 0x01};
  memcpy(big, r33, sizeof r33); /* r = 2^256 + ... : 33 significant bytes */
  CHECK_EQ_INT(from_der(big, 40), FM_ERR_OUT_OF_RANGE);
  /* A malformed s after an r out of range: the structure is judged first. */
  static const uint8_t both[] = {0x30, 0x07, 0x02, 0x01, 0x00, 0x02, 0x02, 0x00, 0x01};
  CHECK_EQ_INT(from_der(both, sizeof both), FM_ERR_PARSE);
}

static void test_arguments(void) {
  uint8_t sig[64] = {0}, der[FM_EC_MAX_DER_SIG_BYTES];
  sig[31] = sig[63] = 1;
  size_t n = 9;
  CHECK_EQ_INT(fm_ecdsa_sig_to_der(FM_EC_P256, NULL, 64, der, sizeof der, &n), FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(n, 0);
  CHECK_EQ_INT(fm_ecdsa_sig_to_der(FM_EC_P256, sig, 64, der, sizeof der, NULL), FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_ecdsa_sig_to_der(FM_EC_P256, sig, 64, NULL, 8, &n), FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_ecdsa_sig_to_der((fm_ec_curve)0, sig, 64, der, sizeof der, &n),
               FM_ERR_UNSUPPORTED);
  CHECK_EQ_INT(fm_ecdsa_sig_to_der(FM_EC_P256, sig, 63, der, sizeof der, &n), FM_ERR_LENGTH);
  CHECK_EQ_INT(fm_ecdsa_sig_to_der(FM_EC_P384, sig, 64, der, sizeof der, &n), FM_ERR_LENGTH);
  /* r = 0, s = n: out of range. */
  sig[31] = 0;
  CHECK_EQ_INT(fm_ecdsa_sig_to_der(FM_EC_P256, sig, 64, der, sizeof der, &n), FM_ERR_OUT_OF_RANGE);
  sig[31] = 1;
  memcpy(sig + 32, k_p256_n, 32);
  CHECK_EQ_INT(fm_ecdsa_sig_to_der(FM_EC_P256, sig, 64, der, sizeof der, &n), FM_ERR_OUT_OF_RANGE);
  memset(sig + 32, 0, 32);
  sig[63] = 1;
  /* Too small: wiped, *der_len the length needed (8). */
  memset(der, 0xa5, sizeof der);
  CHECK_EQ_INT(fm_ecdsa_sig_to_der(FM_EC_P256, sig, 64, der, 7, &n), FM_ERR_BUFFER_TOO_SMALL);
  CHECK_EQ_INT(n, 8);
  CHECK(test_is_all_zero(der, 7));
  CHECK_EQ_INT(fm_ecdsa_sig_to_der(FM_EC_P256, sig, 64, der, 8, &n), FM_OK);
  uint8_t raw[64];
  size_t rl = 5;
  CHECK_EQ_INT(fm_ecdsa_sig_from_der(FM_EC_P256, NULL, 8, raw, sizeof raw, &rl), FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(rl, 0);
  CHECK_EQ_INT(fm_ecdsa_sig_from_der(FM_EC_P256, der, 8, NULL, 64, &rl), FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_ecdsa_sig_from_der(FM_EC_P256, der, 8, raw, sizeof raw, NULL), FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_ecdsa_sig_from_der((fm_ec_curve)7, der, 8, raw, sizeof raw, &rl), FM_ERR_UNSUPPORTED);
  memset(raw, 0xa5, sizeof raw);
  CHECK_EQ_INT(fm_ecdsa_sig_from_der(FM_EC_P256, der, 8, raw, 63, &rl), FM_ERR_BUFFER_TOO_SMALL);
  CHECK(test_is_all_zero(raw, 63));
  CHECK_EQ_INT(fm_ecdsa_sig_from_der(FM_EC_P256, der, 8, raw, 64, &rl), FM_OK);
  /* The same DER on a larger curve is a different (valid) signature length. */
  uint8_t raw384[96];
  CHECK_EQ_INT(fm_ecdsa_sig_from_der(FM_EC_P384, der, 8, raw384, sizeof raw384, &rl), FM_OK);
  CHECK_EQ_INT(rl, 96);
}

/* The conversions are informational: the indicator keeps its value, as for a failed call. */
static void test_indicator_unchanged(void) {
  uint8_t sig[64] = {0}, der[16], d[32];
  sig[31] = sig[63] = 1;
  size_t n = 0;
  fm_indicator ind = FM_INDICATOR_NONE;
  CHECK_EQ_INT(fm_sha256("x", 1, d), FM_OK);
  CHECK_EQ_INT(fm_ecdsa_sig_to_der(FM_EC_P256, sig, 64, der, sizeof der, &n), FM_OK);
  CHECK_EQ_INT(fm_service_indicator(&ind), FM_OK);
  CHECK_EQ_INT(ind, FM_INDICATOR_APPROVED);
  CHECK_EQ_INT(fm_ecdsa_sig_from_der(FM_EC_P256, der, 1, sig, sizeof sig, &n), FM_ERR_PARSE);
  CHECK_EQ_INT(fm_service_indicator(&ind), FM_OK);
  CHECK_EQ_INT(ind, FM_INDICATOR_APPROVED);
}

/* In ERROR both conversions refuse with FM_ERR_NOT_OPERATIONAL and wipe. Runs last. */
static void test_gate_in_error_state(void) {
  uint8_t sig[64] = {0}, der[FM_EC_MAX_DER_SIG_BYTES];
  sig[31] = sig[63] = 1;
  size_t dl = 0, sl = 5;
  CHECK_EQ_INT(fm_ecdsa_sig_to_der(FM_EC_P256, sig, 64, der, sizeof der, &dl), FM_OK);
  fm_module_force_error_for_testing();
  memset(der + dl, 0xa5, sizeof der - dl);
  size_t n = 7;
  CHECK_EQ_INT(fm_ecdsa_sig_to_der(FM_EC_P256, sig, 64, der + dl, sizeof der - dl, &n),
               FM_ERR_NOT_OPERATIONAL);
  CHECK_EQ_INT(n, 0);
  CHECK(test_is_all_zero(der + dl, sizeof der - dl));
  CHECK_EQ_INT(fm_ecdsa_sig_from_der(FM_EC_P256, der, dl, sig, sizeof sig, &sl),
               FM_ERR_NOT_OPERATIONAL);
  CHECK_EQ_INT(sl, 0);
  CHECK(test_is_all_zero(sig, sizeof sig));
}

static const test_case cases[] = {
  TEST_CASE(known_encodings),
  TEST_CASE(round_trips),
  TEST_CASE(strict_der),
  TEST_CASE(arguments),
  TEST_CASE(indicator_unchanged),
  TEST_CASE(gate_in_error_state),
};

int main(int argc, char **argv) { return TEST_RUN(argc, argv, "test_ecdsa_der", cases); }
