/* Differential test of AES-128/192/256-GCM against OpenSSL EVP: random keys, IVs (mostly 96-bit,
 * else 1..64 bytes), AAD (none, or up to 600 bytes), plaintexts of 0..8448 bytes (mostly short,
 * where the tails are), every allowed tag length. Each case encrypts with fipsmod (one-shot,
 * the approved generated-IV seal, or streaming with the AAD and text cut at random points into
 * up to four calls; sometimes in place) and with OpenSSL, compares ciphertext and tag, then
 * decrypts fipsmod's output (one-shot or streaming) and checks a corrupted tag, ciphertext or
 * AAD byte is rejected with the plaintext wiped.
 *
 * The paths: on the fast run, 100,000 cases (argv[1] overrides) on each of the combinations
 * AES-NI x PCLMULQDQ, VAES-256 x VPCLMULQDQ-256, VAES-512 x VPCLMULQDQ-512 and AES-NI x portable
 * GHASH that the CPU has; the FIPSMOD_CPU=portable run does the portable path. The two VAES
 * pairs are the ones gcm.c sends through its stitched kernels (gcm_vaes.c, gcm_vaes256.c), which
 * take 16-block passes: as only about 40% of the cases above have 256 bytes of text or more,
 * each of those pairs also runs as many cases again with texts of 256..8448 bytes, so that each
 * stitched kernel meets the full count. FIPSMOD_DIFF_DIVISOR (test_util.h) divides the default
 * count. The seed is printed first; FIPSMOD_TEST_SEED=<seed> replays a run. */
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>

#include "fipsmod/gcm.h"
#include "tests/common/test_util.h"
#include "tests/gcm/gcm_test_paths.h"

enum { MAX_LEN = 8448, MAX_AAD = 600, MAX_IV = 64 };

static test_rng g_rng;
static uint64_t g_seed;
static int g_reported;

static void report(const char *what, gcm_path p, long i, size_t len, size_t alen, size_t ivlen) {
  test_failures++;
  if (g_reported++ < 10) {
    fprintf(stderr,
            "test_gcm_diff: %s differs (aes=%s ghash=%s case %ld, len %zu, aad %zu, iv %zu); "
            "replay with FIPSMOD_TEST_SEED=0x%llx\n",
            what, aes_test_path_name(p.aes), ghash_test_path_name(p.ghash), i, len, alen, ivlen,
            (unsigned long long)g_seed);
  }
}

static size_t pick(size_t small, size_t big) {
  return test_rng_below(&g_rng, 4) == 0 ? (size_t)test_rng_below(&g_rng, big + 1)
                                        : (size_t)test_rng_below(&g_rng, small + 1);
}

/* cuts fills |cut| with npieces-1 sorted cut points in [0, len] and len. */
static int make_cuts(size_t len, size_t cut[4]) {
  const int n = 1 + (int)test_rng_below(&g_rng, 4);
  for (int i = 0; i < n - 1; i++) cut[i] = (size_t)test_rng_below(&g_rng, len + 1);
  for (int i = 0; i < n - 1; i++) {
    for (int j = i + 1; j < n - 1; j++) {
      if (cut[j] < cut[i]) {
        size_t t = cut[i];
        cut[i] = cut[j];
        cut[j] = t;
      }
    }
  }
  cut[n - 1] = len;
  return n;
}

static int ossl_seal(const uint8_t *key, size_t klen, const uint8_t *iv, size_t ivlen,
                     const uint8_t *aad, size_t alen, const uint8_t *pt, size_t len, uint8_t *ct,
                     uint8_t *tag, size_t taglen) {
  EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
  int outl = 0, ok = c != NULL;
  const EVP_CIPHER *cipher = klen == 16   ? EVP_aes_128_gcm()
                             : klen == 24 ? EVP_aes_192_gcm()
                                          : EVP_aes_256_gcm();
  ok = ok && EVP_EncryptInit_ex(c, cipher, NULL, NULL, NULL) == 1;
  ok = ok && EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_IVLEN, (int)ivlen, NULL) == 1;
  ok = ok && EVP_EncryptInit_ex(c, NULL, NULL, key, iv) == 1;
  if (alen) ok = ok && EVP_EncryptUpdate(c, NULL, &outl, aad, (int)alen) == 1;
  if (len) ok = ok && EVP_EncryptUpdate(c, ct, &outl, pt, (int)len) == 1;
  ok = ok && EVP_EncryptFinal_ex(c, ct + len, &outl) == 1;
  ok = ok && EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_GET_TAG, (int)taglen, tag) == 1;
  EVP_CIPHER_CTX_free(c);
  return ok;
}

/* stream_run runs one message through fipsmod's streaming API. */
static int stream_run(fm_gcm_ctx *c, bool dec, const uint8_t *aad, size_t alen, const uint8_t *in,
                      uint8_t *out, size_t len, uint8_t *tag, size_t taglen) {
  size_t cut[4];
  int n = make_cuts(alen, cut), st = FM_OK;
  size_t start = 0;
  for (int i = 0; i < n && st == FM_OK; i++) {
    st = fm_gcm_aad(c, aad + start, cut[i] - start);
    start = cut[i];
  }
  n = make_cuts(len, cut);
  start = 0;
  for (int i = 0; i < n && st == FM_OK; i++) {
    st = fm_gcm_update(c, in + start, out + start, cut[i] - start);
    start = cut[i];
  }
  if (st != FM_OK) return st;
  return dec ? fm_gcm_decrypt_final(c, tag, taglen) : fm_gcm_encrypt_final(c, tag, taglen);
}

static const size_t k_tags[] = {16, 15, 14, 13, 12, 8, 4};

/* STITCHED_PASS is the text length of one pass of the stitched kernels (16 blocks). */
enum { STITCHED_PASS = 256 };

/* run_path runs |count| cases on |p|; |long_texts| draws every text length from
 * STITCHED_PASS..MAX_LEN. */
static void run_path(gcm_path p, long count, bool long_texts) {
  static uint8_t key[32], iv[MAX_IV], aad[MAX_AAD], pt[MAX_LEN], ct[MAX_LEN], ref[MAX_LEN],
      back[MAX_LEN];
  gcm_use_path(p);
  for (long i = 0; i < count; i++) {
    const size_t klen = 16 + 8 * (size_t)test_rng_below(&g_rng, 3);
    size_t ivlen = test_rng_below(&g_rng, 8) ? 12 : 1 + (size_t)test_rng_below(&g_rng, MAX_IV);
    const size_t alen = test_rng_below(&g_rng, 2) ? 0 : pick(40, MAX_AAD);
    const size_t len = long_texts ? STITCHED_PASS + pick(1024, MAX_LEN - STITCHED_PASS)
                       : test_rng_below(&g_rng, 10) == 0
                           ? 4096 + (size_t)test_rng_below(&g_rng, MAX_LEN - 4095)
                           : pick(300, 4096);
    const size_t taglen = k_tags[test_rng_below(&g_rng, 8) < 5 ? 0 : test_rng_below(&g_rng, 7)];
    test_rng_bytes(&g_rng, key, klen);
    test_rng_bytes(&g_rng, iv, ivlen);
    test_rng_bytes(&g_rng, aad, alen);
    test_rng_bytes(&g_rng, pt, len);

    fm_gcm_key k;
    uint8_t tag[16], ref_tag[16];
    if (fm_gcm_key_init(&k, key, klen) != FM_OK) {
      report("key init", p, i, len, alen, ivlen);
      continue;
    }
    const int mode = (int)test_rng_below(&g_rng, 4);
    const bool in_place = test_rng_below(&g_rng, 4) == 0;
    uint8_t *out = ct;
    if (in_place) memcpy(ct, pt, len);
    const uint8_t *src = in_place ? ct : pt;
    int st;
    if (mode == 0 && taglen >= 4) {
      /* The approved seal: the IV is the module's. */
      ivlen = 12;
      st = fm_gcm_seal(&k, iv, aad, alen, src, len, out, tag, taglen);
    } else if (mode == 1) {
      st = fm_gcm_seal_with_iv(&k, iv, ivlen, aad, alen, src, len, out, tag, taglen);
    } else {
      fm_gcm_ctx c;
      st = fm_gcm_encrypt_init_with_iv(&c, &k, iv, ivlen);
      if (st == FM_OK) st = stream_run(&c, false, aad, alen, src, out, len, tag, taglen);
    }
    if (st != FM_OK || !ossl_seal(key, klen, iv, ivlen, aad, alen, pt, len, ref, ref_tag, taglen)) {
      report("encrypt status", p, i, len, alen, ivlen);
      fm_gcm_key_wipe(&k);
      continue;
    }
    if (memcmp(ct, ref, len) != 0) report("ciphertext", p, i, len, alen, ivlen);
    if (memcmp(tag, ref_tag, taglen) != 0) report("tag", p, i, len, alen, ivlen);

    /* Decrypt what was sealed, then a corrupted copy. */
    const bool stream_dec = test_rng_below(&g_rng, 2);
    if (stream_dec) {
      fm_gcm_ctx c;
      st = fm_gcm_decrypt_init(&c, &k, iv, ivlen);
      if (st == FM_OK) st = stream_run(&c, true, aad, alen, ct, back, len, tag, taglen);
    } else {
      st = fm_gcm_open(&k, iv, ivlen, aad, alen, ct, len, tag, taglen, back);
    }
    if (st != FM_OK || memcmp(back, pt, len) != 0) report("decrypt", p, i, len, alen, ivlen);

    const int what = (int)test_rng_below(&g_rng, 3);
    if (what == 0 || (what == 1 && len == 0) || (what == 2 && alen == 0)) {
      tag[test_rng_below(&g_rng, taglen)] ^= (uint8_t)(1u << test_rng_below(&g_rng, 8));
    } else if (what == 1) {
      ct[test_rng_below(&g_rng, len)] ^= (uint8_t)(1u << test_rng_below(&g_rng, 8));
    } else {
      aad[test_rng_below(&g_rng, alen)] ^= (uint8_t)(1u << test_rng_below(&g_rng, 8));
    }
    memset(back, 0x55, len);
    if (fm_gcm_open(&k, iv, ivlen, aad, alen, ct, len, tag, taglen, back) != FM_ERR_VERIFY ||
        !test_is_all_zero(back, len)) {
      report("forgery accepted or plaintext not wiped", p, i, len, alen, ivlen);
    }
    fm_gcm_key_wipe(&k);
  }
  gcm_use_all_paths();
}

int main(int argc, char **argv) {
  const long count = argc > 1 ? atol(argv[1]) : test_case_count(100000);
  g_seed = test_rng_seed(&g_rng, "test_gcm_diff");
  gcm_path all[12];
  const int n = gcm_test_paths(all);
  /* The combinations to run: the widest GHASH path with each AES width, plus AES-NI with the
   * portable GHASH (so every GHASH and every AES path meets 100,000 cases). */
  gcm_path run[5];
  int nrun = 0;
  for (int i = 0; i < n; i++) {
    const bool diag = (all[i].aes == AES_PATH_AESNI && all[i].ghash == GHASH_PATH_CLMUL) ||
                      (all[i].aes == AES_PATH_VAES_AVX2 && all[i].ghash == GHASH_PATH_VPCLMUL256) ||
                      (all[i].aes == AES_PATH_VAES_AVX512 && all[i].ghash == GHASH_PATH_VPCLMUL512) ||
                      (all[i].aes == AES_PATH_AESNI && all[i].ghash == GHASH_PATH_PORTABLE) ||
                      (all[i].aes == 0 && all[i].ghash == GHASH_PATH_PORTABLE);
    if (diag && nrun < 5) run[nrun++] = all[i];
  }
  for (int i = 0; i < nrun; i++) {
    fprintf(stderr, "test_gcm_diff: %ld cases on aes=%s ghash=%s\n", count,
            aes_test_path_name(run[i].aes), ghash_test_path_name(run[i].ghash));
    run_path(run[i], count, false);
    const gcm_path r = run[i];
    const bool stitched = (r.aes == AES_PATH_VAES_AVX2 && r.ghash == GHASH_PATH_VPCLMUL256) ||
                          (r.aes == AES_PATH_VAES_AVX512 && r.ghash == GHASH_PATH_VPCLMUL512);
    if (stitched) {
      fprintf(stderr, "test_gcm_diff: %ld cases of %d..%d bytes on aes=%s ghash=%s (stitched)\n",
              count, STITCHED_PASS, MAX_LEN, aes_test_path_name(run[i].aes),
              ghash_test_path_name(run[i].ghash));
      run_path(run[i], count, true);
    }
  }
  CHECK(nrun >= 1);
  return test_main_result("test_gcm_diff");
}
