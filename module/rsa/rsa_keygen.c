/* RSA key generation, FIPS 186-5 appendix A.1.3 (probable primes), with the pairwise consistency
 * test of FIPS 140-3 IG 10.3.A.
 *
 * Candidates are fresh random odd numbers in [sqrt(2) * 2^(nlen/2-1), 2^(nlen/2)); trial division
 * by the small odd primes (constant-time residues, no division instruction on the candidate)
 * throws out most composites before Miller-Rabin (FIPS 186-5 B.3.1) runs the rounds of Table B.1.
 * Rejected candidates are discarded, so what their tests reveal does not matter; the accepted
 * primes go through Miller-Rabin in constant time (rsa_prime.c). */
#define _GNU_SOURCE
#include <string.h>

#include "fipsmod/rand.h"
#include "module/internal.h"
#include "module/rsa/internal.h"

#define RSA_KEYGEN_E 65537u

/* Small odd primes below this bound are used for trial division. */
#define RSA_SIEVE_LIMIT 8192
#define RSA_MAX_SMALL_PRIMES 1100 /* pi(8192) = 1028 */

/* floor(sqrt(2) * 2^63): a prime candidate whose top 64 bits exceed this is >= sqrt(2)*2^(b-1). */
#define RSA_SQRT2_TOP64 UINT64_C(0xB504F333F9DE6484)

/* Candidates tried per prime before giving up (FIPS 186-5 A.1.3 step 4.7 allows 5 * nlen/2). */
#define RSA_MAX_CANDIDATE_FACTOR 5

/* fill_small_primes writes the odd primes below RSA_SIEVE_LIMIT; returns their count. */
static size_t fill_small_primes(uint32_t *primes) {
  static const size_t limit = RSA_SIEVE_LIMIT;
  uint8_t composite[RSA_SIEVE_LIMIT] = {0};
  size_t count = 0;
  for (size_t i = 3; i < limit; i += 2) {
    if (composite[i]) continue;
    primes[count++] = (uint32_t)i;
    for (size_t j = i * i; j < limit; j += 2 * i) composite[j] = 1;
  }
  return count;
}

/* generate_prime sets the pl-limb ctx to a new probable prime of |bits| bits (a multiple of 64
 * for the sizes generated) with gcd(p - 1, e) = 1, congruent to |mod8| mod 8 unless it is 0, different enough from |other| (pl limbs, or
 * NULL for the first prime): |p - q| > 2^(bits - 100) (FIPS 186-5 A.1.3 step 5.4). */
static int generate_prime(bn_mont_ctx *ctx, size_t bits, size_t nlen, const uint64_t *other,
                          unsigned mod8, const uint32_t *primes, size_t nprimes) {
  const size_t pl = bn_limbs_for_bits(bits);
  uint64_t cand[RSA_PRIME_MAX_LIMBS], diff[RSA_PRIME_MAX_LIMBS], diff2[RSA_PRIME_MAX_LIMBS];
  int st = FM_ERR_KEYGEN;
  for (size_t attempt = 0; attempt < RSA_MAX_CANDIDATE_FACTOR * bits; attempt++) {
    /* Step 4.2/5.2: a random odd candidate of exactly |bits| bits (top bit set). */
    st = fm_rand_bytes((uint8_t *)cand, pl * sizeof(uint64_t));
    if (st != FM_OK) goto done;
    cand[0] |= 1;
    /* A.1.3 step 4.2/5.2 with the optional input a (b for q): the candidate is moved to the
     * residue asked for mod 8 (the low three bits; 0 asks for none). */
    if (mod8 != 0) cand[0] = (cand[0] & ~UINT64_C(7)) | mod8;
    cand[pl - 1] |= UINT64_C(1) << 63;
    /* Step 4.4/5.4: p >= sqrt(2) * 2^(bits-1); the top word decides it (rejection). Every
     * rejection verdict below is declassified: it is about a candidate that is then discarded
     * (the accepted one's verdicts are known: it passed them all). */
    if (!fm_declassify_u64(ct_lt_u64(RSA_SQRT2_TOP64, cand[pl - 1]))) continue;
    if (other != NULL) {
      /* Step 5.4: |p - q| must exceed 2^(nlen/2 - 100). */
      uint64_t borrow = bn_sub(diff, cand, other, pl);
      (void)bn_sub(diff2, other, cand, pl);
      bn_select(diff, 0u - borrow, diff2, diff, pl);
      bn_rshift(diff, diff, bits - 100, pl);
      if (fm_declassify_u64(bn_is_zero_mask(diff, pl))) continue;
    }
    /* Trial division; also (p - 1) mod e != 0, i.e. gcd(p - 1, e) = 1 for the prime e (4.5). */
    uint64_t divisible = 0;
    for (size_t i = 0; i < nprimes && !divisible; i++) {
      divisible = fm_declassify_u64(ct_is_zero_u64(bn_mod_small_consttime(cand, pl, primes[i])));
    }
    if (divisible) continue;
    if (fm_declassify_u64(ct_eq_u64(bn_mod_small_consttime(cand, pl, RSA_KEYGEN_E), 1))) continue;
    if (bn_mont_ctx_init_secret(ctx, cand, pl) != FM_OK) continue;
    int mr = rsa_is_probable_prime(ctx, bits, rsa_mr_rounds(nlen));
    if (mr < 0) {
      st = mr;
      goto done;
    }
    if (mr == 1) {
      st = FM_OK;
      goto done;
    }
  }
  st = FM_ERR_KEYGEN;
done:
  if (st != FM_OK) bn_mont_ctx_wipe(ctx);
  fm_zeroize(cand, sizeof(cand));
  fm_zeroize(diff, sizeof(diff));
  fm_zeroize(diff2, sizeof(diff2));
  return st;
}

/* derive_key computes n, d (FIPS 186-5 A.1.1 step 3: d = e^-1 mod lcm(p-1, q-1), rejected when
 * d <= 2^(nlen/2)) and the CRT values, then validates the key. Returns FM_OK, FM_ERR_KEYGEN to
 * start over (d too small), or another error. */
static int derive_key(fm_rsa_key *key) {
  const size_t pl = key->pl;
  uint64_t pm1[RSA_PRIME_MAX_LIMBS], qm1[RSA_PRIME_MAX_LIMBS];
  uint64_t lambda[2 * RSA_PRIME_MAX_LIMBS], d[2 * RSA_PRIME_MAX_LIMBS];
  uint64_t e[1] = {RSA_KEYGEN_E};
  int st;
  bn_mul(key->mont_n.N, key->mont_p.N, key->mont_q.N, pl);
  /* n is the public modulus: public from here on, though computed from the secret primes. */
  fm_declassify(key->mont_n.N, key->nl * sizeof(uint64_t));
  bn_copy(pm1, key->mont_p.N, pl);
  pm1[0] ^= 1;
  bn_copy(qm1, key->mont_q.N, pl);
  qm1[0] ^= 1;
  bn_lcm_consttime(lambda, pm1, qm1, pl);
  st = bn_mod_inverse_odd_value(d, e, 1, lambda, 2 * pl);
  if (st != FM_OK) {
    st = FM_ERR_KEYGEN; /* gcd(e, lambda) != 1: excluded by the prime search, so a bug */
    goto done;
  }
  bn_copy(key->d, d, key->nl);
  bn_set_word(key->e, key->nl, RSA_KEYGEN_E);
  key->e_bits = 17;
  key->el = 1;
  /* rsa_key_setup_private checks d > 2^(nlen/2) among the rest; a small d restarts. The primes
   * have just passed Miller-Rabin with the same rounds: no second test. */
  st = rsa_key_setup_private(key, 0, 0);
  if (st == FM_OK && bn_mont_ctx_init_public(&key->mont_n, key->mont_n.N, key->nl) != FM_OK)
    st = FM_ERR_KEYGEN;
  if (st == FM_ERR_BAD_KEY) st = FM_ERR_KEYGEN;
done:
  fm_zeroize(pm1, sizeof(pm1));
  fm_zeroize(qm1, sizeof(qm1));
  fm_zeroize(lambda, sizeof(lambda));
  fm_zeroize(d, sizeof(d));
  return st;
}

/* pairwise_test signs a fixed digest with the new key and verifies it (FIPS 140-3 IG 10.3.A). */
static int pairwise_test(const fm_rsa_key *key) {
  uint8_t digest[32];
  uint8_t sig[FM_RSA_MAX_BYTES];
  memset(digest, 0xa5, sizeof(digest));
  int st = rsa_sign_pkcs1v15_digest(key, FM_HASH_SHA256, digest, sig);
  if (st == FM_OK) st = rsa_verify_pkcs1v15_digest(key, FM_HASH_SHA256, digest, sig, key->k);
  fm_zeroize(sig, sizeof(sig)); /* public, but computed with the new private key: none left */
  return st == FM_OK ? FM_OK : FM_ERR_KEYGEN;
}

/* Whole restarts (a d at or below 2^(nlen/2), probability about 2^-(nlen/2)) allowed. */
#define RSA_KEYGEN_RESTARTS 4

/* mod8_ok: FIPS 186-5 A.1.3's a and b are 1, 3, 5 or 7; 0 asks for no residue. */
static bool mod8_ok(unsigned r) { return r == 0 || (r < 8 && (r & 1) == 1); }

int fm_rsa_key_generate(unsigned bits, fm_rsa_key **key) {
  return fm_rsa_key_generate_mod8(bits, 0, 0, key);
}

int fm_rsa_key_generate_mod8(unsigned bits, unsigned p_mod8, unsigned q_mod8, fm_rsa_key **key) {
  int st = fm_service_gate();
  if (st == FM_OK && (key == NULL || !mod8_ok(p_mod8) || !mod8_ok(q_mod8))) st = FM_ERR_BAD_ARGUMENT;
  if (st == FM_OK && bits != 2048 && bits != 3072 && bits != 4096) st = FM_ERR_KEY_SIZE;
  if (key != NULL) *key = NULL;
  if (st != FM_OK) return fm_refuse(st, NULL, 0);

  uint32_t primes[RSA_MAX_SMALL_PRIMES];
  const size_t nprimes = fill_small_primes(primes);
  fm_rsa_key *k = rsa_key_alloc();
  if (k == NULL) return fm_refuse(FM_ERR_NO_MEMORY, NULL, 0);
  const size_t half = bits / 2;
  st = FM_ERR_KEYGEN;
  for (int restart = 0; restart < RSA_KEYGEN_RESTARTS && st == FM_ERR_KEYGEN; restart++) {
    k->n_bits = bits;
    k->k = bits / 8;
    k->nl = bn_limbs_for_bits(bits);
    k->p_bits = k->q_bits = half;
    k->pl = k->ql = bn_limbs_for_bits(half);
    st = generate_prime(&k->mont_p, half, bits, NULL, p_mod8, primes, nprimes);
    if (st == FM_OK)
      st = generate_prime(&k->mont_q, half, bits, k->mont_p.N, q_mod8, primes, nprimes);
    if (st == FM_OK) st = derive_key(k);
  }
  if (st == FM_OK) {
    st = pairwise_test(k);
    fm_selftest_record_conditional(FM_ST_RSA_PCT, st);
    /* A failed pairwise test has put the module in ERROR: no key leaves it then. */
    if (st == FM_OK && !fm_module_operational()) st = FM_ERR_KEYGEN;
  }
  rsa_stack_wipe(); /* the prime search's frames, the pairwise test's verification */
  if (st != FM_OK) {
    fm_rsa_key_free(k);
    return fm_refuse(st, NULL, 0);
  }
  *key = k;
  return FM_OK;
}
