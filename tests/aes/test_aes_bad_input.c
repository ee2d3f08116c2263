/* Bad input for every function of fipsmod/aes.h: NULL pointers, zero lengths (valid no-ops), key
 * sizes other than 16 and 32, lengths that are not block multiples, overlapping buffers, key
 * schedules that were never initialized or were wiped, bad counter widths and a bad *ks_used.
 * Every failing call must return the documented status and leave its output zeroed, except where
 * the length itself is invalid: then the output is not touched at all. Huge claimed lengths on
 * small buffers (a length past the end of the address space, more CTR32 blocks than the counter
 * has left, not whole blocks) must be refused without a write past the buffer. */
#include <stdint.h>
#include <string.h>

#include "fipsmod/aes.h"
#include "tests/common/test_util.h"

#define FILL 0xa5

static uint8_t g_key[32] = {0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6, 0xab, 0xf7, 0x15,
                            0x88, 0x09, 0xcf, 0x4f, 0x3c, 1,    2,    3,    4,    5,    6,
                            7,    8,    9,    10,   11,   12,   13,   14,   15,   16};

/* all_fill: the |len| bytes at |p| still hold FILL (the call did not touch them). */
static int all_fill(const uint8_t *p, size_t len) {
  for (size_t i = 0; i < len; i++) {
    if (p[i] != FILL) return 0;
  }
  return 1;
}

static void good_key(fm_aes_key *k, size_t len) {
  CHECK_EQ_INT(fm_aes_key_init(k, g_key, len), FM_OK);
}

static void test_key_init(void) {
  fm_aes_key k;
  static const size_t bad_sizes[] = {0, 1, 15, 17, 20, 23, 25, 28, 31, 33, 64};
  for (size_t i = 0; i < sizeof bad_sizes / sizeof bad_sizes[0]; i++) {
    memset(&k, FILL, sizeof k);
    CHECK_EQ_INT(fm_aes_key_init(&k, g_key, bad_sizes[i]), FM_ERR_KEY_SIZE);
    CHECK(test_is_all_zero(&k, sizeof k));
  }
  memset(&k, FILL, sizeof k);
  CHECK_EQ_INT(fm_aes_key_init(&k, NULL, 16), FM_ERR_BAD_ARGUMENT);
  CHECK(test_is_all_zero(&k, sizeof k));
  CHECK_EQ_INT(fm_aes_key_init(NULL, g_key, 16), FM_ERR_BAD_ARGUMENT);

  /* A key inside the schedule it is expanded into. */
  memset(&k, FILL, sizeof k);
  CHECK_EQ_INT(fm_aes_key_init(&k, (const uint8_t *)k.opaque + 100, 32), FM_ERR_OVERLAP);
  CHECK(test_is_all_zero(&k, sizeof k));

  /* A failed re-initialization leaves no usable schedule behind. */
  uint8_t in[16] = {0}, out[16];
  good_key(&k, 32);
  CHECK_EQ_INT(fm_aes_key_init(&k, g_key, 20), FM_ERR_KEY_SIZE);
  CHECK_EQ_INT(fm_aes_ecb_encrypt(&k, in, out, 16), FM_ERR_STATE);
  good_key(&k, 24);
  CHECK_EQ_INT(fm_aes_key_init(&k, g_key, 28), FM_ERR_KEY_SIZE);
  CHECK_EQ_INT(fm_aes_ecb_encrypt(&k, in, out, 16), FM_ERR_STATE);
}

static void test_key_wipe(void) {
  fm_aes_key k;
  CHECK_EQ_INT(fm_aes_key_wipe(NULL), FM_OK);
  good_key(&k, 16);
  CHECK_EQ_INT(fm_aes_key_wipe(&k), FM_OK);
  CHECK(test_is_all_zero(&k, sizeof k));
  CHECK_EQ_INT(fm_aes_key_wipe(&k), FM_OK); /* twice is fine */
}

/* The schedule-state cases shared by every cipher function: never initialized (zeroed, or
 * random garbage), and wiped after use. */
typedef int (*block_fn)(const fm_aes_key *, const uint8_t *, uint8_t *, size_t);

static void fill_garbage(fm_aes_key *k, int which) {
  if (which == 0) {
    memset(k, 0, sizeof *k);
  } else if (which == 1) {
    memset(k, 0x5a, sizeof *k);
  } else {
    good_key(k, 16);
    fm_aes_key_wipe(k);
  }
}

static void test_ecb(block_fn fn, const char *name) {
  fm_aes_key k;
  uint8_t in[64] = {0}, out[64], buf[80];
  good_key(&k, 32);

  /* Zero length: valid and does nothing, also with NULL buffers. */
  memset(out, FILL, sizeof out);
  CHECK_EQ_INT(fn(&k, in, out, 0), FM_OK);
  CHECK_EQ_INT(out[0], FILL);
  CHECK_EQ_INT(fn(&k, NULL, NULL, 0), FM_OK);

  /* Lengths that are not block multiples: the length is the error, so out is not touched. */
  static const size_t bad_len[] = {1, 15, 17, 31, 63};
  for (size_t i = 0; i < sizeof bad_len / sizeof bad_len[0]; i++) {
    memset(out, FILL, sizeof out);
    CHECK_EQ_INT(fn(&k, in, out, bad_len[i]), FM_ERR_LENGTH);
    CHECK(all_fill(out, sizeof out));
  }

  /* NULL pointers. */
  memset(out, FILL, sizeof out);
  CHECK_EQ_INT(fn(NULL, in, out, 16), FM_ERR_BAD_ARGUMENT);
  CHECK(test_is_all_zero(out, 16));
  memset(out, FILL, sizeof out);
  CHECK_EQ_INT(fn(&k, NULL, out, 16), FM_ERR_BAD_ARGUMENT);
  CHECK(test_is_all_zero(out, 16));
  CHECK_EQ_INT(fn(&k, in, NULL, 16), FM_ERR_BAD_ARGUMENT);

  /* Partial overlap either way; exact in-place is allowed. */
  memset(buf, FILL, sizeof buf);
  CHECK_EQ_INT(fn(&k, buf, buf + 1, 64), FM_ERR_OVERLAP);
  CHECK(test_is_all_zero(buf + 1, 64));
  memset(buf, FILL, sizeof buf);
  CHECK_EQ_INT(fn(&k, buf + 16, buf, 64), FM_ERR_OVERLAP);
  CHECK(test_is_all_zero(buf, 64));
  CHECK_EQ_INT(fn(&k, buf, buf, 64), FM_OK);

  /* Schedules that are not usable. */
  for (int which = 0; which < 3; which++) {
    fm_aes_key bad;
    fill_garbage(&bad, which);
    memset(out, FILL, sizeof out);
    CHECK_EQ_INT(fn(&bad, in, out, 32), FM_ERR_STATE);
    CHECK(test_is_all_zero(out, 32));
  }
  fm_aes_key_wipe(&k);
  if (test_failures) fprintf(stderr, "  in %s\n", name);
}

typedef int (*cbc_fn)(const fm_aes_key *, uint8_t *, const uint8_t *, uint8_t *, size_t);

static void test_cbc(cbc_fn fn, const char *name) {
  fm_aes_key k;
  uint8_t iv[16], iv0[16], in[64] = {0}, out[64], buf[96];
  memset(iv0, 0x3c, sizeof iv0);
  good_key(&k, 16);

  /* Zero length: valid, and the IV does not move. */
  memcpy(iv, iv0, 16);
  CHECK_EQ_INT(fn(&k, iv, NULL, NULL, 0), FM_OK);
  CHECK_MEM(iv, iv0, 16);

  /* Errors leave the IV as it was and zero the output, unless the length is the error. */
  memcpy(iv, iv0, 16);
  memset(out, FILL, sizeof out);
  CHECK_EQ_INT(fn(&k, iv, in, out, 33), FM_ERR_LENGTH);
  CHECK(all_fill(out, sizeof out));
  CHECK_MEM(iv, iv0, 16);

  memset(out, FILL, sizeof out);
  CHECK_EQ_INT(fn(&k, NULL, in, out, 16), FM_ERR_BAD_ARGUMENT);
  CHECK(test_is_all_zero(out, 16));
  memset(out, FILL, sizeof out);
  CHECK_EQ_INT(fn(NULL, iv, in, out, 16), FM_ERR_BAD_ARGUMENT);
  CHECK(test_is_all_zero(out, 16));
  memset(out, FILL, sizeof out);
  CHECK_EQ_INT(fn(&k, iv, NULL, out, 16), FM_ERR_BAD_ARGUMENT);
  CHECK(test_is_all_zero(out, 16));
  CHECK_EQ_INT(fn(&k, iv, in, NULL, 16), FM_ERR_BAD_ARGUMENT);
  CHECK_MEM(iv, iv0, 16);

  memset(buf, FILL, sizeof buf);
  CHECK_EQ_INT(fn(&k, iv, buf, buf + 8, 64), FM_ERR_OVERLAP);
  CHECK(test_is_all_zero(buf + 8, 64));
  /* The IV may not lie inside the output. */
  memset(buf, FILL, sizeof buf);
  memcpy(buf + 64, iv0, 16);
  CHECK_EQ_INT(fn(&k, buf + 48, in, buf, 64), FM_ERR_OVERLAP);
  CHECK(test_is_all_zero(buf, 64));

  for (int which = 0; which < 3; which++) {
    fm_aes_key bad;
    fill_garbage(&bad, which);
    memcpy(iv, iv0, 16);
    memset(out, FILL, sizeof out);
    CHECK_EQ_INT(fn(&bad, iv, in, out, 48), FM_ERR_STATE);
    CHECK(test_is_all_zero(out, 48));
    CHECK_MEM(iv, iv0, 16);
  }
  fm_aes_key_wipe(&k);
  if (test_failures) fprintf(stderr, "  in %s\n", name);
}

static void test_ctr(void) {
  fm_aes_key k;
  uint8_t ctr[16], ctr0[16], in[64] = {0}, out[64], buf[96];
  memset(ctr0, 0xfe, sizeof ctr0);
  good_key(&k, 32);

  memcpy(ctr, ctr0, 16);
  CHECK_EQ_INT(fm_aes_ctr(&k, FM_AES_CTR128, ctr, NULL, NULL, 0), FM_OK);
  CHECK_MEM(ctr, ctr0, 16);
  /* Any length is fine. */
  CHECK_EQ_INT(fm_aes_ctr(&k, FM_AES_CTR32, ctr, in, out, 7), FM_OK);

  static const int bad_width[] = {0, 1, 31, 33, 64, 127, 129, 256, -32};
  for (size_t i = 0; i < sizeof bad_width / sizeof bad_width[0]; i++) {
    memset(out, FILL, sizeof out);
    CHECK_EQ_INT(fm_aes_ctr(&k, (fm_aes_ctr_width)bad_width[i], ctr, in, out, 20),
                 FM_ERR_BAD_ARGUMENT);
    CHECK(test_is_all_zero(out, 20));
  }
  memcpy(ctr, ctr0, 16);
  memset(out, FILL, sizeof out);
  CHECK_EQ_INT(fm_aes_ctr(NULL, FM_AES_CTR128, ctr, in, out, 20), FM_ERR_BAD_ARGUMENT);
  CHECK(test_is_all_zero(out, 20));
  memset(out, FILL, sizeof out);
  CHECK_EQ_INT(fm_aes_ctr(&k, FM_AES_CTR128, NULL, in, out, 20), FM_ERR_BAD_ARGUMENT);
  CHECK(test_is_all_zero(out, 20));
  memset(out, FILL, sizeof out);
  CHECK_EQ_INT(fm_aes_ctr(&k, FM_AES_CTR128, ctr, NULL, out, 20), FM_ERR_BAD_ARGUMENT);
  CHECK(test_is_all_zero(out, 20));
  CHECK_EQ_INT(fm_aes_ctr(&k, FM_AES_CTR128, ctr, in, NULL, 20), FM_ERR_BAD_ARGUMENT);
  CHECK_MEM(ctr, ctr0, 16);

  memset(buf, FILL, sizeof buf);
  CHECK_EQ_INT(fm_aes_ctr(&k, FM_AES_CTR128, ctr, buf, buf + 3, 50), FM_ERR_OVERLAP);
  CHECK(test_is_all_zero(buf + 3, 50));
  memset(buf, FILL, sizeof buf);
  CHECK_EQ_INT(fm_aes_ctr(&k, FM_AES_CTR128, buf + 8, in, buf, 40), FM_ERR_OVERLAP);
  CHECK(test_is_all_zero(buf, 40));

  for (int which = 0; which < 3; which++) {
    fm_aes_key bad;
    fill_garbage(&bad, which);
    memset(out, FILL, sizeof out);
    CHECK_EQ_INT(fm_aes_ctr(&bad, FM_AES_CTR128, ctr, in, out, 33), FM_ERR_STATE);
    CHECK(test_is_all_zero(out, 33));
  }
  fm_aes_key_wipe(&k);
  if (test_failures) fprintf(stderr, "  in fm_aes_ctr\n");
}

/* fm_aes_ctr_stream: on error the output and the buffered key stream are zeroed and *ks_used
 * is reset to 16 (nothing buffered). */
static void test_ctr_stream(void) {
  fm_aes_key k;
  uint8_t ctr[16], ks[16], in[64] = {0}, out[64], buf[96];
  unsigned used;
  /* Not a spent CTR32 counter (last 32 bits 0xffffffff): that has no block left (test_aes_modes
   * tests it). */
  memset(ctr, 0x11, sizeof ctr);
  good_key(&k, 16);

/* EXPECT_STREAM_ERROR: |call| fails with |status|, zeroing outp[0..n), the key-stream buffer
 * and resetting *ks_used to 16. */
#define EXPECT_STREAM_ERROR(call, status, outp, n) \
  do {                                             \
    memset(ks, FILL, sizeof ks);                   \
    used = 3;                                      \
    memset((outp), FILL, (n));                     \
    CHECK_EQ_INT(call, status);                    \
    CHECK(test_is_all_zero((outp), (n)));          \
    CHECK(test_is_all_zero(ks, sizeof ks));        \
    CHECK_EQ_INT(used, 16);                        \
  } while (0)

  used = 16;
  CHECK_EQ_INT(fm_aes_ctr_stream(&k, FM_AES_CTR128, ctr, ks, &used, NULL, NULL, 0), FM_OK);
  CHECK_EQ_INT(used, 16);

  /* *ks_used above 16 is a bad argument. */
  memset(ks, FILL, sizeof ks);
  used = 17;
  memset(out, FILL, sizeof out);
  CHECK_EQ_INT(fm_aes_ctr_stream(&k, FM_AES_CTR128, ctr, ks, &used, in, out, 10),
               FM_ERR_BAD_ARGUMENT);
  CHECK(test_is_all_zero(out, 10));
  CHECK(test_is_all_zero(ks, sizeof ks));
  CHECK_EQ_INT(used, 16);

  EXPECT_STREAM_ERROR(fm_aes_ctr_stream(&k, (fm_aes_ctr_width)64, ctr, ks, &used, in, out, 10),
                      FM_ERR_BAD_ARGUMENT, out, 10);
  EXPECT_STREAM_ERROR(fm_aes_ctr_stream(NULL, FM_AES_CTR128, ctr, ks, &used, in, out, 10),
                      FM_ERR_BAD_ARGUMENT, out, 10);
  EXPECT_STREAM_ERROR(fm_aes_ctr_stream(&k, FM_AES_CTR128, NULL, ks, &used, in, out, 10),
                      FM_ERR_BAD_ARGUMENT, out, 10);
  EXPECT_STREAM_ERROR(fm_aes_ctr_stream(&k, FM_AES_CTR128, ctr, ks, &used, NULL, out, 10),
                      FM_ERR_BAD_ARGUMENT, out, 10);
  memset(ks, FILL, sizeof ks);
  used = 3;
  CHECK_EQ_INT(fm_aes_ctr_stream(&k, FM_AES_CTR128, ctr, ks, &used, in, NULL, 10),
               FM_ERR_BAD_ARGUMENT);
  CHECK(test_is_all_zero(ks, sizeof ks));
  CHECK_EQ_INT(used, 16);
  memset(out, FILL, sizeof out);
  CHECK_EQ_INT(fm_aes_ctr_stream(&k, FM_AES_CTR128, ctr, NULL, &used, in, out, 10),
               FM_ERR_BAD_ARGUMENT);
  CHECK(test_is_all_zero(out, 10));
  memset(out, FILL, sizeof out);
  memset(ks, FILL, sizeof ks);
  CHECK_EQ_INT(fm_aes_ctr_stream(&k, FM_AES_CTR128, ctr, ks, NULL, in, out, 10),
               FM_ERR_BAD_ARGUMENT);
  CHECK(test_is_all_zero(out, 10));
  CHECK(test_is_all_zero(ks, sizeof ks));

  EXPECT_STREAM_ERROR(fm_aes_ctr_stream(&k, FM_AES_CTR128, ctr, ks, &used, buf, buf + 1, 40),
                      FM_ERR_OVERLAP, buf + 1, 40);
  /* The key-stream buffer may not lie inside the output. */
  memset(buf, FILL, sizeof buf);
  used = 16;
  CHECK_EQ_INT(fm_aes_ctr_stream(&k, FM_AES_CTR128, ctr, buf + 20, &used, in, buf, 40),
               FM_ERR_OVERLAP);
  CHECK(test_is_all_zero(buf, 40));

  for (int which = 0; which < 3; which++) {
    fm_aes_key bad;
    fill_garbage(&bad, which);
    EXPECT_STREAM_ERROR(fm_aes_ctr_stream(&bad, FM_AES_CTR32, ctr, ks, &used, in, out, 40),
                        FM_ERR_STATE, out, 40);
  }
#undef EXPECT_STREAM_ERROR
  fm_aes_key_wipe(&k);
  if (test_failures) fprintf(stderr, "  in fm_aes_ctr_stream\n");
}

/* Huge claimed lengths on 64-byte buffers, with a good schedule and with bad ones (never
 * initialized, NULL): every call is refused with the status of its first failing check, without
 * writing past the buffer (a wipe of the claimed length would crash), and out, the IV and the
 * counter keep their bytes. Lengths: SIZE_MAX (not whole blocks, and past the end of the address
 * space), SIZE_MAX - 15 (whole blocks, past the end) and, for CTR32, 2^40 (fits in memory, but
 * 2^36 blocks are more than a 32-bit counter has). */
static void test_huge_claimed_lengths(void) {
  fm_aes_key k, zero;
  uint8_t iv[16], iv0[16], ks[16], in[64] = {0}, out[64];
  unsigned used;
  memset(iv0, 0x3c, sizeof iv0);
  memset(&zero, 0, sizeof zero);
  good_key(&k, 32);
  const size_t past_end[] = {SIZE_MAX, SIZE_MAX - 15};
  const fm_aes_key *keys[] = {&k, &zero, NULL};
  const int key_status[] = {FM_ERR_LENGTH, FM_ERR_STATE, FM_ERR_BAD_ARGUMENT};
  for (int kk = 0; kk < 3; kk++) {
    for (int j = 0; j < 2; j++) {
      const size_t len = past_end[j];
      const int want = key_status[kk];
      memset(out, FILL, sizeof out);
      CHECK_EQ_INT(fm_aes_ecb_encrypt(keys[kk], in, out, len), want);
      CHECK_EQ_INT(fm_aes_ecb_decrypt(keys[kk], in, out, len), want);
      memcpy(iv, iv0, 16);
      CHECK_EQ_INT(fm_aes_cbc_encrypt(keys[kk], iv, in, out, len), want);
      CHECK_EQ_INT(fm_aes_cbc_decrypt(keys[kk], iv, in, out, len), want);
      CHECK_MEM(iv, iv0, 16);
      /* In place too: one buffer, the claim running past the end from it. */
      CHECK_EQ_INT(fm_aes_ecb_encrypt(keys[kk], out, out, len), want);
      CHECK_EQ_INT(fm_aes_ctr(keys[kk], FM_AES_CTR128, iv, in, out, len), want);
      CHECK_EQ_INT(fm_aes_ctr(keys[kk], FM_AES_CTR32, iv, in, out, len), want);
      CHECK_EQ_INT(fm_aes_ctr(keys[kk], FM_AES_CTR128, iv, out, out, len), want);
      CHECK_MEM(iv, iv0, 16);
      used = 16;
      CHECK_EQ_INT(fm_aes_ctr_stream(keys[kk], FM_AES_CTR128, iv, ks, &used, in, out, len), want);
      used = 5;
      CHECK_EQ_INT(fm_aes_ctr_stream(keys[kk], FM_AES_CTR32, iv, ks, &used, in, out, len), want);
      CHECK_EQ_INT(used, 16);
      CHECK_MEM(iv, iv0, 16);
      CHECK(all_fill(out, sizeof out));
    }
    /* A length that fits in memory, but not in the 32-bit counter. */
    const size_t len = (size_t)1 << 40;
    memset(out, FILL, sizeof out);
    memcpy(iv, iv0, 16);
    CHECK_EQ_INT(fm_aes_ctr(keys[kk], FM_AES_CTR32, iv, in, out, len), key_status[kk]);
    used = 16;
    CHECK_EQ_INT(fm_aes_ctr_stream(keys[kk], FM_AES_CTR32, iv, ks, &used, in, out, len),
                 key_status[kk]);
    CHECK_MEM(iv, iv0, 16);
    CHECK(all_fill(out, sizeof out));
  }
  /* Bad arguments before the length: a bad width, a NULL counter or key-stream buffer, a bad
   * *ks_used. The huge length is still not used to touch out. */
  memset(out, FILL, sizeof out);
  CHECK_EQ_INT(fm_aes_ctr(&k, (fm_aes_ctr_width)64, iv, in, out, SIZE_MAX), FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_aes_ctr(&k, FM_AES_CTR32, NULL, in, out, SIZE_MAX), FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_aes_cbc_encrypt(&k, NULL, in, out, SIZE_MAX), FM_ERR_BAD_ARGUMENT);
  used = 16;
  CHECK_EQ_INT(fm_aes_ctr_stream(&k, FM_AES_CTR32, iv, NULL, &used, in, out, SIZE_MAX),
               FM_ERR_BAD_ARGUMENT);
  used = 17;
  CHECK_EQ_INT(fm_aes_ctr_stream(&k, FM_AES_CTR32, iv, ks, &used, in, out, SIZE_MAX),
               FM_ERR_BAD_ARGUMENT);
  CHECK(all_fill(out, sizeof out));
  fm_aes_key_wipe(&k);
  if (test_failures) fprintf(stderr, "  in huge claimed lengths\n");
}

static void test_ecb_encrypt(void) { test_ecb(fm_aes_ecb_encrypt, "fm_aes_ecb_encrypt"); }
static void test_ecb_decrypt(void) { test_ecb(fm_aes_ecb_decrypt, "fm_aes_ecb_decrypt"); }
static void test_cbc_encrypt(void) { test_cbc(fm_aes_cbc_encrypt, "fm_aes_cbc_encrypt"); }
static void test_cbc_decrypt(void) { test_cbc(fm_aes_cbc_decrypt, "fm_aes_cbc_decrypt"); }

static const test_case cases[] = {
  TEST_CASE(key_init),    TEST_CASE(key_wipe),    TEST_CASE(ecb_encrypt),
  TEST_CASE(ecb_decrypt), TEST_CASE(cbc_encrypt), TEST_CASE(cbc_decrypt),
  TEST_CASE(ctr),         TEST_CASE(ctr_stream),  TEST_CASE(huge_claimed_lengths),
};

int main(int argc, char **argv) { return TEST_RUN(argc, argv, "test_aes_bad_input", cases); }
