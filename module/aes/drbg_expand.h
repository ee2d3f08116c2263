/* The AES-256 key schedule of the fused CTR_DRBG kernels, expanded on the fly, written once for
 * 128-bit (drbg_ni.c) and 256-bit (drbg_vaes.c) registers. The includer defines:
 *   DX_VEC                 the register type (every value is the same in each 128-bit lane)
 *   DX_FN                  the target attributes of its functions
 *   DX_(name)              a name for this width (the header is included once per file)
 *   DX_LOAD16(p)           16 bytes from |p| into every lane
 *   DX_PATTERN(p)          a 32-byte pattern row (two equal lanes) as a register
 *   DX_XOR, DX_AND, DX_SHUF (pshufb), DX_BSLLI (byte shift left per lane), DX_AESENCLAST
 *   DX_SET1(x)             the 32-bit |x| in every word;  DX_ZERO()  zero
 *
 * Why on the fly, and why this form. Each generate request ends with a new Key (the update), and
 * the next request cannot finish before that Key's whole schedule exists: a chain of 13
 * expansion steps, one S-box lookup each, between one request's last AES round and the next
 * one's. The usual step (shuffle word 3 into a broadcast, aesenclast, xor) pays a round trip
 * between the shuffle and AES units on every step; that round trip, not the AES rounds, set the
 * time of a 16-byte draw (about 6.5 cycles a step, 85 in all). Here the only values on the chain
 * are broadcasts of word 3 of each round key, kept in the rotation the next step needs, so one
 * step is one aesenclast:
 *
 *   Write W(i) for word 3 of round key i, B_k(x) for the word x rotated left by k bytes (RotWord
 *   applied k times) copied into all four columns, and X(i) for the XOR of the four words of
 *   round key i. FIPS 197 5.2 for Nk = 8 gives W(i) = X(i-2) ^ SubWord(RotWord(W(i-1))) ^ Rcon
 *   for even i and W(i) = X(i-2) ^ SubWord(W(i-1)) for odd i. SubWord commutes with rotations and
 *   aesenclast on a broadcast is SubWord in every column (ShiftRows moves nothing), so
 *     Q(i) = B_k(i)(W(i)) = aesenclast(Q(i-1), B_k(i)(X(i-2) [^ Rcon]))
 *   with k(i) = (3 - i/2) mod 4: one rotation per even step, taken from the rotation the chain
 *   already carries. The key operand is off the chain because X(i-2) = w1 ^ w3 of round key
 *   i-4 (the four broadcast S-box terms of round key i-2 cancel), which is word 3 of
 *   P2(i-4) = rk(i-4) ^ (rk(i-4) << 64).
 *   The round keys themselves follow from the same aesenclast with a zero (or Rcon) key, turned
 *   back to the canonical rotation, through rk(i) = prefix(rk(i-2)) ^ S(i), where
 *   prefix(rk(i-2)) = P2(i-4) ^ (S(i-2) & (1,0,1,0)) avoids a serial four-word prefix XOR.
 *
 * Key and every value here are secret; the patterns and the Rcon words depend on the public step
 * number only.
 *
 * The header also holds what both kernels do with their blocks once encrypted (DX_(finish)). */

/* Shuffle patterns, the same in both 128-bit lanes. k_chain[k]: the bytes of word 3 rotated left
 * by k, in every column. k_unrotate[k]: each word rotated left by (4 - k) mod 4 bytes, which
 * undoes a rotation by k. Whole 32-byte rows, so that they are memory operands rather than
 * registers built and spilled. */
#define DX_LANES(...) {__VA_ARGS__, __VA_ARGS__}
_Alignas(32) static const uint8_t DX_(k_chain)[4][32] = {
    DX_LANES(12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15),
    DX_LANES(13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12),
    DX_LANES(14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12, 13),
    DX_LANES(15, 12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14),
};
_Alignas(32) static const uint8_t DX_(k_unrotate)[4][32] = {
    DX_LANES(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
    DX_LANES(3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14),
    DX_LANES(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13),
    DX_LANES(1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12),
};
_Alignas(32) static const uint8_t DX_(k_even_words)[32] =
    DX_LANES(255, 255, 255, 255, 0, 0, 0, 0, 255, 255, 255, 255, 0, 0, 0, 0);

/* The expansion in progress: round keys 0..14, P2 of round keys 0..10, the S terms and the
 * chain. After inlining, all of it lives in registers. */
typedef struct DX_(sched) {
  DX_VEC rk[15], p2[11], s[15];
  DX_VEC q, pre0, pre1;
} DX_(sched);

/* prefix returns (w0, w0^w1, w0^w1^w2, w0^w1^w2^w3) per lane; prefix2 returns
 * (w0, w1, w0^w2, w1^w3), prefix applied twice. */
DX_FN __attribute__((always_inline)) static inline DX_VEC DX_(prefix)(DX_VEC k) {
  k = DX_XOR(k, DX_BSLLI(k, 4));
  return DX_XOR(k, DX_BSLLI(k, 8));
}
DX_FN __attribute__((always_inline)) static inline DX_VEC DX_(prefix2)(DX_VEC k) {
  return DX_XOR(k, DX_BSLLI(k, 8));
}

/* rcon_word returns Rcon for round key |i| (even, 2..14) rotated left by |k| bytes, in every
 * word: Rcon's byte moves from position 0 to position (4 - k) mod 4. */
static inline int DX_(rcon_word)(int i, int k) {
  const uint32_t rcon = 1u << (i / 2 - 1);
  return (int)(rcon << (8 * ((4 - k) % 4)));
}

/* sched_init loads Key (32 bytes) as round keys 0 and 1 and starts the chain at B_3(W(1)). */
DX_FN __attribute__((always_inline)) static inline void DX_(sched_init)(DX_(sched) *x,
                                                                     const uint8_t key[32]) {
  x->rk[0] = DX_LOAD16(key);
  x->rk[1] = DX_LOAD16(key + 16);
  x->pre0 = DX_(prefix)(x->rk[0]);
  x->pre1 = DX_(prefix)(x->rk[1]);
  x->p2[0] = DX_(prefix2)(x->rk[0]);
  x->p2[1] = DX_(prefix2)(x->rk[1]);
  x->q = DX_SHUF(x->rk[1], DX_PATTERN(DX_(k_chain)[3]));
}

/* sched_step computes round key |i| (2..14, a constant after unrolling) into x->rk[i]. */
DX_FN __attribute__((always_inline)) static inline void DX_(sched_step)(DX_(sched) *x,
                                                                     const int i) {
  const int even = (i % 2) == 0;
  const int k = (3 - i / 2 + 8) % 4;
  const DX_VEC rc = even ? DX_SET1(DX_(rcon_word)(i, k)) : DX_ZERO();
  /* t = S(i) rotated left by k: SubWord of the chain's broadcast (for even steps that rotation
   * already includes RotWord), Rcon given in the same rotation; k_unrotate turns it back. */
  DX_VEC t = DX_AESENCLAST(x->q, rc);
  if (i < 14) {
    /* The chain: Q(i) = aesenclast(Q(i-1), B_k(X(i-2) ^ Rcon)). */
    const DX_VEC p = i >= 4 ? x->p2[i - 4] : (i == 2 ? x->pre0 : x->pre1);
    x->q = DX_AESENCLAST(x->q, DX_XOR(DX_SHUF(p, DX_PATTERN(DX_(k_chain)[k])), rc));
  }
  if (k != 0) t = DX_SHUF(t, DX_PATTERN(DX_(k_unrotate)[k]));
  x->s[i] = t;
  /* prefix(rk(i-2)): the broadcast S(i-2) contributes (s, 0, s, 0) to it. */
  const DX_VEC even_words = DX_PATTERN(DX_(k_even_words));
  const DX_VEC pre = i >= 4 ? DX_XOR(x->p2[i - 4], DX_AND(x->s[i - 2], even_words))
                            : (i == 2 ? x->pre0 : x->pre1);
  x->rk[i] = DX_XOR(t, pre);
  if (i <= 10) x->p2[i] = DX_(prefix2)(x->rk[i]);
}

/* finish is 10.2.1.5.1 steps 5-6 once the n + 3 blocks E(Key, V+1 ..) are in |blk| (n = a
 * constant 0..4, the output's block count): returned_bits = the leftmost |out_len| bytes, a
 * partial last block through a stack block that is wiped after; then the update (10.2.1.2 steps
 * 4-6): temp = the last three blocks ^ |provided| (NULL: 0^seedlen), Key = its first 32 bytes, V
 * the rest. */
DX_FN __attribute__((always_inline)) static inline void DX_(finish)(
    const __m128i *blk, const int n, uint8_t *out, size_t out_len, const uint8_t *provided,
    uint8_t key[32], uint8_t v[16]) {
  const size_t full = out_len / 16, rem = out_len % 16;
  AES_UNROLL
  for (int b = 0; b < n; b++) {
    if ((size_t)b < full) _mm_storeu_si128((__m128i *)(out + 16 * (size_t)b), blk[b]);
  }
  if (n > 0 && rem != 0) {
    /* n = ceil(out_len / 16): a partial block is the last of the n. */
    uint8_t last[16];
    _mm_storeu_si128((__m128i *)last, blk[n > 0 ? n - 1 : 0]);
    memcpy(out + 16 * full, last, rem);
    fm_zeroize(last, sizeof(last));
  }
  __m128i t0 = blk[n], t1 = blk[n + 1], t2 = blk[n + 2];
  if (provided != NULL) {
    t0 = _mm_xor_si128(t0, _mm_loadu_si128((const __m128i *)provided));
    t1 = _mm_xor_si128(t1, _mm_loadu_si128((const __m128i *)(provided + 16)));
    t2 = _mm_xor_si128(t2, _mm_loadu_si128((const __m128i *)(provided + 32)));
  }
  _mm_storeu_si128((__m128i *)key, t0);
  _mm_storeu_si128((__m128i *)(key + 16), t1);
  _mm_storeu_si128((__m128i *)v, t2);
}
