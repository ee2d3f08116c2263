/* What module/rsa shares between its files, with the self-tests and with test programs: the key
 * layout and the private-key operation.
 *
 * A key is built completely when it is created and is read-only afterwards: every Montgomery
 * context and every fixed-width secret is in the structure, so signing and verifying take no
 * lock and allocate nothing. Widths (limb counts, bit lengths of n, p and q) are public; d, p, q,
 * dp, dq, qinv and the Montgomery contexts of p and q are secret. */
#ifndef FIPSMOD_MODULE_RSA_INTERNAL_H
#define FIPSMOD_MODULE_RSA_INTERNAL_H

#include <assert.h>
#include <stddef.h>
#include <stdint.h>

#include "fipsmod/rsa.h"
#include "module/bn/internal.h"
#include "module/internal.h"
#include "module/stack_wipe.h"

#define RSA_KEY_MAGIC 0x52534131u /* "RSA1" while the key is live; 0 once freed */

/* Public exponents of keys for signing and verification: 2^16 < e < 2^256 (FIPS 186-5 5.4). */
#define RSA_E_MAX_LIMBS 4

/* Limb count of the largest prime of a private key (half of 16384 bits, plus one limb for odd
 * splits of odd-sized moduli). */
#define RSA_PRIME_MAX_LIMBS (BN_MAX_LIMBS / 2 + 1)

static_assert(FM_RSA_MAX_BYTES == BN_MAX_LIMBS * 8, "the largest modulus fills the bn width");
static_assert(2 * (RSA_PRIME_MAX_LIMBS - 1) >= BN_MAX_LIMBS, "a prime of half the width fits");
static_assert(RSA_E_MAX_LIMBS * 64 == 256, "e < 2^256 fits RSA_E_MAX_LIMBS limbs");

struct fm_rsa_key {
  uint32_t magic;
  int has_private; /* d is present */
  int has_crt;     /* p, q, dp, dq, qinv are present (not for keys from n, e, d) */
  int component_test_only; /* from (n, e, d): serves RSASP1 and RSADP only, never signs */
  size_t n_bits;   /* bit length of n */
  size_t k;        /* byte length of n */
  size_t nl;       /* limb count of n */
  size_t e_bits;   /* bit length of e (public) */
  size_t el;       /* limb count of e, <= nl */
  uint64_t e[BN_MAX_LIMBS];
  bn_mont_ctx mont_n; /* built with bn_mont_ctx_init_public: n is public */

  /* Private part (zero for public keys). */
  uint64_t d[BN_MAX_LIMBS]; /* nl limbs */
  size_t p_bits, q_bits, pl, ql;
  bn_mont_ctx mont_p; /* secret contexts: p and q live in their N fields */
  bn_mont_ctx mont_q;
  uint64_t dp[RSA_PRIME_MAX_LIMBS];        /* pl limbs */
  uint64_t dq[RSA_PRIME_MAX_LIMBS];        /* ql limbs */
  uint64_t qinv[RSA_PRIME_MAX_LIMBS];      /* q^-1 mod p, pl limbs */
  uint64_t qinv_mont[RSA_PRIME_MAX_LIMBS]; /* qinv * R mod p, for one Montgomery multiplication */
};

/* rsa_public_key_check does the partial public-key validation of SP 800-89 5.3.3 on a key whose
 * n, e and mont_n are set (rsa_pubcheck.c): FM_OK, or FM_ERR_BAD_KEY when n has a prime factor
 * below 752, is prime (or a base-2 pseudoprime) or is a perfect power. n is public (variable
 * time). */
int rsa_public_key_check(const fm_rsa_key *key);

/* rsa_key_valid returns 1 when |key| is non-NULL and live. Public. */
int rsa_key_valid(const fm_rsa_key *key);

/* rsa_key_alloc returns a zeroed key with its magic set, or NULL when out of memory. */
fm_rsa_key *rsa_key_alloc(void);

/* rsa_key_setup_private fills the derived parts of |key| from n, e, d, p and q already in place
 * (key->mont_n.N holds n, key->e, key->d, key->mont_p.N and key->mont_q.N hold the values, the
 * widths are set), computing dp, dq and qinv when |have_crt| is 0 or checking the ones in place
 * when it is 1, and validates the whole key (the checks of fm_rsa_key_import_private), with the
 * Miller-Rabin tests of p and q only when |test_primes| is 1 (key generation has just run them on
 * its own primes). Returns FM_OK, FM_ERR_BAD_KEY, or FM_ERR_ENTROPY / FM_ERR_NOT_OPERATIONAL when
 * the RBG failed for the Miller-Rabin bases. Not constant time in the validity of the key (whether
 * a key is valid is public: each check's verdict is declassified); constant time in the values
 * otherwise. */
int rsa_key_setup_private(fm_rsa_key *key, int have_crt, int test_primes);

/* rsa_key_import_selftest_private is fm_rsa_key_import_private without the Miller-Rabin tests of
 * p and q, for the signing self-test's key alone: that key is a constant inside the boundary (the
 * integrity MAC covers it), so testing its primes again at every load would prove nothing and
 * cost a first signature about 6 ms (and RBG draws for the bases). Every other check runs. */
int rsa_key_import_selftest_private(const fm_rsa_private_components *c, fm_rsa_key **key);

/* rsa_mr_rounds returns the Miller-Rabin rounds for the primes of an nlen-bit modulus (FIPS 186-5
 * Table B.1, error probabilities 2^-112, 2^-128 and 2^-144 for 2048, 3072 and 4096 bits: 5
 * rounds for 1024-bit primes, 4 for 1536- and 2048-bit ones; 4 above, where the error for a
 * random candidate only shrinks). Public. */
int rsa_mr_rounds(size_t nlen);

/* rsa_is_probable_prime runs |rounds| rounds of Miller-Rabin (FIPS 186-5 B.3.1) on the odd
 * modulus of |ctx| (a secret context for a w of wlen bits, w > 2^(wlen - 1) + 3), with bases from
 * the module's RBG. Returns 1 (probably prime), 0 (composite) or a negative status from the RBG
 * (FM_ERR_ENTROPY, FM_ERR_NOT_OPERATIONAL). Constant time in w for a prime w; for a composite w
 * the time may reveal the trailing zero bits of w - 1 (rsa_prime.c). The verdict is public. */
int rsa_is_probable_prime(const bn_mont_ctx *ctx, size_t wlen, int rounds);

/* rsa_are_probable_primes runs rsa_is_probable_prime on the moduli of |ctx1| and |ctx2| (both of
 * wlen bits), round i of both in one bn_mod_exp_consttime_x2. Returns 1 when both are probably
 * prime, 0 when either is composite, or a negative status from the RBG. Same time properties. */
int rsa_are_probable_primes(const bn_mont_ctx *ctx1, const bn_mont_ctx *ctx2, size_t wlen,
                            int rounds);

/* rsa_key_decode is fm_rsa_key_decode, whose private keys are built by fm_rsa_key_import_private
 * (|full_check| 1) or fm_rsa_key_import_private_consistent (0): rsa_keyfile.c. */
int rsa_key_decode(const uint8_t *in, size_t in_len, int full_check, fm_rsa_key **key);

/* rsa_public_op sets the nl-limb out = in^e mod n for in < n (public values). */
void rsa_public_op(const fm_rsa_key *key, uint64_t *out, const uint64_t *in);

/* rsa_private_op sets the nl-limb out = in^d mod n for in < n (CRT when the key has it), and
 * checks that out^e == in before returning; the RSA signing CAST runs first if it has not (before
 * the first private-key operation). in and the key's private values are secret; out is the
 * result (released by the caller). Returns FM_OK, FM_ERR_INTERNAL (the check failed: a fault) or
 * FM_ERR_NOT_OPERATIONAL (the CAST failed), with out zeroed on error. Does not check the gate. */
int rsa_private_op(const fm_rsa_key *key, uint64_t *out, const uint64_t *in);

/* rsa_sign_pkcs1v15_digest / rsa_verify_pkcs1v15_digest sign and verify a precomputed digest of
 * |hash| (the pairwise consistency test and the self-tests use them). No gate; statuses as the
 * public functions. */
int rsa_sign_pkcs1v15_digest(const fm_rsa_key *key, fm_hash_alg hash, const uint8_t *digest,
                             uint8_t *sig);
int rsa_verify_pkcs1v15_digest(const fm_rsa_key *key, fm_hash_alg hash, const uint8_t *digest,
                               const uint8_t *sig, size_t sig_len);

#if defined(FIPSMOD_TEST_HOOKS)
/* rsa_key_secret_regions_for_testing writes up to |max| (pointer, length) pairs covering every
 * secret of |key| (d, the CRT values, the Montgomery contexts of p and q) and returns how many it
 * wrote, so that a constant-time test can mark them undefined for valgrind. */
size_t rsa_key_secret_regions_for_testing(const fm_rsa_key *key, const void **ptrs, size_t *lens,
                                          size_t max);

/* rsa_key_set_free_hook_for_testing makes fm_rsa_key_free call |hook| with the key's memory after
 * zeroizing it and before freeing it (NULL: no hook), so that a test can see what is left. */
void rsa_key_set_free_hook_for_testing(void (*hook)(const void *key, size_t len));
#endif

/* rsa_cast runs this unit's CAST |id| (rsa_cast.c: FM_ST_RSA_SIGN_KAT, FM_ST_RSA_VERIFY_KAT);
 * selftest/ calls it. FM_OK, FM_ERR_SELFTEST for a wrong answer, the failing call's status, or
 * FM_ERR_INTERNAL for an id that is not this unit's. */
int rsa_cast(fm_selftest_id id);

/* ---- Stack wipe ---------------------------------------------------------------------------- */

/* RSA_STACK_WIPE is how many bytes rsa_stack_wipe zeroizes below its caller's frame: a private-key
 * operation reaches about 34 KiB below the service (measured by test_rsa_residue, which fails
 * when a secret is left above the wipe; the exponentiation's tables and the fault check). */
#if defined(FM_STACK_WIPE_INSTRUMENTED)
#define RSA_STACK_WIPE (192 * 1024)
#else
#define RSA_STACK_WIPE (48 * 1024)
#endif

/* rsa_stack_wipe zeroizes RSA_STACK_WIPE bytes of stack just below its caller's frame: the
 * private-key operation, the private key's set-up and checks, its validation and key generation
 * call it once they have computed on the secret values (rsa_stack_wipe.c). */
void rsa_stack_wipe(void);

#endif
