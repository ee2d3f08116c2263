/* ML-KEM (FIPS 203): K-PKE (section 5) and the internal algorithms of ML-KEM (section 6), for the
 * three parameter sets. The public services (mlkem_service.c) check lengths and keys and draw the
 * randomness; this file computes.
 *
 * Representation: vectors of polynomials in T_q are kept in NTT form as the standard writes them
 * (t-hat, s-hat, y-hat); the base multiplication leaves a factor 2^-16 that the inverse NTT (or
 * an explicit multiplication by 2^16 for t-hat) takes out, so every value that reaches an
 * encoding is the standard's own. Every secret intermediate is wiped before return. */
#include <assert.h>
#include <string.h>

#include "module/internal.h"
#include "module/mlkem/internal.h"
#include "module/mlkem/poly.h"
#include "module/sha3/internal.h"

/* FIPS 203 section 8, Table 2. */
static const mlkem_params k_mlkem512 = {2, 3, 2, 10, 4, 800, 1632, 768};
static const mlkem_params k_mlkem768 = {3, 2, 2, 10, 4, 1184, 2400, 1088};
static const mlkem_params k_mlkem1024 = {4, 2, 2, 11, 5, 1568, 3168, 1568};

const mlkem_params *mlkem_params_get(unsigned bits) {
  switch (bits) {
    case 512: return &k_mlkem512;
    case 768: return &k_mlkem768;
    case 1024: return &k_mlkem1024;
    default: return NULL;
  }
}

/* ---- The functions of section 4.1 ------------------------------------------------------------ */

/* PRF_eta(s, b) = SHAKE256(s || b, 64 eta) (4.3), then SamplePolyCBD_eta. */
static void sample_noise(mlkem_poly *r, const uint8_t s[MLKEM_SYM_BYTES], uint8_t b, unsigned eta) {
  uint8_t in[MLKEM_SYM_BYTES + 1];
  uint8_t buf[64 * 3];
  memcpy(in, s, MLKEM_SYM_BYTES);
  in[MLKEM_SYM_BYTES] = b;
  shake256(buf, 64 * eta, in, sizeof in);
  mlkem_poly_cbd(r, buf, eta);
  fm_zeroize(in, sizeof in);
  fm_zeroize(buf, sizeof buf);
}

/* sample_noise_batch samples polys[i] = SamplePolyCBD_eta[i](PRF_eta[i](s, n0 + i)) for i <
 * count, four PRF calls at a time on keccak_f1600_x4 (the same output as sample_noise). */
static void sample_noise_batch(mlkem_poly *const *polys, const unsigned *etas, unsigned count,
                               const uint8_t s[MLKEM_SYM_BYTES], unsigned n0) {
  uint8_t buf[4][MLKEM_PRF_X4_BYTES];
  for (unsigned first = 0; first < count; first += 4) {
    const unsigned n = count - first < 4 ? count - first : 4;
    uint8_t nonce[4];
    unsigned blocks = 1;
    for (unsigned i = 0; i < 4; i++) {
      nonce[i] = (uint8_t)(n0 + first + (i < n ? i : 0));
      if (i < n && etas[first + i] == 3) blocks = 2; /* 192 bytes > one 136-byte block */
    }
    if (n == 1) {
      sample_noise(polys[first], s, nonce[0], etas[first]);
      continue;
    }
    mlkem_prf_x4(buf, s, nonce, blocks);
    for (unsigned i = 0; i < n; i++) mlkem_poly_cbd(polys[first + i], buf[i], etas[first + i]);
  }
  fm_zeroize(buf, sizeof buf);
}

/* noise_pool samples polys[i] = SamplePolyCBD_eta[i](PRF_eta[i](s, i)) for i < count (the same
 * output as sample_noise_batch) on the lane pool of mlkem_sample_matrix_hash, together with the
 * k x k matrix from rho into |a| (k = 0: none) and the one-shot sponge |extra| (NULL: none),
 * which goes first: its chain of permutations is the longest. */
static void noise_pool(mlkem_poly *const *polys, const unsigned *etas, unsigned count,
                       const uint8_t s[MLKEM_SYM_BYTES], mlkem_poly *a, const uint8_t *rho,
                       unsigned k, int transposed, const keccak_msg *extra) {
  keccak_msg msg[2 * MLKEM_MAX_K + 2];
  uint8_t nonce[2 * MLKEM_MAX_K + 1];
  uint8_t buf[2 * MLKEM_MAX_K + 1][64 * 3];
  unsigned n = 0;
  if (extra != NULL) msg[n++] = *extra;
  for (unsigned i = 0; i < count; i++) {
    nonce[i] = (uint8_t)i;
    const keccak_msg prf = {{s, &nonce[i]}, {MLKEM_SYM_BYTES, 1}, KECCAK_DSEP_SHAKE, buf[i],
                            64 * (size_t)etas[i]};
    msg[n++] = prf;
  }
  mlkem_sample_matrix_hash(a, rho, k, transposed, msg, n);
  for (unsigned i = 0; i < count; i++) mlkem_poly_cbd(polys[i], buf[i], etas[i]);
  fm_zeroize(buf, sizeof buf);
}

/* G(x || y) = SHA3-512 of the two pieces (4.5), split into two 32-byte halves. */
static void hash_g(uint8_t out[64], const uint8_t *x, size_t x_len, const uint8_t *y, size_t y_len) {
  keccak_state s;
  sha3_init(&s, 512);
  keccak_absorb(&s, x, x_len);
  keccak_absorb(&s, y, y_len);
  keccak_squeeze(&s, out, 64);
  keccak_wipe(&s);
}

/* ---- K-PKE (section 5) ----------------------------------------------------------------------- */

/* What key generation computed that the pairwise test's encryptions and decryption use again:
 * the transpose of A-hat (public), t-hat (public) and s-hat (secret), as the encodings in ek and
 * dk decode (normalized). */
typedef struct kpke_expanded {
  mlkem_poly at[MLKEM_MAX_K * MLKEM_MAX_K];
  mlkem_poly t[MLKEM_MAX_K];
  mlkem_poly s[MLKEM_MAX_K];
} kpke_expanded;

/* K-PKE.KeyGen (Algorithm 13) from d: ek_pke (384k + 32 bytes) and dk_pke (384k bytes). With
 * |x| non-NULL, the expanded key is written there too. */
static void kpke_keygen(const mlkem_params *p, const uint8_t d[MLKEM_SYM_BYTES], uint8_t *ek,
                        uint8_t *dk, kpke_expanded *x) {
  const unsigned k = p->k;
  uint8_t seeds[64]; /* rho (public) || sigma (secret) */
  const uint8_t kbyte = (uint8_t)k;
  mlkem_poly a[MLKEM_MAX_K * MLKEM_MAX_K];
  mlkem_poly s[MLKEM_MAX_K], e[MLKEM_MAX_K], t;
  /* Step 1: (rho, sigma) = G(d || k). */
  hash_g(seeds, d, MLKEM_SYM_BYTES, &kbyte, 1);
  const uint8_t *rho = seeds, *sigma = seeds + MLKEM_SYM_BYTES;
  /* rho is published in ek (step 19): public from here on, so that SampleNTT's rejection loop may
   * branch on the bytes it squeezes. */
  fm_declassify(rho, MLKEM_SYM_BYTES);
  /* Steps 3-7: A-hat; steps 8-15: s and e, N counting 0 .. 2k-1, in the same permutations;
   * steps 16-17: their NTTs. */
  mlkem_poly *noise[2 * MLKEM_MAX_K] = {0};
  unsigned etas[2 * MLKEM_MAX_K] = {0};
  for (unsigned i = 0; i < k; i++) {
    noise[i] = &s[i];
    noise[k + i] = &e[i];
    etas[i] = etas[k + i] = p->eta1;
  }
  noise_pool(noise, etas, 2 * k, sigma, a, rho, k, 0, NULL);
  for (unsigned i = 0; i < k; i++) {
    mlkem_ntt(&s[i]);
    mlkem_ntt(&e[i]);
  }
  /* Step 18: t-hat = A-hat s-hat + e-hat; steps 19-20: the encodings. */
  for (unsigned i = 0; i < k; i++) {
    mlkem_basemul_acc(&t, &a[i * k], s, k);
    mlkem_poly_tomont(&t); /* takes out the base multiplication's 2^-16 */
    mlkem_poly_add(&t, &e[i]);
    mlkem_poly_normalize(&t);
    mlkem_poly_tobytes(ek + MLKEM_POLY_BYTES * i, &t);
    mlkem_poly_normalize(&s[i]);
    mlkem_poly_tobytes(dk + MLKEM_POLY_BYTES * i, &s[i]);
    if (x != NULL) {
      x->t[i] = t;
      x->s[i] = s[i];
    }
  }
  memcpy(ek + MLKEM_POLY_BYTES * k, rho, MLKEM_SYM_BYTES);
  if (x != NULL) {
    for (unsigned i = 0; i < k; i++)
      for (unsigned j = 0; j < k; j++) x->at[i * k + j] = a[j * k + i];
  }
  fm_zeroize(seeds, sizeof seeds);
  fm_zeroize(s, sizeof s);
  fm_zeroize(e, sizeof e);
  fm_zeroize(&t, sizeof t);
  fm_zeroize(a, sizeof a);
}

/* K-PKE.Encrypt (Algorithm 14) of m with randomness r (both secret) under ek_pke. ek_pke passed
 * the modulus check, so ByteDecode_12 returns it unchanged (step 2): |t_given|, when not NULL, is
 * that decoding, already made. |at| is the transpose of A-hat for ek's rho, already sampled
 * (steps 3-8). |extra|, when not NULL, is a one-shot sponge run in the noise's permutations. */
static void kpke_encrypt(const mlkem_params *p, const uint8_t *ek, const uint8_t m[MLKEM_SYM_BYTES],
                         const uint8_t r[MLKEM_SYM_BYTES], uint8_t *ct, const mlkem_poly *at,
                         const mlkem_poly *t_given, const keccak_msg *extra) {
  const unsigned k = p->k;
  mlkem_poly t_local[MLKEM_MAX_K], y[MLKEM_MAX_K], e1[MLKEM_MAX_K], u, v, noise;
  const mlkem_poly *t = t_given != NULL ? t_given : t_local;
  /* Step 2: t-hat. */
  if (t_given == NULL)
    for (unsigned i = 0; i < k; i++) mlkem_poly_frombytes(&t_local[i], ek + MLKEM_POLY_BYTES * i);
  /* Steps 9-16: y (N = 0 .. k-1, eta1), e1 (N = k .. 2k-1, eta2) and e2 (N = 2k, eta2). */
  mlkem_poly *polys[2 * MLKEM_MAX_K + 1] = {0};
  unsigned etas[2 * MLKEM_MAX_K + 1] = {0};
  for (unsigned i = 0; i < k; i++) {
    polys[i] = &y[i];
    polys[k + i] = &e1[i];
    etas[i] = p->eta1;
    etas[k + i] = p->eta2;
  }
  polys[2 * k] = &noise;
  etas[2 * k] = p->eta2;
  if (extra != NULL) noise_pool(polys, etas, 2 * k + 1, r, NULL, NULL, 0, 0, extra);
  else sample_noise_batch(polys, etas, 2 * k + 1, r, 0);
  /* Step 18: y-hat. */
  for (unsigned i = 0; i < k; i++) mlkem_ntt(&y[i]);
  /* Step 19: u = NTT^-1(A-hat^T y-hat) + e1; step 22: c1. */
  for (unsigned i = 0; i < k; i++) {
    mlkem_basemul_acc(&u, &at[i * k], y, k);
    mlkem_invntt(&u);
    mlkem_poly_add(&u, &e1[i]);
    mlkem_poly_normalize(&u);
    mlkem_poly_compress(ct + 32 * p->du * i, &u, p->du);
  }
  /* Steps 20-21: v = NTT^-1(t-hat^T y-hat) + e2 + mu; step 23: c2. */
  mlkem_basemul_acc(&v, t, y, k);
  mlkem_invntt(&v);
  mlkem_poly_add(&v, &noise);
  mlkem_poly_frommsg(&noise, m);
  mlkem_poly_add(&v, &noise);
  mlkem_poly_normalize(&v);
  mlkem_poly_compress(ct + 32 * p->du * k, &v, p->dv);
  fm_zeroize(y, sizeof y);
  fm_zeroize(e1, sizeof e1);
  fm_zeroize(&u, sizeof u);
  fm_zeroize(&v, sizeof v);
  fm_zeroize(&noise, sizeof noise);
  if (t_given == NULL) fm_zeroize(t_local, sizeof t_local);
}

/* K-PKE.Decrypt (Algorithm 15): m' from dk_pke (secret) and c. |s_given|, when not NULL, is
 * ByteDecode_12(dk_pke), already made. */
static void kpke_decrypt(const mlkem_params *p, const uint8_t *dk, const uint8_t *ct,
                         uint8_t m[MLKEM_SYM_BYTES], const mlkem_poly *s_given) {
  const unsigned k = p->k;
  mlkem_poly u[MLKEM_MAX_K], s_local[MLKEM_MAX_K], v, w;
  const mlkem_poly *s = s_given != NULL ? s_given : s_local;
  /* Steps 1-4: u' and v' decompressed, s-hat decoded (reduced mod q). */
  for (unsigned i = 0; i < k; i++) {
    mlkem_poly_decompress(&u[i], ct + 32 * p->du * i, p->du);
    mlkem_ntt(&u[i]);
    if (s_given == NULL) mlkem_poly_frombytes(&s_local[i], dk + MLKEM_POLY_BYTES * i);
  }
  mlkem_poly_decompress(&v, ct + 32 * p->du * k, p->dv);
  /* Step 6: w = v' - NTT^-1(s-hat^T NTT(u')); step 7: m = ByteEncode_1(Compress_1(w)). */
  mlkem_basemul_acc(&w, s, u, k);
  mlkem_invntt(&w);
  mlkem_poly_sub(&w, &v, &w);
  mlkem_poly_normalize(&w);
  mlkem_poly_tomsg(m, &w);
  fm_zeroize(u, sizeof u);
  fm_zeroize(s_local, sizeof s_local);
  fm_zeroize(&v, sizeof v);
  fm_zeroize(&w, sizeof w);
}

/* ---- ML-KEM (section 6) ---------------------------------------------------------------------- */

/* keygen_core is Algorithm 16 (x as kpke_keygen's). */
static void keygen_core(const mlkem_params *p, const uint8_t d[32], const uint8_t z[32],
                        uint8_t *ek, uint8_t *dk, kpke_expanded *x) {
  const size_t pke_dk_len = MLKEM_POLY_BYTES * p->k;
  /* Algorithm 16, steps 1-3: dk = dk_pke || ek || H(ek) || z. */
  kpke_keygen(p, d, ek, dk, x);
  memcpy(dk + pke_dk_len, ek, p->ek_len);
  sha3_digest(256, ek, p->ek_len, dk + pke_dk_len + p->ek_len);
  memcpy(dk + pke_dk_len + p->ek_len + MLKEM_SYM_BYTES, z, MLKEM_SYM_BYTES);
}

/* encaps_core is Algorithm 17 with H(ek) given (|h|) or computed (h NULL), and the expanded key
 * given (x: its at and t) or A-hat's transpose sampled (x NULL). When both are computed, H(ek)
 * runs in a lane of the matrix's permutations (mlkem_sample_matrix_hash). */
static void encaps_core(const mlkem_params *p, const uint8_t *ek, const uint8_t *h_given,
                        const uint8_t m[32], uint8_t *ct, uint8_t k_out[32],
                        const kpke_expanded *x) {
  const mlkem_poly *at = x != NULL ? x->at : NULL;
  uint8_t h[MLKEM_SYM_BYTES], kr[64];
  mlkem_poly at_local[MLKEM_MAX_K * MLKEM_MAX_K];
  if (at == NULL) {
    /* K-PKE.Encrypt, steps 3-8: the transpose of A-hat from ek's rho. */
    const keccak_msg hm = {{ek, NULL}, {p->ek_len, 0}, KECCAK_DSEP_SHA3, h, sizeof h};
    mlkem_sample_matrix_hash(at_local, ek + MLKEM_POLY_BYTES * p->k, p->k, 1, &hm,
                             h_given == NULL ? 1 : 0);
    at = at_local;
  } else if (h_given == NULL) {
    sha3_digest(256, ek, p->ek_len, h);
  }
  if (h_given != NULL) memcpy(h, h_given, sizeof h);
  /* Algorithm 17, step 1: (K, r) = G(m || H(ek)); step 2: c = K-PKE.Encrypt(ek, m, r). */
  hash_g(kr, m, MLKEM_SYM_BYTES, h, sizeof h);
  kpke_encrypt(p, ek, m, kr + MLKEM_SYM_BYTES, ct, at, x != NULL ? x->t : NULL, NULL);
  memcpy(k_out, kr, MLKEM_SYM_BYTES);
  fm_zeroize(kr, sizeof kr);
  fm_zeroize(h, sizeof h);
  if (at == at_local) fm_zeroize(at_local, sizeof at_local);
}

/* decaps_core is Algorithm 18 with A-hat's transpose |at| already sampled, t-hat and s-hat
 * decoded (t and s, or NULL to decode them from dk), and K-bar = J(z || c) given (kbar_given) or
 * computed (NULL: in the re-encryption's noise permutations). */
static void decaps_core(const mlkem_params *p, const uint8_t *dk, const uint8_t *ct,
                        uint8_t k_out[32], const mlkem_poly *at, const mlkem_poly *t,
                        const mlkem_poly *s, const uint8_t *kbar_given) {
  const size_t pke_dk_len = MLKEM_POLY_BYTES * p->k;
  const uint8_t *ek = dk + pke_dk_len;
  const uint8_t *h = ek + p->ek_len;
  const uint8_t *z = h + MLKEM_SYM_BYTES;
  uint8_t m[MLKEM_SYM_BYTES], kr[64], kbar[MLKEM_SYM_BYTES];
  uint8_t ct2[1568]; /* the largest ciphertext, ML-KEM-1024's */
  /* Algorithm 18, step 5: m' = K-PKE.Decrypt(dk_pke, c); step 6: (K', r') = G(m' || h). */
  kpke_decrypt(p, dk, ct, m, s);
  hash_g(kr, m, sizeof m, h, MLKEM_SYM_BYTES);
  /* Step 7: K-bar = J(z || c); step 8: c' = K-PKE.Encrypt(ek_pke, m', r'). */
  const keccak_msg j = {{z, ct}, {MLKEM_SYM_BYTES, p->ct_len}, KECCAK_DSEP_SHAKE, kbar,
                        sizeof kbar};
  if (kbar_given != NULL) memcpy(kbar, kbar_given, sizeof kbar);
  kpke_encrypt(p, ek, m, kr + MLKEM_SYM_BYTES, ct2, at, t, kbar_given != NULL ? NULL : &j);
  /* Steps 9-11: K' if c == c', K-bar otherwise. The comparison reads every byte, and the choice
   * is a mask (all-ones when equal) applied to both keys: no branch and no address depends on
   * whether the ciphertext was valid. */
  uint32_t diff = 0;
  for (size_t i = 0; i < p->ct_len; i++) diff |= (uint32_t)(ct[i] ^ ct2[i]);
  const uint32_t equal = ct_is_zero_u32(diff);
  for (size_t i = 0; i < MLKEM_SYM_BYTES; i++) {
    k_out[i] = (uint8_t)ct_select_u32(equal, kr[i], kbar[i]);
  }
  fm_zeroize(m, sizeof m);
  fm_zeroize(kr, sizeof kr);
  fm_zeroize(kbar, sizeof kbar);
  fm_zeroize(ct2, sizeof ct2);
}

void mlkem_keygen_internal(const mlkem_params *p, const uint8_t d[32], const uint8_t z[32],
                           uint8_t *ek, uint8_t *dk) {
  keygen_core(p, d, z, ek, dk, NULL);
}

void mlkem_encaps_internal(const mlkem_params *p, const uint8_t *ek, const uint8_t m[32],
                           uint8_t *ct, uint8_t k_out[32]) {
  encaps_core(p, ek, NULL, m, ct, k_out, NULL);
}

void mlkem_decaps_internal(const mlkem_params *p, const uint8_t *dk, const uint8_t *ct,
                           uint8_t k_out[32]) {
  const uint8_t *ek = dk + MLKEM_POLY_BYTES * p->k;
  mlkem_poly at[MLKEM_MAX_K * MLKEM_MAX_K];
  mlkem_sample_matrix(at, ek + MLKEM_POLY_BYTES * p->k, p->k, 1);
  decaps_core(p, dk, ct, k_out, at, NULL, NULL, NULL);
  fm_zeroize(at, sizeof at);
}

int mlkem_decaps_checked(const mlkem_params *p, const uint8_t *dk, const uint8_t *ct,
                         uint8_t k_out[32]) {
  const uint8_t *ek = dk + MLKEM_POLY_BYTES * p->k;
  const uint8_t *h = ek + p->ek_len, *z = h + MLKEM_SYM_BYTES;
  uint8_t h2[MLKEM_SYM_BYTES], kbar[MLKEM_SYM_BYTES];
  mlkem_poly at[MLKEM_MAX_K * MLKEM_MAX_K];
  /* H(ek) (SHA3-256) for the hash check of 7.3 and K-bar = J(z || c) (SHAKE256), each in a lane
   * of the permutations that sample the transpose of A-hat (public, from ek's rho) for the
   * re-encryption: the key is sampled before its check, which decides only whether it is used. */
  const keccak_msg m[2] = {
      {{ek, NULL}, {p->ek_len, 0}, KECCAK_DSEP_SHA3, h2, sizeof h2},
      {{z, ct}, {MLKEM_SYM_BYTES, p->ct_len}, KECCAK_DSEP_SHAKE, kbar, sizeof kbar}};
  static_assert(SHA3_256_RATE == SHAKE256_RATE, "H and J share the rate");
  mlkem_sample_matrix_hash(at, ek + MLKEM_POLY_BYTES * p->k, p->k, 1, m, 2);
  /* The verdict of a key check is public. */
  const int ok = (int)fm_declassify_u64((uint64_t)fm_ct_memeq(h2, h, sizeof h2));
  if (ok) decaps_core(p, dk, ct, k_out, at, NULL, NULL, kbar);
  fm_zeroize(h2, sizeof h2);
  fm_zeroize(kbar, sizeof kbar);
  fm_zeroize(at, sizeof at);
  return ok;
}

int mlkem_keygen_pct(const mlkem_params *p, const uint8_t d[32], const uint8_t z[32],
                     const uint8_t m[32], uint8_t *ek, uint8_t *dk) {
  const size_t pke_dk_len = MLKEM_POLY_BYTES * p->k;
  kpke_expanded x;
  uint8_t ct[1568], k1[MLKEM_SYM_BYTES], k2[MLKEM_SYM_BYTES];
  keygen_core(p, d, z, ek, dk, &x);
  /* The pairwise test: Encaps to ek, Decaps with dk, the same K on both sides. A-hat (public,
   * from rho), t-hat and s-hat (what ek and dk decode to) and H(ek) (in dk) are those key
   * generation computed: the test runs the encapsulation's and decapsulation's own arithmetic
   * on the new key, with its own noise, hashes and implicit-rejection key J(z || c), without
   * sampling the matrix, decoding the keys or hashing ek again. */
  encaps_core(p, ek, dk + pke_dk_len + p->ek_len, m, ct, k1, &x);
  decaps_core(p, dk, ct, k2, x.at, x.t, x.s, NULL);
  /* The test's verdict is public. */
  const int ok = (int)fm_declassify_u64((uint64_t)fm_ct_memeq(k1, k2, sizeof k1));
  fm_zeroize(k1, sizeof k1);
  fm_zeroize(k2, sizeof k2);
  fm_zeroize(ct, sizeof ct);
  fm_zeroize(&x, sizeof x);
  return ok;
}

/* ---- Input checks (section 7) --------------------------------------------------------------- */

int mlkem_check_ek(const mlkem_params *p, const uint8_t *ek) {
  /* 7.2, step 2: ByteEncode_12(ByteDecode_12(ek[0 : 384k])) == ek[0 : 384k], that is every
   * 12-bit value below q. */
  return mlkem_below_q(ek, MLKEM_POLY_BYTES * p->k);
}

int mlkem_check_dk(const mlkem_params *p, const uint8_t *dk) {
  /* 7.3, step 3: H(dk[384k : 768k + 32]) == dk[768k + 32 : 768k + 64]. */
  uint8_t h[MLKEM_SYM_BYTES];
  const uint8_t *ek = dk + MLKEM_POLY_BYTES * p->k;
  sha3_digest(256, ek, p->ek_len, h);
  /* The verdict of a key check is public. */
  const int ok = (int)fm_declassify_u64((uint64_t)fm_ct_memeq(h, ek + p->ek_len, sizeof h));
  fm_zeroize(h, sizeof h);
  return ok;
}
