/* AES with the AES-NI instructions (FIPS 197 through aesenc/aesenclast/aesdec/aesdeclast).
 *
 * Key expansion uses aesenclast rather than aeskeygenassist (slow on many cores): when the four
 * columns of a state are equal, ShiftRows does nothing, so aesenclast(broadcast(word), rcon)
 * is SubWord(word) ^ rcon in every column. AES-256 thus expands in about 100 instructions,
 * which matters because the DRBG re-keys on every generate call.
 *
 * The bulk modes keep 8 independent blocks in flight (the AES unit is pipelined; one block at a
 * time would wait on each round's latency). CBC encryption is a serial chain and cannot. On
 * CPUs with VAES the independent modes use 256- or 512-bit registers (aes_vaes.c).
 *
 * The bulk functions take the round count at run time: the first AES_NI_COMMON_ROUNDS rounds,
 * which every key size has, are unrolled with the round keys as memory operands, and the 0, 2 or
 * 4 more of AES-192 and AES-256 run as a short loop (one branch per round on the public round
 * count, per eight blocks). One copy of each loop serves the three key sizes, which keeps the
 * hashed image (and so the load-time integrity check) small; CBC encryption, a serial chain bound
 * by the rounds' latency, and the one-block function stay specialized. Each function that held
 * round keys or blocks in registers ends with fm_clear_sse_registers (internal.h says why).
 *
 * The CTR_DRBG's fused short generate on these registers is in drbg_ni.c. */
#include <immintrin.h>
#include <string.h>

#include "module/aes/internal.h"
#include "module/internal.h"

#define AESNI_FN __attribute__((target("aes,sse4.1")))

/* The rounds 1..9 that AES-128, AES-192 and AES-256 all run before their last rounds. */
#define AES_NI_COMMON_ROUNDS 10u

/* ---- Key expansion (FIPS 197 5.2) -------------------------------------------------------- */

/* prefix_xor returns (w0, w0^w1, w0^w1^w2, w0^w1^w2^w3): the running XOR that the expansion's
 * w[i] = w[i-Nk] ^ temp recurrence produces over one 16-byte round key. */
AESNI_FN static inline __m128i prefix_xor(__m128i k) {
  k = _mm_xor_si128(k, _mm_slli_si128(k, 4));
  return _mm_xor_si128(k, _mm_slli_si128(k, 8));
}

/* next_key_rot: the round key after |k| for word step i % Nk == 0: temp = SubWord(RotWord(w3 of
 * |last|)) ^ Rcon, broadcast; the shuffle picks bytes 13,14,15,12 of |last| (RotWord of w3). */
AESNI_FN static inline __m128i next_key_rot(__m128i k, __m128i last, int rcon) {
  const __m128i rot = _mm_setr_epi8(13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12);
  __m128i t = _mm_aesenclast_si128(_mm_shuffle_epi8(last, rot), _mm_set1_epi32(rcon));
  return _mm_xor_si128(prefix_xor(k), t);
}

/* next_key_sub: AES-256's i % Nk == 4 step: temp = SubWord(w3 of |last|), no rotation or Rcon. */
AESNI_FN static inline __m128i next_key_sub(__m128i k, __m128i last) {
  __m128i t = _mm_aesenclast_si128(_mm_shuffle_epi32(last, 0xff), _mm_setzero_si128());
  return _mm_xor_si128(prefix_xor(k), t);
}

/* next_chunk192: AES-192's next six words (Nk = 6) from the previous six, held as |lo| (words
 * 0..3) and the low half of |hi| (words 4..5; its high half is a don't-care): with temp =
 * SubWord(RotWord(word 5)) ^ Rcon, new word k is temp ^ the XOR of old words 0..k. The shuffle
 * picks bytes 5,6,7,4 of |hi| (RotWord of word 5), broadcast. */
AESNI_FN static inline void next_chunk192(__m128i *lo, __m128i *hi, int rcon) {
  const __m128i rot = _mm_setr_epi8(5, 6, 7, 4, 5, 6, 7, 4, 5, 6, 7, 4, 5, 6, 7, 4);
  const __m128i t = _mm_aesenclast_si128(_mm_shuffle_epi8(*hi, rot), _mm_set1_epi32(rcon));
  const __m128i l = _mm_xor_si128(prefix_xor(*lo), t); /* new words 0..3 */
  *lo = l;
  /* New word 4 = new word 3 ^ old word 4, new word 5 = new word 3 ^ old words 4 and 5. */
  *hi = _mm_xor_si128(_mm_xor_si128(*hi, _mm_slli_si128(*hi, 4)), _mm_shuffle_epi32(l, 0xff));
}

AESNI_FN void aes_ni_init(aes_ks *ks, const uint8_t *key, size_t key_len) {
  __m128i *rk = (__m128i *)ks->words;
  if (key_len == 16) {
    /* Rcon[1..10] (FIPS 197 5.2); AES-128 takes one per round key. */
    static const uint8_t rcon[10] = {0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36};
    rk[0] = _mm_loadu_si128((const __m128i *)key);
    AES_UNROLL
    for (int i = 1; i <= 10; i++) rk[i] = next_key_rot(rk[i - 1], rk[i - 1], rcon[i - 1]);
    ks->rounds = 10;
  } else if (key_len == 24) {
    /* Nk = 6: the 52 words come in eight steps of six (next_chunk192, Rcon 0x01..0x80, no
     * reduction needed), which straddle the 16-byte round keys: chunk j is words 6j..6j+5, so
     * an odd j completes round key (3j - 1) / 2 with its first two words and fills the next
     * with the other four; an even j is round key 3j / 2 by itself (its last two words start
     * the next one). */
    __m128i lo = _mm_loadu_si128((const __m128i *)key);
    __m128i hi = _mm_loadl_epi64((const __m128i *)(key + 16));
    rk[0] = lo;
    int rcon = 0x01;
    AES_UNROLL
    for (int j = 1; j <= 8; j++, rcon <<= 1) {
      const __m128i prev_hi = hi;
      next_chunk192(&lo, &hi, rcon);
      if (j % 2 == 1) {
        rk[(3 * j - 1) / 2] = _mm_unpacklo_epi64(prev_hi, lo);
        rk[(3 * j + 1) / 2] = _mm_alignr_epi8(hi, lo, 8);
      } else {
        rk[3 * j / 2] = lo;
      }
    }
    ks->rounds = 12;
  } else {
    /* Nk = 8: the even round keys take RotWord/SubWord/Rcon of the odd key before them, the odd
     * ones SubWord of the even key before them; Rcon runs 0x01..0x40 (no reduction needed). */
    rk[0] = _mm_loadu_si128((const __m128i *)key);
    rk[1] = _mm_loadu_si128((const __m128i *)(key + 16));
    int rcon = 0x01;
    AES_UNROLL
    for (int i = 2; i < 14; i += 2, rcon <<= 1) {
      rk[i] = next_key_rot(rk[i - 2], rk[i - 1], rcon);
      rk[i + 1] = next_key_sub(rk[i - 1], rk[i]);
    }
    rk[14] = next_key_rot(rk[12], rk[13], 0x40);
    ks->rounds = 14;
  }
  ks->impl = AES_IMPL_AESNI;
  fm_clear_sse_registers();
}

/* The Equivalent Inverse Cipher (FIPS 197 5.3.5): dk[0] = rk[Nr], dk[i] = InvMixColumns(rk[Nr-i])
 * for 0 < i < Nr, dk[Nr] = rk[0]. */
AESNI_FN void aes_ni_add_decrypt(aes_ks *ks) {
  const __m128i *rk = (const __m128i *)ks->words;
  __m128i *dk = (__m128i *)(ks->words + AES_NI_DEC_OFFSET);
  const unsigned nr = ks->rounds;
  dk[0] = rk[nr];
  for (unsigned i = 1; i < nr; i++) dk[i] = _mm_aesimc_si128(rk[nr - i]);
  dk[nr] = rk[0];
  fm_clear_sse_registers();
}

/* ---- One block --------------------------------------------------------------------------- */

/* encrypt1 / decrypt1: the Cipher (FIPS 197 5.1) and the Equivalent Inverse Cipher (5.3.5) on
 * one block; |nr| is 10, 12 or 14 (a constant where the call unrolls completely). */
AESNI_FN __attribute__((always_inline)) static inline __m128i encrypt1(const __m128i *rk,
                                                                       unsigned nr, __m128i x) {
  x = _mm_xor_si128(x, rk[0]);
  AES_UNROLL
  for (unsigned i = 1; i < AES_NI_COMMON_ROUNDS; i++) x = _mm_aesenc_si128(x, rk[i]);
  for (unsigned i = AES_NI_COMMON_ROUNDS; i < nr; i++) x = _mm_aesenc_si128(x, rk[i]);
  return _mm_aesenclast_si128(x, rk[nr]);
}

AESNI_FN __attribute__((always_inline)) static inline __m128i decrypt1(const __m128i *dk,
                                                                       unsigned nr, __m128i x) {
  x = _mm_xor_si128(x, dk[0]);
  AES_UNROLL
  for (unsigned i = 1; i < AES_NI_COMMON_ROUNDS; i++) x = _mm_aesdec_si128(x, dk[i]);
  for (unsigned i = AES_NI_COMMON_ROUNDS; i < nr; i++) x = _mm_aesdec_si128(x, dk[i]);
  return _mm_aesdeclast_si128(x, dk[nr]);
}

/* BY_ROUNDS runs its statements with |nrc| a constant equal to |nr| (10, 12 or 14): the bulk
 * functions' last blocks, one after the other, with their rounds unrolled (a round loop there
 * measured up to 29% slower on 64-byte calls). */
#define BY_ROUNDS(nr, ...)          \
  do {                              \
    if ((nr) == 10) {               \
      const unsigned nrc = 10;      \
      __VA_ARGS__                   \
    } else if ((nr) == 12) {        \
      const unsigned nrc = 12;      \
      __VA_ARGS__                   \
    } else {                        \
      const unsigned nrc = 14;      \
      __VA_ARGS__                   \
    }                               \
  } while (0)

AESNI_FN void aes_ni_encrypt_block(const aes_ks *ks, const uint8_t in[16], uint8_t out[16]) {
  const __m128i *rk = (const __m128i *)ks->words;
  const __m128i x = _mm_loadu_si128((const __m128i *)in);
  /* A constant round count lets the rounds unroll (the DRBG calls this per block). */
  const __m128i y = ks->rounds == 14   ? encrypt1(rk, 14, x)
                    : ks->rounds == 12 ? encrypt1(rk, 12, x)
                                       : encrypt1(rk, 10, x);
  _mm_storeu_si128((__m128i *)out, y);
  fm_clear_sse_registers();
}

/* ---- Eight blocks in flight -------------------------------------------------------------- */

/* encrypt8 / decrypt8 run the rounds on eight independent blocks, round-major so that the AES
 * unit's pipeline stays full. |nr| is 10, 12 or 14: rounds 1..9 unroll, the rest loop. */
AESNI_FN __attribute__((always_inline)) static inline void encrypt8(const __m128i *rk, unsigned nr,
                                                                    __m128i x[8]) {
  AES_UNROLL
  for (int j = 0; j < 8; j++) x[j] = _mm_xor_si128(x[j], rk[0]);
  AES_UNROLL
  for (unsigned i = 1; i < AES_NI_COMMON_ROUNDS; i++) {
    const __m128i k = rk[i];
    AES_UNROLL
    for (int j = 0; j < 8; j++) x[j] = _mm_aesenc_si128(x[j], k);
  }
  for (unsigned i = AES_NI_COMMON_ROUNDS; i < nr; i++) {
    const __m128i k = rk[i];
    AES_UNROLL
    for (int j = 0; j < 8; j++) x[j] = _mm_aesenc_si128(x[j], k);
  }
  AES_UNROLL
  for (int j = 0; j < 8; j++) x[j] = _mm_aesenclast_si128(x[j], rk[nr]);
}

AESNI_FN __attribute__((always_inline)) static inline void decrypt8(const __m128i *dk, unsigned nr,
                                                                    __m128i x[8]) {
  AES_UNROLL
  for (int j = 0; j < 8; j++) x[j] = _mm_xor_si128(x[j], dk[0]);
  AES_UNROLL
  for (unsigned i = 1; i < AES_NI_COMMON_ROUNDS; i++) {
    const __m128i k = dk[i];
    AES_UNROLL
    for (int j = 0; j < 8; j++) x[j] = _mm_aesdec_si128(x[j], k);
  }
  for (unsigned i = AES_NI_COMMON_ROUNDS; i < nr; i++) {
    const __m128i k = dk[i];
    AES_UNROLL
    for (int j = 0; j < 8; j++) x[j] = _mm_aesdec_si128(x[j], k);
  }
  AES_UNROLL
  for (int j = 0; j < 8; j++) x[j] = _mm_aesdeclast_si128(x[j], dk[nr]);
}

AESNI_FN __attribute__((always_inline)) static inline void sse_ecb_encrypt_nr(
    const aes_ks *ks, const uint8_t *in, uint8_t *out, size_t nblocks, const unsigned nr) {
  const __m128i *rk = (const __m128i *)ks->words;
  for (; nblocks >= 8; nblocks -= 8, in += 128, out += 128) {
    __m128i x[8];
    AES_UNROLL
    for (int j = 0; j < 8; j++) x[j] = _mm_loadu_si128((const __m128i *)(in + 16 * j));
    encrypt8(rk, nr, x);
    AES_UNROLL
    for (int j = 0; j < 8; j++) _mm_storeu_si128((__m128i *)(out + 16 * j), x[j]);
  }
  BY_ROUNDS(nr, for (; nblocks > 0; nblocks--, in += 16, out += 16) {
    _mm_storeu_si128((__m128i *)out, encrypt1(rk, nrc, _mm_loadu_si128((const __m128i *)in)));
  });
}

AESNI_FN void aes_ni_sse_ecb_encrypt(const aes_ks *ks, const uint8_t *in, uint8_t *out,
                                     size_t nblocks) {
  sse_ecb_encrypt_nr(ks, in, out, nblocks, ks->rounds);
  fm_clear_sse_registers();
}

AESNI_FN __attribute__((always_inline)) static inline void sse_ecb_decrypt_nr(
    const aes_ks *ks, const uint8_t *in, uint8_t *out, size_t nblocks, const unsigned nr) {
  const __m128i *dk = (const __m128i *)(ks->words + AES_NI_DEC_OFFSET);
  for (; nblocks >= 8; nblocks -= 8, in += 128, out += 128) {
    __m128i x[8];
    AES_UNROLL
    for (int j = 0; j < 8; j++) x[j] = _mm_loadu_si128((const __m128i *)(in + 16 * j));
    decrypt8(dk, nr, x);
    AES_UNROLL
    for (int j = 0; j < 8; j++) _mm_storeu_si128((__m128i *)(out + 16 * j), x[j]);
  }
  BY_ROUNDS(nr, for (; nblocks > 0; nblocks--, in += 16, out += 16) {
    _mm_storeu_si128((__m128i *)out, decrypt1(dk, nrc, _mm_loadu_si128((const __m128i *)in)));
  });
}

AESNI_FN void aes_ni_sse_ecb_decrypt(const aes_ks *ks, const uint8_t *in, uint8_t *out,
                                     size_t nblocks) {
  sse_ecb_decrypt_nr(ks, in, out, nblocks, ks->rounds);
  fm_clear_sse_registers();
}

/* CBC encryption (SP 800-38A 6.2) is one serial chain, bound by the rounds' latency. The loop is
 * specialized per round count so it unrolls, and the next plaintext block and round key 0 are
 * folded into the last round key of the previous block (aesenclast XORs its key last), which
 * takes one XOR off the chain per block. The round keys are read from the schedule for every
 * block (the empty asm on the pointer keeps the compiler from hoisting the loads out of the
 * loop): held in registers, 15 of them with the chain, the next block and the folded last key
 * do not fit in 16 xmm registers and the compiler spills some to stack slots that no wipe here
 * can name. Read each block, the loads run ahead of the chain off its critical path, and the loop
 * needs a few registers and no stack: the call leaves no secret below it (test_aes_stack), so
 * fm_aes_cbc_encrypt pays no stack wipe on this path. */
AESNI_FN static inline void cbc_encrypt_nr(const __m128i *rk, const unsigned nr, uint8_t iv[16],
                                           const uint8_t *in, uint8_t *out, size_t nblocks) {
  const __m128i *r = rk;
  __asm__("" : "+r"(r));
  /* x is the input of round 1: P_0 ^ IV ^ rk[0]. */
  __m128i x = _mm_xor_si128(_mm_loadu_si128((const __m128i *)in),
                            _mm_xor_si128(_mm_loadu_si128((const __m128i *)iv), r[0]));
  for (size_t b = 0; b + 1 < nblocks; b++) {
    r = rk;
    __asm__("" : "+r"(r));
    /* pk = P_{b+1} ^ rk[0]: aesenclast with rk[Nr] ^ pk gives C_b ^ P_{b+1} ^ rk[0], the next
     * round-1 input; C_b comes back off the chain as that value ^ pk. */
    const __m128i pk = _mm_xor_si128(_mm_loadu_si128((const __m128i *)(in + 16 * (b + 1))), r[0]);
    const __m128i last = _mm_xor_si128(r[nr], pk);
    AES_UNROLL
    for (unsigned i = 1; i < nr; i++) x = _mm_aesenc_si128(x, r[i]);
    x = _mm_aesenclast_si128(x, last);
    _mm_storeu_si128((__m128i *)(out + 16 * b), _mm_xor_si128(x, pk));
  }
  r = rk;
  __asm__("" : "+r"(r));
  AES_UNROLL
  for (unsigned i = 1; i < nr; i++) x = _mm_aesenc_si128(x, r[i]);
  x = _mm_aesenclast_si128(x, r[nr]);
  _mm_storeu_si128((__m128i *)(out + 16 * (nblocks - 1)), x);
  _mm_storeu_si128((__m128i *)iv, x);
}

AESNI_FN void aes_ni_cbc_encrypt(const aes_ks *ks, uint8_t iv[16], const uint8_t *in, uint8_t *out,
                                 size_t nblocks) {
  const __m128i *rk = (const __m128i *)ks->words;
  if (nblocks == 0) return;
  if (ks->rounds == 10) {
    cbc_encrypt_nr(rk, 10, iv, in, out, nblocks);
  } else if (ks->rounds == 12) {
    cbc_encrypt_nr(rk, 12, iv, in, out, nblocks);
  } else {
    cbc_encrypt_nr(rk, 14, iv, in, out, nblocks);
  }
  fm_clear_sse_registers();
}

AESNI_FN __attribute__((always_inline)) static inline void sse_cbc_decrypt_nr(
    const aes_ks *ks, uint8_t iv[16], const uint8_t *in, uint8_t *out, size_t nblocks,
    const unsigned nr) {
  const __m128i *dk = (const __m128i *)(ks->words + AES_NI_DEC_OFFSET);
  __m128i prev = _mm_loadu_si128((const __m128i *)iv);
  for (; nblocks >= 8; nblocks -= 8, in += 128, out += 128) {
    __m128i x[8], c[8];
    AES_UNROLL
    for (int j = 0; j < 8; j++) c[j] = x[j] = _mm_loadu_si128((const __m128i *)(in + 16 * j));
    decrypt8(dk, nr, x);
    _mm_storeu_si128((__m128i *)out, _mm_xor_si128(x[0], prev));
    AES_UNROLL
    for (int j = 1; j < 8; j++)
      _mm_storeu_si128((__m128i *)(out + 16 * j), _mm_xor_si128(x[j], c[j - 1]));
    prev = c[7];
  }
  BY_ROUNDS(nr, for (; nblocks > 0; nblocks--, in += 16, out += 16) {
    const __m128i c = _mm_loadu_si128((const __m128i *)in);
    _mm_storeu_si128((__m128i *)out, _mm_xor_si128(decrypt1(dk, nrc, c), prev));
    prev = c;
  });
  _mm_storeu_si128((__m128i *)iv, prev);
}

AESNI_FN void aes_ni_sse_cbc_decrypt(const aes_ks *ks, uint8_t iv[16], const uint8_t *in,
                                     uint8_t *out, size_t nblocks) {
  sse_cbc_decrypt_nr(ks, iv, in, out, nblocks, ks->rounds);
  fm_clear_sse_registers();
}

/* ---- CTR --------------------------------------------------------------------------------- */

/* ctr_block forms one counter block from the host-order counter held in general registers (no
 * branch on its value, which may be the DRBG's secret V). */
AESNI_FN static inline __m128i ctr_block(aes_ctr_state c) {
  return _mm_set_epi64x((long long)__builtin_bswap64(c.lo), (long long)__builtin_bswap64(c.hi));
}

/* The 8-block CTR loop keeps the counter in a vector register in a working form, advanced by 8
 * per pass (a loop-carried vector add; rebuilding it from general registers on every pass
 * measured 20% slower). Width 32: the block with its last dword byte-swapped to host order,
 * which takes 32-bit adds that wrap by themselves. Width 128: the block reversed into a
 * little-endian 128-bit integer (low qword, high qword). */

/* ctr_base returns the working form of counter |c|. */
AESNI_FN static inline __m128i ctr_base(aes_ctr_state c, int width) {
  if (width == 32) {
    return _mm_shuffle_epi8(ctr_block(c),
                            _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 15, 14, 13, 12));
  }
  return _mm_set_epi64x((long long)c.hi, (long long)c.lo);
}

/* ctr_blocks8 forms the counter blocks base, base+1, ..., base+7 and advances |base| by 8; |c|
 * is the same counter in general registers. For width 128, j is added to the low qword and the
 * carry into the high qword goes to the offsets j >= t, where t = 2^64 - lo when that is 1..8
 * and 9 otherwise (no carry within the next eight). t comes from |c| through masks (no branch
 * on the counter; general registers leave the vector ports to the AES rounds); three signed
 * 32-bit compares of small values give every offset's carry mask, spread by pshufd. */
AESNI_FN static inline void ctr_blocks8(__m128i *base, aes_ctr_state c, int width, __m128i x[8]) {
  const __m128i b = *base;
  if (width == 32) {
    const __m128i swap32 = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 15, 14, 13, 12);
    AES_UNROLL
    for (int j = 0; j < 8; j++) {
      x[j] = _mm_shuffle_epi8(_mm_add_epi32(b, _mm_setr_epi32(0, 0, 0, j)), swap32);
    }
    *base = _mm_add_epi32(b, _mm_setr_epi32(0, 0, 0, 8));
    return;
  }
  const __m128i rev = _mm_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
  const uint64_t k = 0 - c.lo;                                 /* increments until lo wraps */
  const uint64_t t = ct_select_u64(ct_lt_u64(k - 1, 8), k, 9); /* k - 1 < 8 excludes k == 0 */
  const __m128i tm1 = _mm_set1_epi32((int)t - 1);
  /* Offset j's carry mask is one dword of one of three compares (offsets 1-3, 4-6, 7-8),
   * copied into both dwords of the high qword; dword 0 of each compare is always 0 and fills
   * the low qword. Offset 0 never carries (t >= 1). */
  const __m128i m13 = _mm_cmpgt_epi32(_mm_setr_epi32(INT32_MIN, 1, 2, 3), tm1);
  const __m128i m46 = _mm_cmpgt_epi32(_mm_setr_epi32(INT32_MIN, 4, 5, 6), tm1);
  const __m128i m78 = _mm_cmpgt_epi32(_mm_setr_epi32(INT32_MIN, 7, 8, INT32_MIN), tm1);
  __m128i carry[9]; /* carry[1..8] */
  carry[1] = _mm_shuffle_epi32(m13, _MM_SHUFFLE(1, 1, 0, 0));
  carry[2] = _mm_shuffle_epi32(m13, _MM_SHUFFLE(2, 2, 0, 0));
  carry[3] = _mm_shuffle_epi32(m13, _MM_SHUFFLE(3, 3, 0, 0));
  carry[4] = _mm_shuffle_epi32(m46, _MM_SHUFFLE(1, 1, 0, 0));
  carry[5] = _mm_shuffle_epi32(m46, _MM_SHUFFLE(2, 2, 0, 0));
  carry[6] = _mm_shuffle_epi32(m46, _MM_SHUFFLE(3, 3, 0, 0));
  carry[7] = _mm_shuffle_epi32(m78, _MM_SHUFFLE(1, 1, 0, 0));
  carry[8] = _mm_shuffle_epi32(m78, _MM_SHUFFLE(2, 2, 0, 0));
  x[0] = _mm_shuffle_epi8(b, rev);
  AES_UNROLL
  for (int j = 1; j < 8; j++) {
    x[j] = _mm_shuffle_epi8(_mm_sub_epi64(_mm_add_epi64(b, _mm_set_epi64x(0, j)), carry[j]), rev);
  }
  *base = _mm_sub_epi64(_mm_add_epi64(b, _mm_set_epi64x(0, 8)), carry[8]);
}

/* xor_out stores |ksb| ^ the input block, or the key stream itself when in == NULL. */
AESNI_FN static inline void xor_out(uint8_t *out, const uint8_t *in, __m128i ksb) {
  if (in != NULL) ksb = _mm_xor_si128(ksb, _mm_loadu_si128((const __m128i *)in));
  _mm_storeu_si128((__m128i *)out, ksb);
}

/* ctr_few encrypts |n| (1..4) counter blocks starting at |c|, all in flight at once; |n| is a
 * constant at each call, so the block loops unroll completely. */
AESNI_FN __attribute__((always_inline)) static inline void ctr_few(const __m128i *rk, unsigned nr,
                                                                   aes_ctr_state c, int width,
                                                                   const uint8_t *in, uint8_t *out,
                                                                   const int n) {
  __m128i x[4];
  AES_UNROLL
  for (int j = 0; j < n; j++) {
    x[j] = _mm_xor_si128(ctr_block(aes_ctr_add(c, (uint64_t)j, width)), rk[0]);
  }
  AES_UNROLL
  for (unsigned i = 1; i < AES_NI_COMMON_ROUNDS; i++) {
    const __m128i k = rk[i];
    AES_UNROLL
    for (int j = 0; j < n; j++) x[j] = _mm_aesenc_si128(x[j], k);
  }
  for (unsigned i = AES_NI_COMMON_ROUNDS; i < nr; i++) {
    const __m128i k = rk[i];
    AES_UNROLL
    for (int j = 0; j < n; j++) x[j] = _mm_aesenc_si128(x[j], k);
  }
  AES_UNROLL
  for (int j = 0; j < n; j++) {
    xor_out(out + 16 * j, in != NULL ? in + 16 * j : NULL, _mm_aesenclast_si128(x[j], rk[nr]));
  }
}

AESNI_FN __attribute__((always_inline)) static inline void sse_ctr_nr(const aes_ks *ks, int width,
                                                                      uint8_t ctr[16],
                                                                      const uint8_t *in,
                                                                      uint8_t *out, size_t nblocks,
                                                                      const unsigned nr) {
  const __m128i *rk = (const __m128i *)ks->words;
  aes_ctr_state c = aes_ctr_load(ctr);
  __m128i base = ctr_base(c, width);
  for (; nblocks >= 8; nblocks -= 8, out += 128) {
    __m128i x[8];
    ctr_blocks8(&base, c, width, x);
    c = aes_ctr_add(c, 8, width);
    encrypt8(rk, nr, x);
    AES_UNROLL
    for (int j = 0; j < 8; j++) xor_out(out + 16 * j, in != NULL ? in + 16 * j : NULL, x[j]);
    if (in != NULL) in += 128;
  }
  /* The last 1..7 blocks: as many blocks in flight as there are, so that a short draw (the
   * DRBG's 1..4 blocks) waits on the rounds' latency only once. */
  if (nblocks > 4) {
    /* 5..7 blocks: one 8-wide pass, the unused blocks dropped. The stores are unrolled with
     * constant indexes: a loop to |nblocks| made gcc 12 store the eight blocks of key stream to
     * the stack to index them (128 bytes of red zone that nothing wiped; test_aes_stack). */
    __m128i x[8];
    ctr_blocks8(&base, c, width, x);
    encrypt8(rk, nr, x);
    AES_UNROLL
    for (int j = 0; j < 7; j++) {
      if ((size_t)j < nblocks) xor_out(out + 16 * j, in != NULL ? in + 16 * j : NULL, x[j]);
    }
  } else if (nblocks > 0) {
    /* Specialized on the block count, so that the common rounds unroll with the round keys as
     * memory operands. */
    switch (nblocks) {
      case 1: ctr_few(rk, nr, c, width, in, out, 1); break;
      case 2: ctr_few(rk, nr, c, width, in, out, 2); break;
      case 3: ctr_few(rk, nr, c, width, in, out, 3); break;
      default: ctr_few(rk, nr, c, width, in, out, 4); break;
    }
  }
  c = aes_ctr_add(c, nblocks, width);
  aes_ctr_store(ctr, c);
}

AESNI_FN void aes_ni_sse_ctr(const aes_ks *ks, int width, uint8_t ctr[16], const uint8_t *in,
                             uint8_t *out, size_t nblocks) {
  sse_ctr_nr(ks, width, ctr, in, out, nblocks, ks->rounds);
  fm_clear_sse_registers();
}

/* ---- Dispatch to the widest path --------------------------------------------------------- */

/* The VAES loops take 16 blocks per pass; below that the 128-bit code runs without the
 * wide-register setup. */
#define VAES_MIN_BLOCKS AES_VAES_MIN_BLOCKS

void aes_ni_ecb_encrypt(const aes_ks *ks, const uint8_t *in, uint8_t *out, size_t nblocks) {
  const int path = nblocks >= VAES_MIN_BLOCKS ? aes_ni_path() : AES_PATH_AESNI;
  if (path == AES_PATH_VAES_AVX512) {
    aes_ni_vaes512_ecb(ks, 0, in, out, nblocks);
  } else if (path == AES_PATH_VAES_AVX2) {
    aes_ni_vaes256_ecb(ks, 0, in, out, nblocks);
  } else {
    aes_ni_sse_ecb_encrypt(ks, in, out, nblocks);
  }
}

void aes_ni_ecb_decrypt(const aes_ks *ks, const uint8_t *in, uint8_t *out, size_t nblocks) {
  const int path = nblocks >= VAES_MIN_BLOCKS ? aes_ni_path() : AES_PATH_AESNI;
  if (path == AES_PATH_VAES_AVX512) {
    aes_ni_vaes512_ecb(ks, 1, in, out, nblocks);
  } else if (path == AES_PATH_VAES_AVX2) {
    aes_ni_vaes256_ecb(ks, 1, in, out, nblocks);
  } else {
    aes_ni_sse_ecb_decrypt(ks, in, out, nblocks);
  }
}

void aes_ni_cbc_decrypt(const aes_ks *ks, uint8_t iv[16], const uint8_t *in, uint8_t *out,
                        size_t nblocks) {
  const int path = nblocks >= VAES_MIN_BLOCKS ? aes_ni_path() : AES_PATH_AESNI;
  if (path == AES_PATH_VAES_AVX512) {
    aes_ni_vaes512_cbc_decrypt(ks, iv, in, out, nblocks);
  } else if (path == AES_PATH_VAES_AVX2) {
    aes_ni_vaes256_cbc_decrypt(ks, iv, in, out, nblocks);
  } else {
    aes_ni_sse_cbc_decrypt(ks, iv, in, out, nblocks);
  }
}

void aes_ni_ctr(const aes_ks *ks, int width, uint8_t ctr[16], const uint8_t *in, uint8_t *out,
                size_t nblocks) {
  const int path = nblocks >= VAES_MIN_BLOCKS ? aes_ni_path() : AES_PATH_AESNI;
  if (path == AES_PATH_VAES_AVX512) {
    aes_ni_vaes512_ctr(ks, width, ctr, in, out, nblocks);
  } else if (path == AES_PATH_VAES_AVX2) {
    aes_ni_vaes256_ctr(ks, width, ctr, in, out, nblocks);
  } else {
    aes_ni_sse_ctr(ks, width, ctr, in, out, nblocks);
  }
}
