/* RSA known answers: CAVP SigGen15/SigGenPSS (the .txt twins with d and the salt: exact
 * signatures; the .rsp files without d: verification of the given signatures), SigVer15/
 * SigVerPSS, the RSASP1 and RSADP component tests, ACVP RSA signaturePrimitive /
 * decryptionPrimitive / sigVer, and Wycheproof PKCS#1 v1.5 sign/verify and PSS verify files.
 *
 * Keys the module refuses by its documented policy (FM_ERR_KEY_SIZE: private keys under 2048
 * bits, any key over 16384 or a public key under 1024; FM_ERR_BAD_KEY for e < 65537 on keys
 * imported with fm_rsa_key_import_public / _private) are skipped with that reason; hashes the
 * module does not have (SHA-1) are skipped too. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/vectors/internal.h"
#include "fipsmod/rsa.h"

/* hash_from_name maps a hash name as CAVP and Wycheproof write it ("SHA256", "SHA-256",
 * "SHA2-256", "SHA-512/224", "SHA3-256", any case) to the module's hash; -1 for others (SHA-1). */
static int hash_from_name(const char *name, fm_hash_alg *alg) {
  static const struct {
    const char *norm;
    fm_hash_alg alg;
  } k[] = {{"SHA224", FM_HASH_SHA224},         {"SHA2224", FM_HASH_SHA224},
           {"SHA256", FM_HASH_SHA256},         {"SHA2256", FM_HASH_SHA256},
           {"SHA384", FM_HASH_SHA384},         {"SHA2384", FM_HASH_SHA384},
           {"SHA512", FM_HASH_SHA512},         {"SHA2512", FM_HASH_SHA512},
           {"SHA512/224", FM_HASH_SHA512_224}, {"SHA2512/224", FM_HASH_SHA512_224},
           {"SHA512/256", FM_HASH_SHA512_256}, {"SHA2512/256", FM_HASH_SHA512_256},
           {"SHA3224", FM_HASH_SHA3_224},      {"SHA3256", FM_HASH_SHA3_256},
           {"SHA3384", FM_HASH_SHA3_384},      {"SHA3512", FM_HASH_SHA3_512}};
  char norm[32];
  size_t o = 0;
  for (const char *p = name; *p && o + 1 < sizeof(norm); p++) {
    if (*p != '-' && *p != '_' && *p != ' ') norm[o++] = *p;
  }
  norm[o] = '\0';
  for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
    if (strcasecmp(norm, k[i].norm) == 0) {
      *alg = k[i].alg;
      return 0;
    }
  }
  return -1;
}

/* ---- Signatures of keys given as (n, e, d) -------------------------------------------------
 * The module keeps such keys for the RSASP1 and RSADP component tests only (its signing services
 * refuse them), and the runner has no encoder of its own: a signature S that the module's
 * signature of the message should equal is checked through the module's public API, in two
 * steps.
 *   1. The module's verification under (n, e) accepts S for the message: sigma = S^e mod n is
 *      the encoded message the module builds (EMSA-PKCS1-v1_5, RFC 8017 9.2; EMSA-PSS, 9.1,
 *      with a salt of the given length). For PKCS#1 v1.5, whose encoding is deterministic, this
 *      holds exactly when the module's signature is S.
 *   2. RSASP1 with d maps that encoded message back to S. The encoded message comes from the
 *      module too: RSASP1 of the key with its two exponents exchanged, (n, d, e), which is an
 *      (n, e, d) key itself, gives S^e mod n. */

/* nd_key_signs sets *same to 1 when the two steps above hold for |sig| (k bytes) and the key
 * |key| imported with fm_rsa_key_import_private_nd, 0 when the verification rejects |sig|.
 * Returns FM_OK or the module status that stopped the check (FM_ERR_BAD_KEY: the public key
 * (n, e) is refused, e.g. for e < 65537). */
static int nd_key_signs(kat_ctx *c, const fm_rsa_key *key, int pss, fm_hash_alg alg,
                        kat_bytes msg, size_t salt_len, kat_bytes sig, size_t k, int *same) {
  uint8_t *n = kat_alloc(c, k), *e = kat_alloc(c, k), *d = kat_alloc(c, k);
  uint8_t *em = kat_alloc(c, k), *back = kat_alloc(c, k);
  size_t n_len = 0, e_len = 0, d_len = 0, em_len = 0, back_len = 0;
  fm_rsa_key *pub = NULL, *swapped = NULL;
  *same = 0;
  if (n == NULL || e == NULL || d == NULL || em == NULL || back == NULL) return FM_ERR_NO_MEMORY;
  int r = fm_rsa_key_export(key, FM_RSA_N, n, k, &n_len);
  if (r == FM_OK) r = fm_rsa_key_export(key, FM_RSA_E, e, k, &e_len);
  if (r == FM_OK) r = fm_rsa_key_export(key, FM_RSA_D, d, k, &d_len);
  if (r == FM_OK) r = fm_rsa_key_import_public(n, n_len, e, e_len, &pub);
  if (r == FM_OK) {
    r = pss ? fm_rsa_verify_pss(pub, alg, msg.p, msg.n, salt_len, sig.p, sig.n)
            : fm_rsa_verify_pkcs1v15(pub, alg, msg.p, msg.n, sig.p, sig.n);
    if (r == FM_ERR_VERIFY) {
      r = FM_OK; /* *same stays 0 */
    } else if (r == FM_OK) {
      r = fm_rsa_key_import_private_nd(n, n_len, d, d_len, e, e_len, &swapped);
      if (r == FM_OK) r = fm_rsa_rsasp1(swapped, sig.p, sig.n, em, k, &em_len);
      if (r == FM_OK) r = fm_rsa_rsasp1(key, em, em_len, back, k, &back_len);
      *same = r == FM_OK && back_len == sig.n && memcmp(back, sig.p, sig.n) == 0;
    }
  }
  fm_rsa_key_free(pub);
  fm_rsa_key_free(swapped);
  kat_wipe(d, k);
  return r;
}

/* kat_sign_is sets *same to 1 when the module's signature of |msg| with |key| is |want| (k
 * bytes): made by the module's own PKCS#1 v1.5 or PSS service (with the given |salt|) when the
 * key has its factors, checked by nd_key_signs when it came as (n, e, d) (exporting p then
 * fails). Returns FM_OK or the module status that stopped it. */
static int kat_sign_is(kat_ctx *c, const fm_rsa_key *key, int pss, fm_hash_alg alg, kat_bytes msg,
                       kat_bytes salt, kat_bytes want, size_t k, int *same) {
  uint8_t *out = kat_alloc(c, k);
  size_t out_len = 0;
  *same = 0;
  if (out == NULL) return FM_ERR_NO_MEMORY;
  if (fm_rsa_key_export(key, FM_RSA_P, out, k, &out_len) != FM_OK) {
    return nd_key_signs(c, key, pss, alg, msg, salt.n, want, k, same);
  }
  kat_wipe(out, k);
  int r = pss ? fm_rsa_sign_pss_with_salt(key, alg, msg.p, msg.n, salt.n ? salt.p : NULL, salt.n,
                                          out, k, &out_len)
              : fm_rsa_sign_pkcs1v15(key, alg, msg.p, msg.n, out, k, &out_len);
  *same = r == FM_OK && out_len == want.n && memcmp(out, want.p, want.n) == 0;
  return r;
}

/* left_pad returns |b| as a |len|-byte big-endian number (b unchanged when longer). */
static kat_bytes left_pad(kat_ctx *c, kat_bytes b, size_t len) {
  kat_bytes s = kat_num_strip(b);
  if (s.n > len) return b;
  kat_bytes out = {kat_alloc(c, len), len};
  if (out.p == NULL) return b;
  memcpy(out.p + len - s.n, s.p, s.n);
  if (s.n == 1 && s.p[0] == 0) out.p[len - 1] = 0;
  return out;
}

/* policy_skip: skips a case whose key the module refuses by its documented policy and returns
 * 1; returns 0 for any other status. */
static int policy_skip(kat_ctx *c, int rc, size_t bits, const char *what) {
  if (rc == FM_ERR_KEY_SIZE) {
    kat_skip(c, "%s key of %zu bits refused by module policy (%s)", what, bits,
             strcmp(what, "private") == 0 ? "private keys 2048..16384 bits"
                                           : "public keys 1024..16384 bits");
    return 1;
  }
  return 0;
}

static int import_public(kat_bytes n, kat_bytes e, fm_rsa_key **key) {
  return fm_rsa_key_import_public(n.p, n.n, e.p, e.n, key);
}

/* e_below_65537 returns 1 when the big-endian |e| is smaller than 65537. */
static int e_below_65537(kat_bytes e) {
  e = kat_num_strip(e);
  if (e.n > 3) return 0;
  unsigned long v = 0;
  for (size_t i = 0; i < e.n; i++) v = v << 8 | e.p[i];
  return v < 65537;
}

/* ---- CAVP -------------------------------------------------------------------------------- */

static int cavp_rsa_siggen(kat_ctx *c, const rsp_file *f, int pss) {
  static const char *const start[] = {"SHAAlg", NULL};
  static const char *const sticky[] = {"n", "e", "d", NULL};
  rsp_walk w;
  rsp_case cs;
  int rc;
  int have_d = rsp_has_key(f, "d");
  rsp_walk_init(&w, f, start, sticky);
  kat_set_kind(c, "CAVP RSA SigGen %s%s", pss ? "PSS" : "PKCS#1 v1.5",
               have_d ? "" : " (no d in file: verification of the given signatures)");
  while ((rc = rsp_next_case(c, &w, &cs)) == 1) {
    fm_hash_alg alg;
    const char *sha = rsp_get(&w, &cs, "SHAAlg");
    kat_bytes n, e, d = {0}, msg, sig, salt = {0};
    if (rsp_num(c, &w, &cs, "n", &n) < 0 || rsp_num(c, &w, &cs, "e", &e) < 0 ||
        rsp_num(c, &w, &cs, "Msg", &msg) < 0 || rsp_num(c, &w, &cs, "S", &sig) < 0) {
      return -1;
    }
    if (have_d && rsp_num(c, &w, &cs, "d", &d) < 0) return -1;
    if (pss && have_d && rsp_hex_opt(c, &w, &cs, "SaltVal", &salt) < 0) return -1;
    if (hash_from_name(sha, &alg) < 0) {
      kat_skip(c, "hash %s is not offered (SHA-256/384/512 only)", sha);
      kat_arena_reset(c);
      continue;
    }
    /* A salt written as "00" means an empty salt in NIST files. */
    if (pss && salt.n == 1 && salt.p[0] == 0) salt.n = 0;
    size_t bits = kat_num_bits(n);
    fm_rsa_key *key = NULL;
    int r = have_d ? fm_rsa_key_import_private_nd(n.p, n.n, e.p, e.n, d.p, d.n, &key)
                   : import_public(n, e, &key);
    if (r != FM_OK) {
      if (!policy_skip(c, r, bits, have_d ? "private" : "public")) {
        kat_fail(c, cs.id, "key import returned %s", fm_strerror(r));
      }
      kat_arena_reset(c);
      continue;
    }
    size_t klen = 0;
    (void)!fm_rsa_key_size(key, &klen); /* fails only on NULL; key is set */
    kat_bytes want = left_pad(c, sig, klen);
    if (have_d) {
      int same = 0;
      r = kat_sign_is(c, key, pss, alg, msg, salt, want, klen, &same);
      if (r == FM_ERR_BAD_KEY && e_below_65537(e)) {
        kat_skip(c, "(n, e, d) key with e < 65537: the module verifies no signature under it, so "
                 "its signature cannot be checked");
      } else if (r != FM_OK) {
        kat_fail(c, cs.id, "signing check returned %s", fm_strerror(r));
      } else if (!same) {
        kat_fail(c, cs.id, "S is not the module's signature (its verification%s rejects it)",
                 pss ? " with the file's salt length" : "");
      } else {
        kat_pass(c);
      }
    } else {
      r = pss ? fm_rsa_verify_pss(key, alg, msg.p, msg.n, FM_RSA_PSS_SALT_LEN_ANY, want.p, want.n)
              : fm_rsa_verify_pkcs1v15(key, alg, msg.p, msg.n, want.p, want.n);
      if (r != FM_OK) {
        kat_fail(c, cs.id, "the file's signature did not verify: %s", fm_strerror(r));
      } else {
        kat_pass(c);
      }
    }
    fm_rsa_key_free(key);
    kat_arena_reset(c);
  }
  return rc;
}

static int cavp_rsa_sigver(kat_ctx *c, const rsp_file *f, int pss) {
  static const char *const start[] = {"SHAAlg", NULL};
  /* [mod = ...] sections give n, and in SigVerPSS_186-3.rsp also p and q, before the first
   * case (SHAAlg, e, d, Msg, S, SaltVal, Result). */
  static const char *const sticky[] = {"n", "p", "q", NULL};
  rsp_walk w;
  rsp_case cs;
  int rc;
  rsp_walk_init(&w, f, start, sticky);
  kat_set_kind(c, "CAVP RSA SigVer %s", pss ? "PSS" : "PKCS#1 v1.5");
  while ((rc = rsp_next_case(c, &w, &cs)) == 1) {
    fm_hash_alg alg;
    const char *sha = rsp_get(&w, &cs, "SHAAlg");
    const char *res = rsp_get(&w, &cs, "Result");
    kat_bytes n, e, msg, sig, salt = {0};
    if (rsp_num(c, &w, &cs, "n", &n) < 0 || rsp_num(c, &w, &cs, "e", &e) < 0 ||
        rsp_num(c, &w, &cs, "Msg", &msg) < 0 || rsp_num(c, &w, &cs, "S", &sig) < 0) {
      return -1;
    }
    if (res == NULL || (res[0] != 'P' && res[0] != 'F')) {
      return kat_error(c, "%s:%d: case %s has no Result = P/F", c->path, cs.line, cs.id);
    }
    if (pss && rsp_hex_opt(c, &w, &cs, "SaltVal", &salt) < 0) return -1;
    if (hash_from_name(sha, &alg) < 0) {
      kat_skip(c, "hash %s is not offered (SHA-256/384/512 only)", sha);
      kat_arena_reset(c);
      continue;
    }
    int expect_ok = res[0] == 'P';
    size_t bits = kat_num_bits(n);
    fm_rsa_key *key = NULL;
    int r = import_public(n, e, &key);
    if (r != FM_OK) {
      if (!policy_skip(c, r, bits, "public")) {
        kat_fail(c, cs.id, "public key import returned %s", fm_strerror(r));
      }
      kat_arena_reset(c);
      continue;
    }
    size_t klen = 0;
    (void)!fm_rsa_key_size(key, &klen); /* fails only on NULL; key is set */
    kat_bytes s = left_pad(c, sig, klen);
    /* SigVerPSS gives the salt of each case; an empty or "00" salt means length 0. */
    size_t slen = (salt.n == 1 && salt.p[0] == 0) ? 0 : salt.n;
    r = pss ? fm_rsa_verify_pss(key, alg, msg.p, msg.n, rsp_get(&w, &cs, "SaltVal") ? slen
                                                                                 : FM_RSA_PSS_SALT_LEN_ANY,
                                s.p, s.n)
            : fm_rsa_verify_pkcs1v15(key, alg, msg.p, msg.n, s.p, s.n);
    if (expect_ok && r != FM_OK) {
      kat_fail(c, cs.id, "valid signature rejected: %s", fm_strerror(r));
    } else if (!expect_ok && r != FM_ERR_VERIFY) {
      kat_fail(c, cs.id, "invalid signature: expected FM_ERR_VERIFY, got %s", fm_strerror(r));
    } else {
      kat_pass(c);
    }
    fm_rsa_key_free(key);
    kat_arena_reset(c);
  }
  return rc;
}

/* kat_cavp_rsa_sig: SigGen files (no Result) and SigVer files, PSS when a case has a SaltVal or a
 * comment names PSS. */
int kat_cavp_rsa_sig(kat_ctx *c, const rsp_file *f) {
  int pss = rsp_has_key(f, "SaltVal") || rsp_comment_has(f, "PSS");
  return rsp_has_key(f, "Result") ? cavp_rsa_sigver(c, f, pss) : cavp_rsa_siggen(c, f, pss);
}

/* kat_cavp_rsa_keygen: the FIPS 186 KeyGen files (B.3.3 primality verdicts on prandom/qrandom,
 * B.3.2/B.3.4-B.3.6 keys from seeds or auxiliary values). The module generates keys only from
 * its own DRBG (fm_rsa_key_generate) and offers no primality test, so every case (one per `e`
 * line) is skipped with that reason: the file is recognised, not malformed. */
int kat_cavp_rsa_keygen(kat_ctx *c, const rsp_file *f) {
  long n = 0;
  for (size_t i = 0; i < f->n; i++) {
    if (f->lines[i].type == RSP_KV && strcasecmp(f->lines[i].key, "e") == 0) n++;
  }
  kat_set_kind(c, "CAVP RSA KeyGen");
  kat_skip_n(c, n, "RSA key generation from given random values or seeds (and B.3.3 primality "
             "verdicts) is not offered: the module generates keys from its own DRBG only");
  return 0;
}

/* kat_cavp_rsa_x931: the ANSI X9.31 SigGen/SigVer files (SigGen931_186-2 and kin, named in
 * their header comment): the module offers no X9.31 signatures, so each case (one per SHAAlg
 * line) is skipped with that reason. */
int kat_cavp_rsa_x931(kat_ctx *c, const rsp_file *f) {
  long n = 0;
  for (size_t i = 0; i < f->n; i++) {
    if (f->lines[i].type == RSP_KV && strcasecmp(f->lines[i].key, "SHAAlg") == 0) n++;
  }
  kat_set_kind(c, "CAVP RSA ANSI X9.31");
  kat_skip_n(c, n, "ANSI X9.31 signatures are not offered by the module");
  return 0;
}

/* import_full imports n, e, d, p, q (and dp, dq, qinv when all present and non-empty) as a CRT
 * key; with no p and q it imports (n, e, d) for component tests. */
static int import_private(kat_bytes n, kat_bytes e, kat_bytes d, kat_bytes p, kat_bytes q,
                          kat_bytes dp, kat_bytes dq, kat_bytes qi, fm_rsa_key **key) {
  if (p.n == 0 || q.n == 0) return fm_rsa_key_import_private_nd(n.p, n.n, e.p, e.n, d.p, d.n, key);
  int crt = dp.n && dq.n && qi.n;
  fm_rsa_private_components pc = {
      .n = n.p, .n_len = n.n, .e = e.p, .e_len = e.n, .d = d.p, .d_len = d.n,
      .p = p.p, .p_len = p.n, .q = q.p, .q_len = q.n,
      .dp = crt ? dp.p : NULL, .dp_len = crt ? dp.n : 0,
      .dq = crt ? dq.p : NULL, .dq_len = crt ? dq.n : 0,
      .qinv = crt ? qi.p : NULL, .qinv_len = crt ? qi.n : 0,
  };
  return fm_rsa_key_import_private(&pc, key);
}

int kat_cavp_rsa_sp1(kat_ctx *c, const rsp_file *f) {
  static const char *const start[] = {"COUNT", NULL};
  rsp_walk w;
  rsp_case cs;
  int rc;
  rsp_walk_init(&w, f, start, NULL);
  kat_set_kind(c, "CAVP RSASP1 component");
  while ((rc = rsp_next_case(c, &w, &cs)) == 1) {
    kat_bytes n, e, d, p = {0}, q = {0}, em, s, none = {0};
    if (rsp_num(c, &w, &cs, "n", &n) < 0 || rsp_num(c, &w, &cs, "e", &e) < 0 ||
        rsp_num(c, &w, &cs, "d", &d) < 0 || rsp_num(c, &w, &cs, "EM", &em) < 0) {
      return -1;
    }
    if (rsp_get(&w, &cs, "p") && rsp_num(c, &w, &cs, "p", &p) < 0) return -1;
    if (rsp_get(&w, &cs, "q") && rsp_num(c, &w, &cs, "q", &q) < 0) return -1;
    /* A case whose EM is not below n reads "S = FAIL (EM larger than modulus value)". */
    const char *sv = rsp_get(&w, &cs, "S");
    const char *res = rsp_get(&w, &cs, "Result");
    int expect_ok = res == NULL || res[0] == 'P';
    if (sv != NULL && strncasecmp(sv, "FAIL", 4) == 0) {
      expect_ok = 0;
      sv = NULL;
    }
    if (sv == NULL && expect_ok) {
      return kat_error(c, "%s:%d: case %s has neither S nor Result = Fail", c->path, cs.line, cs.id);
    }
    if (sv != NULL && rsp_num(c, &w, &cs, "S", &s) < 0) return -1;
    fm_rsa_key *key = NULL;
    int r = import_private(n, e, d, p, q, none, none, none, &key);
    if (r != FM_OK) {
      if (!policy_skip(c, r, kat_num_bits(n), "private")) {
        kat_fail(c, cs.id, "key import returned %s", fm_strerror(r));
      }
      kat_arena_reset(c);
      continue;
    }
    size_t klen = 0, out_len = 0;
    (void)!fm_rsa_key_size(key, &klen); /* fails only on NULL; key is set */
    uint8_t *out = kat_alloc(c, klen);
    if (out == NULL) {
      fm_rsa_key_free(key);
      return -1;
    }
    r = fm_rsa_rsasp1(key, em.p, em.n, out, klen, &out_len);
    if (!expect_ok) {
      if (r == FM_ERR_OUT_OF_RANGE) {
        kat_pass(c);
      } else {
        kat_fail(c, cs.id, "expected FM_ERR_OUT_OF_RANGE, got %s", fm_strerror(r));
      }
    } else if (r != FM_OK) {
      kat_fail(c, cs.id, "RSASP1 returned %s", fm_strerror(r));
    } else {
      kat_bytes want = left_pad(c, s, klen);
      kat_compare(c, cs.id, "S", out, out_len, want.p, want.n);
    }
    fm_rsa_key_free(key);
    kat_arena_reset(c);
  }
  return rc;
}

int kat_cavp_rsa_dp(kat_ctx *c, const rsp_file *f) {
  static const char *const start[] = {"COUNT", NULL};
  rsp_walk w;
  rsp_case cs;
  int rc;
  rsp_walk_init(&w, f, start, NULL);
  kat_set_kind(c, "CAVP RSADP component (SP 800-56B)");
  while ((rc = rsp_next_case(c, &w, &cs)) == 1) {
    kat_bytes n, e, d = {0}, ct, k = {0}, p = {0}, q = {0}, none = {0};
    const char *res = rsp_get(&w, &cs, "Result");
    if (rsp_num(c, &w, &cs, "n", &n) < 0 || rsp_num(c, &w, &cs, "e", &e) < 0 ||
        rsp_num(c, &w, &cs, "c", &ct) < 0) {
      return -1;
    }
    if (res == NULL || (strncasecmp(res, "Pass", 4) != 0 && strncasecmp(res, "Fail", 4) != 0)) {
      return kat_error(c, "%s:%d: case %s has no Result = Pass/Fail", c->path, cs.line, cs.id);
    }
    int expect_ok = strncasecmp(res, "Pass", 4) == 0;
    if (rsp_get(&w, &cs, "d") == NULL) {
      /* The .rsp response file has no private key; its .txt twin does. */
      kat_skip(c, "no private exponent d in this file (the .txt twin has it)");
      kat_arena_reset(c);
      continue;
    }
    if (expect_ok && rsp_num(c, &w, &cs, "k", &k) < 0) return -1;
    if (rsp_num(c, &w, &cs, "d", &d) < 0) return -1;
    if (rsp_get(&w, &cs, "p") && rsp_num(c, &w, &cs, "p", &p) < 0) return -1;
    if (rsp_get(&w, &cs, "q") && rsp_num(c, &w, &cs, "q", &q) < 0) return -1;
    fm_rsa_key *key = NULL;
    int r = import_private(n, e, d, p, q, none, none, none, &key);
    if (r != FM_OK) {
      if (!policy_skip(c, r, kat_num_bits(n), "private")) {
        kat_fail(c, cs.id, "key import returned %s", fm_strerror(r));
      }
      kat_arena_reset(c);
      continue;
    }
    size_t klen = 0, out_len = 0;
    (void)!fm_rsa_key_size(key, &klen); /* fails only on NULL; key is set */
    uint8_t *out = kat_alloc(c, klen);
    if (out == NULL) {
      fm_rsa_key_free(key);
      return -1;
    }
    r = fm_rsa_rsadp(key, ct.p, ct.n, out, klen, &out_len);
    if (!expect_ok) {
      if (r == FM_ERR_OUT_OF_RANGE) {
        kat_pass(c);
      } else {
        kat_fail(c, cs.id, "ciphertext out of range: expected FM_ERR_OUT_OF_RANGE, got %s",
                 fm_strerror(r));
      }
    } else if (r != FM_OK) {
      kat_fail(c, cs.id, "RSADP returned %s", fm_strerror(r));
    } else {
      kat_bytes want = left_pad(c, k, klen);
      kat_compare(c, cs.id, "k", out, out_len, want.p, want.n);
    }
    fm_rsa_key_free(key);
    kat_arena_reset(c);
  }
  return rc;
}

/* ---- ACVP -------------------------------------------------------------------------------- */

/* ---- Wycheproof -------------------------------------------------------------------------- */

/* b64url_decode decodes unpadded base64url (JWK) into the arena. */
static int b64url_decode(kat_ctx *c, const char *s, kat_bytes *out) {
  size_t len = strlen(s);
  uint8_t *p = kat_alloc(c, len * 3 / 4 + 3);
  if (p == NULL) return -1;
  uint32_t acc = 0;
  int bits = 0;
  size_t o = 0;
  for (size_t i = 0; i < len; i++) {
    int ch = (unsigned char)s[i], v;
    if (ch >= 'A' && ch <= 'Z') v = ch - 'A';
    else if (ch >= 'a' && ch <= 'z') v = ch - 'a' + 26;
    else if (ch >= '0' && ch <= '9') v = ch - '0' + 52;
    else if (ch == '-' || ch == '+') v = 62;
    else if (ch == '_' || ch == '/') v = 63;
    else if (ch == '=') break;
    else return -1;
    acc = acc << 6 | (uint32_t)v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      p[o++] = (uint8_t)(acc >> bits);
    }
  }
  out->p = p;
  out->n = o;
  return 0;
}

static int jwk_field(kat_ctx *c, json_t *jwk, const char *field, const char *where, kat_bytes *out) {
  const char *s;
  if (kj_str(c, jwk, field, where, &s) < 0) return -1;
  if (b64url_decode(c, s, out) < 0) {
    return kat_error(c, "%s: %s: JWK field \"%s\" is not base64url", c->path, where, field);
  }
  return 0;
}

/* wp_group_key imports the group's key: for signing the private key (from the JWK with CRT
 * values when present, else n, e, d from "privateKey"), for verifying the public key. Returns
 * FM_OK or the import status; -100 on a malformed file. */
static int wp_group_key(kat_ctx *c, json_t *g, int sign, const char *where, fm_rsa_key **key,
                        size_t *bits, int *small_e) {
  kat_bytes n, e;
  if (sign) {
    json_t *pk = json_object_get(g, "privateKey");
    json_t *jwk = json_object_get(g, "privateKeyJwk");
    kat_bytes d, p, q, dp, dq, qi;
    if (kj_num(c, pk, "modulus", where, &n) < 0 || kj_num(c, pk, "publicExponent", where, &e) < 0 ||
        kj_num(c, pk, "privateExponent", where, &d) < 0) {
      return -100;
    }
    *bits = kat_num_bits(n);
    *small_e = e_below_65537(e);
    if (json_is_object(jwk)) {
      if (jwk_field(c, jwk, "p", where, &p) < 0 || jwk_field(c, jwk, "q", where, &q) < 0 ||
          jwk_field(c, jwk, "dp", where, &dp) < 0 || jwk_field(c, jwk, "dq", where, &dq) < 0 ||
          jwk_field(c, jwk, "qi", where, &qi) < 0) {
        return -100;
      }
      int r = import_private(n, e, d, p, q, dp, dq, qi, key);
      /* Wycheproof's d is e^-1 mod phi(n), not mod lambda(n): FIPS 186-5 A.1.1 (d < lambda(n))
       * refuses such a key for signing, so the case runs as an RSASP1 component test on the
       * key's (n, e, d) form (kat_sign), which still checks the private-key operation. */
      if (r == FM_ERR_BAD_KEY && !*small_e) {
        r = fm_rsa_key_import_private_nd(n.p, n.n, e.p, e.n, d.p, d.n, key);
      }
      return r;
    }
    return fm_rsa_key_import_private_nd(n.p, n.n, e.p, e.n, d.p, d.n, key);
  }
  json_t *pub = json_object_get(g, "publicKey");
  json_t *holder = json_is_object(pub) ? pub : g;
  const char *nf = json_is_object(pub) ? "modulus" : "n", *ef = json_is_object(pub) ? "publicExponent" : "e";
  if (kj_num(c, holder, nf, where, &n) < 0 || kj_num(c, holder, ef, where, &e) < 0) return -100;
  *bits = kat_num_bits(n);
  *small_e = e_below_65537(e);
  return import_public(n, e, key);
}

/* wp_key_refused accounts for the tests of a group whose key did not import: skipped when the
 * refusal is the module's documented policy (a size outside its range, or e < 65537: FIPS
 * 186-5 5.4), failed otherwise. */
static void wp_key_refused(kat_ctx *c, json_t *tests, int rc, size_t bits, int small_e, int sign) {
  long count = (long)json_array_size(tests);
  if (rc == FM_ERR_KEY_SIZE) {
    kat_skip_n(c, count, "%s key of %zu bits refused by module policy", sign ? "private" : "public",
               bits);
  } else if (rc == FM_ERR_BAD_KEY && small_e) {
    kat_skip_n(c, count, "key with e < 65537 refused by module policy (FIPS 186-5 5.4)");
  } else {
    size_t ti;
    json_t *t;
    char id[96];
    json_array_foreach(tests, ti, t) {
      kj_test_id(NULL, t, id, sizeof(id));
      kat_fail(c, id, "key import returned %s", fm_strerror(rc));
    }
  }
}

int kat_wp_rsa_sig(kat_ctx *c, json_t *root, const vec_call *v) {
  const int kind = v->arg;
  int sign = kind == WP_RSA_PKCS1_SIGN, pss = kind == WP_RSA_PSS_VERIFY;
  kat_set_kind(c, "Wycheproof RSA %s %s", pss ? "PSS" : "PKCS#1 v1.5", sign ? "sign" : "verify");
  json_t *groups = kj_array(c, root, "testGroups", "file");
  if (groups == NULL) return -1;
  size_t gi, ti;
  json_t *g, *t;
  json_array_foreach(groups, gi, g) {
    char where[64], id[96];
    snprintf(where, sizeof(where), "testGroups[%zu]", gi);
    json_t *tests = kj_array(c, g, "tests", where);
    if (tests == NULL) return -1;
    long count = (long)json_array_size(tests);
    const char *sha;
    fm_hash_alg alg;
    if (kj_str(c, g, "sha", where, &sha) < 0) return -1;
    if (hash_from_name(sha, &alg) < 0) {
      kat_skip_n(c, count, "hash %s is not offered (SHA-2 and SHA-3 only)", sha);
      continue;
    }
    long slen = 0;
    if (pss) {
      const char *mgf, *mgf_sha;
      fm_hash_alg malg;
      if (kj_str(c, g, "mgf", where, &mgf) < 0 || kj_str(c, g, "mgfSha", where, &mgf_sha) < 0 ||
          kj_int(c, g, "sLen", where, &slen) < 0) {
        return -1;
      }
      if (strcasecmp(mgf, "MGF1") != 0 || hash_from_name(mgf_sha, &malg) < 0 || malg != alg) {
        kat_skip_n(c, count, "mask %s with %s under %s is not offered (MGF1 with the same hash)",
                   mgf, mgf_sha, sha);
        continue;
      }
    }
    fm_rsa_key *key = NULL;
    size_t bits = 0;
    int small_e = 0;
    int r = wp_group_key(c, g, sign, where, &key, &bits, &small_e);
    if (r == -100) return -1;
    if (r != FM_OK) {
      wp_key_refused(c, tests, r, bits, small_e, sign);
      kat_arena_reset(c);
      continue;
    }
    size_t klen = 0;
    (void)!fm_rsa_key_size(key, &klen); /* fails only on NULL; key is set */
    json_array_foreach(tests, ti, t) {
      kj_test_id(NULL, t, id, sizeof(id));
      kat_bytes msg, sig;
      const char *result;
      if (kj_hex(c, t, "msg", id, &msg) < 0 || kj_hex(c, t, "sig", id, &sig) < 0 ||
          kj_str(c, t, "result", id, &result) < 0) {
        fm_rsa_key_free(key);
        return -1;
      }
      int valid = strcmp(result, "valid") == 0, acceptable = strcmp(result, "acceptable") == 0;
      if (!valid && !acceptable && strcmp(result, "invalid") != 0) {
        fm_rsa_key_free(key);
        return kat_error(c, "%s: %s: unknown result \"%s\"", c->path, id, result);
      }
      if (sign) {
        int same = 0;
        r = kat_sign_is(c, key, 0, alg, msg, (kat_bytes){0}, sig, klen, &same);
        if (r != FM_OK) {
          if (valid) {
            kat_fail(c, id, "sign returned %s", fm_strerror(r));
          } else {
            kat_pass(c);
          }
        } else if (valid || acceptable) {
          if (same) {
            kat_pass(c);
          } else {
            kat_fail(c, id, "sig is not the module's signature");
          }
        } else if (same) {
          kat_fail(c, id, "produced the signature marked invalid");
        } else {
          kat_pass(c);
        }
      } else {
        r = pss ? fm_rsa_verify_pss(key, alg, msg.p, msg.n, (size_t)slen, sig.p, sig.n)
                : fm_rsa_verify_pkcs1v15(key, alg, msg.p, msg.n, sig.p, sig.n);
        if (valid && r != FM_OK) {
          kat_fail(c, id, "valid signature rejected: %s", fm_strerror(r));
        } else if (!valid && !acceptable && r != FM_ERR_VERIFY) {
          kat_fail(c, id, "invalid signature: expected FM_ERR_VERIFY, got %s", fm_strerror(r));
        } else if (acceptable && r != FM_OK && r != FM_ERR_VERIFY) {
          kat_fail(c, id, "acceptable signature: unexpected status %s", fm_strerror(r));
        } else {
          kat_pass(c);
        }
      }
      kat_arena_reset(c);
    }
    fm_rsa_key_free(key);
    kat_arena_reset(c);
  }
  return 0;
}
