/* The self-test table the runner walks, the groups of tests that run together before first use,
 * and the dispatch from a test's id to the CAST of the unit that owns it.
 *
 * Each algorithm unit keeps its known-answer tests (CASTs) beside its code, with their vectors
 * and the generator of those vectors: module/<unit>/<unit>_cast.c (sha, sha3, aes, rand, kdf, rsa,
 * ec, mlkem, mldsa). Every CAST goes through the module's public entry points
 * (the runner has marked this thread as the self-test thread, so they pass the state gate during
 * SELF_TEST) and compares what they return with values computed outside fipsmod.
 *
 * Nothing here holds a pointer in data (see selftest/internal.h): the table's strings are inline,
 * and each test is a call in selftest_run_kat's switch; the CASTs' vectors' addresses and lengths
 * are part of the hashed code of each unit. */
#include <assert.h>

#include "module/aes/internal.h"
#include "module/ec/internal.h"
#include "module/internal.h"
#include "module/kdf/internal.h"
#include "module/mldsa/internal.h"
#include "module/mlkem/internal.h"
#include "module/rand/internal.h"
#include "module/rsa/internal.h"
#include "module/sha/internal.h"
#include "module/sha3/internal.h"
#include "selftest/internal.h"

/* ---- Running a test by its id ------------------------------------------------------------ */

int selftest_run_kat(fm_selftest_id id) {
  switch (id) {
    case FM_ST_HMAC_SHA256_KAT:
    case FM_ST_SHA256_KAT:
    case FM_ST_SHA384_KAT:
    case FM_ST_SHA512_KAT:
    case FM_ST_HMAC_SHA384_KAT:
    case FM_ST_HMAC_SHA512_KAT:
    case FM_ST_SHA2_TRUNCATED_KAT: return sha_cast(id); /* module/sha/sha_cast.c */
    case FM_ST_AES128_ECB_ENC_KAT:
    case FM_ST_AES128_ECB_DEC_KAT:
    case FM_ST_AES128_CBC_ENC_KAT:
    case FM_ST_AES128_CBC_DEC_KAT:
    case FM_ST_AES128_CTR_ENC_KAT:
    case FM_ST_AES128_CTR_DEC_KAT:
    case FM_ST_AES256_ECB_ENC_KAT:
    case FM_ST_AES256_ECB_DEC_KAT:
    case FM_ST_AES256_CBC_ENC_KAT:
    case FM_ST_AES256_CBC_DEC_KAT:
    case FM_ST_AES256_CTR_ENC_KAT:
    case FM_ST_AES256_CTR_DEC_KAT:
    case FM_ST_AES128_ECB_ENC_BULK_KAT:
    case FM_ST_AES128_ECB_DEC_BULK_KAT:
    case FM_ST_AES128_CBC_DEC_BULK_KAT:
    case FM_ST_AES128_CTR_BULK_KAT:
    case FM_ST_AES128_CTR32_BULK_KAT:
    case FM_ST_AES256_ECB_ENC_BULK_KAT:
    case FM_ST_AES256_ECB_DEC_BULK_KAT:
    case FM_ST_AES256_CBC_DEC_BULK_KAT:
    case FM_ST_AES256_CTR_BULK_KAT:
    case FM_ST_AES256_CTR32_BULK_KAT:
    case FM_ST_AES192_KAT:
    case FM_ST_AES192_BULK_KAT:
    case FM_ST_AES128_GCM_ENC_KAT:
    case FM_ST_AES128_GCM_DEC_KAT:
    case FM_ST_AES256_GCM_ENC_KAT:
    case FM_ST_AES256_GCM_DEC_KAT:
    case FM_ST_AES192_GCM_KAT: return aes_cast(id); /* module/aes/aes_cast.c */
    case FM_ST_HKDF_SHA256_KAT:
    case FM_ST_KBKDF_HMAC_SHA256_KAT:
    case FM_ST_PBKDF2_HMAC_SHA256_KAT: return kdf_cast(id); /* module/kdf/kdf_cast.c */
    case FM_ST_CTR_DRBG_DF_KAT:
    case FM_ST_CTR_DRBG_NODF_KAT:
    case FM_ST_CTR_DRBG_BULK_KAT:
    case FM_ST_CTR_DRBG_UNINSTANTIATE_KAT:
    case FM_ST_ENTROPY_STARTUP: return rand_cast(id); /* module/rand/rand_cast.c */
    case FM_ST_RSA_VERIFY_KAT:
    case FM_ST_RSA_SIGN_KAT: return rsa_cast(id); /* module/rsa/rsa_cast.c */
    case FM_ST_MLDSA_KEYGEN_KAT:
    case FM_ST_MLDSA_SIGN_KAT:
    case FM_ST_MLDSA_VERIFY_KAT: return mldsa_cast(id); /* module/mldsa/mldsa_cast.c */
    case FM_ST_ECDSA_SIGN_KAT: return ec_selftest_ecdsa_sign(); /* module/ec/ec_cast.c */
    case FM_ST_ECDSA_VERIFY_KAT: return ec_selftest_ecdsa_verify();
    case FM_ST_ECDH_KAT: return ec_selftest_ecdh();
    case FM_ST_MLKEM768_KAT: return mlkem_selftest_kat(); /* module/mlkem/mlkem_cast.c */
    case FM_ST_SHA3_KAT: return sha3_selftest_sha3_kat(); /* module/sha3/sha3_cast.c */
    case FM_ST_SHAKE_KAT: return sha3_selftest_shake_kat();
    case FM_ST_HMAC_SHA3_KAT: return sha3_selftest_hmac_kat();
    /* Not known-answer tests: the runner computes the integrity test itself, and the
     * conditional tests run inside their services. */
    case FM_ST_INTEGRITY:
    case FM_ST_ENTROPY_HEALTH:
    case FM_ST_ENTROPY_SOURCE:
    case FM_ST_RSA_PCT:
    case FM_ST_MLDSA_PCT:
    case FM_ST_ECDSA_PCT:
    case FM_ST_MLKEM_PCT:
    case FM_ST_COUNT:
      break;
  }
  return FM_ERR_INTERNAL;
}

const void *selftest_constants_probe(void) { return aes_cast_constants_probe(); }

/* ---- The table ----------------------------------------------------------------------------
 * One row per fm_selftest_id, in the enum's order, which is the order the tests run and the
 * report lists them: HMAC-SHA-256 first and the integrity check second (FIPS 140-3 IG 10.3.A: the
 * algorithm of the integrity test is tested before it is used), then every algorithm, with the
 * entropy start-up test before anything that draws from the entropy source.
 *
 * At power-on (AT_POWER_ON) run only the integrity check with its HMAC-SHA-256 KAT and what the
 * DRBG needs before the first random byte: the CTR_DRBG tests, AES-256 encryption as the DRBG
 * uses it (a block for the derivation function, the 128-bit counter in short and bulk CTR
 * calls), and the entropy start-up test. Every other CAST runs once, before the first use of its
 * algorithm (BEFORE_FIRST_USE; FIPS 140-3 IG 10.3.A allows a CAST before the first use): the
 * algorithm's services call fm_selftest_ensure with one of its tests' ids, and the runner runs
 * that test's group (SELFTEST_GROUPS below). So loading costs the same whatever the number of
 * algorithms, and a process pays only for the algorithms it uses.
 *
 * Conditional tests are listed so that the report shows them (as "not run") before their
 * service first runs, and so that test builds can break them; the entropy source's own failure
 * is listed once it has happened (it is recorded only then).
 *
 * Columns: id, name, algorithm, kind, when, listed only once recorded. */
#define SELFTEST_TABLE(X)                                                                          \
  X(FM_ST_HMAC_SHA256_KAT, "hmac-sha256-kat", "HMAC-SHA-256", KAT, AT_POWER_ON, 0)                 \
  X(FM_ST_INTEGRITY, "integrity", "HMAC-SHA-256", INTEGRITY, AT_POWER_ON, 0)                       \
  X(FM_ST_SHA256_KAT, "sha256-kat", "SHA-256", KAT, BEFORE_FIRST_USE, 0)                           \
  X(FM_ST_SHA384_KAT, "sha384-kat", "SHA-384", KAT, BEFORE_FIRST_USE, 0)                           \
  X(FM_ST_SHA512_KAT, "sha512-kat", "SHA-512", KAT, BEFORE_FIRST_USE, 0)                           \
  X(FM_ST_HMAC_SHA384_KAT, "hmac-sha384-kat", "HMAC-SHA-384", KAT, BEFORE_FIRST_USE, 0)            \
  X(FM_ST_HMAC_SHA512_KAT, "hmac-sha512-kat", "HMAC-SHA-512", KAT, BEFORE_FIRST_USE, 0)            \
  X(FM_ST_AES128_ECB_ENC_KAT, "aes128-ecb-encrypt-kat", "AES-128-ECB", KAT, BEFORE_FIRST_USE, 0)   \
  X(FM_ST_AES128_ECB_DEC_KAT, "aes128-ecb-decrypt-kat", "AES-128-ECB", KAT, BEFORE_FIRST_USE, 0)   \
  X(FM_ST_AES128_CBC_ENC_KAT, "aes128-cbc-encrypt-kat", "AES-128-CBC", KAT, BEFORE_FIRST_USE, 0)   \
  X(FM_ST_AES128_CBC_DEC_KAT, "aes128-cbc-decrypt-kat", "AES-128-CBC", KAT, BEFORE_FIRST_USE, 0)   \
  X(FM_ST_AES128_CTR_ENC_KAT, "aes128-ctr-encrypt-kat", "AES-128-CTR", KAT, BEFORE_FIRST_USE, 0)   \
  X(FM_ST_AES128_CTR_DEC_KAT, "aes128-ctr-decrypt-kat", "AES-128-CTR", KAT, BEFORE_FIRST_USE, 0)   \
  X(FM_ST_AES256_ECB_ENC_KAT, "aes256-ecb-encrypt-kat", "AES-256-ECB", KAT, AT_POWER_ON, 0)        \
  X(FM_ST_AES256_ECB_DEC_KAT, "aes256-ecb-decrypt-kat", "AES-256-ECB", KAT, BEFORE_FIRST_USE, 0)   \
  X(FM_ST_AES256_CBC_ENC_KAT, "aes256-cbc-encrypt-kat", "AES-256-CBC", KAT, BEFORE_FIRST_USE, 0)   \
  X(FM_ST_AES256_CBC_DEC_KAT, "aes256-cbc-decrypt-kat", "AES-256-CBC", KAT, BEFORE_FIRST_USE, 0)   \
  X(FM_ST_AES256_CTR_ENC_KAT, "aes256-ctr-encrypt-kat", "AES-256-CTR", KAT, AT_POWER_ON, 0)        \
  X(FM_ST_AES256_CTR_DEC_KAT, "aes256-ctr-decrypt-kat", "AES-256-CTR", KAT, BEFORE_FIRST_USE, 0)   \
  X(FM_ST_AES128_ECB_ENC_BULK_KAT, "aes128-ecb-encrypt-bulk-kat", "AES-128-ECB", KAT,              \
    BEFORE_FIRST_USE, 0)                                                                           \
  X(FM_ST_AES128_ECB_DEC_BULK_KAT, "aes128-ecb-decrypt-bulk-kat", "AES-128-ECB", KAT,              \
    BEFORE_FIRST_USE, 0)                                                                           \
  X(FM_ST_AES128_CBC_DEC_BULK_KAT, "aes128-cbc-decrypt-bulk-kat", "AES-128-CBC", KAT,              \
    BEFORE_FIRST_USE, 0)                                                                           \
  X(FM_ST_AES128_CTR_BULK_KAT, "aes128-ctr-bulk-kat", "AES-128-CTR", KAT, BEFORE_FIRST_USE, 0)     \
  X(FM_ST_AES128_CTR32_BULK_KAT, "aes128-ctr32-bulk-kat", "AES-128-CTR (32-bit counter)", KAT,     \
    BEFORE_FIRST_USE, 0)                                                                           \
  X(FM_ST_AES256_ECB_ENC_BULK_KAT, "aes256-ecb-encrypt-bulk-kat", "AES-256-ECB", KAT,              \
    BEFORE_FIRST_USE, 0)                                                                           \
  X(FM_ST_AES256_ECB_DEC_BULK_KAT, "aes256-ecb-decrypt-bulk-kat", "AES-256-ECB", KAT,              \
    BEFORE_FIRST_USE, 0)                                                                           \
  X(FM_ST_AES256_CBC_DEC_BULK_KAT, "aes256-cbc-decrypt-bulk-kat", "AES-256-CBC", KAT,              \
    BEFORE_FIRST_USE, 0)                                                                           \
  X(FM_ST_AES256_CTR_BULK_KAT, "aes256-ctr-bulk-kat", "AES-256-CTR", KAT, AT_POWER_ON, 0)          \
  X(FM_ST_AES256_CTR32_BULK_KAT, "aes256-ctr32-bulk-kat", "AES-256-CTR (32-bit counter)", KAT,     \
    BEFORE_FIRST_USE, 0)                                                                           \
  X(FM_ST_AES128_GCM_ENC_KAT, "aes128-gcm-encrypt-kat", "AES-128-GCM", KAT, BEFORE_FIRST_USE, 0)   \
  X(FM_ST_AES128_GCM_DEC_KAT, "aes128-gcm-decrypt-kat", "AES-128-GCM", KAT, BEFORE_FIRST_USE, 0)   \
  X(FM_ST_AES256_GCM_ENC_KAT, "aes256-gcm-encrypt-kat", "AES-256-GCM", KAT, BEFORE_FIRST_USE, 0)   \
  X(FM_ST_AES256_GCM_DEC_KAT, "aes256-gcm-decrypt-kat", "AES-256-GCM", KAT, BEFORE_FIRST_USE, 0)   \
  X(FM_ST_AES192_KAT, "aes192-kat", "AES-192-ECB, -CBC, -CTR", KAT, BEFORE_FIRST_USE, 0)          \
  X(FM_ST_AES192_BULK_KAT, "aes192-bulk-kat", "AES-192-ECB, -CBC, -CTR", KAT,                      \
    BEFORE_FIRST_USE, 0)                                                                           \
  X(FM_ST_AES192_GCM_KAT, "aes192-gcm-kat", "AES-192-GCM", KAT, BEFORE_FIRST_USE, 0)               \
  X(FM_ST_HKDF_SHA256_KAT, "hkdf-sha256-kat", "HKDF (HMAC-SHA-256)", KAT, BEFORE_FIRST_USE, 0)     \
  X(FM_ST_KBKDF_HMAC_SHA256_KAT, "kbkdf-ctr-hmac-sha256-kat", "KBKDF counter (HMAC-SHA-256)",      \
    KAT, BEFORE_FIRST_USE, 0)                                                                      \
  X(FM_ST_PBKDF2_HMAC_SHA256_KAT, "pbkdf2-hmac-sha256-kat", "PBKDF2 (HMAC-SHA-256)", KAT,          \
    BEFORE_FIRST_USE, 0)                                                                           \
  X(FM_ST_CTR_DRBG_DF_KAT, "ctr-drbg-df-kat", "CTR_DRBG (AES-256, df)", KAT, AT_POWER_ON, 0)       \
  X(FM_ST_CTR_DRBG_NODF_KAT, "ctr-drbg-nodf-kat", "CTR_DRBG (AES-256, no df)", KAT, AT_POWER_ON,   \
    0)                                                                                             \
  X(FM_ST_CTR_DRBG_BULK_KAT, "ctr-drbg-bulk-kat", "CTR_DRBG (AES-256, no df)", KAT, AT_POWER_ON,   \
    0)                                                                                             \
  X(FM_ST_CTR_DRBG_UNINSTANTIATE_KAT, "ctr-drbg-uninstantiate-kat", "CTR_DRBG (AES-256)", KAT,     \
    AT_POWER_ON, 0)                                                                                \
  X(FM_ST_ENTROPY_STARTUP, "entropy-startup", "SP 800-90B start-up test (getrandom)", HEALTH,      \
    AT_POWER_ON, 0)                                                                                \
  X(FM_ST_RSA_VERIFY_KAT, "rsa2048-sha256-pkcs1-verify-kat", "RSA-2048 PKCS#1 v1.5 SHA-256 verify", \
    KAT, BEFORE_FIRST_USE, 0)                                                                      \
  X(FM_ST_RSA_SIGN_KAT, "rsa2048-sha256-pkcs1-sign-kat", "RSA-2048 PKCS#1 v1.5 SHA-256 sign", KAT, \
    BEFORE_FIRST_USE, 0)                                                                           \
  X(FM_ST_MLDSA_KEYGEN_KAT, "mldsa44-keygen-kat", "ML-DSA-44 KeyGen", KAT, BEFORE_FIRST_USE, 0)    \
  X(FM_ST_MLDSA_SIGN_KAT, "mldsa44-sign-kat", "ML-DSA-44 Sign (deterministic)", KAT,               \
    BEFORE_FIRST_USE, 0)                                                                           \
  X(FM_ST_MLDSA_VERIFY_KAT, "mldsa44-verify-kat", "ML-DSA-44 Verify", KAT, BEFORE_FIRST_USE, 0)    \
  X(FM_ST_ECDSA_SIGN_KAT, "ecdsa-p256-sha256-sign-kat", "ECDSA P-256 SHA-256 sign, RFC 6979", KAT, \
    BEFORE_FIRST_USE, 0)                                                                           \
  /* Where the AVX-512 IFMA code runs, the verification and ECC CDH tests add P-384's and        \
   * P-521's. */                                                                                   \
  X(FM_ST_ECDSA_VERIFY_KAT, "ecdsa-p256-sha256-verify-kat",                                        \
    "ECDSA P-256 verify; P-384, P-521 IFMA", KAT, BEFORE_FIRST_USE, 0)                             \
  X(FM_ST_ECDH_KAT, "ecc-cdh-p256-kat", "ECC CDH P-256; P-384, P-521 IFMA", KAT,                   \
    BEFORE_FIRST_USE, 0)                                                                           \
  X(FM_ST_MLKEM768_KAT, "mlkem768-kat", "ML-KEM-768", KAT, BEFORE_FIRST_USE, 0)                    \
  X(FM_ST_SHA2_TRUNCATED_KAT, "sha224-sha512t-kat", "SHA-224, SHA-512/224, SHA-512/256", KAT,      \
    BEFORE_FIRST_USE, 0)                                                                           \
  X(FM_ST_SHA3_KAT, "sha3-256-kat", "SHA3-256 (SHA3-224..512)", KAT, BEFORE_FIRST_USE, 0)          \
  X(FM_ST_SHAKE_KAT, "shake-kat", "SHAKE128, SHAKE256", KAT, BEFORE_FIRST_USE, 0)                  \
  X(FM_ST_HMAC_SHA3_KAT, "hmac-sha3-256-kat", "HMAC-SHA3-256 (HMAC-SHA3-*)", KAT,                  \
    BEFORE_FIRST_USE, 0)                                                                           \
  X(FM_ST_ENTROPY_HEALTH, "SP800-90B RCT/APT", "ENTROPY", HEALTH, CONDITIONAL, 0)                  \
  X(FM_ST_RSA_PCT, "RSA-PCT", "RSA", PAIRWISE, CONDITIONAL, 0)                                     \
  X(FM_ST_MLDSA_PCT, "ML-DSA-PCT", "ML-DSA", PAIRWISE, CONDITIONAL, 0)                             \
  X(FM_ST_ECDSA_PCT, "ECDSA-PCT", "ECDSA", PAIRWISE, CONDITIONAL, 0)                               \
  X(FM_ST_MLKEM_PCT, "ML-KEM-PCT", "ML-KEM", PAIRWISE, CONDITIONAL, 0)                             \
  X(FM_ST_ENTROPY_SOURCE, "getrandom", "ENTROPY", HEALTH, CONDITIONAL, 1)

/* The rows, placed by id: an id given twice fails to compile (-Werror=override-init, clang's
 * initializer-overrides), one past the end too, and the count below catches a missing one. */
#define SELFTEST_ROW(id, name, alg, kind, when, listed_late) \
  [id] = {name, alg, FM_SELFTEST_KIND_##kind, FM_SELFTEST_##when, listed_late},
const selftest_def fm_selftest_defs[FM_ST_COUNT] = {SELFTEST_TABLE(SELFTEST_ROW)};

#define SELFTEST_COUNT_ROW(id, name, alg, kind, when, listed_late) +1
static_assert(0 SELFTEST_TABLE(SELFTEST_COUNT_ROW) == FM_ST_COUNT,
              "every fm_selftest_id has exactly one row");

#define SELFTEST_CHECK_ROW(id, name, alg, kind, when, listed_late)                          \
  static_assert(sizeof name <= SELFTEST_NAME_LEN && sizeof alg <= SELFTEST_NAME_LEN, \
                "names fit their row with the terminating zero");
SELFTEST_TABLE(SELFTEST_CHECK_ROW)

static_assert(FM_ST_COUNT <= FM_SELFTEST_MAX_ENTRIES, "the report holds every test");

/* ---- Groups of tests that run before first use -------------------------------------------
 * The tests of one group run together, the first time any of them is ensured, and one flag then
 * covers the group: the services of a family call fm_selftest_ensure with the group's lead and
 * pay one load. Each row is (member, lead); a lead is listed as its own member, and a test that
 * runs before first use and is listed nowhere is a group of its own. Every AES mode (ECB, CBC,
 * CTR, every key size, short and bulk) is one group, reached from fm_aes_key_init; every GCM key
 * size and direction another, reached from the GCM key set-up. */
#define SELFTEST_GROUPS(X)                                       \
  X(FM_ST_AES128_ECB_ENC_KAT, FM_ST_AES128_ECB_ENC_KAT)          \
  X(FM_ST_AES128_ECB_DEC_KAT, FM_ST_AES128_ECB_ENC_KAT)          \
  X(FM_ST_AES128_CBC_ENC_KAT, FM_ST_AES128_ECB_ENC_KAT)          \
  X(FM_ST_AES128_CBC_DEC_KAT, FM_ST_AES128_ECB_ENC_KAT)          \
  X(FM_ST_AES128_CTR_ENC_KAT, FM_ST_AES128_ECB_ENC_KAT)          \
  X(FM_ST_AES128_CTR_DEC_KAT, FM_ST_AES128_ECB_ENC_KAT)          \
  X(FM_ST_AES256_ECB_DEC_KAT, FM_ST_AES128_ECB_ENC_KAT)          \
  X(FM_ST_AES256_CBC_ENC_KAT, FM_ST_AES128_ECB_ENC_KAT)          \
  X(FM_ST_AES256_CBC_DEC_KAT, FM_ST_AES128_ECB_ENC_KAT)          \
  X(FM_ST_AES256_CTR_DEC_KAT, FM_ST_AES128_ECB_ENC_KAT)          \
  X(FM_ST_AES128_ECB_ENC_BULK_KAT, FM_ST_AES128_ECB_ENC_KAT)     \
  X(FM_ST_AES128_ECB_DEC_BULK_KAT, FM_ST_AES128_ECB_ENC_KAT)     \
  X(FM_ST_AES128_CBC_DEC_BULK_KAT, FM_ST_AES128_ECB_ENC_KAT)     \
  X(FM_ST_AES128_CTR_BULK_KAT, FM_ST_AES128_ECB_ENC_KAT)         \
  X(FM_ST_AES128_CTR32_BULK_KAT, FM_ST_AES128_ECB_ENC_KAT)       \
  X(FM_ST_AES256_ECB_ENC_BULK_KAT, FM_ST_AES128_ECB_ENC_KAT)     \
  X(FM_ST_AES256_ECB_DEC_BULK_KAT, FM_ST_AES128_ECB_ENC_KAT)     \
  X(FM_ST_AES256_CBC_DEC_BULK_KAT, FM_ST_AES128_ECB_ENC_KAT)     \
  X(FM_ST_AES256_CTR32_BULK_KAT, FM_ST_AES128_ECB_ENC_KAT)       \
  X(FM_ST_AES128_GCM_ENC_KAT, FM_ST_AES128_GCM_ENC_KAT)          \
  X(FM_ST_AES128_GCM_DEC_KAT, FM_ST_AES128_GCM_ENC_KAT)          \
  X(FM_ST_AES256_GCM_ENC_KAT, FM_ST_AES128_GCM_ENC_KAT)          \
  X(FM_ST_AES256_GCM_DEC_KAT, FM_ST_AES128_GCM_ENC_KAT)          \
  X(FM_ST_AES192_KAT, FM_ST_AES128_ECB_ENC_KAT)                  \
  X(FM_ST_AES192_BULK_KAT, FM_ST_AES128_ECB_ENC_KAT)             \
  X(FM_ST_AES192_GCM_KAT, FM_ST_AES128_GCM_ENC_KAT)

fm_selftest_id selftest_group_lead(fm_selftest_id id) {
  /* A switch compiled into the hashed code, not a table in data. */
#define SELFTEST_GROUP_CASE(member, lead) \
  case member: return lead;
  switch (id) {
    SELFTEST_GROUPS(SELFTEST_GROUP_CASE)
    default: return id;
  }
#undef SELFTEST_GROUP_CASE
}

/* A group's lead comes first in the table's order (test_selftest_unit checks that it is its own lead). */
#define SELFTEST_GROUP_CHECK(member, lead) \
  static_assert(member >= lead, "a group's lead is its first test in the table's order");
SELFTEST_GROUPS(SELFTEST_GROUP_CHECK)
