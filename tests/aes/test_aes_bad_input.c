/* Bad input for every function of fipsmod/aes.h: NULL pointers, zero lengths (valid no-ops), key
 * sizes other than 16 and 32, lengths that are not block multiples, overlapping buffers, key
 * schedules that were never initialized or were wiped, bad counter widths and a bad *ks_used.
 * Every failing call must return the documented status and leave its output zeroed. */
#include <string.h>

#include "fipsmod/aes.h"
#include "tests/common/test_util.h"

#define FILL 0xa5

static uint8_t g_key[32] = {0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6, 0xab, 0xf7, 0x15,
                            0x88, 0x09, 0xcf, 0x4f, 0x3c, 1,    2,    3,    4,    5,    6,
                            7,    8,    9,    10,   11,   12,   13,   14,   15,   16};

static void good_key(fm_aes_key *k, size_t len) {
  CHECK_EQ_INT(fm_aes_key_init(k, g_key, len), FM_OK);
}

static void test_key_init(void) {
  fm_aes_key k;
  static const size_t bad_sizes[] = {0, 1, 15, 17, 24, 31, 33, 64};
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
  CHECK_EQ_INT(fm_aes_key_init(&k, g_key, 24), FM_ERR_KEY_SIZE);
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

  /* Lengths that are not block multiples. */
  static const size_t bad_len[] = {1, 15, 17, 31, 63};
  for (size_t i = 0; i < sizeof bad_len / sizeof bad_len[0]; i++) {
    memset(out, FILL, sizeof out);
    CHECK_EQ_INT(fn(&k, in, out, bad_len[i]), FM_ERR_LENGTH);
    CHECK(test_is_all_zero(out, bad_len[i]));
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

  /* Errors zero the output and leave the IV as it was. */
  memcpy(iv, iv0, 16);
  memset(out, FILL, sizeof out);
  CHECK_EQ_INT(fn(&k, iv, in, out, 33), FM_ERR_LENGTH);
  CHECK(test_is_all_zero(out, 33));
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
  memset(ctr, 0, sizeof ctr);
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

int main(void) {
  test_key_init();
  test_key_wipe();
  test_ecb(fm_aes_ecb_encrypt, "fm_aes_ecb_encrypt");
  test_ecb(fm_aes_ecb_decrypt, "fm_aes_ecb_decrypt");
  test_cbc(fm_aes_cbc_encrypt, "fm_aes_cbc_encrypt");
  test_cbc(fm_aes_cbc_decrypt, "fm_aes_cbc_decrypt");
  test_ctr();
  test_ctr_stream();
  return test_main_result("test_aes_bad_input");
}
