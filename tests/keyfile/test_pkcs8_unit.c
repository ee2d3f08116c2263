/* Encrypted PKCS#8 (pkcs8.h: fm_pkcs8_encrypt, fm_pkcs8_decrypt) and any-key loading (key.h:
 * fm_key_decode, fm_key_load_file, fm_key_get): files that OpenSSL 3.0 wrote (tests/vectors/keys,
 * passphrase "test"; the commands are in its README.md) decrypt to the unencrypted PKCS#8 of the
 * same key; every key type survives encrypt + decrypt with every PRF and AES key size; every
 * refusal has its own status (unsupported schemes named; a wrong passphrase and a corrupt
 * ciphertext are FM_ERR_DECRYPT with the output wiped). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fipsmod/fipsmod.h"
#include "tests/common/test_util.h"

static const uint8_t k_pass[] = "test";
#define PASS k_pass, 4
#define FAST_ITER 1000 /* keeps the round trips quick; the default is tested once */

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

/* decrypt_file: the OpenSSL file |enc| decrypts to exactly the DER file |plain|, with |params|. */
static void check_openssl_file(const char *enc, const char *plain, fm_hash_alg prf,
                               size_t aes_len, uint64_t iterations, fm_key_type type) {
  struct file e = load(enc), p = load(plain);
  uint8_t out[4096];
  size_t n = 0;
  fm_pkcs8_params found;
  CHECK_EQ_INT(fm_pkcs8_decrypt(e.p, e.n, PASS, out, sizeof out, &n, &found), FM_OK);
  CHECK_EQ_INT(n, p.n);
  CHECK_MEM(out, p.p, p.n);
  CHECK_EQ_INT(found.scheme, FM_PBE_PBES2_PBKDF2_AES_CBC);
  CHECK_EQ_INT(found.prf, prf);
  CHECK_EQ_INT(found.aes_key_len, aes_len);
  CHECK_EQ_INT(found.iterations, iterations);
  CHECK_EQ_INT(found.salt_len, 8); /* OpenSSL 3.0's pkcs8 -topk8 */
  fm_key *key = NULL;
  fm_key_type t = FM_KEY_TYPE_NONE;
  CHECK_EQ_INT(fm_key_decode(e.p, e.n, PASS, &key, &t), FM_OK);
  CHECK_EQ_INT(t, type);
  fm_key_view v;
  CHECK_EQ_INT(fm_key_get(key, &v), FM_OK);
  CHECK_EQ_INT(v.type, type);
  CHECK_EQ_INT(v.is_private, 1);
  CHECK(type != FM_KEY_TYPE_RSA || v.rsa != NULL);
  CHECK(type != FM_KEY_TYPE_EC || v.ec != NULL);
  CHECK_EQ_INT(fm_key_free(key), FM_OK);
  free(e.p);
  free(p.p);
}

static void test_openssl_files_decrypt(void) {
  check_openssl_file("rsa2048-encrypted.pem", "rsa2048-pkcs8.der", FM_HASH_SHA256, 32, 2048,
                     FM_KEY_TYPE_RSA);
  check_openssl_file("ec-p256-encrypted-aes128-sha512.pem", "ec-p256-pkcs8.der", FM_HASH_SHA512,
                     16, 2048, FM_KEY_TYPE_EC);
  check_openssl_file("ec-p384-encrypted-aes192-sha384.der", "ec-p384-pkcs8.der", FM_HASH_SHA384,
                     24, 2048, FM_KEY_TYPE_EC);
  check_openssl_file("ec-p521-encrypted-aes256-sha224.pem", "ec-p521-pkcs8.der", FM_HASH_SHA224,
                     32, 1000, FM_KEY_TYPE_EC);
}

/* round_trip encrypts the DER file |plain| with |p|, decrypts it, and loads it as |type|. */
static void round_trip(const char *plain, const fm_pkcs8_params *p, fm_key_encoding enc,
                       fm_key_type type) {
  struct file f = load(plain);
  size_t need = 0, n = 0;
  CHECK_EQ_INT(fm_pkcs8_encrypt(f.p, f.n, PASS, p, enc, NULL, 0, &need), FM_OK);
  uint8_t *ct = malloc(need), *pt = malloc(need);
  CHECK_EQ_INT(fm_pkcs8_encrypt(f.p, f.n, PASS, p, enc, ct, need, &n), FM_OK);
  CHECK_EQ_INT(n, need);
  CHECK(enc != FM_KEY_PEM || memcmp(ct, "-----BEGIN ENCRYPTED PRIVATE KEY-----\n", 38) == 0);
  size_t m = 0;
  fm_pkcs8_params found;
  CHECK_EQ_INT(fm_pkcs8_decrypt(ct, n, PASS, pt, need, &m, &found), FM_OK);
  CHECK_EQ_INT(m, f.n);
  CHECK_MEM(pt, f.p, f.n);
  CHECK_EQ_INT(found.prf, p->prf);
  CHECK_EQ_INT(found.aes_key_len, p->aes_key_len);
  CHECK_EQ_INT(found.iterations, p->iterations);
  CHECK_EQ_INT(found.salt_len, p->salt_len ? p->salt_len : 16);
  fm_key *key = NULL;
  fm_key_type t = FM_KEY_TYPE_NONE;
  CHECK_EQ_INT(fm_key_decode(ct, n, PASS, &key, &t), FM_OK);
  CHECK_EQ_INT(t, type);
  (void)fm_key_free(key);
  /* Two encryptions of one key differ (fresh salt and IV). */
  uint8_t *ct2 = malloc(need);
  CHECK_EQ_INT(fm_pkcs8_encrypt(f.p, f.n, PASS, p, enc, ct2, need, &n), FM_OK);
  CHECK(memcmp(ct, ct2, need) != 0);
  free(ct2);
  free(ct);
  free(pt);
  free(f.p);
}

static void test_every_key_type_round_trips(void) {
  const fm_hash_alg prfs[] = {FM_HASH_SHA224, FM_HASH_SHA256, FM_HASH_SHA384, FM_HASH_SHA512,
                              FM_HASH_SHA512_224, FM_HASH_SHA512_256};
  const size_t aes[] = {16, 24, 32};
  for (size_t i = 0; i < sizeof prfs / sizeof prfs[0]; i++) {
    fm_pkcs8_params p = {FM_PBE_NONE, prfs[i], aes[i % 3], FAST_ITER, 16 + 8 * (i % 2)};
    round_trip("ec-p256-pkcs8.der", &p, i % 2 ? FM_KEY_PEM : FM_KEY_DER, FM_KEY_TYPE_EC);
  }
  fm_pkcs8_params p = {FM_PBE_NONE, FM_HASH_SHA256, 32, FAST_ITER, 16};
  round_trip("rsa2048-pkcs8.der", &p, FM_KEY_PEM, FM_KEY_TYPE_RSA);
  round_trip("mlkem768-pkcs8.der", &p, FM_KEY_PEM, FM_KEY_TYPE_MLKEM);
  round_trip("mlkem512-both.der", &p, FM_KEY_DER, FM_KEY_TYPE_MLKEM);
  round_trip("mldsa44-pkcs8.der", &p, FM_KEY_PEM, FM_KEY_TYPE_MLDSA);
  round_trip("mldsa87-expanded.der", &p, FM_KEY_DER, FM_KEY_TYPE_MLDSA);
}

static void test_defaults(void) {
  struct file f = load("ec-p256-pkcs8.der");
  uint8_t out[1024], pt[1024];
  size_t n = 0, m = 0;
  CHECK_EQ_INT(fm_pkcs8_encrypt(f.p, f.n, (const uint8_t *)"long passphrase", 15, NULL,
                                FM_KEY_DER, out, sizeof out, &n),
               FM_OK);
  fm_indicator ind = FM_INDICATOR_NONE;
  CHECK_EQ_INT(fm_service_indicator(&ind), FM_OK);
  CHECK_EQ_INT(ind, FM_INDICATOR_APPROVED);
  fm_pkcs8_params found;
  CHECK_EQ_INT(fm_pkcs8_decrypt(out, n, (const uint8_t *)"long passphrase", 15, pt, sizeof pt,
                                &m, &found),
               FM_OK);
  CHECK_EQ_INT(found.iterations, FM_PKCS8_DEFAULT_ITERATIONS);
  CHECK_EQ_INT(found.prf, FM_HASH_SHA256);
  CHECK_EQ_INT(found.aes_key_len, 32);
  CHECK_EQ_INT(found.salt_len, FM_PKCS8_DEFAULT_SALT_LEN);
  CHECK_MEM(pt, f.p, f.n);
  free(f.p);
}

static void check_scheme(const char *name, fm_pbe_scheme want) {
  struct file f = load(name);
  uint8_t out[4096];
  memset(out, 0xa5, sizeof out);
  size_t n = 7;
  fm_pkcs8_params found;
  CHECK_EQ_INT(fm_pkcs8_decrypt(f.p, f.n, PASS, out, sizeof out, &n, &found), FM_ERR_UNSUPPORTED);
  CHECK_EQ_INT(found.scheme, want);
  CHECK_EQ_INT(n, 0);
  CHECK(test_is_all_zero(out, sizeof out));
  fm_key *key = (fm_key *)(uintptr_t)1;
  CHECK_EQ_INT(fm_key_decode(f.p, f.n, PASS, &key, NULL), FM_ERR_UNSUPPORTED);
  CHECK(key == NULL);
  free(f.p);
}

static void test_unsupported_schemes_are_named(void) {
  check_scheme("rsa2048-encrypted-sha1.pem", FM_PBE_PBES2_PBKDF2_SHA1);
  check_scheme("rsa2048-encrypted-3des.pem", FM_PBE_PBES2_DES_EDE3_CBC);
  check_scheme("rsa2048-encrypted-scrypt.pem", FM_PBE_PBES2_SCRYPT);
  check_scheme("rsa2048-encrypted-pkcs12.pem", FM_PBE_PKCS12);
  check_scheme("rsa2048-encrypted-pbes1.pem", FM_PBE_PBES1);
}

/* A wrong passphrase and corrupt ciphertexts: FM_ERR_DECRYPT, output wiped, *out_len 0. */
static void expect_decrypt_error(const uint8_t *in, size_t n, const uint8_t *pass, size_t pl) {
  uint8_t out[4096];
  memset(out, 0xa5, sizeof out);
  size_t m = 7;
  CHECK_EQ_INT(fm_pkcs8_decrypt(in, n, pass, pl, out, sizeof out, &m, NULL), FM_ERR_DECRYPT);
  CHECK_EQ_INT(m, 0);
  CHECK(test_is_all_zero(out, sizeof out));
  fm_key *key = NULL;
  CHECK_EQ_INT(fm_key_decode(in, n, pass, pl, &key, NULL), FM_ERR_DECRYPT);
}

static void test_wrong_passphrase(void) {
  struct file f = load("ec-p384-encrypted-aes192-sha384.der");
  expect_decrypt_error(f.p, f.n, (const uint8_t *)"tesT", 4);
  expect_decrypt_error(f.p, f.n, (const uint8_t *)"test ", 5);
  expect_decrypt_error(f.p, f.n, (const uint8_t *)"", 0);
  free(f.p);
}

static void test_corrupt_ciphertext(void) {
  struct file f = load("ec-p384-encrypted-aes192-sha384.der");
  /* The DER ends with the ciphertext; the 16 bytes before the ciphertext's header are the IV. */
  const size_t ct_len = 192, ct = f.n - ct_len, iv = ct - 3 - 16;
  CHECK_EQ_INT(f.p[ct - 3], 0x04);
  CHECK_EQ_INT(f.p[ct - 2], 0x81);
  /* The IV's first five bytes flip the plaintext's header (and first element): refused by the
   * joint padding and header check or by the structure check, with one status. */
  for (size_t i = 0; i < 5; i++) {
    f.p[iv + i] ^= 0x01;
    expect_decrypt_error(f.p, f.n, PASS);
    f.p[iv + i] ^= 0x01;
  }
  /* The last block decrypts to noise: the padding fails. */
  for (size_t i = f.n - 16; i < f.n; i += 5) {
    f.p[i] ^= 0x80;
    expect_decrypt_error(f.p, f.n, PASS);
    f.p[i] ^= 0x80;
  }
  uint8_t out[512];
  size_t m = 0;
  CHECK_EQ_INT(fm_pkcs8_decrypt(f.p, f.n, PASS, out, sizeof out, &m, NULL), FM_OK);
  free(f.p);
}

/* tl is the length of an element with |n| content bytes (n < 256); put_hdr writes its header. */
static size_t tl(size_t n) { return (n < 128 ? 2 : 3) + n; }
static void put_hdr(uint8_t *o, size_t *n, uint8_t tag, size_t len) {
  o[(*n)++] = tag;
  if (len >= 128) o[(*n)++] = 0x81;
  o[(*n)++] = (uint8_t)len;
}

/* build_epki writes a PBES2 EncryptedPrivateKeyInfo (PBKDF2-HMAC-SHA256, AES-256-CBC) with the
 * given iteration INTEGER contents, salt, IV and ciphertext lengths, and returns its length. */
static size_t build_epki(uint8_t *o, const uint8_t *iter, size_t iter_len, size_t salt_len,
                         size_t iv_len, size_t ct_len) {
  static const uint8_t pbes2[] = {0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x05, 0x0d};
  static const uint8_t pbkdf2[] = {0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x05, 0x0c};
  static const uint8_t prf[] = {0x30, 0x0c, 0x06, 0x08, 0x2a, 0x86, 0x48, 0x86,
                                0xf7, 0x0d, 0x02, 0x09, 0x05, 0x00};
  static const uint8_t aes[] = {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x01, 0x2a};
  const size_t params = tl(salt_len) + tl(iter_len) + sizeof prf;
  const size_t kdf = tl(sizeof pbkdf2) + tl(params), cipher = tl(sizeof aes) + tl(iv_len);
  const size_t p2 = tl(kdf) + tl(cipher), alg = tl(sizeof pbes2) + tl(p2);
  size_t n = 0;
  put_hdr(o, &n, 0x30, tl(alg) + tl(ct_len));
  put_hdr(o, &n, 0x30, alg);
  put_hdr(o, &n, 0x06, sizeof pbes2);
  memcpy(o + n, pbes2, sizeof pbes2), n += sizeof pbes2;
  put_hdr(o, &n, 0x30, p2);
  put_hdr(o, &n, 0x30, kdf);
  put_hdr(o, &n, 0x06, sizeof pbkdf2);
  memcpy(o + n, pbkdf2, sizeof pbkdf2), n += sizeof pbkdf2;
  put_hdr(o, &n, 0x30, params);
  put_hdr(o, &n, 0x04, salt_len);
  memset(o + n, 0x11, salt_len), n += salt_len;
  put_hdr(o, &n, 0x02, iter_len);
  memcpy(o + n, iter, iter_len), n += iter_len;
  memcpy(o + n, prf, sizeof prf), n += sizeof prf;
  put_hdr(o, &n, 0x30, cipher);
  put_hdr(o, &n, 0x06, sizeof aes);
  memcpy(o + n, aes, sizeof aes), n += sizeof aes;
  put_hdr(o, &n, 0x04, iv_len);
  memset(o + n, 0x22, iv_len), n += iv_len;
  put_hdr(o, &n, 0x04, ct_len);
  memset(o + n, 0x33, ct_len), n += ct_len;
  return n;
}

static void test_parameter_bounds(void) {
  uint8_t e[512], out[256];
  size_t n, m = 0;
  static const uint8_t it1000[] = {0x03, 0xe8}, it0[] = {0x00};
  static const uint8_t it_max[] = {0x00, 0x98, 0x96, 0x80}, it_over[] = {0x00, 0x98, 0x96, 0x81};
  n = build_epki(e, it1000, 2, 16, 16, 32);
  CHECK_EQ_INT(fm_pkcs8_decrypt(e, n, PASS, NULL, 0, &m, NULL), FM_OK); /* the size query */
  CHECK_EQ_INT(m, 32);
  CHECK_EQ_INT(fm_pkcs8_decrypt(e, n, PASS, out, sizeof out, &m, NULL), FM_ERR_DECRYPT);
  n = build_epki(e, it0, 1, 16, 16, 32);
  CHECK_EQ_INT(fm_pkcs8_decrypt(e, n, PASS, out, sizeof out, &m, NULL), FM_ERR_OUT_OF_RANGE);
  n = build_epki(e, it_over, 4, 16, 16, 32);
  CHECK_EQ_INT(fm_pkcs8_decrypt(e, n, PASS, out, sizeof out, &m, NULL), FM_ERR_OUT_OF_RANGE);
  n = build_epki(e, it_max, 4, 16, 16, 32);
  CHECK_EQ_INT(fm_pkcs8_decrypt(e, n, PASS, NULL, 0, &m, NULL), FM_OK); /* parses; not run */
  n = build_epki(e, it1000, 2, 0, 16, 32);
  CHECK_EQ_INT(fm_pkcs8_decrypt(e, n, PASS, out, sizeof out, &m, NULL), FM_ERR_LENGTH);
  n = build_epki(e, it1000, 2, 65, 16, 32);
  CHECK_EQ_INT(fm_pkcs8_decrypt(e, n, PASS, out, sizeof out, &m, NULL), FM_ERR_LENGTH);
  n = build_epki(e, it1000, 2, 16, 8, 32);
  CHECK_EQ_INT(fm_pkcs8_decrypt(e, n, PASS, out, sizeof out, &m, NULL), FM_ERR_LENGTH);
  n = build_epki(e, it1000, 2, 16, 16, 31);
  CHECK_EQ_INT(fm_pkcs8_decrypt(e, n, PASS, out, sizeof out, &m, NULL), FM_ERR_DECRYPT);
  n = build_epki(e, it1000, 2, 16, 16, 0);
  CHECK_EQ_INT(fm_pkcs8_decrypt(e, n, PASS, out, sizeof out, &m, NULL), FM_ERR_DECRYPT);
  n = build_epki(e, it1000, 2, 16, 16, 32);
  e[n - 1] = 0; /* trailing garbage after the structure: a byte too many */
  CHECK_EQ_INT(fm_pkcs8_decrypt(e, n + 1, PASS, out, sizeof out, &m, NULL), FM_ERR_PARSE);
  CHECK_EQ_INT(fm_pkcs8_decrypt(e, n - 1, PASS, out, sizeof out, &m, NULL), FM_ERR_PARSE);
  /* Too small an output buffer: the ciphertext's length is the bound. */
  n = build_epki(e, it1000, 2, 16, 16, 32);
  m = 0;
  CHECK_EQ_INT(fm_pkcs8_decrypt(e, n, PASS, out, 31, &m, NULL), FM_ERR_BUFFER_TOO_SMALL);
  CHECK_EQ_INT(m, 32);
}

static void test_decrypt_bad_arguments(void) {
  struct file f = load("rsa2048-encrypted.pem");
  uint8_t out[2048];
  size_t m = 0;
  CHECK_EQ_INT(fm_pkcs8_decrypt(NULL, 3, PASS, out, sizeof out, &m, NULL), FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_pkcs8_decrypt(f.p, f.n, PASS, out, sizeof out, NULL, NULL), FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_pkcs8_decrypt(f.p, f.n, NULL, 4, out, sizeof out, &m, NULL), FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_pkcs8_decrypt(f.p, f.n, PASS, NULL, 8, &m, NULL), FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_pkcs8_decrypt(f.p, f.n, NULL, 0, out, sizeof out, &m, NULL), FM_ERR_PASSPHRASE);
  CHECK_EQ_INT(fm_pkcs8_decrypt(f.p, f.n, f.p, 4, f.p, f.n, &m, NULL), FM_ERR_OVERLAP);
  CHECK_EQ_INT(fm_pkcs8_decrypt(f.p, 0, PASS, out, sizeof out, &m, NULL), FM_ERR_PARSE);
  free(f.p);
  /* An unencrypted key is another PEM label. */
  f = load("ec-p256-pkcs8.pem");
  fm_pkcs8_params found;
  CHECK_EQ_INT(fm_pkcs8_decrypt(f.p, f.n, PASS, out, sizeof out, &m, &found), FM_ERR_UNSUPPORTED);
  CHECK_EQ_INT(found.scheme, FM_PBE_NONE);
  free(f.p);
}

static void test_encrypt_errors(void) {
  struct file f = load("ec-p256-pkcs8.der");
  uint8_t out[1024];
  size_t n = 0;
  fm_pkcs8_params p = {FM_PBE_NONE, FM_HASH_SHA256, 32, FAST_ITER, 16};
#define ENC(st, key, klen, pass, plen, par, enc, o, cap)                                   \
  do {                                                                                      \
    memset(out, 0xa5, sizeof out);                                                          \
    CHECK_EQ_INT(fm_pkcs8_encrypt((key), (klen), (pass), (plen), (par), (enc), (o), (cap), &n), \
                 (st));                                                                     \
    CHECK(test_is_all_zero(out, sizeof out));                                               \
  } while (0)
  ENC(FM_ERR_BAD_ARGUMENT, NULL, 1, k_pass, 4, &p, FM_KEY_DER, out, sizeof out);
  ENC(FM_ERR_BAD_ARGUMENT, f.p, f.n, NULL, 4, &p, FM_KEY_DER, out, sizeof out);
  ENC(FM_ERR_BAD_ARGUMENT, f.p, f.n, k_pass, 4, &p, (fm_key_encoding)3, out, sizeof out);
  ENC(FM_ERR_PASSPHRASE, f.p, f.n, NULL, 0, &p, FM_KEY_DER, out, sizeof out);
  ENC(FM_ERR_PASSPHRASE, f.p, f.n, k_pass, 0, &p, FM_KEY_DER, out, sizeof out);
  ENC(FM_ERR_PARSE, f.p, f.n - 1, k_pass, 4, &p, FM_KEY_DER, out, sizeof out);
  struct file spki = load("ec-p256-spki.der");
  ENC(FM_ERR_PARSE, spki.p, spki.n, k_pass, 4, &p, FM_KEY_DER, out, sizeof out);
  free(spki.p);
  memset(out, 0xa5, sizeof out);
  CHECK_EQ_INT(fm_pkcs8_encrypt(f.p, f.n, k_pass, 4, &p, FM_KEY_DER, out, 100, &n),
               FM_ERR_BUFFER_TOO_SMALL);
  CHECK(test_is_all_zero(out, 100));
  CHECK(n > 100);
  fm_pkcs8_params q = p;
  q.prf = FM_HASH_SHA3_256;
  ENC(FM_ERR_UNSUPPORTED, f.p, f.n, k_pass, 4, &q, FM_KEY_DER, out, sizeof out);
  q = p;
  q.aes_key_len = 20;
  ENC(FM_ERR_UNSUPPORTED, f.p, f.n, k_pass, 4, &q, FM_KEY_DER, out, sizeof out);
  q = p;
  q.iterations = FM_PKCS8_MAX_ITERATIONS + 1ull;
  ENC(FM_ERR_OUT_OF_RANGE, f.p, f.n, k_pass, 4, &q, FM_KEY_DER, out, sizeof out);
  q = p;
  q.salt_len = 7;
  ENC(FM_ERR_LENGTH, f.p, f.n, k_pass, 4, &q, FM_KEY_DER, out, sizeof out);
  q.salt_len = FM_PKCS8_MAX_SALT_LEN + 1;
  ENC(FM_ERR_LENGTH, f.p, f.n, k_pass, 4, &q, FM_KEY_DER, out, sizeof out);
  memcpy(out, f.p, f.n);
  CHECK_EQ_INT(fm_pkcs8_encrypt(out, f.n, PASS, &p, FM_KEY_DER, out, sizeof out, &n),
               FM_ERR_OVERLAP);
#undef ENC
  free(f.p);
}

static void test_key_decode_finds_the_type(void) {
  static const struct {
    const char *name;
    int status;
    fm_key_type type;
    int is_private;
  } k[] = {
      {"rsa2048-pkcs1.pem", FM_OK, FM_KEY_TYPE_RSA, 1},
      {"rsa2048-spki.der", FM_OK, FM_KEY_TYPE_RSA, 0},
      {"ec-p256-sec1.pem", FM_OK, FM_KEY_TYPE_EC, 1},
      {"ec-p384-spki.pem", FM_OK, FM_KEY_TYPE_EC, 0},
      {"mlkem768-pkcs8.pem", FM_OK, FM_KEY_TYPE_MLKEM, 1},
      {"mlkem1024-spki.der", FM_OK, FM_KEY_TYPE_MLKEM, 0},
      {"mldsa65-pkcs8.pem", FM_OK, FM_KEY_TYPE_MLDSA, 1},
      {"mldsa65-spki.pem", FM_OK, FM_KEY_TYPE_MLDSA, 0},
      {"ed25519-pkcs8.pem", FM_ERR_UNSUPPORTED, FM_KEY_TYPE_ED25519, 0},
      {"rsapss2048-pkcs8.pem", FM_ERR_UNSUPPORTED, FM_KEY_TYPE_RSA_PSS, 0},
      {"ec-secp256k1-pkcs8.pem", FM_ERR_UNSUPPORTED, FM_KEY_TYPE_EC, 0},
      {"rsa2048-3prime-pkcs8.pem", FM_ERR_UNSUPPORTED, FM_KEY_TYPE_RSA, 0},
      {"rsa2048-legacy-encrypted.pem", FM_ERR_UNSUPPORTED, FM_KEY_TYPE_NONE, 0},
  };
  for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
    struct file f = load(k[i].name);
    fm_key *key = NULL;
    fm_key_type t = (fm_key_type)99;
    const int st = fm_key_decode(f.p, f.n, NULL, 0, &key, &t);
    if (st != k[i].status || t != k[i].type)
      fprintf(stderr, "%s: %s, type %d\n", k[i].name, fm_strerror(st), (int)t);
    CHECK_EQ_INT(st, k[i].status);
    CHECK_EQ_INT(t, k[i].type);
    if (st == FM_OK) {
      fm_key_view v;
      CHECK_EQ_INT(fm_key_get(key, &v), FM_OK);
      CHECK_EQ_INT(v.is_private, k[i].is_private);
      CHECK((v.priv != NULL) == (k[i].is_private && t >= FM_KEY_TYPE_MLKEM));
      CHECK(t < FM_KEY_TYPE_MLKEM || (v.pub != NULL && v.pub_len > 0));
    } else {
      CHECK(key == NULL);
    }
    (void)fm_key_free(key);
    free(f.p);
  }
  /* An encrypted key with no passphrase; an encrypted Ed25519 key decrypts, then is named. */
  struct file f = load("rsa2048-encrypted.pem");
  fm_key *key = NULL;
  fm_key_type t = FM_KEY_TYPE_NONE;
  CHECK_EQ_INT(fm_key_decode(f.p, f.n, NULL, 0, &key, &t), FM_ERR_PASSPHRASE);
  free(f.p);
  f = load("ed25519-encrypted.pem");
  CHECK_EQ_INT(fm_key_decode(f.p, f.n, PASS, &key, &t), FM_ERR_UNSUPPORTED);
  CHECK_EQ_INT(t, FM_KEY_TYPE_ED25519);
  free(f.p);
  CHECK_EQ_INT(fm_key_decode((const uint8_t *)"hello", 5, NULL, 0, &key, &t), FM_ERR_PARSE);
  CHECK_EQ_INT(t, FM_KEY_TYPE_NONE);
  CHECK_EQ_INT(fm_key_decode(NULL, 1, NULL, 0, &key, &t), FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_key_decode((const uint8_t *)"x", 1, NULL, 1, &key, &t), FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_key_decode((const uint8_t *)"x", 1, NULL, 0, NULL, &t), FM_ERR_BAD_ARGUMENT);
  fm_key_view v;
  CHECK_EQ_INT(fm_key_get(NULL, &v), FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_key_free(NULL), FM_OK);
}

static void test_load_file(void) {
  char path[4096];
  snprintf(path, sizeof path, "%s/keys/ec-p256-encrypted-aes128-sha512.pem", FIPSMOD_VECTORS_DIR);
  fm_key *key = NULL;
  fm_key_type t = FM_KEY_TYPE_NONE;
  CHECK_EQ_INT(fm_key_load_file(path, PASS, &key, &t), FM_OK);
  CHECK_EQ_INT(t, FM_KEY_TYPE_EC);
  fm_key_view v;
  CHECK_EQ_INT(fm_key_get(key, &v), FM_OK);
  fm_ec_curve c = 0;
  CHECK_EQ_INT(fm_ec_key_curve(v.ec, &c), FM_OK);
  CHECK_EQ_INT(c, FM_EC_P256);
  (void)fm_key_free(key);
  CHECK_EQ_INT(fm_key_load_file(path, NULL, 0, &key, &t), FM_ERR_PASSPHRASE);
  errno = 0;
  CHECK_EQ_INT(fm_key_load_file("/nonexistent/key.pem", NULL, 0, &key, &t), FM_ERR_IO);
  CHECK_EQ_INT(errno, ENOENT);
  CHECK_EQ_INT(fm_key_load_file("/", NULL, 0, &key, &t), FM_ERR_IO);
  CHECK_EQ_INT(fm_key_load_file(NULL, NULL, 0, &key, &t), FM_ERR_BAD_ARGUMENT);
  CHECK(key == NULL);
}

static const test_case cases[] = {
    TEST_CASE(openssl_files_decrypt),
    TEST_CASE(every_key_type_round_trips),
    TEST_CASE(defaults),
    TEST_CASE(unsupported_schemes_are_named),
    TEST_CASE(wrong_passphrase),
    TEST_CASE(corrupt_ciphertext),
    TEST_CASE(parameter_bounds),
    TEST_CASE(decrypt_bad_arguments),
    TEST_CASE(encrypt_errors),
    TEST_CASE(key_decode_finds_the_type),
    TEST_CASE(load_file),
};

int main(int argc, char **argv) { return TEST_RUN(argc, argv, "test_pkcs8_unit", cases); }
