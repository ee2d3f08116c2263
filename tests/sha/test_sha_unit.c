/* Known answers and properties of SHA-2 and HMAC through the public API.
 *
 * Sources: the FIPS 180-4 example messages and digests published by NIST (CSRC "Examples with
 * intermediate values": "abc", the empty message, the 448-bit and 896-bit two-block messages,
 * one million 'a'), and RFC 4231 test cases 1-7 for HMAC-SHA-256/384/512. */
#define _GNU_SOURCE /* MAP_ANONYMOUS */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fipsmod/hmac.h"
#include "fipsmod/sha.h"
#include "module/internal.h"
#include "module/sha/internal.h"
#include "tests/common/test_util.h"

static const fm_hash_alg k_algs[3] = {FM_HASH_SHA256, FM_HASH_SHA384, FM_HASH_SHA512};

static size_t dlen_of(fm_hash_alg alg) {
  size_t n = 0;
  CHECK_EQ_INT(fm_hash_digest_len(alg, &n), FM_OK);
  return n;
}

static void check_hex(const uint8_t *got, const char *hex, size_t len, const char *what) {
  uint8_t want[FM_MAX_DIGEST_LEN];
  long n = test_hex_decode(hex, want, sizeof want);
  CHECK_EQ_INT(n, (long)len);
  if (n != (long)len || memcmp(got, want, len) != 0) {
    test_failures++;
    char buf[2 * FM_MAX_DIGEST_LEN + 1];
    test_hex_encode(got, len, buf);
    fprintf(stderr, "%s: got %s\n   want %s\n", what, buf, hex);
  }
}

/* ---- FIPS 180-4 examples ---------------------------------------------------------------- */

static const char msg448[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
static const char msg896[] =
    "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopq"
    "rsmnopqrstnopqrstu";

typedef struct {
  const char *name;
  const char *msg; /* NULL: one million 'a' */
  const char *hex[3];
} nist_case;

static const nist_case k_nist[] = {
    {"abc",
     "abc",
     {"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
      "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825"
      "a7",
      "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feeb"
      "bd454d4423643ce80e2a9ac94fa54ca49f"}},
    {"empty",
     "",
     {"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
      "38b060a751ac96384cd9327eb1b1e36a21fdb71114be07434c0cc7bf63f6e1da274edebfe76f65fbd51ad2f14898b9"
      "5b",
      "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec"
      "2f63b931bd47417a81a538327af927da3e"}},
    {"448-bit",
     msg448,
     {"248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
      "3391fdddfc8dc7393707a65b1b4709397cf8b1d162af05abfe8f450de5f36bc6b0455a8520bc4e6f5fe95b1fe3c845"
      "2b",
      "204a8fc6dda82f0a0ced7beb8e08a41657c16ef468b228a8279be331a703c33596fd15c13b1b07f9aa1d3bea57789c"
      "a031ad85c7a71dd70354ec631238ca3445"}},
    {"896-bit",
     msg896,
     {"cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1",
      "09330c33f71147e83d192fc782cd1b4753111b173b3b05d22fa08086e3b0f712fcc7c71a557e2db966c3e9fa917460"
      "39",
      "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018501d289e4900f7e4331b99dec4b543"
      "3ac7d329eeb6dd26545e96e55b874be909"}},
    {"million-a",
     NULL,
     {"cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
      "9d0e1809716474cb086e834e310a4a1ced149e9c00f248527972cec5704c2a5b07b8b3dc38ecc4ebae97ddd87f3d89"
      "85",
      "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973ebde0ff244877ea60a4cb0432ce577c3"
      "1beb009c5c2c49aa2e4eadb217ad8cc09b"}},
};

static void test_fips180_examples(void) {
  uint8_t *million = malloc(1000000);
  CHECK(million != NULL);
  if (million == NULL) return;
  memset(million, 'a', 1000000);
  for (size_t c = 0; c < sizeof k_nist / sizeof k_nist[0]; c++) {
    const nist_case *tc = &k_nist[c];
    const uint8_t *msg = tc->msg ? (const uint8_t *)tc->msg : million;
    size_t len = tc->msg ? strlen(tc->msg) : 1000000;
    for (int a = 0; a < 3; a++) {
      fm_hash_alg alg = k_algs[a];
      size_t dl = dlen_of(alg);
      uint8_t out[FM_MAX_DIGEST_LEN];
      char what[64];

      /* One-shot, generic. */
      snprintf(what, sizeof what, "%s alg %d digest", tc->name, (int)alg);
      CHECK_EQ_INT(fm_sha_digest(alg, msg, len, out, sizeof out), FM_OK);
      check_hex(out, tc->hex[a], dl, what);

      /* One-shot, fixed-length shorthands. */
      snprintf(what, sizeof what, "%s alg %d shorthand", tc->name, (int)alg);
      int st = alg == FM_HASH_SHA256   ? fm_sha256(msg, len, out)
               : alg == FM_HASH_SHA384 ? fm_sha384(msg, len, out)
                                       : fm_sha512(msg, len, out);
      CHECK_EQ_INT(st, FM_OK);
      check_hex(out, tc->hex[a], dl, what);

      /* Incremental: byte at a time for the short messages, 1000-byte chunks for the million. */
      snprintf(what, sizeof what, "%s alg %d incremental", tc->name, (int)alg);
      fm_sha_ctx ctx;
      CHECK_EQ_INT(fm_sha_init(&ctx, alg), FM_OK);
      size_t step = tc->msg ? 1 : 1000;
      for (size_t i = 0; i < len; i += step) CHECK_EQ_INT(fm_sha_update(&ctx, msg + i, step), FM_OK);
      CHECK_EQ_INT(fm_sha_final(&ctx, out, dl), FM_OK);
      check_hex(out, tc->hex[a], dl, what);
    }
  }
  free(million);
}

/* ---- RFC 4231 ---------------------------------------------------------------------------- */

typedef struct {
  int id;
  const char *key_hex; /* NULL: 131 bytes of 0xaa */
  const char *data;    /* ASCII, or hex when data_is_hex */
  int data_is_hex;
  size_t tag_len; /* 0: full tag */
  const char *tag_hex[3];
} rfc4231_case;

static const rfc4231_case k_rfc4231[] = {
    {1, "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b", "Hi There", 0, 0,
     {"b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
      "afd03944d84895626b0825f4ab46907f15f9dadbe4101ec682aa034c7cebc59cfaea9ea9076ede7f4af152e8b2fa9c"
      "b6",
      "87aa7cdea5ef619d4ff0b4241a1d6cb02379f4e2ce4ec2787ad0b30545e17cdedaa833b7d6b8a702038b274eaea3f4"
      "e4be9d914eeb61f1702e696c203a126854"}},
    {2, "4a656665", "what do ya want for nothing?", 0, 0,
     {"5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
      "af45d2e376484031617f78d2b58a6b1b9c7ef464f5a01b47e42ec3736322445e8e2240ca5e69e2c78b3239ecfab216"
      "49",
      "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6"
      "fdcaeab1a34d4a6b4b636e070a38bce737"}},
    {3, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
     "dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd"
     "dddddd",
     1, 0,
     {"773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe",
      "88062608d3e6ad8a0aa2ace014c8a86f0aa635d947ac9febe83ef4e55966144b2a5ab39dc13814b94e3ab6e101a34f"
      "27",
      "fa73b0089d56a284efb0f0756c890be9b1b5dbdd8ee81a3655f83e33b2279d39bf3e848279a722c806b485a47e67c8"
      "07b946a337bee8942674278859e13292fb"}},
    {4, "0102030405060708090a0b0c0d0e0f10111213141516171819",
     "cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd"
     "cdcdcd",
     1, 0,
     {"82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b",
      "3e8a69b7783c25851933ab6290af6ca77a9981480850009cc5577c6e1f573b4e6801dd23c4a7d679ccf8a386c674cf"
      "fb",
      "b0ba465637458c6990e5a8c5f61d4af7e576d97ff94b872de76f8050361ee3dba91ca5c11aa25eb4d679275cc57880"
      "63a5f19741120c4f2de2adebeb10a298dd"}},
    /* Case 5: tags truncated to 128 bits (RFC 4231 section 4.6). */
    {5, "0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c", "Test With Truncation", 0, 16,
     {"a3b6167473100ee06e0c796c2955552b", "3abf34c3503b2a23a46efc619baef897",
      "415fad6271580a531d4179bc891d87a6"}},
    {6, NULL, "Test Using Larger Than Block-Size Key - Hash Key First", 0, 0,
     {"60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
      "4ece084485813e9088d2c63a041bc5b44f9ef1012a2b588f3cd11f05033ac4c60c2ef6ab4030fe8296248df163f449"
      "52",
      "80b24263c7c1a3ebb71493c1dd7be8b49b46d1f41b4aeec1121b013783f8f3526b56d037e05f2598bd0fd2215d6a1e"
      "5295e64f73f63f0aec8b915a985d786598"}},
    {7, NULL,
     "This is a test using a larger than block-size key and a larger than block-size data. The key "
     "needs to be hashed before being used by the HMAC algorithm.",
     0, 0,
     {"9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2",
      "6617178e941f020d351e2f254e8fd32c602420feb0b8fb9adccebb82461e99c5a678cc31e799176d3860e6110c4652"
      "3e",
      "e37b6a775dc87dbaa4dfa9f96e5e3ffddebd71f8867289865df5a32d20cdc944b6022cac3c4982b10d5eeb55c3e4de"
      "15134676fb6de0446065c97440fa8c6a58"}},
};

static void test_rfc4231(void) {
  for (size_t c = 0; c < sizeof k_rfc4231 / sizeof k_rfc4231[0]; c++) {
    const rfc4231_case *tc = &k_rfc4231[c];
    uint8_t key[131], data[256], tag[FM_MAX_DIGEST_LEN], out[FM_MAX_DIGEST_LEN];
    size_t key_len, data_len;
    if (tc->key_hex) {
      key_len = (size_t)test_hex_decode(tc->key_hex, key, sizeof key);
    } else {
      memset(key, 0xaa, 131); /* cases 6 and 7: a 131-byte key, longer than either block */
      key_len = 131;
    }
    if (tc->data_is_hex) {
      data_len = (size_t)test_hex_decode(tc->data, data, sizeof data);
    } else {
      data_len = strlen(tc->data);
      memcpy(data, tc->data, data_len);
    }
    for (int a = 0; a < 3; a++) {
      fm_hash_alg alg = k_algs[a];
      size_t dl = dlen_of(alg);
      size_t tl = tc->tag_len ? tc->tag_len : dl;
      char what[64];
      CHECK_EQ_INT(test_hex_decode(tc->tag_hex[a], tag, sizeof tag), (long)tl);

      snprintf(what, sizeof what, "RFC 4231 case %d alg %d one-shot", tc->id, (int)alg);
      CHECK_EQ_INT(fm_hmac(alg, key, key_len, data, data_len, out, sizeof out), FM_OK);
      check_hex(out, tc->tag_hex[a], tl, what);

      snprintf(what, sizeof what, "RFC 4231 case %d alg %d incremental", tc->id, (int)alg);
      fm_hmac_ctx ctx;
      CHECK_EQ_INT(fm_hmac_init(&ctx, alg, key, key_len), FM_OK);
      for (size_t i = 0; i < data_len; i++) CHECK_EQ_INT(fm_hmac_update(&ctx, data + i, 1), FM_OK);
      CHECK_EQ_INT(fm_hmac_final(&ctx, out, dl), FM_OK);
      check_hex(out, tc->tag_hex[a], tl, what);

      /* The published tag (truncated in case 5) verifies; so does every shorter prefix >= 4. */
      CHECK_EQ_INT(fm_hmac_verify(alg, key, key_len, data, data_len, tag, tl), FM_OK);
      for (size_t l = 4; l < tl; l++) {
        CHECK_EQ_INT(fm_hmac_verify(alg, key, key_len, data, data_len, tag, l), FM_OK);
      }
    }
  }
}

/* ---- Any split of the input gives the same digest and tag ------------------------------- */

static void test_any_split(void) {
  enum { LEN = 300 };
  uint8_t msg[LEN], key[100];
  test_rng rng;
  test_rng_seed_fixed(&rng, 0x5ba1e5);
  test_rng_bytes(&rng, msg, sizeof msg);
  test_rng_bytes(&rng, key, sizeof key);
  for (int a = 0; a < 3; a++) {
    fm_hash_alg alg = k_algs[a];
    size_t dl = dlen_of(alg);
    uint8_t want_h[FM_MAX_DIGEST_LEN], want_t[FM_MAX_DIGEST_LEN];
    uint8_t got[FM_MAX_DIGEST_LEN];
    CHECK_EQ_INT(fm_sha_digest(alg, msg, LEN, want_h, dl), FM_OK);
    CHECK_EQ_INT(fm_hmac(alg, key, sizeof key, msg, LEN, want_t, dl), FM_OK);
    /* Every pair of cut points i <= j: three updates of msg[0,i), [i,j), [j,LEN), the middle
     * one possibly empty. Covers cuts on and around every block boundary in range. */
    int bad = 0;
    for (size_t i = 0; i <= LEN; i += 1) {
      for (size_t j = i; j <= LEN; j += 7) {
        fm_sha_ctx sc;
        fm_hmac_ctx hc;
        int ok = fm_sha_init(&sc, alg) == FM_OK && fm_sha_update(&sc, msg, i) == FM_OK &&
                 fm_sha_update(&sc, msg + i, j - i) == FM_OK &&
                 fm_sha_update(&sc, msg + j, LEN - j) == FM_OK &&
                 fm_sha_final(&sc, got, dl) == FM_OK && memcmp(got, want_h, dl) == 0;
        ok = ok && fm_hmac_init(&hc, alg, key, sizeof key) == FM_OK &&
             fm_hmac_update(&hc, msg, i) == FM_OK && fm_hmac_update(&hc, msg + i, j - i) == FM_OK &&
             fm_hmac_update(&hc, msg + j, LEN - j) == FM_OK &&
             fm_hmac_final(&hc, got, dl) == FM_OK && memcmp(got, want_t, dl) == 0;
        if (!ok && bad++ < 5) fprintf(stderr, "alg %d split %zu/%zu differs\n", (int)alg, i, j);
      }
    }
    CHECK_EQ_INT(bad, 0);
    /* Fixed chunk sizes 1..LEN. */
    for (size_t chunk = 1; chunk <= LEN; chunk++) {
      fm_sha_ctx sc;
      CHECK_EQ_INT(fm_sha_init(&sc, alg), FM_OK);
      for (size_t off = 0; off < LEN; off += chunk) {
        size_t n = LEN - off < chunk ? LEN - off : chunk;
        CHECK_EQ_INT(fm_sha_update(&sc, msg + off, n), FM_OK);
      }
      CHECK_EQ_INT(fm_sha_final(&sc, got, dl), FM_OK);
      CHECK_MEM(got, want_h, dl);
    }
  }
}

/* ---- fm_hmac_verify accepts exactly the right tag ---------------------------------------- */

static void test_verify_rejects_bit_flips(void) {
  const uint8_t key[] = "verify key";
  const uint8_t msg[] = "the message whose tag is checked";
  for (int a = 0; a < 3; a++) {
    fm_hash_alg alg = k_algs[a];
    size_t dl = dlen_of(alg);
    uint8_t tag[FM_MAX_DIGEST_LEN];
    CHECK_EQ_INT(fm_hmac(alg, key, sizeof key, msg, sizeof msg, tag, sizeof tag), FM_OK);
    for (size_t tl = 4; tl <= dl; tl++) {
      CHECK_EQ_INT(fm_hmac_verify(alg, key, sizeof key, msg, sizeof msg, tag, tl), FM_OK);
    }
    /* A one-bit flip anywhere in the compared tag is rejected, for the full and a 4-byte tag. */
    for (size_t bit = 0; bit < 8 * dl; bit++) {
      tag[bit / 8] ^= (uint8_t)(1u << (bit % 8));
      CHECK_EQ_INT(fm_hmac_verify(alg, key, sizeof key, msg, sizeof msg, tag, dl), FM_ERR_VERIFY);
      if (bit < 32) {
        CHECK_EQ_INT(fm_hmac_verify(alg, key, sizeof key, msg, sizeof msg, tag, 4), FM_ERR_VERIFY);
      } else {
        /* Bits past a 4-byte tag are not compared. */
        CHECK_EQ_INT(fm_hmac_verify(alg, key, sizeof key, msg, sizeof msg, tag, 4), FM_OK);
      }
      tag[bit / 8] ^= (uint8_t)(1u << (bit % 8));
    }
    /* Wrong key or message: rejected. (A key one zero byte shorter would NOT be wrong: HMAC
     * pads keys with zeros, so key and key || 0x00 are the same key.) */
    uint8_t other_key[sizeof key];
    memcpy(other_key, key, sizeof key);
    other_key[0] ^= 1;
    CHECK_EQ_INT(fm_hmac_verify(alg, other_key, sizeof key, msg, sizeof msg, tag, dl),
                 FM_ERR_VERIFY);
    CHECK_EQ_INT(fm_hmac_verify(alg, key, sizeof key - 1, msg, sizeof msg, tag, dl), FM_OK);
    CHECK_EQ_INT(fm_hmac_verify(alg, key, sizeof key, msg, sizeof msg - 1, tag, dl), FM_ERR_VERIFY);
    /* Tag lengths outside 4..digest length. */
    for (size_t tl = 0; tl < 4; tl++) {
      CHECK_EQ_INT(fm_hmac_verify(alg, key, sizeof key, msg, sizeof msg, tag, tl), FM_ERR_LENGTH);
    }
    CHECK_EQ_INT(fm_hmac_verify(alg, key, sizeof key, msg, sizeof msg, tag, dl + 1), FM_ERR_LENGTH);
    CHECK_EQ_INT(fm_hmac_verify(alg, key, sizeof key, msg, sizeof msg, tag, SIZE_MAX),
                 FM_ERR_LENGTH);
  }
}

/* ---- The SHA-NI and portable compression functions agree -------------------------------- */

static void test_sha256_paths_agree(void) {
  if (!fm_cpu_use(FM_CPU_SHANI)) {
    printf("sha-ni not in use: portable path only (path parity not applicable)\n");
    return;
  }
  test_rng rng;
  test_rng_seed_fixed(&rng, 0x5ca1ab1e);
  uint8_t blocks[17 * SHA256_BLOCK_LEN + 1];
  for (int iter = 0; iter < 2000; iter++) {
    size_t n = 1 + test_rng_below(&rng, 17);
    size_t off = test_rng_below(&rng, 2); /* unaligned input too */
    test_rng_bytes(&rng, blocks, sizeof blocks);
    uint32_t h1[8], h2[8];
    for (int i = 0; i < 8; i++) h1[i] = h2[i] = (uint32_t)test_rng_u64(&rng);
    sha256_blocks_portable(h1, blocks + off, n);
    sha256_blocks_shani(h2, blocks + off, n);
    if (memcmp(h1, h2, sizeof h1) != 0) {
      test_failures++;
      fprintf(stderr, "sha-ni and portable differ at iteration %d (%zu blocks)\n", iter, n);
      break;
    }
  }
}

/* ---- The SHA-NI one-shot digest agrees with the portable compression ---------------------- */

/* guarded_page maps a page of random bytes (from |seed|) followed by an inaccessible one, so that
 * an input ending at the boundary (map + *page - len) faults on any read past its end: the
 * register padding's masked loads must read nothing there (a fault fails the test by a signal).
 * NULL, with a failed check, where the mapping cannot be made. */
static uint8_t *guarded_page(uint64_t seed, size_t *page) {
  *page = (size_t)sysconf(_SC_PAGESIZE);
  uint8_t *map = mmap(NULL, 2 * *page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  CHECK(map != MAP_FAILED);
  if (map == MAP_FAILED) return NULL;
  CHECK_EQ_INT(mprotect(map + *page, *page, PROT_NONE), 0);
  test_rng rng;
  test_rng_seed_fixed(&rng, seed);
  test_rng_bytes(&rng, map, *page);
  return map;
}

static void guarded_page_free(uint8_t *map, size_t page) { CHECK_EQ_INT(munmap(map, 2 * page), 0); }

/* portable_digest is sha256_shani_final's reference: the portable compression on the whole
 * blocks and on sha256_pad's padding, the state serialized big-endian. */
static void portable_digest(const uint32_t iv[8], const uint8_t *p, size_t len, uint8_t *out,
                            size_t out_len) {
  uint32_t h[8];
  memcpy(h, iv, sizeof h);
  sha256_blocks_portable(h, p, len / SHA256_BLOCK_LEN);
  uint8_t pad[2 * SHA256_BLOCK_LEN];
  size_t tail = len % SHA256_BLOCK_LEN;
  sha256_blocks_portable(h, pad, sha256_pad(pad, p + len - tail, tail, len));
  for (size_t i = 0; i < out_len; i++) out[i] = (uint8_t)(h[i / 4] >> (24 - 8 * (i % 4)));
}

static void test_sha256_digest_paths_agree(void) {
  if (!fm_cpu_use(FM_CPU_SHANI | FM_CPU_AVX512)) {
    printf("sha-ni+avx512 not in use: the one-shot digest's register padding is not run\n");
    return;
  }
  /* The inputs end at a page boundary before an inaccessible page (guarded_page). */
  const size_t max_len = 3 * SHA256_BLOCK_LEN + 7;
  size_t page;
  uint8_t *map = guarded_page(0x5ca1ab20, &page);
  if (map == NULL) return;
  for (size_t len = 0; len <= max_len; len++) {
    for (int which = 0; which < 2; which++) {
      const uint32_t *iv = which == 0 ? sha256_iv : sha224_iv;
      const size_t dlen = which == 0 ? 32 : 28;
      const uint8_t *in = map + page - len;
      uint8_t want[32], got[33];
      portable_digest(iv, in, len, want, dlen);
      memset(got, 0xa5, sizeof got);
      sha256_shani_final(iv, in, len, len, got, dlen);
      if (memcmp(got, want, dlen) != 0) {
        test_failures++;
        fprintf(stderr, "one-shot SHA-%d differs from the portable path at length %zu\n",
                which == 0 ? 256 : 224, len);
        guarded_page_free(map, page);
        return;
      }
      /* Nothing written past the digest. */
      for (size_t i = dlen; i < sizeof got; i++) CHECK_EQ_INT(got[i], 0xa5);
    }
  }
  guarded_page_free(map, page);
}

/* portable_hmac is sha256_shani_hmac's reference: FIPS 198-1 on portable_digest, K0 of
 * |k0_len| <= 64 bytes. */
static void portable_hmac(const uint32_t iv[8], const uint8_t *k0, size_t k0_len,
                          const uint8_t *msg, size_t len, uint8_t *out, size_t dlen) {
  uint8_t buf[SHA256_BLOCK_LEN + 256];
  uint8_t inner[32];
  memset(buf, 0, SHA256_BLOCK_LEN);
  memcpy(buf, k0, k0_len);
  for (size_t i = 0; i < SHA256_BLOCK_LEN; i++) buf[i] ^= 0x36;
  memcpy(buf + SHA256_BLOCK_LEN, msg, len);
  portable_digest(iv, buf, SHA256_BLOCK_LEN + len, inner, dlen);
  for (size_t i = 0; i < SHA256_BLOCK_LEN; i++) buf[i] ^= 0x36 ^ 0x5c;
  memcpy(buf + SHA256_BLOCK_LEN, inner, dlen);
  portable_digest(iv, buf, SHA256_BLOCK_LEN + dlen, out, dlen);
}

static void test_sha256_hmac_paths_agree(void) {
  if (!fm_cpu_use(FM_CPU_SHANI | FM_CPU_AVX512)) {
    printf("sha-ni+avx512 not in use: the register HMAC is not run\n");
    return;
  }
  test_rng rng;
  test_rng_seed_fixed(&rng, 0x5ca1ab21);
  uint8_t key[SHA256_BLOCK_LEN], msg[200];
  test_rng_bytes(&rng, key, sizeof key);
  test_rng_bytes(&rng, msg, sizeof msg);
  /* Every K0 length and every text length across the one- and two-block tails. */
  for (size_t kl = 0; kl <= SHA256_BLOCK_LEN; kl++) {
    for (size_t len = 0; len <= sizeof msg; len++) {
      for (int which = 0; which < 2; which++) {
        const uint32_t *iv = which == 0 ? sha256_iv : sha224_iv;
        const size_t dlen = which == 0 ? 32 : 28;
        uint8_t want[32], got[33];
        portable_hmac(iv, key, kl, msg, len, want, dlen);
        memset(got, 0xa5, sizeof got);
        sha256_shani_hmac(iv, key, kl, msg, len, got, dlen);
        if (memcmp(got, want, dlen) != 0 || got[dlen] != 0xa5) {
          test_failures++;
          fprintf(stderr, "register HMAC-SHA-%d differs at key %zu, text %zu bytes\n",
                  which == 0 ? 256 : 224, kl, len);
          return;
        }
      }
    }
  }
}

/* ---- The AVX2 and portable SHA-512 compression functions agree ---------------------------- */

static void test_sha512_paths_agree(void) {
  if (!fm_cpu_use(FM_CPU_AVX2 | FM_CPU_BMI2)) {
    printf("avx2+bmi2 not in use: portable SHA-512 only (path parity not applicable)\n");
    return;
  }
  test_rng rng;
  test_rng_seed_fixed(&rng, 0x5ca1ab1f);
  uint8_t blocks[9 * SHA512_BLOCK_LEN + 1];
  for (int iter = 0; iter < 2000; iter++) {
    size_t n = 1 + test_rng_below(&rng, 9);
    size_t off = test_rng_below(&rng, 2);
    test_rng_bytes(&rng, blocks, sizeof blocks);
    uint64_t h1[8], h2[8];
    for (int i = 0; i < 8; i++) h1[i] = h2[i] = test_rng_u64(&rng);
    sha512_blocks_portable(h1, blocks + off, n);
    sha512_blocks_avx2(h2, blocks + off, n);
    if (memcmp(h1, h2, sizeof h1) != 0) {
      test_failures++;
      fprintf(stderr, "avx2 and portable SHA-512 differ at iteration %d (%zu blocks)\n", iter, n);
      break;
    }
  }
}

/* portable_sha512_rest runs the portable compression on the last |len| bytes at |msg| of a
 * |total|-byte message: the whole blocks, then a padding block or two built byte by byte. */
static void portable_sha512_rest(uint64_t h[8], const uint8_t *msg, size_t len, uint64_t total) {
  sha512_blocks_portable(h, msg, len / SHA512_BLOCK_LEN);
  uint8_t pad[2 * SHA512_BLOCK_LEN] = {0};
  const size_t tail = len % SHA512_BLOCK_LEN;
  const size_t nb = tail < SHA512_BLOCK_LEN - 16 ? 1 : 2;
  memcpy(pad, msg + len - tail, tail);
  pad[tail] = 0x80;
  for (int i = 0; i < 8; i++) {
    pad[nb * SHA512_BLOCK_LEN - 16 + i] = (uint8_t)((total >> 61) >> (56 - 8 * i));
    pad[nb * SHA512_BLOCK_LEN - 8 + i] = (uint8_t)((total << 3) >> (56 - 8 * i));
  }
  sha512_blocks_portable(h, pad, nb);
}

/* portable_sha512 is a SHA-512-family hash of |len| bytes from |iv| (portable_sha512_rest); the
 * first |dlen| bytes of the big-endian state to |out|. */
static void portable_sha512(const uint64_t iv[8], const uint8_t *msg, size_t len, uint8_t *out,
                            size_t dlen) {
  uint64_t h[8];
  memcpy(h, iv, sizeof h);
  portable_sha512_rest(h, msg, len, len);
  for (size_t i = 0; i < dlen; i++) out[i] = (uint8_t)(h[i / 8] >> (56 - 8 * (i % 8)));
}

/* ---- The SHA-512 register padding agrees with the portable compression ------------------- */

static void test_sha512_final_paths_agree(void) {
  if (!fm_cpu_use(FM_CPU_AVX2 | FM_CPU_BMI2 | FM_CPU_AVX512)) {
    printf("avx2+bmi2+avx512 not in use: the SHA-512 register padding is not run\n");
    return;
  }
  /* The inputs end at a page boundary before an inaccessible page (guarded_page), and their
   * lengths run over every tail length of one and two final blocks, with a total that sets bits
   * of the count's high word as well. */
  const size_t max_len = 3 * SHA512_BLOCK_LEN + 7;
  size_t page;
  uint8_t *map = guarded_page(0x5ca1ab22, &page);
  if (map == NULL) return;
  test_rng rng;
  test_rng_seed_fixed(&rng, 0x5ca1ab23);
  for (size_t len = 0; len <= max_len; len++) {
    for (int big = 0; big < 2; big++) {
      /* |total| counts bytes hashed before these |len| (a multiple of the block length). */
      const uint64_t before = big ? (3ull << 61) - 17 * SHA512_BLOCK_LEN : 0;
      const uint64_t total = before + len;
      const uint8_t *in = map + page - len;
      uint64_t h1[8], h2[8];
      for (int i = 0; i < 8; i++) h1[i] = h2[i] = test_rng_u64(&rng);
      portable_sha512_rest(h1, in, len, total);
      sha512_avx512_final(h2, in, len, total);
      if (memcmp(h1, h2, sizeof h1) != 0) {
        test_failures++;
        fprintf(stderr, "SHA-512 register padding differs at length %zu (total %llu)\n", len,
                (unsigned long long)total);
        guarded_page_free(map, page);
        return;
      }
    }
  }
  guarded_page_free(map, page);
}

/* ---- HMAC-SHA-384/512(/t) agrees with a portable reference at every short length ---------- */

static void test_hmac512_paths_agree(void) {
  /* hmac_internal on whichever path the CPU takes (the AVX2 compression and the register
   * padding of the inner hash's tail here) against the reference. */
  static const struct {
    fm_hash_alg alg;
    const uint64_t *iv;
    size_t dlen;
  } algs[] = {{FM_HASH_SHA384, sha384_iv, 48},
              {FM_HASH_SHA512, sha512_iv, 64},
              {FM_HASH_SHA512_224, sha512_224_iv, 28},
              {FM_HASH_SHA512_256, sha512_256_iv, 32}};
  test_rng rng;
  test_rng_seed_fixed(&rng, 0x5ca1ab24);
  uint8_t key[200], msg[270], buf[SHA512_BLOCK_LEN + sizeof msg];
  test_rng_bytes(&rng, key, sizeof key);
  test_rng_bytes(&rng, msg, sizeof msg);
  for (size_t a = 0; a < sizeof algs / sizeof algs[0]; a++) {
    const size_t dlen = algs[a].dlen;
    /* Every K0 length, a key longer than a block (hashed first), every text length across the
     * one- and two-block tails. */
    for (size_t kl = 0; kl <= SHA512_BLOCK_LEN + 1; kl++) {
      const size_t key_len = kl == SHA512_BLOCK_LEN + 1 ? sizeof key : kl;
      uint8_t k0[SHA512_BLOCK_LEN] = {0};
      if (key_len > SHA512_BLOCK_LEN) {
        portable_sha512(algs[a].iv, key, key_len, k0, dlen);
      } else {
        memcpy(k0, key, key_len);
      }
      for (size_t len = 0; len <= sizeof msg; len++) {
        uint8_t inner[64], want[64], got[65];
        for (size_t i = 0; i < SHA512_BLOCK_LEN; i++) buf[i] = k0[i] ^ 0x36;
        memcpy(buf + SHA512_BLOCK_LEN, msg, len);
        portable_sha512(algs[a].iv, buf, SHA512_BLOCK_LEN + len, inner, dlen);
        for (size_t i = 0; i < SHA512_BLOCK_LEN; i++) buf[i] = k0[i] ^ 0x5c;
        memcpy(buf + SHA512_BLOCK_LEN, inner, dlen);
        portable_sha512(algs[a].iv, buf, SHA512_BLOCK_LEN + dlen, want, dlen);
        memset(got, 0xa5, sizeof got);
        CHECK_EQ_INT(hmac_internal(algs[a].alg, key, key_len, msg, len, got), FM_OK);
        if (memcmp(got, want, dlen) != 0 || got[dlen] != 0xa5) {
          test_failures++;
          fprintf(stderr, "HMAC (digest %zu bytes) differs at key %zu, text %zu bytes\n", dlen,
                  key_len, len);
          return;
        }
      }
    }
  }
}

static const test_case cases[] = {
  TEST_CASE(fips180_examples),
  TEST_CASE(rfc4231),
  TEST_CASE(any_split),
  TEST_CASE(verify_rejects_bit_flips),
  TEST_CASE(sha256_paths_agree),
  TEST_CASE(sha256_digest_paths_agree),
  TEST_CASE(sha256_hmac_paths_agree),
  TEST_CASE(sha512_paths_agree),
  TEST_CASE(sha512_final_paths_agree),
  TEST_CASE(hmac512_paths_agree),
};

int main(int argc, char **argv) {
  return TEST_RUN(argc, argv, "test_sha_unit", cases);
}
