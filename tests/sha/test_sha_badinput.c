/* Bad input to every function of include/fipsmod/sha.h and hmac.h: each gets its specific status,
 * never a crash; on failure outputs are wiped over exactly the digest length the call could have
 * written (untouched when that length is unknown) and never written past out_len; contexts used
 * out of order (zeroed, finalized, wiped, garbage) give FM_ERR_STATE. */
#include <string.h>

#include "fipsmod/hmac.h"
#include "fipsmod/sha.h"
#include "module/sha/internal.h"
#include "tests/common/test_util.h"

static const fm_hash_alg k_algs[3] = {FM_HASH_SHA256, FM_HASH_SHA384, FM_HASH_SHA512};
static const int k_bad_algs[] = {0, 11, -1, 0x7fffffff}; /* 1..10 are the hashes of sha.h */
#define N_BAD_ALGS (sizeof k_bad_algs / sizeof k_bad_algs[0])

static const uint8_t k_msg[] = "message";
static const uint8_t k_key[] = "key";

/* is_filled is true when |len| bytes at p all equal |v|. */
static int is_filled(const void *p, uint8_t v, size_t len) {
  const uint8_t *b = p;
  for (size_t i = 0; i < len; i++) {
    if (b[i] != v) return 0;
  }
  return 1;
}

/* wiped_exactly is true when the first |dl| of the |len| bytes at p are zero and the rest still
 * hold the 0xaa fill: a refused call wiped the digest length it could have written, no more. */
static int wiped_exactly(const void *p, size_t dl, size_t len) {
  return test_is_all_zero(p, dl) && is_filled((const uint8_t *)p + dl, 0xaa, len - dl);
}

static size_t dlen_of(fm_hash_alg alg) {
  size_t n = 0;
  CHECK_EQ_INT(fm_hash_digest_len(alg, &n), FM_OK);
  return n;
}

static void test_digest_len(void) {
  size_t n = 99;
  CHECK_EQ_INT(fm_hash_digest_len(FM_HASH_SHA256, NULL), FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_hash_digest_len(FM_HASH_SHA256, &n), FM_OK);
  CHECK_EQ_INT(n, 32);
  CHECK_EQ_INT(fm_hash_digest_len(FM_HASH_SHA384, &n), FM_OK);
  CHECK_EQ_INT(n, 48);
  CHECK_EQ_INT(fm_hash_digest_len(FM_HASH_SHA512, &n), FM_OK);
  CHECK_EQ_INT(n, 64);
  for (size_t i = 0; i < N_BAD_ALGS; i++) {
    CHECK_EQ_INT(fm_hash_digest_len((fm_hash_alg)k_bad_algs[i], &n), FM_ERR_UNSUPPORTED);
  }
}

/* ---- fm_sha_init / update / final / wipe ------------------------------------------------- */

static void test_sha_init(void) {
  fm_sha_ctx ctx;
  CHECK_EQ_INT(fm_sha_init(NULL, FM_HASH_SHA256), FM_ERR_BAD_ARGUMENT);
  for (size_t i = 0; i < N_BAD_ALGS; i++) {
    memset(&ctx, 0xaa, sizeof ctx);
    CHECK_EQ_INT(fm_sha_init(&ctx, (fm_hash_alg)k_bad_algs[i]), FM_ERR_UNSUPPORTED);
    CHECK(test_is_all_zero(&ctx, sizeof ctx));
    CHECK_EQ_INT(fm_sha_update(&ctx, k_msg, 1), FM_ERR_STATE);
  }
  /* Re-initializing a live context starts over. */
  uint8_t a[32], b[32];
  CHECK_EQ_INT(fm_sha_init(&ctx, FM_HASH_SHA256), FM_OK);
  CHECK_EQ_INT(fm_sha_update(&ctx, k_msg, sizeof k_msg), FM_OK);
  CHECK_EQ_INT(fm_sha_init(&ctx, FM_HASH_SHA256), FM_OK);
  CHECK_EQ_INT(fm_sha_final(&ctx, a, sizeof a), FM_OK);
  CHECK_EQ_INT(fm_sha256(NULL, 0, b), FM_OK);
  CHECK_MEM(a, b, 32);
}

static void test_sha_update(void) {
  fm_sha_ctx ctx;
  uint8_t out[64];
  CHECK_EQ_INT(fm_sha_update(NULL, k_msg, 1), FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_sha_update(NULL, NULL, 0), FM_ERR_BAD_ARGUMENT);
  for (int a = 0; a < 3; a++) {
    CHECK_EQ_INT(fm_sha_init(&ctx, k_algs[a]), FM_OK);
    CHECK_EQ_INT(fm_sha_update(&ctx, NULL, 1), FM_ERR_BAD_ARGUMENT);
    CHECK_EQ_INT(fm_sha_update(&ctx, NULL, 0), FM_OK);    /* empty input is valid */
    CHECK_EQ_INT(fm_sha_update(&ctx, k_msg, 0), FM_OK);
    /* The rejected calls left the context usable: the digest is still that of "". */
    uint8_t want[64];
    CHECK_EQ_INT(fm_sha_digest(k_algs[a], NULL, 0, want, sizeof want), FM_OK);
    CHECK_EQ_INT(fm_sha_final(&ctx, out, sizeof out), FM_OK);
    CHECK_MEM(out, want, dlen_of(k_algs[a]));
    /* Update after final. */
    CHECK_EQ_INT(fm_sha_update(&ctx, k_msg, 1), FM_ERR_STATE);
    CHECK_EQ_INT(fm_sha_update(&ctx, NULL, 0), FM_ERR_STATE);
  }
  /* A zeroed context (never initialized) and one full of garbage. */
  memset(&ctx, 0, sizeof ctx);
  CHECK_EQ_INT(fm_sha_update(&ctx, k_msg, 1), FM_ERR_STATE);
  memset(&ctx, 0x5a, sizeof ctx);
  CHECK_EQ_INT(fm_sha_update(&ctx, k_msg, 1), FM_ERR_STATE);
  /* A right magic word with an unknown algorithm is still not a live context. */
  sha_ctx raw;
  memset(&raw, 0, sizeof raw);
  raw.magic = SHA_CTX_MAGIC;
  raw.alg = 11;
  memset(&ctx, 0, sizeof ctx);
  memcpy(&ctx, &raw, sizeof raw);
  CHECK_EQ_INT(fm_sha_update(&ctx, k_msg, 1), FM_ERR_STATE);
}

/* The length limit (2^61 - 1 bytes, so the bit count fits 64 bits) cannot be reached by hashing;
 * the byte count is set just below it through the internal layout. */
static void test_sha_length_limit(void) {
  for (int a = 0; a < 3; a++) {
    fm_sha_ctx ctx, saved;
    uint8_t out[64];
    CHECK_EQ_INT(fm_sha_init(&ctx, k_algs[a]), FM_OK);
    sha_ctx raw;
    memcpy(&raw, &ctx, sizeof raw);
    if (k_algs[a] == FM_HASH_SHA256) {
      raw.u.s256.nbytes = SHA2_MAX_INPUT_BYTES - 5;
    } else {
      raw.u.s512.nbytes = SHA2_MAX_INPUT_BYTES - 5;
    }
    memcpy(&ctx, &raw, sizeof raw);
    memcpy(&saved, &ctx, sizeof ctx);
    CHECK_EQ_INT(fm_sha_update(&ctx, k_msg, 6), FM_ERR_LENGTH);
    CHECK(memcmp(&saved, &ctx, sizeof ctx) == 0); /* rejected without absorbing anything */
    CHECK_EQ_INT(fm_sha_update(&ctx, k_msg, 5), FM_OK);
    CHECK_EQ_INT(fm_sha_update(&ctx, k_msg, 1), FM_ERR_LENGTH);
    CHECK_EQ_INT(fm_sha_update(&ctx, k_msg, 0), FM_OK);
    CHECK_EQ_INT(fm_sha_final(&ctx, out, sizeof out), FM_OK);
    /* One-shot lengths past the limit are refused before any byte is read. */
    memset(out, 0xaa, sizeof out);
    CHECK_EQ_INT(fm_sha_digest(k_algs[a], k_msg, SIZE_MAX, out, sizeof out), FM_ERR_LENGTH);
    CHECK(wiped_exactly(out, dlen_of(k_algs[a]), sizeof out));
    memset(out, 0xaa, sizeof out);
    CHECK_EQ_INT(fm_sha_digest(k_algs[a], k_msg, (size_t)SHA2_MAX_INPUT_BYTES + 1, out, sizeof out),
                 FM_ERR_LENGTH);
    CHECK(wiped_exactly(out, dlen_of(k_algs[a]), sizeof out));
  }
  uint8_t out[64];
  memset(out, 0xaa, sizeof out);
  CHECK_EQ_INT(fm_sha256(k_msg, SIZE_MAX, out), FM_ERR_LENGTH);
  CHECK(test_is_all_zero(out, 32));
  memset(out, 0xaa, sizeof out);
  CHECK_EQ_INT(fm_sha384(k_msg, SIZE_MAX, out), FM_ERR_LENGTH);
  CHECK(test_is_all_zero(out, 48));
  memset(out, 0xaa, sizeof out);
  CHECK_EQ_INT(fm_sha512(k_msg, SIZE_MAX, out), FM_ERR_LENGTH);
  CHECK(test_is_all_zero(out, 64));
}

static void test_sha_final(void) {
  fm_sha_ctx ctx;
  uint8_t out[80];
  for (int a = 0; a < 3; a++) {
    fm_hash_alg alg = k_algs[a];
    size_t dl = dlen_of(alg);

    /* NULL context: the digest length is unknown and nothing was written, so the output is not
     * touched (a claimed out_len is not trusted, sha.h). */
    memset(out, 0xaa, sizeof out);
    CHECK_EQ_INT(fm_sha_final(NULL, out, sizeof out), FM_ERR_BAD_ARGUMENT);
    CHECK(is_filled(out, 0xaa, sizeof out));

    /* NULL output: error, and the context is wiped (a failed final leaves no live state). */
    CHECK_EQ_INT(fm_sha_init(&ctx, alg), FM_OK);
    CHECK_EQ_INT(fm_sha_final(&ctx, NULL, dl), FM_ERR_BAD_ARGUMENT);
    CHECK(test_is_all_zero(&ctx, sizeof ctx));

    /* Output one byte too small, and zero: the out_len bytes are wiped, nothing past them is
     * written, and the context is wiped. */
    CHECK_EQ_INT(fm_sha_init(&ctx, alg), FM_OK);
    CHECK_EQ_INT(fm_sha_update(&ctx, k_msg, sizeof k_msg), FM_OK);
    memset(out, 0xaa, sizeof out);
    CHECK_EQ_INT(fm_sha_final(&ctx, out, dl - 1), FM_ERR_BUFFER_TOO_SMALL);
    CHECK(test_is_all_zero(out, dl - 1));
    CHECK(is_filled(out + dl - 1, 0xaa, sizeof out - (dl - 1)));
    CHECK(test_is_all_zero(&ctx, sizeof ctx));
    CHECK_EQ_INT(fm_sha_update(&ctx, k_msg, 1), FM_ERR_STATE);
    CHECK_EQ_INT(fm_sha_init(&ctx, alg), FM_OK);
    memset(out, 0xaa, sizeof out);
    CHECK_EQ_INT(fm_sha_final(&ctx, out, 0), FM_ERR_BUFFER_TOO_SMALL);
    CHECK(is_filled(out, 0xaa, sizeof out));

    /* A larger buffer: exactly the digest length is written. */
    CHECK_EQ_INT(fm_sha_init(&ctx, alg), FM_OK);
    memset(out, 0xaa, sizeof out);
    CHECK_EQ_INT(fm_sha_final(&ctx, out, sizeof out), FM_OK);
    CHECK(is_filled(out + dl, 0xaa, sizeof out - dl));
    CHECK(test_is_all_zero(&ctx, sizeof ctx)); /* final wipes */

    /* Final after final, on a zeroed context, on garbage: FM_ERR_STATE, output untouched (no
     * digest length to trust), context wiped. */
    memset(out, 0xaa, sizeof out);
    CHECK_EQ_INT(fm_sha_final(&ctx, out, sizeof out), FM_ERR_STATE);
    CHECK(is_filled(out, 0xaa, sizeof out));
    memset(&ctx, 0x5a, sizeof ctx);
    memset(out, 0xaa, sizeof out);
    CHECK_EQ_INT(fm_sha_final(&ctx, out, sizeof out), FM_ERR_STATE);
    CHECK(is_filled(out, 0xaa, sizeof out));
    CHECK(test_is_all_zero(&ctx, sizeof ctx));
  }
}

static void test_sha_wipe(void) {
  fm_sha_ctx ctx;
  CHECK_EQ_INT(fm_sha_wipe(NULL), FM_OK);
  CHECK_EQ_INT(fm_sha_init(&ctx, FM_HASH_SHA512), FM_OK);
  CHECK_EQ_INT(fm_sha_update(&ctx, k_msg, sizeof k_msg), FM_OK);
  CHECK_EQ_INT(fm_sha_wipe(&ctx), FM_OK);
  CHECK(test_is_all_zero(&ctx, sizeof ctx));
  CHECK_EQ_INT(fm_sha_update(&ctx, k_msg, 1), FM_ERR_STATE);
  uint8_t out[64];
  CHECK_EQ_INT(fm_sha_final(&ctx, out, sizeof out), FM_ERR_STATE);
  CHECK_EQ_INT(fm_sha_wipe(&ctx), FM_OK); /* wiping twice is fine */
}

/* ---- fm_sha_digest and the shorthands ------------------------------------------------------ */

static void test_sha_digest(void) {
  uint8_t out[80], empty[64];
  for (int a = 0; a < 3; a++) {
    fm_hash_alg alg = k_algs[a];
    size_t dl = dlen_of(alg);
    CHECK_EQ_INT(fm_sha_digest(alg, k_msg, sizeof k_msg, NULL, dl), FM_ERR_BAD_ARGUMENT);
    CHECK_EQ_INT(fm_sha_digest(alg, k_msg, sizeof k_msg, NULL, 0), FM_ERR_BAD_ARGUMENT);
    memset(out, 0xaa, sizeof out);
    CHECK_EQ_INT(fm_sha_digest(alg, NULL, 1, out, sizeof out), FM_ERR_BAD_ARGUMENT);
    CHECK(wiped_exactly(out, dl, sizeof out));
    /* NULL with length 0 is the empty message; a non-NULL pointer with length 0 too. */
    CHECK_EQ_INT(fm_sha_digest(alg, NULL, 0, empty, sizeof empty), FM_OK);
    memset(out, 0xaa, sizeof out);
    CHECK_EQ_INT(fm_sha_digest(alg, k_msg, 0, out, sizeof out), FM_OK);
    CHECK_MEM(out, empty, dl);
    CHECK(is_filled(out + dl, 0xaa, sizeof out - dl));
    /* Too small. */
    memset(out, 0xaa, sizeof out);
    CHECK_EQ_INT(fm_sha_digest(alg, k_msg, sizeof k_msg, out, dl - 1), FM_ERR_BUFFER_TOO_SMALL);
    CHECK(test_is_all_zero(out, dl - 1));
    CHECK(is_filled(out + dl - 1, 0xaa, sizeof out - (dl - 1)));
    memset(out, 0xaa, sizeof out);
    CHECK_EQ_INT(fm_sha_digest(alg, k_msg, sizeof k_msg, out, 0), FM_ERR_BUFFER_TOO_SMALL);
    CHECK(is_filled(out, 0xaa, sizeof out));
  }
  for (size_t i = 0; i < N_BAD_ALGS; i++) {
    memset(out, 0xaa, sizeof out);
    CHECK_EQ_INT(fm_sha_digest((fm_hash_alg)k_bad_algs[i], k_msg, sizeof k_msg, out, sizeof out),
                 FM_ERR_UNSUPPORTED);
    CHECK(is_filled(out, 0xaa, sizeof out));
  }
}

static void test_sha_shorthands(void) {
  typedef int (*oneshot_fn)(const void *, size_t, uint8_t *);
  const oneshot_fn fns[3] = {fm_sha256, fm_sha384, fm_sha512};
  for (int a = 0; a < 3; a++) {
    size_t dl = dlen_of(k_algs[a]);
    uint8_t out[80], want[64];
    CHECK_EQ_INT(fns[a](k_msg, sizeof k_msg, NULL), FM_ERR_BAD_ARGUMENT);
    CHECK_EQ_INT(fns[a](NULL, 0, NULL), FM_ERR_BAD_ARGUMENT);
    memset(out, 0xaa, sizeof out);
    CHECK_EQ_INT(fns[a](NULL, 5, out), FM_ERR_BAD_ARGUMENT);
    CHECK(test_is_all_zero(out, dl));
    CHECK(is_filled(out + dl, 0xaa, sizeof out - dl)); /* only the digest length is touched */
    CHECK_EQ_INT(fm_sha_digest(k_algs[a], NULL, 0, want, sizeof want), FM_OK);
    memset(out, 0xaa, sizeof out);
    CHECK_EQ_INT(fns[a](NULL, 0, out), FM_OK);
    CHECK_MEM(out, want, dl);
    CHECK(is_filled(out + dl, 0xaa, sizeof out - dl));
  }
}

/* ---- HMAC --------------------------------------------------------------------------------- */

static void test_hmac_init(void) {
  fm_hmac_ctx ctx;
  uint8_t a[64], b[64];
  CHECK_EQ_INT(fm_hmac_init(NULL, FM_HASH_SHA256, k_key, sizeof k_key), FM_ERR_BAD_ARGUMENT);
  memset(&ctx, 0xaa, sizeof ctx);
  CHECK_EQ_INT(fm_hmac_init(&ctx, FM_HASH_SHA256, NULL, 1), FM_ERR_BAD_ARGUMENT);
  CHECK(test_is_all_zero(&ctx, sizeof ctx));
  for (size_t i = 0; i < N_BAD_ALGS; i++) {
    memset(&ctx, 0xaa, sizeof ctx);
    CHECK_EQ_INT(fm_hmac_init(&ctx, (fm_hash_alg)k_bad_algs[i], k_key, sizeof k_key),
                 FM_ERR_UNSUPPORTED);
    CHECK(test_is_all_zero(&ctx, sizeof ctx));
    CHECK_EQ_INT(fm_hmac_update(&ctx, k_msg, 1), FM_ERR_STATE);
  }
  memset(&ctx, 0xaa, sizeof ctx);
  CHECK_EQ_INT(fm_hmac_init(&ctx, FM_HASH_SHA256, k_key, SIZE_MAX), FM_ERR_LENGTH);
  CHECK(test_is_all_zero(&ctx, sizeof ctx));
  /* An empty key (NULL or not) is valid and equals the one-shot with an empty key. */
  for (int al = 0; al < 3; al++) {
    size_t dl = dlen_of(k_algs[al]);
    CHECK_EQ_INT(fm_hmac_init(&ctx, k_algs[al], NULL, 0), FM_OK);
    CHECK_EQ_INT(fm_hmac_update(&ctx, k_msg, sizeof k_msg), FM_OK);
    CHECK_EQ_INT(fm_hmac_final(&ctx, a, dl), FM_OK);
    CHECK_EQ_INT(fm_hmac(k_algs[al], k_key, 0, k_msg, sizeof k_msg, b, dl), FM_OK);
    CHECK_MEM(a, b, dl);
  }
}

static void test_hmac_update(void) {
  fm_hmac_ctx ctx;
  uint8_t out[64], want[64];
  CHECK_EQ_INT(fm_hmac_update(NULL, k_msg, 1), FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_hmac_update(NULL, NULL, 0), FM_ERR_BAD_ARGUMENT);
  for (int a = 0; a < 3; a++) {
    size_t dl = dlen_of(k_algs[a]);
    CHECK_EQ_INT(fm_hmac_init(&ctx, k_algs[a], k_key, sizeof k_key), FM_OK);
    CHECK_EQ_INT(fm_hmac_update(&ctx, NULL, 1), FM_ERR_BAD_ARGUMENT);
    CHECK_EQ_INT(fm_hmac_update(&ctx, NULL, 0), FM_OK);
    CHECK_EQ_INT(fm_hmac_final(&ctx, out, dl), FM_OK);
    CHECK_EQ_INT(fm_hmac(k_algs[a], k_key, sizeof k_key, NULL, 0, want, dl), FM_OK);
    CHECK_MEM(out, want, dl);
    CHECK(test_is_all_zero(&ctx, sizeof ctx)); /* final wipes the key-derived state */
    CHECK_EQ_INT(fm_hmac_update(&ctx, k_msg, 1), FM_ERR_STATE);
  }
  memset(&ctx, 0, sizeof ctx);
  CHECK_EQ_INT(fm_hmac_update(&ctx, k_msg, 1), FM_ERR_STATE);
  memset(&ctx, 0x5a, sizeof ctx);
  CHECK_EQ_INT(fm_hmac_update(&ctx, k_msg, 1), FM_ERR_STATE);
  /* A hash context is not an HMAC context. */
  memset(&ctx, 0, sizeof ctx);
  CHECK_EQ_INT(fm_sha_init((fm_sha_ctx *)(void *)&ctx, FM_HASH_SHA256), FM_OK);
  CHECK_EQ_INT(fm_hmac_update(&ctx, k_msg, 1), FM_ERR_STATE);

  /* Length limit, through the internal layout (see test_sha_length_limit). */
  for (int a = 0; a < 3; a++) {
    fm_hmac_ctx saved;
    CHECK_EQ_INT(fm_hmac_init(&ctx, k_algs[a], k_key, sizeof k_key), FM_OK);
    hmac_ctx raw;
    memcpy(&raw, &ctx, sizeof raw);
    if (k_algs[a] == FM_HASH_SHA256) {
      raw.u.s256.inner.nbytes = SHA2_MAX_INPUT_BYTES - 3;
    } else {
      raw.u.s512.inner.nbytes = SHA2_MAX_INPUT_BYTES - 3;
    }
    memcpy(&ctx, &raw, sizeof raw);
    memcpy(&saved, &ctx, sizeof ctx);
    CHECK_EQ_INT(fm_hmac_update(&ctx, k_msg, 4), FM_ERR_LENGTH);
    CHECK(memcmp(&saved, &ctx, sizeof ctx) == 0);
    CHECK_EQ_INT(fm_hmac_update(&ctx, k_msg, 3), FM_OK);
    CHECK_EQ_INT(fm_hmac_wipe(&ctx), FM_OK);
  }
}

static void test_hmac_final(void) {
  fm_hmac_ctx ctx;
  uint8_t out[80];
  for (int a = 0; a < 3; a++) {
    fm_hash_alg alg = k_algs[a];
    size_t dl = dlen_of(alg);
    memset(out, 0xaa, sizeof out);
    CHECK_EQ_INT(fm_hmac_final(NULL, out, sizeof out), FM_ERR_BAD_ARGUMENT);
    CHECK(is_filled(out, 0xaa, sizeof out));

    CHECK_EQ_INT(fm_hmac_init(&ctx, alg, k_key, sizeof k_key), FM_OK);
    CHECK_EQ_INT(fm_hmac_final(&ctx, NULL, dl), FM_ERR_BAD_ARGUMENT);
    CHECK(test_is_all_zero(&ctx, sizeof ctx));

    CHECK_EQ_INT(fm_hmac_init(&ctx, alg, k_key, sizeof k_key), FM_OK);
    memset(out, 0xaa, sizeof out);
    CHECK_EQ_INT(fm_hmac_final(&ctx, out, dl - 1), FM_ERR_BUFFER_TOO_SMALL);
    CHECK(test_is_all_zero(out, dl - 1));
    CHECK(is_filled(out + dl - 1, 0xaa, sizeof out - (dl - 1)));
    CHECK(test_is_all_zero(&ctx, sizeof ctx));

    CHECK_EQ_INT(fm_hmac_init(&ctx, alg, k_key, sizeof k_key), FM_OK);
    memset(out, 0xaa, sizeof out);
    CHECK_EQ_INT(fm_hmac_final(&ctx, out, sizeof out), FM_OK);
    CHECK(is_filled(out + dl, 0xaa, sizeof out - dl));

    memset(out, 0xaa, sizeof out);
    CHECK_EQ_INT(fm_hmac_final(&ctx, out, sizeof out), FM_ERR_STATE);
    CHECK(is_filled(out, 0xaa, sizeof out));
    memset(&ctx, 0x5a, sizeof ctx);
    memset(out, 0xaa, sizeof out);
    CHECK_EQ_INT(fm_hmac_final(&ctx, out, sizeof out), FM_ERR_STATE);
    CHECK(is_filled(out, 0xaa, sizeof out));
    CHECK(test_is_all_zero(&ctx, sizeof ctx));
  }
}

static void test_hmac_wipe(void) {
  fm_hmac_ctx ctx;
  uint8_t out[64];
  CHECK_EQ_INT(fm_hmac_wipe(NULL), FM_OK);
  CHECK_EQ_INT(fm_hmac_init(&ctx, FM_HASH_SHA384, k_key, sizeof k_key), FM_OK);
  CHECK_EQ_INT(fm_hmac_wipe(&ctx), FM_OK);
  CHECK(test_is_all_zero(&ctx, sizeof ctx));
  CHECK_EQ_INT(fm_hmac_update(&ctx, k_msg, 1), FM_ERR_STATE);
  CHECK_EQ_INT(fm_hmac_final(&ctx, out, sizeof out), FM_ERR_STATE);
}

static void test_hmac_oneshot(void) {
  uint8_t out[80];
  for (int a = 0; a < 3; a++) {
    fm_hash_alg alg = k_algs[a];
    size_t dl = dlen_of(alg);
    CHECK_EQ_INT(fm_hmac(alg, k_key, sizeof k_key, k_msg, sizeof k_msg, NULL, dl),
                 FM_ERR_BAD_ARGUMENT);
    memset(out, 0xaa, sizeof out);
    CHECK_EQ_INT(fm_hmac(alg, NULL, 1, k_msg, sizeof k_msg, out, sizeof out), FM_ERR_BAD_ARGUMENT);
    CHECK(wiped_exactly(out, dl, sizeof out));
    memset(out, 0xaa, sizeof out);
    CHECK_EQ_INT(fm_hmac(alg, k_key, sizeof k_key, NULL, 1, out, sizeof out), FM_ERR_BAD_ARGUMENT);
    CHECK(wiped_exactly(out, dl, sizeof out));
    memset(out, 0xaa, sizeof out);
    CHECK_EQ_INT(fm_hmac(alg, k_key, sizeof k_key, k_msg, sizeof k_msg, out, dl - 1),
                 FM_ERR_BUFFER_TOO_SMALL);
    CHECK(test_is_all_zero(out, dl - 1));
    CHECK(is_filled(out + dl - 1, 0xaa, sizeof out - (dl - 1)));
    memset(out, 0xaa, sizeof out);
    CHECK_EQ_INT(fm_hmac(alg, k_key, sizeof k_key, k_msg, SIZE_MAX, out, sizeof out),
                 FM_ERR_LENGTH);
    CHECK(wiped_exactly(out, dl, sizeof out));
    memset(out, 0xaa, sizeof out);
    CHECK_EQ_INT(fm_hmac(alg, k_key, SIZE_MAX, k_msg, sizeof k_msg, out, sizeof out),
                 FM_ERR_LENGTH);
    CHECK(wiped_exactly(out, dl, sizeof out));
    /* Empty key and empty message, NULL pointers allowed. */
    memset(out, 0xaa, sizeof out);
    CHECK_EQ_INT(fm_hmac(alg, NULL, 0, NULL, 0, out, sizeof out), FM_OK);
    CHECK(is_filled(out + dl, 0xaa, sizeof out - dl));
    CHECK(!test_is_all_zero(out, dl));
  }
  for (size_t i = 0; i < N_BAD_ALGS; i++) {
    memset(out, 0xaa, sizeof out);
    CHECK_EQ_INT(fm_hmac((fm_hash_alg)k_bad_algs[i], k_key, sizeof k_key, k_msg, sizeof k_msg,
                         out, sizeof out),
                 FM_ERR_UNSUPPORTED);
    CHECK(is_filled(out, 0xaa, sizeof out));
  }
}

static void test_hmac_verify(void) {
  uint8_t tag[64];
  for (int a = 0; a < 3; a++) {
    fm_hash_alg alg = k_algs[a];
    size_t dl = dlen_of(alg);
    CHECK_EQ_INT(fm_hmac(alg, k_key, sizeof k_key, k_msg, sizeof k_msg, tag, dl), FM_OK);
    CHECK_EQ_INT(fm_hmac_verify(alg, k_key, sizeof k_key, k_msg, sizeof k_msg, tag, dl), FM_OK);
    CHECK_EQ_INT(fm_hmac_verify(alg, k_key, sizeof k_key, k_msg, sizeof k_msg, NULL, dl),
                 FM_ERR_BAD_ARGUMENT);
    CHECK_EQ_INT(fm_hmac_verify(alg, NULL, 1, k_msg, sizeof k_msg, tag, dl), FM_ERR_BAD_ARGUMENT);
    CHECK_EQ_INT(fm_hmac_verify(alg, k_key, sizeof k_key, NULL, 1, tag, dl), FM_ERR_BAD_ARGUMENT);
    CHECK_EQ_INT(fm_hmac_verify(alg, k_key, sizeof k_key, k_msg, sizeof k_msg, tag, 3),
                 FM_ERR_LENGTH);
    CHECK_EQ_INT(fm_hmac_verify(alg, k_key, sizeof k_key, k_msg, sizeof k_msg, tag, 0),
                 FM_ERR_LENGTH);
    CHECK_EQ_INT(fm_hmac_verify(alg, k_key, sizeof k_key, k_msg, sizeof k_msg, tag, dl + 1),
                 FM_ERR_LENGTH);
    CHECK_EQ_INT(fm_hmac_verify(alg, k_key, sizeof k_key, k_msg, SIZE_MAX, tag, dl),
                 FM_ERR_LENGTH);
    /* Empty key and message with NULL pointers are valid input. */
    CHECK_EQ_INT(fm_hmac(alg, NULL, 0, NULL, 0, tag, dl), FM_OK);
    CHECK_EQ_INT(fm_hmac_verify(alg, NULL, 0, NULL, 0, tag, dl), FM_OK);
  }
  for (size_t i = 0; i < N_BAD_ALGS; i++) {
    CHECK_EQ_INT(fm_hmac_verify((fm_hash_alg)k_bad_algs[i], k_key, sizeof k_key, k_msg,
                                sizeof k_msg, tag, 32),
                 FM_ERR_UNSUPPORTED);
  }
}

static const test_case cases[] = {
  TEST_CASE(digest_len),
  TEST_CASE(sha_init),
  TEST_CASE(sha_update),
  TEST_CASE(sha_length_limit),
  TEST_CASE(sha_final),
  TEST_CASE(sha_wipe),
  TEST_CASE(sha_digest),
  TEST_CASE(sha_shorthands),
  TEST_CASE(hmac_init),
  TEST_CASE(hmac_update),
  TEST_CASE(hmac_final),
  TEST_CASE(hmac_wipe),
  TEST_CASE(hmac_oneshot),
  TEST_CASE(hmac_verify),
};

int main(int argc, char **argv) {
  return TEST_RUN(argc, argv, "test_sha_badinput", cases);
}
