/* ACVP ML-DSA (draft-celi-acvp-ml-dsa, revision FIPS204): keyGen, sigGen and sigVer.
 *
 * - keyGen: pk and sk from the seed (fm_mldsa_keygen_from_seed, KeyGen_internal);
 * - sigGen: every group shape of the specification: signatureInterface "internal" (M' as
 *   given, or mu when externalMu) or "external" with preHash "pure" (context) or "preHash"
 *   (context and hashAlg); deterministic, or hedged with the test's rnd
 *   (fm_mldsa_sign_with_rnd: the module formats M' as ML-DSA.Sign or HashML-DSA.Sign would);
 *   keyFormat "expanded" (sk) or "seed" (the key expanded from the seed first);
 * - sigVer: testPassed from the matching verification.
 * Every answer is computed from the server's inputs, so it is checked field by field. Every
 * pre-hash function of the specification (SHA2-*, SHA3-*, SHAKE-128/256) is offered. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cli/vectors/internal.h"
#include "fipsmod/mldsa.h"

/* A malformed test (a field missing): kept apart from the module's statuses. */
#define MALFORMED (-1000)

static fm_mldsa_param param_of(const char *name) {
  if (strcmp(name, "ML-DSA-44") == 0) return FM_MLDSA_44;
  if (strcmp(name, "ML-DSA-65") == 0) return FM_MLDSA_65;
  if (strcmp(name, "ML-DSA-87") == 0) return FM_MLDSA_87;
  return (fm_mldsa_param)0;
}

/* prehash_of maps ACVP's hashAlg names; 0 for one the module does not offer. */
static int prehash_of(const char *name, fm_mldsa_prehash *ph) {
  static const struct {
    const char *name;
    fm_mldsa_prehash ph;
  } k[] = {{"SHA2-256", FM_MLDSA_PH_SHA256},     {"SHA2-384", FM_MLDSA_PH_SHA384},
           {"SHA2-512", FM_MLDSA_PH_SHA512},     {"SHA3-224", FM_MLDSA_PH_SHA3_224},
           {"SHA3-256", FM_MLDSA_PH_SHA3_256},   {"SHA3-384", FM_MLDSA_PH_SHA3_384},
           {"SHA3-512", FM_MLDSA_PH_SHA3_512},   {"SHAKE-128", FM_MLDSA_PH_SHAKE128},
           {"SHAKE-256", FM_MLDSA_PH_SHAKE256},  {"SHA2-224", FM_MLDSA_PH_SHA224},
           {"SHA2-512/224", FM_MLDSA_PH_SHA512_224}, {"SHA2-512/256", FM_MLDSA_PH_SHA512_256}};
  for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
    if (strcmp(name, k[i].name) == 0) {
      *ph = k[i].ph;
      return 1;
    }
  }
  return 0;
}

/* The shape of a signing or verification group. */
typedef struct group_shape {
  fm_mldsa_param param;
  int internal;      /* signatureInterface "internal" */
  int external_mu;   /* internal with externalMu */
  int prehash;       /* external with preHash "preHash" */
  int deterministic; /* sigGen */
  int seed_keys;     /* keyFormat "seed" */
} group_shape;

static int read_shape(kat_ctx *c, json_t *g, const char *where, int signing, group_shape *s) {
  const char *set, *iface = "external", *pre = "pure", *format = "expanded";
  memset(s, 0, sizeof *s);
  if (kj_str(c, g, "parameterSet", where, &set) < 0 ||
      av_str_opt(c, g, "signatureInterface", where, &iface) < 0 ||
      av_str_opt(c, g, "preHash", where, &pre) < 0 ||
      av_str_opt(c, g, "keyFormat", where, &format) < 0)
    return -1;
  /* Absent optional fields read as NULL: the specification's defaults. */
  if (iface == NULL) iface = "external";
  if (pre == NULL) pre = "pure";
  if (format == NULL) format = "expanded";
  s->param = param_of(set);
  if (s->param == 0) return kat_error(c, "%s: %s: unknown parameterSet \"%s\"", c->path, where, set);
  s->internal = strcmp(iface, "internal") == 0;
  s->prehash = !s->internal && strcmp(pre, "preHash") == 0;
  s->seed_keys = strcmp(format, "seed") == 0;
  if (av_bool_opt(c, g, "externalMu", where, &s->external_mu) < 0) return -1;
  /* The specification's table types externalMu as a string in places; accept "true" too. */
  json_t *em = json_object_get(g, "externalMu");
  if (json_is_string(em)) s->external_mu = strcmp(json_string_value(em), "true") == 0;
  if (!s->internal) s->external_mu = 0;
  if (signing && av_bool(c, g, "deterministic", where, &s->deterministic) < 0) return -1;
  return 0;
}

static int keygen(kat_ctx *c, json_t *groups_out, json_t *g, const char *where) {
  const char *set;
  if (kj_str(c, g, "parameterSet", where, &set) < 0) return -1;
  const fm_mldsa_param param = param_of(set);
  if (param == 0) return kat_error(c, "%s: %s: unknown parameterSet \"%s\"", c->path, where, set);
  json_t *tests = kj_array(c, g, "tests", where);
  if (tests == NULL) return -1;
  json_t *rg = ar_group(g);
  size_t ti;
  json_t *t;
  json_array_foreach(tests, ti, t) {
    char id[96];
    kj_test_id(g, t, id, sizeof id);
    kat_bytes seed;
    if (kj_hex(c, t, "seed", id, &seed) < 0) {
      json_decref(rg);
      return -1;
    }
    uint8_t pk[FM_MLDSA_87_PUBLIC_KEY_LEN], sk[FM_MLDSA_87_PRIVATE_KEY_LEN];
    const size_t pkl = fm_mldsa_public_key_len(param), skl = fm_mldsa_private_key_len(param);
    const int rc = seed.n == FM_MLDSA_SEED_LEN
                       ? fm_mldsa_keygen_from_seed(param, seed.p, pk, pkl, sk, skl)
                       : FM_ERR_LENGTH;
    if (rc != FM_OK) {
      kat_fail(c, id, "key generation: %s", fm_strerror(rc));
    } else {
      json_t *rt = ar_test(t);
      ar_hex(rt, "pk", pk, pkl);
      ar_hex(rt, "sk", sk, skl);
      ar_add_test(c, rg, rt);
    }
    memset(sk, 0, sizeof sk);
    ar_progress_tick(c);
    kat_arena_reset(c);
  }
  ar_add_group(groups_out, rg);
  return 0;
}

/* test_key gets the test's private key: sk, or the key expanded from seed. */
static int test_key(kat_ctx *c, json_t *t, const char *id, const group_shape *s, uint8_t *sk,
                    size_t skl) {
  kat_bytes in;
  if (s->seed_keys) {
    if (kj_hex(c, t, "seed", id, &in) < 0) return MALFORMED;
    uint8_t pk[FM_MLDSA_87_PUBLIC_KEY_LEN];
    if (in.n != FM_MLDSA_SEED_LEN) return FM_ERR_LENGTH;
    return fm_mldsa_keygen_from_seed(s->param, in.p, pk, fm_mldsa_public_key_len(s->param), sk,
                                     skl);
  }
  if (kj_hex(c, t, "sk", id, &in) < 0) return MALFORMED;
  if (in.n != skl) return FM_ERR_KEY_SIZE;
  memcpy(sk, in.p, skl);
  return FM_OK;
}

static int siggen_one(kat_ctx *c, json_t *t, const char *id, const group_shape *s,
                      uint8_t *sig, size_t *sig_len, int *skip) {
  const size_t skl = fm_mldsa_private_key_len(s->param);
  uint8_t sk[FM_MLDSA_87_PRIVATE_KEY_LEN];
  int rc = test_key(c, t, id, s, sk, skl);
  if (rc != FM_OK) return rc;
  kat_bytes msg = {0}, ctx = {0}, mu = {0}, rnd = {0};
  const char *hash = NULL;
  fm_mldsa_prehash ph = FM_MLDSA_PH_NONE;
  const size_t cap = FM_MLDSA_MAX_SIGNATURE_LEN;
  if ((s->external_mu ? kj_hex(c, t, "mu", id, &mu) : kj_hex(c, t, "message", id, &msg)) < 0 ||
      (!s->internal && kj_hex_opt(c, t, "context", id, &ctx) < 0) ||
      (!s->deterministic && kj_hex(c, t, "rnd", id, &rnd) < 0) ||
      (s->prehash && kj_str(c, t, "hashAlg", id, &hash) < 0)) {
    rc = MALFORMED;
  } else if (!s->deterministic && rnd.n != FM_MLDSA_RND_LEN) {
    rc = FM_ERR_LENGTH;
  } else if (s->external_mu) {
    rc = mu.n == FM_MLDSA_MU_LEN ? fm_mldsa_sign_mu(s->param, sk, skl, mu.p, rnd.p, sig, cap,
                                                    sig_len)
                                 : FM_ERR_LENGTH;
  } else if (s->internal) {
    rc = fm_mldsa_sign_internal(s->param, sk, skl, msg.p, msg.n, rnd.p, sig, cap, sig_len);
  } else if (s->prehash && !prehash_of(hash, &ph)) {
    *skip = 1;
    kat_skip(c, "HashML-DSA with %s: not offered by the module", hash);
    rc = FM_OK;
  } else {
    /* The module formats M' (pure or pre-hash) and signs with the server's rnd, or with
     * rnd = 0^32 for deterministic groups (rnd.p is NULL then). */
    rc = fm_mldsa_sign_with_rnd(s->param, sk, skl, ph, msg.p, msg.n, ctx.p, ctx.n, rnd.p, sig,
                                cap, sig_len);
  }
  memset(sk, 0, sizeof sk);
  return rc;
}

static int sigver_one(kat_ctx *c, json_t *t, const char *id, const group_shape *s, int *passed,
                      int *skip) {
  kat_bytes pk, sig, msg = {0}, ctx = {0}, mu = {0};
  const char *hash = NULL;
  if (kj_hex(c, t, "pk", id, &pk) < 0 || kj_hex(c, t, "signature", id, &sig) < 0 ||
      (s->external_mu ? kj_hex(c, t, "mu", id, &mu) : kj_hex(c, t, "message", id, &msg)) < 0 ||
      (!s->internal && kj_hex_opt(c, t, "context", id, &ctx) < 0) ||
      (s->prehash && kj_str(c, t, "hashAlg", id, &hash) < 0))
    return -1;
  int rc;
  if (s->external_mu) {
    rc = mu.n == FM_MLDSA_MU_LEN ? fm_mldsa_verify_mu(s->param, pk.p, pk.n, mu.p, sig.p, sig.n)
                                 : FM_ERR_LENGTH;
  } else if (s->internal) {
    rc = fm_mldsa_verify_internal(s->param, pk.p, pk.n, msg.p, msg.n, sig.p, sig.n);
  } else if (!s->prehash) {
    rc = fm_mldsa_verify(s->param, pk.p, pk.n, msg.p, msg.n, ctx.p, ctx.n, sig.p, sig.n);
  } else {
    fm_mldsa_prehash ph;
    if (!prehash_of(hash, &ph)) {
      *skip = 1;
      kat_skip(c, "HashML-DSA with %s: not offered by the module", hash);
      return 0;
    }
    rc = fm_mldsa_hash_verify(s->param, pk.p, pk.n, ph, msg.p, msg.n, ctx.p, ctx.n, sig.p, sig.n);
  }
  *passed = rc == FM_OK;
  return 0;
}

int acvp_mldsa(kat_ctx *c, json_t *set, json_t *groups, const vec_call *v) {
  const char *mode = v->mode;
  const int is_keygen = strcasecmp(mode, "keyGen") == 0, is_siggen = strcasecmp(mode, "sigGen") == 0;
  if (!is_keygen && !is_siggen && strcasecmp(mode, "sigVer") != 0)
    return kat_error(c, "%s: ML-DSA mode \"%s\" is not known", c->path, mode);
  size_t gi, ti;
  json_t *g, *t;
  json_array_foreach(json_object_get(set, "testGroups"), gi, g) {
    char where[64];
    snprintf(where, sizeof where, "testGroups[%zu]", gi);
    if (is_keygen) {
      if (keygen(c, groups, g, where) < 0) return -1;
      continue;
    }
    group_shape s;
    if (read_shape(c, g, where, is_siggen, &s) < 0) return -1;
    json_t *tests = kj_array(c, g, "tests", where);
    if (tests == NULL) return -1;
    json_t *rg = ar_group(g);
    json_array_foreach(tests, ti, t) {
      char id[96];
      kj_test_id(g, t, id, sizeof id);
      int skip = 0;
      json_t *rt = NULL;
      if (is_siggen) {
        uint8_t sig[FM_MLDSA_MAX_SIGNATURE_LEN];
        size_t sig_len = 0;
        const int rc = siggen_one(c, t, id, &s, sig, &sig_len, &skip);
        if (rc == MALFORMED) {
          json_decref(rg);
          return -1;
        }
        if (!skip && rc == FM_OK) {
          rt = ar_test(t);
          ar_hex(rt, "signature", sig, sig_len);
        } else if (!skip) {
          kat_fail(c, id, "signing: %s", fm_strerror(rc));
        }
      } else {
        int passed = 0;
        if (sigver_one(c, t, id, &s, &passed, &skip) < 0) {
          json_decref(rg);
          return -1;
        }
        if (!skip) {
          rt = ar_test(t);
          json_object_set_new(rt, "testPassed", json_boolean(passed));
        }
      }
      if (rt != NULL) ar_add_test(c, rg, rt);
      ar_progress_tick(c);
      kat_arena_reset(c);
    }
    ar_add_group(groups, rg);
  }
  return 0;
}

/* ---- Wycheproof -------------------------------------------------------------------------- */

/* ML-DSA known answers: Wycheproof's mldsa_*_verify, mldsa_*_sign_seed and mldsa_*_sign_noseed
 * files (FIPS 204; the parameter set is read from the file's "algorithm").
 *
 * - verify: each signature on (msg, ctx) under the group's public key must be accepted exactly
 *   when the test is valid;
 * - sign: with the private key (expanded from the seed, which must give the group's public key,
 *   or given), the deterministic signature (hedged with the test's rnd when it has one) of msg
 *   under ctx, or of mu for the Internal tests, must equal sig; an invalid test (context too
 *   long, a private key of the wrong length or out of range) must be refused with the output
 *   wiped. Every produced signature is also checked with fm_mldsa_verify or fm_mldsa_verify_mu.
 * The seed files' seed lengths other than 32 are refused by the runner: the module's API takes a
 * fixed 32-byte seed, so such a seed cannot be passed. */
/* param_from_alg maps "ML-DSA-44/65/87" to the parameter set; 0 for others. */
static fm_mldsa_param param_from_alg(const char *alg) {
  if (strcmp(alg, "ML-DSA-44") == 0) return FM_MLDSA_44;
  if (strcmp(alg, "ML-DSA-65") == 0) return FM_MLDSA_65;
  if (strcmp(alg, "ML-DSA-87") == 0) return FM_MLDSA_87;
  return (fm_mldsa_param)0;
}

static int all_zero(const uint8_t *p, size_t n) {
  uint8_t acc = 0;
  for (size_t i = 0; i < n; i++) acc |= p[i];
  return acc == 0;
}

static int expect_result(kat_ctx *c, json_t *t, const char *id, int *valid) {
  int r = kj_result(c, t, id);
  if (r < 0) return -1;
  *valid = r == KJ_VALID;
  return 0;
}

int kat_wp_mldsa_verify(kat_ctx *c, json_t *root, const vec_call *v) {
  const char *alg = v->alg;
  const fm_mldsa_param param = param_from_alg(alg);
  if (param == 0) return kat_error(c, "%s: unknown ML-DSA algorithm \"%s\"", c->path, alg);
  kat_set_kind(c, "Wycheproof %s verify", alg);
  json_t *groups = kj_array(c, root, "testGroups", "file");
  if (groups == NULL) return -1;
  size_t gi, ti;
  json_t *g, *t;
  json_array_foreach(groups, gi, g) {
    char where[64], id[96];
    snprintf(where, sizeof where, "testGroups[%zu]", gi);
    kat_bytes pk;
    if (kj_hex(c, g, "publicKey", where, &pk) < 0) return -1;
    json_t *tests = kj_array(c, g, "tests", where);
    if (tests == NULL) return -1;
    /* The group's key lives in the arena, which each case resets: copy it out. */
    uint8_t pkbuf[FM_MLDSA_87_PUBLIC_KEY_LEN + 16];
    const size_t pk_len = pk.n;
    if (pk_len > sizeof pkbuf) return kat_error(c, "%s: %s: public key too long", c->path, where);
    memcpy(pkbuf, pk.p, pk_len);
    kat_arena_reset(c);
    json_array_foreach(tests, ti, t) {
      kj_test_id(NULL, t, id, sizeof id);
      kat_bytes msg, ctx, sig;
      int valid;
      if (kj_hex(c, t, "msg", id, &msg) < 0 || kj_hex_opt(c, t, "ctx", id, &ctx) < 0 ||
          kj_hex(c, t, "sig", id, &sig) < 0 || expect_result(c, t, id, &valid) < 0)
        return -1;
      const int st = fm_mldsa_verify(param, pkbuf, pk_len, msg.p, msg.n, ctx.p, ctx.n, sig.p,
                                     sig.n);
      if (valid && st != FM_OK) {
        char flags[128];
        kj_flags(t, flags, sizeof flags);
        kat_fail(c, id, "valid signature rejected: %s (%s)", fm_strerror(st), flags);
      } else if (!valid && st == FM_OK) {
        kat_fail(c, id, "invalid signature accepted");
      } else {
        kat_pass(c);
      }
      kat_arena_reset(c);
    }
  }
  return 0;
}

/* sign_one signs one test's input: mu (Internal tests) or (msg, ctx), deterministic or with rnd.
 * Returns the module's status. */
static int sign_one(fm_mldsa_param param, const uint8_t *sk, size_t sk_len, const kat_bytes *msg,
                    int has_msg, const kat_bytes *ctx, const kat_bytes *mu, const kat_bytes *rnd,
                    uint8_t *sig, size_t cap, size_t *sig_len) {
  if (!has_msg) {
    if (mu->n != FM_MLDSA_MU_LEN) return FM_ERR_LENGTH;
    return fm_mldsa_sign_mu(param, sk, sk_len, mu->p, rnd->n ? rnd->p : NULL, sig, cap, sig_len);
  }
  if (rnd->n == 0) {
    return fm_mldsa_sign(param, sk, sk_len, msg->p, msg->n, ctx->p, ctx->n,
                         FM_MLDSA_SIGN_DETERMINISTIC, sig, cap, sig_len);
  }
  /* Hedged with a given rnd: Sign_internal on M' = 0 || |ctx| || ctx || msg (Algorithm 2). */
  if (ctx->n > FM_MLDSA_MAX_CONTEXT_LEN || rnd->n != FM_MLDSA_RND_LEN) return FM_ERR_LENGTH;
  uint8_t mprime[2 + 255 + 4096];
  if (msg->n > 4096) return FM_ERR_LENGTH;
  mprime[0] = 0;
  mprime[1] = (uint8_t)ctx->n;
  if (ctx->n) memcpy(mprime + 2, ctx->p, ctx->n);
  if (msg->n) memcpy(mprime + 2 + ctx->n, msg->p, msg->n);
  return fm_mldsa_sign_internal(param, sk, sk_len, mprime, 2 + ctx->n + msg->n, rnd->p, sig, cap,
                                sig_len);
}

int kat_wp_mldsa_sign(kat_ctx *c, json_t *root, const vec_call *v) {
  const char *alg = v->alg;
  const int seeded = v->arg;
  const fm_mldsa_param param = param_from_alg(alg);
  if (param == 0) return kat_error(c, "%s: unknown ML-DSA algorithm \"%s\"", c->path, alg);
  kat_set_kind(c, "Wycheproof %s sign (%s)", alg, seeded ? "seed" : "expanded key");
  json_t *groups = kj_array(c, root, "testGroups", "file");
  if (groups == NULL) return -1;
  const size_t want_pk = fm_mldsa_public_key_len(param), want_sk = fm_mldsa_private_key_len(param);
  size_t gi, ti;
  json_t *g, *t;
  json_array_foreach(groups, gi, g) {
    char where[64], id[96];
    snprintf(where, sizeof where, "testGroups[%zu]", gi);
    static uint8_t sk[FM_MLDSA_87_PRIVATE_KEY_LEN + 16], pk[FM_MLDSA_87_PUBLIC_KEY_LEN + 16];
    size_t sk_len = 0, pk_len = 0;
    int key_ok = 1; /* 0: the group's key input cannot even be passed (seed of a wrong length) */
    kat_bytes in, gpk;
    /* Groups of keys that cannot be used (a seed of the wrong length) have a null public key. */
    gpk.p = NULL;
    gpk.n = 0;
    if (!json_is_null(json_object_get(g, "publicKey")) &&
        kj_hex_opt(c, g, "publicKey", where, &gpk) < 0)
      return -1;
    pk_len = gpk.n < sizeof pk ? gpk.n : 0;
    if (pk_len != 0) memcpy(pk, gpk.p, pk_len);
    if (seeded) {
      if (kj_hex(c, g, "privateSeed", where, &in) < 0) return -1;
      if (in.n != FM_MLDSA_SEED_LEN) {
        key_ok = 0;
      } else {
        uint8_t pk2[FM_MLDSA_87_PUBLIC_KEY_LEN];
        const int st = fm_mldsa_keygen_from_seed(param, in.p, pk2, want_pk, sk, want_sk);
        if (st != FM_OK) return kat_error(c, "%s: %s: key generation: %s", c->path, where,
                                          fm_strerror(st));
        if (pk_len != want_pk || memcmp(pk2, pk, want_pk) != 0) {
          kat_fail(c, where, "the public key from the seed differs from the file's");
        }
        sk_len = want_sk;
      }
    } else {
      if (kj_hex(c, g, "privateKey", where, &in) < 0) return -1;
      sk_len = in.n < sizeof sk ? in.n : sizeof sk;
      memcpy(sk, in.p, sk_len);
    }
    kat_arena_reset(c);
    json_t *tests = kj_array(c, g, "tests", where);
    if (tests == NULL) return -1;
    json_array_foreach(tests, ti, t) {
      kj_test_id(NULL, t, id, sizeof id);
      kat_bytes msg = {0}, ctx, mu, rnd, want;
      int valid;
      const int has_msg = json_object_get(t, "msg") != NULL;
      if ((has_msg && kj_hex(c, t, "msg", id, &msg) < 0) || kj_hex_opt(c, t, "ctx", id, &ctx) < 0 ||
          kj_hex_opt(c, t, "mu", id, &mu) < 0 || kj_hex_opt(c, t, "rnd", id, &rnd) < 0 ||
          kj_hex(c, t, "sig", id, &want) < 0 || expect_result(c, t, id, &valid) < 0)
        return -1;
      uint8_t sig[FM_MLDSA_MAX_SIGNATURE_LEN];
      size_t sig_len = 1;
      memset(sig, 0xa5, sizeof sig);
      int st = key_ok ? sign_one(param, sk, sk_len, &msg, has_msg, &ctx, &mu, &rnd, sig,
                                 sizeof sig, &sig_len)
                      : FM_ERR_KEY_SIZE;
      if (!valid) {
        if (st == FM_OK) {
          kat_fail(c, id, "invalid input signed");
        } else if (key_ok && (sig_len != 0 || !all_zero(sig, fm_mldsa_signature_len(param)))) {
          kat_fail(c, id, "refused (%s) but the output was not wiped", fm_strerror(st));
        } else {
          kat_pass(c);
        }
      } else if (st != FM_OK) {
        kat_fail(c, id, "signing failed: %s", fm_strerror(st));
      } else if (sig_len != want.n || memcmp(sig, want.p, sig_len) != 0) {
        kat_compare(c, id, "sig", sig, sig_len, want.p, want.n); /* records the failure */
      } else {
        const int vst = has_msg
                            ? fm_mldsa_verify(param, pk, pk_len, msg.p, msg.n, ctx.p, ctx.n, sig,
                                              sig_len)
                            : fm_mldsa_verify_mu(param, pk, pk_len, mu.p, sig, sig_len);
        if (vst != FM_OK) {
          kat_fail(c, id, "the expected signature does not verify: %s", fm_strerror(vst));
        } else {
          kat_pass(c);
        }
      }
      kat_arena_reset(c);
    }
  }
  return 0;
}
