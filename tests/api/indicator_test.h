/* What the files of test_indicator share: the checks of the indicator after a call, the
 * constants and keys the cases use, and the table of cases each file contributes. The cases,
 * one per row of policy/services.tsv, are grouped by family: test_indicator.c (module, status,
 * self-tests, and the runner), indicator_sym.c (hashes, HMAC, AES, GCM, KDFs),
 * indicator_rng_rsa.c (RNG, UUIDs, the caller-seeded CTR_DRBG, RSA) and indicator_ec_pq.c
 * (elliptic curves, ML-DSA, ML-KEM). */
#ifndef FIPSMOD_TESTS_API_INDICATOR_TEST_H
#define FIPSMOD_TESTS_API_INDICATOR_TEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fipsmod/fipsmod.h"
#include "tests/common/test_util.h"

/* indicator returns the calling thread's service indicator (99 when it cannot be read). */
fm_indicator indicator(void);

/* set_indicator leaves the indicator at |want| by an approved or a failing fm_sha256 call. */
void set_indicator(fm_indicator want);

/* APPROVED: the call returns FM_OK and the indicator says approved. */
#define APPROVED(call)                                   \
  do {                                                   \
    set_indicator(FM_INDICATOR_NOT_APPROVED);            \
    CHECK_EQ_INT((call), FM_OK);                         \
    CHECK_EQ_INT(indicator(), FM_INDICATOR_APPROVED);    \
  } while (0)

/* OK_NOT_APPROVED: the call returns FM_OK, but with parameters outside the approved set. */
#define OK_NOT_APPROVED(call)                             \
  do {                                                    \
    set_indicator(FM_INDICATOR_APPROVED);                 \
    CHECK_EQ_INT((call), FM_OK);                          \
    CHECK_EQ_INT(indicator(), FM_INDICATOR_NOT_APPROVED); \
  } while (0)

/* FAILS: the call returns |status| (an error) and the indicator says not approved. */
#define FAILS(status, call)                               \
  do {                                                    \
    set_indicator(FM_INDICATOR_APPROVED);                 \
    CHECK_EQ_INT((call), (status));                       \
    CHECK_EQ_INT(indicator(), FM_INDICATOR_NOT_APPROVED); \
  } while (0)

/* UNCHANGED: the call (an expression whose value is ignored; it may fail) leaves the indicator
 * as it was, APPROVED or NOT_APPROVED. */
#define UNCHANGED(call)                                   \
  do {                                                    \
    set_indicator(FM_INDICATOR_APPROVED);                 \
    (void)!(call);                                        \
    CHECK_EQ_INT(indicator(), FM_INDICATOR_APPROVED);     \
    set_indicator(FM_INDICATOR_NOT_APPROVED);             \
    (void)!(call);                                        \
    CHECK_EQ_INT(indicator(), FM_INDICATOR_NOT_APPROVED); \
  } while (0)

/* Constants of the cases (test_indicator.c). */
extern const uint8_t key32[32];
extern const uint8_t e65537[3];
extern const uint8_t msg[3];

/* Shared keys, made once by main (test_indicator.c): a generated 2048-bit RSA private key and its
 * components, a 1024-bit RSA public key and a PKCS#1 v1.5 SHA-256 signature of "abc" under it, an
 * AES-256 key and a GCM key (AES-256, RBG-based IVs) under key32. */
extern fm_rsa_key *rsa2048;
extern fm_rsa_key *rsa1024pub;
extern uint8_t n1024[128], sig1024[128];
extern uint8_t n2048[256], d2048[256], p2048[128], q2048[128];
extern size_t n2048_len, d2048_len, p2048_len, q2048_len;
extern fm_aes_key aes;
extern fm_gcm_key gk;

/* One case: the exported function it covers, the case, and whether it ran. Each file's table
 * ends with a row whose symbol is NULL. */
typedef struct {
  const char *symbol;
  void (*run)(void);
  bool ran;
} service_case;

#define CASE(sym) {#sym, case_##sym, false}

extern service_case indicator_cases_sym[];
extern service_case indicator_cases_rng_rsa[];
extern service_case indicator_cases_ec_pq[];

#endif
