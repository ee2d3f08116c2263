/* ML-KEM and ML-DSA key files (keyfile.h: fm_mlkem_key_decode / _encode, fm_mldsa_key_decode /
 * _encode): SubjectPublicKeyInfo and OneAsymmetricKey with the seed, expandedKey and both
 * private-key forms (draft-ietf-lamps-kyber-certificates, RFC 9881) for all six parameter sets,
 * DER and PEM; a file written by pyca/cryptography 48 read byte for byte; the structure's rules
 * (identifiers, parameters absent, lengths, version, attributes, trailing data, tags); the
 * consistency checks of private keys (both halves equal, FIPS 203 7.3, an ML-DSA sk that does
 * not recompute); arguments; and outputs wiped on every failure. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fipsmod/fipsmod.h"
#include "tests/common/test_util.h"

/* One parameter set of either scheme, and the lengths its files carry. */
typedef struct pq_set {
  bool kem;
  int param;
  size_t seed_len, priv_len, pub_len;
  uint8_t oid_last; /* the last arc of the identifier */
} pq_set;

static const pq_set k_sets[] = {
    {true, FM_MLKEM_512, 64, FM_MLKEM512_DK_LEN, FM_MLKEM512_EK_LEN, 0x01},
    {true, FM_MLKEM_768, 64, FM_MLKEM768_DK_LEN, FM_MLKEM768_EK_LEN, 0x02},
    {true, FM_MLKEM_1024, 64, FM_MLKEM1024_DK_LEN, FM_MLKEM1024_EK_LEN, 0x03},
    {false, FM_MLDSA_44, 32, FM_MLDSA_44_PRIVATE_KEY_LEN, FM_MLDSA_44_PUBLIC_KEY_LEN, 0x11},
    {false, FM_MLDSA_65, 32, FM_MLDSA_65_PRIVATE_KEY_LEN, FM_MLDSA_65_PUBLIC_KEY_LEN, 0x12},
    {false, FM_MLDSA_87, 32, FM_MLDSA_87_PRIVATE_KEY_LEN, FM_MLDSA_87_PUBLIC_KEY_LEN, 0x13},
};
#define SET_COUNT (sizeof k_sets / sizeof k_sets[0])

#define MAX_PRIV FM_MLDSA_87_PRIVATE_KEY_LEN
#define MAX_PUB FM_MLDSA_87_PUBLIC_KEY_LEN
#define MAX_FILE 16384

/* A key pair with its seed. */
typedef struct pq_key {
  uint8_t seed[64], priv[MAX_PRIV], pub[MAX_PUB];
} pq_key;

/* What a decode returned. */
typedef struct pq_out {
  int param;
  fm_key_format format;
  uint8_t seed[64], priv[MAX_PRIV], pub[MAX_PUB];
} pq_out;

static void generate(const pq_set *s, pq_key *k) {
  if (s->kem) {
    CHECK_EQ_INT(fm_mlkem_keygen((fm_mlkem_param)s->param, k->pub, s->pub_len, k->priv,
                                 s->priv_len, k->seed, 64),
                 FM_OK);
  } else {
    CHECK_EQ_INT(fm_mldsa_keygen((fm_mldsa_param)s->param, k->pub, s->pub_len, k->priv,
                                 s->priv_len, k->seed),
                 FM_OK);
  }
}

static int encode(const pq_set *s, fm_key_format format, const uint8_t *key, size_t key_len,
                  fm_key_encoding enc, uint8_t *out, size_t cap, size_t *len) {
  if (s->kem)
    return fm_mlkem_key_encode((fm_mlkem_param)s->param, format, key, key_len, enc, out, cap, len);
  return fm_mldsa_key_encode((fm_mldsa_param)s->param, format, key, key_len, enc, out, cap, len);
}

/* encode_key writes |k| as |format|, giving the encoder what keyfile.h says it takes. */
static size_t encode_key(const pq_set *s, const pq_key *k, fm_key_format format,
                         fm_key_encoding enc, uint8_t *out) {
  const uint8_t *key = format == FM_KEY_SPKI_PUBLIC      ? k->pub
                       : format == FM_KEY_PKCS8_EXPANDED ? k->priv
                                                         : k->seed;
  const size_t key_len = format == FM_KEY_SPKI_PUBLIC      ? s->pub_len
                         : format == FM_KEY_PKCS8_EXPANDED ? s->priv_len
                                                           : s->seed_len;
  size_t len = 0, need = 0;
  CHECK_EQ_INT(encode(s, format, key, key_len, enc, NULL, 0, &need), FM_OK);
  CHECK_EQ_INT(encode(s, format, key, key_len, enc, out, MAX_FILE, &len), FM_OK);
  CHECK_EQ_INT(len, need);
  return len;
}

/* decode fills |o| (its buffers first set to 0xaa, so that a wipe shows) from either decoder. */
static int decode_as(bool kem, const uint8_t *in, size_t n, pq_out *o) {
  memset(o, 0xaa, sizeof *o);
  int st;
  if (kem) {
    fm_mlkem_param p;
    st = fm_mlkem_key_decode(in, n, &p, &o->format, o->seed, sizeof o->seed, o->priv,
                             sizeof o->priv, o->pub, sizeof o->pub);
    o->param = (int)p;
  } else {
    fm_mldsa_param p;
    st = fm_mldsa_key_decode(in, n, &p, &o->format, o->seed, sizeof o->seed, o->priv,
                             sizeof o->priv, o->pub, sizeof o->pub);
    o->param = (int)p;
  }
  if (st != FM_OK) {
    /* keyfile.h: on error every output is wiped. */
    CHECK_EQ_INT(o->param, 0);
    CHECK_EQ_INT(o->format, 0);
    CHECK(test_is_all_zero(o->seed, sizeof o->seed));
    CHECK(test_is_all_zero(o->priv, sizeof o->priv));
    CHECK(test_is_all_zero(o->pub, sizeof o->pub));
  }
  return st;
}

static int decode(const pq_set *s, const uint8_t *in, size_t n, pq_out *o) {
  return decode_as(s->kem, in, n, o);
}

/* check_works shows that a decoded key pair is usable: ML-KEM decapsulates what its ek
 * encapsulates; ML-DSA's pk verifies what its sk signs. */
static void check_works(const pq_set *s, const uint8_t *priv, const uint8_t *pub) {
  if (s->kem) {
    uint8_t ct[FM_MLKEM_MAX_CT_LEN], ss1[32], ss2[32];
    size_t ct_len = 0;
    CHECK_EQ_INT(fm_mlkem_sizes((fm_mlkem_param)s->param, NULL, NULL, &ct_len), FM_OK);
    CHECK_EQ_INT(fm_mlkem_encaps((fm_mlkem_param)s->param, pub, s->pub_len, ct, ct_len, ss1, 32),
                 FM_OK);
    CHECK_EQ_INT(fm_mlkem_decaps((fm_mlkem_param)s->param, priv, s->priv_len, ct, ct_len, ss2, 32),
                 FM_OK);
    CHECK_MEM(ss1, ss2, 32);
  } else {
    static const uint8_t msg[] = "key files";
    uint8_t sig[FM_MLDSA_MAX_SIGNATURE_LEN];
    size_t sl = 0;
    CHECK_EQ_INT(fm_mldsa_sign((fm_mldsa_param)s->param, priv, s->priv_len, msg, sizeof msg, NULL,
                               0, FM_MLDSA_SIGN_HEDGED, sig, sizeof sig, &sl),
                 FM_OK);
    CHECK_EQ_INT(fm_mldsa_verify((fm_mldsa_param)s->param, pub, s->pub_len, msg, sizeof msg, NULL,
                                 0, sig, sl),
                 FM_OK);
  }
}

/* The DER of the four structures of a fresh key of |s|. */
static size_t der_of(const pq_set *s, const pq_key *k, fm_key_format f, uint8_t *out) {
  return encode_key(s, k, f, FM_KEY_DER, out);
}

static const fm_key_format k_formats[] = {FM_KEY_SPKI_PUBLIC, FM_KEY_PKCS8_PRIVATE,
                                          FM_KEY_PKCS8_EXPANDED, FM_KEY_PKCS8_BOTH};

/* ---- Round trips -------------------------------------------------------------------------- */

static void test_round_trip_every_set_and_form(void) {
  static uint8_t file[MAX_FILE];
  for (size_t i = 0; i < SET_COUNT; i++) {
    const pq_set *s = &k_sets[i];
    pq_key k;
    pq_out o;
    generate(s, &k);
    for (size_t f = 0; f < 4; f++) {
      for (int enc = FM_KEY_DER; enc <= FM_KEY_PEM; enc++) {
        const fm_key_format format = k_formats[f];
        const size_t n = encode_key(s, &k, format, (fm_key_encoding)enc, file);
        if (enc == FM_KEY_PEM) {
          const char *label = format == FM_KEY_SPKI_PUBLIC ? "-----BEGIN PUBLIC KEY-----\n"
                                                           : "-----BEGIN PRIVATE KEY-----\n";
          CHECK(memcmp(file, label, strlen(label)) == 0);
        }
        CHECK_EQ_INT(decode(s, file, n, &o), FM_OK);
        CHECK_EQ_INT(o.param, s->param);
        CHECK_EQ_INT(o.format, format);
        CHECK_MEM(o.pub, k.pub, s->pub_len);
        if (format == FM_KEY_SPKI_PUBLIC) {
          CHECK(test_is_all_zero(o.priv, sizeof o.priv));
        } else {
          CHECK_MEM(o.priv, k.priv, s->priv_len);
        }
        if (format == FM_KEY_PKCS8_PRIVATE || format == FM_KEY_PKCS8_BOTH) {
          CHECK_MEM(o.seed, k.seed, s->seed_len);
        } else {
          CHECK(test_is_all_zero(o.seed, sizeof o.seed));
        }
        /* The other scheme's decoder does not take the key. */
        pq_out other;
        CHECK_EQ_INT(decode_as(!s->kem, file, n, &other), FM_ERR_UNSUPPORTED);
      }
    }
    check_works(s, k.priv, k.pub);
  }
}

/* The layout, byte for byte: OneAsymmetricKey { 0, { OID }, OCTET STRING { [0] seed } } and
 * SubjectPublicKeyInfo { { OID }, BIT STRING { 00 || pub } }, parameters absent. */
static void test_der_layout(void) {
  static uint8_t file[MAX_FILE];
  for (size_t i = 0; i < SET_COUNT; i++) {
    const pq_set *s = &k_sets[i];
    const uint8_t arc = s->kem ? 0x04 : 0x03;
    pq_key k;
    generate(s, &k);
    size_t n = der_of(s, &k, FM_KEY_PKCS8_PRIVATE, file);
    const uint8_t sl = (uint8_t)s->seed_len;
    const uint8_t head[] = {0x30, (uint8_t)(20 + sl), 0x02, 0x01, 0x00, 0x30, 0x0b, 0x06, 0x09,
                            0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, arc, s->oid_last,
                            0x04, (uint8_t)(2 + sl), 0x80, sl};
    CHECK_EQ_INT(n, sizeof head + s->seed_len);
    CHECK_MEM(file, head, sizeof head);
    CHECK_MEM(file + sizeof head, k.seed, s->seed_len);

    n = der_of(s, &k, FM_KEY_SPKI_PUBLIC, file);
    const size_t body = 13 + 4 + 1 + s->pub_len;
    const uint8_t spki[] = {0x30, 0x82, (uint8_t)(body >> 8), (uint8_t)body, 0x30, 0x0b, 0x06,
                            0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, arc, s->oid_last,
                            0x03, 0x82, (uint8_t)((s->pub_len + 1) >> 8),
                            (uint8_t)(s->pub_len + 1), 0x00};
    CHECK_EQ_INT(n, sizeof spki + s->pub_len);
    CHECK_MEM(file, spki, sizeof spki);
    CHECK_MEM(file + sizeof spki, k.pub, s->pub_len);

    /* both: SEQUENCE { OCTET STRING seed, OCTET STRING expanded } inside the privateKey. */
    n = der_of(s, &k, FM_KEY_PKCS8_BOTH, file);
    const size_t both_at = 24; /* 30 82 xx xx, 02 01 00, 30 0b (11 bytes), 04 82 xx xx */
    CHECK_EQ_INT(file[both_at], 0x30);
    CHECK_EQ_INT(file[both_at + 4], 0x04);
    CHECK_EQ_INT(file[both_at + 5], sl);
    CHECK_MEM(file + both_at + 6, k.seed, s->seed_len);
    CHECK_EQ_INT(file[both_at + 6 + sl], 0x04);
    CHECK_MEM(file + n - s->priv_len, k.priv, s->priv_len);
  }
}

/* An ML-KEM-768 key that pyca/cryptography 48.0.0 (on OpenSSL 3.5) wrote with
 * private_bytes(PEM, PKCS8, NoEncryption()) from a key it generated: read as the seed form, and
 * written again byte for byte. */
static const char k_cryptography_pem[] =
    "-----BEGIN PRIVATE KEY-----\n"
    "MFQCAQAwCwYJYIZIAWUDBAQCBEKAQB6OZlgJblZKqbdMd5yc8zt1JDN4KnDmOBEl\n"
    "7b87l3ptUs0YpG5F0ef41qSmtEni0e/9IHqbE9iy5+Qh5nOV+Bs=\n"
    "-----END PRIVATE KEY-----\n";
static const char k_cryptography_seed[] =
    "1e8e6658096e564aa9b74c779c9cf33b752433782a70e6381125edbf3b977a6d"
    "52cd18a46e45d1e7f8d6a4a6b449e2d1effd207a9b13d8b2e7e421e67395f81b";

static void test_reads_what_cryptography_writes(void) {
  const pq_set *s = &k_sets[1];
  uint8_t seed[64], ek[FM_MLKEM768_EK_LEN], dk[FM_MLKEM768_DK_LEN], out[256];
  CHECK_EQ_INT(test_hex_decode(k_cryptography_seed, seed, sizeof seed), 64);
  CHECK_EQ_INT(fm_mlkem_keygen_from_seed(FM_MLKEM_768, seed, 64, ek, sizeof ek, dk, sizeof dk),
               FM_OK);
  pq_out o;
  CHECK_EQ_INT(decode(s, (const uint8_t *)k_cryptography_pem, strlen(k_cryptography_pem), &o),
               FM_OK);
  CHECK_EQ_INT(o.param, FM_MLKEM_768);
  CHECK_EQ_INT(o.format, FM_KEY_PKCS8_PRIVATE);
  CHECK_MEM(o.seed, seed, 64);
  CHECK_MEM(o.priv, dk, sizeof dk);
  CHECK_MEM(o.pub, ek, sizeof ek);
  size_t n = 0;
  CHECK_EQ_INT(fm_mlkem_key_encode(FM_MLKEM_768, FM_KEY_PKCS8_PRIVATE, seed, 64, FM_KEY_PEM, out,
                                   sizeof out, &n),
               FM_OK);
  CHECK_EQ_INT(n, strlen(k_cryptography_pem));
  CHECK_MEM(out, k_cryptography_pem, strlen(k_cryptography_pem));
}

/* The key files of tests/vectors/keys (README there): cryptography's private key and SPKI of one
 * key give the same public key here (its key derivation agrees with the module's), and the
 * expanded and both forms written from fixed seeds give those seeds' keys. */
static bool load(const char *name, uint8_t *buf, size_t cap, size_t *n) {
  char path[512];
  snprintf(path, sizeof path, FIPSMOD_VECTORS_DIR "/keys/%s", name);
  FILE *fp = fopen(path, "rb");
  CHECK(fp != NULL);
  if (fp == NULL) return false;
  *n = fread(buf, 1, cap, fp);
  fclose(fp);
  return true;
}

static void test_vector_files(void) {
  static uint8_t file[MAX_FILE], pub[MAX_PUB];
  static const struct {
    const char *priv, *spki;
    size_t set;
  } pairs[] = {{"mlkem768-pkcs8.pem", "mlkem768-spki.pem", 1},
               {"mlkem768-pkcs8.der", "mlkem768-spki.pem", 1},
               {"mldsa44-pkcs8.der", "mldsa44-spki.der", 3},
               {"mldsa65-pkcs8.pem", "mldsa65-spki.pem", 4}};
  pq_out o;
  size_t n = 0;
  for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
    const pq_set *s = &k_sets[pairs[i].set];
    if (!load(pairs[i].spki, file, sizeof file, &n)) continue;
    CHECK_EQ_INT(decode(s, file, n, &o), FM_OK);
    CHECK_EQ_INT(o.format, FM_KEY_SPKI_PUBLIC);
    memcpy(pub, o.pub, s->pub_len);
    if (!load(pairs[i].priv, file, sizeof file, &n)) continue;
    CHECK_EQ_INT(decode(s, file, n, &o), FM_OK);
    CHECK_EQ_INT(o.param, s->param);
    CHECK_EQ_INT(o.format, FM_KEY_PKCS8_PRIVATE);
    CHECK_MEM(o.pub, pub, s->pub_len);
    check_works(s, o.priv, o.pub);
  }
  if (load("mlkem1024-spki.der", file, sizeof file, &n)) {
    CHECK_EQ_INT(decode(&k_sets[2], file, n, &o), FM_OK);
    CHECK_EQ_INT(o.param, FM_MLKEM_1024);
  }
  /* The module's own files from fixed seeds: 00 01 02 ... */
  static const struct {
    const char *name;
    size_t set;
    fm_key_format format;
  } own[] = {{"mlkem512-both.der", 0, FM_KEY_PKCS8_BOTH},
             {"mlkem512-expanded.pem", 0, FM_KEY_PKCS8_EXPANDED},
             {"mldsa87-expanded.der", 5, FM_KEY_PKCS8_EXPANDED},
             {"mldsa87-both.pem", 5, FM_KEY_PKCS8_BOTH}};
  for (size_t i = 0; i < sizeof own / sizeof own[0]; i++) {
    const pq_set *s = &k_sets[own[i].set];
    uint8_t seed[64];
    for (size_t j = 0; j < sizeof seed; j++) seed[j] = (uint8_t)j;
    static uint8_t priv[MAX_PRIV];
    if (s->kem) {
      CHECK_EQ_INT(fm_mlkem_keygen_from_seed(FM_MLKEM_512, seed, 64, pub, s->pub_len, priv,
                                             s->priv_len),
                   FM_OK);
    } else {
      CHECK_EQ_INT(fm_mldsa_keygen_from_seed(FM_MLDSA_87, seed, pub, s->pub_len, priv,
                                             s->priv_len),
                   FM_OK);
    }
    if (!load(own[i].name, file, sizeof file, &n)) continue;
    CHECK_EQ_INT(decode(s, file, n, &o), FM_OK);
    CHECK_EQ_INT(o.param, s->param);
    CHECK_EQ_INT(o.format, own[i].format);
    CHECK_MEM(o.priv, priv, s->priv_len);
    CHECK_MEM(o.pub, pub, s->pub_len);
    if (own[i].format == FM_KEY_PKCS8_BOTH) CHECK_MEM(o.seed, seed, s->seed_len);
  }
}

/* ---- Structure ----------------------------------------------------------------------------- */

/* splice returns |file| with |cut| bytes at |at| replaced by |ins|, fixing nothing: the caller
 * passes lengths that stay consistent. */
static size_t splice(uint8_t *dst, const uint8_t *file, size_t n, size_t at, size_t cut,
                     const uint8_t *ins, size_t ins_len) {
  memcpy(dst, file, at);
  memcpy(dst + at, ins, ins_len);
  memcpy(dst + at + ins_len, file + at + cut, n - at - cut);
  return n - cut + ins_len;
}

static void test_structure_rules(void) {
  static uint8_t file[MAX_FILE], bad[MAX_FILE];
  pq_out o;
  for (size_t i = 0; i < SET_COUNT; i++) {
    const pq_set *s = &k_sets[i];
    const uint8_t sl = (uint8_t)s->seed_len;
    pq_key k;
    generate(s, &k);
    const size_t n = der_of(s, &k, FM_KEY_PKCS8_PRIVATE, file); /* short-form lengths */

    /* Another algorithm: the next arc of the same family, and a different OID length. */
    memcpy(bad, file, n);
    bad[17] = (uint8_t)(s->oid_last + 3);
    CHECK_EQ_INT(decode(s, bad, n, &o), FM_ERR_UNSUPPORTED);
    /* Parameters present (NULL): the documents require them absent. */
    {
      const uint8_t with_null[] = {0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65,
                                   0x03, 0x04, file[16], s->oid_last, 0x05, 0x00};
      size_t m = splice(bad, file, n, 5, 13, with_null, sizeof with_null);
      bad[1] = (uint8_t)(bad[1] + 2);
      CHECK_EQ_INT(decode(s, bad, m, &o), FM_ERR_PARSE);
    }
    /* Version 1 (RFC 5958 v2) and 2. */
    memcpy(bad, file, n);
    bad[4] = 1;
    CHECK_EQ_INT(decode(s, bad, n, &o), FM_ERR_UNSUPPORTED);
    /* Attributes [0] after the private key. */
    {
      memcpy(bad, file, n);
      const uint8_t attrs[] = {0xa0, 0x00};
      memcpy(bad + n, attrs, sizeof attrs);
      bad[1] = (uint8_t)(bad[1] + 2);
      CHECK_EQ_INT(decode(s, bad, n + 2, &o), FM_ERR_UNSUPPORTED);
      bad[n] = 0x81; /* publicKey [1] in a version-0 key */
      CHECK_EQ_INT(decode(s, bad, n + 2, &o), FM_ERR_PARSE);
    }
    /* Trailing data after the key, and inside the privateKey after the CHOICE. */
    memcpy(bad, file, n);
    bad[n] = 0;
    CHECK_EQ_INT(decode(s, bad, n + 1, &o), FM_ERR_PARSE);
    {
      const uint8_t extra[] = {0x05, 0x00};
      memcpy(bad, file, n);
      memcpy(bad + n, extra, 2);
      bad[1] = (uint8_t)(bad[1] + 2);
      bad[19] = (uint8_t)(bad[19] + 2);
      CHECK_EQ_INT(decode(s, bad, n + 2, &o), FM_ERR_PARSE);
    }
    /* A CHOICE of another tag: [1], and [0] constructed. */
    memcpy(bad, file, n);
    bad[20] = 0x81;
    CHECK_EQ_INT(decode(s, bad, n, &o), FM_ERR_PARSE);
    bad[20] = 0xa0;
    CHECK_EQ_INT(decode(s, bad, n, &o), FM_ERR_PARSE);
    /* A seed one byte short (every length of the envelope fixed). */
    memcpy(bad, file, n - 1);
    bad[1]--, bad[19]--, bad[21]--;
    CHECK_EQ_INT(decode(s, bad, n - 1, &o), FM_ERR_LENGTH);
    /* The seed in the expandedKey's place: an expanded key of the wrong length. */
    memcpy(bad, file, n);
    bad[20] = 0x04;
    CHECK_EQ_INT(decode(s, bad, n, &o), FM_ERR_LENGTH);
    /* An empty privateKey. */
    {
      const uint8_t empty[] = {0x04, 0x00};
      size_t m = splice(bad, file, n, 18, 4 + sl, empty, sizeof empty);
      bad[1] = (uint8_t)(bad[1] - 2 - sl);
      CHECK_EQ_INT(decode(s, bad, m, &o), FM_ERR_PARSE);
    }

    /* SPKI: unused bits, a public key one byte short, trailing data. */
    const size_t pn = der_of(s, &k, FM_KEY_SPKI_PUBLIC, file);
    memcpy(bad, file, pn);
    bad[21] = 1;
    CHECK_EQ_INT(decode(s, bad, pn, &o), FM_ERR_PARSE);
    memcpy(bad, file, pn - 1);
    bad[3]--, bad[20]--;
    CHECK_EQ_INT(decode(s, bad, pn - 1, &o), FM_ERR_LENGTH);
    memcpy(bad, file, pn);
    bad[pn] = 0;
    CHECK_EQ_INT(decode(s, bad, pn + 1, &o), FM_ERR_PARSE);

    /* Every prefix of the seed form is refused. */
    for (size_t len = 0; len < n; len++) CHECK(decode(s, file, len, &o) != FM_OK);
  }
}

/* Other keys: an EC key (id-ecPublicKey) is another algorithm; an RSA PKCS#1 key is no
 * OneAsymmetricKey; a PEM label other than "PRIVATE KEY" and "PUBLIC KEY" is FM_ERR_UNSUPPORTED.
 * And the EC decoder does not take an ML-KEM key. */
static void test_other_keys(void) {
  static uint8_t file[MAX_FILE];
  pq_out o;
  fm_ec_key *ec = NULL;
  CHECK_EQ_INT(fm_ec_key_generate(FM_EC_P256, &ec), FM_OK);
  size_t n = 0;
  CHECK_EQ_INT(fm_ec_key_encode(ec, FM_KEY_PKCS8_PRIVATE, FM_KEY_DER, file, sizeof file, &n),
               FM_OK);
  CHECK_EQ_INT(decode(&k_sets[0], file, n, &o), FM_ERR_UNSUPPORTED);
  CHECK_EQ_INT(decode(&k_sets[3], file, n, &o), FM_ERR_UNSUPPORTED);
  CHECK_EQ_INT(fm_ec_key_encode(ec, FM_KEY_SPKI_PUBLIC, FM_KEY_PEM, file, sizeof file, &n), FM_OK);
  CHECK_EQ_INT(decode(&k_sets[4], file, n, &o), FM_ERR_UNSUPPORTED);
  CHECK_EQ_INT(fm_ec_key_encode(ec, FM_KEY_SEC1_PRIVATE, FM_KEY_PEM, file, sizeof file, &n), FM_OK);
  CHECK_EQ_INT(decode(&k_sets[1], file, n, &o), FM_ERR_UNSUPPORTED); /* "EC PRIVATE KEY" */
  CHECK_EQ_INT(fm_ec_key_encode(ec, FM_KEY_SEC1_PRIVATE, FM_KEY_DER, file, sizeof file, &n), FM_OK);
  CHECK_EQ_INT(decode(&k_sets[1], file, n, &o), FM_ERR_PARSE); /* INTEGER, OCTET STRING */
  CHECK_EQ_INT(fm_ec_key_free(ec), FM_OK);

  pq_key k;
  generate(&k_sets[1], &k);
  n = der_of(&k_sets[1], &k, FM_KEY_PKCS8_PRIVATE, file);
  fm_ec_key *back = (fm_ec_key *)(uintptr_t)1;
  CHECK_EQ_INT(fm_ec_key_decode(file, n, &back), FM_ERR_UNSUPPORTED);
  CHECK(back == NULL);
}

/* ---- Consistency of private keys ---------------------------------------------------------- */

static void test_private_key_checks(void) {
  static uint8_t file[MAX_FILE], bad[MAX_FILE];
  pq_out o;
  for (size_t i = 0; i < SET_COUNT; i++) {
    const pq_set *s = &k_sets[i];
    pq_key k;
    generate(s, &k);
    /* both: one bit of the expanded key, or of the seed, and the halves differ. */
    size_t n = der_of(s, &k, FM_KEY_PKCS8_BOTH, file);
    memcpy(bad, file, n);
    bad[n - 1] ^= 1;
    CHECK_EQ_INT(decode(s, bad, n, &o), FM_ERR_BAD_KEY);
    memcpy(bad, file, n);
    bad[30] ^= 0x80; /* the seed's first byte */
    CHECK_EQ_INT(decode(s, bad, n, &o), FM_ERR_BAD_KEY);

    /* expanded: ML-KEM's H(ek) (7.3) or ML-DSA's t0 / tr / s1 no longer match. */
    n = der_of(s, &k, FM_KEY_PKCS8_EXPANDED, file);
    const size_t at = n - s->priv_len;
    if (s->kem) {
      memcpy(bad, file, n);
      bad[n - 64] ^= 1; /* H(ek) */
      CHECK_EQ_INT(decode(s, bad, n, &o), FM_ERR_BAD_KEY);
      memcpy(bad, file, n);
      bad[n - 64 - 40] ^= 1; /* inside the embedded ek */
      CHECK_EQ_INT(decode(s, bad, n, &o), FM_ERR_BAD_KEY);
      CHECK_EQ_INT(fm_mlkem_key_encode((fm_mlkem_param)s->param, FM_KEY_PKCS8_EXPANDED,
                                       bad + at, s->priv_len, FM_KEY_DER, file, sizeof file, &n),
                   FM_ERR_BAD_KEY);
    } else {
      const size_t probes[] = {64 + 5 /* tr */, 128 + 1 /* s1 */, s->priv_len - 1 /* t0 */};
      for (size_t p = 0; p < 3; p++) {
        memcpy(bad, file, n);
        bad[at + probes[p]] ^= 0x10;
        CHECK_EQ_INT(decode(s, bad, n, &o), FM_ERR_BAD_KEY);
      }
      /* s1's first coefficient out of range: eta - 15 (a 4-bit code of 15, or 3-bit 7). */
      memcpy(bad, file, n);
      bad[at + 128] |= s->param == FM_MLDSA_65 ? 0x0f : 0x07;
      CHECK_EQ_INT(decode(s, bad, n, &o), FM_ERR_BAD_KEY);
      size_t len = 0;
      CHECK_EQ_INT(fm_mldsa_key_encode((fm_mldsa_param)s->param, FM_KEY_PKCS8_EXPANDED, bad + at,
                                       s->priv_len, FM_KEY_DER, file, sizeof file, &len),
                   FM_ERR_BAD_KEY);
    }
  }
  /* An ML-KEM ek that fails the modulus check (7.2): a 12-bit value of 0xfff. */
  const pq_set *s = &k_sets[0];
  pq_key k;
  generate(s, &k);
  size_t n = der_of(s, &k, FM_KEY_SPKI_PUBLIC, file);
  memcpy(bad, file, n);
  bad[22] = 0xff;
  bad[23] |= 0x0f;
  CHECK_EQ_INT(decode(s, bad, n, &o), FM_ERR_BAD_KEY);
  size_t len = 0;
  CHECK_EQ_INT(fm_mlkem_key_encode(FM_MLKEM_512, FM_KEY_SPKI_PUBLIC, bad + 22, s->pub_len,
                                   FM_KEY_PEM, file, sizeof file, &len),
               FM_ERR_BAD_KEY);
}

/* ---- Arguments ------------------------------------------------------------------------------ */

static void test_bad_arguments(void) {
  static uint8_t file[MAX_FILE];
  const pq_set *s = &k_sets[2];
  pq_key k;
  generate(s, &k);
  const size_t n = der_of(s, &k, FM_KEY_PKCS8_PRIVATE, file);
  fm_mlkem_param p;
  fm_key_format f;
  uint8_t seed[64], dk[FM_MLKEM1024_DK_LEN], ek[FM_MLKEM1024_EK_LEN], out[8192];
  size_t len = 0;

  CHECK_EQ_INT(fm_mlkem_key_decode(NULL, 5, &p, &f, NULL, 0, NULL, 0, NULL, 0),
               FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_mlkem_key_decode(file, n, NULL, &f, NULL, 0, NULL, 0, NULL, 0),
               FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_mlkem_key_decode(file, n, &p, NULL, NULL, 0, NULL, 0, NULL, 0),
               FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_mlkem_key_decode(file, n, &p, &f, NULL, 64, NULL, 0, NULL, 0),
               FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_mlkem_key_decode(NULL, 0, &p, &f, NULL, 0, NULL, 0, NULL, 0), FM_ERR_PARSE);
  /* Every output optional; each given one at least the parameter set's length. */
  CHECK_EQ_INT(fm_mlkem_key_decode(file, n, &p, &f, NULL, 0, NULL, 0, NULL, 0), FM_OK);
  CHECK_EQ_INT(p, FM_MLKEM_1024);
  CHECK_EQ_INT(fm_mlkem_key_decode(file, n, &p, &f, NULL, 0, NULL, 0, ek, sizeof ek), FM_OK);
  CHECK_MEM(ek, k.pub, sizeof ek);
  memset(dk, 0xaa, sizeof dk);
  CHECK_EQ_INT(fm_mlkem_key_decode(file, n, &p, &f, seed, 63, dk, sizeof dk, ek, sizeof ek),
               FM_ERR_BUFFER_TOO_SMALL);
  CHECK(test_is_all_zero(dk, sizeof dk) && test_is_all_zero(ek, sizeof ek));
  CHECK_EQ_INT(fm_mlkem_key_decode(file, n, &p, &f, seed, 64, dk, sizeof dk - 1, ek, sizeof ek),
               FM_ERR_BUFFER_TOO_SMALL);

  CHECK_EQ_INT(fm_mlkem_key_encode(FM_MLKEM_1024, FM_KEY_SEC1_PRIVATE, k.seed, 64, FM_KEY_DER,
                                   out, sizeof out, &len),
               FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_mlkem_key_encode(FM_MLKEM_1024, FM_KEY_PKCS8_PRIVATE, k.seed, 64,
                                   (fm_key_encoding)3, out, sizeof out, &len),
               FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_mlkem_key_encode(FM_MLKEM_1024, FM_KEY_PKCS8_PRIVATE, NULL, 64, FM_KEY_DER, out,
                                   sizeof out, &len),
               FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_mlkem_key_encode((fm_mlkem_param)256, FM_KEY_PKCS8_PRIVATE, k.seed, 64,
                                   FM_KEY_DER, out, sizeof out, &len),
               FM_ERR_UNSUPPORTED);
  CHECK_EQ_INT(fm_mlkem_key_encode(FM_MLKEM_1024, FM_KEY_PKCS8_PRIVATE, k.seed, 32, FM_KEY_DER,
                                   out, sizeof out, &len),
               FM_ERR_LENGTH);
  CHECK_EQ_INT(fm_mlkem_key_encode(FM_MLKEM_1024, FM_KEY_PKCS8_PRIVATE, k.seed, 64, FM_KEY_DER,
                                   out, 10, &len),
               FM_ERR_BUFFER_TOO_SMALL);
  CHECK_EQ_INT(len, n);
  CHECK(test_is_all_zero(out, 10));
  CHECK_EQ_INT(fm_mldsa_key_encode(FM_MLDSA_44, FM_KEY_PKCS8_PRIVATE, k.seed, 64, FM_KEY_DER, out,
                                   sizeof out, &len),
               FM_ERR_KEY_SIZE);
  CHECK_EQ_INT(fm_mldsa_key_encode(FM_MLDSA_44, FM_KEY_PKCS1_PRIVATE, k.seed, 32, FM_KEY_DER, out,
                                   sizeof out, &len),
               FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_mldsa_key_encode((fm_mldsa_param)45, FM_KEY_SPKI_PUBLIC, k.pub, 1312, FM_KEY_DER,
                                   out, sizeof out, &len),
               FM_ERR_UNSUPPORTED);
  /* Overlapping buffers: the input and an output, two outputs; the key and the output. */
  {
    static uint8_t both[MAX_FILE];
    memcpy(both, file, n);
    CHECK_EQ_INT(fm_mlkem_key_decode(both, n, &p, &f, NULL, 0, NULL, 0, both + 8, sizeof ek),
                 FM_ERR_OVERLAP);
    CHECK_EQ_INT(fm_mlkem_key_decode(file, n, &p, &f, both, 64, both + 32, sizeof dk, NULL, 0),
                 FM_ERR_OVERLAP);
    memcpy(both, k.seed, 64);
    CHECK_EQ_INT(fm_mlkem_key_encode(FM_MLKEM_1024, FM_KEY_PKCS8_PRIVATE, both, 64, FM_KEY_DER,
                                     both + 16, sizeof both - 16, &len),
                 FM_ERR_OVERLAP);
    fm_mldsa_param dp;
    CHECK_EQ_INT(fm_mldsa_key_decode(file, n, &dp, &f, both, 64, NULL, 0, both, 100),
                 FM_ERR_OVERLAP);
  }
  /* The RSA and EC encoders do not write the lattice-only formats. */
  fm_ec_key *ec = NULL;
  CHECK_EQ_INT(fm_ec_key_generate(FM_EC_P256, &ec), FM_OK);
  CHECK_EQ_INT(fm_ec_key_encode(ec, FM_KEY_PKCS8_BOTH, FM_KEY_DER, out, sizeof out, &len),
               FM_ERR_BAD_ARGUMENT);
  CHECK_EQ_INT(fm_ec_key_free(ec), FM_OK);
}

static const test_case cases[] = {
    TEST_CASE(round_trip_every_set_and_form),
    TEST_CASE(der_layout),
    TEST_CASE(reads_what_cryptography_writes),
    TEST_CASE(vector_files),
    TEST_CASE(structure_rules),
    TEST_CASE(other_keys),
    TEST_CASE(private_key_checks),
    TEST_CASE(bad_arguments),
};

int main(int argc, char **argv) {
  return TEST_RUN(argc, argv, "test_pq_keyfile_unit", cases);
}
