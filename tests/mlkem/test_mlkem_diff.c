/* Differential test of the ML-KEM kernels: the AVX2 NTT, inverse NTT and base multiplication
 * against their portable twins, bit for bit, on random inputs across the whole range each
 * kernel takes (NTT |c| < q; inverse NTT |c| <= q; base multiplication |c| <= q, k = 2..4), and
 * the edge values; the AVX2 rejection sampler, ByteDecode_12 and decompression against the
 * portable ones. Skips (passes, saying so) where the CPU has no AVX2 or FIPSMOD_CPU=portable.
 * FIPSMOD_TEST_SEED replays a run (the seed is printed). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fipsmod/module.h"
#include "module/internal.h"
#include "module/mlkem/internal.h"
#include "module/mlkem/poly.h"
#include "module/sha3/internal.h"
#include "tests/common/test_util.h"

enum { ROUNDS = 3000 };

static int have_avx2(void) {
  /* A call into the module links its life cycle in, whose power-on entry chooses the CPU paths. */
  CHECK(fm_module_state() == FM_STATE_OPERATIONAL);
#if MLKEM_HAVE_AVX2
  if (fm_cpu_use(FM_CPU_AVX2)) return 1;
#endif
  printf("no AVX2 path in use: nothing to compare\n");
  return 0;
}

static void random_poly(test_rng *rng, mlkem_poly *p, int bound) {
  for (unsigned i = 0; i < MLKEM_N; i++) {
    const uint64_t r = test_rng_u64(rng);
    /* A quarter of the coefficients at the bounds, the rest uniform in (-bound, bound). */
    if ((r & 3) == 0) p->c[i] = (int16_t)((r & 4) ? bound - 1 : -(bound - 1));
    else p->c[i] = (int16_t)((int)((r >> 8) % (uint64_t)(2 * bound - 1)) - (bound - 1));
  }
}

#if MLKEM_HAVE_AVX2
static void test_ntt(void) {
  if (!have_avx2()) return;
  test_rng rng;
  test_rng_seed(&rng, "test_mlkem_diff.ntt");
  for (int r = 0; r < ROUNDS && test_failures == 0; r++) {
    mlkem_poly a, b;
    random_poly(&rng, &a, MLKEM_Q);
    b = a;
    mlkem_ntt_portable(&a);
    mlkem_ntt_avx2(&b);
    CHECK_MEM(a.c, b.c, sizeof a.c);
  }
}

static void test_invntt(void) {
  if (!have_avx2()) return;
  test_rng rng;
  test_rng_seed(&rng, "test_mlkem_diff.invntt");
  for (int r = 0; r < ROUNDS && test_failures == 0; r++) {
    mlkem_poly a, b;
    random_poly(&rng, &a, MLKEM_Q + 1);
    b = a;
    mlkem_invntt_portable(&a);
    mlkem_invntt_avx2(&b);
    CHECK_MEM(a.c, b.c, sizeof a.c);
  }
}

static void test_basemul(void) {
  if (!have_avx2()) return;
  test_rng rng;
  test_rng_seed(&rng, "test_mlkem_diff.basemul");
  for (int r = 0; r < ROUNDS && test_failures == 0; r++) {
    mlkem_poly a[4], b[4], x, y;
    const unsigned k = 2 + (unsigned)test_rng_below(&rng, 3);
    for (unsigned i = 0; i < k; i++) {
      random_poly(&rng, &a[i], MLKEM_Q + 1);
      random_poly(&rng, &b[i], MLKEM_Q + 1);
    }
    mlkem_basemul_acc_portable(&x, a, b, k);
    mlkem_basemul_acc_avx2(&y, a, b, k);
    CHECK_MEM(x.c, y.c, sizeof x.c);
  }
}

/* The AVX2 rejection sampler against the portable one: random streams of every length the
 * sampler may get (multiples of 3 up to a few blocks), from random fill levels, with a quarter
 * of the 12-bit values placed at q - 1, q and 4095 (the edges of acceptance). */
static void test_rej_uniform(void) {
  if (!have_avx2()) return;
  test_rng rng;
  test_rng_seed(&rng, "test_mlkem_diff.rej_uniform");
  for (int r = 0; r < ROUNDS && test_failures == 0; r++) {
    uint8_t buf[3 * 200];
    const size_t len = 3 * (size_t)test_rng_below(&rng, 201);
    test_rng_bytes(&rng, buf, sizeof buf);
    for (size_t g = 0; g + 3 <= len; g += 3) {
      const uint64_t e = test_rng_u64(&rng);
      if ((e & 3) != 0) continue;
      static const uint16_t edge[3] = {MLKEM_Q - 1, MLKEM_Q, 4095};
      const uint16_t d = edge[(e >> 2) % 3];
      if (e & 32) { /* the first value of the group */
        buf[g] = (uint8_t)d;
        buf[g + 1] = (uint8_t)((buf[g + 1] & 0xf0) | (d >> 8));
      } else { /* the second */
        buf[g + 1] = (uint8_t)((buf[g + 1] & 0x0f) | ((d & 15) << 4));
        buf[g + 2] = (uint8_t)(d >> 4);
      }
    }
    mlkem_poly a, b;
    random_poly(&rng, &a, MLKEM_Q);
    b = a;
    unsigned na = (unsigned)test_rng_below(&rng, MLKEM_N + 1), nb = na;
    mlkem_rej_uniform_portable(a.c, &na, buf, len);
    mlkem_rej_uniform_avx2(b.c, &nb, buf, len);
    CHECK(na == nb);
    CHECK_MEM(a.c, b.c, sizeof a.c);
  }
}

/* ByteDecode_12 with reduction and Decompress_d(ByteDecode_d) for d = 4, 5, 10, 11: AVX2 against
 * portable on random bytes (12-bit values from 0 to 4095, so above q too) and on all-ones. */
static void test_decode(void) {
  if (!have_avx2()) return;
  test_rng rng;
  test_rng_seed(&rng, "test_mlkem_diff.decode");
  for (int r = 0; r < ROUNDS && test_failures == 0; r++) {
    uint8_t in[MLKEM_POLY_BYTES];
    if (r == 0) memset(in, 0xff, sizeof in);
    else test_rng_bytes(&rng, in, sizeof in);
    mlkem_poly a, b;
    mlkem_poly_frombytes_portable(&a, in);
    mlkem_poly_frombytes_avx2(&b, in);
    CHECK_MEM(a.c, b.c, sizeof a.c);
    static const unsigned ds[4] = {4, 5, 10, 11};
    for (unsigned i = 0; i < 4; i++) {
      /* A buffer of exactly 32 d bytes, so that ASan builds see any read past it. */
      uint8_t *exact = malloc(32 * ds[i]);
      CHECK(exact != NULL);
      if (exact == NULL) return;
      memcpy(exact, in, 32 * ds[i]);
      mlkem_poly_decompress_portable(&a, exact, ds[i]);
      mlkem_poly_decompress_avx2(&b, exact, ds[i]);
      CHECK_MEM(a.c, b.c, sizeof a.c);
      free(exact);
    }
  }
}

/* Normalization (inputs |c| < 2^15 - q), the multiplication by 2^16 (any int16) and
 * ByteEncode_12 (normalized inputs, edges 0 and q - 1 a quarter of the time): AVX2 against
 * portable. */
static void test_elementwise(void) {
  if (!have_avx2()) return;
  test_rng rng;
  test_rng_seed(&rng, "test_mlkem_diff.elementwise");
  for (int r = 0; r < ROUNDS && test_failures == 0; r++) {
    mlkem_poly a, b;
    random_poly(&rng, &a, 32768 - MLKEM_Q);
    b = a;
    mlkem_poly_normalize_portable(&a);
    mlkem_poly_normalize_avx2(&b);
    CHECK_MEM(a.c, b.c, sizeof a.c);
    for (unsigned i = 0; i < MLKEM_N; i++) a.c[i] = (int16_t)test_rng_u64(&rng);
    b = a;
    mlkem_poly_tomont_portable(&a);
    mlkem_poly_tomont_avx2(&b);
    CHECK_MEM(a.c, b.c, sizeof a.c);
    for (unsigned i = 0; i < MLKEM_N; i++) {
      const uint64_t e = test_rng_u64(&rng);
      a.c[i] = (e & 3) == 0 ? (int16_t)((e & 4) ? MLKEM_Q - 1 : 0) : (int16_t)((e >> 8) % MLKEM_Q);
    }
    uint8_t *x = malloc(MLKEM_POLY_BYTES), *y = malloc(MLKEM_POLY_BYTES);
    CHECK(x != NULL && y != NULL);
    if (x != NULL && y != NULL) {
      mlkem_poly_tobytes_portable(x, &a);
      mlkem_poly_tobytes_avx2(y, &a);
      CHECK_MEM(x, y, MLKEM_POLY_BYTES);
    }
    free(x);
    free(y);
  }
}

/* SamplePolyCBD_2 and SamplePolyCBD_3: AVX2 against portable on random bytes, all-zero and
 * all-one buffers (exact-size buffers, for ASan builds). */
static void test_cbd(void) {
  if (!have_avx2()) return;
  test_rng rng;
  test_rng_seed(&rng, "test_mlkem_diff.cbd");
  for (int r = 0; r < ROUNDS && test_failures == 0; r++) {
    for (unsigned eta = 2; eta <= 3; eta++) {
      uint8_t *buf = malloc(64 * eta);
      CHECK(buf != NULL);
      if (buf == NULL) return;
      if (r < 2) memset(buf, r ? 0xff : 0, 64 * eta);
      else test_rng_bytes(&rng, buf, 64 * eta);
      mlkem_poly a, b;
      mlkem_poly_cbd_portable(&a, buf, eta);
      if (eta == 2) mlkem_poly_cbd2_avx2(&b, buf);
      else mlkem_poly_cbd3_avx2(&b, buf);
      CHECK_MEM(a.c, b.c, sizeof a.c);
      free(buf);
    }
  }
}

/* The modulus check's scan (every 12-bit value below q): AVX2 against portable on keys of 2 to
 * 4 polynomials, valid ones with a few values set to q - 1, q or 4095 at random places (or
 * none), on exact-size buffers. */
static void test_below_q(void) {
  if (!have_avx2()) return;
  test_rng rng;
  test_rng_seed(&rng, "test_mlkem_diff.below_q");
  int seen[2] = {0, 0};
  for (int r = 0; r < ROUNDS && test_failures == 0; r++) {
    const size_t len = MLKEM_POLY_BYTES * (2 + (size_t)test_rng_below(&rng, 3));
    uint8_t *in = malloc(len);
    CHECK(in != NULL);
    if (in == NULL) return;
    for (size_t i = 0; i < len; i += 3) {
      const uint32_t t0 = (uint32_t)test_rng_below(&rng, MLKEM_Q);
      const uint32_t t1 = (uint32_t)test_rng_below(&rng, MLKEM_Q);
      in[i] = (uint8_t)t0;
      in[i + 1] = (uint8_t)((t0 >> 8) | (t1 << 4));
      in[i + 2] = (uint8_t)(t1 >> 4);
    }
    const unsigned edits = (unsigned)test_rng_below(&rng, 3);
    for (unsigned e = 0; e < edits; e++) {
      static const uint16_t v[3] = {MLKEM_Q - 1, MLKEM_Q, 4095};
      const uint16_t d = v[test_rng_below(&rng, 3)];
      const size_t g = 3 * (size_t)test_rng_below(&rng, len / 3);
      if (test_rng_below(&rng, 2)) {
        in[g] = (uint8_t)d;
        in[g + 1] = (uint8_t)((in[g + 1] & 0xf0) | (d >> 8));
      } else {
        in[g + 1] = (uint8_t)((in[g + 1] & 0x0f) | ((d & 15) << 4));
        in[g + 2] = (uint8_t)(d >> 4);
      }
    }
    const int want = mlkem_below_q_portable(in, len);
    CHECK(mlkem_below_q_avx2(in, len) == want);
    seen[want]++;
    free(in);
  }
  CHECK(seen[0] > 0 && seen[1] > 0); /* both verdicts were compared */
}

/* Compress_d with ByteEncode_d (d = 4, 5, 10, 11), ByteEncode_1(Compress_1) and
 * Decompress_1(ByteDecode_1): AVX2 against portable. Round 0 runs every coefficient value in
 * [0, q) (thirteen polynomials of consecutive values); the others random normalized polynomials
 * with a quarter of the values at the edges 0, q - 1 and the rounding boundaries of Compress_1. */
static void test_compress(void) {
  if (!have_avx2()) return;
  test_rng rng;
  test_rng_seed(&rng, "test_mlkem_diff.compress");
  static const unsigned ds[4] = {4, 5, 10, 11};
  static const int16_t edge[6] = {0, MLKEM_Q - 1, 832, 833, 2496, 2497};
  for (int r = 0; r < ROUNDS && test_failures == 0; r++) {
    const unsigned polys = r == 0 ? (MLKEM_Q + MLKEM_N - 1) / MLKEM_N : 1;
    for (unsigned p = 0; p < polys; p++) {
      mlkem_poly a;
      for (unsigned i = 0; i < MLKEM_N; i++) {
        const uint64_t e = test_rng_u64(&rng);
        if (r == 0) a.c[i] = (int16_t)((MLKEM_N * p + i) % MLKEM_Q);
        else if ((e & 3) == 0) a.c[i] = edge[(e >> 2) % 6];
        else a.c[i] = (int16_t)((e >> 8) % MLKEM_Q);
      }
      uint8_t x[32 * 11 + 1], y[32 * 11 + 1];
      for (unsigned j = 0; j < 4; j++) {
        memset(x, 0xa5, sizeof x);
        memset(y, 0xa5, sizeof y);
        mlkem_poly_compress_portable(x, &a, ds[j]);
        mlkem_poly_compress_avx2(y, &a, ds[j]);
        /* The byte past 32 d is untouched by both. */
        for (size_t o = 0; o < sizeof x; o++) {
          if (x[o] != y[o]) {
            printf("compress d = %u: first difference at byte %zu (round %d)\n", ds[j], o, r);
            break;
          }
        }
        CHECK_MEM(x, y, sizeof x);
      }
      mlkem_poly_tomsg_portable(x, &a);
      mlkem_poly_tomsg_avx2(y, &a);
      CHECK_MEM(x, y, MLKEM_SYM_BYTES);
      mlkem_poly b, c;
      test_rng_bytes(&rng, x, MLKEM_SYM_BYTES);
      mlkem_poly_frommsg_portable(&b, x);
      mlkem_poly_frommsg_avx2(&c, x);
      CHECK_MEM(b.c, c.c, sizeof b.c);
    }
  }
}
#else
static void test_elementwise(void) {}
static void test_cbd(void) {}
static void test_below_q(void) {}
static void test_compress(void) {}
static void test_decode(void) {}
static void test_rej_uniform(void) {}
static void test_ntt(void) { (void)have_avx2(); }
static void test_invntt(void) { (void)have_avx2(); }
static void test_basemul(void) { (void)have_avx2(); (void)random_poly; }
#endif

/* The four-way PRF (keccak_f1600_x4) against one-shot SHAKE256 of key || nonce, one and two
 * blocks, on every path. */
static void test_prf_x4(void) {
  test_rng rng;
  test_rng_seed(&rng, "test_mlkem_diff.prf_x4");
  for (int r = 0; r < 200 && test_failures == 0; r++) {
    uint8_t key[33], nonce[4], got[4][MLKEM_PRF_X4_BYTES], want[MLKEM_PRF_X4_BYTES];
    test_rng_bytes(&rng, key, 32);
    test_rng_bytes(&rng, nonce, 4);
    const unsigned blocks = 1 + (unsigned)(r & 1);
    mlkem_prf_x4(got, key, nonce, blocks);
    for (int s = 0; s < 4; s++) {
      key[32] = nonce[s];
      shake256(want, blocks * SHAKE256_RATE, key, 33);
      CHECK_MEM(got[s], want, blocks * SHAKE256_RATE);
    }
  }
}

/* The lane pool (mlkem_sample_matrix_hash) against one-shot functions: each matrix entry against
 * SampleNTT written out (SHAKE128 of rho || j || i, then the portable rejection step), each
 * sponge against sha3_digest or shake256 of its two pieces joined. Random rho, k = 2..4, either
 * orientation, 0 to 2 sponges of random lengths (0 to 700 bytes, a quarter on a multiple of the
 * rate, where the padding takes a block of its own), on every path. */
static void test_matrix_hash(void) {
  test_rng rng;
  test_rng_seed(&rng, "test_mlkem_diff.matrix_hash");
  for (int r = 0; r < 200 && test_failures == 0; r++) {
    uint8_t rho[32], in[2][700], joined[700], out[2][64], want[64];
    test_rng_bytes(&rng, rho, sizeof rho);
    const unsigned k = 2 + (unsigned)test_rng_below(&rng, 3);
    const int transposed = (int)test_rng_below(&rng, 2);
    const unsigned nmsg = (unsigned)test_rng_below(&rng, 3);
    keccak_msg m[2];
    for (unsigned i = 0; i < nmsg; i++) {
      size_t len = (size_t)test_rng_below(&rng, 701);
      if (test_rng_below(&rng, 4) == 0) len = SHAKE256_RATE * (size_t)test_rng_below(&rng, 6);
      const size_t first = (size_t)test_rng_below(&rng, len + 1);
      test_rng_bytes(&rng, in[i], len);
      m[i].piece[0] = first ? in[i] : NULL;
      m[i].piece[1] = len - first ? in[i] + first : NULL;
      m[i].len[0] = first;
      m[i].len[1] = len - first;
      m[i].dsep = (i + (unsigned)r) % 2 ? KECCAK_DSEP_SHA3 : KECCAK_DSEP_SHAKE;
      m[i].out = out[i];
      m[i].out_len = m[i].dsep == KECCAK_DSEP_SHA3 ? 32 : 1 + (size_t)test_rng_below(&rng, 64);
    }
    mlkem_poly a[16];
    mlkem_sample_matrix_hash(a, rho, k, transposed, m, nmsg);
    for (unsigned i = 0; i < nmsg; i++) {
      const size_t len = m[i].len[0] + m[i].len[1];
      memcpy(joined, in[i], len);
      if (m[i].dsep == KECCAK_DSEP_SHA3) sha3_digest(256, joined, len, want);
      else shake256(want, m[i].out_len, joined, len);
      CHECK_MEM(out[i], want, m[i].out_len);
    }
    for (unsigned e = 0; e < k * k; e++) {
      const unsigned i = e / k, j = e % k;
      uint8_t seed[34], stream[SHAKE128_RATE * 12];
      memcpy(seed, rho, 32);
      seed[32] = (uint8_t)(transposed ? i : j);
      seed[33] = (uint8_t)(transposed ? j : i);
      shake128(stream, sizeof stream, seed, sizeof seed);
      mlkem_poly ref;
      unsigned n = 0;
      for (size_t b = 0; b < sizeof stream && n < MLKEM_N; b += SHAKE128_RATE)
        mlkem_rej_uniform_portable(ref.c, &n, stream + b, SHAKE128_RATE);
      CHECK(n == MLKEM_N);
      CHECK_MEM(a[e].c, ref.c, sizeof ref.c);
    }
  }
}

static const test_case cases[] = {TEST_CASE(ntt), TEST_CASE(invntt), TEST_CASE(basemul),
                                  TEST_CASE(rej_uniform), TEST_CASE(decode), TEST_CASE(below_q), TEST_CASE(cbd), TEST_CASE(elementwise), TEST_CASE(compress),
                                  TEST_CASE(prf_x4), TEST_CASE(matrix_hash)};

int main(int argc, char **argv) { return TEST_RUN(argc, argv, "test_mlkem_diff", cases); }
