/* EC known answers from NIST CAVP (tests/vectors/cavp): FIPS 186-3 ECDSA KeyPair, PKV (public-key
 * validation), SigGen (exact signatures with the file's k) and SigVer, and the SP 800-56A ECC CDH
 * primitive, on P-224, P-256, P-384 and P-521 with SHA-256, SHA-384 and SHA-512 (the files'
 * SHA-1 and SHA-224 sections and the K-/B-curves are skipped: the module has no such hash or
 * curve), and Wycheproof's P-256 ECDSA (P1363 r || s, and DER through fm_ecdsa_sig_from_der with
 * the key read from its SubjectPublicKeyInfo) and ECDH files, whose invalid cases (bad
 * signatures and encodings, off-curve and twist points) must be refused. Each test counts its cases and checks that it ran the number the file holds. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "fipsmod/ec.h"
#include "fipsmod/keyfile.h"
#include "fipsmod/sha.h"
#include "module/ec/internal.h"
#include "tests/common/test_util.h"

/* ---- A reader for CAVP .rsp/.txt records ------------------------------------------------- */

typedef struct rec {
  char section[64];
  char key[16][16];
  char *val[16];
  int n;
} rec;

static const char *rec_get(const rec *r, const char *k) {
  for (int i = 0; i < r->n; i++)
    if (strcmp(r->key[i], k) == 0) return r->val[i];
  return NULL;
}

static void rec_clear(rec *r) {
  for (int i = 0; i < r->n; i++) free(r->val[i]);
  r->n = 0;
}

/* for_each_record calls fn for every record of |file| whose last line's key is |last|. */
static int for_each_record(const char *file, const char *last, void (*fn)(const rec *, int *),
                           int *count) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", FIPSMOD_VECTORS_DIR, file);
  FILE *f = fopen(path, "r");
  if (f == NULL) {
    fprintf(stderr, "cannot open %s\n", path);
    return -1;
  }
  static char line[1 << 16];
  rec r = {.n = 0};
  r.section[0] = 0;
  while (fgets(line, sizeof line, f) != NULL) {
    line[strcspn(line, "\r\n")] = 0;
    if (line[0] == '[') {
      /* Section headers such as [P-256,SHA-256]; the KeyPair file's [B.4.2 ...] line is not a
       * curve and is ignored. */
      if (strncmp(line, "[B.", 3) != 0) {
        const size_t l = strnlen(line, sizeof r.section - 1);
        memcpy(r.section, line, l);
        r.section[l] = 0;
      }
      continue;
    }
    char *eq = strchr(line, '=');
    if (eq == NULL || line[0] == '#') continue;
    char *k = line, *v = eq + 1;
    char *ke = eq;
    while (ke > k && ke[-1] == ' ') ke--;
    *ke = 0;
    while (*v == ' ') v++;
    if (r.n < 16) {
      const size_t kl = strnlen(k, sizeof r.key[r.n] - 1);
      memcpy(r.key[r.n], k, kl);
      r.key[r.n][kl] = 0;
      r.val[r.n] = strdup(v);
      r.n++;
    }
    if (strcmp(k, last) == 0) {
      fn(&r, count);
      rec_clear(&r);
    }
  }
  rec_clear(&r);
  fclose(f);
  return 0;
}

/* section_curve parses "[P-256" or "[P-256,SHA-256]"; 0 for a curve the module does not have. */
static fm_ec_curve section_curve(const char *s) {
  if (strncmp(s, "[P-224", 6) == 0) return FM_EC_P224;
  if (strncmp(s, "[P-256", 6) == 0) return FM_EC_P256;
  if (strncmp(s, "[P-384", 6) == 0) return FM_EC_P384;
  if (strncmp(s, "[P-521", 6) == 0) return FM_EC_P521;
  return (fm_ec_curve)0;
}

/* section_hash: the section's hash, or 0 for SHA-1 / SHA-224 (skipped). */
static fm_hash_alg section_hash(const char *s) {
  if (strstr(s, "SHA-256") != NULL) return FM_HASH_SHA256;
  if (strstr(s, "SHA-384") != NULL) return FM_HASH_SHA384;
  if (strstr(s, "SHA-512") != NULL) return FM_HASH_SHA512;
  return (fm_hash_alg)0;
}

/* fixed_hex decodes |hex| as a big-endian number of exactly |len| bytes (left-padded); -1 when it
 * does not fit. */
static int fixed_hex(const char *hex, uint8_t *out, size_t len) {
  uint8_t tmp[512];
  char buf[1100];
  size_t hl = strlen(hex);
  if (hl + 1 >= sizeof buf) return -1;
  /* An odd digit count gets a leading zero. */
  snprintf(buf, sizeof buf, "%s%s", hl % 2 ? "0" : "", hex);
  long n = test_hex_decode(buf, tmp, sizeof tmp);
  if (n < 0) return -1;
  size_t skip = 0;
  while ((size_t)n - skip > len && tmp[skip] == 0) skip++;
  if ((size_t)n - skip > len) return -1;
  memset(out, 0, len);
  memcpy(out + len - ((size_t)n - skip), tmp + skip, (size_t)n - skip);
  return 0;
}

/* point_from builds 04 || X || Y; -1 when a coordinate is longer than the field. */
static int point_from(fm_ec_curve curve, const char *qx, const char *qy, uint8_t *pt) {
  const size_t nb = fm_ec_curve_bytes(curve);
  pt[0] = 0x04;
  if (fixed_hex(qx, pt + 1, nb) != 0 || fixed_hex(qy, pt + 1 + nb, nb) != 0) return -1;
  return 0;
}

static size_t digest_of(fm_hash_alg h, const char *msg_hex, uint8_t *digest) {
  uint8_t msg[1024];
  long ml = test_hex_decode(msg_hex, msg, sizeof msg);
  CHECK(ml >= 0);
  size_t dl = 0;
  CHECK_EQ_INT(fm_sha_digest(h, msg, (size_t)(ml < 0 ? 0 : ml), digest, FM_MAX_DIGEST_LEN), FM_OK);
  dl = h == FM_HASH_SHA256 ? 32 : h == FM_HASH_SHA384 ? 48 : 64;
  return dl;
}

/* ---- KeyPair: Q = dG ----------------------------------------------------------------------- */

static void keypair_case(const rec *r, int *count) {
  const fm_ec_curve curve = section_curve(r->section);
  if (curve == 0) return;
  const size_t nb = fm_ec_curve_bytes(curve);
  uint8_t d[FM_EC_MAX_BYTES], want[FM_EC_MAX_POINT_BYTES], got[FM_EC_MAX_POINT_BYTES];
  size_t got_len = 0;
  CHECK(fixed_hex(rec_get(r, "d"), d, nb) == 0);
  CHECK(point_from(curve, rec_get(r, "Qx"), rec_get(r, "Qy"), want) == 0);
  fm_ec_key *key = NULL;
  CHECK_EQ_INT(fm_ec_key_import_private(curve, d, nb, NULL, 0, &key), FM_OK);
  if (key == NULL) return;
  CHECK_EQ_INT(fm_ec_key_export_public(key, 0, got, sizeof got, &got_len), FM_OK);
  CHECK_EQ_INT(got_len, 1 + 2 * nb);
  CHECK_MEM(got, want, 1 + 2 * nb);
  fm_ec_key_free(key);
  /* The same key with its point given is accepted. */
  CHECK_EQ_INT(fm_ec_key_import_private(curve, d, nb, want, 1 + 2 * nb, &key), FM_OK);
  fm_ec_key_free(key);
  (*count)++;
}

static void test_cavp_keypair(void) {
  int count = 0;
  CHECK(for_each_record("cavp/dss/186-3ecdsatestvectors/KeyPair.rsp", "Qy", keypair_case,
                        &count) == 0);
  CHECK_EQ_INT(count, 40); /* 10 per curve: P-224, P-256, P-384, P-521 */
}

/* ---- PKV: full public-key validation -------------------------------------------------------- */

static void pkv_case(const rec *r, int *count) {
  const fm_ec_curve curve = section_curve(r->section);
  if (curve == 0) return;
  uint8_t pt[FM_EC_MAX_POINT_BYTES];
  const int expect_ok = rec_get(r, "Result")[0] == 'P';
  fm_ec_key *key = NULL;
  if (point_from(curve, rec_get(r, "Qx"), rec_get(r, "Qy"), pt) != 0) {
    CHECK(!expect_ok); /* a coordinate longer than the field: out of range */
  } else {
    const int st = fm_ec_key_import_public(curve, pt, 1 + 2 * fm_ec_curve_bytes(curve), &key);
    if (expect_ok) {
      CHECK_EQ_INT(st, FM_OK);
    } else {
      CHECK_EQ_INT(st, FM_ERR_BAD_KEY);
      CHECK(key == NULL);
    }
    fm_ec_key_free(key);
  }
  (*count)++;
}

static void test_cavp_pkv(void) {
  int count = 0;
  CHECK(for_each_record("cavp/dss/186-3ecdsatestvectors/PKV.rsp", "Result", pkv_case, &count) ==
        0);
  CHECK_EQ_INT(count, 48); /* 12 per curve */
}

/* ---- SigGen: the file's k gives the file's (R, S) ------------------------------------------ */

static void siggen_case(const rec *r, int *count) {
  const fm_ec_curve curve = section_curve(r->section);
  const fm_hash_alg h = section_hash(r->section);
  if (curve == 0 || h == 0) return;
  const size_t nb = fm_ec_curve_bytes(curve);
  uint8_t d[FM_EC_MAX_BYTES], k[FM_EC_MAX_BYTES], pt[FM_EC_MAX_POINT_BYTES];
  uint8_t want[FM_EC_MAX_SIG_BYTES], sig[FM_EC_MAX_SIG_BYTES], digest[FM_MAX_DIGEST_LEN];
  CHECK(fixed_hex(rec_get(r, "d"), d, nb) == 0);
  CHECK(fixed_hex(rec_get(r, "k"), k, nb) == 0);
  CHECK(fixed_hex(rec_get(r, "R"), want, nb) == 0);
  CHECK(fixed_hex(rec_get(r, "S"), want + nb, nb) == 0);
  CHECK(point_from(curve, rec_get(r, "Qx"), rec_get(r, "Qy"), pt) == 0);
  const size_t dl = digest_of(h, rec_get(r, "Msg"), digest);
  fm_ec_key *key = NULL;
  CHECK_EQ_INT(fm_ec_key_import_private(curve, d, nb, pt, 1 + 2 * nb, &key), FM_OK);
  if (key == NULL) return;
  CHECK_EQ_INT(fm_ecdsa_sign_digest_with_k_for_testing(key, digest, dl, k, nb, sig, sizeof sig),
               FM_OK);
  CHECK_MEM(sig, want, 2 * nb);
  CHECK_EQ_INT(fm_ecdsa_verify_digest(key, digest, dl, sig, 2 * nb), FM_OK);
  /* A random-k signature of the module verifies too. */
  size_t sig_len = 0;
  uint8_t msg[1024];
  const long ml = test_hex_decode(rec_get(r, "Msg"), msg, sizeof msg);
  CHECK_EQ_INT(fm_ecdsa_sign(key, h, msg, (size_t)ml, sig, sizeof sig, &sig_len), FM_OK);
  CHECK_EQ_INT(fm_ecdsa_verify(key, h, msg, (size_t)ml, sig, sig_len), FM_OK);
  fm_ec_key_free(key);
  (*count)++;
}

static void test_cavp_siggen(void) {
  int count = 0;
  CHECK(for_each_record("cavp/dss/186-3ecdsatestvectors/SigGen.txt", "S", siggen_case, &count) ==
        0);
  CHECK_EQ_INT(count, 4 * 3 * 15); /* 15 per (curve, hash) */
}

/* ---- SigVer ---------------------------------------------------------------------------------- */

static void sigver_case(const rec *r, int *count) {
  const fm_ec_curve curve = section_curve(r->section);
  const fm_hash_alg h = section_hash(r->section);
  if (curve == 0 || h == 0) return;
  const size_t nb = fm_ec_curve_bytes(curve);
  uint8_t pt[FM_EC_MAX_POINT_BYTES], sig[FM_EC_MAX_SIG_BYTES], digest[FM_MAX_DIGEST_LEN];
  const int expect_ok = rec_get(r, "Result")[0] == 'P';
  const size_t dl = digest_of(h, rec_get(r, "Msg"), digest);
  CHECK(point_from(curve, rec_get(r, "Qx"), rec_get(r, "Qy"), pt) == 0);
  fm_ec_key *key = NULL;
  const int ist = fm_ec_key_import_public(curve, pt, 1 + 2 * nb, &key);
  if (ist != FM_OK) {
    CHECK(!expect_ok);
    (*count)++;
    return;
  }
  int st = FM_ERR_VERIFY;
  if (fixed_hex(rec_get(r, "R"), sig, nb) == 0 && fixed_hex(rec_get(r, "S"), sig + nb, nb) == 0)
    st = fm_ecdsa_verify_digest(key, digest, dl, sig, 2 * nb);
  CHECK_EQ_INT(st, expect_ok ? FM_OK : FM_ERR_VERIFY);
  fm_ec_key_free(key);
  (*count)++;
}

static void test_cavp_sigver(void) {
  int count = 0;
  CHECK(for_each_record("cavp/dss/186-3ecdsatestvectors/SigVer.rsp", "Result", sigver_case,
                        &count) == 0);
  CHECK_EQ_INT(count, 4 * 3 * 15);
}

/* ---- ECC CDH primitive ----------------------------------------------------------------------- */

static void cdh_case(const rec *r, int *count) {
  const fm_ec_curve curve = section_curve(r->section);
  if (curve == 0) return;
  const size_t nb = fm_ec_curve_bytes(curve);
  uint8_t d[FM_EC_MAX_BYTES], peer[FM_EC_MAX_POINT_BYTES], mine[FM_EC_MAX_POINT_BYTES];
  uint8_t z[FM_EC_MAX_BYTES], want[FM_EC_MAX_BYTES];
  size_t z_len = 0;
  CHECK(fixed_hex(rec_get(r, "dIUT"), d, nb) == 0);
  CHECK(fixed_hex(rec_get(r, "ZIUT"), want, nb) == 0);
  CHECK(point_from(curve, rec_get(r, "QCAVSx"), rec_get(r, "QCAVSy"), peer) == 0);
  CHECK(point_from(curve, rec_get(r, "QIUTx"), rec_get(r, "QIUTy"), mine) == 0);
  fm_ec_key *key = NULL;
  CHECK_EQ_INT(fm_ec_key_import_private(curve, d, nb, mine, 1 + 2 * nb, &key), FM_OK);
  if (key == NULL) return;
  CHECK_EQ_INT(fm_ecdh(key, peer, 1 + 2 * nb, z, sizeof z, &z_len), FM_OK);
  CHECK_EQ_INT(z_len, nb);
  CHECK_MEM(z, want, nb);
  fm_ec_key_free(key);
  (*count)++;
}

static void test_cavp_ecc_cdh(void) {
  int count = 0;
  CHECK(for_each_record("cavp/components/ecccdhtestvectors/KAS_ECC_CDH_PrimitiveTest.txt", "ZIUT",
                        cdh_case, &count) == 0);
  CHECK_EQ_INT(count, 4 * 25);
}


/* ---- Wycheproof ------------------------------------------------------------------------------ */

static uint8_t *dup_hex(const char *hex, size_t *len) {
  const size_t hl = strlen(hex);
  uint8_t *b = malloc(hl / 2 + 1);
  long n = test_hex_decode(hex, b, hl / 2 + 1);
  CHECK(n >= 0);
  *len = n < 0 ? 0 : (size_t)n;
  return b;
}

static json_t *load_json(const char *name) {
  char path[512];
  snprintf(path, sizeof path, "%s/wycheproof/%s", FIPSMOD_VECTORS_DIR, name);
  json_error_t err;
  json_t *root = json_load_file(path, 0, &err);
  CHECK(root != NULL);
  return root;
}

static const char *jstr(json_t *o, const char *k) { return json_string_value(json_object_get(o, k)); }

/* ecdsa_secp256r1_sha256_p1363_test.json: "valid" verifies, "invalid" is refused. */
static void test_wycheproof_ecdsa_p256_p1363(void) {
  json_t *root = load_json("ecdsa_secp256r1_sha256_p1363_test.json"), *g, *t;
  if (root == NULL) return;
  size_t gi, ti, n = 0;
  json_array_foreach(json_object_get(root, "testGroups"), gi, g) {
    size_t pl;
    uint8_t *pub = dup_hex(jstr(json_object_get(g, "publicKey"), "uncompressed"), &pl);
    fm_ec_key *key = NULL;
    CHECK_EQ_INT(fm_ec_key_import_public(FM_EC_P256, pub, pl, &key), FM_OK);
    json_array_foreach(json_object_get(g, "tests"), ti, t) {
      size_t ml, sl;
      uint8_t *msg = dup_hex(jstr(t, "msg"), &ml), *sig = dup_hex(jstr(t, "sig"), &sl);
      const char *result = jstr(t, "result");
      const int st = fm_ecdsa_verify(key, FM_HASH_SHA256, msg, ml, sig, sl);
      if (strcmp(result, "valid") == 0) {
        CHECK_EQ_INT(st, FM_OK);
      } else if (strcmp(result, "invalid") == 0) {
        CHECK_EQ_INT(st, FM_ERR_VERIFY);
      }
      if ((strcmp(result, "valid") == 0) != (st == FM_OK))
        fprintf(stderr, "tcId %lld\n", (long long)json_integer_value(json_object_get(t, "tcId")));
      free(msg);
      free(sig);
      n++;
    }
    fm_ec_key_free(key);
    free(pub);
  }
  json_decref(root);
  CHECK_EQ_INT(n, 262); /* every case of the file */
}

/* ecdsa_secp256r1_sha256_test.json, the DER twin of the file above: each group's key is read from
 * its SubjectPublicKeyInfo (DER and PEM) by fm_ec_key_decode and written back byte for byte; each
 * signature goes through fm_ecdsa_sig_from_der (strict DER) and fm_ecdsa_verify. "valid" converts
 * and verifies; "invalid" is refused by one or the other (the BER and non-minimal encodings, the
 * wrong tags and lengths, r or s out of range, by the conversion). */
static void test_wycheproof_ecdsa_p256_der(void) {
  json_t *root = load_json("ecdsa_secp256r1_sha256_test.json"), *g, *t;
  if (root == NULL) return;
  size_t gi, ti, n = 0, refused_by_der = 0;
  json_array_foreach(json_object_get(root, "testGroups"), gi, g) {
    size_t kl;
    uint8_t *spki = dup_hex(jstr(g, "publicKeyDer"), &kl), out[128];
    fm_ec_key *key = NULL, *from_pem = NULL;
    CHECK_EQ_INT(fm_ec_key_decode(spki, kl, &key), FM_OK);
    size_t ol = 0;
    CHECK_EQ_INT(fm_ec_key_encode(key, FM_KEY_SPKI_PUBLIC, FM_KEY_DER, out, sizeof out, &ol), FM_OK);
    CHECK_EQ_INT(ol, kl);
    if (ol == kl) CHECK_MEM(out, spki, kl);
    const char *pem = jstr(g, "publicKeyPem");
    CHECK_EQ_INT(fm_ec_key_decode((const uint8_t *)pem, strlen(pem), &from_pem), FM_OK);
    fm_ec_key_free(from_pem);
    json_array_foreach(json_object_get(g, "tests"), ti, t) {
      size_t ml, dl, rl = 0;
      uint8_t *msg = dup_hex(jstr(t, "msg"), &ml), *der = dup_hex(jstr(t, "sig"), &dl);
      uint8_t raw[64];
      const char *result = jstr(t, "result");
      int st = fm_ecdsa_sig_from_der(FM_EC_P256, der, dl, raw, sizeof raw, &rl);
      if (st == FM_OK) {
        st = fm_ecdsa_verify(key, FM_HASH_SHA256, msg, ml, raw, rl);
        /* A signature that converts is canonical DER: it converts back to the same bytes. */
        uint8_t again[FM_EC_MAX_DER_SIG_BYTES];
        size_t al = 0;
        CHECK_EQ_INT(fm_ecdsa_sig_to_der(FM_EC_P256, raw, rl, again, sizeof again, &al), FM_OK);
        CHECK_EQ_INT(al, dl);
        if (al == dl) CHECK_MEM(again, der, dl);
      } else {
        CHECK(st == FM_ERR_PARSE || st == FM_ERR_OUT_OF_RANGE);
        refused_by_der++;
      }
      if (strcmp(result, "valid") == 0) {
        CHECK_EQ_INT(st, FM_OK);
      } else if (strcmp(result, "invalid") == 0) {
        CHECK(st != FM_OK);
      }
      if ((strcmp(result, "valid") == 0) != (st == FM_OK))
        fprintf(stderr, "tcId %lld: %d\n", (long long)json_integer_value(json_object_get(t, "tcId")), st);
      free(msg);
      free(der);
      n++;
    }
    fm_ec_key_free(key);
    free(spki);
  }
  json_decref(root);
  CHECK_EQ_INT(n, 484); /* every case of the file */
  CHECK(refused_by_der > 100);
}

/* ecdh_secp256r1_test.json: the peer key is a SubjectPublicKeyInfo; the test takes the point out
 * of the two named-curve P-256 layouts (uncompressed and compressed) and counts any other
 * encoding (explicit or wrong parameters, damaged DER) as refused, which every such case expects
 * unless it is "acceptable". A valid case gives the file's Z; an invalid one (off the curve, on
 * the twist, infinity) is refused with no output. */
static void test_wycheproof_ecdh_p256(void) {
  static const uint8_t spki_u[] = {0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce,
                                   0x3d, 0x02, 0x01, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d,
                                   0x03, 0x01, 0x07, 0x03, 0x42, 0x00};
  static const uint8_t spki_c[] = {0x30, 0x39, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce,
                                   0x3d, 0x02, 0x01, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d,
                                   0x03, 0x01, 0x07, 0x03, 0x22, 0x00};
  json_t *root = load_json("ecdh_secp256r1_test.json"), *g, *t;
  if (root == NULL) return;
  size_t gi, ti, n = 0, computed = 0;
  json_array_foreach(json_object_get(root, "testGroups"), gi, g) {
    json_array_foreach(json_object_get(g, "tests"), ti, t) {
      size_t publ, privl, zl;
      uint8_t *pub = dup_hex(jstr(t, "public"), &publ), *shared = dup_hex(jstr(t, "shared"), &zl);
      uint8_t d[32], z[32];
      size_t z_len = 99;
      const char *result = jstr(t, "result");
      CHECK(fixed_hex(jstr(t, "private"), d, sizeof d) == 0);
      (void)privl;
      const uint8_t *pt = NULL;
      size_t pt_len = 0;
      if (publ == sizeof spki_u + 65 && memcmp(pub, spki_u, sizeof spki_u) == 0) {
        pt = pub + sizeof spki_u;
        pt_len = 65;
      } else if (publ == sizeof spki_c + 33 && memcmp(pub, spki_c, sizeof spki_c) == 0) {
        pt = pub + sizeof spki_c;
        pt_len = 33;
      }
      int st = FM_ERR_BAD_KEY;
      fm_ec_key *key = NULL;
      CHECK_EQ_INT(fm_ec_key_import_private(FM_EC_P256, d, sizeof d, NULL, 0, &key), FM_OK);
      if (pt != NULL) {
        st = fm_ecdh(key, pt, pt_len, z, sizeof z, &z_len);
        computed++;
      }
      if (strcmp(result, "valid") == 0) {
        CHECK_EQ_INT(st, FM_OK);
        if (st == FM_OK) CHECK_MEM(z, shared, zl);
      } else if (strcmp(result, "invalid") == 0) {
        CHECK(st != FM_OK);
        if (pt != NULL) {
          CHECK_EQ_INT(z_len, 0);
          CHECK(test_is_all_zero(z, sizeof z));
        }
      }
      if ((strcmp(result, "valid") == 0) != (st == FM_OK))
        fprintf(stderr, "tcId %lld: %d\n", (long long)json_integer_value(json_object_get(t, "tcId")), st);
      fm_ec_key_free(key);
      free(pub);
      free(shared);
      n++;
    }
  }
  json_decref(root);
  CHECK_EQ_INT(n, 612); /* every case of the file */
  CHECK(computed > 300);
}

static const test_case cases[] = {
    TEST_CASE(cavp_keypair), TEST_CASE(cavp_pkv),     TEST_CASE(cavp_siggen),
    TEST_CASE(cavp_sigver),  TEST_CASE(cavp_ecc_cdh), TEST_CASE(wycheproof_ecdsa_p256_p1363),
    TEST_CASE(wycheproof_ecdh_p256), TEST_CASE(wycheproof_ecdsa_p256_der),
};

int main(int argc, char **argv) { return TEST_RUN(argc, argv, "test_ec_kat", cases); }
