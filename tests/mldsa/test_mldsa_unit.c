/* ML-DSA unit tests: the arithmetic against FIPS 204's definitions (Decompose, Power2Round and
 * the NTT checked against schoolbook arithmetic), round trips of every parameter set, the
 * self-test known values, and misuse of the public API (bad parameter sets, key and signature
 * lengths, a context over 255 bytes, NULL arguments, overlap), with outputs wiped on failure.
 *
 * usage: test_mldsa_unit [case]; `test_mldsa_unit --print-known-values` prints the CAST's
 * known digests for mldsa_known_values.inc (module/mldsa/gen_known_values.py). */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fipsmod/fipsmod.h"
#include "module/mldsa/internal.h"
#include "module/sha3/internal.h"
#include "tests/common/test_util.h"

#include "module/mldsa/mldsa_known_values.inc"

static int indicator(void) {
  fm_indicator ind = FM_INDICATOR_NONE;
  if (fm_service_indicator(&ind) != FM_OK) return -1;
  return (int)ind;
}

static const fm_mldsa_param kParams[] = {FM_MLDSA_44, FM_MLDSA_65, FM_MLDSA_87};

/* ---- Arithmetic ----------------------------------------------------------------------------- */

/* Decompose (FIPS 204 Algorithm 36) by its definition, with division: r0 = r mod+- 2 gamma2. */
static void decompose_ref(int32_t gamma2, int32_t r, int32_t *r1, int32_t *r0) {
  int32_t lo = r % (2 * gamma2);
  if (lo > gamma2) lo -= 2 * gamma2;
  if (r - lo == MLDSA_Q - 1) {
    *r1 = 0;
    *r0 = lo - 1;
  } else {
    *r1 = (r - lo) / (2 * gamma2);
    *r0 = lo;
  }
}

static void test_decompose_every_value(void) {
  /* Every r in [0, q), both gamma2: the multiply-shift form equals the definition. */
  const int levels[] = {44, 65};
  for (size_t li = 0; li < 2; li++) {
    const mldsa_params *p = mldsa_params_get(levels[li]);
    static mldsa_poly a, a1, a0;
    long bad = 0;
    for (int32_t base = 0; base < MLDSA_Q; base += MLDSA_N) {
      for (size_t i = 0; i < MLDSA_N; i++) a.c[i] = (base + (int32_t)i) % MLDSA_Q;
      mldsa_poly_decompose_portable(p, &a1, &a0, &a);
      for (size_t i = 0; i < MLDSA_N; i++) {
        int32_t r1, r0;
        decompose_ref(p->gamma2, a.c[i], &r1, &r0);
        if (r1 != a1.c[i] || r0 != a0.c[i]) bad++;
      }
    }
    CHECK_EQ_INT(bad, 0);
  }
}

static void test_power2round_every_value(void) {
  static mldsa_poly a, a1, a0;
  long bad = 0;
  for (int32_t base = 0; base < MLDSA_Q; base += MLDSA_N) {
    for (size_t i = 0; i < MLDSA_N; i++) a.c[i] = (base + (int32_t)i) % MLDSA_Q;
    mldsa_poly_power2round(&a1, &a0, &a);
    for (size_t i = 0; i < MLDSA_N; i++) {
      int32_t r0 = a.c[i] % (1 << MLDSA_D);
      if (r0 > (1 << (MLDSA_D - 1))) r0 -= 1 << MLDSA_D;
      if (a0.c[i] != r0 || a1.c[i] != (a.c[i] - r0) >> MLDSA_D) bad++;
    }
  }
  CHECK_EQ_INT(bad, 0);
}

/* UseHint (Algorithm 40) by its definition, on decompose_ref. */
static int32_t use_hint_ref(int32_t gamma2, int32_t h, int32_t r) {
  const int32_t m = (MLDSA_Q - 1) / (2 * gamma2);
  int32_t r1, r0;
  decompose_ref(gamma2, r, &r1, &r0);
  if (h == 1 && r0 > 0) return (r1 + 1) % m;
  if (h == 1) return (r1 - 1 + m) % m;
  return r1;
}

static void test_use_hint_every_value(void) {
  /* Every r in [0, q), both gamma2, hint 0 and 1. */
  const int levels[] = {44, 65};
  for (size_t li = 0; li < 2; li++) {
    const mldsa_params *p = mldsa_params_get(levels[li]);
    static mldsa_poly a, h;
    long bad = 0;
    for (int32_t hint = 0; hint < 2; hint++) {
      for (size_t i = 0; i < MLDSA_N; i++) h.c[i] = hint;
      for (int32_t base = 0; base < MLDSA_Q; base += MLDSA_N) {
        for (size_t i = 0; i < MLDSA_N; i++) a.c[i] = (base + (int32_t)i) % MLDSA_Q;
        mldsa_poly_use_hint(p, &a, &h);
        for (size_t i = 0; i < MLDSA_N; i++) {
          if (a.c[i] != use_hint_ref(p->gamma2, hint, (base + (int32_t)i) % MLDSA_Q)) bad++;
        }
      }
    }
    CHECK_EQ_INT(bad, 0);
  }
}

static void test_norm_exceeds_edges(void) {
  /* One coefficient r in (-q, q) in an otherwise zero polynomial, near every bound the module
   * checks and near +-(q-1)/2; the verdict is |r mod+- q| >= bound. */
  const int32_t bounds[] = {(1 << 17) - 78, (1 << 19) - 196, (1 << 19) - 120,
                            (MLDSA_Q - 1) / 88, (MLDSA_Q - 1) / 88 - 78,
                            (MLDSA_Q - 1) / 32, (MLDSA_Q - 1) / 32 - 196,
                            (MLDSA_Q - 1) / 32 - 120, 1};
  const int32_t half = (MLDSA_Q - 1) / 2;
  static mldsa_poly a;
  long bad = 0, checked = 0;
  for (size_t bi = 0; bi < sizeof bounds / sizeof bounds[0]; bi++) {
    const int32_t b = bounds[bi];
    const int32_t centres[] = {0, b, MLDSA_Q - b, half, MLDSA_Q - 1};
    for (size_t ci = 0; ci < sizeof centres / sizeof centres[0]; ci++) {
      for (int32_t d = -2; d <= 2; d++) {
        for (int32_t sign = -1; sign <= 1; sign += 2) {
          const int32_t r = sign * (centres[ci] + d);
          if (r <= -MLDSA_Q || r >= MLDSA_Q) continue;
          int32_t c = r % MLDSA_Q;
          if (c > half) c -= MLDSA_Q;
          if (c < -half) c += MLDSA_Q;
          const uint32_t want = (c < 0 ? -c : c) >= b ? 0xffffffffu : 0;
          memset(&a, 0, sizeof a);
          a.c[(size_t)(checked % MLDSA_N)] = r;
          if (mldsa_poly_norm_exceeds(&a, b) != want) bad++;
          checked++;
        }
      }
    }
  }
  CHECK(checked > 300);
  CHECK_EQ_INT(bad, 0);
}

static void test_split_pair_every_pair(void) {
  /* Every a, b in [-200, 200] (signing's |cs1|, |cs2| <= 196): each representative in (-q, q) of
   * a + 2^9 b splits back into a and b. */
  static mldsa_poly v, lo, hi;
  long bad = 0;
  size_t n = 0;
  for (int32_t a = -200; a <= 200; a++) {
    for (int32_t b = -200; b <= 200; b++) {
      const int32_t x = a + 512 * b;
      const int32_t reps[3] = {x, x < 0 ? x + MLDSA_Q : x, x > 0 ? x - MLDSA_Q : x};
      for (int r = 0; r < 3; r++) {
        v.c[n] = reps[r];
        lo.c[n] = a;
        hi.c[n] = b;
        if (++n == MLDSA_N) {
          mldsa_poly want_lo = lo, want_hi = hi;
          mldsa_poly_split_pair(&lo, &hi, &v);
          for (size_t i = 0; i < MLDSA_N; i++)
            bad += lo.c[i] != want_lo.c[i] || hi.c[i] != want_hi.c[i];
          n = 0;
        }
      }
    }
  }
  CHECK_EQ_INT(bad, 0);
}

/* The fused split, sum and norm check against the three steps it replaces: signing's inputs
 * (v a representative in (-q, q) of cs1 + 2^9 cs2, |cs1|, |cs2| <= 196; y in (-gamma1, gamma1])
 * with one y coefficient near the bound in half the rounds, so that both verdicts occur. */
static void test_split_add_norm(void) {
  test_rng rng;
  test_rng_seed(&rng, "test_mldsa_unit.split_add_norm");
  const mldsa_params *p = mldsa_params_get(44);
  const int32_t bound = p->gamma1 - p->beta;
  int verdicts[2] = {0, 0};
  for (int r = 0; r < 2000 && test_failures == 0; r++) {
    mldsa_poly v, y, z1, h1, z2, h2;
    for (size_t i = 0; i < MLDSA_N; i++) {
      const int32_t a = (int32_t)test_rng_below(&rng, 393) - 196;
      const int32_t b = (int32_t)test_rng_below(&rng, 393) - 196;
      const int32_t x = a + 512 * b;
      const uint64_t rep = test_rng_below(&rng, 3);
      v.c[i] = rep == 0 ? x : rep == 1 ? (x < 0 ? x + MLDSA_Q : x) : (x > 0 ? x - MLDSA_Q : x);
      y.c[i] = (int32_t)test_rng_below(&rng, 2 * (uint64_t)p->gamma1) - p->gamma1 + 1;
      /* In even rounds one coefficient within 400 of +-bound: z = y + cs1 then lands on either
       * side of it. */
      if (r % 2 == 0 && i == (size_t)r % MLDSA_N)
        y.c[i] = (r % 4 == 0 ? 1 : -1) * (bound - 200 + (int32_t)test_rng_below(&rng, 401));
    }
    mldsa_poly_split_pair(&z1, &h1, &v);
    mldsa_poly_add(&z1, &z1, &y);
    const uint32_t want = mldsa_poly_norm_exceeds(&z1, bound);
    z2 = v;
    const uint32_t got = mldsa_poly_split_add_norm(&z2, &h2, &z2, &y, bound);
    CHECK(got == want);
    CHECK_MEM(z1.c, z2.c, sizeof z1.c);
    CHECK_MEM(h1.c, h2.c, sizeof h1.c);
    verdicts[want != 0]++;
  }
  CHECK(verdicts[0] > 0 && verdicts[1] > 0);
}

static int32_t mod_q(int64_t x) {
  int64_t r = x % MLDSA_Q;
  return (int32_t)(r < 0 ? r + MLDSA_Q : r);
}

static void test_ntt_multiplies(void) {
  /* NTT, pointwise product, inverse NTT = the product in Z_q[X]/(X^256 + 1), schoolbook. */
  test_rng rng;
  test_rng_seed(&rng, "test_mldsa_unit.ntt_multiplies");
  for (int round = 0; round < 20; round++) {
    mldsa_poly a, b, ah, bh, r;
    for (size_t i = 0; i < MLDSA_N; i++) {
      a.c[i] = (int32_t)test_rng_below(&rng, MLDSA_Q) - (MLDSA_Q - 1) / 2;
      b.c[i] = (int32_t)test_rng_below(&rng, MLDSA_Q) - (MLDSA_Q - 1) / 2;
    }
    int64_t want[MLDSA_N] = {0};
    for (size_t i = 0; i < MLDSA_N; i++) {
      for (size_t j = 0; j < MLDSA_N; j++) {
        const int64_t prod = (int64_t)mod_q(a.c[i]) * mod_q(b.c[j]) % MLDSA_Q;
        if (i + j < MLDSA_N) {
          want[i + j] += prod;
        } else {
          want[i + j - MLDSA_N] -= prod;
        }
      }
    }
    ah = a;
    bh = b;
    mldsa_poly_ntt(&ah);
    mldsa_poly_ntt(&bh);
    mldsa_poly_pointwise_mont(&r, &ah, &bh);
    mldsa_poly_invntt_tomont(&r);
    int bad = 0;
    for (size_t i = 0; i < MLDSA_N; i++) bad += mod_q(r.c[i]) != mod_q(want[i]);
    CHECK_EQ_INT(bad, 0);
  }
}

/* ---- Round trips and known values ------------------------------------------------------------- */

static void test_sign_verify_every_set(void) {
  for (size_t pi = 0; pi < 3; pi++) {
    const fm_mldsa_param param = kParams[pi];
    uint8_t pk[FM_MLDSA_87_PUBLIC_KEY_LEN], sk[FM_MLDSA_87_PRIVATE_KEY_LEN];
    uint8_t sig[FM_MLDSA_MAX_SIGNATURE_LEN], seed[32];
    const size_t pkl = fm_mldsa_public_key_len(param), skl = fm_mldsa_private_key_len(param);
    CHECK_EQ_INT(fm_mldsa_keygen(param, pk, pkl, sk, skl, seed), FM_OK);
    CHECK_EQ_INT(indicator(), FM_INDICATOR_APPROVED);
    static const uint8_t msg[] = "message", ctx[] = "context";
    size_t sig_len = 0;
    for (unsigned flags = 0; flags < 2; flags++) {
      CHECK_EQ_INT(fm_mldsa_sign(param, sk, skl, msg, sizeof msg, ctx, sizeof ctx, flags, sig,
                                 sizeof sig, &sig_len),
                   FM_OK);
      CHECK_EQ_INT(indicator(), FM_INDICATOR_APPROVED);
      CHECK_EQ_INT(sig_len, fm_mldsa_signature_len(param));
      CHECK_EQ_INT(fm_mldsa_verify(param, pk, pkl, msg, sizeof msg, ctx, sizeof ctx, sig, sig_len),
                   FM_OK);
      CHECK_EQ_INT(indicator(), FM_INDICATOR_APPROVED);
      /* Another context, another message, a flipped bit: rejected. */
      CHECK_EQ_INT(fm_mldsa_verify(param, pk, pkl, msg, sizeof msg, ctx, sizeof ctx - 1, sig,
                                   sig_len),
                   FM_ERR_VERIFY);
      CHECK_EQ_INT(fm_mldsa_verify(param, pk, pkl, msg, sizeof msg - 1, ctx, sizeof ctx, sig,
                                   sig_len),
                   FM_ERR_VERIFY);
      sig[sig_len / 2] ^= 1;
      CHECK_EQ_INT(fm_mldsa_verify(param, pk, pkl, msg, sizeof msg, ctx, sizeof ctx, sig, sig_len),
                   FM_ERR_VERIFY);
    }
    /* The seed rebuilds the same pair. */
    uint8_t pk2[FM_MLDSA_87_PUBLIC_KEY_LEN], sk2[FM_MLDSA_87_PRIVATE_KEY_LEN];
    CHECK_EQ_INT(fm_mldsa_keygen_from_seed(param, seed, pk2, pkl, sk2, skl), FM_OK);
    CHECK_MEM(pk2, pk, pkl);
    CHECK_MEM(sk2, sk, skl);
    /* Deterministic signing is deterministic; hedged signing is not. */
    uint8_t sig2[FM_MLDSA_MAX_SIGNATURE_LEN];
    size_t l2 = 0;
    CHECK_EQ_INT(fm_mldsa_sign(param, sk, skl, msg, sizeof msg, NULL, 0,
                               FM_MLDSA_SIGN_DETERMINISTIC, sig, sizeof sig, &sig_len),
                 FM_OK);
    CHECK_EQ_INT(fm_mldsa_sign(param, sk, skl, msg, sizeof msg, NULL, 0,
                               FM_MLDSA_SIGN_DETERMINISTIC, sig2, sizeof sig2, &l2),
                 FM_OK);
    CHECK_MEM(sig, sig2, sig_len);
    CHECK_EQ_INT(fm_mldsa_sign(param, sk, skl, msg, sizeof msg, NULL, 0, 0, sig2, sizeof sig2,
                               &l2),
                 FM_OK);
    CHECK(memcmp(sig, sig2, sig_len) != 0);
    /* HashML-DSA round trip; the pure verification of it fails (domain separation). */
    for (int ph = FM_MLDSA_PH_SHA256; ph <= FM_MLDSA_PH_SHA512_256; ph++) {
      CHECK_EQ_INT(fm_mldsa_hash_sign(param, sk, skl, (fm_mldsa_prehash)ph, msg, sizeof msg, ctx,
                                      sizeof ctx, 0, sig, sizeof sig, &sig_len),
                   FM_OK);
      CHECK_EQ_INT(fm_mldsa_hash_verify(param, pk, pkl, (fm_mldsa_prehash)ph, msg, sizeof msg,
                                        ctx, sizeof ctx, sig, sig_len),
                   FM_OK);
      CHECK_EQ_INT(fm_mldsa_verify(param, pk, pkl, msg, sizeof msg, ctx, sizeof ctx, sig, sig_len),
                   FM_ERR_VERIFY);
    }
  }
}

/* fm_mldsa_sign_with_rnd signs what Sign_internal signs on the M' of FIPS 204 Algorithms 2 and
 * 4, formatted here from the hash OIDs of NIST's registry (2.16.840.1.101.3.4.2.x), with the
 * caller's rnd; with rnd NULL it is the deterministic fm_mldsa_sign / fm_mldsa_hash_sign. */
static void test_sign_with_rnd(void) {
  static const struct {
    fm_mldsa_prehash ph;
    uint8_t arc;
    fm_hash_alg alg; /* 0: SHA3/SHAKE, covered by the round trip above */
  } kPh[] = {{FM_MLDSA_PH_NONE, 0, (fm_hash_alg)0},
             {FM_MLDSA_PH_SHA256, 0x01, FM_HASH_SHA256},
             {FM_MLDSA_PH_SHA224, 0x04, FM_HASH_SHA224},
             {FM_MLDSA_PH_SHA512_224, 0x05, FM_HASH_SHA512_224},
             {FM_MLDSA_PH_SHA512_256, 0x06, FM_HASH_SHA512_256}};
  static uint8_t pk[FM_MLDSA_44_PUBLIC_KEY_LEN], sk[FM_MLDSA_44_PRIVATE_KEY_LEN];
  static const uint8_t seed[32] = {7};
  CHECK_EQ_INT(fm_mldsa_keygen_from_seed(FM_MLDSA_44, seed, pk, sizeof pk, sk, sizeof sk), FM_OK);
  static const uint8_t msg[] = "sign with a given rnd", ctx[] = {1, 2, 3};
  uint8_t rnd[32];
  for (size_t i = 0; i < sizeof rnd; i++) rnd[i] = (uint8_t)(0xa0 + i);
  for (size_t k = 0; k < sizeof kPh / sizeof kPh[0]; k++) {
    uint8_t mp[2 + sizeof ctx + 11 + 64 + sizeof msg];
    size_t n = 0;
    mp[n++] = kPh[k].ph != FM_MLDSA_PH_NONE;
    mp[n++] = sizeof ctx;
    memcpy(mp + n, ctx, sizeof ctx);
    n += sizeof ctx;
    if (kPh[k].ph == FM_MLDSA_PH_NONE) {
      memcpy(mp + n, msg, sizeof msg);
      n += sizeof msg;
    } else {
      static const uint8_t kOid[10] = {0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02};
      memcpy(mp + n, kOid, sizeof kOid);
      n += sizeof kOid;
      mp[n++] = kPh[k].arc;
      size_t dl = 0;
      CHECK_EQ_INT(fm_hash_digest_len(kPh[k].alg, &dl), FM_OK);
      CHECK_EQ_INT(fm_sha_digest(kPh[k].alg, msg, sizeof msg, mp + n, dl), FM_OK);
      n += dl;
    }
    uint8_t s1[FM_MLDSA_44_SIGNATURE_LEN], s2[FM_MLDSA_44_SIGNATURE_LEN];
    size_t l1 = 0, l2 = 0;
    CHECK_EQ_INT(fm_mldsa_sign_with_rnd(FM_MLDSA_44, sk, sizeof sk, kPh[k].ph, msg, sizeof msg,
                                        ctx, sizeof ctx, rnd, s1, sizeof s1, &l1),
                 FM_OK);
    CHECK_EQ_INT(fm_mldsa_sign_internal(FM_MLDSA_44, sk, sizeof sk, mp, n, rnd, s2, sizeof s2, &l2),
                 FM_OK);
    CHECK_EQ_INT((int)l1, (int)l2);
    CHECK_MEM(s1, s2, l1);
    /* rnd NULL: the deterministic signature of the public services. */
    CHECK_EQ_INT(fm_mldsa_sign_with_rnd(FM_MLDSA_44, sk, sizeof sk, kPh[k].ph, msg, sizeof msg,
                                        ctx, sizeof ctx, NULL, s1, sizeof s1, &l1),
                 FM_OK);
    if (kPh[k].ph == FM_MLDSA_PH_NONE) {
      CHECK_EQ_INT(fm_mldsa_sign(FM_MLDSA_44, sk, sizeof sk, msg, sizeof msg, ctx, sizeof ctx,
                                 FM_MLDSA_SIGN_DETERMINISTIC, s2, sizeof s2, &l2),
                   FM_OK);
      CHECK_EQ_INT(fm_mldsa_verify(FM_MLDSA_44, pk, sizeof pk, msg, sizeof msg, ctx, sizeof ctx,
                                   s1, l1),
                   FM_OK);
    } else {
      CHECK_EQ_INT(fm_mldsa_hash_sign(FM_MLDSA_44, sk, sizeof sk, kPh[k].ph, msg, sizeof msg, ctx,
                                      sizeof ctx, FM_MLDSA_SIGN_DETERMINISTIC, s2, sizeof s2, &l2),
                   FM_OK);
      CHECK_EQ_INT(fm_mldsa_hash_verify(FM_MLDSA_44, pk, sizeof pk, kPh[k].ph, msg, sizeof msg,
                                        ctx, sizeof ctx, s1, l1),
                   FM_OK);
    }
    CHECK_MEM(s1, s2, l1);
  }
  /* An unknown pre-hash is refused, and the signature buffer is wiped. */
  uint8_t s[FM_MLDSA_44_SIGNATURE_LEN];
  size_t l = 7;
  memset(s, 0x55, sizeof s);
  CHECK_EQ_INT(fm_mldsa_sign_with_rnd(FM_MLDSA_44, sk, sizeof sk, (fm_mldsa_prehash)13, msg,
                                      sizeof msg, NULL, 0, rnd, s, sizeof s, &l),
               FM_ERR_UNSUPPORTED);
  for (size_t i = 0; i < sizeof s; i++) CHECK(s[i] == 0);
  CHECK_EQ_INT(fm_mldsa_hash_sign(FM_MLDSA_44, sk, sizeof sk, FM_MLDSA_PH_NONE, msg, sizeof msg,
                                  NULL, 0, 0, s, sizeof s, &l),
               FM_ERR_UNSUPPORTED);
}

/* cast_digests computes the CAST's two known digests from the implementation. */
static void cast_digests(uint8_t key_digest[32], uint8_t sig_digest[32]);


static void cast_digests(uint8_t key_digest[32], uint8_t sig_digest[32]) {
  const mldsa_params *p = mldsa_params_get(44);
  static uint8_t pk[1312], sk[2560], sig[2420], buf[1312 + 2560];
  static const uint8_t rnd[32];
  mldsa_keygen_internal(p, pk, sk, kMldsaKatSeed);
  memcpy(buf, pk, sizeof pk);
  memcpy(buf + sizeof pk, sk, sizeof sk);
  sha3_digest(256, buf, sizeof buf, key_digest);
  uint8_t mu[64];
  static const uint8_t prefix[2] = {0, 0};
  mldsa_mu_from_tr(mu, sk + 64, prefix, 2, kMldsaKatMessage, sizeof kMldsaKatMessage);
  CHECK_EQ_INT(mldsa_sign_mu(p, sig, sk, mu, rnd), FM_OK);
  sha3_digest(256, sig, sizeof sig, sig_digest);
}

static void test_selftests_pass(void) {
  /* Each CAST, run on demand, passes with the known values in the module. */
  CHECK_EQ_INT(mldsa_cast(FM_ST_MLDSA_KEYGEN_KAT), FM_OK);
  CHECK_EQ_INT(mldsa_cast(FM_ST_MLDSA_SIGN_KAT), FM_OK);
  CHECK_EQ_INT(mldsa_cast(FM_ST_MLDSA_VERIFY_KAT), FM_OK);
  /* The digests in the module are this implementation's (cast_digests). */
  uint8_t kd[32], sd[32];
  cast_digests(kd, sd);
  CHECK_MEM(kd, kMldsaKatKeyDigest, 32);
  CHECK_MEM(sd, kMldsaKatSignatureDigest, 32);
}

static void test_keygen_matches_independent_key(void) {
  /* The verification CAST's public key came from Python's cryptography (OpenSSL) for the same
   * seed: ML-DSA-44 key generation agrees with an independent implementation. */
  const mldsa_params *p = mldsa_params_get(44);
  static uint8_t pk[1312], sk[2560];
  mldsa_keygen_internal(p, pk, sk, kMldsaKatSeed);
  CHECK_MEM(pk, kMldsaKatPublicKey, sizeof pk);
}

/* ---- Misuse ---------------------------------------------------------------------------------- */

static void test_bad_arguments(void) {
  uint8_t pk[FM_MLDSA_44_PUBLIC_KEY_LEN], sk[FM_MLDSA_44_PRIVATE_KEY_LEN];
  uint8_t sig[FM_MLDSA_44_SIGNATURE_LEN + 8], ctx[256] = {0};
  size_t sig_len = 99;
  CHECK_EQ_INT(fm_mldsa_keygen(FM_MLDSA_44, pk, sizeof pk, sk, sizeof sk, NULL), FM_OK);
  CHECK_EQ_INT(fm_mldsa_public_key_len((fm_mldsa_param)45), 0);

  /* Unknown parameter set. */
  memset(sig, 0xa5, sizeof sig);
  CHECK_EQ_INT(fm_mldsa_sign((fm_mldsa_param)45, sk, sizeof sk, NULL, 0, NULL, 0, 0, sig,
                             sizeof sig, &sig_len),
               FM_ERR_UNSUPPORTED);
  CHECK_EQ_INT(indicator(), FM_INDICATOR_NOT_APPROVED);
  CHECK(test_is_all_zero(sig, sizeof sig) && sig_len == 0);

  /* A context of 256 bytes. */
  memset(sig, 0xa5, sizeof sig);
  sig_len = 99;
  CHECK_EQ_INT(fm_mldsa_sign(FM_MLDSA_44, sk, sizeof sk, NULL, 0, ctx, 256, 0, sig, sizeof sig,
                             &sig_len),
               FM_ERR_LENGTH);
  CHECK(test_is_all_zero(sig, sizeof sig) && sig_len == 0);
  CHECK_EQ_INT(fm_mldsa_verify(FM_MLDSA_44, pk, sizeof pk, NULL, 0, ctx, 256, sig,
                               FM_MLDSA_44_SIGNATURE_LEN),
               FM_ERR_LENGTH);
  /* 255 bytes is allowed. */
  CHECK_EQ_INT(fm_mldsa_sign(FM_MLDSA_44, sk, sizeof sk, NULL, 0, ctx, 255, 0, sig, sizeof sig,
                             &sig_len),
               FM_OK);
  CHECK_EQ_INT(fm_mldsa_verify(FM_MLDSA_44, pk, sizeof pk, NULL, 0, ctx, 255, sig, sig_len), FM_OK);

  /* Key and buffer lengths. */
  CHECK_EQ_INT(fm_mldsa_sign(FM_MLDSA_44, sk, sizeof sk - 1, NULL, 0, NULL, 0, 0, sig, sizeof sig,
                             &sig_len),
               FM_ERR_KEY_SIZE);
  CHECK(test_is_all_zero(sig, sizeof sig));
  CHECK_EQ_INT(fm_mldsa_sign(FM_MLDSA_44, sk, sizeof sk, NULL, 0, NULL, 0, 0, sig,
                             FM_MLDSA_44_SIGNATURE_LEN - 1, &sig_len),
               FM_ERR_BUFFER_TOO_SMALL);
  CHECK_EQ_INT(fm_mldsa_verify(FM_MLDSA_44, pk, sizeof pk - 1, NULL, 0, NULL, 0, sig,
                               FM_MLDSA_44_SIGNATURE_LEN),
               FM_ERR_KEY_SIZE);
  CHECK_EQ_INT(fm_mldsa_verify(FM_MLDSA_44, pk, sizeof pk, NULL, 0, NULL, 0, sig,
                               FM_MLDSA_44_SIGNATURE_LEN + 1),
               FM_ERR_LENGTH);
  CHECK_EQ_INT(fm_mldsa_keygen(FM_MLDSA_44, pk, sizeof pk, sk, sizeof sk - 1, NULL),
               FM_ERR_KEY_SIZE);
  CHECK_EQ_INT(fm_mldsa_sign(FM_MLDSA_44, sk, sizeof sk, NULL, 0, NULL, 0, 2, sig, sizeof sig,
                             &sig_len),
               FM_ERR_BAD_ARGUMENT);

  /* NULL with a length; overlap of the signature with the key. */
  CHECK_EQ_INT(fm_mldsa_sign(FM_MLDSA_44, sk, sizeof sk, NULL, 1, NULL, 0, 0, sig, sizeof sig,
                             &sig_len),
               FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_mldsa_sign(FM_MLDSA_44, sk, sizeof sk, NULL, 0, NULL, 0, 0, NULL, 0, &sig_len),
               FM_ERR_BAD_ARGUMENT);
  static uint8_t both[FM_MLDSA_44_PRIVATE_KEY_LEN + FM_MLDSA_44_SIGNATURE_LEN];
  memcpy(both, sk, sizeof sk);
  CHECK_EQ_INT(fm_mldsa_sign(FM_MLDSA_44, both, sizeof sk, NULL, 0, NULL, 0, 0, both + 100,
                             FM_MLDSA_44_SIGNATURE_LEN, &sig_len),
               FM_ERR_OVERLAP);

  /* A private key with s1 out of range (the first coefficient's 3 bits set to 7: eta - 7 < -2). */
  uint8_t bad[FM_MLDSA_44_PRIVATE_KEY_LEN];
  memcpy(bad, sk, sizeof bad);
  bad[128] |= 7;
  memset(sig, 0xa5, sizeof sig);
  CHECK_EQ_INT(fm_mldsa_sign(FM_MLDSA_44, bad, sizeof bad, NULL, 0, NULL, 0, 0, sig, sizeof sig,
                             &sig_len),
               FM_ERR_BAD_KEY);
  CHECK(test_is_all_zero(sig, sizeof sig) && sig_len == 0);
}

/* ---- Stack ---------------------------------------------------------------------------------- */

static void *stack_worker(void *arg) {
  int *ok = arg;
  static uint8_t pk[FM_MLDSA_87_PUBLIC_KEY_LEN], sk[FM_MLDSA_87_PRIVATE_KEY_LEN];
  static uint8_t sig[FM_MLDSA_87_SIGNATURE_LEN];
  size_t sig_len = 0;
  *ok = fm_mldsa_keygen(FM_MLDSA_87, pk, sizeof pk, sk, sizeof sk, NULL) == FM_OK &&
        fm_mldsa_sign(FM_MLDSA_87, sk, sizeof sk, pk, 32, NULL, 0, 0, sig, sizeof sig,
                      &sig_len) == FM_OK &&
        fm_mldsa_verify(FM_MLDSA_87, pk, sizeof pk, pk, 32, NULL, 0, sig, sig_len) == FM_OK;
  return NULL;
}

static void test_fits_64k_stack(void) {
  /* ML-DSA-87 key generation (with its PCT), signing and verification on a thread whose whole
   * stack is 64 KiB (a guard page past it): an overflow is a crash. (Key generation's 40 KiB
   * stack wipe, below its service's frame, is the deepest part now.) */
  pthread_attr_t attr;
  pthread_t th;
  int ok = 0;
  CHECK_EQ_INT(pthread_attr_init(&attr), 0);
  /* The bound is the uninstrumented build's: sanitizers enlarge every frame, and the module's
   * stack wipes are 8 times larger there (KECCAK_STACK_WIPE), so those builds get 512 KiB. */
  size_t stack = 64 * 1024;
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  stack = 512 * 1024;
#endif
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
  stack = 512 * 1024;
#endif
#endif
  /* Where the least thread stack is larger (128 KiB on aarch64), the thread runs on a stack of
   * that size, filled with a pattern first, and at most |stack| bytes of it may be touched (glibc
   * keeps the thread's TLS at the top of a caller's stack: that counts too). */
  const long least = sysconf(_SC_THREAD_STACK_MIN);
  uint8_t *mem = NULL;
  size_t mem_len = 0;
  if (least > 0 && (size_t)least > stack) {
    mem_len = ((size_t)least + 4095) & ~(size_t)4095;
    mem = mmap(NULL, mem_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(mem != MAP_FAILED);
    if (mem == MAP_FAILED) return;
    memset(mem, 0xa5, mem_len);
    CHECK_EQ_INT(pthread_attr_setstack(&attr, mem, mem_len), 0);
  } else {
    CHECK_EQ_INT(pthread_attr_setstacksize(&attr, stack), 0);
  }
  CHECK_EQ_INT(pthread_create(&th, &attr, stack_worker, &ok), 0);
  CHECK_EQ_INT(pthread_join(th, NULL), 0);
  CHECK(ok);
  pthread_attr_destroy(&attr);
  if (mem != NULL) {
    size_t untouched = 0;
    while (untouched < mem_len && mem[untouched] == 0xa5) untouched++;
    if (mem_len - untouched > stack) {
      fprintf(stderr, "fits_64k_stack: %zu bytes of the thread's stack touched\n",
              mem_len - untouched);
    }
    CHECK(mem_len - untouched <= stack);
    munmap(mem, mem_len);
  }
}

static const test_case cases[] = {
    TEST_CASE(fits_64k_stack),
    TEST_CASE(decompose_every_value), TEST_CASE(power2round_every_value),
    TEST_CASE(use_hint_every_value),  TEST_CASE(norm_exceeds_edges),
    TEST_CASE(split_pair_every_pair), TEST_CASE(split_add_norm),
    TEST_CASE(ntt_multiplies),        TEST_CASE(sign_verify_every_set),
    TEST_CASE(selftests_pass),        TEST_CASE(bad_arguments),
    TEST_CASE(keygen_matches_independent_key), TEST_CASE(sign_with_rnd),
};

int main(int argc, char **argv) {
  if (argc == 2 && strcmp(argv[1], "--print-known-values") == 0) {
    uint8_t kd[32], sd[32];
    char hex[65];
    cast_digests(kd, sd);
    test_hex_encode(kd, 32, hex);
    printf("key_digest %s\n", hex);
    test_hex_encode(sd, 32, hex);
    printf("signature_digest %s\n", hex);
    return 0;
  }
  return TEST_RUN(argc, argv, "test_mldsa_unit", cases);
}
