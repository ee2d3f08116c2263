/* ACVP ECDSA (draft-fussell-acvp-ecdsa, ecdsa/sections/), revisions "1.0" (FIPS 186-4) and
 * "FIPS186-5", and DetECDSA sigGen (FIPS186-5):
 *   keyGen: a key pair per test from fm_ec_key_generate (FIPS 186-5 A.2.2, "testing
 *     candidates"); "extra bits" groups (A.2.1) are skipped: the module does not generate keys so;
 *   keyVer: testPassed from fm_ec_key_import_public (SP 800-56A 5.6.2.3.3 full validation);
 *   sigGen: one module key per group (qx, qy returned with the group), r and s per test from
 *     fm_ecdsa_sign, or fm_ecdsa_sign_digest when the group is a componentTest (the message is
 *     then the digest);
 *   sigVer: testPassed from fm_ecdsa_verify (fm_ecdsa_verify_digest for a componentTest group);
 *   DetECDSA sigGen: as sigGen with fm_ecdsa_sign_deterministic (_digest).
 * Curves P-224, P-256, P-384 and P-521; hashes SHA2-224 ... SHA2-512/256 and SHA3-224 ...
 * SHA3-512. Other curves (B-, K-, P-192), hashes (SHA-1, SHAKE) and SP 800-106 randomized hashing
 * ("conformance") are skipped with the reason.
 *
 * In `fipsmod kat`, keys and signatures the module chose are checked by their properties
 * (acvp_ec_check_group): a keyGen d must give the returned Q and Q must be valid; every sigGen
 * signature must verify under the group's returned key. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cli/vectors/internal.h"
#include "fipsmod/ec.h"

/* A malformed test (a field missing): kept apart from the module's statuses. */
#define MALFORMED (-1000)

static void wipe(void *p, size_t n) {
  volatile uint8_t *v = p;
  while (n--) *v++ = 0;
}

int acvp_ec_curve(const char *name, fm_ec_curve *curve) {
  static const struct {
    const char *name;
    fm_ec_curve curve;
  } k[] = {{"P-224", FM_EC_P224}, {"P-256", FM_EC_P256}, {"P-384", FM_EC_P384}, {"P-521", FM_EC_P521}};
  for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
    if (strcasecmp(name, k[i].name) == 0) {
      *curve = k[i].curve;
      return 0;
    }
  }
  return -1;
}

/* fixed_num writes the big-endian number |b| as exactly |len| octets (leading zeros added or
 * dropped); -1 when it does not fit. */
static int fixed_num(kat_bytes b, uint8_t *out, size_t len) {
  size_t skip = 0;
  while (skip < b.n && b.p[skip] == 0) skip++;
  const size_t n = b.n - skip;
  if (n > len) return -1;
  memset(out, 0, len - n);
  if (n) memcpy(out + len - n, b.p + skip, n);
  return 0;
}

int acvp_ec_point(kat_bytes x, kat_bytes y, fm_ec_curve curve, uint8_t *out, size_t *out_len) {
  const size_t nb = fm_ec_curve_bytes(curve);
  out[0] = 0x04;
  *out_len = 1 + 2 * nb;
  return fixed_num(x, out + 1, nb) < 0 || fixed_num(y, out + 1 + nb, nb) < 0 ? -1 : 0;
}

int acvp_ec_import_public(kat_ctx *c, json_t *o, const char *fx, const char *fy, const char *id,
                          fm_ec_curve curve, fm_ec_key **key) {
  kat_bytes x, y;
  *key = NULL;
  if (kj_num(c, o, fx, id, &x) < 0 || kj_num(c, o, fy, id, &y) < 0) return MALFORMED;
  uint8_t pt[FM_EC_MAX_POINT_BYTES];
  size_t pl = 0;
  if (acvp_ec_point(x, y, curve, pt, &pl) < 0) return FM_ERR_BAD_KEY; /* a coordinate >= 2^bits */
  return fm_ec_key_import_public(curve, pt, pl, key);
}

void ar_ec_public(json_t *o, const char *fx, const char *fy, const fm_ec_key *key) {
  uint8_t pt[FM_EC_MAX_POINT_BYTES];
  size_t pl = 0;
  if (fm_ec_key_export_public(key, 0, pt, sizeof pt, &pl) != FM_OK || pl < 3) {
    json_object_set_new(o, fx, json_null());
    json_object_set_new(o, fy, json_null());
    return;
  }
  const size_t nb = (pl - 1) / 2;
  ar_hex(o, fx, pt + 1, nb);
  ar_hex(o, fy, pt + 1 + nb, nb);
}

/* The shape of a sigGen / sigVer group; skip names why it is not offered (NULL when it is). */
typedef struct ec_group {
  fm_ec_curve curve;
  fm_hash_alg hash;
  int component; /* componentTest: the messages are digests */
  char skip[160];
} ec_group;

static int read_group(kat_ctx *c, json_t *g, const char *where, int hashed, ec_group *s) {
  const char *curve, *hash = NULL, *conf = NULL;
  memset(s, 0, sizeof *s);
  if (kj_str(c, g, "curve", where, &curve) < 0 || av_str_opt(c, g, "conformance", where, &conf) < 0 ||
      (hashed && kj_str(c, g, "hashAlg", where, &hash) < 0) ||
      av_bool_opt(c, g, "componentTest", where, &s->component) < 0)
    return -1;
  if (acvp_ec_curve(curve, &s->curve) < 0) {
    snprintf(s->skip, sizeof s->skip, "ECDSA on curve %s: not offered by the module", curve);
  } else if (hashed && acvp_hash_by_name(hash, &s->hash) < 0) {
    snprintf(s->skip, sizeof s->skip, "ECDSA with %s: not offered by the module", hash);
  } else if (conf != NULL && conf[0] != '\0') {
    snprintf(s->skip, sizeof s->skip,
             "ECDSA with conformance %s (SP 800-106 randomized hashing): not offered by the module",
             conf);
  }
  return 0;
}

/* skip_group counts every test of |g| as skipped for |why|. */
static void skip_group(kat_ctx *c, json_t *g, const char *why) {
  const long n = (long)json_array_size(json_object_get(g, "tests"));
  kat_skip_n(c, n, "%s", why);
  for (long i = 0; i < n; i++) ar_progress_tick(c);
}

static int keygen_group(kat_ctx *c, json_t *groups, json_t *g, const char *where) {
  const char *curve, *mode = NULL;
  fm_ec_curve cv;
  if (kj_str(c, g, "curve", where, &curve) < 0 ||
      av_str_opt(c, g, "secretGenerationMode", where, &mode) < 0)
    return -1;
  char why[160];
  if (acvp_ec_curve(curve, &cv) < 0) {
    snprintf(why, sizeof why, "ECDSA keyGen on curve %s: not offered by the module", curve);
    skip_group(c, g, why);
    return 0;
  }
  if (mode != NULL && strcasecmp(mode, "testing candidates") != 0) {
    snprintf(why, sizeof why,
             "ECDSA keyGen secretGenerationMode \"%s\": the module generates d by FIPS 186-5 "
             "A.2.2 (testing candidates) only", mode);
    skip_group(c, g, why);
    return 0;
  }
  json_t *tests = kj_array(c, g, "tests", where);
  if (tests == NULL) return -1;
  json_t *rg = ar_group(g);
  size_t ti;
  json_t *t;
  json_array_foreach(tests, ti, t) {
    char id[96];
    kj_test_id(g, t, id, sizeof id);
    fm_ec_key *key = NULL;
    uint8_t d[FM_EC_MAX_BYTES];
    size_t dl = 0;
    int rc = fm_ec_key_generate(cv, &key);
    if (rc == FM_OK) rc = fm_ec_key_export_private(key, d, sizeof d, &dl);
    if (rc != FM_OK) {
      kat_fail(c, id, "key generation: %s", fm_strerror(rc));
    } else {
      json_t *rt = ar_test(t);
      ar_hex(rt, "d", d, dl);
      ar_ec_public(rt, "qx", "qy", key);
      ar_add_test(c, rg, rt);
    }
    wipe(d, sizeof d);
    fm_ec_key_free(key);
    ar_progress_tick(c);
    kat_arena_reset(c);
  }
  ar_add_group(groups, rg);
  return 0;
}

static int keyver_group(kat_ctx *c, json_t *groups, json_t *g, const char *where) {
  ec_group s;
  if (read_group(c, g, where, 0, &s) < 0) return -1;
  if (s.skip[0]) {
    skip_group(c, g, s.skip);
    return 0;
  }
  json_t *tests = kj_array(c, g, "tests", where);
  if (tests == NULL) return -1;
  json_t *rg = ar_group(g);
  size_t ti;
  json_t *t;
  json_array_foreach(tests, ti, t) {
    char id[96];
    kj_test_id(g, t, id, sizeof id);
    fm_ec_key *key = NULL;
    const int rc = acvp_ec_import_public(c, t, "qx", "qy", id, s.curve, &key);
    fm_ec_key_free(key);
    if (rc == MALFORMED) {
      json_decref(rg);
      return -1;
    }
    json_t *rt = ar_test(t);
    json_object_set_new(rt, "testPassed", json_boolean(rc == FM_OK));
    ar_add_test(c, rg, rt);
    ar_progress_tick(c);
    kat_arena_reset(c);
  }
  ar_add_group(groups, rg);
  return 0;
}

static int sign_one(const ec_group *s, int det, const fm_ec_key *key, const kat_bytes *msg,
                    uint8_t *sig, size_t *sig_len) {
  const size_t cap = FM_EC_MAX_SIG_BYTES;
  if (s->component && det)
    return fm_ecdsa_sign_deterministic_digest(key, s->hash, msg->p, msg->n, sig, cap, sig_len);
  if (s->component) return fm_ecdsa_sign_digest(key, msg->p, msg->n, sig, cap, sig_len);
  if (det) return fm_ecdsa_sign_deterministic(key, s->hash, msg->p, msg->n, sig, cap, sig_len);
  return fm_ecdsa_sign(key, s->hash, msg->p, msg->n, sig, cap, sig_len);
}

static int siggen_group(kat_ctx *c, json_t *groups, json_t *g, const char *where, int det) {
  ec_group s;
  if (read_group(c, g, where, 1, &s) < 0) return -1;
  if (s.skip[0]) {
    skip_group(c, g, s.skip);
    return 0;
  }
  json_t *tests = kj_array(c, g, "tests", where);
  if (tests == NULL) return -1;
  fm_ec_key *key = NULL;
  int rc = fm_ec_key_generate(s.curve, &key);
  if (rc != FM_OK) {
    const long n = (long)json_array_size(tests);
    for (long i = 0; i < n; i++) kat_fail(c, where, "key generation: %s", fm_strerror(rc));
    return 0;
  }
  json_t *rg = ar_group(g);
  ar_ec_public(rg, "qx", "qy", key);
  size_t ti;
  json_t *t;
  json_array_foreach(tests, ti, t) {
    char id[96];
    kj_test_id(g, t, id, sizeof id);
    kat_bytes msg;
    if (kj_hex(c, t, "message", id, &msg) < 0) {
      json_decref(rg);
      fm_ec_key_free(key);
      return -1;
    }
    uint8_t sig[FM_EC_MAX_SIG_BYTES];
    size_t sl = 0;
    rc = sign_one(&s, det, key, &msg, sig, &sl);
    if (rc != FM_OK) {
      kat_fail(c, id, "signing: %s", fm_strerror(rc));
    } else {
      json_t *rt = ar_test(t);
      ar_hex(rt, "r", sig, sl / 2);
      ar_hex(rt, "s", sig + sl / 2, sl / 2);
      ar_add_test(c, rg, rt);
    }
    ar_progress_tick(c);
    kat_arena_reset(c);
  }
  fm_ec_key_free(key);
  ar_add_group(groups, rg);
  return 0;
}

/* verify_one: FM_OK when the signature (r, s) of |t| verifies under |key| over the test's
 * message (a digest in a component group); MALFORMED on a missing field. */
static int verify_one(kat_ctx *c, json_t *t, const char *id, const ec_group *s,
                      const fm_ec_key *key, json_t *sig_holder) {
  kat_bytes msg, r, sv;
  if (kj_hex(c, t, "message", id, &msg) < 0 || kj_num(c, sig_holder, "r", id, &r) < 0 ||
      kj_num(c, sig_holder, "s", id, &sv) < 0)
    return MALFORMED;
  const size_t nb = fm_ec_curve_bytes(s->curve);
  uint8_t sig[FM_EC_MAX_SIG_BYTES];
  if (fixed_num(r, sig, nb) < 0 || fixed_num(sv, sig + nb, nb) < 0) return FM_ERR_VERIFY;
  if (s->component) return fm_ecdsa_verify_digest(key, msg.p, msg.n, sig, 2 * nb);
  return fm_ecdsa_verify(key, s->hash, msg.p, msg.n, sig, 2 * nb);
}

static int sigver_group(kat_ctx *c, json_t *groups, json_t *g, const char *where) {
  ec_group s;
  if (read_group(c, g, where, 1, &s) < 0) return -1;
  if (s.skip[0]) {
    skip_group(c, g, s.skip);
    return 0;
  }
  json_t *tests = kj_array(c, g, "tests", where);
  if (tests == NULL) return -1;
  json_t *rg = ar_group(g);
  size_t ti;
  json_t *t;
  json_array_foreach(tests, ti, t) {
    char id[96];
    kj_test_id(g, t, id, sizeof id);
    fm_ec_key *key = NULL;
    /* The key is in the test (the specification's table), or in the group. */
    json_t *kh = json_object_get(t, "qx") ? t : g;
    int rc = acvp_ec_import_public(c, kh, "qx", "qy", id, s.curve, &key);
    if (rc == FM_OK) rc = verify_one(c, t, id, &s, key, t);
    fm_ec_key_free(key);
    if (rc == MALFORMED) {
      json_decref(rg);
      return -1;
    }
    json_t *rt = ar_test(t);
    json_object_set_new(rt, "testPassed", json_boolean(rc == FM_OK));
    ar_add_test(c, rg, rt);
    ar_progress_tick(c);
    kat_arena_reset(c);
  }
  ar_add_group(groups, rg);
  return 0;
}

int acvp_ecdsa(kat_ctx *c, json_t *set, json_t *groups, const vec_call *v) {
  const char *alg = v->alg, *mode = v->mode, *revision = v->revision;
  const int det = strcasecmp(alg, "DetECDSA") == 0;
  enum { KEYGEN, KEYVER, SIGGEN, SIGVER } m;
  if (strcasecmp(mode, "keyGen") == 0 && !det) {
    m = KEYGEN;
  } else if (strcasecmp(mode, "keyVer") == 0 && !det) {
    m = KEYVER;
  } else if (strcasecmp(mode, "sigGen") == 0) {
    m = SIGGEN;
  } else if (strcasecmp(mode, "sigVer") == 0 && !det) {
    m = SIGVER;
  } else {
    return kat_error(c, "%s: %s mode \"%s\" is not known", c->path, alg, mode);
  }
  if (strcmp(revision, "1.0") != 0 && strcasecmp(revision, "FIPS186-5") != 0) {
    kat_skip_n(c, (long)c->progress_total, "%s %s revision \"%s\": not offered by the module", alg,
               mode, revision);
    return 0;
  }
  size_t gi;
  json_t *g;
  json_array_foreach(json_object_get(set, "testGroups"), gi, g) {
    char where[64];
    snprintf(where, sizeof where, "testGroups[%zu]", gi);
    int rc = m == KEYGEN   ? keygen_group(c, groups, g, where)
             : m == KEYVER ? keyver_group(c, groups, g, where)
             : m == SIGGEN ? siggen_group(c, groups, g, where, det)
                           : sigver_group(c, groups, g, where);
    if (rc < 0) return -1;
  }
  return 0;
}

/* ---- kat mode: the module's own keys and signatures, checked by their properties ---------- */

int acvp_ec_has_answers(json_t *set) {
  const char *alg = json_string_value(json_object_get(set, "algorithm"));
  const char *mode = json_string_value(json_object_get(set, "mode"));
  if (alg == NULL || mode == NULL) return 0;
  const int ecdsa = strcasecmp(alg, "ECDSA") == 0 || strcasecmp(alg, "DetECDSA") == 0;
  size_t gi, ti;
  json_t *g, *t;
  json_array_foreach(json_object_get(set, "testGroups"), gi, g) {
    if (ecdsa && strcasecmp(mode, "sigGen") == 0 && json_object_get(g, "qx")) return 1;
    const char *type = json_string_value(json_object_get(g, "testType"));
    json_array_foreach(json_object_get(g, "tests"), ti, t) {
      if (ecdsa && strcasecmp(mode, "keyGen") == 0 && json_object_get(t, "d")) return 1;
      if (ecdsa && strcasecmp(mode, "sigGen") == 0 && json_object_get(t, "r")) return 1;
      if (acvp_kas_ecc_answers(alg, mode, type, t)) return 1;
    }
  }
  return 0;
}

static int check_keygen(kat_ctx *c, json_t *pg, json_t *rg, const char *where) {
  const char *curve;
  fm_ec_curve cv;
  if (kj_str(c, pg, "curve", where, &curve) < 0) return -1;
  if (acvp_ec_curve(curve, &cv) < 0) return kat_error(c, "%s: %s: curve %s answered", c->path, where, curve);
  size_t ti;
  json_t *t;
  json_array_foreach(json_object_get(rg, "tests"), ti, t) {
    char id[96];
    kj_test_id(rg, t, id, sizeof id);
    kat_bytes d, x, y;
    if (kj_hex(c, t, "d", id, &d) < 0 || kj_num(c, t, "qx", id, &x) < 0 ||
        kj_num(c, t, "qy", id, &y) < 0)
      return -1;
    uint8_t pt[FM_EC_MAX_POINT_BYTES];
    size_t pl = 0;
    fm_ec_key *key = NULL;
    int rc = acvp_ec_point(x, y, cv, pt, &pl) < 0 ? FM_ERR_BAD_KEY
             : d.n != fm_ec_curve_bytes(cv)       ? FM_ERR_LENGTH
                                                  : fm_ec_key_import_private(cv, d.p, d.n, pt, pl, &key);
    fm_ec_key_free(key);
    if (rc == FM_OK) {
      kat_pass(c);
    } else {
      kat_fail(c, id, "the module's key pair (d, Q) does not import: %s (Q must equal dG)",
               fm_strerror(rc));
    }
    kat_arena_reset(c);
  }
  return 0;
}

static int check_siggen(kat_ctx *c, json_t *pg, json_t *rg, const char *where) {
  ec_group s;
  if (read_group(c, pg, where, 1, &s) < 0) return -1;
  if (s.skip[0]) return kat_error(c, "%s: %s: a skipped group was answered", c->path, where);
  fm_ec_key *key = NULL;
  int rc = acvp_ec_import_public(c, rg, "qx", "qy", where, s.curve, &key);
  if (rc == MALFORMED) return -1;
  json_t *ptests = json_object();
  size_t ti;
  json_t *t;
  json_array_foreach(json_object_get(pg, "tests"), ti, t) {
    char k[40];
    json_t *id = json_object_get(t, "tcId");
    snprintf(k, sizeof k, "%lld", json_is_integer(id) ? (long long)json_integer_value(id) : -1LL);
    json_object_set(ptests, k, t);
  }
  int ret = 0;
  json_array_foreach(json_object_get(rg, "tests"), ti, t) {
    char id[96], k[40];
    kj_test_id(rg, t, id, sizeof id);
    json_t *tcid = json_object_get(t, "tcId");
    snprintf(k, sizeof k, "%lld", json_is_integer(tcid) ? (long long)json_integer_value(tcid) : -1LL);
    json_t *pt = json_object_get(ptests, k);
    if (pt == NULL) {
      kat_fail(c, id, "no prompt test for this answer");
      continue;
    }
    if (rc != FM_OK) {
      kat_fail(c, id, "the group's public key (qx, qy) does not import: %s", fm_strerror(rc));
      continue;
    }
    const int v = verify_one(c, pt, id, &s, key, t);
    if (v == MALFORMED) {
      ret = -1;
      break;
    }
    if (v == FM_OK) {
      kat_pass(c);
    } else {
      kat_fail(c, id, "the module's signature does not verify under the group's key: %s",
               fm_strerror(v));
    }
    kat_arena_reset(c);
  }
  json_decref(ptests);
  fm_ec_key_free(key);
  return ret;
}

/* The table's group hook (1: checked here; 0: compare field by field; -1: malformed). */
int acvp_ecdsa_check_group(kat_ctx *c, const vec_call *v, json_t *pg, json_t *rg, json_t *eg,
                           const char *where) {
  (void)eg;
  if (pg == NULL || v->mode == NULL) return 0;
  int rc = 1;
  if (strcasecmp(v->mode, "keyGen") == 0) rc = check_keygen(c, pg, rg, where);
  else if (strcasecmp(v->mode, "sigGen") == 0) rc = check_siggen(c, pg, rg, where);
  return rc == 0 ? 1 : rc < 0 ? -1 : 0;
}
