/* The indicator probe: the service indicator agrees with the security policy for every parameter
 * the policy names. policy/approval.tsv lists each rule (service, parameter, approved values, the
 * function of module/approval.c that holds it); for each row this program calls the service
 * with the parameter on both sides of the rule's bound (and at the other values it can make: key
 * sizes 1024 to 6144 bits, every tag length, PSS salts up to the largest a 2048-bit key holds),
 * the other parameters at approved values, and checks that the call succeeds and that the
 * indicator says approved exactly when the rule does. A row it has no probe for, or cannot probe
 * on both sides, fails. The policy ctest (policy/check_policy.py) runs it, and so does ctest's
 * unit label.
 *
 *   test_approval_rules [approval.tsv]
 *
 * Keys: tests/vectors/keys (README there); PSS signatures with long salts come from OpenSSL. */
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fipsmod/fipsmod.h"
#include "tests/common/test_util.h"

#define KEYS FIPSMOD_SOURCE_DIR "/tests/vectors/keys/"

static fm_indicator indicator(void) {
  fm_indicator ind = FM_INDICATOR_NONE;
  if (fm_service_indicator(&ind) != FM_OK) return (fm_indicator)99;
  return ind;
}

/* ---- Keys ------------------------------------------------------------------------------------ */

static const unsigned k_sizes[] = {1024, 2048, 2056, 3072, 4096, 6144};
#define NSIZES (sizeof k_sizes / sizeof k_sizes[0])
static fm_rsa_key *g_fm[NSIZES];  /* private keys (NULL for 1024: under the private minimum) */
static fm_rsa_key *g_pub[NSIZES]; /* public keys, through fm_rsa_key_import_public */
static EVP_PKEY *g_ossl[NSIZES];
static uint8_t g_n[NSIZES][768], g_e[NSIZES][768];
static size_t g_nlen[NSIZES], g_elen[NSIZES];

static char *read_text(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) return NULL;
  static char buf[16384];
  *len = fread(buf, 1, sizeof buf, f);
  fclose(f);
  return buf;
}

static void load_keys(void) {
  for (size_t i = 0; i < NSIZES; i++) {
    char path[512];
    snprintf(path, sizeof path, KEYS "rsa%u-pkcs8.pem", k_sizes[i]);
    FILE *f = fopen(path, "r");
    CHECK(f != NULL);
    if (f == NULL) continue;
    g_ossl[i] = PEM_read_PrivateKey(f, NULL, NULL, NULL);
    fclose(f);
    CHECK(g_ossl[i] != NULL);
    size_t len = 0;
    const char *text = read_text(path, &len);
    fm_rsa_key *k = NULL;
    const int st = fm_rsa_key_decode((const uint8_t *)text, len, &k);
    if (k_sizes[i] < 2048) {
      CHECK_EQ_INT(st, FM_ERR_KEY_SIZE); /* a private key under the minimum */
      snprintf(path, sizeof path, KEYS "rsa%u-spki.pem", k_sizes[i]);
      text = read_text(path, &len);
      CHECK(text != NULL);
      CHECK_EQ_INT(fm_rsa_key_decode((const uint8_t *)text, len, &k), FM_OK);
    } else {
      CHECK_EQ_INT(st, FM_OK);
      g_fm[i] = k;
    }
    CHECK_EQ_INT(fm_rsa_key_export(k, FM_RSA_N, g_n[i], sizeof g_n[i], &g_nlen[i]), FM_OK);
    CHECK_EQ_INT(fm_rsa_key_export(k, FM_RSA_E, g_e[i], sizeof g_e[i], &g_elen[i]), FM_OK);
    CHECK_EQ_INT(fm_rsa_key_import_public(g_n[i], g_nlen[i], g_e[i], g_elen[i], &g_pub[i]), FM_OK);
    if (g_fm[i] == NULL) fm_rsa_key_free(k);
  }
}

static int size_index(uint64_t bits) {
  for (size_t i = 0; i < NSIZES; i++) {
    if (k_sizes[i] == bits) return (int)i;
  }
  return -1;
}

/* ossl_sign signs "abc" with SHA-256 under key |i|: PKCS#1 v1.5 (salt < 0) or PSS with that
 * salt. */
static size_t ossl_sign(size_t i, long salt, uint8_t *sig, size_t cap) {
  EVP_MD_CTX *md = EVP_MD_CTX_new();
  EVP_PKEY_CTX *pc = NULL;
  size_t len = cap;
  int ok = EVP_DigestSignInit(md, &pc, EVP_sha256(), NULL, g_ossl[i]) == 1;
  if (ok && salt >= 0) {
    ok = EVP_PKEY_CTX_set_rsa_padding(pc, RSA_PKCS1_PSS_PADDING) == 1 &&
         EVP_PKEY_CTX_set_rsa_pss_saltlen(pc, (int)salt) == 1;
  }
  ok = ok && EVP_DigestSign(md, sig, &len, (const uint8_t *)"abc", 3) == 1;
  EVP_MD_CTX_free(md);
  CHECK(ok);
  return ok ? len : 0;
}

/* ---- Probes: one call of the service with |param| = |v|, the rest approved -------------------
 * Each returns the call's status; the indicator is read right after the call (into g_ind), before
 * any clean-up call (a wipe is a service of its own). */

static fm_indicator g_ind;
#define CALL(st, call) \
  do {                 \
    (st) = (call);     \
    g_ind = indicator(); \
  } while (0)

static const uint8_t k_bytes[256] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17};

static int probe_hmac(const char *svc, uint64_t key_len) {
  uint8_t tag[32];
  int st;
  if (strcmp(svc, "fm_hmac") == 0) {
    CALL(st, fm_hmac(FM_HASH_SHA256, k_bytes, key_len, "abc", 3, tag, sizeof tag));
    return st;
  }
  if (strcmp(svc, "fm_hmac_init") == 0) {
    fm_hmac_ctx c;
    CALL(st, fm_hmac_init(&c, FM_HASH_SHA256, k_bytes, key_len));
    fm_hmac_wipe(&c);
    return st;
  }
  if (fm_hmac(FM_HASH_SHA256, k_bytes, key_len, "abc", 3, tag, sizeof tag) != FM_OK) return -100;
  CALL(st, fm_hmac_verify(FM_HASH_SHA256, k_bytes, key_len, "abc", 3, tag, sizeof tag));
  return st;
}

static int probe_gcm(const char *svc, uint64_t tag_len) {
  static fm_gcm_key k;
  uint8_t iv[12], pt[16] = {1}, ct[16], tag[16], back[16];
  if (fm_gcm_key_init(&k, k_bytes, 16) != FM_OK) return -100;
  int st;
  CALL(st, fm_gcm_seal(&k, iv, NULL, 0, pt, 16, ct, tag, tag_len));
  if (st == FM_OK && strcmp(svc, "fm_gcm_open") == 0) {
    CALL(st, fm_gcm_open(&k, iv, 12, NULL, 0, ct, 16, tag, tag_len, back));
  }
  fm_gcm_key_wipe(&k);
  return st;
}

static int probe_kdf(const char *svc, const char *param, uint64_t v) {
  uint8_t out[64], prk[32];
  const bool p_ikm = strcmp(param, "ikm_len") == 0, p_out = strcmp(param, "out_len") == 0;
  const size_t ikm = p_ikm ? v : 32, olen = p_out ? v : 16;
  if (strcmp(svc, "fm_hkdf_extract") == 0 && p_ikm) {
    return fm_hkdf_extract(FM_HASH_SHA256, k_bytes + 32, 16, k_bytes, ikm, prk, sizeof prk);
  }
  if (strcmp(svc, "fm_hkdf_expand") == 0 && p_out) {
    return fm_hkdf_expand(FM_HASH_SHA256, k_bytes, 32, k_bytes + 64, 4, out, olen);
  }
  if (strcmp(svc, "fm_hkdf") == 0 && (p_ikm || p_out)) {
    return fm_hkdf(FM_HASH_SHA256, k_bytes, ikm, k_bytes + 32, 16, k_bytes + 64, 4, out, olen);
  }
  if (strcmp(svc, "fm_kbkdf_ctr_hmac") == 0) {
    const size_t key = strcmp(param, "key_len") == 0 ? v : 32;
    if (!p_out && strcmp(param, "key_len") != 0) return -101;
    return fm_kbkdf_ctr_hmac(FM_HASH_SHA256, k_bytes, key, k_bytes + 64, 8, 0, 32, out, olen);
  }
  if (strcmp(svc, "fm_pbkdf2_hmac") == 0) {
    const size_t pw = strcmp(param, "password_len") == 0 ? v : 8;
    const size_t salt = strcmp(param, "salt_len") == 0 ? v : 16;
    const uint64_t it = strcmp(param, "iterations") == 0 ? v : 1000;
    if (!p_out && strcmp(param, "password_len") != 0 && strcmp(param, "salt_len") != 0 &&
        strcmp(param, "iterations") != 0) {
      return -101;
    }
    return fm_pbkdf2_hmac(FM_HASH_SHA256, k_bytes, pw, k_bytes + 32, salt, it, out, olen);
  }
  return -101;
}

static int probe_rsa(const char *svc, const char *param, uint64_t v) {
  uint8_t sig[1024];
  size_t sig_len = 0;
  const bool p_bits = strcmp(param, "n_bits") == 0;
  const int i = p_bits ? size_index(v) : size_index(2048);
  if (i < 0) return -101;
  if (strcmp(svc, "fm_rsa_key_import_public") == 0 && p_bits) {
    fm_rsa_key *k = NULL;
    int st;
    CALL(st, fm_rsa_key_import_public(g_n[i], g_nlen[i], g_e[i], g_elen[i], &k));
    fm_rsa_key_free(k);
    return st;
  }
  if (strcmp(svc, "fm_rsa_sign_pkcs1v15") == 0 && p_bits) {
    if (g_fm[i] == NULL) return -102;
    return fm_rsa_sign_pkcs1v15(g_fm[i], FM_HASH_SHA256, (const uint8_t *)"abc", 3, sig,
                                sizeof sig, &sig_len);
  }
  if (strcmp(svc, "fm_rsa_sign_pss") == 0 && p_bits) {
    if (g_fm[i] == NULL) return -102;
    return fm_rsa_sign_pss(g_fm[i], FM_HASH_SHA256, (const uint8_t *)"abc", 3, 32, sig,
                           sizeof sig, &sig_len);
  }
  if (strcmp(svc, "fm_rsa_verify_pkcs1v15") == 0 && p_bits) {
    sig_len = ossl_sign((size_t)i, -1, sig, sizeof sig);
    return fm_rsa_verify_pkcs1v15(g_pub[i], FM_HASH_SHA256, (const uint8_t *)"abc", 3, sig,
                                  sig_len);
  }
  if (strcmp(svc, "fm_rsa_verify_pss") == 0 && (p_bits || strcmp(param, "salt_len") == 0)) {
    const long salt = p_bits ? 32 : (long)v;
    if (salt > (long)(g_nlen[i] - 32 - 2)) return -102; /* more than the key holds */
    sig_len = ossl_sign((size_t)i, salt, sig, sizeof sig);
    return fm_rsa_verify_pss(g_pub[i], FM_HASH_SHA256, (const uint8_t *)"abc", 3, (size_t)salt,
                             sig, sig_len);
  }
  return -101;
}

/* probe_pkcs8 encrypts a P-256 PKCS#8 key with the parameter at |v| (the others approved) and,
 * for fm_pkcs8_decrypt, decrypts it again. Values encryption refuses (an empty passphrase, a salt
 * under 8 bytes) cannot be probed. */
static int probe_pkcs8(const char *svc, const char *param, uint64_t v) {
  static uint8_t key[512];
  static size_t key_len;
  if (key_len == 0) {
    size_t n = 0;
    uint8_t *k = test_read_vector_file("keys/ec-p256-pkcs8.der", &n);
    if (k == NULL || n > sizeof key) return -100;
    memcpy(key, k, n);
    key_len = n;
    free(k);
  }
  const bool p_pass = strcmp(param, "pass_len") == 0, p_salt = strcmp(param, "salt_len") == 0;
  const bool p_iter = strcmp(param, "iterations") == 0;
  if (!p_pass && !p_salt && !p_iter) return -101;
  fm_pkcs8_params p = {FM_PBE_NONE, FM_HASH_SHA256, 16, p_iter ? v : 1000, p_salt ? v : 16};
  const size_t pass_len = p_pass ? v : 8;
  if (pass_len == 0 || p.salt_len < 8 || p.iterations == 0) return -102;
  uint8_t enc[1024], dec[1024];
  size_t n = 0, m = 0;
  int st = fm_pkcs8_encrypt(key, key_len, k_bytes, pass_len, &p, FM_KEY_DER, enc, sizeof enc, &n);
  if (st == FM_OK && strcmp(svc, "fm_pkcs8_decrypt") == 0)
    st = fm_pkcs8_decrypt(enc, n, k_bytes, pass_len, dec, sizeof dec, &m, NULL);
  return st;
}

static int probe(const char *svc, const char *param, uint64_t v) {
  if (strncmp(svc, "fm_hmac", 7) == 0) return strcmp(param, "key_len") == 0 ? probe_hmac(svc, v) : -101;
  if (strncmp(svc, "fm_gcm_", 7) == 0) return strcmp(param, "tag_len") == 0 ? probe_gcm(svc, v) : -101;
  /* The KDF, PKCS#8 and signature probes end with the service call itself. */
  if (strncmp(svc, "fm_pkcs8_", 9) == 0) {
    const int st = probe_pkcs8(svc, param, v);
    g_ind = indicator();
    return st;
  }
  int st = strncmp(svc, "fm_rsa_", 7) == 0 ? probe_rsa(svc, param, v) : probe_kdf(svc, param, v);
  if (strcmp(svc, "fm_rsa_key_import_public") != 0) g_ind = indicator();
  return st;
}

/* ---- Rules --------------------------------------------------------------------------------- */

/* A rule: ">= N", "<= N", "<= hlen" (the probe's hash, SHA-256: 32) or "in A B C ...". */
typedef struct {
  int kind; /* 0: >=, 1: <=, 2: in */
  uint64_t bound;
  uint64_t set[16];
  size_t nset;
} rule;

static bool parse_rule(const char *text, rule *r) {
  memset(r, 0, sizeof *r);
  if (strncmp(text, ">= ", 3) == 0 || strncmp(text, "<= ", 3) == 0) {
    r->kind = text[0] == '>' ? 0 : 1;
    if (strcmp(text + 3, "hlen") == 0) {
      r->bound = 32;
      return true;
    }
    char *end;
    r->bound = strtoull(text + 3, &end, 10);
    return *end == '\0' && end != text + 3;
  }
  if (strncmp(text, "in ", 3) == 0) {
    r->kind = 2;
    const char *p = text + 3;
    while (*p != '\0' && r->nset < 16) {
      char *end;
      r->set[r->nset++] = strtoull(p, &end, 10);
      if (end == p) return false;
      p = end;
      while (*p == ' ') p++;
    }
    return r->nset > 0 && *p == '\0';
  }
  return false;
}

static bool rule_approves(const rule *r, uint64_t v) {
  if (r->kind == 0) return v >= r->bound;
  if (r->kind == 1) return v <= r->bound;
  for (size_t i = 0; i < r->nset; i++) {
    if (r->set[i] == v) return true;
  }
  return false;
}

/* candidates: the values a row is probed at. The bound and its neighbours (and 0) for a length;
 * the key sizes the vectors hold for n_bits; every tag length GCM accepts; for a set, its
 * members and their neighbours. */
static size_t candidates(const char *param, const rule *r, uint64_t *out) {
  size_t n = 0;
  if (strcmp(param, "n_bits") == 0) {
    for (size_t i = 0; i < NSIZES; i++) out[n++] = k_sizes[i];
    return n;
  }
  if (strcmp(param, "tag_len") == 0) {
    static const uint64_t tags[] = {4, 8, 12, 13, 14, 15, 16};
    for (size_t i = 0; i < sizeof tags / sizeof tags[0]; i++) out[n++] = tags[i];
    return n;
  }
  if (r->kind == 2) {
    for (size_t i = 0; i < r->nset; i++) {
      out[n++] = r->set[i];
      out[n++] = r->set[i] + 1;
      if (r->set[i] > 0) out[n++] = r->set[i] - 1;
    }
    return n;
  }
  out[n++] = r->bound;
  out[n++] = r->bound + 1;
  if (r->bound > 0) out[n++] = r->bound - 1;
  if (r->bound > 1) out[n++] = 1;
  if (strcmp(param, "salt_len") == 0 && r->kind == 1) {
    out[n++] = 64;  /* the cases: 64 and 222 bytes with SHA-256 */
    out[n++] = 222;
  }
  /* Zero-length inputs are probed where they are valid calls (not out_len, not iterations). */
  if (strcmp(param, "out_len") != 0 && strcmp(param, "iterations") != 0) out[n++] = 0;
  return n;
}

static int run_row(const char *svc, const char *param, const char *rule_text) {
  rule r;
  if (!parse_rule(rule_text, &r)) {
    fprintf(stderr, "approval.tsv: %s %s: cannot read the rule \"%s\"\n", svc, param, rule_text);
    return 1;
  }
  uint64_t vals[64];
  const size_t n = candidates(param, &r, vals);
  int approved = 0, not_approved = 0, bad = 0;
  for (size_t i = 0; i < n; i++) {
    const int st = probe(svc, param, vals[i]);
    if (st == -101) {
      fprintf(stderr, "approval.tsv: %s %s: no probe for this row\n", svc, param);
      return 1;
    }
    if (st == -102) continue; /* a value this service cannot take at all (no such key) */
    const fm_indicator ind = g_ind;
    if (st != FM_OK) {
      fprintf(stderr, "%s %s=%llu: status %d\n", svc, param, (unsigned long long)vals[i], st);
      bad++;
      continue;
    }
    const bool want = rule_approves(&r, vals[i]);
    const fm_indicator want_ind = want ? FM_INDICATOR_APPROVED : FM_INDICATOR_NOT_APPROVED;
    if (ind != want_ind) {
      fprintf(stderr, "%s %s=%llu: indicator %d, the policy (%s) says %s\n", svc, param,
              (unsigned long long)vals[i], (int)ind, rule_text, want ? "approved" : "not approved");
      bad++;
    }
    if (want) {
      approved++;
    } else {
      not_approved++;
    }
  }
  if (approved == 0 || not_approved == 0) {
    fprintf(stderr, "approval.tsv: %s %s (%s) was not probed on both sides\n", svc, param,
            rule_text);
    bad++;
  }
  printf("%-26s %-13s %-22s %s\n", svc, param, rule_text, bad ? "DISAGREES" : "agrees");
  return bad != 0;
}

int main(int argc, char **argv) {
  const char *path = argc > 1 ? argv[1] : FIPSMOD_SOURCE_DIR "/policy/approval.tsv";
  load_keys();
  FILE *f = fopen(path, "r");
  if (f == NULL) {
    fprintf(stderr, "cannot open %s\n", path);
    return 1;
  }
  char line[512];
  int rows = 0, failed = 0;
  bool header = true;
  while (fgets(line, sizeof line, f) != NULL) {
    line[strcspn(line, "\n")] = '\0';
    if (line[0] == '#' || line[0] == '\0') continue;
    if (header) {
      header = false;
      continue;
    }
    char *svc = strtok(line, "\t"), *param = strtok(NULL, "\t"), *rl = strtok(NULL, "\t");
    if (svc == NULL || param == NULL || rl == NULL) {
      fprintf(stderr, "approval.tsv: short row\n");
      failed++;
      continue;
    }
    rows++;
    failed += run_row(svc, param, rl);
  }
  fclose(f);
  for (size_t i = 0; i < NSIZES; i++) {
    fm_rsa_key_free(g_fm[i]);
    fm_rsa_key_free(g_pub[i]);
    EVP_PKEY_free(g_ossl[i]);
  }
  if (rows == 0) {
    fprintf(stderr, "approval.tsv has no rules\n");
    failed++;
  }
  if (failed) test_failures++;
  return test_main_result("test_approval_rules");
}
