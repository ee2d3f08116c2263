/* Differential test of ML-DSA's AVX2 kernels against their portable twins (module/mldsa): the
 * NTT, the inverse NTT, the pointwise and dot products, Decompose, a signing row's end (its norm
 * checks and MakeHint), UseHint, w1Encode (alone, with signing's HighBits and with UseHint), the
 * BitPacks of z, t1, t0, s1 and s2, the BitUnpacks of z, t1, t0, s1 and s2 and the block
 * samplers of RejNTTPoly and RejBoundedPoly
 * must give the same coefficients on random inputs over their whole documented input ranges,
 * plus the edges (0, +-(q-1), the largest allowed magnitudes). Skips (exit 0 with a note) on a
 * CPU without AVX2.
 *
 * usage: test_mldsa_diff [case]; FIPSMOD_TEST_SEED replays a run (the seed is printed). */
#include <string.h>

#include "fipsmod/module.h"
#include "module/internal.h"
#include "module/mldsa/internal.h"
#include "tests/common/test_util.h"

#if defined(__x86_64__)
void mldsa_poly_ntt_avx2(mldsa_poly *p);
void mldsa_poly_invntt_tomont_avx2(mldsa_poly *p);
void mldsa_poly_ntt_avx512(mldsa_poly *p);
void mldsa_poly_invntt_tomont_avx512(mldsa_poly *p);
void mldsa_poly_pointwise_mont_avx2(mldsa_poly *r, const mldsa_poly *a, const mldsa_poly *b);
void mldsa_poly_pointwise_acc_mont_avx2(mldsa_poly *r, const mldsa_poly *a, const mldsa_poly *b);
void mldsa_poly_dot_mont_avx2(mldsa_poly *r, const mldsa_poly *a, const mldsa_poly *v,
                              unsigned n);
void mldsa_poly_decompose_avx2(const mldsa_params *p, mldsa_poly *a1, mldsa_poly *a0,
                               const mldsa_poly *a);
uint32_t mldsa_poly_sign_row_avx2(const mldsa_params *p, mldsa_poly *h, const mldsa_poly *w,
                                  const mldsa_poly *cs2, const mldsa_poly *ct0, unsigned *ones);
void mldsa_poly_use_hint_avx2(const mldsa_params *p, mldsa_poly *a, const mldsa_poly *h);
void mldsa_poly_w1_encode_avx2(const mldsa_params *p, uint8_t *out, mldsa_poly *w);
void mldsa_poly_use_hint_encode_avx2(const mldsa_params *p, uint8_t *out, const mldsa_poly *w,
                                     const mldsa_poly *h);
#endif

enum { ROUNDS = 2000 };

static int have_avx2(void) {
#if defined(__x86_64__)
  return __builtin_cpu_supports("avx2");
#else
  return 0;
#endif
}

#if defined(__x86_64__)
/* fill sets coefficients in [-bound, bound], with the edges at a few places. */
static void fill(test_rng *rng, mldsa_poly *p, int32_t bound) {
  for (size_t i = 0; i < MLDSA_N; i++)
    p->c[i] = (int32_t)test_rng_below(rng, 2 * (uint64_t)bound + 1) - bound;
  p->c[0] = bound;
  p->c[1] = -bound;
  p->c[2] = 0;
}
#endif

static void test_ntt(void) {
  if (!have_avx2()) return;
#if defined(__x86_64__)
  test_rng rng;
  test_rng_seed(&rng, "test_mldsa_diff.ntt");
  for (int r = 0; r < ROUNDS; r++) {
    mldsa_poly a, b;
    fill(&rng, &a, MLDSA_Q - 1);
    b = a;
    mldsa_poly_ntt_portable(&a);
    mldsa_poly_ntt_avx2(&b);
    CHECK_MEM(a.c, b.c, sizeof a.c);
    /* The inverse takes any coefficient below 2^31 / 256 in magnitude, in practice below q. */
    fill(&rng, &a, MLDSA_Q - 1);
    b = a;
    mldsa_poly_invntt_tomont_portable(&a);
    mldsa_poly_invntt_tomont_avx2(&b);
    CHECK_MEM(a.c, b.c, sizeof a.c);
    if (!__builtin_cpu_supports("avx512f")) continue;
    fill(&rng, &a, MLDSA_Q - 1);
    b = a;
    mldsa_poly_ntt_portable(&a);
    mldsa_poly_ntt_avx512(&b);
    CHECK_MEM(a.c, b.c, sizeof a.c);
    fill(&rng, &a, MLDSA_Q - 1);
    b = a;
    mldsa_poly_invntt_tomont_portable(&a);
    mldsa_poly_invntt_tomont_avx512(&b);
    CHECK_MEM(a.c, b.c, sizeof a.c);
  }
#endif
}

static void test_pointwise(void) {
  if (!have_avx2()) return;
#if defined(__x86_64__)
  test_rng rng;
  test_rng_seed(&rng, "test_mldsa_diff.pointwise");
  for (int r = 0; r < ROUNDS; r++) {
    mldsa_poly a, b, x, y;
    fill(&rng, &a, 9 * MLDSA_Q); /* NTT outputs are below 9q */
    fill(&rng, &b, 9 * MLDSA_Q);
    mldsa_poly_pointwise_mont_portable(&x, &a, &b);
    mldsa_poly_pointwise_mont_avx2(&y, &a, &b);
    CHECK_MEM(x.c, y.c, sizeof x.c);
    fill(&rng, &x, 6 * MLDSA_Q);
    y = x;
    mldsa_poly_pointwise_acc_mont_portable(&x, &a, &b);
    mldsa_poly_pointwise_acc_mont_avx2(&y, &a, &b);
    CHECK_MEM(x.c, y.c, sizeof x.c);
  }
#endif
}

static void test_decompose(void) {
  if (!have_avx2()) return;
#if defined(__x86_64__)
  /* Every r in [0, q) for both gamma2. */
  const int levels[] = {44, 65};
  for (size_t li = 0; li < 2; li++) {
    const mldsa_params *p = mldsa_params_get(levels[li]);
    long bad = 0;
    for (int32_t base = 0; base < MLDSA_Q; base += MLDSA_N) {
      mldsa_poly a, x1, x0, y1, y0;
      for (size_t i = 0; i < MLDSA_N; i++) a.c[i] = (base + (int32_t)i) % MLDSA_Q;
      mldsa_poly_decompose_portable(p, &x1, &x0, &a);
      mldsa_poly_decompose_avx2(p, &y1, &y0, &a);
      bad += memcmp(x1.c, y1.c, sizeof x1.c) != 0 || memcmp(x0.c, y0.c, sizeof x0.c) != 0;
    }
    CHECK_EQ_INT(bad, 0);
  }
#endif
}

/* MakeHint for both gamma2: r uniform in [0, q) and v1 the HighBits of r moved by a small
 * random amount (so that some hints are set, as in signing) or, in some rounds, any value in
 * range; the hint and the count must agree, and also with h written over v1. */
static int32_t centred_mag(int64_t x) {
  int64_t c = ((x % MLDSA_Q) + MLDSA_Q) % MLDSA_Q;
  if (c > (MLDSA_Q - 1) / 2) c -= MLDSA_Q;
  return (int32_t)(c < 0 ? -c : c);
}

/* The end of a signing row: both twins against a reference built from the portable Decompose
 * and the definitions of the norm checks and MakeHint. ct0 is mostly near the norm bound and the
 * rounding edges, sometimes anywhere in (-q, q). */
static void test_sign_row(void) {
  if (!have_avx2()) return;
#if defined(__x86_64__)
  test_rng rng;
  test_rng_seed(&rng, "test_mldsa_diff.sign_row");
  static const int levels[3] = {44, 65, 87};
  for (int round = 0; round < ROUNDS && test_failures == 0; round++) {
    const mldsa_params *p = mldsa_params_get(levels[round % 3]);
    mldsa_poly w, cs2, ct0, r, rc, v1, r0, r1, lo, hx, hy;
    const int32_t span = round % 5 == 0 ? MLDSA_Q - 1 : p->gamma2 + 3;
    for (size_t i = 0; i < MLDSA_N; i++) {
      w.c[i] = (int32_t)test_rng_below(&rng, MLDSA_Q);
      cs2.c[i] = (int32_t)test_rng_below(&rng, 2 * 196 + 1) - 196;
      ct0.c[i] = (int32_t)test_rng_below(&rng, 2 * (uint64_t)span + 1) - span;
      r.c[i] = (int32_t)((((int64_t)w.c[i] - cs2.c[i]) % MLDSA_Q + MLDSA_Q) % MLDSA_Q);
      rc.c[i] = (int32_t)((((int64_t)r.c[i] + ct0.c[i]) % MLDSA_Q + MLDSA_Q) % MLDSA_Q);
    }
    /* A few rows that pass both norm checks, so that the verdict is not always "reject". */
    if (round % 2 == 1) {
      for (size_t i = 0; i < MLDSA_N; i++) {
        ct0.c[i] %= p->gamma2 / 2;
        w.c[i] = (int32_t)(2 * p->gamma2 * test_rng_below(&rng, (MLDSA_Q - 1) / (2 * p->gamma2)));
        cs2.c[i] = 0;
        r.c[i] = w.c[i];
        rc.c[i] = (int32_t)((((int64_t)r.c[i] + ct0.c[i]) % MLDSA_Q + MLDSA_Q) % MLDSA_Q);
      }
    }
    mldsa_poly_decompose_portable(p, &v1, &r0, &r);
    mldsa_poly_decompose_portable(p, &r1, &lo, &rc);
    uint32_t want = 0;
    unsigned want_ones = 0;
    for (size_t i = 0; i < MLDSA_N; i++) {
      if (centred_mag(r0.c[i]) >= p->gamma2 - p->beta || centred_mag(ct0.c[i]) >= p->gamma2)
        want = 0xffffffffu;
      want_ones += r1.c[i] != v1.c[i];
    }
    unsigned nx = 7, ny = 7;
    const uint32_t bx = mldsa_poly_sign_row_portable(p, &hx, &w, &cs2, &ct0, &nx);
    const uint32_t by = mldsa_poly_sign_row_avx2(p, &hy, &w, &cs2, &ct0, &ny);
    int ok = bx == want && by == want && nx == 7 + want_ones && ny == nx &&
             memcmp(hx.c, hy.c, sizeof hx.c) == 0;
    for (size_t i = 0; i < MLDSA_N; i++) ok &= hx.c[i] == (r1.c[i] != v1.c[i]);
    if (!ok) {
      fprintf(stderr, "sign_row: ML-DSA-%d round %d: verdict %08x/%08x (want %08x), ones %u/%u "
              "(want %u)\n", levels[round % 3], round, bx, by, want, nx - 7, ny - 7, want_ones);
      CHECK(0);
    }
  }
#endif
}

/* RejNTTPoly's block sampler: random blocks, with candidates set to q - 1, q, 2^23 - 1 and 0
 * at random places and, in some rounds, every candidate rejected or every one kept. The number
 * kept and the kept values must agree. */
static void test_rej_ntt_block(void) {
  if (!have_avx2()) return;
#if defined(__x86_64__)
  test_rng rng;
  test_rng_seed(&rng, "test_mldsa_diff.rej_ntt_block");
  static const uint32_t edges[4] = {MLDSA_Q - 1, MLDSA_Q, 0x7fffff, 0};
  for (int round = 0; round < ROUNDS && test_failures == 0; round++) {
    uint8_t block[168 + 8];
    test_rng_bytes(&rng, block, sizeof block);
    for (int e = 0; e < 8; e++) {
      const size_t at = 3 * (size_t)test_rng_below(&rng, 56);
      const uint32_t v = edges[test_rng_below(&rng, 4)] | (uint32_t)(block[at + 2] & 0x80) << 16;
      block[at] = (uint8_t)v;
      block[at + 1] = (uint8_t)(v >> 8);
      block[at + 2] = (uint8_t)(v >> 16);
    }
    if (round == 0) memset(block, 0xff, sizeof block); /* every candidate rejected */
    if (round == 1) memset(block, 0x00, sizeof block); /* every candidate kept */
    int32_t x[56], y[56];
    const size_t nx = mldsa_rej_ntt_block_portable(x, block);
    const size_t ny = mldsa_rej_ntt_block_avx2(y, block);
    if (nx != ny || memcmp(x, y, nx * sizeof x[0]) != 0) {
      fprintf(stderr, "rej_ntt_block: round %d: portable kept %zu, avx2 %zu\n", round, nx, ny);
      CHECK(0);
    }
  }
#endif
}

/* RejBoundedPoly's block sampler for eta 2 and 4: random blocks (in some rounds all 0xff, every
 * half-byte rejected, or all zero, every one kept), appended after a random number of
 * coefficients already there, so that the end at 256 falls anywhere in a block. */
static void test_rej_eta_block(void) {
  if (!have_avx2()) return;
#if defined(__x86_64__)
  test_rng rng;
  test_rng_seed(&rng, "test_mldsa_diff.rej_eta_block");
  static const int levels[2] = {44, 65};
  for (int round = 0; round < ROUNDS && test_failures == 0; round++) {
    const mldsa_params *p = mldsa_params_get(levels[round & 1]);
    uint8_t block[136];
    test_rng_bytes(&rng, block, sizeof block);
    if (round % 50 == 2) memset(block, 0xff, sizeof block);
    if (round % 50 == 3) memset(block, 0x00, sizeof block);
    const size_t start = (size_t)test_rng_below(&rng, MLDSA_N);
    int32_t x[MLDSA_N], y[MLDSA_N];
    for (size_t i = 0; i < MLDSA_N; i++) x[i] = y[i] = (int32_t)i;
    const size_t nx = mldsa_rej_eta_block_portable(p, x, start, block);
    const size_t ny = mldsa_rej_eta_block_avx2(p, y, start, block);
    if (nx != ny || memcmp(x, y, nx * sizeof x[0]) != 0) {
      fprintf(stderr, "rej_eta_block: ML-DSA-%d round %d start %zu: portable %zu, avx2 %zu\n",
              levels[round & 1], round, start, nx, ny);
      CHECK(0);
    }
  }
#endif
}

/* BitUnpack of z (18 and 20 bits, ML-DSA-44 and -65) on random bytes and on all-ones and
 * all-zeros encodings: the AVX2 form against the portable one. */
static void test_unpack_z(void) {
  if (!have_avx2()) return;
#if defined(__x86_64__)
  test_rng rng;
  test_rng_seed(&rng, "test_mldsa_diff.unpack_z");
  static const int levels[2] = {44, 65};
  for (int r = 0; r < ROUNDS && test_failures == 0; r++) {
    uint8_t in[32 * 20];
    if (r == 0) memset(in, 0xff, sizeof in);
    else if (r == 1) memset(in, 0, sizeof in);
    else test_rng_bytes(&rng, in, sizeof in);
    for (int l = 0; l < 2; l++) {
      const mldsa_params *p = mldsa_params_get(levels[l]);
      mldsa_poly a, b;
      mldsa_unpack_z_portable(p, &a, in);
      mldsa_unpack_z_avx2(p, &b, in);
      CHECK_MEM(a.c, b.c, sizeof a.c);
    }
  }
#endif
}

/* UseHint for both gamma2 over every r in [0, q), with the hint bits random: the AVX2 form
 * against the portable one. */
static void test_use_hint(void) {
  if (!have_avx2()) return;
#if defined(__x86_64__)
  test_rng rng;
  test_rng_seed(&rng, "test_mldsa_diff.use_hint");
  static const int levels[2] = {44, 65};
  for (int l = 0; l < 2; l++) {
    const mldsa_params *p = mldsa_params_get(levels[l]);
    long bad = 0;
    for (int32_t base = 0; base < MLDSA_Q; base += MLDSA_N) {
      mldsa_poly a, b, h;
      for (size_t i = 0; i < MLDSA_N; i++) {
        a.c[i] = (base + (int32_t)i) % MLDSA_Q;
        h.c[i] = (int32_t)test_rng_below(&rng, 2);
      }
      b = a;
      mldsa_poly_use_hint_portable(p, &a, &h);
      mldsa_poly_use_hint_avx2(p, &b, &h);
      bad += memcmp(a.c, b.c, sizeof a.c) != 0;
    }
    CHECK_EQ_INT(bad, 0);
  }
#endif
}

/* w1Encode for both widths (4 and 6 bits): random coefficients in range and the two edges
 * (all 0, all the largest value), the AVX2 form against the portable one. */
static void test_pack_w1(void) {
  if (!have_avx2()) return;
#if defined(__x86_64__)
  test_rng rng;
  test_rng_seed(&rng, "test_mldsa_diff.pack_w1");
  static const int levels[2] = {44, 65};
  for (int r = 0; r < ROUNDS && test_failures == 0; r++) {
    for (int l = 0; l < 2; l++) {
      const mldsa_params *p = mldsa_params_get(levels[l]);
      const int32_t m = (MLDSA_Q - 1) / (2 * p->gamma2);
      mldsa_poly w;
      for (size_t i = 0; i < MLDSA_N; i++)
        w.c[i] = r == 0 ? 0 : r == 1 ? m - 1 : (int32_t)test_rng_below(&rng, (uint64_t)m);
      uint8_t x[192], y[192];
      memset(x, 0xa5, sizeof x);
      memset(y, 0xa5, sizeof y);
      mldsa_pack_w1_portable(p, x, &w);
      mldsa_pack_w1_avx2(p, y, &w);
      CHECK_MEM(x, y, sizeof x);
    }
  }
#endif
}

/* BitUnpack of t1 (10 bits), t0 (13) and s1, s2 (3 and 4 bits) on random bytes and on
 * all-ones and all-zeros encodings: the AVX2 form against the portable ones. */
static void test_unpack_small(void) {
  if (!have_avx2()) return;
#if defined(__x86_64__)
  test_rng rng;
  test_rng_seed(&rng, "test_mldsa_diff.unpack_small");
  for (int r = 0; r < ROUNDS && test_failures == 0; r++) {
    uint8_t in[32 * 13];
    if (r == 0) memset(in, 0xff, sizeof in);
    else if (r == 1) memset(in, 0, sizeof in);
    else test_rng_bytes(&rng, in, sizeof in);
    mldsa_poly a, b;
    mldsa_unpack_t1_portable(&a, in);
    mldsa_unpack_bits_avx2(&b, in, 10, 0, 0);
    CHECK_MEM(a.c, b.c, sizeof a.c);
    mldsa_unpack_t0_portable(&a, in);
    mldsa_unpack_bits_avx2(&b, in, MLDSA_D, 1 << (MLDSA_D - 1), 1);
    CHECK_MEM(a.c, b.c, sizeof a.c);
    static const int levels[2] = {44, 65};
    for (int l = 0; l < 2; l++) {
      const mldsa_params *p = mldsa_params_get(levels[l]);
      mldsa_unpack_eta_values_portable(p, &a, in);
      mldsa_unpack_bits_avx2(&b, in, p->eta_bits, p->eta, 1);
      CHECK_MEM(a.c, b.c, sizeof a.c);
    }
  }
#endif
}

/* BitPack of t1, t0, s1 and s2: random values in each encoding's range (and its two ends),
 * the AVX2 form against the portable ones, bytes past the encoding untouched. */
static void test_pack_small(void) {
  if (!have_avx2()) return;
#if defined(__x86_64__)
  test_rng rng;
  test_rng_seed(&rng, "test_mldsa_diff.pack_small");
  for (int r = 0; r < ROUNDS && test_failures == 0; r++) {
    /* ranges: t1 [0, 2^10), t0 (-2^12, 2^12], s [-eta, eta] */
    mldsa_poly t1, t0, s2, s4;
    for (size_t i = 0; i < MLDSA_N; i++) {
      const int e = r < 2 ? r : 2;
      t1.c[i] = e == 0 ? 0 : e == 1 ? 1023 : (int32_t)test_rng_below(&rng, 1024);
      t0.c[i] = e == 0 ? -4095 : e == 1 ? 4096 : (int32_t)test_rng_below(&rng, 8192) - 4095;
      s2.c[i] = e == 0 ? -2 : e == 1 ? 2 : (int32_t)test_rng_below(&rng, 5) - 2;
      s4.c[i] = e == 0 ? -4 : e == 1 ? 4 : (int32_t)test_rng_below(&rng, 9) - 4;
    }
    uint8_t x[32 * 13 + 16], y[32 * 13 + 16];
    memset(x, 0x5a, sizeof x);
    memset(y, 0x5a, sizeof y);
    mldsa_pack_t1_portable(x, &t1);
    mldsa_pack_bits_avx2(y, &t1, 10, 0, 0);
    CHECK_MEM(x, y, sizeof x);
    mldsa_pack_t0_portable(x, &t0);
    mldsa_pack_bits_avx2(y, &t0, MLDSA_D, 1 << (MLDSA_D - 1), 1);
    CHECK_MEM(x, y, sizeof x);
    mldsa_pack_eta_portable(mldsa_params_get(44), x, &s2);
    mldsa_pack_bits_avx2(y, &s2, 3, 2, 1);
    CHECK_MEM(x, y, sizeof x);
    mldsa_pack_eta_portable(mldsa_params_get(65), x, &s4);
    mldsa_pack_bits_avx2(y, &s4, 4, 4, 1);
    CHECK_MEM(x, y, sizeof x);
  }
#endif
}

/* BitPack of z (18 and 20 bits): random values in (-gamma1, gamma1] and its two ends, the AVX2
 * form against the portable one, bytes past the encoding untouched. */
static void test_pack_z(void) {
  if (!have_avx2()) return;
#if defined(__x86_64__)
  test_rng rng;
  test_rng_seed(&rng, "test_mldsa_diff.pack_z");
  static const int levels[2] = {44, 65};
  for (int r = 0; r < ROUNDS && test_failures == 0; r++) {
    for (int l = 0; l < 2; l++) {
      const mldsa_params *p = mldsa_params_get(levels[l]);
      mldsa_poly z;
      for (size_t i = 0; i < MLDSA_N; i++)
        z.c[i] = r == 0   ? 1 - p->gamma1
                 : r == 1 ? p->gamma1
                          : (int32_t)test_rng_below(&rng, 2 * (uint64_t)p->gamma1) - p->gamma1 + 1;
      uint8_t x[32 * 20 + 16], y[32 * 20 + 16];
      memset(x, 0x5a, sizeof x);
      memset(y, 0x5a, sizeof y);
      mldsa_pack_z_portable(p, x, &z);
      mldsa_pack_z_avx2(p, y, &z);
      CHECK_MEM(x, y, sizeof x);
    }
  }
#endif
}

/* Verification's w1' (UseHint, w1Encode) and signing's w1 (caddq, HighBits, w1Encode), each in
 * one pass, for both gamma2 on w in (-q, q) with the edges: the AVX2 forms against the portable
 * ones, the bytes and w after. */
static void test_w1_encode(void) {
  if (!have_avx2()) return;
#if defined(__x86_64__)
  test_rng rng;
  test_rng_seed(&rng, "test_mldsa_diff.w1_encode");
  static const int levels[2] = {44, 65};
  for (int r = 0; r < ROUNDS && test_failures == 0; r++) {
    for (int l = 0; l < 2; l++) {
      const mldsa_params *p = mldsa_params_get(levels[l]);
      mldsa_poly a, b;
      fill(&rng, &a, MLDSA_Q - 1);
      b = a;
      uint8_t x[192], y[192];
      memset(x, 0xa5, sizeof x);
      memset(y, 0xa5, sizeof y);
      /* Verification's: UseHint with random hints, then w1Encode; w unchanged. */
      mldsa_poly h;
      for (size_t i = 0; i < MLDSA_N; i++) h.c[i] = (int32_t)test_rng_below(&rng, 2);
      mldsa_poly_use_hint_encode_portable(p, x, &a, &h);
      mldsa_poly_use_hint_encode_avx2(p, y, &b, &h);
      CHECK_MEM(x, y, sizeof x);
      CHECK_MEM(a.c, b.c, sizeof a.c);
      mldsa_poly_w1_encode_portable(p, x, &a);
      mldsa_poly_w1_encode_avx2(p, y, &b);
      CHECK_MEM(x, y, sizeof x);
      CHECK_MEM(a.c, b.c, sizeof a.c);
    }
  }
#endif
}

static void test_dot(void) {
  if (!have_avx2()) return;
#if defined(__x86_64__)
  test_rng rng;
  test_rng_seed(&rng, "test_mldsa_diff.dot");
  for (int r = 0; r < ROUNDS / 4; r++) {
    mldsa_poly a[7], v[7], x, y, sum;
    for (unsigned j = 0; j < 7; j++) {
      fill(&rng, &a[j], MLDSA_Q - 1); /* A-hat's coefficients are in [0, q) */
      for (size_t i = 0; i < MLDSA_N; i++) a[j].c[i] = a[j].c[i] < 0 ? -a[j].c[i] : a[j].c[i];
      fill(&rng, &v[j], 9 * MLDSA_Q - 1); /* NTT outputs are below 9q */
    }
    for (unsigned n = 1; n <= 7; n++) {
      mldsa_poly_dot_mont_portable(&x, a, v, n);
      mldsa_poly_dot_mont_avx2(&y, a, v, n);
      CHECK_MEM(x.c, y.c, sizeof x.c);
      /* Congruent to the sum of the n pointwise products. */
      mldsa_poly_pointwise_mont_portable(&sum, &a[0], &v[0]);
      for (unsigned j = 1; j < n; j++) mldsa_poly_pointwise_acc_mont_portable(&sum, &a[j], &v[j]);
      long bad = 0;
      for (size_t i = 0; i < MLDSA_N; i++) bad += (((int64_t)x.c[i] - sum.c[i]) % MLDSA_Q) != 0;
      CHECK_EQ_INT(bad, 0);
    }
  }
#endif
}

static const test_case cases[] = {
    TEST_CASE(ntt),          TEST_CASE(pointwise),     TEST_CASE(dot),
    TEST_CASE(decompose),    TEST_CASE(sign_row),      TEST_CASE(use_hint),
    TEST_CASE(pack_w1),      TEST_CASE(w1_encode),     TEST_CASE(unpack_z),
    TEST_CASE(unpack_small), TEST_CASE(pack_small),    TEST_CASE(pack_z),
    TEST_CASE(rej_ntt_block), TEST_CASE(rej_eta_block)};

int main(int argc, char **argv) {
  if (!have_avx2()) fprintf(stderr, "test_mldsa_diff: no AVX2 on this CPU: nothing to compare\n");
  return TEST_RUN(argc, argv, "test_mldsa_diff", cases);
}
