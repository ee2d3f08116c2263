/* GCM behaviours other than the known answers: the module-built IVs (SP 800-38D 8.2.1 counter
 * layout, 8.2.2 random IVs differ), the 8.3 invocation limits, tag lengths, refused arguments
 * (status, and exactly which outputs are wiped), streaming order rules, and the state gate (a
 * child process forced into ERROR gets FM_ERR_NOT_OPERATIONAL with its outputs wiped). */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fipsmod/gcm.h"
#include "module/aes/internal.h"
#include "module/internal.h"
#include "tests/common/test_util.h"

static const uint8_t k_key[32] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
                                  17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32};

static void test_counter_ivs(void) {
  fm_gcm_key k;
  static const uint8_t fixed[4] = {0xde, 0xad, 0xbe, 0xef};
  CHECK_EQ_INT(fm_gcm_key_init_counter_iv(&k, k_key, 16, fixed), FM_OK);
  uint8_t iv[12], tag[16], ct[5], pt[5] = {1, 2, 3, 4, 5}, back[5];
  uint64_t first = 0;
  for (uint64_t n = 0; n < 3; n++) {
    CHECK_EQ_INT(fm_gcm_seal(&k, iv, NULL, 0, pt, 5, ct, tag, 16), FM_OK);
    /* fixed field || 64-bit big-endian invocation field, one more each time from the instance's
     * (random) first value */
    CHECK_MEM(iv, fixed, 4);
    uint64_t field = 0;
    for (int i = 4; i < 12; i++) field = field << 8 | iv[i];
    if (n == 0) first = field;
    CHECK(field == first + n);
    CHECK_EQ_INT(fm_gcm_open(&k, iv, 12, NULL, 0, ct, 5, tag, 16, back), FM_OK);
    CHECK_MEM(back, pt, 5);
  }
  /* The last invocation field value is never used: the key is exhausted. */
  gcm_set_invocations_for_testing(&k, UINT64_MAX - 1);
  CHECK_EQ_INT(fm_gcm_seal(&k, iv, NULL, 0, pt, 5, ct, tag, 16), FM_OK);
  memset(ct, 0x11, sizeof ct);
  memset(tag, 0x11, sizeof tag);
  memset(iv, 0x11, sizeof iv);
  CHECK_EQ_INT(fm_gcm_seal(&k, iv, NULL, 0, pt, 5, ct, tag, 16), FM_ERR_STATE);
  CHECK(test_is_all_zero(ct, 5) && test_is_all_zero(tag, 16) && test_is_all_zero(iv, 12));
  fm_gcm_key_wipe(&k);
}

static void test_rbg_ivs_and_limit(void) {
  fm_gcm_key k;
  CHECK_EQ_INT(fm_gcm_key_init(&k, k_key, 32), FM_OK);
  uint8_t iv1[12], iv2[12], tag[16], ct[1];
  CHECK_EQ_INT(fm_gcm_seal(&k, iv1, NULL, 0, NULL, 0, ct, tag, 16), FM_OK);
  CHECK_EQ_INT(fm_gcm_seal(&k, iv2, NULL, 0, NULL, 0, ct, tag, 16), FM_OK);
  CHECK(memcmp(iv1, iv2, 12) != 0);
  /* 8.3: 2^32 invocations at most, caller-IV encryptions counted too. */
  gcm_set_invocations_for_testing(&k, (1ull << 32) - 1);
  CHECK_EQ_INT(fm_gcm_seal_with_iv(&k, iv1, 12, NULL, 0, NULL, 0, NULL, tag, 16), FM_OK);
  CHECK_EQ_INT(fm_gcm_seal(&k, iv2, NULL, 0, NULL, 0, NULL, tag, 16), FM_ERR_STATE);
  CHECK_EQ_INT(fm_gcm_seal_with_iv(&k, iv1, 12, NULL, 0, NULL, 0, NULL, tag, 16), FM_ERR_STATE);
  fm_gcm_ctx c;
  CHECK_EQ_INT(fm_gcm_encrypt_init(&c, &k, iv2), FM_ERR_STATE);
  CHECK_EQ_INT(fm_gcm_encrypt_init_with_iv(&c, &k, iv1, 12), FM_ERR_STATE);
  /* Decryption is not limited. */
  CHECK_EQ_INT(fm_gcm_decrypt_init(&c, &k, iv1, 12), FM_OK);
  CHECK_EQ_INT(fm_gcm_ctx_wipe(&c), FM_OK);
  fm_gcm_key_wipe(&k);
}

static void test_tag_lengths(void) {
  fm_gcm_key k;
  CHECK_EQ_INT(fm_gcm_key_init(&k, k_key, 16), FM_OK);
  uint8_t iv[12] = {0}, tag[17], full[16], ct[20], pt[20] = {0}, back[20];
  CHECK_EQ_INT(fm_gcm_seal_with_iv(&k, iv, 12, NULL, 0, pt, 20, ct, full, 16), FM_OK);
  for (size_t t = 0; t <= 17; t++) {
    const bool ok = (t >= 12 && t <= 16) || t == 8 || t == 4;
    memset(tag, 0x77, sizeof tag);
    const int st = fm_gcm_seal_with_iv(&k, iv, 12, NULL, 0, pt, 20, ct, tag, t);
    CHECK_EQ_INT(st, ok ? FM_OK : FM_ERR_LENGTH);
    if (ok) {
      /* A short tag is the leftmost bytes of the full one (MSB_t). */
      CHECK_MEM(tag, full, t);
      CHECK_EQ_INT(fm_gcm_open(&k, iv, 12, NULL, 0, ct, 20, tag, t, back), FM_OK);
      /* Any one bit changed anywhere in the tag (the comparison takes words, then bytes) is a
       * mismatch, and the plaintext is wiped. */
      for (size_t i = 0; i < t; i++) {
        for (int bit = 0; bit < 8; bit += 7) {
          tag[i] ^= (uint8_t)(1u << bit);
          memset(back, 0x33, sizeof back);
          CHECK_EQ_INT(fm_gcm_open(&k, iv, 12, NULL, 0, ct, 20, tag, t, back), FM_ERR_VERIFY);
          CHECK(test_is_all_zero(back, 20));
          tag[i] ^= (uint8_t)(1u << bit);
        }
      }
    } else {
      /* An invalid tag length is never used to write, and the ciphertext is wiped. */
      CHECK(tag[0] == 0x77);
      CHECK(test_is_all_zero(ct, 20));
      CHECK_EQ_INT(fm_gcm_open(&k, iv, 12, NULL, 0, ct, 20, tag, t, back), FM_ERR_LENGTH);
    }
  }
  fm_gcm_key_wipe(&k);
}

static void test_bad_arguments(void) {
  fm_gcm_key k;
  uint8_t key[32] = {0}, iv[12] = {0}, tag[16], buf[64], out[64];
  /* Only 16, 24 and 32 bytes: AES-192's neighbours too. */
  static const size_t bad_sizes[] = {0, 15, 17, 20, 23, 25, 28, 31};
  for (size_t i = 0; i < sizeof bad_sizes / sizeof bad_sizes[0]; i++) {
    memset(&k, 0x5a, sizeof k);
    CHECK_EQ_INT(fm_gcm_key_init(&k, key, bad_sizes[i]), FM_ERR_KEY_SIZE);
    CHECK(test_is_all_zero(&k, sizeof k));
    memset(&k, 0x5a, sizeof k);
    CHECK_EQ_INT(fm_gcm_key_init_counter_iv(&k, key, bad_sizes[i], iv), FM_ERR_KEY_SIZE);
    CHECK(test_is_all_zero(&k, sizeof k));
  }
  CHECK_EQ_INT(fm_gcm_key_init(NULL, key, 16), FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_gcm_key_init(&k, NULL, 16), FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_gcm_key_init_counter_iv(&k, key, 16, NULL), FM_ERR_BAD_ARGUMENT);
  /* A zeroed (never initialized) key. */
  CHECK_EQ_INT(fm_gcm_seal_with_iv(&k, iv, 12, NULL, 0, buf, 16, out, tag, 16), FM_ERR_STATE);
  CHECK_EQ_INT(fm_gcm_open(&k, iv, 12, NULL, 0, buf, 16, tag, 16, out), FM_ERR_STATE);
  CHECK_EQ_INT(fm_gcm_key_init(&k, k_key, 16), FM_OK);
  memset(out, 0x33, sizeof out);
  CHECK_EQ_INT(fm_gcm_seal_with_iv(&k, iv, 12, NULL, 5, buf, 16, out, tag, 16), FM_ERR_BAD_ARGUMENT);
  CHECK(test_is_all_zero(out, 16) && out[16] == 0x33);
  CHECK_EQ_INT(fm_gcm_seal_with_iv(&k, iv, 0, NULL, 0, buf, 16, out, tag, 16), FM_ERR_LENGTH);
  CHECK_EQ_INT(fm_gcm_seal_with_iv(&k, NULL, 12, NULL, 0, buf, 16, out, tag, 16), FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_gcm_seal_with_iv(&k, iv, 12, NULL, 0, buf, 16, out, NULL, 16), FM_ERR_BAD_ARGUMENT);
  /* Overlaps: partial in/out, tag inside the output, IV output inside the data. */
  CHECK_EQ_INT(fm_gcm_seal_with_iv(&k, iv, 12, NULL, 0, buf, 32, buf + 1, tag, 16), FM_ERR_OVERLAP);
  CHECK_EQ_INT(fm_gcm_seal_with_iv(&k, iv, 12, NULL, 0, buf, 32, out, out + 8, 16), FM_ERR_OVERLAP);
  CHECK_EQ_INT(fm_gcm_seal(&k, buf + 4, NULL, 0, buf, 32, buf, tag, 16), FM_ERR_OVERLAP);
  CHECK_EQ_INT(fm_gcm_open(&k, iv, 12, NULL, 0, buf, 32, out + 4, 16, out), FM_ERR_OVERLAP);
  /* A length over the limit is refused without touching memory beyond what the caller has. */
  memset(out, 0x33, sizeof out);
  CHECK_EQ_INT(fm_gcm_seal_with_iv(&k, iv, 12, NULL, 0, buf, (size_t)FM_GCM_MAX_TEXT_LEN + 1, out,
                                   tag, 16),
               FM_ERR_LENGTH);
  CHECK(out[0] == 0x33);
  /* In place is allowed. */
  memset(buf, 7, sizeof buf);
  memcpy(out, buf, sizeof out);
  CHECK_EQ_INT(fm_gcm_seal_with_iv(&k, iv, 12, NULL, 0, buf, 64, buf, tag, 16), FM_OK);
  CHECK_EQ_INT(fm_gcm_open(&k, iv, 12, NULL, 0, buf, 64, tag, 16, buf), FM_OK);
  CHECK_MEM(buf, out, 64);
  CHECK_EQ_INT(fm_gcm_key_wipe(&k), FM_OK);
  CHECK(test_is_all_zero(&k, sizeof k));
  CHECK_EQ_INT(fm_gcm_open(&k, iv, 12, NULL, 0, buf, 16, tag, 16, out), FM_ERR_STATE);
}

static void test_streaming_order(void) {
  fm_gcm_key k;
  fm_gcm_ctx c;
  uint8_t iv[12] = {0}, tag[16], buf[32] = {0}, out[32];
  CHECK_EQ_INT(fm_gcm_key_init(&k, k_key, 32), FM_OK);
  CHECK_EQ_INT(fm_gcm_encrypt_init_with_iv(&c, &k, iv, 12), FM_OK);
  CHECK_EQ_INT(fm_gcm_update(&c, buf, out, 5), FM_OK);
  /* AAD after text: refused, and the context is dead. */
  CHECK_EQ_INT(fm_gcm_aad(&c, buf, 3), FM_ERR_STATE);
  CHECK_EQ_INT(fm_gcm_update(&c, buf, out, 5), FM_ERR_STATE);
  CHECK(test_is_all_zero(out, 5));
  /* Finishing the wrong direction, finishing twice. */
  CHECK_EQ_INT(fm_gcm_decrypt_init(&c, &k, iv, 12), FM_OK);
  CHECK_EQ_INT(fm_gcm_encrypt_final(&c, tag, 16), FM_ERR_STATE);
  CHECK_EQ_INT(fm_gcm_encrypt_init_with_iv(&c, &k, iv, 12), FM_OK);
  CHECK_EQ_INT(fm_gcm_encrypt_final(&c, tag, 16), FM_OK);
  CHECK_EQ_INT(fm_gcm_encrypt_final(&c, tag, 16), FM_ERR_STATE);
  CHECK(test_is_all_zero(tag, 16));
  /* A generated IV through the streaming API matches the one-shot open. */
  uint8_t giv[12];
  CHECK_EQ_INT(fm_gcm_encrypt_init(&c, &k, giv), FM_OK);
  CHECK_EQ_INT(fm_gcm_aad(&c, iv, 12), FM_OK);
  CHECK_EQ_INT(fm_gcm_update(&c, buf, out, 32), FM_OK);
  CHECK_EQ_INT(fm_gcm_encrypt_final(&c, tag, 16), FM_OK);
  uint8_t back[32];
  CHECK_EQ_INT(fm_gcm_open(&k, giv, 12, iv, 12, out, 32, tag, 16, back), FM_OK);
  CHECK_MEM(back, buf, 32);
  /* A wrong tag in the streaming decrypt. */
  tag[3] ^= 1;
  CHECK_EQ_INT(fm_gcm_decrypt_init(&c, &k, giv, 12), FM_OK);
  CHECK_EQ_INT(fm_gcm_aad(&c, iv, 12), FM_OK);
  CHECK_EQ_INT(fm_gcm_update(&c, out, back, 32), FM_OK);
  CHECK_EQ_INT(fm_gcm_decrypt_final(&c, tag, 16), FM_ERR_VERIFY);
  CHECK(test_is_all_zero(&c, sizeof c));
  fm_gcm_key_wipe(&k);
}

/* A key on the heap: malloc promises 16-byte alignment, not fm_gcm_key's 64; the wide GHASH
 * paths must not assume more (they once used aligned loads and crashed here). Such a key is
 * undefined behaviour in C, which UBSan builds (FIPSMOD_SANITIZE) rightly refuse, so they skip
 * this test. */
static void test_heap_key_alignment(void) {
#if defined(GCM_TEST_NO_MISALIGNED)
  return;
#endif
  uint8_t *raw = malloc(sizeof(fm_gcm_key) + 128);
  fm_gcm_key *hk = (fm_gcm_key *)(void *)(raw + (64 - ((uintptr_t)raw & 63)) + 16);
  fm_gcm_key sk;
  static uint8_t pt[1024], ct1[1024], ct2[1024];
  uint8_t iv[12] = {5}, t1[16], t2[16];
  memset(pt, 0x3c, sizeof pt);
  CHECK_EQ_INT(fm_gcm_key_init(hk, k_key, 32), FM_OK);
  CHECK_EQ_INT(fm_gcm_key_init(&sk, k_key, 32), FM_OK);
  CHECK_EQ_INT(fm_gcm_seal_with_iv(hk, iv, 12, NULL, 0, pt, sizeof pt, ct1, t1, 16), FM_OK);
  CHECK_EQ_INT(fm_gcm_seal_with_iv(&sk, iv, 12, NULL, 0, pt, sizeof pt, ct2, t2, 16), FM_OK);
  CHECK_MEM(ct1, ct2, sizeof ct1);
  CHECK_MEM(t1, t2, 16);
  fm_gcm_key_wipe(hk);
  fm_gcm_key_wipe(&sk);
  free(raw);
}

#if FM_HAVE_X86_64_PATHS
typedef size_t (*stitched_fn)(const aes_ks *ks, const ghash_key *gk, uint8_t ctr[16],
                              uint64_t y[2], const uint8_t *in, uint8_t *out, size_t nblocks,
                              int decrypt);

/* check_stitched runs a stitched kernel (|pass| blocks a pass) against CTR then GHASH, with the
 * 32-bit counter about to wrap (inc32 must wrap mod 2^32 and leave the first 96 bits alone),
 * both directions, in place and not, for every key size. 40 blocks plus |pass| - 1 must leave
 * the last |pass| - 1 blocks undone (not a whole pass) and nothing past them written. */
static void check_stitched(stitched_fn fn, size_t pass) {
  enum { MAXB = 64 };
  static uint8_t in[16 * MAXB], a[16 * MAXB], b[16 * MAXB];
  const size_t nb = 40 + pass - 1;
  for (size_t i = 0; i < sizeof in; i++) in[i] = (uint8_t)(i * 31 + 7);
  static const uint32_t starts[] = {0xffffffe0u, 0xffffffe1u, 0xfffffff0u, 0xfffffff9u,
                                    0xfffffffbu, 0xffffffffu, 0u,          7u};
  for (size_t klen = 16; klen <= 32; klen += 8) {
    aes_ks ks;
    ghash_key gk;
    uint8_t h[16] = {0};
    CHECK_EQ_INT(aes_ks_init_encrypt(&ks, k_key, klen), 1);
    aes_encrypt_block(&ks, h, h);
    ghash_key_init(&gk, h);
    for (size_t si = 0; si < sizeof starts / sizeof starts[0]; si++) {
      const uint32_t start = starts[si];
      for (int dec = 0; dec < 2; dec++) {
        for (int in_place = 0; in_place < 2; in_place++) {
          uint8_t c1[16] = {9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0xff, 0xfe}, c2[16];
          c1[12] = (uint8_t)(start >> 24), c1[13] = (uint8_t)(start >> 16);
          c1[14] = (uint8_t)(start >> 8), c1[15] = (uint8_t)start;
          memcpy(c2, c1, 16);
          uint64_t y1[2] = {1, 2}, y2[2] = {1, 2};
          memcpy(a, in, sizeof in);
          memset(b, 0x5a, sizeof b);
          const size_t done = fn(&ks, &gk, c1, y1, a, in_place ? a : b, nb, dec);
          CHECK_EQ_INT(done, (nb / pass) * pass);
          const uint8_t *got = in_place ? a : b;
          uint8_t ref[16 * MAXB];
          if (dec) ghash_blocks_portable(&gk, y2, in, done);
          aes_limit_path_for_testing(AES_PATH_AESNI); /* the 128-bit CTR code as the reference */
          aes_ctr32_blocks(&ks, c2, in, ref, done);
          aes_limit_path_for_testing(0);
          if (!dec) ghash_blocks_portable(&gk, y2, ref, done);
          CHECK_MEM(got, ref, 16 * done);
          /* The blocks after the passes are untouched. */
          if (in_place) {
            CHECK_MEM(a + 16 * done, in + 16 * done, sizeof a - 16 * done);
          } else {
            bool clean = true;
            for (size_t i = 16 * done; i < sizeof b; i++) clean &= b[i] == 0x5a;
            CHECK(clean);
          }
          CHECK_MEM(c1, c2, 16);
          CHECK(y1[0] == y2[0] && y1[1] == y2[1]);
        }
      }
    }
    aes_ks_wipe(&ks);
  }
}

#endif

/* The 512-bit stitched kernel (gcm_vaes.c), 16 blocks a pass. */
static void test_stitched_kernel_counter_wrap(void) {
#if FM_HAVE_X86_64_PATHS
  if (aes_ni_path() != AES_PATH_VAES_AVX512 || ghash_path() != GHASH_PATH_VPCLMUL512) return;
  check_stitched(gcm_vaes512_crypt, 16);
#endif
}

/* The 512-bit kernel's whole-message form (gcm_vaes512_crypt_all): every block count from 0 to
 * 50 (each tail length 0..15 after zero to three passes), with and without the key stream block
 * of a partial last block, both directions, in place and not, AES-128 and AES-256, against CTR
 * then GHASH on the 128-bit code, with the 32-bit counter about to wrap. Nothing past the blocks
 * may be written, and the counter ends one past the last block made. */
static void test_stitched_kernel_tails(void) {
#if FM_HAVE_X86_64_PATHS
  if (aes_ni_path() != AES_PATH_VAES_AVX512 || ghash_path() != GHASH_PATH_VPCLMUL512) return;
  enum { MAXB = 52 };
  static uint8_t in[16 * MAXB], a[16 * MAXB], b[16 * MAXB], ref[16 * MAXB];
  for (size_t i = 0; i < sizeof in; i++) in[i] = (uint8_t)(i * 29 + 3);
  for (size_t klen = 16; klen <= 32; klen += 16) {
    aes_ks ks;
    ghash_key gk;
    uint8_t h[16] = {0};
    CHECK_EQ_INT(aes_ks_init_encrypt(&ks, k_key, klen), 1);
    aes_encrypt_block(&ks, h, h);
    ghash_key_init(&gk, h);
    for (size_t nb = 0; nb <= 50; nb++) {
      for (int want = 0; want < 2; want++) {
        for (int dec = 0; dec < 2; dec++) {
          for (int in_place = 0; in_place < 2; in_place++) {
            uint8_t c1[16] = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 0xff, 0xff, 0xff, 0xf7}, c2[16];
            memcpy(c2, c1, 16);
            uint64_t y1[2] = {5, 6}, y2[2] = {5, 6};
            uint8_t s1[16], s2[16];
            memset(s1, 0xa5, sizeof s1);
            memcpy(a, in, sizeof in);
            memset(b, 0x5a, sizeof b);
            gcm_vaes512_crypt_all(&ks, &gk, c1, y1, a, in_place ? a : b, nb, want ? s1 : NULL,
                                  dec);
            const uint8_t *got = in_place ? a : b;
            if (dec) ghash_blocks_portable(&gk, y2, in, nb);
            aes_limit_path_for_testing(AES_PATH_AESNI);
            aes_ctr32_blocks(&ks, c2, in, ref, nb);
            if (want) aes_ctr32_blocks(&ks, c2, NULL, s2, 1);
            aes_limit_path_for_testing(0);
            if (!dec) ghash_blocks_portable(&gk, y2, ref, nb);
            CHECK_MEM(got, ref, 16 * nb);
            if (in_place) {
              CHECK_MEM(a + 16 * nb, in + 16 * nb, sizeof a - 16 * nb);
            } else {
              bool clean = true;
              for (size_t i = 16 * nb; i < sizeof b; i++) clean &= b[i] == 0x5a;
              CHECK(clean);
            }
            if (want) {
              CHECK_MEM(s1, s2, 16);
            } else {
              bool clean = true;
              for (size_t i = 0; i < sizeof s1; i++) clean &= s1[i] == 0xa5;
              CHECK(clean);
            }
            CHECK_MEM(c1, c2, 16);
            CHECK(y1[0] == y2[0] && y1[1] == y2[1]);
          }
        }
      }
    }
    aes_ks_wipe(&ks);
  }
#endif
}

/* The 256-bit stitched kernel (gcm_vaes256.c), 16 blocks a pass; it needs VAES and VPCLMULQDQ,
 * not AVX-512, so it runs on AVX-512 machines too. */
static void test_stitched256_kernel_counter_wrap(void) {
#if FM_HAVE_X86_64_PATHS
  if (aes_ni_path() < AES_PATH_VAES_AVX2 || ghash_path() < GHASH_PATH_VPCLMUL256) return;
  check_stitched(gcm_vaes256_crypt, 16);
#endif
}

/* Through the API on the pair that gcm.c sends through the 256-bit kernel (VAES-AVX2 with
 * VPCLMULQDQ-256): a message sealed there and on the reference pair (AES-NI with PCLMULQDQ)
 * agrees, and opens, for lengths around the 16-block pass (255..257, 511..513 bytes and more),
 * where the kernel hands its rest to the chunked code. */
static void test_stitched256_dispatch_lengths(void) {
  if (aes_ni_path() < AES_PATH_VAES_AVX2 || ghash_path() < GHASH_PATH_VPCLMUL256) return;
  static uint8_t pt[2048], ct1[2048], ct2[2048];
  for (size_t i = 0; i < sizeof pt; i++) pt[i] = (uint8_t)(i * 13 + 1);
  static const size_t lens[] = {128, 240, 255, 256, 257, 271, 272, 511, 512, 513, 1000, 2048};
  const uint8_t iv[12] = {7, 6, 5};
  for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
    uint8_t t1[16], t2[16];
    fm_gcm_key k;
    CHECK_EQ_INT(fm_gcm_key_init(&k, k_key, 32), FM_OK);
    aes_limit_path_for_testing(AES_PATH_VAES_AVX2);
    ghash_limit_path_for_testing(GHASH_PATH_VPCLMUL256);
    CHECK_EQ_INT(fm_gcm_seal_with_iv(&k, iv, 12, pt, 20, pt, lens[li], ct1, t1, 16), FM_OK);
    aes_limit_path_for_testing(AES_PATH_AESNI);
    ghash_limit_path_for_testing(GHASH_PATH_CLMUL);
    CHECK_EQ_INT(fm_gcm_seal_with_iv(&k, iv, 12, pt, 20, pt, lens[li], ct2, t2, 16), FM_OK);
    aes_limit_path_for_testing(0);
    ghash_limit_path_for_testing(-1);
    CHECK_MEM(ct1, ct2, lens[li]);
    CHECK_MEM(t1, t2, 16);
    aes_limit_path_for_testing(AES_PATH_VAES_AVX2);
    ghash_limit_path_for_testing(GHASH_PATH_VPCLMUL256);
    CHECK_EQ_INT(fm_gcm_open(&k, iv, 12, pt, 20, ct1, lens[li], t1, 16, ct1), FM_OK);
    aes_limit_path_for_testing(0);
    ghash_limit_path_for_testing(-1);
    CHECK_MEM(ct1, pt, lens[li]);
    fm_gcm_key_wipe(&k);
  }
}

/* In a child forced into ERROR every service is refused, outputs wiped. */
static void test_gate(void) {
  pid_t pid = fork();
  if (pid == 0) {
    fm_gcm_key k;
    uint8_t iv[12], tag[16], out[16], in[16] = {0};
    int bad = fm_gcm_key_init(&k, k_key, 16) != FM_OK;
    fm_module_force_error_for_testing();
    memset(out, 0x55, sizeof out);
    memset(tag, 0x55, sizeof tag);
    memset(iv, 0x55, sizeof iv);
    bad |= fm_gcm_seal(&k, iv, NULL, 0, in, 16, out, tag, 16) != FM_ERR_NOT_OPERATIONAL;
    bad |= !test_is_all_zero(out, 16) || !test_is_all_zero(tag, 16) || !test_is_all_zero(iv, 12);
    memset(out, 0x55, sizeof out);
    bad |= fm_gcm_open(&k, iv, 12, NULL, 0, in, 16, tag, 16, out) != FM_ERR_NOT_OPERATIONAL;
    bad |= !test_is_all_zero(out, 16);
    bad |= fm_gcm_key_init(&k, k_key, 16) != FM_ERR_NOT_OPERATIONAL;
    bad |= !test_is_all_zero(&k, sizeof k);
    _exit(bad);
  }
  int status = 0;
  CHECK(waitpid(pid, &status, 0) == pid);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static const test_case cases[] = {
  TEST_CASE(counter_ivs),
  TEST_CASE(rbg_ivs_and_limit),
  TEST_CASE(tag_lengths),
  TEST_CASE(bad_arguments),
  TEST_CASE(streaming_order),
  TEST_CASE(heap_key_alignment),
  TEST_CASE(stitched_kernel_counter_wrap),
  TEST_CASE(stitched_kernel_tails),
  TEST_CASE(stitched256_kernel_counter_wrap),
  TEST_CASE(stitched256_dispatch_lengths),
  TEST_CASE(gate),
};

int main(int argc, char **argv) {
  return TEST_RUN(argc, argv, "test_gcm_unit", cases);
}
