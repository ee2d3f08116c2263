/* The KAT runner on garbled vector files: random byte changes, insertions, deletions, swapped
 * lines and truncations of real CAVP, ACVP, Wycheproof and NIST toolkit files. Whatever the
 * damage, the runner must return (no crash, no hang; ASan/UBSan builds check memory), and report
 * consistently: a malformed file is an error naming the file, a readable one gives counts.
 * Usage: test_kat_fuzz <tests/vectors> <work dir>; FIPSMOD_KAT_FUZZ_ITERS sets copies per file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tests/kat/kat_fuzz_check.h"

static const char *const files[] = {
    "cavp/shs/shabytetestvectors/SHA256ShortMsg.rsp",
    "cavp/shs/shabytetestvectors/SHA384Monte.rsp",
    "cavp/mac/hmactestvectors/HMAC.rsp",
    "cavp/aes/aesmmt/CBCMMT128.rsp",
    "cavp/aes/aesmct/ECBMCT256.rsp",
    "cavp/dss/186-3rsatestvectors/SigVer15_186-3.rsp",
    "cavp/components/RSADPtestvectors/RSADPComponent800_56B.rsp",
    "acvp/HMAC-SHA2-256-2.0/internalProjection.json",
    "wycheproof/hmac_sha256_test.json",
    "wycheproof/aes_cbc_pkcs5_test.json",
    "wycheproof/rsa_pss_2048_sha256_mgf1_32_test.json",
    "wycheproof/pbkdf2_hmacsha512_test.json",
    "nist-toolkit-examples/AES_GCM.txt",
    "generated/cavp-gcm/gcmDecrypt256-layout.rsp",
    "generated/cavp-gcm/gcmEncryptIntIV128-layout.req",
};

static unsigned char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *buf = malloc((size_t)n + 1);
  if (buf != NULL && fread(buf, 1, (size_t)n, f) != (size_t)n) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  *len = (size_t)n;
  return buf;
}

/* mutate writes a damaged copy of in[0..len) to out (capacity len + 64); returns its length. */
static size_t mutate(test_rng *r, const unsigned char *in, size_t len, unsigned char *out) {
  static const char garbage[] = "=[]{}\",:#0aZ\r\n\x00\xff";
  memcpy(out, in, len);
  size_t n = len;
  int rounds = 1 + (int)test_rng_below(r, 4);
  for (int k = 0; k < rounds && n > 0; k++) {
    size_t at = (size_t)test_rng_below(r, n);
    switch (test_rng_below(r, 6)) {
      case 0: /* truncate */
        n = at;
        break;
      case 1: /* overwrite one byte with a random or structural one */
        out[at] = test_rng_below(r, 2) ? (unsigned char)test_rng_u64(r)
                                       : (unsigned char)garbage[test_rng_below(r, sizeof(garbage))];
        break;
      case 2: { /* delete up to 40 bytes */
        size_t d = 1 + (size_t)test_rng_below(r, 40);
        if (d > n - at) d = n - at;
        memmove(out + at, out + at + d, n - at - d);
        n -= d;
        break;
      }
      case 3: { /* insert up to 8 structural bytes */
        size_t ins = 1 + (size_t)test_rng_below(r, 8);
        if (n + ins > len + 64) break;
        memmove(out + at + ins, out + at, n - at);
        for (size_t i = 0; i < ins; i++) out[at + i] = (unsigned char)garbage[test_rng_below(r, sizeof(garbage))];
        n += ins;
        break;
      }
      case 4: /* flip a hex digit into another hex digit (a plausible wrong value) */
        if ((out[at] >= '0' && out[at] <= '9') || (out[at] >= 'a' && out[at] <= 'f')) {
          out[at] = (unsigned char)"0123456789abcdef"[test_rng_below(r, 16)];
        }
        break;
      default: { /* copy a run of bytes over another place (duplicated or swapped lines) */
        size_t from = (size_t)test_rng_below(r, n), m = 1 + (size_t)test_rng_below(r, 200);
        if (m > n - from) m = n - from;
        if (m > n - at) m = n - at;
        memmove(out + at, out + from, m);
        break;
      }
    }
  }
  return n;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: test_kat_fuzz <vectors dir> <work dir>\n");
    return 2;
  }
  test_rng rng;
  test_rng_seed(&rng, "test_kat_fuzz");
  long iters = fuzz_iters("FIPSMOD_KAT_FUZZ_ITERS", 40);
  mkdir(argv[2], 0755);
  kat_report *rep = malloc(sizeof(*rep));
  kat_options opt = {0};
  long runs = 0, malformed = 0, failing = 0;
  for (size_t fi = 0; fi < sizeof(files) / sizeof(files[0]); fi++) {
    char src[1024], dst[1024];
    snprintf(src, sizeof(src), "%s/%s", argv[1], files[fi]);
    size_t len;
    unsigned char *in = read_file(src, &len);
    CHECK(in != NULL);
    if (in == NULL) continue;
    unsigned char *out = malloc(len + 64);
    const char *ext = strrchr(files[fi], '.');
    snprintf(dst, sizeof(dst), "%s/fuzz-%zu%s", argv[2], fi, ext ? ext : "");
    for (long it = 0; it < iters; it++) {
      size_t n = mutate(&rng, in, len, out);
      FILE *f = fopen(dst, "wb");
      CHECK(f != NULL);
      if (f == NULL) break;
      fwrite(out, 1, n, f);
      fclose(f);
      int rc = kat_run_file(dst, &opt, rep);
      runs++;
      malformed += fuzz_check_report("test_kat_fuzz", rc, rep, dst);
      if (rep->fail > 0) failing++;
    }
    free(out);
    free(in);
  }
  free(rep);
  printf("test_kat_fuzz: %ld garbled files: %ld malformed, %ld with failing cases\n", runs,
         malformed, failing);
  /* The mutations must have produced both kinds of outcome, or this test proves nothing. */
  CHECK(malformed > 0);
  CHECK(failing > 0);
  return test_main_result("test_kat_fuzz");
}
