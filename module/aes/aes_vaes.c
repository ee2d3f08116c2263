/* AES with VAES: the AES-NI round on 256-bit (two blocks) or 512-bit (four blocks) registers,
 * for the modes whose blocks are independent (ECB, CBC decryption, CTR). Each loop pass keeps
 * 16 blocks in flight; the round keys are broadcast into registers once per call. Tails of
 * fewer than 16 blocks go to the 128-bit code.
 *
 * CTR counters are built in vector registers. For the 128-bit counter each 128-bit lane holds
 * the counter as a little-endian integer (low qword, high qword); adding n to the low qword and
 * then adding the carry (low < n, unsigned) to the high qword is exact mod 2^128 and has no
 * branch on the counter's value, which may be the DRBG's secret V. For the 32-bit counter only
 * dword 3 (the last four bytes, byte-swapped) is added to, which wraps mod 2^32 by itself.
 *
 * The broadcast round keys live in local arrays that the compiler may spill to the stack; each
 * function zeroizes its array before returning.
 *
 * At the end: the CTR_DRBG's short generate on 256-bit registers (its key schedule from
 * drbg_expand.h, its stack wiped by the caller's aes_drbg_stack_wipe). */
#include <immintrin.h>
#include <string.h>

#include "module/aes/internal.h"
#include "module/internal.h"

#define VAES512_FN __attribute__((target("aes,sse4.1,avx2,avx512f,avx512vl,avx512bw,vaes")))
#define VAES256_FN __attribute__((target("aes,sse4.1,avx2,vaes")))

/* Byte shuffles, per 128-bit lane, between a big-endian counter block and its working form:
 * all 16 bytes reversed (width 128), or only the last four (width 32). Both are involutions. */
static const uint8_t k_swap128[16] = {15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0};
static const uint8_t k_swap32[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 15, 14, 13, 12};

static const __m128i *enc_keys(const aes_ks *ks) { return (const __m128i *)ks->words; }
static const __m128i *dec_keys(const aes_ks *ks) {
  return (const __m128i *)(ks->words + AES_NI_DEC_OFFSET);
}

/* ============================== 512-bit registers ========================================= */

/* ctr512_inc returns v + n per lane (n in |inc|, one per 128-bit lane, in the form of the
 * width): for width 128 the carry out of each low qword is added into its high qword. */
VAES512_FN static inline __m512i ctr512_add(__m512i v, __m512i inc, int width) {
  if (width == 32) return _mm512_add_epi32(v, inc);
  __m512i s = _mm512_add_epi64(v, inc);
  /* Unsigned s < inc only in low qwords (inc's high qwords are 0): bits 0, 2, 4, 6. */
  __mmask8 carry = _mm512_cmplt_epu64_mask(s, inc);
  return _mm512_mask_sub_epi64(s, (__mmask8)(carry << 1), s, _mm512_set1_epi64(-1));
}

/* ctr512_lanes returns a vector whose four lanes hold n, n+1, n+2, n+3 (n = first) in the
 * increment form of |width|. */
VAES512_FN static inline __m512i ctr512_lanes(long long first, int width) {
  if (width == 32) {
    return _mm512_set_epi32((int)first + 3, 0, 0, 0, (int)first + 2, 0, 0, 0, (int)first + 1, 0, 0,
                            0, (int)first, 0, 0, 0);
  }
  return _mm512_set_epi64(0, first + 3, 0, first + 2, 0, first + 1, 0, first);
}

VAES512_FN static inline __m512i ctr512_same(long long n, int width) {
  return width == 32
             ? _mm512_set_epi32((int)n, 0, 0, 0, (int)n, 0, 0, 0, (int)n, 0, 0, 0, (int)n, 0, 0, 0)
             : _mm512_set_epi64(0, n, 0, n, 0, n, 0, n);
}

/* ctr512_run is the CTR loop for one (compile-time) width; it returns the number of blocks done
 * (a multiple of 16). */
VAES512_FN static inline size_t ctr512_run(const aes_ks *ks, int width, const uint8_t ctr[16],
                                           const uint8_t *in, uint8_t *out, size_t nblocks) {
  const __m128i *rk = enc_keys(ks);
  const unsigned nr = ks->rounds;
  __m512i k[15];
  for (unsigned i = 0; i <= nr; i++) k[i] = _mm512_broadcast_i32x4(rk[i]);
  const __m512i swap = _mm512_broadcast_i32x4(
      _mm_loadu_si128((const __m128i *)(width == 32 ? k_swap32 : k_swap128)));
  const __m512i inc4 = ctr512_same(4, width), inc8 = ctr512_same(8, width),
                inc12 = ctr512_same(12, width), inc16 = ctr512_same(16, width);
  __m512i base =
      _mm512_shuffle_epi8(_mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)ctr)), swap);
  base = ctr512_add(base, ctr512_lanes(0, width), width);
  size_t done = 0;
  for (; nblocks - done >= 16; done += 16) {
    __m512i x[4];
    x[0] = base;
    x[1] = ctr512_add(base, inc4, width);
    x[2] = ctr512_add(base, inc8, width);
    x[3] = ctr512_add(base, inc12, width);
    base = ctr512_add(base, inc16, width);
    AES_UNROLL
    for (int j = 0; j < 4; j++) x[j] = _mm512_xor_si512(_mm512_shuffle_epi8(x[j], swap), k[0]);
    for (unsigned i = 1; i < nr; i++) {
      AES_UNROLL
      for (int j = 0; j < 4; j++) x[j] = _mm512_aesenc_epi128(x[j], k[i]);
    }
    AES_UNROLL
    for (int j = 0; j < 4; j++) x[j] = _mm512_aesenclast_epi128(x[j], k[nr]);
    if (in != NULL) {
      AES_UNROLL
      for (int j = 0; j < 4; j++) {
        x[j] = _mm512_xor_si512(x[j], _mm512_loadu_si512((const void *)(in + 16 * done + 64 * j)));
      }
    }
    AES_UNROLL
    for (int j = 0; j < 4; j++) _mm512_storeu_si512((void *)(out + 16 * done + 64 * j), x[j]);
  }
  fm_zeroize(k, sizeof k);
  return done;
}

VAES512_FN void aes_ni_vaes512_ctr(const aes_ks *ks, int width, uint8_t ctr[16], const uint8_t *in,
                                   uint8_t *out, size_t nblocks) {
  const size_t done = width == 32 ? ctr512_run(ks, 32, ctr, in, out, nblocks)
                                  : ctr512_run(ks, 128, ctr, in, out, nblocks);
  aes_ctr_store(ctr, aes_ctr_add(aes_ctr_load(ctr), done, width));
  if (done < nblocks) {
    aes_ni_sse_ctr(ks, width, ctr, in != NULL ? in + 16 * done : NULL, out + 16 * done,
                   nblocks - done);
  }
}

VAES512_FN void aes_ni_vaes512_ecb(const aes_ks *ks, int decrypt, const uint8_t *in, uint8_t *out,
                                   size_t nblocks) {
  const __m128i *rk = decrypt ? dec_keys(ks) : enc_keys(ks);
  const unsigned nr = ks->rounds;
  __m512i k[15];
  for (unsigned i = 0; i <= nr; i++) k[i] = _mm512_broadcast_i32x4(rk[i]);
  size_t done = 0;
  for (; nblocks - done >= 16; done += 16) {
    __m512i x[4];
    AES_UNROLL
    for (int j = 0; j < 4; j++) {
      x[j] = _mm512_xor_si512(_mm512_loadu_si512((const void *)(in + 16 * done + 64 * j)), k[0]);
    }
    if (decrypt) {
      for (unsigned i = 1; i < nr; i++) {
        AES_UNROLL
        for (int j = 0; j < 4; j++) x[j] = _mm512_aesdec_epi128(x[j], k[i]);
      }
      AES_UNROLL
      for (int j = 0; j < 4; j++) x[j] = _mm512_aesdeclast_epi128(x[j], k[nr]);
    } else {
      for (unsigned i = 1; i < nr; i++) {
        AES_UNROLL
        for (int j = 0; j < 4; j++) x[j] = _mm512_aesenc_epi128(x[j], k[i]);
      }
      AES_UNROLL
      for (int j = 0; j < 4; j++) x[j] = _mm512_aesenclast_epi128(x[j], k[nr]);
    }
    AES_UNROLL
    for (int j = 0; j < 4; j++) _mm512_storeu_si512((void *)(out + 16 * done + 64 * j), x[j]);
  }
  fm_zeroize(k, sizeof k);
  if (done < nblocks) {
    if (decrypt) {
      aes_ni_sse_ecb_decrypt(ks, in + 16 * done, out + 16 * done, nblocks - done);
    } else {
      aes_ni_sse_ecb_encrypt(ks, in + 16 * done, out + 16 * done, nblocks - done);
    }
  }
}

/* CBC decryption: P_i = D(C_i) ^ C_{i-1}. The previous-block vectors are built from registers
 * (valignq shifts the last block of the previous vector in), never re-read from |in|, so
 * in == out is safe. */
VAES512_FN void aes_ni_vaes512_cbc_decrypt(const aes_ks *ks, uint8_t iv[16], const uint8_t *in,
                                           uint8_t *out, size_t nblocks) {
  const __m128i *dk = dec_keys(ks);
  const unsigned nr = ks->rounds;
  __m512i k[15];
  for (unsigned i = 0; i <= nr; i++) k[i] = _mm512_broadcast_i32x4(dk[i]);
  /* Lane 3 of |last| is the block before the next one (the IV at first). */
  __m512i last = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)iv));
  size_t done = 0;
  for (; nblocks - done >= 16; done += 16) {
    __m512i c[4], x[4];
    AES_UNROLL
    for (int j = 0; j < 4; j++) {
      c[j] = _mm512_loadu_si512((const void *)(in + 16 * done + 64 * j));
      x[j] = _mm512_xor_si512(c[j], k[0]);
    }
    for (unsigned i = 1; i < nr; i++) {
      AES_UNROLL
      for (int j = 0; j < 4; j++) x[j] = _mm512_aesdec_epi128(x[j], k[i]);
    }
    AES_UNROLL
    for (int j = 0; j < 4; j++) x[j] = _mm512_aesdeclast_epi128(x[j], k[nr]);
    x[0] = _mm512_xor_si512(x[0], _mm512_alignr_epi64(c[0], last, 6));
    AES_UNROLL
    for (int j = 1; j < 4; j++)
      x[j] = _mm512_xor_si512(x[j], _mm512_alignr_epi64(c[j], c[j - 1], 6));
    last = c[3];
    AES_UNROLL
    for (int j = 0; j < 4; j++) _mm512_storeu_si512((void *)(out + 16 * done + 64 * j), x[j]);
  }
  fm_zeroize(k, sizeof k);
  _mm_storeu_si128((__m128i *)iv, _mm512_extracti32x4_epi32(last, 3));
  if (done < nblocks)
    aes_ni_sse_cbc_decrypt(ks, iv, in + 16 * done, out + 16 * done, nblocks - done);
}

/* ============================== 256-bit registers ========================================= */

VAES256_FN static inline __m256i ctr256_add(__m256i v, __m256i inc, int width) {
  if (width == 32) return _mm256_add_epi32(v, inc);
  __m256i s = _mm256_add_epi64(v, inc);
  /* Unsigned s < inc through the signed compare on sign-flipped values; the low-qword result
   * moves into the high qword of its lane (the byte shift stays inside each 128-bit lane). */
  const __m256i bias = _mm256_set1_epi64x((long long)0x8000000000000000ull);
  __m256i lt = _mm256_cmpgt_epi64(_mm256_xor_si256(inc, bias), _mm256_xor_si256(s, bias));
  return _mm256_sub_epi64(s, _mm256_slli_si256(lt, 8));
}

VAES256_FN static inline __m256i ctr256_pair(long long a, long long b, int width) {
  return width == 32 ? _mm256_set_epi32((int)b, 0, 0, 0, (int)a, 0, 0, 0)
                     : _mm256_set_epi64x(0, b, 0, a);
}

VAES256_FN static inline size_t ctr256_run(const aes_ks *ks, int width, const uint8_t ctr[16],
                                           const uint8_t *in, uint8_t *out, size_t nblocks) {
  const __m128i *rk = enc_keys(ks);
  const unsigned nr = ks->rounds;
  __m256i k[15];
  for (unsigned i = 0; i <= nr; i++) k[i] = _mm256_broadcastsi128_si256(rk[i]);
  const __m256i swap = _mm256_broadcastsi128_si256(
      _mm_loadu_si128((const __m128i *)(width == 32 ? k_swap32 : k_swap128)));
  __m256i inc[8];
  AES_UNROLL
  for (int j = 0; j < 8; j++) inc[j] = ctr256_pair(2 * j, 2 * j, width);
  const __m256i inc16 = ctr256_pair(16, 16, width);
  __m256i base =
      _mm256_shuffle_epi8(_mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)ctr)), swap);
  base = ctr256_add(base, ctr256_pair(0, 1, width), width);
  size_t done = 0;
  for (; nblocks - done >= 16; done += 16) {
    __m256i x[8];
    x[0] = base;
    AES_UNROLL
    for (int j = 1; j < 8; j++) x[j] = ctr256_add(base, inc[j], width);
    base = ctr256_add(base, inc16, width);
    AES_UNROLL
    for (int j = 0; j < 8; j++) x[j] = _mm256_xor_si256(_mm256_shuffle_epi8(x[j], swap), k[0]);
    for (unsigned i = 1; i < nr; i++) {
      AES_UNROLL
      for (int j = 0; j < 8; j++) x[j] = _mm256_aesenc_epi128(x[j], k[i]);
    }
    AES_UNROLL
    for (int j = 0; j < 8; j++) x[j] = _mm256_aesenclast_epi128(x[j], k[nr]);
    if (in != NULL) {
      AES_UNROLL
      for (int j = 0; j < 8; j++) {
        x[j] =
            _mm256_xor_si256(x[j], _mm256_loadu_si256((const __m256i *)(in + 16 * done + 32 * j)));
      }
    }
    AES_UNROLL
    for (int j = 0; j < 8; j++) _mm256_storeu_si256((__m256i *)(out + 16 * done + 32 * j), x[j]);
  }
  fm_zeroize(k, sizeof k);
  return done;
}

VAES256_FN void aes_ni_vaes256_ctr(const aes_ks *ks, int width, uint8_t ctr[16], const uint8_t *in,
                                   uint8_t *out, size_t nblocks) {
  const size_t done = width == 32 ? ctr256_run(ks, 32, ctr, in, out, nblocks)
                                  : ctr256_run(ks, 128, ctr, in, out, nblocks);
  aes_ctr_store(ctr, aes_ctr_add(aes_ctr_load(ctr), done, width));
  if (done < nblocks) {
    aes_ni_sse_ctr(ks, width, ctr, in != NULL ? in + 16 * done : NULL, out + 16 * done,
                   nblocks - done);
  }
}

VAES256_FN void aes_ni_vaes256_ecb(const aes_ks *ks, int decrypt, const uint8_t *in, uint8_t *out,
                                   size_t nblocks) {
  const __m128i *rk = decrypt ? dec_keys(ks) : enc_keys(ks);
  const unsigned nr = ks->rounds;
  __m256i k[15];
  for (unsigned i = 0; i <= nr; i++) k[i] = _mm256_broadcastsi128_si256(rk[i]);
  size_t done = 0;
  for (; nblocks - done >= 16; done += 16) {
    __m256i x[8];
    AES_UNROLL
    for (int j = 0; j < 8; j++) {
      x[j] = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(in + 16 * done + 32 * j)), k[0]);
    }
    if (decrypt) {
      for (unsigned i = 1; i < nr; i++) {
        AES_UNROLL
        for (int j = 0; j < 8; j++) x[j] = _mm256_aesdec_epi128(x[j], k[i]);
      }
      AES_UNROLL
      for (int j = 0; j < 8; j++) x[j] = _mm256_aesdeclast_epi128(x[j], k[nr]);
    } else {
      for (unsigned i = 1; i < nr; i++) {
        AES_UNROLL
        for (int j = 0; j < 8; j++) x[j] = _mm256_aesenc_epi128(x[j], k[i]);
      }
      AES_UNROLL
      for (int j = 0; j < 8; j++) x[j] = _mm256_aesenclast_epi128(x[j], k[nr]);
    }
    AES_UNROLL
    for (int j = 0; j < 8; j++) _mm256_storeu_si256((__m256i *)(out + 16 * done + 32 * j), x[j]);
  }
  fm_zeroize(k, sizeof k);
  if (done < nblocks) {
    if (decrypt) {
      aes_ni_sse_ecb_decrypt(ks, in + 16 * done, out + 16 * done, nblocks - done);
    } else {
      aes_ni_sse_ecb_encrypt(ks, in + 16 * done, out + 16 * done, nblocks - done);
    }
  }
}

VAES256_FN void aes_ni_vaes256_cbc_decrypt(const aes_ks *ks, uint8_t iv[16], const uint8_t *in,
                                           uint8_t *out, size_t nblocks) {
  const __m128i *dk = dec_keys(ks);
  const unsigned nr = ks->rounds;
  __m256i k[15];
  for (unsigned i = 0; i <= nr; i++) k[i] = _mm256_broadcastsi128_si256(dk[i]);
  /* The high lane of |last| is the block before the next one (the IV at first). */
  __m256i last = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)iv));
  size_t done = 0;
  for (; nblocks - done >= 16; done += 16) {
    __m256i c[8], x[8];
    AES_UNROLL
    for (int j = 0; j < 8; j++) {
      c[j] = _mm256_loadu_si256((const __m256i *)(in + 16 * done + 32 * j));
      x[j] = _mm256_xor_si256(c[j], k[0]);
    }
    for (unsigned i = 1; i < nr; i++) {
      AES_UNROLL
      for (int j = 0; j < 8; j++) x[j] = _mm256_aesdec_epi128(x[j], k[i]);
    }
    AES_UNROLL
    for (int j = 0; j < 8; j++) x[j] = _mm256_aesdeclast_epi128(x[j], k[nr]);
    /* Previous blocks of c[j]: (high lane of c[j-1], low lane of c[j]). */
    x[0] = _mm256_xor_si256(x[0], _mm256_permute2x128_si256(last, c[0], 0x21));
    AES_UNROLL
    for (int j = 1; j < 8; j++) {
      x[j] = _mm256_xor_si256(x[j], _mm256_permute2x128_si256(c[j - 1], c[j], 0x21));
    }
    last = c[7];
    AES_UNROLL
    for (int j = 0; j < 8; j++) _mm256_storeu_si256((__m256i *)(out + 16 * done + 32 * j), x[j]);
  }
  fm_zeroize(k, sizeof k);
  _mm_storeu_si128((__m128i *)iv, _mm256_extracti128_si256(last, 1));
  if (done < nblocks)
    aes_ni_sse_cbc_decrypt(ks, iv, in + 16 * done, out + 16 * done, nblocks - done);
}

/* ============================== The CTR_DRBG's short generate ============================== */

/* aes_vaes_drbg_generate_small: up to four output blocks and the update's three, two blocks per
 * 256-bit register, the key schedule expanded on the fly by drbg_expand.h (where the reason and
 * the method are) with every value broadcast over both lanes, so that each round key is ready for
 * the blocks as it comes. Key, V, the round keys and the blocks are secret and never select a
 * branch, an address or a shuffle pattern. */

#define DX_VEC __m256i
#define DX_FN VAES256_FN
#define DX_(name) vaes_##name
#define DX_LOAD16(p) _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(p)))
#define DX_PATTERN(p) _mm256_load_si256((const __m256i *)(p))
#define DX_XOR _mm256_xor_si256
#define DX_AND _mm256_and_si256
#define DX_SHUF _mm256_shuffle_epi8
#define DX_BSLLI _mm256_bslli_epi128
#define DX_AESENCLAST _mm256_aesenclast_epi128
#define DX_SET1 _mm256_set1_epi32
#define DX_ZERO _mm256_setzero_si256
#include "module/aes/drbg_expand.h"

/* k_swap128, in both lanes as one 32-byte row (a memory operand; see drbg_expand.h). */
_Alignas(32) static const uint8_t k_swap128_row[32] = DX_LANES(15, 14, 13, 12, 11, 10, 9, 8, 7, 6,
                                                               5, 4, 3, 2, 1, 0);

/* drbg_vaes_n is aes_vaes_drbg_generate_small for a constant |n| (0..4) output blocks: blocks
 * 0..n-1 are the output, n..n+2 the update's temp, two per register. */
VAES256_FN __attribute__((always_inline)) static inline void drbg_vaes_n(
    uint8_t v[16], uint8_t key[32], uint8_t *out, size_t out_len, const uint8_t *provided,
    const int n) {
  const int ny = (n + 4) / 2; /* registers for the n + 3 blocks */
  vaes_sched x;
  __m256i y[4];
  vaes_sched_init(&x, key);

  /* 10.2.1.5.1 step 4 and step 6's update (10.2.1.2 steps 2.1-2.2): E(Key, V + 1 .. V + n + 3),
   * whitened with round key 0 and given round 1. */
  const __m256i swap = DX_PATTERN(k_swap128_row);
  const __m256i v_le = _mm256_shuffle_epi8(DX_LOAD16(v), swap);
  AES_UNROLL
  for (int j = 0; j < ny; j++) {
    const __m256i ctr = ctr256_add(v_le, ctr256_pair(2 * j + 1, 2 * j + 2, 128), 128);
    y[j] = _mm256_xor_si256(_mm256_shuffle_epi8(ctr, swap), x.rk[0]);
    y[j] = _mm256_aesenc_epi128(y[j], x.rk[1]);
  }
  /* Round keys 2..14, each one step ahead of the round that uses it. */
  AES_UNROLL
  for (int i = 2; i <= 14; i++) {
    vaes_sched_step(&x, i);
    if (i >= 3) {
      AES_UNROLL
      for (int j = 0; j < ny; j++) y[j] = _mm256_aesenc_epi128(y[j], x.rk[i - 1]);
    }
  }
  AES_UNROLL
  for (int j = 0; j < ny; j++) y[j] = _mm256_aesenclast_epi128(y[j], x.rk[14]);

  /* Steps 5-6, on the blocks one per 128-bit register. */
  __m128i blk[8];
  AES_UNROLL
  for (int b = 0; b < n + 3; b++) {
    blk[b] = (b & 1) ? _mm256_extracti128_si256(y[b / 2], 1) : _mm256_castsi256_si128(y[b / 2]);
  }
  vaes_finish(blk, n, out, out_len, provided, key, v);
}

/* One function per block count (public): each keeps its rounds interleaved with the expansion.
 * In one function the compiler would hoist the count-independent expansion above the switch and
 * spill the round keys. */
#define DRBG_VAES_COUNT(n)                                                                     \
  VAES256_FN __attribute__((noinline)) static void drbg_vaes_##n(                             \
      uint8_t v[16], uint8_t key[32], uint8_t *out, size_t out_len, const uint8_t *provided) { \
    drbg_vaes_n(v, key, out, out_len, provided, n);                                           \
  }
DRBG_VAES_COUNT(0)
DRBG_VAES_COUNT(1)
DRBG_VAES_COUNT(2)
DRBG_VAES_COUNT(3)
DRBG_VAES_COUNT(4)

void aes_vaes_drbg_generate_small(uint8_t v[16], uint8_t key[32], uint8_t *out, size_t out_len,
                                  const uint8_t *provided) {
  switch ((out_len + 15) / 16) {
    case 0: drbg_vaes_0(v, key, out, out_len, provided); break;
    case 1: drbg_vaes_1(v, key, out, out_len, provided); break;
    case 2: drbg_vaes_2(v, key, out, out_len, provided); break;
    case 3: drbg_vaes_3(v, key, out, out_len, provided); break;
    default: drbg_vaes_4(v, key, out, out_len, provided); break;
  }
  /* Round keys or blocks the compiler spilled lie in drbg_vaes's dead frame. */
  aes_drbg_stack_wipe();
}
