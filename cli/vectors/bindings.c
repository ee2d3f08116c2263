/* The table of algorithm bindings and the one name dispatcher of `fipsmod kat` and `fipsmod acvp`.
 *
 * Each row binds what a vector file calls an algorithm, in each format, to the functions that
 * run it: an ACVP "algorithm" (and "mode") to its responder and, for `fipsmod kat`, to the
 * checks of answers the module chose itself; a Wycheproof "schema" and "algorithm" to its runner;
 * a CAVP file (recognised by the keys it holds) to its runner. The ACVP responder serves both
 * commands: `fipsmod acvp` sends its response, `fipsmod kat` checks it (check.c). Adding an
 * algorithm is its binding file (functions of the vec_*_fn shapes of internal.h) and a row here.
 *
 * ACVP algorithm names are matched as NIST's server matches them: the hash families whatever
 * their case (ACVP-Server EnumHelpers, StringComparison.OrdinalIgnoreCase), the others exactly;
 * modes whatever their case. CAVP rows are tried in table order (the first that recognises the
 * file runs it); ACVP and Wycheproof names are unique, so their order does not matter. */
#include <string.h>
#include <strings.h>

#include "cli/vectors/internal.h"

/* ---- CAVP: what each kind of file holds ------------------------------------------------------ */

static int cavp_drbg(const rsp_file *f) { return rsp_has_key(f, "ReturnedBits"); }
static int cavp_sha_monte(const rsp_file *f) {
  return rsp_has_key(f, "Seed") && rsp_has_key(f, "MD");
}
static int cavp_sha(const rsp_file *f) { return rsp_has_key(f, "MD") && rsp_has_key(f, "Len"); }
static int cavp_hmac(const rsp_file *f) { return rsp_has_key(f, "Mac") && rsp_has_key(f, "Tlen"); }
/* GCMVS files; the internal-IV request has no IV or Tag, only its [Taglen] sections. */
static int cavp_gcm(const rsp_file *f) {
  return rsp_has_key(f, "AAD") && ((rsp_has_key(f, "Tag") && rsp_has_key(f, "IV")) ||
                                   rsp_has_section(f, "Taglen"));
}
static int cavp_kbkdf(const rsp_file *f) { return rsp_has_key(f, "KI") && rsp_has_key(f, "KO"); }
static int cavp_aes(const rsp_file *f) {
  return rsp_has_key(f, "KEY") && (rsp_has_key(f, "PLAINTEXT") || rsp_has_key(f, "CIPHERTEXT"));
}
static int cavp_rsa_x931(const rsp_file *f) {
  return rsp_has_key(f, "SHAAlg") && rsp_has_key(f, "S") &&
         (rsp_comment_has(f, "X9.31") || rsp_comment_has(f, "X9_31"));
}
static int cavp_rsa_sig(const rsp_file *f) {
  return rsp_has_key(f, "SHAAlg") && rsp_has_key(f, "S");
}
static int cavp_rsa_sp1(const rsp_file *f) {
  return rsp_has_key(f, "EM") && rsp_has_key(f, "S") && rsp_has_key(f, "n");
}
static int cavp_rsa_dp(const rsp_file *f) {
  return rsp_has_key(f, "c") && rsp_has_key(f, "n") && rsp_has_key(f, "Result");
}
static int cavp_rsa_keygen(const rsp_file *f) {
  return rsp_has_key(f, "e") && (rsp_has_key(f, "prandom") || rsp_has_key(f, "xp1") ||
                                 rsp_has_key(f, "Xp") || rsp_has_key(f, "bitlen1"));
}
static int cavp_ec(const rsp_file *f) { return rsp_has_key(f, "Qx") || rsp_has_key(f, "QCAVSx"); }

/* ---- the table ------------------------------------------------------------------------------- */

/* An ACVP hash (sha/ and sha3/sections/03-supported.adoc) and its HMAC, which Wycheproof's
 * mac_test_schema files call HMAC<name without the family dash>. */
#define HASH_ROWS(acvp_name, wp_name, h)                                                         \
  {.acvp_alg = acvp_name, .flags = VEC_NOCASE, .acvp = acvp_sha, .hash = h},                     \
  {.acvp_alg = "HMAC-" acvp_name, .flags = VEC_NOCASE, .acvp = acvp_hmac,                        \
   .wp_schema = "mac_test_schema", .wp_alg = "HMAC" wp_name, .wycheproof = kat_wp_hmac, .hash = h}

static const vec_binding bindings[] = {
    {.acvp_alg = "ctrDRBG", .acvp = acvp_drbg, .cavp_detect = cavp_drbg, .cavp = kat_cavp_drbg},
    HASH_ROWS("SHA2-224", "SHA224", FM_HASH_SHA224),
    HASH_ROWS("SHA2-256", "SHA256", FM_HASH_SHA256),
    HASH_ROWS("SHA2-384", "SHA384", FM_HASH_SHA384),
    HASH_ROWS("SHA2-512", "SHA512", FM_HASH_SHA512),
    HASH_ROWS("SHA2-512/224", "SHA512/224", FM_HASH_SHA512_224),
    HASH_ROWS("SHA2-512/256", "SHA512/256", FM_HASH_SHA512_256),
    HASH_ROWS("SHA3-224", "SHA3-224", FM_HASH_SHA3_224),
    HASH_ROWS("SHA3-256", "SHA3-256", FM_HASH_SHA3_256),
    HASH_ROWS("SHA3-384", "SHA3-384", FM_HASH_SHA3_384),
    HASH_ROWS("SHA3-512", "SHA3-512", FM_HASH_SHA3_512),
    {.cavp_detect = cavp_sha_monte, .cavp = kat_cavp_sha_monte}, /* SHAVS Monte */
    {.cavp_detect = cavp_sha, .cavp = kat_cavp_sha},             /* SHAVS ShortMsg, LongMsg */
    {.acvp_alg = "SHAKE-128", .flags = VEC_NOCASE, .acvp = acvp_shake, .arg = FM_XOF_SHAKE128},
    {.acvp_alg = "SHAKE-256", .flags = VEC_NOCASE, .acvp = acvp_shake, .arg = FM_XOF_SHAKE256},
    {.cavp_detect = cavp_hmac, .cavp = kat_cavp_hmac}, /* HMAC.rsp */
    {.acvp_alg = "ACVP-AES-GCM", .acvp = acvp_gcm, .check_test = acvp_gcm_check_iv,
     .wp_schema = "aead_test_schema", .wp_alg = "AES-GCM", .wycheproof = kat_wp_aes_gcm,
     .cavp_detect = cavp_gcm, .cavp = kat_cavp_gcm},
    /* SP 800-108 counter mode: "KDF" in the registration (KMAC is another algorithm), and
     * "counterMode" in the KDF 1.0 prompt example (kdf/sections/06-test-vectors.adoc). */
    {.acvp_alg = "KDF", .acvp_mode = "KMAC", .flags = VEC_NOT_MODE, .acvp = acvp_kbkdf,
     .check_test = acvp_kbkdf_check, .cavp_detect = cavp_kbkdf, .cavp = kat_cavp_kbkdf},
    {.acvp_alg = "counterMode", .acvp = acvp_kbkdf, .check_test = acvp_kbkdf_check},
    {.acvp_alg = "ACVP-AES-ECB", .acvp = acvp_aes, .arg = ACVP_ECB},
    {.acvp_alg = "ACVP-AES-CBC", .acvp = acvp_aes, .arg = ACVP_CBC,
     .wp_schema = "ind_cpa_test_schema", .wp_alg = "AES-CBC-PKCS5",
     .wycheproof = kat_wp_aes_cbc_pkcs5},
    {.acvp_alg = "ACVP-AES-CTR", .acvp = acvp_aes, .arg = ACVP_CTR,
     .check_test = acvp_aes_check_ctr_iv},
    {.cavp_detect = cavp_aes, .cavp = kat_cavp_aes}, /* AESAVS ECB and CBC */
    {.acvp_alg = "RSA", .flags = VEC_MODE, .acvp = acvp_rsa, .check_group = acvp_rsa_check_group},
    {.wp_schema = "rsassa_pkcs1_verify_schema", .wycheproof = kat_wp_rsa_sig,
     .arg = WP_RSA_PKCS1_VERIFY},
    {.wp_schema = "rsassa_pkcs1_generate_schema", .wycheproof = kat_wp_rsa_sig,
     .arg = WP_RSA_PKCS1_SIGN},
    {.wp_schema = "rsassa_pss_verify_schema", .wycheproof = kat_wp_rsa_sig,
     .arg = WP_RSA_PSS_VERIFY},
    {.cavp_detect = cavp_rsa_x931, .cavp = kat_cavp_rsa_x931}, /* before SigGen: same keys */
    {.cavp_detect = cavp_rsa_sig, .cavp = kat_cavp_rsa_sig},
    {.cavp_detect = cavp_rsa_sp1, .cavp = kat_cavp_rsa_sp1},
    {.cavp_detect = cavp_rsa_dp, .cavp = kat_cavp_rsa_dp},
    {.cavp_detect = cavp_rsa_keygen, .cavp = kat_cavp_rsa_keygen},
    {.cavp_detect = cavp_ec, .cavp = kat_cavp_ec}, /* ECDSA and ECC CDH (ec.c) */
    {.acvp_alg = "KDA", .acvp_mode = "HKDF", .flags = VEC_MODE, .acvp = acvp_hkdf,
     .wp_schema = "hkdf_test_schema", .wycheproof = kat_wp_hkdf},
    {.acvp_alg = "PBKDF", .acvp = acvp_pbkdf, .wp_schema = "pbkdf_test_schema",
     .wycheproof = kat_wp_pbkdf2},
    {.acvp_alg = "ML-DSA", .flags = VEC_MODE, .acvp = acvp_mldsa,
     .wp_schema = "mldsa_verify_schema", .wycheproof = kat_wp_mldsa_verify},
    {.wp_schema = "mldsa_sign_seed_schema", .wycheproof = kat_wp_mldsa_sign, .arg = 1},
    {.wp_schema = "mldsa_sign_noseed_schema", .wycheproof = kat_wp_mldsa_sign, .arg = 0},
    {.acvp_alg = "ECDSA", .flags = VEC_MODE, .acvp = acvp_ecdsa,
     .check_group = acvp_ecdsa_check_group},
    {.acvp_alg = "DetECDSA", .flags = VEC_MODE, .acvp = acvp_ecdsa,
     .check_group = acvp_ecdsa_check_group},
    {.acvp_alg = "KAS-ECC-SSC", .acvp = acvp_kas_ecc, .check_group = acvp_kas_ecc_check_group},
    {.acvp_alg = "KAS-ECC", .acvp = acvp_kas_ecc, .check_group = acvp_kas_ecc_check_group},
    {.wp_schema = "ecdsa_verify_schema", .wycheproof = kat_wp_ecdsa, .arg = 0},
    {.wp_schema = "ecdsa_p1363_verify_schema", .wycheproof = kat_wp_ecdsa, .arg = 1},
    {.wp_schema = "ecdh_test_schema", .wycheproof = kat_wp_ecdh, .arg = 0},
    {.wp_schema = "ecdh_ecpoint_test_schema", .wycheproof = kat_wp_ecdh, .arg = 1},
    {.acvp_alg = "ML-KEM", .flags = VEC_MODE, .acvp = acvp_mlkem, .wp_schema = "mlkem_",
     .wycheproof = kat_wp_mlkem},
};

#define N_BINDINGS (sizeof(bindings) / sizeof(bindings[0]))

/* ---- the dispatcher -------------------------------------------------------------------------- */

static void call_of(const vec_binding *b, vec_call *v) {
  v->hash = b->hash;
  v->arg = b->arg;
}

static int acvp_matches(const vec_binding *b, const char *alg, const char *mode) {
  if (b->acvp == NULL) return 0;
  if ((b->flags & VEC_NOCASE) ? strcasecmp(alg, b->acvp_alg) != 0 : strcmp(alg, b->acvp_alg) != 0) {
    return 0;
  }
  if (b->flags & VEC_NOT_MODE) return mode == NULL || strcasecmp(mode, b->acvp_mode) != 0;
  if (b->flags & VEC_MODE) {
    return mode != NULL && (b->acvp_mode == NULL || strcasecmp(mode, b->acvp_mode) == 0);
  }
  return 1;
}

const vec_binding *vec_find_acvp(const char *alg, const char *mode, const char *revision,
                                 vec_call *v) {
  *v = (vec_call){.alg = alg, .mode = mode, .revision = revision ? revision : "", .schema = ""};
  for (size_t i = 0; i < N_BINDINGS; i++) {
    if (acvp_matches(&bindings[i], alg, mode)) {
      call_of(&bindings[i], v);
      return &bindings[i];
    }
  }
  return NULL;
}

const vec_binding *vec_find_wycheproof(const char *schema, const char *alg, vec_call *v) {
  *v = (vec_call){.alg = alg, .revision = "", .schema = schema};
  for (size_t i = 0; i < N_BINDINGS; i++) {
    const vec_binding *b = &bindings[i];
    if (b->wycheproof == NULL || strncmp(schema, b->wp_schema, strlen(b->wp_schema)) != 0) continue;
    if (b->wp_alg != NULL && strcmp(alg, b->wp_alg) != 0) continue;
    call_of(b, v);
    return b;
  }
  return NULL;
}

const vec_binding *vec_find_cavp(const rsp_file *f, vec_call *v) {
  *v = (vec_call){.alg = "", .revision = "", .schema = ""};
  for (size_t i = 0; i < N_BINDINGS; i++) {
    if (bindings[i].cavp != NULL && bindings[i].cavp_detect(f)) {
      call_of(&bindings[i], v);
      return &bindings[i];
    }
  }
  return NULL;
}

int acvp_hash_by_name(const char *name, fm_hash_alg *alg) {
  vec_call v;
  const vec_binding *b = vec_find_acvp(name, NULL, NULL, &v);
  if (b == NULL || b->acvp != acvp_sha) return -1;
  *alg = b->hash;
  return 0;
}
