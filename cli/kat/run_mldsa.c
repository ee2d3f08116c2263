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
#include <stdio.h>
#include <string.h>

#include "cli/kat/kat_internal.h"
#include "fipsmod/mldsa.h"

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

int kat_wp_mldsa_verify(kat_ctx *c, json_t *root, const char *alg) {
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

int kat_wp_mldsa_sign(kat_ctx *c, json_t *root, const char *alg, int seeded) {
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
