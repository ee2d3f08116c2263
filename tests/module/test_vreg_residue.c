/* The services that compute on a private key or a secret input leave nothing that depends on it
 * in the vector registers:
 * - EC (P-256, P-384, P-521): ECDH, deterministic ECDSA, private-key import and export, key
 *   generation, PKCS#8 encoding and decoding (and fm_key_decode);
 * - RSA-2048: PKCS#1 v1.5 and PSS signing, RSADP, the export of d, PKCS#8 encoding and decoding;
 * - ML-KEM-768: key generation from a seed, encapsulation, decapsulation;
 * - ML-DSA-65: key generation from a seed, deterministic and hedged signing;
 * - HKDF, KBKDF, PBKDF2 and HMAC with SHA-256 and SHA-512; encrypted PKCS#8 both ways;
 * - the DRBG's output: random bytes and UUIDs (two draws differ).
 * The compiler moves secrets through xmm, ymm and zmm registers (copies, vectorized loops, the
 * AVX2 and AVX-512 kernels) and nothing clears them on return: a signal frame or the caller's
 * next spill then writes them to memory (the stack residue tests cover the frames; the AES and
 * SHA kernels' own clears are tested in tests/aes and tests/sha).
 *
 * Each check runs the service twice, with two different secrets and everything else equal, each
 * time with every vector register zeroed just before the call and stored just after it (inline
 * asm on both sides of the call, in the same function); the two dumps must be equal. A byte that
 * differs was computed from the secret. The dump covers zmm0-31 where the CPU has AVX-512, ymm0-15
 * with AVX, else xmm0-15, whatever FIPSMOD_CPU says (libc's copies use them in either case); the
 * test is registered for both CPU paths. A planted residue (a secret left in xmm7, and in zmm20
 * where there is one) checks that the comparison sees what a returned function left. x86-64
 * only (tests/module/CMakeLists.txt registers it there alone). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fipsmod/ec.h"
#include "fipsmod/hmac.h"
#include "fipsmod/kdf.h"
#include "fipsmod/key.h"
#include "fipsmod/keyfile.h"
#include "fipsmod/mldsa.h"
#include "fipsmod/mlkem.h"
#include "fipsmod/pkcs8.h"
#include "fipsmod/rand.h"
#include "fipsmod/rsa.h"
#include "fipsmod/uuid.h"
#include "tests/common/test_util.h"
#include "tests/common/vreg_dump.h"

#if defined(__x86_64__)

/* Which registers this CPU has (tests/common/vreg_dump.h). Set once in main. */
static int g_kind;
static uint8_t g_dump[2][VREG_DUMP_MAX];
static size_t g_dump_len;
static test_rng g_rng;

/* RUN makes the call |call| (run |which|, 0 or 1) between vreg_zero and vreg_dump and
 * checks its status. */
#define RUN(which, call)                                        \
  do {                                                          \
    int st_;                                                    \
    vreg_zero(g_kind);                                          \
    st_ = (call);                                               \
    g_dump_len = vreg_dump(g_kind, g_dump[which]);              \
    CHECK_EQ_INT(st_, FM_OK);                                   \
  } while (0)

/* compare_runs fails when the two runs' dumps differ, naming the registers that do, and
 * returns how many bytes differ. */
static size_t compare_runs(const char *what) {
  const size_t reg = vreg_size(g_kind);
  size_t differ = 0;
  for (size_t i = 0; i < g_dump_len; i++) differ += g_dump[0][i] != g_dump[1][i];
  if (differ != 0) {
    fprintf(stderr, "%s: %zu byte(s) of the vector registers depend on the secret:", what, differ);
    for (size_t r = 0; r < g_dump_len / reg; r++) {
      if (memcmp(g_dump[0] + r * reg, g_dump[1] + r * reg, reg) != 0) fprintf(stderr, " %zu", r);
    }
    fprintf(stderr, "\n");
  }
  return differ;
}

#define EXPECT_CLEAN(what) CHECK_EQ_INT((int)compare_runs(what), 0)

/* leave_in_registers: a function that returns with |secret| (64 bytes) in xmm7, and in zmm20
 * where the CPU has AVX-512: the planted residue. */
static __attribute__((noinline)) int leave_in_registers(const uint8_t *secret) {
  __asm__ __volatile__("movdqu (%0), %%xmm7" : : "r"(secret) : "xmm7");
  if (g_kind == 2) __asm__ __volatile__("vmovdqu64 (%0), %%zmm20" : : "r"(secret));
  return FM_OK;
}

static void check_plant(void) {
  uint8_t s[2][64];
  test_rng_bytes(&g_rng, s[0], sizeof s[0]);
  memcpy(s[1], s[0], sizeof s[1]);
  s[1][3] ^= 1;
  s[1][40] ^= 1;
  for (int w = 0; w < 2; w++) RUN(w, leave_in_registers(s[w]));
  const size_t differ = compare_runs("planted residue (expected)");
  /* Byte 3 in xmm7; bytes 3 and 40 in zmm20. */
  CHECK_EQ_INT((int)differ, g_kind == 2 ? 3 : 1);
}

/* ---- EC ------------------------------------------------------------------------------------ */

/* random_scalar sets d to a random private scalar for |curve| (below n: the top byte is kept
 * small, which every P-curve's n exceeds). */
static void random_scalar(fm_ec_curve curve, uint8_t *d) {
  const size_t nb = fm_ec_curve_bytes(curve);
  test_rng_bytes(&g_rng, d, nb);
  d[0] = curve == FM_EC_P521 ? 0x01 : 0x7f;
  d[nb - 1] |= 1;
}

static void check_ec(fm_ec_curve curve) {
  char what[64];
  const size_t nb = fm_ec_curve_bytes(curve);
  const unsigned bits = curve == FM_EC_P521 ? 521u : (unsigned)(nb * 8);
  uint8_t d[2][66], peer[133], z[66], sig[132], digest[32];
  size_t peer_len, len;
  fm_ec_key *key[2] = {NULL, NULL}, *peer_key = NULL;
  random_scalar(curve, d[0]);
  random_scalar(curve, d[1]);
  test_rng_bytes(&g_rng, digest, sizeof digest);
  for (int w = 0; w < 2; w++) {
    CHECK_EQ_INT(fm_ec_key_import_private(curve, d[w], nb, NULL, 0, &key[w]), FM_OK);
  }
  CHECK_EQ_INT(fm_ec_key_generate(curve, &peer_key), FM_OK);
  CHECK_EQ_INT(fm_ec_key_export_public(peer_key, 0, peer, sizeof peer, &peer_len), FM_OK);

  for (int w = 0; w < 2; w++) RUN(w, fm_ecdh(key[w], peer, peer_len, z, sizeof z, &len));
  snprintf(what, sizeof what, "ECDH P-%u", bits);
  EXPECT_CLEAN(what);

  for (int w = 0; w < 2; w++) {
    RUN(w, fm_ecdsa_sign_deterministic_digest(key[w], FM_HASH_SHA256, digest, sizeof digest, sig,
                                              sizeof sig, &len));
  }
  snprintf(what, sizeof what, "deterministic ECDSA P-%u", bits);
  EXPECT_CLEAN(what);

  fm_ec_key *imported[2] = {NULL, NULL};
  for (int w = 0; w < 2; w++) {
    RUN(w, fm_ec_key_import_private(curve, d[w], nb, NULL, 0, &imported[w]));
  }
  snprintf(what, sizeof what, "EC private-key import P-%u", bits);
  EXPECT_CLEAN(what);

  /* The private key as PKCS#8 DER, and read back. */
  uint8_t der[2][256];
  size_t der_len[2];
  for (int w = 0; w < 2; w++) {
    RUN(w, fm_ec_key_encode(key[w], FM_KEY_PKCS8_PRIVATE, FM_KEY_DER, der[w], sizeof der[w],
                            &der_len[w]));
  }
  snprintf(what, sizeof what, "EC PKCS#8 encoding P-%u", bits);
  EXPECT_CLEAN(what);
  fm_ec_key *decoded[2] = {NULL, NULL};
  for (int w = 0; w < 2; w++) RUN(w, fm_ec_key_decode(der[w], der_len[w], &decoded[w]));
  snprintf(what, sizeof what, "EC PKCS#8 decoding P-%u", bits);
  EXPECT_CLEAN(what);

  uint8_t raw[66];
  for (int w = 0; w < 2; w++) RUN(w, fm_ec_key_export_private(key[w], raw, sizeof raw, &len));
  snprintf(what, sizeof what, "EC private-key export P-%u", bits);
  EXPECT_CLEAN(what);
  fm_key *any[2] = {NULL, NULL};
  for (int w = 0; w < 2; w++) RUN(w, fm_key_decode(der[w], der_len[w], NULL, 0, &any[w], NULL));
  snprintf(what, sizeof what, "fm_key_decode, EC P-%u", bits);
  EXPECT_CLEAN(what);
  for (int w = 0; w < 2; w++) CHECK_EQ_INT(fm_key_free(any[w]), FM_OK);

  /* Two key generations draw two private keys. */
  fm_ec_key *generated[2] = {NULL, NULL};
  for (int w = 0; w < 2; w++) RUN(w, fm_ec_key_generate(curve, &generated[w]));
  snprintf(what, sizeof what, "EC key generation P-%u", bits);
  EXPECT_CLEAN(what);

  for (int w = 0; w < 2; w++) {
    CHECK_EQ_INT(fm_ec_key_free(generated[w]), FM_OK);
    CHECK_EQ_INT(fm_ec_key_free(decoded[w]), FM_OK);
    CHECK_EQ_INT(fm_ec_key_free(imported[w]), FM_OK);
    CHECK_EQ_INT(fm_ec_key_free(key[w]), FM_OK);
  }
  CHECK_EQ_INT(fm_ec_key_free(peer_key), FM_OK);
}

/* ---- RSA ----------------------------------------------------------------------------------- */

static void check_rsa(void) {
  fm_rsa_key *key[2] = {NULL, NULL};
  uint8_t msg[64], sig[256];
  size_t len;
  test_rng_bytes(&g_rng, msg, sizeof msg);
  for (int w = 0; w < 2; w++) CHECK_EQ_INT(fm_rsa_key_generate(2048, &key[w]), FM_OK);
  for (int w = 0; w < 2; w++) {
    RUN(w, fm_rsa_sign_pkcs1v15(key[w], FM_HASH_SHA256, msg, sizeof msg, sig, sizeof sig, &len));
  }
  EXPECT_CLEAN("RSA-2048 PKCS#1 v1.5 signing");
  for (int w = 0; w < 2; w++) {
    RUN(w, fm_rsa_sign_pss(key[w], FM_HASH_SHA256, msg, sizeof msg, 32, sig, sizeof sig, &len));
  }
  EXPECT_CLEAN("RSA-2048 PSS signing");
  /* RSADP of one small value (below both moduli) under each key. */
  uint8_t c[256] = {0};
  c[255] = 7;
  c[200] = 1;
  for (int w = 0; w < 2; w++) RUN(w, fm_rsa_rsadp(key[w], c, sizeof c, sig, sizeof sig, &len));
  EXPECT_CLEAN("RSA-2048 RSADP");
  for (int w = 0; w < 2; w++) RUN(w, fm_rsa_key_export(key[w], FM_RSA_D, sig, sizeof sig, &len));
  EXPECT_CLEAN("RSA-2048 export of d");
  static uint8_t der[2][2048];
  size_t der_len[2];
  for (int w = 0; w < 2; w++) {
    RUN(w, fm_rsa_key_encode(key[w], FM_KEY_PKCS8_PRIVATE, FM_KEY_DER, der[w], sizeof der[w],
                             &der_len[w]));
  }
  EXPECT_CLEAN("RSA-2048 PKCS#8 encoding");
  fm_rsa_key *decoded[2] = {NULL, NULL};
  for (int w = 0; w < 2; w++) RUN(w, fm_rsa_key_decode(der[w], der_len[w], &decoded[w]));
  EXPECT_CLEAN("RSA-2048 PKCS#8 decoding");
  for (int w = 0; w < 2; w++) CHECK_EQ_INT(fm_rsa_key_free(decoded[w]), FM_OK);
  for (int w = 0; w < 2; w++) CHECK_EQ_INT(fm_rsa_key_free(key[w]), FM_OK);
}

/* ---- ML-KEM and ML-DSA --------------------------------------------------------------------- */

static void check_mlkem(void) {
  static uint8_t ek[2][FM_MLKEM_MAX_EK_LEN], dk[2][FM_MLKEM_MAX_DK_LEN], ct[FM_MLKEM_MAX_CT_LEN];
  uint8_t seed[2][64], ss[32];
  size_t ek_len, dk_len, ct_len;
  CHECK_EQ_INT(fm_mlkem_sizes(FM_MLKEM_768, &ek_len, &dk_len, &ct_len), FM_OK);
  for (int w = 0; w < 2; w++) test_rng_bytes(&g_rng, seed[w], sizeof seed[w]);
  for (int w = 0; w < 2; w++) {
    RUN(w, fm_mlkem_keygen_from_seed(FM_MLKEM_768, seed[w], sizeof seed[w], ek[w], ek_len, dk[w],
                                     dk_len));
  }
  EXPECT_CLEAN("ML-KEM-768 key generation from a seed");
  /* One ciphertext, for the first key: the second decapsulates it to its implicit-rejection
   * key, the same computation. */
  CHECK_EQ_INT(fm_mlkem_encaps(FM_MLKEM_768, ek[0], ek_len, ct, ct_len, ss, sizeof ss), FM_OK);
  for (int w = 0; w < 2; w++) {
    RUN(w, fm_mlkem_decaps(FM_MLKEM_768, dk[w], dk_len, ct, ct_len, ss, sizeof ss));
  }
  EXPECT_CLEAN("ML-KEM-768 decapsulation");
  /* Two encapsulations draw two messages m. */
  for (int w = 0; w < 2; w++) {
    RUN(w, fm_mlkem_encaps(FM_MLKEM_768, ek[0], ek_len, ct, ct_len, ss, sizeof ss));
  }
  EXPECT_CLEAN("ML-KEM-768 encapsulation");
}

static void check_mldsa(void) {
  static uint8_t pk[2][4096], sk[2][8192], sig[4096];
  uint8_t seed[2][FM_MLDSA_SEED_LEN], msg[64];
  size_t len;
  const size_t pk_len = fm_mldsa_public_key_len(FM_MLDSA_65);
  const size_t sk_len = fm_mldsa_private_key_len(FM_MLDSA_65);
  CHECK(pk_len <= sizeof pk[0] && sk_len <= sizeof sk[0]);
  test_rng_bytes(&g_rng, msg, sizeof msg);
  for (int w = 0; w < 2; w++) test_rng_bytes(&g_rng, seed[w], sizeof seed[w]);
  for (int w = 0; w < 2; w++) {
    RUN(w, fm_mldsa_keygen_from_seed(FM_MLDSA_65, seed[w], pk[w], pk_len, sk[w], sk_len));
  }
  EXPECT_CLEAN("ML-DSA-65 key generation from a seed");
  for (int w = 0; w < 2; w++) {
    RUN(w, fm_mldsa_sign_internal(FM_MLDSA_65, sk[w], sk_len, msg, sizeof msg, NULL, sig,
                                  sizeof sig, &len));
  }
  EXPECT_CLEAN("ML-DSA-65 signing (deterministic)");
  /* Hedged: two signatures draw two rnd. */
  for (int w = 0; w < 2; w++) {
    RUN(w, fm_mldsa_sign(FM_MLDSA_65, sk[0], sk_len, msg, sizeof msg, NULL, 0, 0, sig, sizeof sig,
                         &len));
  }
  EXPECT_CLEAN("ML-DSA-65 signing (hedged)");
}

/* ---- KDFs and HMAC ------------------------------------------------------------------------- */

static void check_kdf(fm_hash_alg alg, const char *name) {
  char what[64];
  uint8_t secret[2][64], salt[16], info[16], fixed[24], out[80];
  for (int w = 0; w < 2; w++) test_rng_bytes(&g_rng, secret[w], sizeof secret[w]);
  test_rng_bytes(&g_rng, salt, sizeof salt);
  test_rng_bytes(&g_rng, info, sizeof info);
  test_rng_bytes(&g_rng, fixed, sizeof fixed);
  for (int w = 0; w < 2; w++) {
    RUN(w, fm_hkdf(alg, secret[w], 32, salt, sizeof salt, info, sizeof info, out, sizeof out));
  }
  snprintf(what, sizeof what, "HKDF-%s", name);
  EXPECT_CLEAN(what);
  for (int w = 0; w < 2; w++) {
    RUN(w, fm_kbkdf_ctr_hmac(alg, secret[w], 32, fixed, sizeof fixed, 0, 32, out, sizeof out));
  }
  snprintf(what, sizeof what, "KBKDF-%s", name);
  EXPECT_CLEAN(what);
  for (int w = 0; w < 2; w++) {
    RUN(w, fm_pbkdf2_hmac(alg, secret[w], 20, salt, sizeof salt, 100, out, 64));
  }
  snprintf(what, sizeof what, "PBKDF2-%s", name);
  EXPECT_CLEAN(what);
  for (int w = 0; w < 2; w++) {
    RUN(w, fm_hmac(alg, secret[w], sizeof secret[w], info, sizeof info, out, 64));
  }
  snprintf(what, sizeof what, "HMAC-%s", name);
  EXPECT_CLEAN(what);
}

/* ---- Encrypted PKCS#8 ------------------------------------------------------------------- */

static void check_pkcs8(void) {
  fm_ec_key *key = NULL;
  uint8_t der[256], enc[2][512], pass[2][16], out[256];
  size_t der_len, enc_len[2], out_len;
  CHECK_EQ_INT(fm_ec_key_generate(FM_EC_P256, &key), FM_OK);
  CHECK_EQ_INT(fm_ec_key_encode(key, FM_KEY_PKCS8_PRIVATE, FM_KEY_DER, der, sizeof der, &der_len),
               FM_OK);
  for (int w = 0; w < 2; w++) test_rng_bytes(&g_rng, pass[w], sizeof pass[w]);
  fm_pkcs8_params params;
  memset(&params, 0, sizeof params);
  params.prf = FM_HASH_SHA256;
  params.aes_key_len = 32;
  params.iterations = 1000;
  params.salt_len = 16;
  for (int w = 0; w < 2; w++) {
    RUN(w, fm_pkcs8_encrypt(der, der_len, pass[w], sizeof pass[w], &params, FM_KEY_DER, enc[w],
                            sizeof enc[w], &enc_len[w]));
  }
  EXPECT_CLEAN("PKCS#8 encryption");
  for (int w = 0; w < 2; w++) {
    RUN(w, fm_pkcs8_decrypt(enc[w], enc_len[w], pass[w], sizeof pass[w], out, sizeof out,
                            &out_len, NULL));
  }
  EXPECT_CLEAN("PKCS#8 decryption");
  CHECK_EQ_INT(fm_ec_key_free(key), FM_OK);
}

/* ---- The DRBG (its output is the secret: two draws differ) -------------------------------- */

static void check_rand(void) {
  static const size_t lens[] = {16, 24, 32, 64, 1000, 5000};
  static uint8_t out[5000];
  for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
    char what[48];
    for (int w = 0; w < 2; w++) RUN(w, fm_rand_bytes(out, lens[i]));
    snprintf(what, sizeof what, "fm_rand_bytes, %zu bytes", lens[i]);
    EXPECT_CLEAN(what);
  }
  uint8_t id[FM_UUID_LEN];
  char text[FM_UUID_STRING_LEN + 1];
  for (int w = 0; w < 2; w++) RUN(w, fm_uuid_v4(id));
  EXPECT_CLEAN("fm_uuid_v4");
  for (int w = 0; w < 2; w++) RUN(w, fm_uuid_v4_string(text));
  EXPECT_CLEAN("fm_uuid_v4_string");
  for (int w = 0; w < 2; w++) RUN(w, fm_uuid_v7_string(text));
  EXPECT_CLEAN("fm_uuid_v7_string");
}

int main(void) {
  test_rng_seed(&g_rng, "test_vreg_residue");
  g_kind = vreg_kind();
  fprintf(stderr, "registers dumped: %s\n", vreg_name(g_kind));
  check_plant();
  check_ec(FM_EC_P256);
  check_ec(FM_EC_P384);
  check_ec(FM_EC_P521);
  check_rsa();
  check_mlkem();
  check_mldsa();
  check_kdf(FM_HASH_SHA256, "SHA-256");
  check_kdf(FM_HASH_SHA512, "SHA-512");
  check_pkcs8();
  check_rand();
  return test_main_result("test_vreg_residue");
}

#else
#error "test_vreg_residue dumps x86-64 registers"
#endif
