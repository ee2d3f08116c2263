/* ACVP RSA (draft-celi-acvp-rsa, rsa/sections/):
 *   keyGen FIPS186-4 / FIPS186-5: GDT with B.3.3 / "probable" primes, the module generating the
 *     key (e = 65537), with the FIPS186-5 groups' pMod8 and qMod8; seeded provable and
 *     auxiliary-prime methods and the B.3.3 KAT are not offered;
 *   sigGen FIPS186-4 / FIPS186-5: pkcs1v1.5 and pss (MGF1), one module key per group, n and e
 *     returned at group level;
 *   sigVer FIPS186-4 / FIPS186-5: pkcs1v1.5 and pss, n and e in the group (or the test);
 *   signaturePrimitive 1.0 and 2.0 (RSASP1), decryptionPrimitive Sp800-56Br2 (RSADP with the
 *     server's key) and 1.0 (RSADP with keys the module generates; the client forces
 *     totalFailingTests (NIST's server: totalFailingCases) failures with a modulus below the
 *     ciphertext). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/vectors/internal.h"
#include "cli/vectors/rsa_acvp.h"
#include "fipsmod/rsa.h"

/* hash_of: every SHA-2 and SHA-3 hash the module offers, by its ACVP name; -1 for others
 * (SHA-1, SHAKE). */
static int hash_of(const char *name, fm_hash_alg *alg, size_t *hlen) {
  return acvp_hash_by_name(name, alg) == 0 && fm_hash_digest_len(*alg, hlen) == FM_OK ? 0 : -1;
}

/* rsa_num: a big-endian number field of the test, else of the group (NULL names try aliases).
 * Returns 0, 1 when absent, -1 when malformed. */
int rsa_num(kat_ctx *c, json_t *t, json_t *g, const char *const *names, const char *id,
                 kat_bytes *out) {
  const char *which = NULL;
  json_t *holder = av_get(t, names, &which) ? t : av_get(g, names, &which) ? g : NULL;
  out->p = NULL;
  out->n = 0;
  if (holder == NULL) return 1;
  return kj_num(c, holder, which, id, out) < 0 ? -1 : 0;
}

static void put_component(json_t *o, const char *field, const fm_rsa_key *key,
                          fm_rsa_component which) {
  uint8_t buf[FM_RSA_MAX_BYTES];
  size_t len = 0;
  if (fm_rsa_key_export(key, which, buf, sizeof(buf), &len) == FM_OK) {
    kat_bytes b = kat_num_strip((kat_bytes){buf, len});
    ar_hex(o, field, b.p, b.n);
  } else {
    json_object_set_new(o, field, json_null());
  }
  kat_wipe(buf, sizeof(buf));
}

static int modulo_offered(long long m) { return m == 2048 || m == 3072 || m == 4096; }

/* ---- keyGen ------------------------------------------------------------------------------ */

static int keygen(kat_ctx *c, json_t *set, json_t *groups) {
  size_t gi, ti;
  json_t *g, *t;
  json_array_foreach(json_object_get(set, "testGroups"), gi, g) {
    char where[64], id[96];
    snprintf(where, sizeof(where), "testGroups[%zu]", gi);
    const char *type, *randpq = NULL, *fmt = NULL, *pubexp = NULL;
    long long modulo;
    json_t *tests = kj_array(c, g, "tests", where);
    if (tests == NULL || kj_str(c, g, "testType", where, &type) < 0 ||
        av_str_opt(c, g, "randPQ", where, &randpq) < 0 || av_str_opt(c, g, "keyFormat", where, &fmt) < 0 ||
        av_str_opt(c, g, "pubExp", where, &pubexp) < 0 || av_int(c, g, "modulo", where, &modulo) < 0) {
      return -1;
    }
    /* FIPS186-5 groups may ask for p and q mod 8 (rsa/sections/05-keygen-capabilities.adoc:
     * pMod8, qMod8; 0 for none): FIPS 186-5 A.1.3's a and b, which the module takes. */
    long long pmod8 = 0, qmod8 = 0;
    if (av_int_opt(c, g, "pMod8", where, &pmod8) < 0 || av_int_opt(c, g, "qMod8", where, &qmod8) < 0) {
      return -1;
    }
    if (!(pmod8 == 0 || (pmod8 > 0 && pmod8 < 8 && pmod8 % 2 == 1)) ||
        !(qmod8 == 0 || (qmod8 > 0 && qmod8 < 8 && qmod8 % 2 == 1))) {
      return kat_error(c, "%s: %s: pMod8 %lld / qMod8 %lld: each must be 0, 1, 3, 5 or 7", c->path,
                       where, pmod8, qmod8);
    }
    long n = (long)json_array_size(tests);
    int crt = fmt != NULL && strcmp(fmt, "crt") == 0;
    int fixed = pubexp != NULL && strcmp(pubexp, "fixed") == 0;
    if (randpq == NULL || (strcmp(randpq, "B.3.3") != 0 && strcasecmp(randpq, "probable") != 0)) {
      kat_skip_n(c, n, "keyGen randPQ %s is not offered (the module generates B.3.3 probable "
                 "primes only)", randpq ? randpq : "(none)");
      continue;
    }
    if (strcmp(type, "KAT") == 0) {
      kat_skip_n(c, n, "keyGen B.3.3 KAT (a verdict on given pRand/qRand): the module offers no "
                 "primality-test service");
      continue;
    }
    if (strcmp(type, "GDT") != 0) {
      kat_skip_n(c, n, "keyGen test type %s with randPQ %s is not offered (GDT only)", type, randpq);
      continue;
    }
    if (!modulo_offered(modulo)) {
      kat_skip_n(c, n, "keyGen modulo %lld is not offered (2048, 3072, 4096)", modulo);
      continue;
    }
    if (fixed) {
      kat_bytes fe;
      if (rsa_num(c, g, NULL, NAMES("fixedPubExp", "fixedPubExpValue"), where, &fe) < 0) return -1;
      kat_bytes f4 = {(uint8_t *)"\x01\x00\x01", 3};
      if (fe.n != 0 && kat_num_cmp(fe, f4) != 0) {
        kat_skip_n(c, n, "keyGen fixed public exponent other than 65537 is not offered");
        continue;
      }
    }
    json_t *rg = ar_group(g);
    json_array_foreach(tests, ti, t) {
      kj_test_id(g, t, id, sizeof(id));
      /* A GDT test may carry the exponent agreed on (rsa/sections/06-keygen-test-vectors.adoc:
       * with infoGeneratedByServer false "the client will be provided with SOME of the inputs,
       * like an already agreed upon fixed public exponent"): the module generates e = 65537. */
      kat_bytes te;
      int rte = rsa_num(c, t, NULL, NAMES("e"), id, &te);
      if (rte < 0) {
        json_decref(rg);
        return -1;
      }
      /* In an internalProjection the test also carries NIST's own generated key (n, p, q, d):
       * its e is that key's, an answer, not an exponent agreed on. */
      const int nist_key = json_object_get(t, "n") != NULL || json_object_get(t, "p") != NULL;
      if (rte == 0 && !nist_key && kat_num_cmp(te, (kat_bytes){(uint8_t *)"\x01\x00\x01", 3}) != 0) {
        kat_skip(c, "keyGen with a given public exponent other than 65537 is not offered (the "
                 "module generates e = 65537)");
        ar_progress_tick(c);
        kat_arena_reset(c);
        continue;
      }
      fm_rsa_key *key = NULL;
      int r = fm_rsa_key_generate_mod8((unsigned)modulo, (unsigned)pmod8, (unsigned)qmod8, &key);
      if (r != FM_OK) {
        kat_fail(c, id, "key generation returned %s", fm_strerror(r));
      } else {
        json_t *rt = ar_test(t);
        /* keygen responses (rsa/sections/07-keygen-responses.adoc): p, q, n and e (the
         * server's result projection always carries e, also for a fixed exponent), and d, or
         * dmp1/dmq1/iqmp for the crt key format. */
        put_component(rt, "e", key, FM_RSA_E);
        put_component(rt, "p", key, FM_RSA_P);
        put_component(rt, "q", key, FM_RSA_Q);
        put_component(rt, "n", key, FM_RSA_N);
        if (crt) {
          put_component(rt, "dmp1", key, FM_RSA_DP);
          put_component(rt, "dmq1", key, FM_RSA_DQ);
          put_component(rt, "iqmp", key, FM_RSA_QINV);
        } else {
          put_component(rt, "d", key, FM_RSA_D);
        }
        ar_add_test(c, rg, rt);
      }
      fm_rsa_key_free(key);
      ar_progress_tick(c);
      kat_arena_reset(c);
    }
    ar_add_group(groups, rg);
  }
  return 0;
}

/* ---- sigGen / sigVer: the group's scheme ---------------------------------------------------- */

/* rsa_scheme reads sigType, hashAlg, saltLen, maskFunction and conformance. Returns 0 when
 * offered, 1 when the group was skipped (counted), -1 when malformed. */
int rsa_scheme(kat_ctx *c, json_t *g, const char *where, long n, int sign,
                          scheme *s) {
  const char *type, *hash, *mask = NULL, *conf = NULL;
  if (kj_str(c, g, "sigType", where, &type) < 0 || kj_str(c, g, "hashAlg", where, &hash) < 0 ||
      av_str_opt(c, g, "maskFunction", where, &mask) < 0 ||
      av_str_opt(c, g, "conformance", where, &conf) < 0) {
    return -1;
  }
  s->salt_len = -1;
  if (av_int_opt(c, g, "saltLen", where, &s->salt_len) < 0) return -1;
  s->pss = strcasecmp(type, "pss") == 0;
  if (!s->pss && strcasecmp(type, "pkcs1v1.5") != 0) {
    kat_skip_n(c, n, "signature type %s is not offered (pkcs1v1.5 and pss only)", type);
    return 1;
  }
  if (conf != NULL && conf[0] != '\0') {
    kat_skip_n(c, n, "conformance %s (SP 800-106 randomized hashing) is not offered", conf);
    return 1;
  }
  if (hash_of(hash, &s->alg, &s->hlen) < 0) {
    kat_skip_n(c, n, "hash %s is not offered (SHA-2 and SHA-3 only)", hash);
    return 1;
  }
  if (s->pss && mask != NULL && strcasecmp(mask, "mgf1") != 0) {
    kat_skip_n(c, n, "PSS mask function %s is not offered (MGF1 only)", mask);
    return 1;
  }
  if (s->pss && sign && s->salt_len < 0) {
    kat_error(c, "%s: %s: pss group without saltLen", c->path, where);
    return -1;
  }
  if (s->pss && sign && (unsigned long long)s->salt_len > s->hlen) {
    kat_skip_n(c, n, "PSS salt of %lld bytes, longer than the hash, is refused for signing "
               "(FIPS 186-5 5.4)", s->salt_len);
    return 1;
  }
  return 0;
}

static int siggen(kat_ctx *c, json_t *set, json_t *groups) {
  size_t gi, ti;
  json_t *g, *t;
  json_array_foreach(json_object_get(set, "testGroups"), gi, g) {
    char where[64], id[96];
    snprintf(where, sizeof(where), "testGroups[%zu]", gi);
    json_t *tests = kj_array(c, g, "tests", where);
    long long modulo;
    if (tests == NULL || av_int(c, g, "modulo", where, &modulo) < 0) return -1;
    long n = (long)json_array_size(tests);
    scheme s;
    int sr = rsa_scheme(c, g, where, n, 1, &s);
    if (sr < 0) return -1;
    if (sr > 0) continue;
    if (!modulo_offered(modulo)) {
      kat_skip_n(c, n, "sigGen modulo %lld is not offered (2048, 3072, 4096)", modulo);
      continue;
    }
    /* One key per group, generated by the module; n and e go in the group's response. */
    fm_rsa_key *key = NULL;
    int r = fm_rsa_key_generate((unsigned)modulo, &key);
    if (r != FM_OK) {
      json_array_foreach(tests, ti, t) {
        kj_test_id(g, t, id, sizeof(id));
        kat_fail(c, id, "group key generation returned %s", fm_strerror(r));
      }
      continue;
    }
    json_t *rg = ar_group(g);
    put_component(rg, "n", key, FM_RSA_N);
    put_component(rg, "e", key, FM_RSA_E);
    size_t klen = 0;
    (void)!fm_rsa_key_size(key, &klen); /* fails only on NULL; key is set */
    json_array_foreach(tests, ti, t) {
      kj_test_id(g, t, id, sizeof(id));
      kat_bytes msg;
      if (kj_hex(c, t, "message", id, &msg) < 0) {
        fm_rsa_key_free(key);
        json_decref(rg);
        return -1;
      }
      uint8_t sig[FM_RSA_MAX_BYTES];
      size_t sig_len = 0;
      r = s.pss ? fm_rsa_sign_pss(key, s.alg, msg.p, msg.n, (size_t)s.salt_len, sig, sizeof(sig),
                                  &sig_len)
                : fm_rsa_sign_pkcs1v15(key, s.alg, msg.p, msg.n, sig, sizeof(sig), &sig_len);
      if (r != FM_OK) {
        kat_fail(c, id, "signing returned %s", fm_strerror(r));
      } else {
        json_t *rt = ar_test(t);
        ar_hex(rt, "signature", sig, sig_len);
        ar_add_test(c, rg, rt);
      }
      ar_progress_tick(c);
      kat_arena_reset(c);
    }
    fm_rsa_key_free(key);
    ar_add_group(groups, rg);
  }
  return 0;
}

/* public_key imports (n, e) of the test or group; returns the import status, or 1 (skipped,
 * counted) for a key the module's policy refuses, -100 on a malformed file. */
static int public_key(kat_ctx *c, json_t *t, json_t *g, const char *id, fm_rsa_key **key) {
  kat_bytes n, e;
  int a = rsa_num(c, t, g, NAMES("n"), id, &n), b = rsa_num(c, t, g, NAMES("e"), id, &e);
  if (a < 0 || b < 0) return -100;
  if (a == 1 || b == 1) {
    kat_error(c, "%s: %s: no n and e in the test or its group", c->path, id);
    return -100;
  }
  int r = fm_rsa_key_import_public(n.p, n.n, e.p, e.n, key);
  if (r == FM_ERR_KEY_SIZE) {
    kat_skip(c, "public key of %zu bits is not offered (1024..16384)", kat_num_bits(n));
    return 1;
  }
  if (r == FM_ERR_BAD_KEY) {
    kat_skip(c, "public key refused by the module (e below 65537 or not odd, or n even)");
    return 1;
  }
  return r;
}

static int sigver(kat_ctx *c, json_t *set, json_t *groups) {
  size_t gi, ti;
  json_t *g, *t;
  json_array_foreach(json_object_get(set, "testGroups"), gi, g) {
    char where[64], id[96];
    snprintf(where, sizeof(where), "testGroups[%zu]", gi);
    json_t *tests = kj_array(c, g, "tests", where);
    if (tests == NULL) return -1;
    scheme s;
    int sr = rsa_scheme(c, g, where, (long)json_array_size(tests), 0, &s);
    if (sr < 0) return -1;
    if (sr > 0) continue;
    json_t *rg = ar_group(g);
    json_array_foreach(tests, ti, t) {
      kj_test_id(g, t, id, sizeof(id));
      kat_bytes msg, sig;
      fm_rsa_key *key = NULL;
      if (kj_hex(c, t, "message", id, &msg) < 0 || kj_num(c, t, "signature", id, &sig) < 0) {
        json_decref(rg);
        return -1;
      }
      int r = public_key(c, t, g, id, &key);
      if (r == -100) {
        json_decref(rg);
        return -1;
      }
      if (r == FM_OK) {
        size_t klen = 0;
        (void)!fm_rsa_key_size(key, &klen); /* fails only on NULL; key is set */
        /* A signature is a number below n: written with a dropped leading zero it is padded
         * back to the key's length; a longer one is simply invalid. */
        uint8_t *sb = kat_alloc(c, sig.n > klen ? sig.n : klen);
        size_t sl = sig.n;
        if (sb == NULL) {
          fm_rsa_key_free(key);
          json_decref(rg);
          return -1;
        }
        if (sig.n < klen) {
          memcpy(sb + klen - sig.n, sig.p, sig.n);
          sl = klen;
        } else {
          memcpy(sb, sig.p, sig.n);
        }
        r = s.pss ? fm_rsa_verify_pss(key, s.alg, msg.p, msg.n,
                                      s.salt_len < 0 ? FM_RSA_PSS_SALT_LEN_ANY : (size_t)s.salt_len,
                                      sb, sl)
                  : fm_rsa_verify_pkcs1v15(key, s.alg, msg.p, msg.n, sb, sl);
        if (r == FM_OK || r == FM_ERR_VERIFY) {
          json_t *rt = ar_test(t);
          json_object_set_new(rt, "testPassed", json_boolean(r == FM_OK));
          ar_add_test(c, rg, rt);
        } else {
          kat_fail(c, id, "verification returned %s", fm_strerror(r));
        }
      } else if (r != 1) {
        kat_fail(c, id, "public key import returned %s", fm_strerror(r));
      }
      fm_rsa_key_free(key);
      ar_progress_tick(c);
      kat_arena_reset(c);
    }
    ar_add_group(groups, rg);
  }
  return 0;
}

/* ---- primitives with the server's key ------------------------------------------------------ */

/* private_key builds the test's key for RSASP1 / RSADP: n, e and d (given, or computed by the
 * module from p, q and e for a key in CRT form). fm_rsa_key_import_private_nd and _pq serve
 * exactly these primitives. Returns the import status; 1 when skipped (counted); -100 when
 * malformed. */
static int private_key(kat_ctx *c, json_t *t, json_t *g, const char *id, fm_rsa_key **key) {
  kat_bytes n, e, d, p, q;
  /* e is in each test (the test-case tables); with pubExpMode "fixed" the group's fixedPubExp
   * gives it too (rsa/sections/06-decprim-test-vectors.adoc, group table). */
  int rn = rsa_num(c, t, g, NAMES("n"), id, &n);
  int re = rsa_num(c, t, g, NAMES("e", "fixedPubExp"), id, &e);
  int rd = rsa_num(c, t, g, NAMES("d", "D"), id, &d);
  int rp = rsa_num(c, t, g, NAMES("p", "P"), id, &p);
  int rq = rsa_num(c, t, g, NAMES("q", "Q"), id, &q);
  if (rn < 0 || re < 0 || rd < 0 || rp < 0 || rq < 0) return -100;
  /* A server may write the components a key format does not use as 0 (d of a CRT key). */
  if (rd == 0 && kat_num_bits(d) == 0) rd = 1;
  if (rp == 0 && kat_num_bits(p) == 0) rp = 1;
  if (rq == 0 && kat_num_bits(q) == 0) rq = 1;
  if (rn == 1 || re == 1 || (rd == 1 && (rp == 1 || rq == 1))) {
    kat_error(c, "%s: %s: the key needs n, e and d (or p and q)", c->path, id);
    return -100;
  }
  int r;
  if (rd == 1) {
    /* A CRT-form key: the module derives d from e, p and q; the test's n must be p q. */
    r = fm_rsa_key_import_private_pq(e.p, e.n, p.p, p.n, q.p, q.n, key);
    if (r == FM_ERR_BAD_KEY) {
      kat_skip(c, "CRT-form key without d and without an inverse of e mod lcm(p-1, q-1) (e "
               "even, or gcd(e, lambda) != 1): no private exponent to import");
      return 1;
    }
    uint8_t nb[FM_RSA_MAX_BYTES];
    size_t nl = 0;
    if (r == FM_OK && (fm_rsa_key_export(*key, FM_RSA_N, nb, sizeof(nb), &nl) != FM_OK ||
                       kat_num_cmp(n, (kat_bytes){nb, nl}) != 0)) {
      fm_rsa_key_free(*key);
      *key = NULL;
      r = FM_ERR_BAD_KEY;
    }
  } else {
    r = fm_rsa_key_import_private_nd(n.p, n.n, e.p, e.n, d.p, d.n, key);
  }
  if (r == FM_ERR_KEY_SIZE) {
    kat_skip(c, "private key of %zu bits is not offered (2048..16384)", kat_num_bits(n));
    return 1;
  }
  return r;
}

/* primitive: signaturePrimitive 1.0 / 2.0 and decryptionPrimitive Sp800-56Br2. testPassed is
 * false when the input is out of range (RSASP1: m >= n; RSADP: c <= 1 or c >= n - 1). */
static int primitive(kat_ctx *c, json_t *set, json_t *groups, int decrypt) {
  size_t gi, ti;
  json_t *g, *t;
  const char *const *in_names = decrypt ? CT_NAMES : NAMES("message");
  const char *out_name = decrypt ? "pt" : "signature";
  json_array_foreach(json_object_get(set, "testGroups"), gi, g) {
    char where[64], id[96];
    snprintf(where, sizeof(where), "testGroups[%zu]", gi);
    json_t *tests = kj_array(c, g, "tests", where);
    if (tests == NULL) return -1;
    json_t *rg = ar_group(g);
    json_array_foreach(tests, ti, t) {
      kj_test_id(g, t, id, sizeof(id));
      kat_bytes in;
      fm_rsa_key *key = NULL;
      int ri = rsa_num(c, t, NULL, in_names, id, &in);
      if (ri != 0) {
        if (ri == 1) kat_error(c, "%s: %s: field \"%s\" is missing", c->path, id, in_names[0]);
        json_decref(rg);
        return -1;
      }
      int r = private_key(c, t, g, id, &key);
      if (r == -100) {
        json_decref(rg);
        return -1;
      }
      if (r == FM_OK) {
        size_t klen = 0, out_len = 0;
        (void)!fm_rsa_key_size(key, &klen); /* fails only on NULL; key is set */
        uint8_t out[FM_RSA_MAX_BYTES];
        r = decrypt ? fm_rsa_rsadp(key, in.p, in.n, out, sizeof(out), &out_len)
                    : fm_rsa_rsasp1(key, in.p, in.n, out, sizeof(out), &out_len);
        if (r == FM_OK || r == FM_ERR_OUT_OF_RANGE) {
          json_t *rt = ar_test(t);
          json_object_set_new(rt, "testPassed", json_boolean(r == FM_OK));
          if (r == FM_OK) ar_hex(rt, out_name, out, out_len);
          ar_add_test(c, rg, rt);
        } else {
          kat_fail(c, id, "%s returned %s", decrypt ? "RSADP" : "RSASP1", fm_strerror(r));
        }
        kat_wipe(out, sizeof(out));
      } else if (r != 1) {
        kat_fail(c, id, "key import returned %s", fm_strerror(r));
      }
      fm_rsa_key_free(key);
      ar_progress_tick(c);
      kat_arena_reset(c);
    }
    ar_add_group(groups, rg);
  }
  return 0;
}

/* ---- decryptionPrimitive 1.0: the module's own keys ----------------------------------------- */

/* A forced failure needs a module key with n at most the ciphertext; generated keys have n
 * roughly uniform in products of two uniform halves of [2^2047.5, 2^2048), so a ciphertext of
 * 0.61 * 2^2048 (NIST's sample asks for one) fits about 13% of them: 128 keys (about 9 s at the
 * most, 70 ms each) leave a chance below 2^-25 of not finding one, where 8 left 1 in 3. */
#define DP_POOL 128
typedef struct dp_pool {
  fm_rsa_key *key[DP_POOL];
  uint8_t n[DP_POOL][256];
  int count;
} dp_pool;

static int pool_grow(dp_pool *pl) {
  if (pl->count == DP_POOL) return FM_ERR_UNSUPPORTED;
  fm_rsa_key *k = NULL;
  int r = fm_rsa_key_generate(2048, &k);
  if (r != FM_OK) return r;
  size_t len = 0;
  r = fm_rsa_key_export(k, FM_RSA_N, pl->n[pl->count], 256, &len);
  if (r != FM_OK) {
    fm_rsa_key_free(k);
    return r;
  }
  pl->key[pl->count++] = k;
  return FM_OK;
}

/* fit_chance is the chance that one newly generated key fits the ciphertext c: n > c for a
 * pass, n <= c for a failure. With p and q uniform in [sqrt(2) 2^1023, 2^1024), n / 2^2048 is
 * u v for u, v uniform in [a, 1), a = 1/sqrt(2); with x = c / 2^2048,
 *   P(uv > x) = ((1 - x) + x ln x) / (1 - a)^2                          for a <= x < 1,
 *   P(uv > x) = (x/a - a - x ln(2x) + (1 - a)(1 - x/a)) / (1 - a)^2     for 1/2 <= x < a,
 * 1 below 1/2 and 0 from 1 on. */
static double fit_chance(kat_bytes cbytes, int want_pass) {
  kat_bytes c = kat_num_strip(cbytes);
  double x = 0;
  if (c.n > 256) {
    x = 2;
  } else if (c.n == 256) {
    for (int i = 7; i >= 0; i--) x = (x + c.p[i]) / 256;
  }
  const double a = 0.70710678118654752440, l = (1 - a) * (1 - a);
  double above;
  if (x >= 1) {
    above = 0;
  } else if (x >= a) {
    above = ((1 - x) + x * log(x)) / l;
  } else if (x >= 0.5) {
    above = (x / a - a - x * log(2 * x) + (1 - a) * (1 - x / a)) / l;
  } else {
    above = 1;
  }
  return want_pass ? above : 1 - above;
}

/* pool_find returns a key whose n is above c + 1 (want_pass) or at most c, growing the pool
 * when none fits; -1 when none could be found (*status says why), -2 at once when one key in
 * 4096 or fewer would fit (the whole pool would find one less than 1 time in 32): a damaged set
 * must not cost 128 key generations. */
static int pool_find(dp_pool *pl, kat_bytes cbytes, int want_pass, int *status) {
  if (fit_chance(cbytes, want_pass) < 1.0 / 4096) return -2;
  for (int attempt = 0;; attempt++) {
    for (int i = 0; i < pl->count; i++) {
      kat_bytes n = {pl->n[i], 256};
      int cmp = kat_num_cmp(cbytes, n);
      /* pass needs 1 < c < n - 1: c + 2 <= n; checked loosely as c < n, with RSADP refusing
       * c = n - 1, which then counts as the key not fitting. */
      if (want_pass ? cmp < 0 : cmp >= 0) return i;
    }
    *status = pool_grow(pl);
    if (*status != FM_OK) return -1;
  }
}

/* rsa_total_failing reads how many of a decryptionPrimitive 1.0 group's tests the client must force
 * to fail: "totalFailingTests" in the specification (rsa/sections/06-decprim-test-vectors.adoc),
 * "totalFailingCases" in the sets NIST's server sends; both, when given, must agree. Absent: 0. */
int rsa_total_failing(kat_ctx *c, json_t *g, const char *where, long long *fails) {
  long long spec = -1, server = -1;
  if (av_int_opt(c, g, "totalFailingTests", where, &spec) < 0 ||
      av_int_opt(c, g, "totalFailingCases", where, &server) < 0)
    return -1;
  if (spec >= 0 && server >= 0 && spec != server) {
    return kat_error(c, "%s: %s: totalFailingTests %lld and totalFailingCases %lld disagree",
                     c->path, where, spec, server);
  }
  *fails = spec >= 0 ? spec : server >= 0 ? server : 0;
  return 0;
}

static int decprim_v1(kat_ctx *c, json_t *set, json_t *groups) {
  size_t gi, ti, ri;
  json_t *g, *t, *res;
  dp_pool pl = {0};
  int rc = 0;
  json_array_foreach(json_object_get(set, "testGroups"), gi, g) {
    char where[64], id[96];
    snprintf(where, sizeof(where), "testGroups[%zu]", gi);
    json_t *tests = kj_array(c, g, "tests", where);
    long long fails = 0;
    if (tests == NULL || rsa_total_failing(c, g, where, &fails) < 0) {
      rc = -1;
      break;
    }
    json_t *rg = ar_group(g);
    json_array_foreach(tests, ti, t) {
      kj_test_id(g, t, id, sizeof(id));
      json_t *arr = kj_array(c, t, "resultsArray", id);
      if (arr == NULL) {
        rc = -1;
        break;
      }
      size_t m = json_array_size(arr);
      kat_bytes *cts = kat_alloc(c, (m ? m : 1) * sizeof(kat_bytes));
      int *fail_it = kat_alloc(c, (m ? m : 1) * sizeof(int));
      if (cts == NULL || fail_it == NULL) {
        rc = -1;
        break;
      }
      json_array_foreach(arr, ri, res) {
        if (rsa_num(c, res, NULL, CT_NAMES, id, &cts[ri]) != 0) {
          if (!c->report->error) kat_error(c, "%s: %s: resultsArray[%zu] has no cipherText", c->path, id, ri);
          rc = -1;
          break;
        }
      }
      if (rc < 0) break;
      /* Force the failures on the largest ciphertexts, which a 2048-bit modulus can lie below. */
      for (long long f = 0; f < fails && (size_t)f < m; f++) {
        size_t best = m;
        for (size_t i = 0; i < m; i++) {
          if (!fail_it[i] && (best == m || kat_num_cmp(cts[i], cts[best]) > 0)) best = i;
        }
        fail_it[best] = 1;
      }
      json_t *out_arr = json_array();
      int ok = 1;
      for (size_t i = 0; i < m && ok; i++) {
        int st = FM_OK;
        int k = pool_find(&pl, cts[i], !fail_it[i], &st);
        json_t *o = json_object();
        if (k == -2) {
          kat_fail(c, id, "resultsArray[%zu]: a 2048-bit modulus %s the ciphertext: the chance "
                   "that a key fits is %.2g, too small to look for one", i,
                   fail_it[i] ? "at most" : "above", fit_chance(cts[i], !fail_it[i]));
          ok = 0;
        } else if (k < 0) {
          kat_fail(c, id, "resultsArray[%zu]: no module key with a modulus %s the ciphertext (%s)",
                   i, fail_it[i] ? "at most" : "above", fm_strerror(st));
          ok = 0;
        } else if (fail_it[i]) {
          put_component(o, "e", pl.key[k], FM_RSA_E);
          put_component(o, "n", pl.key[k], FM_RSA_N);
          json_object_set_new(o, "testPassed", json_false());
        } else {
          uint8_t out[256];
          size_t out_len = 0;
          int r = fm_rsa_rsadp(pl.key[k], cts[i].p, cts[i].n, out, sizeof(out), &out_len);
          if (r != FM_OK) {
            kat_fail(c, id, "resultsArray[%zu]: RSADP returned %s", i, fm_strerror(r));
            ok = 0;
          } else {
            put_component(o, "e", pl.key[k], FM_RSA_E);
            put_component(o, "n", pl.key[k], FM_RSA_N);
            ar_hex(o, "plainText", out, out_len);
            json_object_set_new(o, "testPassed", json_true());
          }
          kat_wipe(out, sizeof(out));
        }
        json_array_append_new(out_arr, o);
      }
      if (ok) {
        json_t *rt = ar_test(t);
        json_object_set_new(rt, "resultsArray", out_arr);
        ar_add_test(c, rg, rt);
      } else {
        json_decref(out_arr);
      }
      ar_progress_tick(c);
      kat_arena_reset(c);
    }
    if (rc < 0) {
      json_decref(rg);
      break;
    }
    ar_add_group(groups, rg);
  }
  for (int i = 0; i < pl.count; i++) fm_rsa_key_free(pl.key[i]);
  return rc;
}

int acvp_rsa(kat_ctx *c, json_t *set, json_t *groups, const vec_call *v) {
  const char *mode = v->mode, *revision = v->revision;
  long total = 0;
  size_t gi;
  json_t *g;
  json_array_foreach(json_object_get(set, "testGroups"), gi, g) {
    total += (long)json_array_size(json_object_get(g, "tests"));
  }
  if (strcasecmp(mode, "keyGen") == 0) {
    if (strcmp(revision, "FIPS186-4") != 0 && strcmp(revision, "FIPS186-5") != 0) goto unknown;
    return keygen(c, set, groups);
  }
  if (strcasecmp(mode, "sigGen") == 0) {
    if (strcmp(revision, "FIPS186-4") != 0 && strcmp(revision, "FIPS186-5") != 0) goto unknown;
    return siggen(c, set, groups);
  }
  if (strcasecmp(mode, "sigVer") == 0) {
    if (strcmp(revision, "FIPS186-4") != 0 && strcmp(revision, "FIPS186-5") != 0 &&
        strcmp(revision, "FIPS186-2") != 0) {
      goto unknown;
    }
    return sigver(c, set, groups);
  }
  if (strcasecmp(mode, "signaturePrimitive") == 0) {
    if (strcmp(revision, "1.0") != 0 && strcmp(revision, "2.0") != 0) goto unknown;
    return primitive(c, set, groups, 0);
  }
  if (strcasecmp(mode, "decryptionPrimitive") == 0) {
    if (strcmp(revision, "1.0") == 0) return decprim_v1(c, set, groups);
    if (strcasecmp(revision, "Sp800-56Br2") == 0) return primitive(c, set, groups, 1);
    goto unknown;
  }
unknown:
  kat_skip_n(c, total, "RSA mode %s revision %s is not offered", mode, revision);
  return 0;
}
