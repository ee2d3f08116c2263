/* RSA key checks at import: one test per key-validation failure (n, e, d, p, q and the CRT
 * values of the CAVP RSASP1 key edited one at a time), the public and (n, e, d) forms, and the
 * FIPS 186-5 / SP 800-56B checks on whole bad keys (rsa_bad_keys.h: close primes, a composite p,
 * d + lambda, p below sqrt(2)). The rest of the RSA unit tests are in test_rsa_unit.c. */
#define _GNU_SOURCE
#include <string.h>

#include "fipsmod/rsa.h"
#include "module/internal.h"
#include "module/rsa/internal.h"
#include "rsa_bad_keys.h"
#include "rsa_unit_keys.h"
#include "rsa_pubcheck_vectors.h"
#include "tests/common/test_util.h"

/* ---- Key validation: one test per failure --------------------------------------------------- */

/* The import under test: fm_rsa_key_import_private, or the consistency-only import (every check
 * but the primality of p and q) for the *_consistent cases. */
static int (*g_import)(const fm_rsa_private_components *, fm_rsa_key **) = fm_rsa_key_import_private;

/* import_modified imports the RSASP1 key with its CRT values after |edit| changed a copy. */
static int import_modified(void (*edit)(key_blobs *)) {
  key_blobs k = g_sp1;
  edit(&k);
  fm_rsa_private_components c = components_of(&k);
  fm_rsa_key *key = (fm_rsa_key *)0x1;
  int st = g_import(&c, &key);
  if (st != FM_OK) CHECK(key == NULL);
  fm_rsa_key_free(key);
  return st;
}

/* Adds v to the big-endian number in |x| (no carry past the top byte is needed here). */
static void add_small(blob *x, unsigned v) {
  for (size_t i = x->len; i-- > 0 && v;) {
    v += x->b[i];
    x->b[i] = (uint8_t)v;
    v >>= 8;
  }
}

static void edit_none(key_blobs *k) { (void)k; }
static void edit_n_small(key_blobs *k) { k->n.len = 128; }          /* 1024 bits */
static void edit_n_huge(key_blobs *k) {
  memset(k->n.b, 0xff, FM_RSA_MAX_BYTES + 1);                          /* 16392 bits */
  k->n.len = FM_RSA_MAX_BYTES + 1;
}
static void edit_n_even(key_blobs *k) { k->n.b[k->n.len - 1] ^= 1; }
static void edit_e_even(key_blobs *k) { add_small(&k->e, 1); }       /* 65538 */
static void edit_e_small(key_blobs *k) { k->e.b[0] = 3; k->e.len = 1; }
static void edit_e_huge(key_blobs *k) {                               /* 2^256 + 1 */
  memset(k->e.b, 0, 33);
  k->e.b[0] = 1;
  k->e.b[32] = 1;
  k->e.len = 33;
}
static void edit_p_even(key_blobs *k) { k->p.b[k->p.len - 1] ^= 1; }
static void edit_p_short(key_blobs *k) { k->p.b[0] = 0x7f; }          /* 1023 bits */
static void edit_p_times_q(key_blobs *k) { add_small(&k->p, 2); }
static void edit_d_zero(key_blobs *k) { memset(k->d.b, 0, k->d.len); }
static void edit_d_too_big(key_blobs *k) { k->d = k->n; }
static void edit_d_small(key_blobs *k) {                              /* d = 2^1024 */
  memset(k->d.b, 0, k->d.len);
  k->d.b[k->d.len - 129] = 1;
}
static void edit_d_inconsistent(key_blobs *k) { add_small(&k->d, 2); }
static void edit_dp(key_blobs *k) { add_small(&k->dp, 2); }
static void edit_dq(key_blobs *k) { add_small(&k->dq, 2); }
static void edit_qinv(key_blobs *k) { add_small(&k->qinv, 1); }
static void edit_d_wider_than_n(key_blobs *k) {
  memmove(k->d.b + 1, k->d.b, k->d.len);
  k->d.b[0] = 1;
  k->d.len++;
}

static void test_validation_accepts_good_key(void) { CHECK_EQ_INT(import_modified(edit_none), FM_OK); }
static void test_validation_modulus_too_small(void) {
  CHECK_EQ_INT(import_modified(edit_n_small), FM_ERR_KEY_SIZE);
}
static void test_validation_modulus_too_large(void) {
  CHECK_EQ_INT(import_modified(edit_n_huge), FM_ERR_KEY_SIZE);
}
static void test_validation_modulus_even(void) {
  CHECK_EQ_INT(import_modified(edit_n_even), FM_ERR_BAD_KEY);
}
static void test_validation_e_even(void) { CHECK_EQ_INT(import_modified(edit_e_even), FM_ERR_BAD_KEY); }
static void test_validation_e_below_65537(void) {
  CHECK_EQ_INT(import_modified(edit_e_small), FM_ERR_BAD_KEY);
}
static void test_validation_e_above_2_256(void) {
  CHECK_EQ_INT(import_modified(edit_e_huge), FM_ERR_BAD_KEY);
}
static void test_validation_p_even(void) { CHECK_EQ_INT(import_modified(edit_p_even), FM_ERR_BAD_KEY); }
static void test_validation_p_wrong_size(void) {
  CHECK_EQ_INT(import_modified(edit_p_short), FM_ERR_BAD_KEY);
}
static void test_validation_p_times_q_not_n(void) {
  CHECK_EQ_INT(import_modified(edit_p_times_q), FM_ERR_BAD_KEY);
}
static void test_validation_d_zero(void) { CHECK_EQ_INT(import_modified(edit_d_zero), FM_ERR_BAD_KEY); }
static void test_validation_d_not_below_n(void) {
  CHECK_EQ_INT(import_modified(edit_d_too_big), FM_ERR_BAD_KEY);
}
static void test_validation_d_too_small(void) {
  CHECK_EQ_INT(import_modified(edit_d_small), FM_ERR_BAD_KEY);
}
static void test_validation_d_inconsistent(void) {
  CHECK_EQ_INT(import_modified(edit_d_inconsistent), FM_ERR_BAD_KEY);
}
static void test_validation_dp_wrong(void) { CHECK_EQ_INT(import_modified(edit_dp), FM_ERR_BAD_KEY); }
static void test_validation_dq_wrong(void) { CHECK_EQ_INT(import_modified(edit_dq), FM_ERR_BAD_KEY); }
static void test_validation_qinv_wrong(void) {
  CHECK_EQ_INT(import_modified(edit_qinv), FM_ERR_BAD_KEY);
}
static void test_validation_component_wider_than_n(void) {
  CHECK_EQ_INT(import_modified(edit_d_wider_than_n), FM_ERR_BAD_KEY);
}

/* The per-field cases, for the consistency-only import's run of them. */
static void (*const cases_per_field[])(void) = {
    test_validation_accepts_good_key,      test_validation_modulus_too_small,
    test_validation_modulus_too_large,     test_validation_modulus_even,
    test_validation_e_even,                test_validation_e_below_65537,
    test_validation_e_above_2_256,         test_validation_p_even,
    test_validation_p_wrong_size,          test_validation_p_times_q_not_n,
    test_validation_d_zero,                test_validation_d_not_below_n,
    test_validation_d_too_small,           test_validation_d_inconsistent,
    test_validation_dp_wrong,              test_validation_dq_wrong,
    test_validation_qinv_wrong,            test_validation_component_wider_than_n,
};

static void test_validation_bad_arguments(void) {
  fm_rsa_private_components c = components_of(&g_sp1);
  fm_rsa_key *key = NULL;
  CHECK_EQ_INT(fm_rsa_key_import_private(NULL, &key), FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_rsa_key_import_private(&c, NULL), FM_ERR_BAD_ARGUMENT);
  fm_rsa_private_components partial = c;
  partial.qinv = NULL;
  partial.qinv_len = 0; /* dp and dq without qinv */
  CHECK_EQ_INT(fm_rsa_key_import_private(&partial, &key), FM_ERR_BAD_ARGUMENT);
  fm_rsa_private_components null_d = c;
  null_d.d = NULL; /* NULL with a length */
  CHECK_EQ_INT(fm_rsa_key_import_private(&null_d, &key), FM_ERR_BAD_ARGUMENT);
  fm_rsa_private_components no_p = c;
  no_p.p_len = 0;
  CHECK_EQ_INT(fm_rsa_key_import_private(&no_p, &key), FM_ERR_BAD_ARGUMENT);
  CHECK(key == NULL);
}

static void test_public_key_validation(void) {
  fm_rsa_key *key = NULL;
  const blob n = g_sp1.n, e = g_sp1.e;
  CHECK_EQ_INT(fm_rsa_key_import_public(n.b, n.len, e.b, e.len, &key), FM_OK);
  int priv = 1;
  CHECK_EQ_INT(fm_rsa_key_is_private(key, &priv), FM_OK);
  CHECK_EQ_INT(priv, 0);
  uint8_t buf[FM_RSA_MAX_BYTES];
  size_t len = 0;
  CHECK_EQ_INT(fm_rsa_key_export(key, FM_RSA_D, buf, sizeof(buf), &len), FM_ERR_BAD_KEY);
  CHECK_EQ_INT(fm_rsa_key_export(key, FM_RSA_N, buf, 10, &len), FM_ERR_BUFFER_TOO_SMALL);
  CHECK(test_is_all_zero(buf, 10) && len == 0);
  CHECK_EQ_INT(fm_rsa_key_export(key, (fm_rsa_component)99, buf, sizeof(buf), &len),
               FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_rsa_key_export(key, FM_RSA_N, buf, sizeof(buf), &len), FM_OK);
  CHECK_EQ_INT(len, n.len);
  CHECK_MEM(buf, n.b, n.len);
  fm_rsa_key_free(key);
  /* 1024 bits is the smallest public modulus, 1023 bits is refused. (A real modulus: an
   * arbitrary 1024-bit number would fail the SP 800-89 checks, test_rsa_pubcheck.) */
  uint8_t n1024[128];
  CHECK_EQ_INT(test_hex_decode(k_n_1024, n1024, sizeof n1024), 128);
  CHECK_EQ_INT(fm_rsa_key_import_public(n1024, 128, e.b, e.len, &key), FM_OK);
  fm_rsa_key_free(key);
  n1024[0] = 0x7f;
  CHECK_EQ_INT(fm_rsa_key_import_public(n1024, 128, e.b, e.len, &key), FM_ERR_KEY_SIZE);
  /* An even modulus and a small e are refused. */
  n1024[127] ^= 1;
  n1024[0] = 0xff;
  CHECK_EQ_INT(fm_rsa_key_import_public(n1024, 128, e.b, e.len, &key), FM_ERR_BAD_KEY);
  const uint8_t e3[] = {3};
  CHECK_EQ_INT(fm_rsa_key_import_public(n.b, n.len, e3, 1, &key), FM_ERR_BAD_KEY);
  CHECK_EQ_INT(fm_rsa_key_import_public(n.b, 0, e.b, e.len, &key), FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_rsa_key_import_public(NULL, n.len, e.b, e.len, &key), FM_ERR_BAD_ARGUMENT);
  CHECK(key == NULL);
}

static void test_nd_key_validation(void) {
  fm_rsa_key *key = NULL;
  const blob n = g_sp1.n, e = g_sp1.e;
  blob d = g_sp1.d;
  add_small(&d, 2);
  CHECK_EQ_INT(fm_rsa_key_import_private_nd(n.b, n.len, e.b, e.len, d.b, d.len, &key),
               FM_ERR_BAD_KEY);
  const uint8_t one[] = {1};
  CHECK_EQ_INT(fm_rsa_key_import_private_nd(n.b, n.len, one, 1, g_sp1.d.b, g_sp1.d.len, &key),
               FM_ERR_BAD_KEY);
  CHECK_EQ_INT(fm_rsa_key_import_private_nd(n.b, n.len, e.b, e.len, n.b, n.len, &key),
               FM_ERR_BAD_KEY); /* d = n */
  CHECK(key == NULL);
}

static void test_keygen_bad_size(void) {
  fm_rsa_key *key = (fm_rsa_key *)0x1;
  CHECK_EQ_INT(fm_rsa_key_generate(1024, &key), FM_ERR_KEY_SIZE);
  CHECK(key == NULL);
  CHECK_EQ_INT(fm_rsa_key_generate(2047, &key), FM_ERR_KEY_SIZE);
  CHECK_EQ_INT(fm_rsa_key_generate(2048, NULL), FM_ERR_BAD_ARGUMENT);
}

/* ---- FIPS 186-5 / SP 800-56B key checks ---------------------------------------------------- */

/* import_hex_key imports one of rsa_bad_keys.h's keys, with its CRT values or without them. */
static int import_hex_key(const rsa_hex_key *h, int with_crt, fm_rsa_key **key) {
  static key_blobs b;
  b.n = hex(h->n);
  b.e = hex(h->e);
  b.d = hex(h->d);
  b.p = hex(h->p);
  b.q = hex(h->q);
  b.dp = hex(h->dp);
  b.dq = hex(h->dq);
  b.qinv = hex(h->qinv);
  fm_rsa_private_components c = components_of(&b);
  if (!with_crt) {
    c.dp = c.dq = c.qinv = NULL;
    c.dp_len = c.dq_len = c.qinv_len = 0;
  }
  *key = (fm_rsa_key *)0x1;
  return g_import(&c, key);
}

/* The good key of rsa_bad_keys.h (same construction as the bad ones) imports and signs. */
static void test_import_accepts_good_generated_key(void) {
  for (int crt = 0; crt < 2; crt++) {
    fm_rsa_key *key = NULL;
    CHECK_EQ_INT(import_hex_key(&kGoodKey, crt, &key), FM_OK);
    if (key != NULL) round_trips(key);
    fm_rsa_key_free(key);
  }
}

/* expect_refused: the key is refused with FM_ERR_BAD_KEY and *key is NULL, with CRT values and
 * without. */
static void expect_refused(const rsa_hex_key *h, const char *what) {
  for (int crt = 0; crt < 2; crt++) {
    fm_rsa_key *key = NULL;
    const int st = import_hex_key(h, crt, &key);
    if (st != FM_ERR_BAD_KEY) fprintf(stderr, "%s (crt %d): %s\n", what, crt, fm_strerror(st));
    CHECK_EQ_INT(st, FM_ERR_BAD_KEY);
    CHECK(key == NULL);
    if (st == FM_OK) fm_rsa_key_free(key);
  }
}

/* |p - q| ~ 2^400 <= 2^(nlen/2 - 100) (SP 800-56B Rev. 2 6.4.1.2.1, FIPS 186-5 A.1.3 5.4). */
static void test_import_refuses_close_primes(void) { expect_refused(&kBadClose, "close primes"); }

/* p = p1 * p2: not prime (Miller-Rabin, FIPS 186-5 B.3.1). */
static void test_import_refuses_composite_p(void) { expect_refused(&kBadComposite, "composite p"); }

/* d + lambda(n): e * d = 1 mod lambda(n) still holds, but d >= lambda(n) (FIPS 186-5 A.1.1). */
static void test_import_refuses_d_plus_lambda(void) {
  expect_refused(&kBadDPlusLambda, "d + lambda");
}

/* p < sqrt(2) * 2^(nlen/2 - 1), though of nlen/2 bits (FIPS 186-5 A.1.3 4.4). */
static void test_import_refuses_small_p(void) { expect_refused(&kBadSmallP, "p below sqrt(2)"); }

/* Keys from (n, e, d) serve RSASP1 and RSADP only: PKCS#1 v1.5 and PSS signing are refused with
 * FM_ERR_BAD_ARGUMENT and a wiped output, RSASP1 and RSADP work. */
static void test_nd_key_only_for_primitives(void) {
  fm_rsa_key *key = NULL;
  CHECK_EQ_INT(fm_rsa_key_import_private_nd(g_sp1.n.b, g_sp1.n.len, g_sp1.e.b, g_sp1.e.len,
                                            g_sp1.d.b, g_sp1.d.len, &key),
               FM_OK);
  if (key == NULL) return;
  uint8_t out[FM_RSA_MAX_BYTES];
  size_t out_len = 9;
  const uint8_t msg[] = "m", two[] = {2};
  memset(out, 0xaa, sizeof(out));
  CHECK_EQ_INT(fm_rsa_sign_pkcs1v15(key, FM_HASH_SHA256, msg, 1, out, sizeof(out), &out_len),
               FM_ERR_BAD_ARGUMENT);
  CHECK(test_is_all_zero(out, 256) && out_len == 0);
  CHECK_EQ_INT(fm_rsa_sign_pss(key, FM_HASH_SHA384, msg, 1, 48, out, sizeof(out), &out_len),
               FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_rsa_sign_pss_with_salt(key, FM_HASH_SHA256, msg, 1, NULL, 0, out, sizeof(out),
                                         &out_len),
               FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_rsa_rsasp1(key, two, 1, out, sizeof(out), &out_len), FM_OK);
  CHECK_EQ_INT(fm_rsa_rsadp(key, two, 1, out, sizeof(out), &out_len), FM_OK);
  fm_rsa_key_free(key);
}

/* ---- The consistency-only import and fm_rsa_key_validate ------------------------------------ */

/* Every per-field refusal above is also the consistency-only import's. */
static void test_consistent_import_refuses_each_failure(void) {
  g_import = fm_rsa_key_import_private_consistent;
  for (size_t i = 0; i < sizeof(cases_per_field) / sizeof(cases_per_field[0]); i++)
    cases_per_field[i]();
  g_import = fm_rsa_key_import_private;
}

/* The whole-key checks too, but for the composite p, which only fm_rsa_key_validate sees. */
static void test_consistent_import_and_validate(void) {
  g_import = fm_rsa_key_import_private_consistent;
  expect_refused(&kBadClose, "close primes (consistent)");
  expect_refused(&kBadDPlusLambda, "d + lambda (consistent)");
  expect_refused(&kBadSmallP, "p below sqrt(2) (consistent)");
  for (int crt = 0; crt < 2; crt++) {
    fm_rsa_key *key = NULL;
    CHECK_EQ_INT(import_hex_key(&kGoodKey, crt, &key), FM_OK);
    CHECK_EQ_INT(fm_rsa_key_validate(key), FM_OK);
    if (key != NULL) round_trips(key);
    fm_rsa_key_free(key);
    key = NULL;
    CHECK_EQ_INT(import_hex_key(&kBadComposite, crt, &key), FM_OK);
    CHECK_EQ_INT(fm_rsa_key_validate(key), FM_ERR_BAD_KEY);
    fm_rsa_key_free(key);
  }
  /* The composite as q: p and q swapped (without CRT values, which depend on the order). */
  rsa_hex_key swapped = kBadComposite;
  swapped.p = kBadComposite.q;
  swapped.q = kBadComposite.p;
  fm_rsa_key *key = NULL;
  CHECK_EQ_INT(import_hex_key(&swapped, 0, &key), FM_OK);
  CHECK_EQ_INT(fm_rsa_key_validate(key), FM_ERR_BAD_KEY);
  fm_rsa_key_free(key);
  g_import = fm_rsa_key_import_private;
  CHECK_EQ_INT(import_hex_key(&swapped, 0, &key), FM_ERR_BAD_KEY);
}

/* fm_rsa_key_validate refuses what has no primes to test; a generated key passes. */
static void test_validate_arguments(void) {
  CHECK_EQ_INT(fm_rsa_key_validate(NULL), FM_ERR_BAD_ARGUMENT);
  fm_rsa_key *key = NULL;
  CHECK_EQ_INT(fm_rsa_key_import_public(g_sp1.n.b, g_sp1.n.len, g_sp1.e.b, g_sp1.e.len, &key),
               FM_OK);
  CHECK_EQ_INT(fm_rsa_key_validate(key), FM_ERR_UNSUPPORTED);
  fm_rsa_key_free(key);
  key = NULL;
  CHECK_EQ_INT(fm_rsa_key_import_private_nd(g_sp1.n.b, g_sp1.n.len, g_sp1.e.b, g_sp1.e.len,
                                            g_sp1.d.b, g_sp1.d.len, &key),
               FM_OK);
  CHECK_EQ_INT(fm_rsa_key_validate(key), FM_ERR_UNSUPPORTED);
  fm_rsa_key_free(key);
  key = NULL;
  CHECK_EQ_INT(fm_rsa_key_generate(2048, &key), FM_OK);
  CHECK_EQ_INT(fm_rsa_key_validate(key), FM_OK);
  fm_rsa_key_free(key);
}

static const test_case cases[] = {
  TEST_CASE(validation_accepts_good_key),
  TEST_CASE(validation_modulus_too_small),
  TEST_CASE(validation_modulus_too_large),
  TEST_CASE(validation_modulus_even),
  TEST_CASE(validation_e_even),
  TEST_CASE(validation_e_below_65537),
  TEST_CASE(validation_e_above_2_256),
  TEST_CASE(validation_p_even),
  TEST_CASE(validation_p_wrong_size),
  TEST_CASE(validation_p_times_q_not_n),
  TEST_CASE(validation_d_zero),
  TEST_CASE(validation_d_not_below_n),
  TEST_CASE(validation_d_too_small),
  TEST_CASE(validation_d_inconsistent),
  TEST_CASE(validation_dp_wrong),
  TEST_CASE(validation_dq_wrong),
  TEST_CASE(validation_qinv_wrong),
  TEST_CASE(validation_component_wider_than_n),
  TEST_CASE(validation_bad_arguments),
  TEST_CASE(public_key_validation),
  TEST_CASE(nd_key_validation),
  TEST_CASE(keygen_bad_size),
  TEST_CASE(import_accepts_good_generated_key),
  TEST_CASE(import_refuses_close_primes),
  TEST_CASE(import_refuses_composite_p),
  TEST_CASE(import_refuses_d_plus_lambda),
  TEST_CASE(import_refuses_small_p),
  TEST_CASE(nd_key_only_for_primitives),
  TEST_CASE(consistent_import_refuses_each_failure),
  TEST_CASE(consistent_import_and_validate),
  TEST_CASE(validate_arguments),
};

int main(int argc, char **argv) {
  if (fm_module_state() != FM_STATE_OPERATIONAL) {
    fprintf(stderr, "module not operational: %s\n", fm_module_state_name(fm_module_state()));
    return 1;
  }
  fm_rsa_key_free(load_sp1_key()); /* fills g_sp1 with the CRT values */
  return TEST_RUN(argc, argv, "test_rsa_keycheck", cases);
}
