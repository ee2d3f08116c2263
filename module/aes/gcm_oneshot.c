/* The one-shot paths of AES-GCM that run without a context (gcm.c's one_shot chooses): a
 * message with a 96-bit IV and at most GCM_SHORT_MAX bytes each of AAD and text
 * (gcm_short_one_shot), and on CPUs with the 512-bit stitched kernel a longer 96-bit-IV message
 * of one service slice at most (gcm_stitched_one_shot). Same secrets as gcm.c; each wipes what it
 * wrote and leaves the stack below its caller's frame to the caller's wipe. */
#include <string.h>

#include "fipsmod/gcm.h"
#include "module/aes/internal.h"
#include "module/internal.h"

/* tag_words writes the full tag T = E(J0) ^ S (7.1 step 6) from |ej0| and the GHASH state |y|
 * (reflected form: S is y's words byte-swapped and exchanged), a word at a time in registers: a
 * byte loop there was vectorized by clang with its shifted copies of S spilled to the stack. */
static inline void tag_words(uint8_t full[16], const uint8_t ej0[16], const uint64_t y[2]) {
  uint64_t e0, e1;
  memcpy(&e0, ej0, 8);
  memcpy(&e1, ej0 + 8, 8);
  const uint64_t t0 = e0 ^ __builtin_bswap64(y[1]), t1 = e1 ^ __builtin_bswap64(y[0]);
  memcpy(full, &t0, 8);
  memcpy(full + 8, &t1, 8);
}

/* partial_block runs the last |n| (1..15, public) bytes of a text: out = in ^ the key stream
 * block |ks|, n bytes of each, and the ciphertext (in when decrypting) zero-padded to a block at
 * |gin|, GHASH's input. In words held in registers (le_get_block). */
static inline void partial_block(const uint8_t *in, uint8_t *out, const uint8_t ks[16], size_t n,
                                 int decrypt, uint8_t gin[16]) {
  uint64_t x0, x1, k0, k1;
  le_get_block(in, n, &x0, &x1);
  memcpy(&k0, ks, 8);
  memcpy(&k1, ks + 8, 8);
  /* The key stream past n masked off, so that the padded ciphertext block is zero there. */
  const uint64_t o0 = (x0 ^ k0) & le_mask_upto8(n < 8 ? n : 8);
  const uint64_t o1 = (x1 ^ k1) & (n > 8 ? le_mask_upto8(n - 8) : 0);
  le_put_block(out, n, o0, o1);
  block_store(gin, decrypt ? x0 : o0, decrypt ? x1 : o1);
}

/* A one-shot message with a 96-bit IV and at most GCM_SHORT_MAX bytes each of AAD and text (a
 * TLS record header with a short record, say) runs without a context: one AES call makes E(J0)
 * and the key stream together, and one GHASH call covers the padded AAD, the padded ciphertext
 * and the lengths, laid out in one buffer (the general path makes two or three of each, and
 * sets up and wipes a context); gcm.c sends it here also where the 512-bit kernel is used (see
 * gcm_stitch512). A multiple of 16: the buffers hold whole blocks. */
static_assert(GCM_SHORT_MAX % 16 == 0, "gcm_short_one_shot's buffers hold whole blocks");
static_assert(GCM_SHORT_MAX / 16 + 1 <= 16, "the key stream is one 16-block pass at most");

/* GCM_SHORT_VAES_MIN: from this many blocks of E(J0) and key stream on, gcm_short_one_shot makes
 * them in one pass on 512-bit registers rather than with AES-NI a block per instruction (Zen 5,
 * AES-128 seal, 13-byte AAD, both builds in one process, interleaved: 15% less time at 128 bytes
 * and 17% at 192; 5% more at 16 bytes, 2 blocks, where the one pass's set-up and register
 * clearing outweigh it). */
#define GCM_SHORT_VAES_MIN 6

/* Never inlined, and it wipes no stack itself: its caller wipes below its own frame once this
 * returns, which covers this frame too (instrumented builds keep the loop's words there). */
__attribute__((noinline)) void gcm_short_one_shot(const aes_ks *ks, const ghash_key *gh,
                                                  const uint8_t iv[FM_GCM_IV_LEN],
                                                  const uint8_t *aad, size_t aad_len,
                                                  const uint8_t *in, uint8_t *out, size_t len,
                                                  int decrypt, uint8_t full[16]) {
  const size_t abytes = (aad_len + 15) & ~(size_t)15, tbytes = (len + 15) & ~(size_t)15;
  const size_t nstream = 1 + tbytes / 16, nghash = (abytes + tbytes) / 16 + 1;
  /* Every secret of the call in one array, wiped at the end in one go (what was written of it):
   * the GHASH state y, then E(J0) and the key stream from inc32(J0) on (|stream|, nstream
   * blocks), then the GHASH input (7.1 step 5, |gin|, nghash blocks):
   * A || 0^v || C || 0^u || [len(A)]_64 || [len(C)]_64. */
  _Alignas(16) uint8_t area[16 + (GCM_SHORT_MAX + 16) + (2 * GCM_SHORT_MAX + 16)];
  uint64_t *y = (uint64_t *)(void *)area;
  uint8_t *stream = area + 16, *gin = stream + 16 * nstream;
  /* J0 = IV || 0^31 || 1; the counter (public) runs on from it. */
  uint8_t ctr[16];
  j0_block(ctr, iv, 1);
#if FM_HAVE_X86_64_PATHS
  if (nstream >= GCM_SHORT_VAES_MIN && ks->impl == AES_IMPL_AESNI &&
      aes_ni_path() == AES_PATH_VAES_AVX512) {
    /* All nstream (at most 16) blocks in one pass on 512-bit registers. */
    aes_ni_vaes512_ctr32_stream(ks, ctr, stream, nstream);
  } else
#endif
  {
    aes_ctr32_blocks(ks, ctr, NULL, stream, nstream);
  }
  /* The GHASH input a block at a time, each block in one store where it can be (block_store):
   * the AAD, its zero-padded rest gathered into words (public). */
  const size_t afull = aad_len / 16, arest = aad_len % 16;
  for (size_t b = 0; b < afull; b++) memcpy(gin + 16 * b, aad + 16 * b, 16);
  if (arest != 0) {
    uint64_t w0, w1;
    le_get_block(aad + 16 * afull, arest, &w0, &w1);
    block_store(gin + 16 * afull, w0, w1);
  }
  /* The text: out = in ^ key stream; the ciphertext (in when decrypting) into gin. */
  uint8_t *c = gin + abytes;
  const uint8_t *kstr = stream + 16;
  const size_t tfull = len / 16, trest = len % 16;
  for (size_t b = 0; b < tfull; b++) {
    /* Scalars, which stay in registers (arrays may be given stack slots, left unwiped). */
    uint64_t x0, x1, w0, w1;
    memcpy(&x0, in + 16 * b, 8);
    memcpy(&x1, in + 16 * b + 8, 8);
    memcpy(&w0, kstr + 16 * b, 8);
    memcpy(&w1, kstr + 16 * b + 8, 8);
    const uint64_t o0 = x0 ^ w0, o1 = x1 ^ w1;
    memcpy(out + 16 * b, &o0, 8);
    memcpy(out + 16 * b + 8, &o1, 8);
    block_store(c + 16 * b, decrypt ? x0 : o0, decrypt ? x1 : o1);
  }
  if (trest != 0) {
    partial_block(in + 16 * tfull, out + 16 * tfull, kstr + 16 * tfull, trest, decrypt,
                  c + 16 * tfull);
  }
  block_store(c + tbytes, __builtin_bswap64((uint64_t)aad_len * 8),
              __builtin_bswap64((uint64_t)len * 8));
  y[0] = 0;
  y[1] = 0;
  ghash_blocks(gh, y, gin, nghash);
  tag_words(full, stream, y);
  fm_zeroize(area, 16 + 16 * (nstream + nghash));
}

#if FM_HAVE_X86_64_PATHS
/* stitched_one_shot is a one-shot message with a 96-bit IV on the 512-bit kernel without a
 * context (one slice at most: the caller checks once): E(J0) first, so that its rounds run
 * beside the rest; GHASH of the AAD, whole blocks then the zero-padded rest; every text block
 * and the partial block's key stream in the kernel; then one GHASH call for the padded partial
 * block and the lengths. Never inlined, and it wipes no stack itself: its caller wipes below its
 * own frame once this returns. */
__attribute__((noinline)) uintptr_t gcm_stitched_one_shot(const aes_ks *ks, const ghash_key *gh,
                                                          const uint8_t iv[FM_GCM_IV_LEN],
                                                          const uint8_t *aad, size_t aad_len,
                                                          const uint8_t *in, uint8_t *out,
                                                          size_t len, int decrypt,
                                                          uint8_t full[16]) {
  /* Secrets, in one array wiped at the end: the GHASH state y, E(J0), the partial block's key
   * stream, and the GHASH input of the last step (the padded partial block and the lengths; the
   * AAD's padded last block before that). */
  _Alignas(16) uint8_t area[80];
  uint64_t *y = (uint64_t *)(void *)area;
  uint8_t *ej0 = area + 16, *stream = area + 32, *last = area + 48;
  memset(area, 0, sizeof area);
  /* J0 = IV || 0^31 || 1, and the counter from inc32(J0) = IV || 0^31 || 2 (public). */
  uint8_t j0[16], ctr[16];
  j0_block(j0, iv, 1);
  j0_block(ctr, iv, 2);
  aes_encrypt_block(ks, j0, ej0);
  const size_t afull = aad_len / 16, arest = aad_len % 16;
  if (afull != 0) ghash_blocks(gh, y, aad, afull);
  if (arest != 0) {
    /* The AAD's zero-padded last block (public). */
    uint64_t w0, w1;
    le_get_block(aad + 16 * afull, arest, &w0, &w1);
    block_store(last, w0, w1);
    ghash_blocks(gh, y, last, 1);
  }
  size_t nlast = 0;
  uintptr_t low = UINTPTR_MAX;
  if (len != 0) {
    const size_t blocks = len / 16, rest = len % 16;
    low = gcm_vaes512_crypt_all(ks, gh, ctr, y, in, out, blocks, rest != 0 ? stream : NULL,
                                decrypt);
    if (rest != 0) {
      partial_block(in + 16 * blocks, out + 16 * blocks, stream, rest, decrypt, last);
      nlast = 16;
    }
  }
  /* The lengths block: [len(A)]_64 || [len(C)]_64, big-endian. */
  block_store(last + nlast, __builtin_bswap64((uint64_t)aad_len * 8),
              __builtin_bswap64((uint64_t)len * 8));
  ghash_blocks(gh, y, last, nlast / 16 + 1);
  tag_words(full, ej0, y);
  fm_zeroize(area, sizeof area);
  return low;
}
#endif
