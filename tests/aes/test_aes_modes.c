/* AES mode properties on every path of this machine: counter wrap-around for both CTR widths,
 * any split of a fm_aes_ctr_stream message, CBC chaining across calls, and the counter advance
 * of fm_aes_ctr for a trailing partial block.
 *   - CTR128 across the 2^128 wrap (and across a 2^64 carry) is compared with OpenSSL's
 *     EVP_aes_*_ctr, whose counter is the whole 128-bit block.
 *   - CTR32 across the 2^32 wrap (the internal kernel) is compared with ECB encryption of the
 *     expected counter blocks: the last 32 bits wrap to 0 and the first 96 bits never change.
 *   - CTR32 in the public API stops at the end of the counter space without wrapping: up to
 *     counter block 0xfffffffe it succeeds and leaves the counter at 0xffffffff, one block further
 *     (or any new block from the spent counter) fails with FM_ERR_LENGTH and writes nothing. */
#include <openssl/evp.h>
#include <string.h>

#include "fipsmod/aes.h"
#include "tests/aes/aes_test_paths.h"
#include "tests/common/test_util.h"

/* Enough blocks that every path runs its widest loop and its tail (16-block passes + 5). */
#define NBLK 53
#define FILL 0xa5

static test_rng g_rng;

/* all_bytes_are: the |len| bytes at |p| all equal |v| (output a refused call left alone). */
static int all_bytes_are(const uint8_t *p, uint8_t v, size_t len) {
  for (size_t i = 0; i < len; i++) {
    if (p[i] != v) return 0;
  }
  return 1;
}

static void openssl_ctr(size_t klen, const uint8_t *key, const uint8_t iv[16], const uint8_t *in,
                        uint8_t *out, size_t len) {
  EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
  int n = 0;
  CHECK(c != NULL);
  const EVP_CIPHER *cipher = klen == 16   ? EVP_aes_128_ctr()
                             : klen == 24 ? EVP_aes_192_ctr()
                                          : EVP_aes_256_ctr();
  CHECK(EVP_EncryptInit_ex(c, cipher, NULL, key, iv));
  CHECK(EVP_EncryptUpdate(c, out, &n, in, (int)len));
  CHECK_EQ_INT(n, len);
  EVP_CIPHER_CTX_free(c);
}

static void test_ctr128_wrap(const char *path) {
  /* Counters just before the 2^128 wrap and before a carry out of the low 64 bits; the block
   * count offsets the wrap point within a pass. */
  static const char *const starts[] = {
      "fffffffffffffffffffffffffffffffe", "ffffffffffffffffffffffffffffffd3",
      "0123456789abcdefffffffffffffffff", "00000000000000fffffffffffffffff0",
      "fedcba9876543210fffffffffffffffa",
  };
  uint8_t key[32], iv[16], ctr[16], want_ctr[16], pt[16 * NBLK], out[16 * NBLK], ref[16 * NBLK];
  for (size_t klen = 16; klen <= 32; klen += 8) {
    for (size_t s = 0; s < sizeof starts / sizeof starts[0]; s++) {
      test_rng_bytes(&g_rng, key, klen);
      test_rng_bytes(&g_rng, pt, sizeof pt);
      CHECK(test_hex_decode(starts[s], iv, 16) == 16);
      fm_aes_key k;
      CHECK_EQ_INT(fm_aes_key_init(&k, key, klen), FM_OK);
      openssl_ctr(klen, key, iv, pt, ref, sizeof pt);
      memcpy(ctr, iv, 16);
      CHECK_EQ_INT(fm_aes_ctr(&k, FM_AES_CTR128, ctr, pt, out, sizeof pt), FM_OK);
      CHECK_MEM(out, ref, sizeof pt);
      /* The counter ends at iv + NBLK mod 2^128. */
      memcpy(want_ctr, iv, 16);
      unsigned carry = NBLK;
      for (int i = 15; i >= 0; i--) {
        carry += want_ctr[i];
        want_ctr[i] = (uint8_t)carry;
        carry >>= 8;
      }
      CHECK_MEM(ctr, want_ctr, 16);
      /* The internal entry point the DRBG uses agrees, block by block as well. */
      aes_ks sched, *ks = &sched;
      CHECK_EQ_INT(aes_ks_init_encrypt(ks, key, klen), 1);
      memcpy(ctr, iv, 16);
      aes_ctr128_blocks(ks, ctr, pt, out, NBLK);
      CHECK_MEM(out, ref, sizeof pt);
      memcpy(ctr, iv, 16);
      for (int b = 0; b < NBLK; b++) aes_ctr128_blocks(ks, ctr, pt + 16 * b, out + 16 * b, 1);
      CHECK_MEM(out, ref, sizeof pt);
      CHECK_MEM(ctr, want_ctr, 16);
      aes_ks_wipe(ks);
      fm_aes_key_wipe(&k);
      if (test_failures) fprintf(stderr, "  ctr128 wrap: path %s start %s\n", path, starts[s]);
    }
  }
}

/* ctr32_counter_blocks writes the |n| CTR32 counter blocks that start at |iv|: the first 96 bits
 * as they are, the last 32 bits incremented mod 2^32. */
static void ctr32_counter_blocks(const uint8_t iv[16], size_t n, uint8_t *blocks) {
  const uint32_t c0 =
      (uint32_t)iv[12] << 24 | (uint32_t)iv[13] << 16 | (uint32_t)iv[14] << 8 | iv[15];
  for (size_t b = 0; b < n; b++) {
    const uint32_t c = c0 + (uint32_t)b; /* mod 2^32 */
    memcpy(blocks + 16 * b, iv, 12);
    blocks[16 * b + 12] = (uint8_t)(c >> 24);
    blocks[16 * b + 13] = (uint8_t)(c >> 16);
    blocks[16 * b + 14] = (uint8_t)(c >> 8);
    blocks[16 * b + 15] = (uint8_t)c;
  }
}

/* set_ctr32 sets the last 32 bits of |ctr| to |c| (big-endian). */
static void set_ctr32(uint8_t ctr[16], uint32_t c) {
  ctr[12] = (uint8_t)(c >> 24);
  ctr[13] = (uint8_t)(c >> 16);
  ctr[14] = (uint8_t)(c >> 8);
  ctr[15] = (uint8_t)c;
}

/* The internal CTR32 kernel (aes_ctr32_blocks, for module-internal users that bound their own
 * lengths) wraps the last 32 bits mod 2^32 and never changes the first 96, compared with ECB
 * encryption of the expected counter blocks; the public API refuses the same requests. */
static void test_ctr32_kernel_wraps_upper_96_bits_kept(const char *path) {
  static const char *const starts[] = {
      "000102030405060708090a0bfffffffe",
      "ffffffffffffffffffffffffffffffd3",
      "a5a5a5a5a5a5a5a5a5a5a5a5ffffffff",
  };
  uint8_t key[32], iv[16], ctr[16], pt[16 * NBLK], out[16 * NBLK], blocks[16 * NBLK],
      ref[16 * NBLK];
  for (size_t klen = 16; klen <= 32; klen += 8) {
    for (size_t s = 0; s < sizeof starts / sizeof starts[0]; s++) {
      test_rng_bytes(&g_rng, key, klen);
      test_rng_bytes(&g_rng, pt, sizeof pt);
      CHECK(test_hex_decode(starts[s], iv, 16) == 16);
      fm_aes_key k;
      CHECK_EQ_INT(fm_aes_key_init(&k, key, klen), FM_OK);
      ctr32_counter_blocks(iv, NBLK, blocks);
      CHECK_EQ_INT(fm_aes_ecb_encrypt(&k, blocks, ref, sizeof blocks), FM_OK);
      for (size_t i = 0; i < sizeof pt; i++) ref[i] ^= pt[i];
      aes_ks ks;
      CHECK_EQ_INT(aes_ks_init_encrypt(&ks, key, klen), 1);
      memcpy(ctr, iv, 16);
      aes_ctr32_blocks(&ks, ctr, pt, out, NBLK);
      CHECK_MEM(out, ref, sizeof pt);
      CHECK_MEM(ctr, iv, 12);
      const uint32_t end = (uint32_t)ctr[12] << 24 | (uint32_t)ctr[13] << 16 |
                           (uint32_t)ctr[14] << 8 | ctr[15];
      const uint32_t c0 = (uint32_t)iv[12] << 24 | (uint32_t)iv[13] << 16 |
                          (uint32_t)iv[14] << 8 | iv[15];
      CHECK_EQ_INT(end, (uint32_t)(c0 + NBLK));
      aes_ks_wipe(&ks);
      memcpy(ctr, iv, 16);
      CHECK_EQ_INT(fm_aes_ctr(&k, FM_AES_CTR32, ctr, pt, out, sizeof pt), FM_ERR_LENGTH);
      CHECK_MEM(ctr, iv, 16);
      fm_aes_key_wipe(&k);
      if (test_failures) {
        fprintf(stderr, "  ctr32 kernel wrap: path %s start %s\n", path, starts[s]);
      }
    }
  }
}

/* FM_AES_CTR32 never wraps in the public API (SP 800-38A B.1: distinct counter blocks). A message
 * whose last block uses counter 0xfffffffe succeeds, one-shot and streamed, and gives the key
 * stream of the expected counter blocks, leaving the last 32 bits at 0xffffffff (not wrapped to
 * 0, where a next call would repeat the key stream of block 0); one block more, or a next call
 * from the spent counter, fails with FM_ERR_LENGTH before anything is written: output, counter
 * and (streamed) the position are as they were, the buffered key stream dropped. Block counts reach every path's widest loop and
 * tail; trailing partial blocks count as one. */
static void test_ctr32_refuses_to_wrap(const char *path) {
  static const size_t counts[] = {1, 2, 4, 5, 7, 8, 9, 16, 17, 31, 32, 33, NBLK};
  uint8_t key[32], iv[16], ctr[16], ksbuf[16], pt[16 * (NBLK + 1)], out[16 * (NBLK + 1)],
      blocks[16 * NBLK], ref[16 * NBLK];
  const int failures_before = test_failures;
  for (size_t klen = 16; klen <= 32; klen += 8) {
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
      for (int partial = 0; partial <= 1; partial++) {
        const size_t n = counts[c];
        const size_t len = partial ? 16 * n - 9 : 16 * n; /* n blocks either way */
        test_rng_bytes(&g_rng, key, klen);
        test_rng_bytes(&g_rng, pt, sizeof pt);
        test_rng_bytes(&g_rng, iv, 12);
        set_ctr32(iv, (uint32_t)(0xffffffffull - n)); /* the last block uses 0xfffffffe */
        fm_aes_key k;
        CHECK_EQ_INT(fm_aes_key_init(&k, key, klen), FM_OK);
        ctr32_counter_blocks(iv, n, blocks);
        CHECK_EQ_INT(fm_aes_ecb_encrypt(&k, blocks, ref, 16 * n), FM_OK);
        for (size_t i = 0; i < len; i++) ref[i] ^= pt[i];
        uint8_t spent[16];
        memcpy(spent, iv, 12);
        set_ctr32(spent, 0xffffffffu);

        /* One-shot, up to the boundary. */
        memcpy(ctr, iv, 16);
        CHECK_EQ_INT(fm_aes_ctr(&k, FM_AES_CTR32, ctr, pt, out, len), FM_OK);
        CHECK_MEM(out, ref, len);
        CHECK_MEM(ctr, spent, 16);
        /* The spent counter gives no further block, one-shot or streamed. */
        memset(out, FILL, sizeof out);
        CHECK_EQ_INT(fm_aes_ctr(&k, FM_AES_CTR32, ctr, pt, out, 1), FM_ERR_LENGTH);
        CHECK(all_bytes_are(out, FILL, sizeof out));
        CHECK_MEM(ctr, spent, 16);
        {
          unsigned fresh = 16;
          CHECK_EQ_INT(fm_aes_ctr_stream(&k, FM_AES_CTR32, ctr, ksbuf, &fresh, pt, out, 1),
                       FM_ERR_LENGTH);
          CHECK_MEM(ctr, spent, 16);
        }

        /* One-shot, one block past it: the counter starts one later (when that is not 2^32, a
         * fresh start), or the message is one byte longer than its blocks hold. */
        memset(out, FILL, sizeof out);
        if (n >= 2) {
          uint8_t late[16];
          memcpy(late, iv, 16);
          set_ctr32(late, (uint32_t)(0xffffffffull - n + 1));
          memcpy(ctr, late, 16);
          CHECK_EQ_INT(fm_aes_ctr(&k, FM_AES_CTR32, ctr, pt, out, len), FM_ERR_LENGTH);
          CHECK(all_bytes_are(out, FILL, sizeof out));
          CHECK_MEM(ctr, late, 16);
        }
        memcpy(ctr, iv, 16);
        CHECK_EQ_INT(fm_aes_ctr(&k, FM_AES_CTR32, ctr, pt, out, 16 * n + 1), FM_ERR_LENGTH);
        CHECK(all_bytes_are(out, FILL, sizeof out));
        CHECK_MEM(ctr, iv, 16);

        /* Streamed in two pieces, up to the boundary: the first piece ends inside a block and
         * leaves key stream buffered (that of the last block, possibly), which the second uses
         * before its new blocks. */
        size_t first = 1 + (size_t)test_rng_below(&g_rng, len - 1);
        if (first % 16 == 0) first--;
        unsigned used = 16;
        memcpy(ctr, iv, 16);
        memset(out, FILL, sizeof out);
        CHECK_EQ_INT(fm_aes_ctr_stream(&k, FM_AES_CTR32, ctr, ksbuf, &used, pt, out, first), FM_OK);
        CHECK_EQ_INT(fm_aes_ctr_stream(&k, FM_AES_CTR32, ctr, ksbuf, &used, pt + first,
                                       out + first, len - first),
                     FM_OK);
        CHECK_MEM(out, ref, len);
        CHECK_MEM(ctr, spent, 16);

        /* Streamed, the second piece one byte past the last block's end. */
        used = 16;
        memcpy(ctr, iv, 16);
        CHECK_EQ_INT(fm_aes_ctr_stream(&k, FM_AES_CTR32, ctr, ksbuf, &used, pt, out, first), FM_OK);
        uint8_t mid[16];
        memcpy(mid, ctr, 16);
        memset(out, FILL, sizeof out);
        CHECK_EQ_INT(fm_aes_ctr_stream(&k, FM_AES_CTR32, ctr, ksbuf, &used, pt + first,
                                       out + first, 16 * n + 1 - first),
                     FM_ERR_LENGTH);
        CHECK(all_bytes_are(out, FILL, sizeof out));
        CHECK_MEM(ctr, mid, 16);
        CHECK_EQ_INT(used, 16);
        CHECK(test_is_all_zero(ksbuf, sizeof ksbuf));

        fm_aes_key_wipe(&k);
        if (test_failures != failures_before) {
          fprintf(stderr, "  ctr32 boundary: path %s klen %zu blocks %zu len %zu\n", path, klen, n,
                  len);
          return;
        }
      }
    }
  }
}

/* Any split of a message through fm_aes_ctr_stream gives the one-shot result, in place too. */
static void test_ctr_stream_any_split(const char *path) {
  enum { LEN = 700 };
  uint8_t key[32], iv[16], ctr[16], ksbuf[16], pt[LEN], ref[LEN], out[LEN], ref_ctr[16];
  for (int trial = 0; trial < 200; trial++) {
    const size_t klen = 16 + 8 * (size_t)(trial % 3);
    const fm_aes_ctr_width width = (trial & 2) ? FM_AES_CTR128 : FM_AES_CTR32;
    const size_t len = (size_t)test_rng_below(&g_rng, LEN + 1);
    test_rng_bytes(&g_rng, key, klen);
    test_rng_bytes(&g_rng, iv, 16);
    if (trial % 5 == 0) {
      /* Near a carry; for CTR32 right at the end of the counter space: the last block uses
       * 0xfffffffe. */
      memset(iv + 8, 0xff, 8);
      if (width == FM_AES_CTR32) set_ctr32(iv, (uint32_t)(0xffffffffull - (len + 15) / 16));
    }
    test_rng_bytes(&g_rng, pt, len);
    fm_aes_key k;
    CHECK_EQ_INT(fm_aes_key_init(&k, key, klen), FM_OK);
    memcpy(ref_ctr, iv, 16);
    CHECK_EQ_INT(fm_aes_ctr(&k, width, ref_ctr, pt, ref, len), FM_OK);

    const int in_place = trial % 3 == 0;
    if (in_place) memcpy(out, pt, len);
    memcpy(ctr, iv, 16);
    unsigned used = 16;
    size_t done = 0;
    while (done < len) {
      size_t piece = (size_t)test_rng_below(&g_rng, 4) == 0 ? (size_t)test_rng_below(&g_rng, 100)
                                                            : (size_t)test_rng_below(&g_rng, 20);
      if (piece > len - done) piece = len - done;
      CHECK_EQ_INT(fm_aes_ctr_stream(&k, width, ctr, ksbuf, &used,
                                     in_place ? out + done : pt + done, out + done, piece),
                   FM_OK);
      CHECK(used <= 16);
      done += piece;
    }
    CHECK_MEM(out, ref, len);
    /* Both end on the same counter: a trailing partial block counts as one. */
    CHECK_MEM(ctr, ref_ctr, 16);
    fm_aes_key_wipe(&k);
    if (test_failures) {
      fprintf(stderr, "  stream split: path %s trial %d len %zu\n", path, trial, len);
      return;
    }
  }
}

/* fm_aes_ctr advances the counter by ceil(len / 16). */
static void test_ctr_partial_block_counter(void) {
  uint8_t key[16] = {1}, ctr[16] = {0}, in[20] = {0}, out[20];
  fm_aes_key k;
  CHECK_EQ_INT(fm_aes_key_init(&k, key, 16), FM_OK);
  CHECK_EQ_INT(fm_aes_ctr(&k, FM_AES_CTR128, ctr, in, out, 20), FM_OK);
  CHECK_EQ_INT(ctr[15], 2);
  CHECK_EQ_INT(fm_aes_ctr(&k, FM_AES_CTR128, ctr, in, out, 1), FM_OK);
  CHECK_EQ_INT(ctr[15], 3);
  CHECK_EQ_INT(fm_aes_ctr(&k, FM_AES_CTR128, ctr, in, out, 0), FM_OK);
  CHECK_EQ_INT(ctr[15], 3);
  fm_aes_key_wipe(&k);
}

/* CBC over several calls continues one message: the IV carries the last ciphertext block. */
static void test_cbc_chaining_across_calls(const char *path) {
  enum { NB = 40 };
  uint8_t key[32], iv[16], ivw[16], pt[16 * NB], ref[16 * NB], out[16 * NB];
  for (int trial = 0; trial < 50; trial++) {
    const size_t klen = 16 + 8 * (size_t)(trial % 3);
    test_rng_bytes(&g_rng, key, klen);
    test_rng_bytes(&g_rng, iv, 16);
    test_rng_bytes(&g_rng, pt, sizeof pt);
    fm_aes_key k;
    CHECK_EQ_INT(fm_aes_key_init(&k, key, klen), FM_OK);
    memcpy(ivw, iv, 16);
    CHECK_EQ_INT(fm_aes_cbc_encrypt(&k, ivw, pt, ref, sizeof pt), FM_OK);
    /* Encrypt in random block-multiple pieces. */
    memcpy(ivw, iv, 16);
    for (size_t done = 0; done < NB;) {
      size_t piece = 1 + (size_t)test_rng_below(&g_rng, 20);
      if (piece > NB - done) piece = NB - done;
      CHECK_EQ_INT(fm_aes_cbc_encrypt(&k, ivw, pt + 16 * done, out + 16 * done, 16 * piece), FM_OK);
      done += piece;
    }
    CHECK_MEM(out, ref, sizeof pt);
    CHECK_MEM(ivw, ref + 16 * (NB - 1), 16);
    /* Decrypt in other pieces, in place. */
    memcpy(ivw, iv, 16);
    for (size_t done = 0; done < NB;) {
      size_t piece = 1 + (size_t)test_rng_below(&g_rng, 20);
      if (piece > NB - done) piece = NB - done;
      CHECK_EQ_INT(fm_aes_cbc_decrypt(&k, ivw, out + 16 * done, out + 16 * done, 16 * piece),
                   FM_OK);
      done += piece;
    }
    CHECK_MEM(out, pt, sizeof pt);
    CHECK_MEM(ivw, ref + 16 * (NB - 1), 16);
    fm_aes_key_wipe(&k);
    if (test_failures) {
      fprintf(stderr, "  cbc chaining: path %s trial %d\n", path, trial);
      return;
    }
  }
}

/* every_path runs |fn| on every bulk width this CPU has. */
static void every_path(void (*fn)(const char *path)) {
  int paths[3];
  const int n = aes_test_paths(paths);
  for (int i = 0; i < n; i++) {
    aes_limit_path_for_testing(paths[i]);
    fn(aes_test_path_name(paths[i]));
  }
  aes_limit_path_for_testing(0);
}

static void test_ctr128_wrap_every_path(void) { every_path(test_ctr128_wrap); }
static void test_ctr32_kernel_wraps_upper_96_bits_kept_every_path(void) {
  every_path(test_ctr32_kernel_wraps_upper_96_bits_kept);
}
static void test_ctr32_refuses_to_wrap_every_path(void) { every_path(test_ctr32_refuses_to_wrap); }
static void test_ctr_stream_any_split_every_path(void) { every_path(test_ctr_stream_any_split); }
static void test_cbc_chaining_across_calls_every_path(void) {
  every_path(test_cbc_chaining_across_calls);
}

static const test_case cases[] = {
  TEST_CASE(ctr_partial_block_counter),
  TEST_CASE(ctr128_wrap_every_path),
  TEST_CASE(ctr32_kernel_wraps_upper_96_bits_kept_every_path),
  TEST_CASE(ctr32_refuses_to_wrap_every_path),
  TEST_CASE(ctr_stream_any_split_every_path),
  TEST_CASE(cbc_chaining_across_calls_every_path),
};

int main(int argc, char **argv) {
  test_rng_seed(&g_rng, "test_aes_modes");
  return TEST_RUN(argc, argv, "test_aes_modes", cases);
}
