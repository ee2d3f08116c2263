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
 * function zeroizes its array before returning, and clears the vector registers last (all 32 on
 * 512-bit registers, where the compiler also hands out zmm16-31; internal.h says why).
 *
 * On 256-bit registers the eight states, the counters and the shuffle constant fill the 16 ymm
 * registers, and the compiler keeps states and counter blocks in stack slots outside the arrays
 * (objdump: 320-640 bytes in ctr256_run and the ECB and CBC loops with gcc 12 -O2, 128 with
 * clang 14): aes.c wipes the stack after a call that took one of these loops
 * (aes_ni_bulk_spills, AES_BULK_STACK_WIPE in internal.h). The 512-bit loops leave no secret
 * outside their zeroized arrays (test_aes_stack checks both).
 *
 * The CTR_DRBG's short generate on 256-bit registers is in drbg_vaes.c. */
#include <immintrin.h>
#include <string.h>

#include "module/aes/internal.h"
#include "module/aes/vaes_ctr.h"
#include "module/internal.h"

#define VAES512_FN __attribute__((target("aes,sse4.1,avx2,avx512f,avx512vl,avx512bw,vaes")))

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
  fm_clear_avx512_registers();
}

VAES512_FN void aes_ni_vaes512_ctr32_stream(const aes_ks *ks, const uint8_t ctr[16], uint8_t *out,
                                            size_t nblocks) {
  const __m128i *rk = enc_keys(ks);
  const unsigned nr = ks->rounds;
  const __m512i swap = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)k_swap32));
  __m512i base =
      _mm512_shuffle_epi8(_mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)ctr)), swap);
  base = ctr512_add(base, ctr512_lanes(0, 32), 32);
  const __m512i k0 = _mm512_broadcast_i32x4(rk[0]);
  __m512i x[4];
  AES_UNROLL
  for (int j = 0; j < 4; j++) {
    x[j] = _mm512_xor_si512(_mm512_shuffle_epi8(base, swap), k0);
    base = ctr512_add(base, ctr512_same(4, 32), 32);
  }
  for (unsigned i = 1; i < nr; i++) {
    const __m512i k = _mm512_broadcast_i32x4(rk[i]);
    AES_UNROLL
    for (int j = 0; j < 4; j++) x[j] = _mm512_aesenc_epi128(x[j], k);
  }
  const __m512i kl = _mm512_broadcast_i32x4(rk[nr]);
  AES_UNROLL
  for (int j = 0; j < 4; j++) {
    _mm512_mask_storeu_epi64(out + 64 * j, aes_qmask4((long)nblocks - 4 * j),
                             _mm512_aesenclast_epi128(x[j], kl));
  }
  fm_clear_avx512_registers();
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
  fm_clear_avx512_registers();
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
  fm_clear_avx512_registers();
}

/* ============================== 256-bit registers ========================================= */

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
  fm_clear_avx_registers();
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
  fm_clear_avx_registers();
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
  fm_clear_avx_registers();
}
