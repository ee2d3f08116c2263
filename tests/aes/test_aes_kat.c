/* AES known answers: FIPS 197 Appendix C (the cipher examples), Appendix A (key expansion) and
 * the SP 800-38A Appendix F examples for ECB (F.1), CBC (F.2) and CTR (F.5), AES-128, AES-192 and
 * AES-256, through the public API and the module-internal functions, on every path this machine
 * has (see aes_test_paths.h). The example values are hard-coded with the section they come from;
 * they also appear in ../shared/vectors/nist-toolkit-examples/AES_{ECB,CBC,CTR}.txt. */
#include <string.h>

#include "fipsmod/aes.h"
#include "tests/aes/aes_test_paths.h"
#include "tests/common/test_util.h"

static void hex(const char *h, uint8_t *out, size_t len) {
  long n = test_hex_decode(h, out, len);
  CHECK(n == (long)len);
}

/* ---- FIPS 197 Appendix C ----------------------------------------------------------------- */

static void test_fips197_appendix_c(void) {
  static const struct {
    const char *key, *ct;
  } v[] = {
      /* C.1 AES-128 */
      {"000102030405060708090a0b0c0d0e0f", "69c4e0d86a7b0430d8cdb78070b4c55a"},
      /* C.2 AES-192 */
      {"000102030405060708090a0b0c0d0e0f1011121314151617", "dda97ca4864cdfe06eaf70a0ec0d7191"},
      /* C.3 AES-256 */
      {"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
       "8ea2b7ca516745bfeafc49904b496089"},
  };
  uint8_t pt[16], ct[16], key[32], out[16];
  hex("00112233445566778899aabbccddeeff", pt, 16);
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
    const size_t klen = strlen(v[i].key) / 2;
    hex(v[i].key, key, klen);
    hex(v[i].ct, ct, 16);
    fm_aes_key k;
    CHECK_EQ_INT(fm_aes_key_init(&k, key, klen), FM_OK);
    CHECK_EQ_INT(fm_aes_ecb_encrypt(&k, pt, out, 16), FM_OK);
    CHECK_MEM(out, ct, 16);
    CHECK_EQ_INT(fm_aes_ecb_decrypt(&k, ct, out, 16), FM_OK);
    CHECK_MEM(out, pt, 16);
    CHECK_EQ_INT(fm_aes_key_wipe(&k), FM_OK);

    /* The internal single-block entry point the DRBG uses, in place too. */
    aes_ks ks;
    CHECK_EQ_INT(aes_ks_init_encrypt(&ks, key, klen), 1);
    aes_encrypt_block(&ks, pt, out);
    CHECK_MEM(out, ct, 16);
    memcpy(out, pt, 16);
    aes_encrypt_block(&ks, out, out);
    CHECK_MEM(out, ct, 16);
    aes_ks_wipe(&ks);
    CHECK(test_is_all_zero(&ks, sizeof ks));
  }
}

/* Key lengths between and around the three sizes (AES-192's neighbours among them) are refused:
 * FM_ERR_KEY_SIZE with the schedule zeroed, and 0 from the internal entry point. */
static void test_other_key_sizes_refused(void) {
  static const size_t bad[] = {0, 1, 8, 15, 17, 20, 23, 25, 28, 31, 33, 48, 64};
  uint8_t key[64] = {0};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    fm_aes_key k;
    memset(&k, 0x5a, sizeof k);
    CHECK_EQ_INT(fm_aes_key_init(&k, key, bad[i]), FM_ERR_KEY_SIZE);
    CHECK(test_is_all_zero(&k, sizeof k));
    aes_ks ks;
    memset(&ks, 0x5a, sizeof ks);
    CHECK_EQ_INT(aes_ks_init_encrypt(&ks, key, bad[i]), 0);
    CHECK(test_is_all_zero(&ks, sizeof ks));
  }
}

/* FIPS 197 Appendix A.1, A.2 and A.3: the last round key of the expansion (w[40..43], w[48..51],
 * w[56..59]) and, for AES-192, whose six-word steps straddle the round keys, round keys 1 and 2
 * (w[4..11]). Only the AES-NI schedule stores round keys in byte order; the bitsliced one is
 * checked through the cipher examples. */
static void test_fips197_appendix_a_key_expansion(void) {
  if (!fm_cpu_use(FM_CPU_AESNI)) return;
  uint8_t key[32], want[16];
  aes_ks ks;
  hex("2b7e151628aed2a6abf7158809cf4f3c", key, 16);
  CHECK_EQ_INT(aes_ks_init_encrypt(&ks, key, 16), 1);
  CHECK_EQ_INT(ks.rounds, 10);
  hex("d014f9a8c9ee2589e13f0cc8b6630ca6", want, 16);
  CHECK_MEM((const uint8_t *)(ks.words + 2 * 10), want, 16);
  hex("8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b", key, 24);
  CHECK_EQ_INT(aes_ks_init_encrypt(&ks, key, 24), 1);
  CHECK_EQ_INT(ks.rounds, 12);
  hex("e98ba06f448c773c8ecc720401002202", want, 16);
  CHECK_MEM((const uint8_t *)(ks.words + 2 * 12), want, 16);
  hex("62f8ead2522c6b7bfe0c91f72402f5a5", want, 16); /* w[4..7] (A.2) */
  CHECK_MEM((const uint8_t *)(ks.words + 2 * 1), want, 16);
  hex("ec12068e6c827f6b0e7a95b95c56fec2", want, 16); /* w[8..11] */
  CHECK_MEM((const uint8_t *)(ks.words + 2 * 2), want, 16);
  hex("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4", key, 32);
  CHECK_EQ_INT(aes_ks_init_encrypt(&ks, key, 32), 1);
  CHECK_EQ_INT(ks.rounds, 14);
  hex("fe4890d1e6188d0b046df344706c631e", want, 16);
  CHECK_MEM((const uint8_t *)(ks.words + 2 * 14), want, 16);
  hex("9ba354118e6925afa51a8b5f2067fcde", want, 16); /* w[8..11] (A.3) */
  CHECK_MEM((const uint8_t *)(ks.words + 2 * 2), want, 16);
  aes_ks_wipe(&ks);
}

/* ---- SP 800-38A Appendix F --------------------------------------------------------------- */

static const char *const k_key128 = "2b7e151628aed2a6abf7158809cf4f3c";
static const char *const k_key192 = "8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b";
static const char *const k_key256 =
    "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4";
static const char *const k_plain =
    "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51"
    "30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710";

typedef struct mode_vector {
  const char *name, *key, *iv, *ct;
} mode_vector;

/* F.1.1/F.1.2 (ECB-AES128), F.1.3/F.1.4 (ECB-AES192), F.1.5/F.1.6 (ECB-AES256). */
static const mode_vector k_ecb[] = {
    {"F.1.1 ECB-AES128", NULL, NULL,
     "3ad77bb40d7a3660a89ecaf32466ef97f5d3d58503b9699de785895a96fdbaaf"
     "43b1cd7f598ece23881b00e3ed0306887b0c785e27e8ad3f8223207104725dd4"},
    {"F.1.3 ECB-AES192", NULL, NULL,
     "bd334f1d6e45f25ff712a214571fa5cc974104846d0ad3ad7734ecb3ecee4eef"
     "ef7afd2270e2e60adce0ba2face6444e9a4b41ba738d6c72fb16691603c18e0e"},
    {"F.1.5 ECB-AES256", NULL, NULL,
     "f3eed1bdb5d2a03c064b5a7e3db181f8591ccb10d410ed26dc5ba74a31362870"
     "b6ed21b99ca6f4f9f153e7b1beafed1d23304b7a39f9f3ff067d8d8f9e24ecc7"},
};
/* F.2.1/F.2.2 (CBC-AES128), F.2.3/F.2.4 (CBC-AES192), F.2.5/F.2.6 (CBC-AES256). */
static const mode_vector k_cbc[] = {
    {"F.2.1 CBC-AES128", NULL, "000102030405060708090a0b0c0d0e0f",
     "7649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b2"
     "73bed6b8e3c1743b7116e69e222295163ff1caa1681fac09120eca307586e1a7"},
    {"F.2.3 CBC-AES192", NULL, "000102030405060708090a0b0c0d0e0f",
     "4f021db243bc633d7178183a9fa071e8b4d9ada9ad7dedf4e5e738763f69145a"
     "571b242012fb7ae07fa9baac3df102e008b0e27988598881d920a9e64f5615cd"},
    {"F.2.5 CBC-AES256", NULL, "000102030405060708090a0b0c0d0e0f",
     "f58c4c04d6e5f1ba779eabfb5f7bfbd69cfc4e967edb808d679f777bc6702c7d"
     "39f23369a9d9bacfa530e26304231461b2eb05e2c39be9fcda6c19078c6a9d1b"},
};
/* F.5.1/F.5.2 (CTR-AES128), F.5.3/F.5.4 (CTR-AES192), F.5.5/F.5.6 (CTR-AES256). */
static const mode_vector k_ctr[] = {
    {"F.5.1 CTR-AES128", NULL, "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff",
     "874d6191b620e3261bef6864990db6ce9806f66b7970fdff8617187bb9fffdff"
     "5ae4df3edbd5d35e5b4f09020db03eab1e031dda2fbe03d1792170a0f3009cee"},
    {"F.5.3 CTR-AES192", NULL, "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff",
     "1abc932417521ca24f2b0459fe7e6e0b090339ec0aa6faefd5ccc2c6f4ce8e94"
     "1e36b26bd1ebc670d1bd1d665620abf74f78a7f6d29809585a97daec58c6b050"},
    {"F.5.5 CTR-AES256", NULL, "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff",
     "601ec313775789a5b7a7f504bbf3d228f443e3ca4d62b59aca84e990cacaf5c5"
     "2b0930daa23de94ce87017ba2d84988ddfc9c58db67aada613c2dd08457941a6"},
};

/* Number of copies of the 4-block ECB vector run at once, so that the wide paths (16 blocks per
 * pass) are reached too. */
#define ECB_COPIES 9

static void test_sp800_38a(int path) {
  uint8_t key[32], pt[64], ct[64], iv[16], buf[64], ivw[16];
  uint8_t big_pt[64 * ECB_COPIES], big_ct[64 * ECB_COPIES], big[64 * ECB_COPIES];
  hex(k_plain, pt, 64);
  for (int v = 0; v < 3; v++) {
    const char *kh = v == 0 ? k_key128 : v == 1 ? k_key192 : k_key256;
    const size_t klen = strlen(kh) / 2;
    hex(kh, key, klen);
    fm_aes_key k;
    CHECK_EQ_INT(fm_aes_key_init(&k, key, klen), FM_OK);

    /* ECB (F.1.1/F.1.3/F.1.5 encrypt, F.1.2/F.1.4/F.1.6 decrypt), also in place and repeated. */
    hex(k_ecb[v].ct, ct, 64);
    CHECK_EQ_INT(fm_aes_ecb_encrypt(&k, pt, buf, 64), FM_OK);
    CHECK_MEM(buf, ct, 64);
    CHECK_EQ_INT(fm_aes_ecb_decrypt(&k, ct, buf, 64), FM_OK);
    CHECK_MEM(buf, pt, 64);
    memcpy(buf, pt, 64);
    CHECK_EQ_INT(fm_aes_ecb_encrypt(&k, buf, buf, 64), FM_OK);
    CHECK_MEM(buf, ct, 64);
    for (int c = 0; c < ECB_COPIES; c++) {
      memcpy(big_pt + 64 * c, pt, 64);
      memcpy(big_ct + 64 * c, ct, 64);
    }
    CHECK_EQ_INT(fm_aes_ecb_encrypt(&k, big_pt, big, sizeof big), FM_OK);
    CHECK_MEM(big, big_ct, sizeof big);
    CHECK_EQ_INT(fm_aes_ecb_decrypt(&k, big, big, sizeof big), FM_OK);
    CHECK_MEM(big, big_pt, sizeof big);

    /* CBC (F.2.1/F.2.3/F.2.5 encrypt, F.2.2/F.2.4/F.2.6 decrypt); the IV ends as the last
     * ciphertext block. */
    hex(k_cbc[v].ct, ct, 64);
    hex(k_cbc[v].iv, iv, 16);
    memcpy(ivw, iv, 16);
    CHECK_EQ_INT(fm_aes_cbc_encrypt(&k, ivw, pt, buf, 64), FM_OK);
    CHECK_MEM(buf, ct, 64);
    CHECK_MEM(ivw, ct + 48, 16);
    memcpy(ivw, iv, 16);
    CHECK_EQ_INT(fm_aes_cbc_decrypt(&k, ivw, ct, buf, 64), FM_OK);
    CHECK_MEM(buf, pt, 64);
    CHECK_MEM(ivw, ct + 48, 16);
    memcpy(ivw, iv, 16);
    memcpy(buf, ct, 64);
    CHECK_EQ_INT(fm_aes_cbc_decrypt(&k, ivw, buf, buf, 64), FM_OK);
    CHECK_MEM(buf, pt, 64);

    /* CTR (F.5.1/F.5.3/F.5.5 encrypt, F.5.2/F.5.4/F.5.6 decrypt), both counter widths agree here
     * (no carry out of the last 32 bits), and the counter ends at the initial one + 4. */
    hex(k_ctr[v].ct, ct, 64);
    for (int w = 0; w < 2; w++) {
      const fm_aes_ctr_width width = w == 0 ? FM_AES_CTR32 : FM_AES_CTR128;
      uint8_t want_ctr[16];
      hex(k_ctr[v].iv, iv, 16);
      memcpy(want_ctr, iv, 16);
      want_ctr[15] = (uint8_t)(want_ctr[15] + 4); /* ...feff + 4 = ...ff03 */
      want_ctr[14] = 0xff;
      memcpy(ivw, iv, 16);
      CHECK_EQ_INT(fm_aes_ctr(&k, width, ivw, pt, buf, 64), FM_OK);
      CHECK_MEM(buf, ct, 64);
      CHECK_MEM(ivw, want_ctr, 16);
      memcpy(ivw, iv, 16);
      CHECK_EQ_INT(fm_aes_ctr(&k, width, ivw, ct, buf, 64), FM_OK);
      CHECK_MEM(buf, pt, 64);
    }

    /* The internal CTR entry point: with in == NULL it writes the key stream (ct ^ pt). */
    aes_ks ks;
    CHECK_EQ_INT(aes_ks_init_encrypt(&ks, key, klen), 1);
    hex(k_ctr[v].iv, ivw, 16);
    aes_ctr128_blocks(&ks, ivw, NULL, buf, 4);
    for (int i = 0; i < 64; i++) buf[i] ^= pt[i];
    CHECK_MEM(buf, ct, 64);
    hex(k_ctr[v].iv, ivw, 16);
    memcpy(buf, pt, 64);
    aes_ctr128_blocks(&ks, ivw, buf, buf, 4);
    CHECK_MEM(buf, ct, 64);
    aes_ks_wipe(&ks);

    CHECK_EQ_INT(fm_aes_key_wipe(&k), FM_OK);
    if (test_failures != 0) fprintf(stderr, "  (path %s, %s)\n", aes_test_path_name(path), kh);
  }
}

static void test_sp800_38a_every_path(void) {
  int paths[3];
  const int n = aes_test_paths(paths);
  for (int i = 0; i < n; i++) {
    aes_limit_path_for_testing(paths[i]);
    test_sp800_38a(paths[i]);
  }
  aes_limit_path_for_testing(0);
}

static const test_case cases[] = {
  TEST_CASE(fips197_appendix_c),
  TEST_CASE(other_key_sizes_refused),
  TEST_CASE(fips197_appendix_a_key_expansion),
  TEST_CASE(sp800_38a_every_path),
};

int main(int argc, char **argv) { return TEST_RUN(argc, argv, "test_aes_kat", cases); }
