/* ML-KEM unit tests: the arithmetic the standard fixes (Compress/Decompress for every input,
 * the byte encodings), round trips of all three parameter sets, the input checks of FIPS 203
 * section 7 with their statuses, wiping of outputs on every refusal, the service indicator, and
 * the implicit-rejection key. Known answers for the parameter sets are in the kat tests. */
#include <string.h>

#include "fipsmod/indicator.h"
#include "fipsmod/mlkem.h"
#include "module/mlkem/internal.h"
#include "module/mlkem/poly.h"
#include "module/sha3/internal.h"
#include "tests/common/test_util.h"

static const fm_mlkem_param k_params[] = {FM_MLKEM_512, FM_MLKEM_768, FM_MLKEM_1024};

static fm_indicator indicator(void) {
  fm_indicator ind = FM_INDICATOR_NONE;
  CHECK(fm_service_indicator(&ind) == FM_OK);
  return ind;
}

/* Compress_d(x) = round(2^d x / q) mod 2^d, computed here with exact integer division. */
static void test_compress_every_value(void) {
  const unsigned ds[] = {1, 4, 5, 10, 11};
  for (size_t i = 0; i < sizeof ds / sizeof ds[0]; i++) {
    const unsigned d = ds[i];
    for (uint32_t x = 0; x < MLKEM_Q; x++) {
      const uint32_t want = (((x << d) * 2 + MLKEM_Q) / (2 * MLKEM_Q)) & ((1u << d) - 1);
      CHECK(mlkem_compress((uint16_t)x, d) == want);
    }
    for (uint32_t y = 0; y < (1u << d); y++) {
      const uint32_t want = (y * MLKEM_Q * 2 + (1u << d)) / (2u << d); /* round(q y / 2^d) */
      CHECK(mlkem_decompress((uint16_t)y, d) == want);
    }
  }
}

static void test_encode_decode_round_trip(void) {
  test_rng rng;
  test_rng_seed(&rng, "test_mlkem_unit.encode");
  for (unsigned d = 1; d <= 12; d++) {
    uint16_t v[MLKEM_N], w[MLKEM_N];
    uint8_t buf[32 * 12];
    for (unsigned i = 0; i < MLKEM_N; i++) v[i] = (uint16_t)test_rng_below(&rng, 1u << d);
    mlkem_encode(buf, v, d);
    mlkem_decode(w, buf, d);
    CHECK_MEM(v, w, sizeof v);
  }
  /* ByteDecode_12 reduces mod q (FIPS 203 4.2.1): 4095 decodes to 4095 - q. */
  uint8_t b[MLKEM_POLY_BYTES];
  memset(b, 0xff, sizeof b);
  mlkem_poly p;
  mlkem_poly_frombytes(&p, b);
  for (unsigned i = 0; i < MLKEM_N; i++) CHECK(p.c[i] == 4095 - MLKEM_Q);
}

static void test_round_trip_all_sets(void) {
  for (size_t i = 0; i < 3; i++) {
    const fm_mlkem_param p = k_params[i];
    size_t ek_n, dk_n, ct_n;
    CHECK(fm_mlkem_sizes(p, &ek_n, &dk_n, &ct_n) == FM_OK);
    uint8_t ek[FM_MLKEM_MAX_EK_LEN], dk[FM_MLKEM_MAX_DK_LEN], ct[FM_MLKEM_MAX_CT_LEN];
    uint8_t seed[64], ek2[FM_MLKEM_MAX_EK_LEN], dk2[FM_MLKEM_MAX_DK_LEN], k1[32], k2[32];
    for (int rep = 0; rep < 10; rep++) {
      CHECK(fm_mlkem_keygen(p, ek, ek_n, dk, dk_n, seed, sizeof seed) == FM_OK);
      CHECK(indicator() == FM_INDICATOR_APPROVED);
      /* The seed form expands to the same key. */
      CHECK(fm_mlkem_keygen_from_seed(p, seed, sizeof seed, ek2, ek_n, dk2, dk_n) == FM_OK);
      CHECK(indicator() == FM_INDICATOR_APPROVED);
      CHECK_MEM(ek, ek2, ek_n);
      CHECK_MEM(dk, dk2, dk_n);
      CHECK(fm_mlkem_encaps(p, ek, ek_n, ct, ct_n, k1, sizeof k1) == FM_OK);
      CHECK(indicator() == FM_INDICATOR_APPROVED);
      CHECK(fm_mlkem_decaps(p, dk, dk_n, ct, ct_n, k2, sizeof k2) == FM_OK);
      CHECK(indicator() == FM_INDICATOR_APPROVED);
      CHECK_MEM(k1, k2, 32);
      /* dk ends with z: a modified ciphertext gives J(z || c'). */
      ct[rep] ^= 0x40;
      uint8_t in[32 + FM_MLKEM_MAX_CT_LEN], kbar[32];
      memcpy(in, dk + dk_n - 32, 32);
      memcpy(in + 32, ct, ct_n);
      shake256(kbar, 32, in, 32 + ct_n);
      CHECK(fm_mlkem_decaps(p, dk, dk_n, ct, ct_n, k2, sizeof k2) == FM_OK);
      CHECK_MEM(k2, kbar, 32);
      CHECK(fm_mlkem_check_ek(p, ek, ek_n) == FM_OK);
      CHECK(fm_mlkem_check_dk(p, dk, dk_n) == FM_OK);
    }
  }
}

static void test_encaps_internal_not_approved(void) {
  uint8_t seed[64] = {1}, m[32] = {2};
  uint8_t ek[FM_MLKEM768_EK_LEN], dk[FM_MLKEM768_DK_LEN], ct[FM_MLKEM768_CT_LEN], k[32], k2[32];
  CHECK(fm_mlkem_keygen_from_seed(FM_MLKEM_768, seed, 64, ek, sizeof ek, dk, sizeof dk) == FM_OK);
  CHECK(fm_mlkem_encaps_internal(FM_MLKEM_768, ek, sizeof ek, m, 32, ct, sizeof ct, k, 32) ==
        FM_OK);
  CHECK(indicator() == FM_INDICATOR_NOT_APPROVED);
  CHECK(fm_mlkem_decaps(FM_MLKEM_768, dk, sizeof dk, ct, sizeof ct, k2, 32) == FM_OK);
  CHECK_MEM(k, k2, 32);
}

static int all_zero(const void *p, size_t n) { return test_is_all_zero(p, n); }

/* Every refusal: a specific status, the outputs of valid length wiped, not approved. */
static void test_bad_lengths_and_keys(void) {
  uint8_t seed[64] = {3}, m[32] = {4};
  uint8_t ek[FM_MLKEM768_EK_LEN], dk[FM_MLKEM768_DK_LEN], ct[FM_MLKEM768_CT_LEN], k[32];
  uint8_t bad[FM_MLKEM_MAX_DK_LEN + 1];
  CHECK(fm_mlkem_keygen_from_seed(FM_MLKEM_768, seed, 64, ek, sizeof ek, dk, sizeof dk) == FM_OK);
  CHECK(fm_mlkem_encaps_internal(FM_MLKEM_768, ek, sizeof ek, m, 32, ct, sizeof ct, k, 32) ==
        FM_OK);

  /* Key generation: wrong seed length, wrong output lengths, unknown set, NULL. */
  memset(bad, 0xaa, sizeof bad);
  CHECK(fm_mlkem_keygen_from_seed(FM_MLKEM_768, seed, 63, bad, sizeof ek, dk, sizeof dk) ==
        FM_ERR_LENGTH);
  CHECK(indicator() == FM_INDICATOR_NOT_APPROVED);
  CHECK(all_zero(bad, sizeof ek) && all_zero(dk, sizeof dk));
  CHECK(fm_mlkem_keygen_from_seed((fm_mlkem_param)769, seed, 64, ek, sizeof ek, dk, sizeof dk) ==
        FM_ERR_UNSUPPORTED);
  CHECK(fm_mlkem_keygen_from_seed(FM_MLKEM_768, NULL, 64, ek, sizeof ek, dk, sizeof dk) ==
        FM_ERR_BAD_ARGUMENT);
  CHECK(fm_mlkem_keygen(FM_MLKEM_768, ek, sizeof ek - 1, dk, sizeof dk, NULL, 0) == FM_ERR_LENGTH);
  CHECK(all_zero(dk, sizeof dk));
  CHECK(fm_mlkem_keygen(FM_MLKEM_768, ek, sizeof ek, dk, sizeof dk, seed, 32) == FM_ERR_LENGTH);
  CHECK(fm_mlkem_keygen(FM_MLKEM_768, ek, sizeof ek, dk, sizeof dk, dk + 100, 64) ==
        FM_ERR_OVERLAP);
  CHECK(fm_mlkem_keygen(FM_MLKEM_768, bad, sizeof ek, bad + 500, sizeof dk, NULL, 0) ==
        FM_ERR_OVERLAP);
  CHECK(all_zero(ek, sizeof ek));
  CHECK(fm_mlkem_keygen_from_seed(FM_MLKEM_768, seed, 64, ek, sizeof ek, dk, sizeof dk) == FM_OK);

  /* Encapsulation: ek of the wrong length (7.2 step 1), a coefficient >= q (7.2 step 2). */
  memset(ct, 0x55, sizeof ct);
  memset(k, 0x55, sizeof k);
  CHECK(fm_mlkem_encaps(FM_MLKEM_768, ek, sizeof ek - 1, ct, sizeof ct, k, 32) == FM_ERR_LENGTH);
  CHECK(indicator() == FM_INDICATOR_NOT_APPROVED);
  CHECK(all_zero(ct, sizeof ct) && all_zero(k, sizeof k));
  memcpy(bad, ek, sizeof ek);
  bad[0] = 0x01;
  bad[1] = (uint8_t)((bad[1] & 0xf0) | 0x0d); /* the first value 0xd01 = 3329 = q */
  memset(k, 0x55, sizeof k);
  CHECK(fm_mlkem_encaps(FM_MLKEM_768, bad, sizeof ek, ct, sizeof ct, k, 32) == FM_ERR_BAD_KEY);
  CHECK(all_zero(k, sizeof k));
  CHECK(fm_mlkem_check_ek(FM_MLKEM_768, bad, sizeof ek) == FM_ERR_BAD_KEY);
  bad[0] = 0x00; /* q - 1 = 0xd00 is in range */
  CHECK(fm_mlkem_check_ek(FM_MLKEM_768, bad, sizeof ek) == FM_OK);
  CHECK(fm_mlkem_encaps(FM_MLKEM_768, ek, sizeof ek, ct, sizeof ct, k, 31) == FM_ERR_LENGTH);
  CHECK(fm_mlkem_encaps(FM_MLKEM_768, ek, sizeof ek, ct, sizeof ct - 1, k, 32) == FM_ERR_LENGTH);
  CHECK(all_zero(k, sizeof k));
  CHECK(fm_mlkem_encaps_internal(FM_MLKEM_768, ek, sizeof ek, m, 31, ct, sizeof ct, k, 32) ==
        FM_ERR_LENGTH);
  CHECK(all_zero(ct, sizeof ct));

  /* Decapsulation: dk and ct lengths (7.3 steps 1-2), the hash check (step 3). */
  CHECK(fm_mlkem_encaps(FM_MLKEM_768, ek, sizeof ek, ct, sizeof ct, k, 32) == FM_OK);
  memset(k, 0x55, sizeof k);
  CHECK(fm_mlkem_decaps(FM_MLKEM_768, dk, sizeof dk, ct, sizeof ct + 1, k, 32) == FM_ERR_LENGTH);
  CHECK(all_zero(k, sizeof k));
  memset(k, 0x55, sizeof k);
  CHECK(fm_mlkem_decaps(FM_MLKEM_768, dk, sizeof dk - 1, ct, sizeof ct, k, 32) == FM_ERR_LENGTH);
  CHECK(all_zero(k, sizeof k));
  memcpy(bad, dk, sizeof dk);
  bad[1152 + 5] ^= 1; /* the embedded ek no longer hashes to H(ek) */
  memset(k, 0x55, sizeof k);
  CHECK(fm_mlkem_decaps(FM_MLKEM_768, bad, sizeof dk, ct, sizeof ct, k, 32) == FM_ERR_BAD_KEY);
  CHECK(indicator() == FM_INDICATOR_NOT_APPROVED);
  CHECK(all_zero(k, sizeof k));
  CHECK(fm_mlkem_check_dk(FM_MLKEM_768, bad, sizeof dk) == FM_ERR_BAD_KEY);
  memcpy(bad, dk, sizeof dk);
  bad[1152 + 1184 + 3] ^= 1; /* H(ek) itself */
  CHECK(fm_mlkem_check_dk(FM_MLKEM_768, bad, sizeof dk) == FM_ERR_BAD_KEY);
  CHECK(fm_mlkem_check_dk(FM_MLKEM_768, dk, sizeof dk + 1) == FM_ERR_LENGTH);
  CHECK(fm_mlkem_decaps(FM_MLKEM_768, dk, sizeof dk, NULL, sizeof ct, k, 32) ==
        FM_ERR_BAD_ARGUMENT);
  /* Outputs that overlap an input are refused. */
  CHECK(fm_mlkem_decaps(FM_MLKEM_768, dk, sizeof dk, ct, sizeof ct, ct + 10, 32) ==
        FM_ERR_OVERLAP);
}

static void test_sizes(void) {
  size_t a, b, c;
  CHECK(fm_mlkem_sizes(FM_MLKEM_512, &a, &b, &c) == FM_OK && a == 800 && b == 1632 && c == 768);
  CHECK(fm_mlkem_sizes(FM_MLKEM_768, &a, &b, &c) == FM_OK && a == 1184 && b == 2400 && c == 1088);
  CHECK(fm_mlkem_sizes(FM_MLKEM_1024, &a, &b, &c) == FM_OK && a == 1568 && b == 3168 &&
        c == 1568);
  CHECK(fm_mlkem_sizes((fm_mlkem_param)0, &a, &b, &c) == FM_ERR_UNSUPPORTED && a == 0);
}

static const test_case cases[] = {
    TEST_CASE(compress_every_value),
    TEST_CASE(encode_decode_round_trip),
    TEST_CASE(round_trip_all_sets),
    TEST_CASE(encaps_internal_not_approved),
    TEST_CASE(bad_lengths_and_keys),
    TEST_CASE(sizes),
};

int main(int argc, char **argv) { return TEST_RUN(argc, argv, "test_mlkem_unit", cases); }
