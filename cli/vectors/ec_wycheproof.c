/* Wycheproof ECDSA and ECDH files (schemas ecdsa_verify_schema_v1.json, test groups
 * "EcdsaVerify", signatures in DER; ecdsa_p1363_verify_schema_v1.json, "EcdsaP1363Verify",
 * r || s; ecdh_test_schema_v1.json, "EcdhTest", the peer key as a DER SubjectPublicKeyInfo;
 * ecdh_ecpoint_test_schema_v1.json, "EcdhEcpointTest", the peer key as a SEC1 point).
 *
 * Curves secp224r1, secp256r1, secp384r1 and secp521r1 (P-224 ... P-521); hashes SHA-224,
 * SHA-256, SHA-384, SHA-512, SHA-512/224, SHA-512/256 and SHA3-224 ... SHA3-512. Groups on other
 * curves (secp256k1, brainpool, unnamed) or with other hashes (SHAKE, SHA-1) are skipped with the
 * reason.
 *
 * Verification: the group's key is publicKey.uncompressed through fm_ec_key_import_public (full
 * validation), or publicKeyDer through fm_ec_key_decode when the file has no uncompressed point; a DER signature goes through fm_ecdsa_sig_from_der (strict DER) and then
 * fm_ecdsa_verify; a P1363 signature must be exactly 2 * fm_ec_curve_bytes octets.
 * ECDH: an SPKI through fm_ec_key_decode (strict DER, named curves only) whose curve must be the
 * group's, then fm_ecdh with the test's private scalar; an ecpoint straight to fm_ecdh.
 *
 * Results: "valid" must verify (ECDH: give "shared"); "invalid" must be refused (ECDH: with Z
 * wiped). "acceptable" cases are decided by their flags:
 *   - encodings the module's strict readers refuse by design must be refused:
 *     BerEncodedSignature, InvalidEncoding, MissingZero, InvalidTypesInSignature (DER
 *     signatures); InvalidAsn, UnnamedCurve, UnusedParam, ModifiedCofactor, ModifiedGenerator,
 *     ModifiedCurveParameter, WrongOrder, NoCofactor (SPKI with BER or explicit parameters);
 *   - CompressedPublic / CompressedPoint: the module takes compressed points on P-256, P-384 and
 *     P-521 (then Z must equal "shared") and refuses them on P-224 (not offered);
 *   - any other acceptable case is skipped, naming its flags, rather than guessed. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cli/vectors/internal.h"
#include "fipsmod/ec.h"
#include "fipsmod/keyfile.h"

static int curve_of(const char *name, fm_ec_curve *c) {
  static const struct {
    const char *name;
    fm_ec_curve curve;
  } k[] = {{"secp224r1", FM_EC_P224}, {"secp256r1", FM_EC_P256}, {"secp384r1", FM_EC_P384},
           {"secp521r1", FM_EC_P521}, {"P-224", FM_EC_P224},      {"P-256", FM_EC_P256},
           {"P-384", FM_EC_P384},      {"P-521", FM_EC_P521}};
  for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
    if (strcmp(name, k[i].name) == 0) {
      *c = k[i].curve;
      return 0;
    }
  }
  return -1;
}

static int hash_of(const char *name, fm_hash_alg *h) {
  static const struct {
    const char *name;
    fm_hash_alg alg;
  } k[] = {{"SHA-224", FM_HASH_SHA224},         {"SHA-256", FM_HASH_SHA256},
           {"SHA-384", FM_HASH_SHA384},         {"SHA-512", FM_HASH_SHA512},
           {"SHA-512/224", FM_HASH_SHA512_224}, {"SHA-512/256", FM_HASH_SHA512_256},
           {"SHA3-224", FM_HASH_SHA3_224},      {"SHA3-256", FM_HASH_SHA3_256},
           {"SHA3-384", FM_HASH_SHA3_384},      {"SHA3-512", FM_HASH_SHA3_512}};
  for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
    if (strcmp(name, k[i].name) == 0) {
      *h = k[i].alg;
      return 0;
    }
  }
  return -1;
}

static int has_flag(json_t *t, const char *flag) {
  size_t i;
  json_t *f;
  json_array_foreach(json_object_get(t, "flags"), i, f) {
    if (json_is_string(f) && strcmp(json_string_value(f), flag) == 0) return 1;
  }
  return 0;
}

static int has_any_flag(json_t *t, const char *const *flags) {
  for (; *flags; flags++) {
    if (has_flag(t, *flags)) return 1;
  }
  return 0;
}

static const char *const k_strict_flags[] = {
    "BerEncodedSignature", "InvalidEncoding",  "MissingZero",       "InvalidTypesInSignature",
    "InvalidAsn",          "UnnamedCurve",     "UnusedParam",       "ModifiedCofactor",
    "ModifiedGenerator",   "ModifiedCurveParameter", "WrongOrder", "NoCofactor", NULL};
static const char *const k_compressed_flags[] = {"CompressedPublic", "CompressedPoint", NULL};

/* What a case expects of the module. */
enum { EXPECT_OK = 1, EXPECT_REFUSAL = 2, EXPECT_EITHER_SAME_Z = 3, EXPECT_SKIP = 4 };

static int expectation(kat_ctx *c, json_t *t, const char *id) {
  const int r = kj_result(c, t, id);
  if (r < 0) return -1;
  if (r == KJ_VALID) return EXPECT_OK;
  if (r == KJ_INVALID) return EXPECT_REFUSAL;
  if (has_any_flag(t, k_strict_flags)) return EXPECT_REFUSAL;
  if (has_any_flag(t, k_compressed_flags)) return EXPECT_EITHER_SAME_Z;
  return EXPECT_SKIP;
}

static void skip_acceptable(kat_ctx *c, json_t *t) {
  char flags[160];
  kj_flags(t, flags, sizeof flags);
  kat_skip(c, "Wycheproof acceptable case with flags %s: no documented expectation", flags);
}

static void skip_tests(kat_ctx *c, json_t *g, const char *fmt, const char *what) {
  kat_skip_n(c, (long)json_array_size(json_object_get(g, "tests")), fmt, what);
}

/* ---- ECDSA verification --------------------------------------------------------------------- */

int kat_wp_ecdsa(kat_ctx *c, json_t *root, const vec_call *v) {
  const int p1363 = v->arg;
  json_t *groups = kj_array(c, root, "testGroups", "file");
  if (groups == NULL) return -1;
  kat_set_kind(c, "Wycheproof ECDSA %s verify", p1363 ? "P1363" : "DER");
  size_t gi, ti;
  json_t *g, *t;
  json_array_foreach(groups, gi, g) {
    char where[64], id[96];
    snprintf(where, sizeof where, "testGroups[%zu]", gi);
    json_t *pk = json_object_get(g, "publicKey");
    json_t *cv = json_object_get(pk, "curve");
    const char *sha;
    if (kj_str(c, g, "sha", where, &sha) < 0) return -1;
    fm_ec_curve curve;
    fm_hash_alg hash;
    if (!json_is_string(cv) || curve_of(json_string_value(cv), &curve) < 0) {
      skip_tests(c, g, "Wycheproof ECDSA on curve %s: not offered by the module",
                 json_is_string(cv) ? json_string_value(cv) : "(unnamed)");
      continue;
    }
    if (hash_of(sha, &hash) < 0) {
      skip_tests(c, g, "Wycheproof ECDSA with %s: not offered by the module", sha);
      continue;
    }
    /* The key: publicKey.uncompressed, else the group's publicKeyDer (both optional in the
     * schema; one is needed). */
    kat_bytes q;
    fm_ec_key *key = NULL;
    int kst;
    if (json_object_get(pk, "uncompressed") != NULL) {
      if (kj_hex(c, pk, "uncompressed", where, &q) < 0) return -1;
      kst = fm_ec_key_import_public(curve, q.p, q.n, &key);
    } else {
      if (kj_hex(c, g, "publicKeyDer", where, &q) < 0) return -1;
      fm_ec_curve kc = (fm_ec_curve)0;
      kst = fm_ec_key_decode(q.p, q.n, &key);
      if (kst == FM_OK && (fm_ec_key_curve(key, &kc) != FM_OK || kc != curve)) kst = FM_ERR_BAD_KEY;
    }
    kat_arena_reset(c);
    json_t *tests = kj_array(c, g, "tests", where);
    if (tests == NULL) {
      fm_ec_key_free(key);
      return -1;
    }
    const size_t nb = fm_ec_curve_bytes(curve);
    json_array_foreach(tests, ti, t) {
      kj_test_id(NULL, t, id, sizeof id);
      kat_bytes msg, sig;
      const int want = expectation(c, t, id);
      if (want < 0 || kj_hex(c, t, "msg", id, &msg) < 0 || kj_hex(c, t, "sig", id, &sig) < 0) {
        fm_ec_key_free(key);
        return -1;
      }
      if (want == EXPECT_SKIP) {
        skip_acceptable(c, t);
        kat_arena_reset(c);
        continue;
      }
      uint8_t raw[FM_EC_MAX_SIG_BYTES];
      size_t rl = 0;
      int st = kst;
      if (st == FM_OK && p1363) {
        st = sig.n == 2 * nb ? fm_ecdsa_verify(key, hash, msg.p, msg.n, sig.p, sig.n) : FM_ERR_VERIFY;
      } else if (st == FM_OK) {
        st = fm_ecdsa_sig_from_der(curve, sig.p, sig.n, raw, sizeof raw, &rl);
        if (st == FM_OK) st = fm_ecdsa_verify(key, hash, msg.p, msg.n, raw, rl);
      }
      char flags[128];
      kj_flags(t, flags, sizeof flags);
      if (want == EXPECT_OK && st != FM_OK) {
        kat_fail(c, id, "valid signature rejected: %s (%s)", fm_strerror(st), flags);
      } else if (want != EXPECT_OK && st == FM_OK) {
        kat_fail(c, id, "%s signature accepted (%s)",
                 kj_result(c, t, id) == KJ_INVALID ? "invalid" : "acceptable, strict-refusal", flags);
      } else {
        kat_pass(c);
      }
      kat_arena_reset(c);
    }
    fm_ec_key_free(key);
  }
  return 0;
}

/* ---- ECDH ------------------------------------------------------------------------------------ */

/* private_scalar: the BigInt (two's complement, big-endian, maybe with a sign byte) as exactly
 * |nb| octets; -1 when it does not fit. */
static int private_scalar(const kat_bytes *b, uint8_t *out, size_t nb) {
  size_t skip = 0;
  while (skip < b->n && b->p[skip] == 0) skip++;
  if (b->n - skip > nb) return -1;
  memset(out, 0, nb - (b->n - skip));
  if (b->n > skip) memcpy(out + nb - (b->n - skip), b->p + skip, b->n - skip);
  return 0;
}

/* ecdh_case: Z from the test's peer key; *called says whether fm_ecdh ran (a refusal of the
 * key decoder leaves Z untouched). */
static int ecdh_case(const kat_bytes *pub, int ecpoint, fm_ec_curve curve, const fm_ec_key *priv,
                     uint8_t *z, size_t *zl, int *called) {
  *called = 1;
  if (ecpoint) return fm_ecdh(priv, pub->p, pub->n, z, FM_EC_MAX_BYTES, zl);
  *called = 0;
  fm_ec_key *peer = NULL;
  int st = fm_ec_key_decode(pub->p, pub->n, &peer);
  fm_ec_curve pc = (fm_ec_curve)0;
  if (st == FM_OK) st = fm_ec_key_curve(peer, &pc);
  if (st == FM_OK && pc != curve) st = FM_ERR_BAD_KEY; /* a key of another curve */
  uint8_t pt[FM_EC_MAX_POINT_BYTES];
  size_t pl = 0;
  if (st == FM_OK) st = fm_ec_key_export_public(peer, 0, pt, sizeof pt, &pl);
  fm_ec_key_free(peer);
  if (st == FM_OK) {
    *called = 1;
    st = fm_ecdh(priv, pt, pl, z, FM_EC_MAX_BYTES, zl);
  }
  return st;
}

int kat_wp_ecdh(kat_ctx *c, json_t *root, const vec_call *v) {
  const int ecpoint = v->arg;
  json_t *groups = kj_array(c, root, "testGroups", "file");
  if (groups == NULL) return -1;
  kat_set_kind(c, "Wycheproof ECDH (%s)", ecpoint ? "SEC1 points" : "SubjectPublicKeyInfo");
  size_t gi, ti;
  json_t *g, *t;
  json_array_foreach(groups, gi, g) {
    char where[64], id[96];
    snprintf(where, sizeof where, "testGroups[%zu]", gi);
    const char *cname;
    fm_ec_curve curve;
    if (kj_str(c, g, "curve", where, &cname) < 0) return -1;
    if (curve_of(cname, &curve) < 0) {
      skip_tests(c, g, "Wycheproof ECDH on curve %s: not offered by the module", cname);
      continue;
    }
    json_t *tests = kj_array(c, g, "tests", where);
    if (tests == NULL) return -1;
    const size_t nb = fm_ec_curve_bytes(curve);
    json_array_foreach(tests, ti, t) {
      kj_test_id(NULL, t, id, sizeof id);
      kat_bytes pub, priv, shared;
      const int want = expectation(c, t, id);
      if (want < 0 || kj_hex(c, t, "public", id, &pub) < 0 ||
          kj_num(c, t, "private", id, &priv) < 0 || kj_hex(c, t, "shared", id, &shared) < 0)
        return -1;
      if (want == EXPECT_SKIP) {
        skip_acceptable(c, t);
        kat_arena_reset(c);
        continue;
      }
      uint8_t d[FM_EC_MAX_BYTES], z[FM_EC_MAX_BYTES];
      size_t zl = 99;
      memset(z, 0xa5, sizeof z);
      fm_ec_key *key = NULL;
      int st = private_scalar(&priv, d, nb) < 0 ? FM_ERR_LENGTH
                                                : fm_ec_key_import_private(curve, d, nb, NULL, 0, &key);
      if (st != FM_OK) {
        kat_fail(c, id, "the test's private key does not import: %s", fm_strerror(st));
        kat_arena_reset(c);
        continue;
      }
      int called = 0;
      st = ecdh_case(&pub, ecpoint, curve, key, z, &zl, &called);
      fm_ec_key_free(key);
      char flags[128];
      kj_flags(t, flags, sizeof flags);
      if (st == FM_OK && want != EXPECT_REFUSAL) {
        kat_compare(c, id, "shared", z, zl, shared.p, shared.n);
      } else if (st == FM_OK) {
        kat_fail(c, id, "a shared secret from a public key that must be refused (%s)", flags);
      } else if (want == EXPECT_OK) {
        kat_fail(c, id, "valid case refused: %s (%s)", fm_strerror(st), flags);
      } else {
        /* Refused: a refusal by fm_ecdh itself must leave Z wiped and its length 0. */
        int wiped = 1;
        for (size_t i = 0; called && i < nb; i++) wiped &= z[i] == 0;
        if (!called || (wiped && zl == 0)) {
          kat_pass(c);
        } else {
          kat_fail(c, id, "refused (%s) but the output was not wiped", fm_strerror(st));
        }
      }
      memset(d, 0, sizeof d);
      kat_arena_reset(c);
    }
  }
  return 0;
}
