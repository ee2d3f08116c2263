/* Differential test against OpenSSL EVP: AES-128, AES-192 and AES-256 in ECB (encrypt, decrypt), CBC
 * (encrypt, decrypt) and CTR with the 128-bit counter, random keys, IVs and lengths 0..10000
 * (block multiples for ECB and CBC), each message cut at random points into up to four calls
 * (CBC carrying the IV, CTR through fm_aes_ctr_stream), sometimes in place. At least 100,000
 * cases per algorithm on every path of this machine (argv[1] overrides the count; without it,
 * FIPSMOD_DIFF_DIVISOR divides it: test_util.h). The seed is printed first;
 * FIPSMOD_TEST_SEED=<seed> replays a run. */
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>

#include "fipsmod/aes.h"
#include "tests/aes/aes_test_paths.h"
#include "tests/common/test_util.h"

enum { MAX_LEN = 10000, POOL = 1 << 16, MAX_PIECES = 4 };
enum alg { ECB_ENC, ECB_DEC, CBC_ENC, CBC_DEC, CTR128, N_ALGS };
static const char *const k_alg_name[N_ALGS] = {"ECB-encrypt", "ECB-decrypt", "CBC-encrypt",
                                               "CBC-decrypt", "CTR128"};

static test_rng g_rng;
static uint64_t g_seed;
static uint8_t g_pool[POOL];
static int g_reported;

static const EVP_CIPHER *evp_cipher(enum alg a, size_t klen) {
  if (a == ECB_ENC || a == ECB_DEC) {
    return klen == 16 ? EVP_aes_128_ecb() : klen == 24 ? EVP_aes_192_ecb() : EVP_aes_256_ecb();
  }
  if (a == CBC_ENC || a == CBC_DEC) {
    return klen == 16 ? EVP_aes_128_cbc() : klen == 24 ? EVP_aes_192_cbc() : EVP_aes_256_cbc();
  }
  return klen == 16 ? EVP_aes_128_ctr() : klen == 24 ? EVP_aes_192_ctr() : EVP_aes_256_ctr();
}

/* pick_len: mostly short messages (where the tails and the per-call paths are), a quarter of
 * them anywhere up to MAX_LEN. */
static size_t pick_len(enum alg a) {
  size_t len = test_rng_below(&g_rng, 4) == 0 ? (size_t)test_rng_below(&g_rng, MAX_LEN + 1)
                                              : (size_t)test_rng_below(&g_rng, 300);
  if (a != CTR128) len -= len % 16;
  return len;
}

/* run_ours processes |in| in |npieces| calls cut at |cuts|. */
static int run_ours(enum alg a, const fm_aes_key *k, const uint8_t iv[16], const uint8_t *in,
                    uint8_t *out, const size_t *cuts, int npieces) {
  uint8_t chain[16], ksbuf[16];
  unsigned used = 16;
  memcpy(chain, iv, 16);
  size_t start = 0;
  for (int p = 0; p < npieces; p++) {
    const size_t end = cuts[p], n = end - start;
    int st = FM_ERR_INTERNAL;
    switch (a) {
      case ECB_ENC: st = fm_aes_ecb_encrypt(k, in + start, out + start, n); break;
      case ECB_DEC: st = fm_aes_ecb_decrypt(k, in + start, out + start, n); break;
      case CBC_ENC: st = fm_aes_cbc_encrypt(k, chain, in + start, out + start, n); break;
      case CBC_DEC: st = fm_aes_cbc_decrypt(k, chain, in + start, out + start, n); break;
      case CTR128:
        st = fm_aes_ctr_stream(k, FM_AES_CTR128, chain, ksbuf, &used, in + start, out + start, n);
        break;
      case N_ALGS: break;
    }
    if (st != FM_OK) return st;
    start = end;
  }
  return FM_OK;
}

static void run_case(EVP_CIPHER_CTX *ctx, enum alg a, size_t klen, const char *path, long idx) {
  static uint8_t ref[MAX_LEN + 16], out[MAX_LEN + 16];
  uint8_t key[32], iv[16];
  test_rng_bytes(&g_rng, key, klen);
  test_rng_bytes(&g_rng, iv, 16);
  if (test_rng_below(&g_rng, 8) == 0) memset(iv + 4 + test_rng_below(&g_rng, 8), 0xff, 4);
  const size_t len = pick_len(a);
  const uint8_t *in = g_pool + test_rng_below(&g_rng, POOL - MAX_LEN);

  /* Cut points: sorted, block-aligned for ECB/CBC. */
  size_t cuts[MAX_PIECES];
  const int npieces = 1 + (int)test_rng_below(&g_rng, MAX_PIECES);
  for (int p = 0; p < npieces - 1; p++) {
    size_t c = len == 0 ? 0 : (size_t)test_rng_below(&g_rng, len + 1);
    if (a != CTR128) c -= c % 16;
    cuts[p] = c;
  }
  cuts[npieces - 1] = len;
  for (int i = 1; i < npieces; i++) { /* insertion sort, npieces <= 4 */
    for (int j = i; j > 0 && cuts[j - 1] > cuts[j]; j--) {
      size_t t = cuts[j];
      cuts[j] = cuts[j - 1];
      cuts[j - 1] = t;
    }
  }

  const int enc = a == ECB_ENC || a == CBC_ENC || a == CTR128;
  int n1 = 0, n2 = 0;
  CHECK(EVP_CipherInit_ex(ctx, evp_cipher(a, klen), NULL, key, iv, enc));
  EVP_CIPHER_CTX_set_padding(ctx, 0);
  CHECK(EVP_CipherUpdate(ctx, ref, &n1, in, (int)len));
  CHECK(EVP_CipherFinal_ex(ctx, ref + n1, &n2));
  CHECK_EQ_INT(n1 + n2, len);

  fm_aes_key k;
  CHECK_EQ_INT(fm_aes_key_init(&k, key, klen), FM_OK);
  const int in_place = test_rng_below(&g_rng, 4) == 0;
  int st;
  if (in_place) {
    memcpy(out, in, len);
    st = run_ours(a, &k, iv, out, out, cuts, npieces);
  } else {
    st = run_ours(a, &k, iv, in, out, cuts, npieces);
  }
  fm_aes_key_wipe(&k);
  if (st != FM_OK || (len != 0 && memcmp(out, ref, len) != 0)) {
    test_failures++;
    if (g_reported++ < 5) {
      size_t first = 0;
      while (first < len && out[first] == ref[first]) first++;
      char kh[65], ih[33];
      test_hex_encode(key, klen, kh);
      test_hex_encode(iv, 16, ih);
      fprintf(stderr,
              "MISMATCH seed=0x%016llx path=%s alg=AES-%zu-%s case=%ld len=%zu pieces=%d "
              "in_place=%d status=%d first_diff=%zu key=%s iv=%s\n",
              (unsigned long long)g_seed, path, 8 * klen, k_alg_name[a], idx, len, npieces,
              in_place, st, first, kh, ih);
    }
  }
}

int main(int argc, char **argv) {
  const long cases = argc > 1 ? atol(argv[1]) : test_case_count(100000);
  g_seed = test_rng_seed(&g_rng, "test_aes_diff");
  test_rng_bytes(&g_rng, g_pool, sizeof g_pool);
  EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
  CHECK(ctx != NULL);
  int paths[3];
  const int npaths = aes_test_paths(paths);
  for (int p = 0; p < npaths; p++) {
    const char *path = aes_test_path_name(paths[p]);
    aes_limit_path_for_testing(paths[p]);
    for (size_t klen = 16; klen <= 32; klen += 8) {
      for (int a = 0; a < N_ALGS; a++) {
        for (long i = 0; i < cases; i++) run_case(ctx, (enum alg)a, klen, path, i);
        fprintf(stderr, "path %s AES-%zu-%s: %ld cases\n", path, 8 * klen, k_alg_name[a], cases);
      }
    }
  }
  aes_limit_path_for_testing(0);
  EVP_CIPHER_CTX_free(ctx);
  if (test_failures)
    fprintf(stderr, "replay with FIPSMOD_TEST_SEED=0x%016llx\n", (unsigned long long)g_seed);
  return test_main_result("test_aes_diff");
}
