/* RSA key files (keyfile.h): the four structures in DER and PEM read and written byte for byte as
 * OpenSSL writes them (tests/vectors/keys, made with OpenSSL 3.0), keys the module does not take
 * refused with FM_ERR_UNSUPPORTED, and malformed encodings (BER forms, truncation, every single
 * byte flipped, bad base64) refused with a status, never a crash. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fipsmod/fipsmod.h"
#include "tests/common/test_util.h"

struct file {
  uint8_t *p;
  size_t n;
};

static struct file load(const char *name) {
  char rel[256];
  snprintf(rel, sizeof rel, "keys/%s", name);
  struct file f;
  f.p = test_read_vector_file(rel, &f.n);
  return f;
}

/* encode_eq: |key| encoded as |format|/|enc| is exactly the file |name|. */
static void check_encodes_as(const fm_rsa_key *key, fm_key_format format, fm_key_encoding enc,
                             const char *name) {
  struct file want = load(name);
  size_t need = 0;
  CHECK_EQ_INT(fm_rsa_key_encode(key, format, enc, NULL, 0, &need), FM_OK);
  CHECK_EQ_INT(need, want.n);
  uint8_t *out = malloc(need + 1);
  size_t got = 0;
  CHECK_EQ_INT(fm_rsa_key_encode(key, format, enc, out, need, &got), FM_OK);
  CHECK_EQ_INT(got, want.n);
  if (got == want.n) CHECK_MEM(out, want.p, got);
  /* One byte short: FM_ERR_BUFFER_TOO_SMALL, the buffer wiped, *out_len the length needed. */
  memset(out, 0xa5, need);
  CHECK_EQ_INT(fm_rsa_key_encode(key, format, enc, out, need - 1, &got), FM_ERR_BUFFER_TOO_SMALL);
  CHECK_EQ_INT(got, need);
  CHECK(test_is_all_zero(out, need - 1));
  free(out);
  free(want.p);
}

static fm_rsa_key *decode_file(const char *name, int want_status) {
  struct file f = load(name);
  fm_rsa_key *key = (fm_rsa_key *)(uintptr_t)1;
  int st = fm_rsa_key_decode(f.p, f.n, &key);
  if (st != want_status) fprintf(stderr, "%s: got %s\n", name, fm_strerror(st));
  CHECK_EQ_INT(st, want_status);
  if (st != FM_OK) CHECK(key == NULL);
  free(f.p);
  return st == FM_OK ? key : NULL;
}

static void test_private_formats_round_trip(void) {
  static const char *const files[] = {"rsa2048-pkcs8.pem", "rsa2048-pkcs8.der", "rsa2048-pkcs1.pem",
                                      "rsa2048-pkcs1.der"};
  for (size_t i = 0; i < 4; i++) {
    fm_rsa_key *key = decode_file(files[i], FM_OK);
    if (key == NULL) continue;
    int priv = 0;
    CHECK_EQ_INT(fm_rsa_key_is_private(key, &priv), FM_OK);
    CHECK_EQ_INT(priv, 1);
    check_encodes_as(key, FM_KEY_PKCS8_PRIVATE, FM_KEY_PEM, "rsa2048-pkcs8.pem");
    check_encodes_as(key, FM_KEY_PKCS8_PRIVATE, FM_KEY_DER, "rsa2048-pkcs8.der");
    check_encodes_as(key, FM_KEY_PKCS1_PRIVATE, FM_KEY_PEM, "rsa2048-pkcs1.pem");
    check_encodes_as(key, FM_KEY_PKCS1_PRIVATE, FM_KEY_DER, "rsa2048-pkcs1.der");
    check_encodes_as(key, FM_KEY_SPKI_PUBLIC, FM_KEY_PEM, "rsa2048-spki.pem");
    check_encodes_as(key, FM_KEY_SPKI_PUBLIC, FM_KEY_DER, "rsa2048-spki.der");
    check_encodes_as(key, FM_KEY_PKCS1_PUBLIC, FM_KEY_PEM, "rsa2048-pkcs1-pub.pem");
    check_encodes_as(key, FM_KEY_PKCS1_PUBLIC, FM_KEY_DER, "rsa2048-pkcs1-pub.der");
    CHECK_EQ_INT(fm_rsa_key_free(key), FM_OK);
  }
}

static void test_public_formats_round_trip(void) {
  static const char *const files[] = {"rsa2048-spki.pem", "rsa2048-spki.der",
                                      "rsa2048-pkcs1-pub.pem", "rsa2048-pkcs1-pub.der"};
  for (size_t i = 0; i < 4; i++) {
    fm_rsa_key *key = decode_file(files[i], FM_OK);
    if (key == NULL) continue;
    int priv = 1;
    CHECK_EQ_INT(fm_rsa_key_is_private(key, &priv), FM_OK);
    CHECK_EQ_INT(priv, 0);
    check_encodes_as(key, FM_KEY_SPKI_PUBLIC, FM_KEY_DER, "rsa2048-spki.der");
    check_encodes_as(key, FM_KEY_PKCS1_PUBLIC, FM_KEY_PEM, "rsa2048-pkcs1-pub.pem");
    /* A public key has no private encoding. */
    size_t n = 1;
    CHECK_EQ_INT(fm_rsa_key_encode(key, FM_KEY_PKCS8_PRIVATE, FM_KEY_DER, NULL, 0, &n),
                 FM_ERR_BAD_KEY);
    CHECK_EQ_INT(n, 0);
    CHECK_EQ_INT(fm_rsa_key_free(key), FM_OK);
  }
}

static void test_keys_the_module_does_not_take(void) {
  decode_file("rsapss2048-pkcs8.pem", FM_ERR_UNSUPPORTED);   /* id-RSASSA-PSS keys */
  decode_file("ec-p256-pkcs8.pem", FM_ERR_UNSUPPORTED);      /* another algorithm */
  decode_file("rsa2048-encrypted.pem", FM_ERR_UNSUPPORTED);  /* ENCRYPTED PRIVATE KEY */
  decode_file("rsa2048-3prime-pkcs8.pem", FM_ERR_UNSUPPORTED); /* multi-prime (version 1) */
  decode_file("rsa2048-3prime-pkcs1.der", FM_ERR_UNSUPPORTED);
  decode_file("rsa1024-pkcs8.pem", FM_ERR_KEY_SIZE); /* private keys start at 2048 bits */
  fm_rsa_key *legacy = decode_file("rsa1024-spki.pem", FM_OK); /* verification: legacy use */
  CHECK_EQ_INT(fm_rsa_key_free(legacy), FM_OK);
}

/* A legacy OpenSSL-encrypted PEM key (RFC 1421 headers "Proc-Type: 4,ENCRYPTED", "DEK-Info")
 * is well-formed PEM of something the module does not offer: FM_ERR_UNSUPPORTED, not a parse
 * error. */
static void test_legacy_encrypted_pem(void) {
  decode_file("rsa2048-legacy-encrypted.pem", FM_ERR_UNSUPPORTED);
}

/* DER is recognised by its first byte (a SEQUENCE), PEM by everything else: explanatory text
 * before the BEGIN line and white space after the END line are accepted; anything else after the
 * END line, or a second block, is a parse error. */
static void test_pem_armour(void) {
  struct file f = load("rsa2048-spki.pem");
  uint8_t *buf = malloc(f.n + 64);
  fm_rsa_key *key = NULL;
  static const char pre[] = "Subject: test key\n";
  memcpy(buf, pre, sizeof pre - 1);
  memcpy(buf + sizeof pre - 1, f.p, f.n);
  size_t n = sizeof pre - 1 + f.n;
  CHECK_EQ_INT(fm_rsa_key_decode(buf, n, &key), FM_OK);
  CHECK_EQ_INT(fm_rsa_key_free(key), FM_OK);
  memcpy(buf + n, " \r\n\t\n", 5);
  CHECK_EQ_INT(fm_rsa_key_decode(buf, n + 5, &key), FM_OK);
  CHECK_EQ_INT(fm_rsa_key_free(key), FM_OK);
  memcpy(buf + n, "x\n", 2);
  CHECK_EQ_INT(fm_rsa_key_decode(buf, n + 2, &key), FM_ERR_PARSE);
  CHECK(key == NULL);
  /* Two blocks: the body between the first BEGIN and the last END holds armour. */
  uint8_t *two = malloc(2 * f.n);
  memcpy(two, f.p, f.n);
  memcpy(two + f.n, f.p, f.n);
  CHECK_EQ_INT(fm_rsa_key_decode(two, 2 * f.n, &key), FM_ERR_PARSE);
  /* Text that starts with '0' (0x30) reads as DER. */
  buf[0] = '0';
  CHECK_EQ_INT(fm_rsa_key_decode(buf, n, &key), FM_ERR_PARSE);
  free(two);
  free(buf);
  free(f.p);
}

/* Every prefix and every suffix of PEM files, each in a buffer of exactly its length (so that a
 * read past the end is caught under valgrind or ASan): a status, never a crash, and FM_OK only
 * for the whole file (or with just trailing white space cut). */
static void test_pem_cuts(void) {
  static const char *const files[] = {"rsa2048-spki.pem", "rsa2048-legacy-encrypted.pem"};
  for (size_t fi = 0; fi < 2; fi++) {
    struct file f = load(files[fi]);
    for (size_t cut = 0; cut <= f.n; cut++) {
      for (int suffix = 0; suffix <= 1; suffix++) {
        const size_t n = suffix ? f.n - cut : cut;
        uint8_t *b = malloc(n ? n : 1);
        memcpy(b, suffix ? f.p + cut : f.p, n);
        fm_rsa_key *key = NULL;
        const int st = fm_rsa_key_decode(b, n, &key);
        if (st == FM_OK) {
          CHECK(fi == 0 && (n == f.n || (!suffix && n == f.n - 1)));
          CHECK_EQ_INT(fm_rsa_key_free(key), FM_OK);
        } else {
          CHECK(key == NULL);
        }
        free(b);
      }
    }
    free(f.p);
  }
}

static void test_bad_arguments(void) {
  fm_rsa_key *key = NULL;
  CHECK_EQ_INT(fm_rsa_key_decode(NULL, 1, &key), FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_rsa_key_decode((const uint8_t *)"x", 1, NULL), FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_rsa_key_decode(NULL, 0, &key), FM_ERR_PARSE);
  fm_rsa_key *k = decode_file("rsa2048-spki.der", FM_OK);
  size_t n;
  uint8_t buf[8];
  CHECK_EQ_INT(fm_rsa_key_encode(NULL, FM_KEY_SPKI_PUBLIC, FM_KEY_DER, buf, sizeof buf, &n),
               FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_rsa_key_encode(k, (fm_key_format)9, FM_KEY_DER, buf, sizeof buf, &n),
               FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_rsa_key_encode(k, FM_KEY_SPKI_PUBLIC, (fm_key_encoding)0, buf, sizeof buf, &n),
               FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_rsa_key_encode(k, FM_KEY_SPKI_PUBLIC, FM_KEY_DER, NULL, 5, &n),
               FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_rsa_key_encode(k, FM_KEY_SPKI_PUBLIC, FM_KEY_DER, buf, sizeof buf, NULL),
               FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_rsa_key_free(k), FM_OK);
}

/* decode_mutated: |der| with bytes [at, at+len) replaced by |with| (wlen bytes). */
static int decode_edit(const struct file *f, size_t at, size_t len, const uint8_t *with,
                       size_t wlen) {
  uint8_t *buf = malloc(f->n + wlen + 1);
  memcpy(buf, f->p, at);
  memcpy(buf + at, with, wlen);
  memcpy(buf + at + wlen, f->p + at + len, f->n - at - len);
  fm_rsa_key *key = NULL;
  int st = fm_rsa_key_decode(buf, f->n - len + wlen, &key);
  if (st == FM_OK) CHECK_EQ_INT(fm_rsa_key_free(key), FM_OK);
  else CHECK(key == NULL);
  free(buf);
  return st;
}

static void test_ber_and_non_canonical_der_refused(void) {
  struct file spki = load("rsa2048-spki.der"); /* 30 82 01 22 30 0d 06 09 ... */
  /* The outer length in the indefinite form, and in a longer form than needed. */
  static const uint8_t indefinite[] = {0x30, 0x80};
  CHECK_EQ_INT(decode_edit(&spki, 0, 4, indefinite, 2), FM_ERR_PARSE);
  static const uint8_t long_len[] = {0x30, 0x83, 0x00, 0x01, 0x22};
  CHECK_EQ_INT(decode_edit(&spki, 0, 4, long_len, 5), FM_ERR_PARSE);
  /* Trailing bytes after the structure. */
  static const uint8_t extra[] = {0x00};
  CHECK_EQ_INT(decode_edit(&spki, spki.n, 0, extra, 1), FM_ERR_PARSE);
  /* The algorithm's NULL parameters left out (RFC 3279 requires them). */
  struct file pub = load("rsa2048-pkcs1-pub.der"); /* 30 82 01 0a 02 82 01 01 00 <n> 02 03 <e> */
  /* n with a redundant leading zero byte (not minimal) and with its sign byte removed
   * (negative). */
  static const uint8_t n_redundant[] = {0x30, 0x82, 0x01, 0x0b, 0x02, 0x82, 0x01, 0x02, 0x00, 0x00};
  CHECK_EQ_INT(decode_edit(&pub, 0, 9, n_redundant, sizeof n_redundant), FM_ERR_PARSE);
  static const uint8_t n_negative[] = {0x30, 0x82, 0x01, 0x09, 0x02, 0x82, 0x01, 0x00};
  CHECK_EQ_INT(decode_edit(&pub, 0, 9, n_negative, sizeof n_negative), FM_ERR_PARSE);
  free(spki.p);
  free(pub.p);
}

/* Every prefix of every structure, and every single-byte flip: a status, never a crash; a flip
 * inside the DER header bytes is always refused. */
static void test_truncation_and_flips(void) {
  static const char *const files[] = {"rsa2048-pkcs8.der", "rsa2048-pkcs1.der", "rsa2048-spki.der",
                                      "rsa2048-pkcs1-pub.der", "rsa2048-spki.pem"};
  for (size_t fi = 0; fi < 5; fi++) {
    struct file f = load(files[fi]);
    for (size_t len = 0; len < f.n; len++) {
      fm_rsa_key *key = NULL;
      int st = fm_rsa_key_decode(f.p, len, &key);
      if (st == FM_OK) {
        /* Only PEM can lose trailing white space and stay whole. */
        CHECK(strstr(files[fi], ".pem") != NULL && len >= f.n - 1);
        CHECK_EQ_INT(fm_rsa_key_free(key), FM_OK);
      } else {
        CHECK(key == NULL);
      }
    }
    size_t accepted = 0;
    for (size_t at = 0; at < f.n; at++) {
      uint8_t orig = f.p[at];
      f.p[at] ^= 0x01;
      fm_rsa_key *key = NULL;
      int st = fm_rsa_key_decode(f.p, f.n, &key);
      if (st == FM_OK) {
        accepted++;
        CHECK_EQ_INT(fm_rsa_key_free(key), FM_OK);
      } else {
        CHECK(key == NULL);
        CHECK(st == FM_ERR_PARSE || st == FM_ERR_UNSUPPORTED || st == FM_ERR_BAD_KEY ||
              st == FM_ERR_KEY_SIZE);
      }
      f.p[at] = orig;
    }
    /* A private key's flipped component fails validation; a public key's may still be a key
     * (a different n), but never most of them. */
    if (strstr(files[fi], "pkcs8.der") || strstr(files[fi], "pkcs1.der")) CHECK_EQ_INT(accepted, 0);
    free(f.p);
  }
}

static void test_pem_text_rules(void) {
  struct file pem = load("rsa2048-spki.pem");
  const char *body = strstr((const char *)pem.p, "\n") + 1;
  size_t b = (size_t)(body - (const char *)pem.p);
  /* Explanatory text before the block is allowed (RFC 7468 5.2); CRLF line ends are too. */
  static const uint8_t intro[] = "Subject: test key\n";
  CHECK_EQ_INT(decode_edit(&pem, 0, 0, intro, sizeof intro - 1), FM_OK);
  /* A character outside the base64 alphabet, and data after the padding. */
  static const uint8_t star[] = {'*'};
  CHECK_EQ_INT(decode_edit(&pem, b + 10, 1, star, 1), FM_ERR_PARSE);
  /* END with another label. */
  const char *end = strstr((const char *)pem.p, "-----END PUBLIC KEY-----");
  static const uint8_t other_end[] = "-----END PRIVATE KEY-----";
  CHECK_EQ_INT(decode_edit(&pem, (size_t)(end - (const char *)pem.p), 24, other_end,
                           sizeof other_end - 1),
               FM_ERR_PARSE);
  /* A second block after the first. */
  uint8_t *two = malloc(2 * pem.n);
  memcpy(two, pem.p, pem.n);
  memcpy(two + pem.n, pem.p, pem.n);
  fm_rsa_key *key = NULL;
  CHECK_EQ_INT(fm_rsa_key_decode(two, 2 * pem.n, &key), FM_ERR_PARSE);
  free(two);
  /* A certificate is PEM of another kind. */
  static const uint8_t cert[] = "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n";
  CHECK_EQ_INT(fm_rsa_key_decode(cert, sizeof cert - 1, &key), FM_ERR_UNSUPPORTED);
  free(pem.p);
}

static void test_generated_key_signs_after_a_round_trip(void) {
  fm_rsa_key *key = NULL;
  CHECK_EQ_INT(fm_rsa_key_generate(2048, &key), FM_OK);
  size_t need = 0;
  CHECK_EQ_INT(fm_rsa_key_encode(key, FM_KEY_PKCS8_PRIVATE, FM_KEY_PEM, NULL, 0, &need), FM_OK);
  uint8_t *pem = malloc(need);
  CHECK_EQ_INT(fm_rsa_key_encode(key, FM_KEY_PKCS8_PRIVATE, FM_KEY_PEM, pem, need, &need), FM_OK);
  fm_rsa_key *back = NULL;
  CHECK_EQ_INT(fm_rsa_key_decode(pem, need, &back), FM_OK);
  uint8_t sig[256];
  size_t sig_len = 0;
  static const uint8_t msg[] = "message";
  CHECK_EQ_INT(fm_rsa_sign_pss(back, FM_HASH_SHA256, msg, sizeof msg, 32, sig, sizeof sig, &sig_len),
               FM_OK);
  CHECK_EQ_INT(fm_rsa_verify_pss(key, FM_HASH_SHA256, msg, sizeof msg, 32, sig, sig_len), FM_OK);
  CHECK_EQ_INT(fm_cleanse(pem, need), FM_OK);
  free(pem);
  CHECK_EQ_INT(fm_rsa_key_free(key), FM_OK);
  CHECK_EQ_INT(fm_rsa_key_free(back), FM_OK);
}

static const test_case cases[] = {
  TEST_CASE(legacy_encrypted_pem),
  TEST_CASE(pem_armour),
  TEST_CASE(pem_cuts),
  TEST_CASE(private_formats_round_trip),
  TEST_CASE(public_formats_round_trip),
  TEST_CASE(keys_the_module_does_not_take),
  TEST_CASE(bad_arguments),
  TEST_CASE(ber_and_non_canonical_der_refused),
  TEST_CASE(truncation_and_flips),
  TEST_CASE(pem_text_rules),
  TEST_CASE(generated_key_signs_after_a_round_trip),
};

int main(int argc, char **argv) {
  return TEST_RUN(argc, argv, "test_keyfile_unit", cases);
}
