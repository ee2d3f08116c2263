/* EC key files (keyfile.h: fm_ec_key_decode, fm_ec_key_encode): the three structures (SEC1
 * ECPrivateKey, PKCS#8, SubjectPublicKeyInfo) on the four curves in DER and PEM, read and written
 * byte for byte as OpenSSL writes them (tests/vectors/keys, made with OpenSSL 3.0); OpenSSL's
 * variants (an EC PARAMETERS block before the key, compressed points, no public key); keys the
 * module does not take (explicit parameters, other curves, RSA keys) refused with
 * FM_ERR_UNSUPPORTED; and malformed or invalid keys (d = 0, d = n, Q != dG, points off the curve,
 * BER, truncation, every single byte flipped) each refused with its status, never a crash. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fipsmod/fipsmod.h"
#include "module/internal.h"
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

static int decode_buf(const uint8_t *p, size_t n, fm_ec_key **out) {
  fm_ec_key *key = (fm_ec_key *)(uintptr_t)1; /* must be overwritten, also on error */
  int st = fm_ec_key_decode(p, n, &key);
  if (st != FM_OK) CHECK(key == NULL);
  if (out != NULL) {
    *out = st == FM_OK ? key : NULL;
  } else if (st == FM_OK) {
    CHECK_EQ_INT(fm_ec_key_free(key), FM_OK);
  }
  return st;
}

static fm_ec_key *decode_file(const char *name, int want_status) {
  struct file f = load(name);
  fm_ec_key *key = NULL;
  int st = decode_buf(f.p, f.n, &key);
  if (st != want_status) fprintf(stderr, "%s: got %s\n", name, fm_strerror(st));
  CHECK_EQ_INT(st, want_status);
  free(f.p);
  return key;
}

/* check_encodes_as: |key| encoded as |format|/|enc| is exactly the file |name|; one byte short is
 * FM_ERR_BUFFER_TOO_SMALL with the buffer wiped and *out_len the length needed. */
static void check_encodes_as(const fm_ec_key *key, fm_key_format format, fm_key_encoding enc,
                             const char *name) {
  struct file want = load(name);
  size_t need = 0;
  CHECK_EQ_INT(fm_ec_key_encode(key, format, enc, NULL, 0, &need), FM_OK);
  CHECK_EQ_INT(need, want.n);
  uint8_t *out = malloc(need + 1);
  size_t got = 0;
  CHECK_EQ_INT(fm_ec_key_encode(key, format, enc, out, need, &got), FM_OK);
  CHECK_EQ_INT(got, want.n);
  if (got == want.n) CHECK_MEM(out, want.p, got);
  if (got != want.n || memcmp(out, want.p, got) != 0) fprintf(stderr, "differs from %s\n", name);
  memset(out, 0xa5, need);
  CHECK_EQ_INT(fm_ec_key_encode(key, format, enc, out, need - 1, &got), FM_ERR_BUFFER_TOO_SMALL);
  CHECK_EQ_INT(got, need);
  CHECK(test_is_all_zero(out, need - 1));
  free(out);
  free(want.p);
}

static const struct curve_files {
  fm_ec_curve curve;
  const char *name; /* p224 ... */
} k_curves[] = {{FM_EC_P224, "p224"}, {FM_EC_P256, "p256"}, {FM_EC_P384, "p384"}, {FM_EC_P521, "p521"}};

static void file_name(char *out, size_t cap, const char *curve, const char *what) {
  snprintf(out, cap, "ec-%s-%s", curve, what);
}

/* Every private file of a curve decodes to one key, which encodes as every file of that curve. */
static void test_private_files_round_trip(void) {
  static const char *const priv[] = {"sec1.pem", "sec1.der", "pkcs8.pem", "pkcs8.der"};
  for (size_t c = 0; c < 4; c++) {
    char name[64];
    uint8_t d0[FM_EC_MAX_BYTES] = {0};
    size_t d0_len = 0;
    for (size_t i = 0; i < 4; i++) {
      file_name(name, sizeof name, k_curves[c].name, priv[i]);
      fm_ec_key *key = decode_file(name, FM_OK);
      if (key == NULL) continue;
      fm_ec_curve curve = (fm_ec_curve)0;
      CHECK_EQ_INT(fm_ec_key_curve(key, &curve), FM_OK);
      CHECK_EQ_INT(curve, k_curves[c].curve);
      uint8_t d[FM_EC_MAX_BYTES];
      size_t d_len = 0;
      CHECK_EQ_INT(fm_ec_key_export_private(key, d, sizeof d, &d_len), FM_OK);
      CHECK_EQ_INT(d_len, fm_ec_curve_bytes(k_curves[c].curve));
      if (i == 0) {
        memcpy(d0, d, d_len);
        d0_len = d_len;
      } else {
        CHECK_EQ_INT(d_len, d0_len);
        CHECK_MEM(d, d0, d_len);
      }
      static const struct {
        fm_key_format f;
        fm_key_encoding e;
        const char *what;
      } all[] = {{FM_KEY_SEC1_PRIVATE, FM_KEY_PEM, "sec1.pem"},
                 {FM_KEY_SEC1_PRIVATE, FM_KEY_DER, "sec1.der"},
                 {FM_KEY_PKCS8_PRIVATE, FM_KEY_PEM, "pkcs8.pem"},
                 {FM_KEY_PKCS8_PRIVATE, FM_KEY_DER, "pkcs8.der"},
                 {FM_KEY_SPKI_PUBLIC, FM_KEY_PEM, "spki.pem"},
                 {FM_KEY_SPKI_PUBLIC, FM_KEY_DER, "spki.der"}};
      for (size_t k = 0; k < 6; k++) {
        file_name(name, sizeof name, k_curves[c].name, all[k].what);
        check_encodes_as(key, all[k].f, all[k].e, name);
      }
      CHECK_EQ_INT(fm_ec_key_free(key), FM_OK);
    }
  }
}

static void test_public_files_round_trip(void) {
  static const char *const pub[] = {"spki.pem", "spki.der"};
  for (size_t c = 0; c < 4; c++) {
    for (size_t i = 0; i < 2; i++) {
      char name[64], other[64];
      file_name(name, sizeof name, k_curves[c].name, pub[i]);
      fm_ec_key *key = decode_file(name, FM_OK);
      if (key == NULL) continue;
      file_name(other, sizeof other, k_curves[c].name, "spki.der");
      check_encodes_as(key, FM_KEY_SPKI_PUBLIC, FM_KEY_DER, other);
      file_name(other, sizeof other, k_curves[c].name, "spki.pem");
      check_encodes_as(key, FM_KEY_SPKI_PUBLIC, FM_KEY_PEM, other);
      /* A public key has no private encoding; d cannot be exported. */
      size_t n = 1;
      CHECK_EQ_INT(fm_ec_key_encode(key, FM_KEY_SEC1_PRIVATE, FM_KEY_DER, NULL, 0, &n),
                   FM_ERR_BAD_KEY);
      CHECK_EQ_INT(n, 0);
      CHECK_EQ_INT(fm_ec_key_encode(key, FM_KEY_PKCS8_PRIVATE, FM_KEY_PEM, NULL, 0, &n),
                   FM_ERR_BAD_KEY);
      CHECK_EQ_INT(fm_ec_key_free(key), FM_OK);
    }
  }
}

/* A key read from its private file signs; its public file verifies. */
static void test_file_keys_sign_and_verify(void) {
  static const fm_hash_alg hashes[] = {FM_HASH_SHA256, FM_HASH_SHA256, FM_HASH_SHA384,
                                       FM_HASH_SHA512};
  for (size_t c = 0; c < 4; c++) {
    char name[64];
    file_name(name, sizeof name, k_curves[c].name, "pkcs8.der");
    fm_ec_key *priv = decode_file(name, FM_OK);
    file_name(name, sizeof name, k_curves[c].name, "spki.pem");
    fm_ec_key *pub = decode_file(name, FM_OK);
    if (priv == NULL || pub == NULL) continue;
    static const uint8_t msg[] = "a message";
    uint8_t sig[FM_EC_MAX_SIG_BYTES];
    size_t sl = 0;
    CHECK_EQ_INT(fm_ecdsa_sign(priv, hashes[c], msg, sizeof msg, sig, sizeof sig, &sl), FM_OK);
    CHECK_EQ_INT(fm_ecdsa_verify(pub, hashes[c], msg, sizeof msg, sig, sl), FM_OK);
    CHECK_EQ_INT(fm_ec_key_free(priv), FM_OK);
    CHECK_EQ_INT(fm_ec_key_free(pub), FM_OK);
  }
}

/* What OpenSSL also writes: `openssl ecparam -genkey` puts an EC PARAMETERS block before the key;
 * `-conv_form compressed` compressed points (in SPKI, and in the key's [1]); `-no_public` a key
 * without [1] (Q is then computed). Each reads, and writes back in the default form. */
static void test_openssl_variants(void) {
  fm_ec_key *k = decode_file("ec-p256-ecparam.pem", FM_OK);
  if (k != NULL) {
    fm_ec_curve c = (fm_ec_curve)0;
    CHECK_EQ_INT(fm_ec_key_curve(k, &c), FM_OK);
    CHECK_EQ_INT(c, FM_EC_P256);
    CHECK_EQ_INT(fm_ec_key_free(k), FM_OK);
  }
  k = decode_file("ec-p256-spki-compressed.der", FM_OK);
  if (k != NULL) {
    check_encodes_as(k, FM_KEY_SPKI_PUBLIC, FM_KEY_DER, "ec-p256-spki.der");
    CHECK_EQ_INT(fm_ec_key_free(k), FM_OK);
  }
  k = decode_file("ec-p384-sec1-compressed.pem", FM_OK);
  if (k != NULL) {
    check_encodes_as(k, FM_KEY_SEC1_PRIVATE, FM_KEY_PEM, "ec-p384-sec1.pem");
    CHECK_EQ_INT(fm_ec_key_free(k), FM_OK);
  }
  k = decode_file("ec-p256-sec1-nopub.pem", FM_OK);
  if (k != NULL) {
    check_encodes_as(k, FM_KEY_SEC1_PRIVATE, FM_KEY_PEM, "ec-p256-sec1.pem");
    check_encodes_as(k, FM_KEY_SPKI_PUBLIC, FM_KEY_DER, "ec-p256-spki.der");
    CHECK_EQ_INT(fm_ec_key_free(k), FM_OK);
  }
  /* The EC PARAMETERS block alone, or twice, is not a key. */
  struct file f = load("ec-p256-ecparam.pem");
  const char *second = strstr((const char *)f.p, "-----BEGIN EC PRIVATE KEY");
  if (second != NULL) {
    CHECK_EQ_INT(decode_buf(f.p, (size_t)(second - (const char *)f.p), NULL), FM_ERR_PARSE);
  }
  free(f.p);
}

static void test_keys_the_module_does_not_take(void) {
  /* Explicit domain parameters, even of P-256, in each structure. */
  decode_file("ec-p256-explicit.pem", FM_ERR_UNSUPPORTED);
  decode_file("ec-p256-explicit-spki.pem", FM_ERR_UNSUPPORTED);
  decode_file("ec-p256-explicit-pkcs8.pem", FM_ERR_UNSUPPORTED);
  /* Another named curve. */
  decode_file("ec-secp256k1-pkcs8.pem", FM_ERR_UNSUPPORTED);
  decode_file("ec-secp256k1-spki.pem", FM_ERR_UNSUPPORTED);
  /* RSA keys in every structure, and an encrypted PKCS#8 key. */
  static const char *const rsa[] = {"rsa2048-pkcs8.pem", "rsa2048-pkcs8.der",
                                    "rsa2048-pkcs1.pem", "rsa2048-pkcs1.der",
                                    "rsa2048-spki.pem",  "rsa2048-spki.der",
                                    "rsa2048-pkcs1-pub.pem", "rsa2048-pkcs1-pub.der",
                                    "rsa2048-encrypted.pem", "rsa2048-legacy-encrypted.pem"};
  for (size_t i = 0; i < sizeof rsa / sizeof rsa[0]; i++) decode_file(rsa[i], FM_ERR_UNSUPPORTED);
  /* And the other way: the RSA decoder refuses EC keys as another algorithm. */
  static const char *const ec[] = {"ec-p256-sec1.pem", "ec-p256-sec1.der", "ec-p256-pkcs8.pem",
                                   "ec-p256-pkcs8.der", "ec-p256-spki.pem", "ec-p256-spki.der"};
  for (size_t i = 0; i < 6; i++) {
    struct file f = load(ec[i]);
    fm_rsa_key *rk = NULL;
    CHECK_EQ_INT(fm_rsa_key_decode(f.p, f.n, &rk), FM_ERR_UNSUPPORTED);
    CHECK(rk == NULL);
    free(f.p);
  }
}

/* ---- Keys built here: DER from parts ---------------------------------------------------------- */

typedef struct {
  uint8_t b[1024];
  size_t n;
} der;

static void put(der *o, const uint8_t *p, size_t n) {
  if (n == 0) return; /* an empty element may come with a NULL pointer (memcpy's is nonnull) */
  memcpy(o->b + o->n, p, n);
  o->n += n;
}

/* tlv appends tag, length and contents. */
static void tlv(der *o, uint8_t tag, const uint8_t *v, size_t n) {
  o->b[o->n++] = tag;
  if (n >= 0x100) {
    o->b[o->n++] = 0x82;
    o->b[o->n++] = (uint8_t)(n >> 8);
  } else if (n >= 0x80) {
    o->b[o->n++] = 0x81;
  }
  o->b[o->n++] = (uint8_t)n;
  put(o, v, n);
}

static const uint8_t k_oid_p256[] = {0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07};
static const uint8_t k_oid_p384[] = {0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x22};
static const uint8_t k_oid_k256[] = {0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x0a}; /* secp256k1 */
static const uint8_t k_alg_p256[] = {0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02,
                                     0x01, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01,
                                     0x07};
static const uint8_t k_p256_n[32] = {
    0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    0xbc, 0xe6, 0xfa, 0xad, 0xa7, 0x17, 0x9e, 0x84, 0xf3, 0xb9, 0xca, 0xc2, 0xfc, 0x63, 0x25, 0x51};
static const uint8_t k_p256_p[32] = {
    0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};

/* sec1 builds ECPrivateKey: version, d, the parameters element (NULL: none), a public point
 * (NULL: none; wrapped in [1] BIT STRING with |unused| as its first byte). */
static der sec1(uint8_t version, const uint8_t *d, size_t dl, const uint8_t *params, size_t pl,
                const uint8_t *pt, size_t ptl, uint8_t unused) {
  der body = {{0}, 0}, out = {{0}, 0};
  const uint8_t v[] = {0x02, 0x01, version};
  put(&body, v, 3);
  tlv(&body, 0x04, d, dl);
  if (params != NULL) tlv(&body, 0xa0, params, pl);
  if (pt != NULL) {
    der bits = {{0}, 0}, bs = {{0}, 0};
    bits.b[bits.n++] = unused;
    put(&bits, pt, ptl);
    tlv(&bs, 0x03, bits.b, bits.n);
    tlv(&body, 0xa1, bs.b, bs.n);
  }
  tlv(&out, 0x30, body.b, body.n);
  return out;
}

/* pkcs8 wraps |inner| in PrivateKeyInfo with |alg|, followed by |extra| inside the SEQUENCE. */
static der pkcs8(const uint8_t *alg, size_t al, const der *inner, const uint8_t *extra, size_t el) {
  der body = {{0}, 0}, out = {{0}, 0};
  static const uint8_t v0[] = {0x02, 0x01, 0x00};
  put(&body, v0, 3);
  put(&body, alg, al);
  tlv(&body, 0x04, inner->b, inner->n);
  put(&body, extra, el);
  tlv(&out, 0x30, body.b, body.n);
  return out;
}

/* spki builds SubjectPublicKeyInfo from an algorithm identifier and a point. */
static der spki(const uint8_t *alg, size_t al, const uint8_t *pt, size_t ptl) {
  der body = {{0}, 0}, bits = {{0}, 0}, out = {{0}, 0};
  put(&body, alg, al);
  bits.b[bits.n++] = 0;
  put(&bits, pt, ptl);
  tlv(&body, 0x03, bits.b, bits.n);
  tlv(&out, 0x30, body.b, body.n);
  return out;
}

static int decode_der(const der *d) { return decode_buf(d->b, d->n, NULL); }

/* The d and Q of ec-p256-sec1.der, and the point of another key. */
static void p256_parts(uint8_t d[32], uint8_t q[65], uint8_t other_q[65]) {
  fm_ec_key *k = decode_file("ec-p256-sec1.der", FM_OK), *o = NULL;
  size_t n = 0;
  if (k != NULL) {
    CHECK_EQ_INT(fm_ec_key_export_private(k, d, 32, &n), FM_OK);
    CHECK_EQ_INT(fm_ec_key_export_public(k, 0, q, 65, &n), FM_OK);
  }
  CHECK_EQ_INT(fm_ec_key_generate(FM_EC_P256, &o), FM_OK);
  CHECK_EQ_INT(fm_ec_key_export_public(o, 0, other_q, 65, &n), FM_OK);
  CHECK_EQ_INT(fm_ec_key_free(k), FM_OK);
  CHECK_EQ_INT(fm_ec_key_free(o), FM_OK);
}

static void test_private_key_checks(void) {
  uint8_t d[32], q[65], other[65];
  p256_parts(d, q, other);
  const size_t pl = sizeof k_oid_p256;
  der k = sec1(1, d, 32, k_oid_p256, pl, q, 65, 0);
  CHECK_EQ_INT(decode_der(&k), FM_OK); /* the builder agrees with OpenSSL */
  /* d = 0, d = n: out of range, with or without Q. */
  uint8_t zero[32] = {0};
  k = sec1(1, zero, 32, k_oid_p256, pl, NULL, 0, 0);
  CHECK_EQ_INT(decode_der(&k), FM_ERR_OUT_OF_RANGE);
  k = sec1(1, k_p256_n, 32, k_oid_p256, pl, NULL, 0, 0);
  CHECK_EQ_INT(decode_der(&k), FM_ERR_OUT_OF_RANGE);
  k = sec1(1, k_p256_n, 32, k_oid_p256, pl, q, 65, 0);
  CHECK_EQ_INT(decode_der(&k), FM_ERR_OUT_OF_RANGE);
  /* d = n - 1 is a key (Q = -G). */
  uint8_t nm1[32];
  memcpy(nm1, k_p256_n, 32);
  nm1[31]--;
  k = sec1(1, nm1, 32, k_oid_p256, pl, NULL, 0, 0);
  CHECK_EQ_INT(decode_der(&k), FM_OK);
  /* Q is not dG. */
  k = sec1(1, d, 32, k_oid_p256, pl, other, 65, 0);
  CHECK_EQ_INT(decode_der(&k), FM_ERR_BAD_KEY);
  /* Q off the curve, a coordinate >= p, the point at infinity, a bad prefix, a wrong length. */
  uint8_t bad[65];
  memcpy(bad, q, 65);
  bad[64] ^= 1;
  k = sec1(1, d, 32, k_oid_p256, pl, bad, 65, 0);
  CHECK_EQ_INT(decode_der(&k), FM_ERR_BAD_KEY);
  memcpy(bad + 1, k_p256_p, 32);
  k = sec1(1, d, 32, k_oid_p256, pl, bad, 65, 0);
  CHECK_EQ_INT(decode_der(&k), FM_ERR_BAD_KEY);
  k = sec1(1, d, 32, k_oid_p256, pl, zero, 1, 0);
  CHECK_EQ_INT(decode_der(&k), FM_ERR_BAD_KEY);
  memcpy(bad, q, 65);
  bad[0] = 0x06; /* hybrid form: not offered */
  k = sec1(1, d, 32, k_oid_p256, pl, bad, 65, 0);
  CHECK_EQ_INT(decode_der(&k), FM_ERR_BAD_KEY);
  k = sec1(1, d, 32, k_oid_p256, pl, q, 64, 0);
  CHECK_EQ_INT(decode_der(&k), FM_ERR_LENGTH);
  /* Unused bits in the BIT STRING; an empty one. */
  k = sec1(1, d, 32, k_oid_p256, pl, q, 65, 1);
  CHECK_EQ_INT(decode_der(&k), FM_ERR_PARSE);
  k = sec1(1, d, 32, k_oid_p256, pl, q, 0, 0);
  CHECK_EQ_INT(decode_der(&k), FM_ERR_PARSE);
  /* d longer than the curve's scalars, and empty. A shorter d (OpenSSL 1.0 dropped leading zero
   * bytes) is read with leading zeros. */
  uint8_t d33[33] = {0};
  memcpy(d33 + 1, d, 32);
  k = sec1(1, d33, 33, k_oid_p256, pl, q, 65, 0);
  CHECK_EQ_INT(decode_der(&k), FM_ERR_LENGTH);
  k = sec1(1, d, 0, k_oid_p256, pl, NULL, 0, 0);
  CHECK_EQ_INT(decode_der(&k), FM_ERR_LENGTH);
  uint8_t small[32] = {0};
  small[31] = 7;
  k = sec1(1, small + 1, 31, k_oid_p256, pl, NULL, 0, 0);
  fm_ec_key *key = NULL;
  CHECK_EQ_INT(decode_buf(k.b, k.n, &key), FM_OK);
  uint8_t back[32];
  size_t bl = 0;
  CHECK_EQ_INT(fm_ec_key_export_private(key, back, sizeof back, &bl), FM_OK);
  CHECK_MEM(back, small, 32);
  CHECK_EQ_INT(fm_ec_key_free(key), FM_OK);
  /* A lone ECPrivateKey must name its curve; version 1 only; another curve; explicit or implicit
   * parameters. */
  k = sec1(1, d, 32, NULL, 0, q, 65, 0);
  CHECK_EQ_INT(decode_der(&k), FM_ERR_PARSE);
  k = sec1(0, d, 32, k_oid_p256, pl, q, 65, 0);
  CHECK_EQ_INT(decode_der(&k), FM_ERR_UNSUPPORTED);
  k = sec1(2, d, 32, k_oid_p256, pl, q, 65, 0);
  CHECK_EQ_INT(decode_der(&k), FM_ERR_UNSUPPORTED);
  k = sec1(1, d, 32, k_oid_k256, sizeof k_oid_k256, NULL, 0, 0);
  CHECK_EQ_INT(decode_der(&k), FM_ERR_UNSUPPORTED);
  static const uint8_t explicit_params[] = {0x30, 0x03, 0x02, 0x01, 0x01};
  k = sec1(1, d, 32, explicit_params, sizeof explicit_params, q, 65, 0);
  CHECK_EQ_INT(decode_der(&k), FM_ERR_UNSUPPORTED);
  static const uint8_t implicit_ca[] = {0x05, 0x00};
  k = sec1(1, d, 32, implicit_ca, sizeof implicit_ca, q, 65, 0);
  CHECK_EQ_INT(decode_der(&k), FM_ERR_UNSUPPORTED);
  /* Parameters that are not ECParameters at all; two of them; trailing data in [0]. */
  static const uint8_t int_params[] = {0x02, 0x01, 0x01};
  k = sec1(1, d, 32, int_params, sizeof int_params, q, 65, 0);
  CHECK_EQ_INT(decode_der(&k), FM_ERR_PARSE);
  uint8_t two[20];
  memcpy(two, k_oid_p256, pl);
  memcpy(two + pl, k_oid_p256, pl);
  k = sec1(1, d, 32, two, 2 * pl, q, 65, 0);
  CHECK_EQ_INT(decode_der(&k), FM_ERR_PARSE);
  /* Trailing data after the key, and inside it. */
  k = sec1(1, d, 32, k_oid_p256, pl, q, 65, 0);
  k.b[k.n++] = 0;
  CHECK_EQ_INT(decode_der(&k), FM_ERR_PARSE);
  k = sec1(1, d, 32, k_oid_p256, pl, q, 65, 0);
  k.b[1] += 2;
  k.b[k.n++] = 0x05;
  k.b[k.n++] = 0x00;
  CHECK_EQ_INT(decode_der(&k), FM_ERR_PARSE);
}

static void test_pkcs8_checks(void) {
  uint8_t d[32], q[65], other[65];
  p256_parts(d, q, other);
  der inner = sec1(1, d, 32, NULL, 0, q, 65, 0);
  der k = pkcs8(k_alg_p256, sizeof k_alg_p256, &inner, NULL, 0);
  /* The builder writes what OpenSSL writes. */
  struct file f = load("ec-p256-pkcs8.der");
  CHECK_EQ_INT(k.n, f.n);
  if (k.n == f.n) CHECK_MEM(k.b, f.p, f.n);
  free(f.p);
  /* The inner key may repeat the curve, not name another. */
  inner = sec1(1, d, 32, k_oid_p256, sizeof k_oid_p256, q, 65, 0);
  k = pkcs8(k_alg_p256, sizeof k_alg_p256, &inner, NULL, 0);
  CHECK_EQ_INT(decode_der(&k), FM_OK);
  inner = sec1(1, d, 32, k_oid_p384, sizeof k_oid_p384, q, 65, 0);
  k = pkcs8(k_alg_p256, sizeof k_alg_p256, &inner, NULL, 0);
  CHECK_EQ_INT(decode_der(&k), FM_ERR_BAD_KEY);
  /* Attributes [0]: not offered; anything else after the key is malformed. */
  inner = sec1(1, d, 32, NULL, 0, q, 65, 0);
  static const uint8_t attrs[] = {0xa0, 0x00};
  k = pkcs8(k_alg_p256, sizeof k_alg_p256, &inner, attrs, sizeof attrs);
  CHECK_EQ_INT(decode_der(&k), FM_ERR_UNSUPPORTED);
  static const uint8_t junk[] = {0x05, 0x00};
  k = pkcs8(k_alg_p256, sizeof k_alg_p256, &inner, junk, sizeof junk);
  CHECK_EQ_INT(decode_der(&k), FM_ERR_PARSE);
  /* Another algorithm (id-ecDH, 1.3.132.1.12), and parameters missing or with extra data. */
  static const uint8_t alg_ecdh[] = {0x30, 0x10, 0x06, 0x05, 0x2b, 0x81, 0x04, 0x01, 0x0c, 0x06,
                                     0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01};
  k = pkcs8(alg_ecdh, sizeof alg_ecdh, &inner, NULL, 0);
  CHECK_EQ_INT(decode_der(&k), FM_ERR_UNSUPPORTED);
  static const uint8_t alg_no_params[] = {0x30, 0x09, 0x06, 0x07, 0x2a, 0x86,
                                          0x48, 0xce, 0x3d, 0x02, 0x01};
  k = pkcs8(alg_no_params, sizeof alg_no_params, &inner, NULL, 0);
  CHECK_EQ_INT(decode_der(&k), FM_ERR_PARSE);
  uint8_t alg_extra[sizeof k_alg_p256 + 2];
  memcpy(alg_extra, k_alg_p256, sizeof k_alg_p256);
  alg_extra[1] += 2;
  alg_extra[sizeof k_alg_p256] = 0x05;
  alg_extra[sizeof k_alg_p256 + 1] = 0x00;
  k = pkcs8(alg_extra, sizeof alg_extra, &inner, NULL, 0);
  CHECK_EQ_INT(decode_der(&k), FM_ERR_PARSE);
  /* The checks of the inner key apply: d = n, Q != dG. */
  inner = sec1(1, k_p256_n, 32, NULL, 0, NULL, 0, 0);
  k = pkcs8(k_alg_p256, sizeof k_alg_p256, &inner, NULL, 0);
  CHECK_EQ_INT(decode_der(&k), FM_ERR_OUT_OF_RANGE);
  inner = sec1(1, d, 32, NULL, 0, other, 65, 0);
  k = pkcs8(k_alg_p256, sizeof k_alg_p256, &inner, NULL, 0);
  CHECK_EQ_INT(decode_der(&k), FM_ERR_BAD_KEY);
}

static void test_spki_checks(void) {
  uint8_t d[32], q[65], other[65];
  p256_parts(d, q, other);
  der k = spki(k_alg_p256, sizeof k_alg_p256, q, 65);
  struct file f = load("ec-p256-spki.der");
  CHECK_EQ_INT(k.n, f.n);
  if (k.n == f.n) CHECK_MEM(k.b, f.p, f.n);
  free(f.p);
  uint8_t bad[65];
  memcpy(bad, q, 65);
  bad[64] ^= 1;
  k = spki(k_alg_p256, sizeof k_alg_p256, bad, 65);
  CHECK_EQ_INT(decode_der(&k), FM_ERR_BAD_KEY); /* off the curve */
  memcpy(bad + 33, k_p256_p, 32);
  k = spki(k_alg_p256, sizeof k_alg_p256, bad, 65);
  CHECK_EQ_INT(decode_der(&k), FM_ERR_BAD_KEY); /* y = p */
  static const uint8_t infinity[] = {0x00};
  k = spki(k_alg_p256, sizeof k_alg_p256, infinity, 1);
  CHECK_EQ_INT(decode_der(&k), FM_ERR_BAD_KEY);
  k = spki(k_alg_p256, sizeof k_alg_p256, q, 33); /* a compressed prefix would be 02/03 */
  CHECK_EQ_INT(decode_der(&k), FM_ERR_LENGTH);
  /* A compressed point: on P-256 read (both parities), on P-224 not offered. */
  uint8_t comp[33];
  comp[0] = (uint8_t)(0x02 | (q[64] & 1));
  memcpy(comp + 1, q + 1, 32);
  k = spki(k_alg_p256, sizeof k_alg_p256, comp, 33);
  CHECK_EQ_INT(decode_der(&k), FM_OK);
  struct file p224 = load("ec-p224-spki.der");
  fm_ec_key *key = NULL;
  CHECK_EQ_INT(decode_buf(p224.p, p224.n, &key), FM_OK);
  uint8_t c224[29];
  size_t cl = 0;
  CHECK_EQ_INT(fm_ec_key_export_public(key, 1, c224, sizeof c224, &cl), FM_OK);
  CHECK_EQ_INT(fm_ec_key_free(key), FM_OK);
  static const uint8_t alg_p224[] = {0x30, 0x10, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d,
                                     0x02, 0x01, 0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x21};
  k = spki(alg_p224, sizeof alg_p224, c224, cl);
  CHECK_EQ_INT(decode_der(&k), FM_ERR_UNSUPPORTED);
  free(p224.p);
  /* The P-256 point under the P-384 identifier. */
  static const uint8_t alg_p384[] = {0x30, 0x10, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d,
                                     0x02, 0x01, 0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x22};
  k = spki(alg_p384, sizeof alg_p384, q, 65);
  CHECK_EQ_INT(decode_der(&k), FM_ERR_LENGTH);
  /* rsaEncryption with an EC point: another algorithm. */
  static const uint8_t alg_rsa[] = {0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86,
                                    0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00};
  k = spki(alg_rsa, sizeof alg_rsa, q, 65);
  CHECK_EQ_INT(decode_der(&k), FM_ERR_UNSUPPORTED);
}

/* BER forms and non-minimal DER are refused. */
static void test_ber_refused(void) {
  struct file f = load("ec-p256-sec1.der"); /* 30 77 02 01 01 04 20 ... */
  uint8_t buf[256];
  /* The outer length in the indefinite form (with end-of-contents), and in a longer form. */
  buf[0] = 0x30;
  buf[1] = 0x80;
  memcpy(buf + 2, f.p + 2, f.n - 2);
  buf[f.n] = buf[f.n + 1] = 0;
  CHECK_EQ_INT(decode_buf(buf, f.n + 2, NULL), FM_ERR_PARSE);
  buf[1] = 0x81;
  buf[2] = 0x77;
  memcpy(buf + 3, f.p + 2, f.n - 2);
  CHECK_EQ_INT(decode_buf(buf, f.n + 1, NULL), FM_ERR_PARSE);
  /* The version with a redundant leading zero. */
  static const uint8_t v[] = {0x30, 0x78, 0x02, 0x02, 0x00, 0x01};
  memcpy(buf, v, sizeof v);
  memcpy(buf + sizeof v, f.p + 5, f.n - 5);
  CHECK_EQ_INT(decode_buf(buf, f.n + 1, NULL), FM_ERR_PARSE);
  free(f.p);
}

/* Every prefix of every structure, and every single-byte flip: a status, never a crash; no flip
 * of a private key is accepted (d no longer matches Q, or the structure breaks). */
static void test_truncation_and_flips(void) {
  static const char *const files[] = {"ec-p256-sec1.der",  "ec-p256-pkcs8.der", "ec-p521-sec1.der",
                                      "ec-p384-pkcs8.der", "ec-p224-spki.der",  "ec-p256-spki.pem",
                                      "ec-p256-ecparam.pem"};
  for (size_t fi = 0; fi < sizeof files / sizeof files[0]; fi++) {
    struct file f = load(files[fi]);
    const bool pem = strstr(files[fi], ".pem") != NULL;
    for (size_t len = 0; len < f.n; len++) {
      uint8_t *b = malloc(len ? len : 1);
      memcpy(b, f.p, len);
      int st = decode_buf(b, len, NULL);
      if (st == FM_OK) CHECK(pem && len >= f.n - 1); /* only PEM can lose its last newline */
      free(b);
    }
    size_t accepted = 0;
    for (size_t at = 0; at < f.n; at++) {
      const uint8_t orig = f.p[at];
      f.p[at] ^= 0x01;
      int st = decode_buf(f.p, f.n, NULL);
      if (st == FM_OK) {
        accepted++;
      } else {
        CHECK(st == FM_ERR_PARSE || st == FM_ERR_UNSUPPORTED || st == FM_ERR_BAD_KEY ||
              st == FM_ERR_LENGTH || st == FM_ERR_OUT_OF_RANGE);
      }
      f.p[at] = orig;
    }
    if (!pem && strstr(files[fi], "spki") == NULL) CHECK_EQ_INT(accepted, 0);
    free(f.p);
  }
}

static void test_pem_rules(void) {
  struct file f = load("ec-p256-sec1.pem");
  uint8_t *buf = malloc(f.n + 64);
  static const char pre[] = "Comment: test key\n";
  memcpy(buf, pre, sizeof pre - 1);
  memcpy(buf + sizeof pre - 1, f.p, f.n);
  size_t n = sizeof pre - 1 + f.n;
  CHECK_EQ_INT(decode_buf(buf, n, NULL), FM_OK);
  memcpy(buf + n, "x\n", 2);
  CHECK_EQ_INT(decode_buf(buf, n + 2, NULL), FM_ERR_PARSE);
  /* A SEC1 body under the PKCS#8 label (the label names the structure). */
  const char *text = (const char *)f.p;
  const char *body = strchr(text, '\n') + 1, *end = strstr(text, "-----END ");
  char relabelled[512];
  n = (size_t)snprintf(relabelled, sizeof relabelled,
                       "-----BEGIN PRIVATE KEY-----\n%.*s-----END PRIVATE KEY-----\n",
                       (int)(end - body), body);
  CHECK_EQ_INT(decode_buf((const uint8_t *)relabelled, n, NULL), FM_ERR_PARSE);
  n = (size_t)snprintf(relabelled, sizeof relabelled,
                       "-----BEGIN EC PRIVATE KEY-----\n%.*s-----END EC PRIVATE KEY-----\n",
                       (int)(end - body), body);
  CHECK_EQ_INT(decode_buf((const uint8_t *)relabelled, n, NULL), FM_OK);
  /* An RSA label is another algorithm. */
  static const uint8_t rsa[] = "-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----\n";
  CHECK_EQ_INT(decode_buf(rsa, sizeof rsa - 1, NULL), FM_ERR_UNSUPPORTED);
  free(buf);
  free(f.p);
}

static void test_bad_arguments(void) {
  fm_ec_key *key = NULL;
  CHECK_EQ_INT(fm_ec_key_decode(NULL, 1, &key), FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_ec_key_decode((const uint8_t *)"x", 1, NULL), FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_ec_key_decode(NULL, 0, &key), FM_ERR_PARSE);
  fm_ec_key *k = decode_file("ec-p256-sec1.der", FM_OK);
  uint8_t buf[8];
  size_t n = 7;
  CHECK_EQ_INT(fm_ec_key_encode(NULL, FM_KEY_SPKI_PUBLIC, FM_KEY_DER, buf, sizeof buf, &n),
               FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(n, 0);
  /* The RSA-only formats and unknown ones. */
  CHECK_EQ_INT(fm_ec_key_encode(k, FM_KEY_PKCS1_PRIVATE, FM_KEY_DER, NULL, 0, &n),
               FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_ec_key_encode(k, FM_KEY_PKCS1_PUBLIC, FM_KEY_DER, NULL, 0, &n),
               FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_ec_key_encode(k, (fm_key_format)9, FM_KEY_DER, NULL, 0, &n), FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_ec_key_encode(k, FM_KEY_SPKI_PUBLIC, (fm_key_encoding)0, NULL, 0, &n),
               FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_ec_key_encode(k, FM_KEY_SPKI_PUBLIC, FM_KEY_DER, NULL, 5, &n),
               FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_ec_key_encode(k, FM_KEY_SPKI_PUBLIC, FM_KEY_DER, buf, sizeof buf, NULL),
               FM_ERR_BAD_ARGUMENT);
  /* An output too small is wiped. */
  memset(buf, 0xa5, sizeof buf);
  CHECK_EQ_INT(fm_ec_key_encode(k, FM_KEY_SEC1_PRIVATE, FM_KEY_DER, buf, sizeof buf, &n),
               FM_ERR_BUFFER_TOO_SMALL);
  CHECK_EQ_INT(n, 121);
  CHECK(test_is_all_zero(buf, sizeof buf));
  /* The RSA encoder has no SEC1 format. */
  fm_rsa_key *rk = NULL;
  struct file f = load("rsa2048-spki.der");
  CHECK_EQ_INT(fm_rsa_key_decode(f.p, f.n, &rk), FM_OK);
  CHECK_EQ_INT(fm_rsa_key_encode(rk, FM_KEY_SEC1_PRIVATE, FM_KEY_DER, NULL, 0, &n),
               FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_rsa_key_free(rk), FM_OK);
  free(f.p);
  CHECK_EQ_INT(fm_ec_key_free(k), FM_OK);
}

/* Generated keys on every curve survive every encoding: the same d and Q come back, and the key
 * read back signs what the original verifies. */
static void test_generated_keys_round_trip(void) {
  static const fm_key_format formats[] = {FM_KEY_SEC1_PRIVATE, FM_KEY_PKCS8_PRIVATE,
                                          FM_KEY_SPKI_PUBLIC};
  for (size_t c = 0; c < 4; c++) {
    fm_ec_key *key = NULL;
    CHECK_EQ_INT(fm_ec_key_generate(k_curves[c].curve, &key), FM_OK);
    uint8_t d[FM_EC_MAX_BYTES], q[FM_EC_MAX_POINT_BYTES];
    size_t dl = 0, ql = 0;
    CHECK_EQ_INT(fm_ec_key_export_private(key, d, sizeof d, &dl), FM_OK);
    CHECK_EQ_INT(fm_ec_key_export_public(key, 0, q, sizeof q, &ql), FM_OK);
    for (size_t f = 0; f < 3; f++) {
      for (int enc = FM_KEY_DER; enc <= FM_KEY_PEM; enc++) {
        uint8_t out[512];
        size_t n = 0;
        CHECK_EQ_INT(fm_ec_key_encode(key, formats[f], (fm_key_encoding)enc, out, sizeof out, &n),
                     FM_OK);
        fm_ec_key *back = NULL;
        CHECK_EQ_INT(decode_buf(out, n, &back), FM_OK);
        if (back == NULL) continue;
        uint8_t d2[FM_EC_MAX_BYTES], q2[FM_EC_MAX_POINT_BYTES];
        size_t d2l = 0, q2l = 0;
        CHECK_EQ_INT(fm_ec_key_export_public(back, 0, q2, sizeof q2, &q2l), FM_OK);
        CHECK_EQ_INT(q2l, ql);
        CHECK_MEM(q2, q, ql);
        if (formats[f] != FM_KEY_SPKI_PUBLIC) {
          CHECK_EQ_INT(fm_ec_key_export_private(back, d2, sizeof d2, &d2l), FM_OK);
          CHECK_EQ_INT(d2l, dl);
          CHECK_MEM(d2, d, dl);
          static const uint8_t msg[] = "round trip";
          uint8_t sig[FM_EC_MAX_SIG_BYTES];
          size_t sl = 0;
          CHECK_EQ_INT(fm_ecdsa_sign(back, FM_HASH_SHA384, msg, sizeof msg, sig, sizeof sig, &sl),
                       FM_OK);
          CHECK_EQ_INT(fm_ecdsa_verify(key, FM_HASH_SHA384, msg, sizeof msg, sig, sl), FM_OK);
        }
        CHECK_EQ_INT(fm_ec_key_free(back), FM_OK);
        CHECK_EQ_INT(fm_cleanse(out, sizeof out), FM_OK);
      }
    }
    CHECK_EQ_INT(fm_ec_key_free(key), FM_OK);
  }
}

/* In ERROR both refuse with FM_ERR_NOT_OPERATIONAL: no key, the output wiped. Runs last. */
static void test_gate_in_error_state(void) {
  fm_ec_key *key = decode_file("ec-p256-sec1.der", FM_OK);
  struct file f = load("ec-p256-sec1.pem");
  fm_module_force_error_for_testing();
  fm_ec_key *k = (fm_ec_key *)&k;
  CHECK_EQ_INT(fm_ec_key_decode(f.p, f.n, &k), FM_ERR_NOT_OPERATIONAL);
  CHECK(k == NULL);
  uint8_t out[256];
  size_t n = 9;
  memset(out, 0xa5, sizeof out);
  CHECK_EQ_INT(fm_ec_key_encode(key, FM_KEY_SEC1_PRIVATE, FM_KEY_PEM, out, sizeof out, &n),
               FM_ERR_NOT_OPERATIONAL);
  CHECK_EQ_INT(n, 0);
  CHECK(test_is_all_zero(out, sizeof out));
  CHECK_EQ_INT(fm_ec_key_free(key), FM_OK);
  free(f.p);
}

static const test_case cases[] = {
  TEST_CASE(private_files_round_trip),
  TEST_CASE(public_files_round_trip),
  TEST_CASE(file_keys_sign_and_verify),
  TEST_CASE(openssl_variants),
  TEST_CASE(keys_the_module_does_not_take),
  TEST_CASE(private_key_checks),
  TEST_CASE(pkcs8_checks),
  TEST_CASE(spki_checks),
  TEST_CASE(ber_refused),
  TEST_CASE(truncation_and_flips),
  TEST_CASE(pem_rules),
  TEST_CASE(bad_arguments),
  TEST_CASE(generated_keys_round_trip),
  TEST_CASE(gate_in_error_state),
};

int main(int argc, char **argv) {
  return TEST_RUN(argc, argv, "test_ec_keyfile_unit", cases);
}
