/* CAVP elliptic-curve files (FIPS 186-3 ECDSA and the SP 800-56A ECC CDH primitive): KeyPair
 * (Q = dG for each d), PKV (public-key validation verdicts), SigGen (the file's signature verifies
 * and d gives the file's Q; the file's k cannot be given to the module, which draws its own),
 * SigVer (verdicts) and KAS_ECC_CDH_PrimitiveTest (Z). Sections name the curve ([P-256] or
 * [P-256,SHA-256]); K-/B-curves, P-192 and SHA-1 sections are skipped with the reason. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cli/vectors/internal.h"
#include "fipsmod/ec.h"

typedef enum { EC_KEYPAIR, EC_PKV, EC_SIGGEN, EC_SIGVER, EC_CDH } ec_kind;

/* The keys a case holds, and the one that ends it. */
#define EC_MAX_KEYS 12
typedef struct ec_case {
  const rsp_line *kv[EC_MAX_KEYS];
  int n;
} ec_case;

static const char *case_get(const ec_case *cs, const char *key) {
  for (int i = 0; i < cs->n; i++)
    if (strcasecmp(cs->kv[i]->key, key) == 0) return cs->kv[i]->val;
  return NULL;
}

static fm_ec_curve curve_of(const char *section) {
  if (strncmp(section, "P-224", 5) == 0) return FM_EC_P224;
  if (strncmp(section, "P-256", 5) == 0) return FM_EC_P256;
  if (strncmp(section, "P-384", 5) == 0) return FM_EC_P384;
  if (strncmp(section, "P-521", 5) == 0) return FM_EC_P521;
  return (fm_ec_curve)0;
}

/* hash_of: the section's hash after the comma; 0 for one the module does not offer. */
static fm_hash_alg hash_of(const char *section, const char **name) {
  const char *h = strchr(section, ',');
  *name = h != NULL ? h + 1 : "";
  if (h == NULL) return (fm_hash_alg)0;
  if (strcmp(h + 1, "SHA-224") == 0) return FM_HASH_SHA224;
  if (strcmp(h + 1, "SHA-256") == 0) return FM_HASH_SHA256;
  if (strcmp(h + 1, "SHA-384") == 0) return FM_HASH_SHA384;
  if (strcmp(h + 1, "SHA-512") == 0) return FM_HASH_SHA512;
  if (strcmp(h + 1, "SHA-512/224") == 0) return FM_HASH_SHA512_224;
  if (strcmp(h + 1, "SHA-512/256") == 0) return FM_HASH_SHA512_256;
  return (fm_hash_alg)0;
}

/* fixed decodes a hex number into exactly |len| big-endian bytes; 1 when it is longer (a value
 * out of range, which PKV files hold on purpose), -1 on bad hex. */
static int fixed(kat_ctx *c, const char *hex, uint8_t *out, size_t len) {
  kat_bytes b;
  if (hex == NULL || kat_hex_decode(c, hex, 1, &b) < 0) return -1;
  size_t skip = 0;
  while (b.n - skip > len && b.p[skip] == 0) skip++;
  if (b.n - skip > len) return 1;
  memset(out, 0, len);
  memcpy(out + len - (b.n - skip), b.p + skip, b.n - skip);
  return 0;
}

/* point builds 04 || X || Y; 1 when a coordinate does not fit the field. */
static int point(kat_ctx *c, fm_ec_curve curve, const char *x, const char *y, uint8_t *pt) {
  const size_t nb = fm_ec_curve_bytes(curve);
  pt[0] = 0x04;
  int rx = fixed(c, x, pt + 1, nb), ry = fixed(c, y, pt + 1 + nb, nb);
  if (rx < 0 || ry < 0) return -1;
  return rx | ry;
}

static void run_case(kat_ctx *c, ec_kind kind, fm_ec_curve curve, fm_hash_alg hash,
                     const ec_case *cs, const char *id) {
  const size_t nb = fm_ec_curve_bytes(curve);
  uint8_t pt[FM_EC_MAX_POINT_BYTES], d[FM_EC_MAX_BYTES], sig[FM_EC_MAX_SIG_BYTES];
  uint8_t got[FM_EC_MAX_POINT_BYTES];
  size_t got_len = 0;
  fm_ec_key *key = NULL;
  const char *qx = case_get(cs, kind == EC_CDH ? "QCAVSx" : "Qx");
  const char *qy = case_get(cs, kind == EC_CDH ? "QCAVSy" : "Qy");
  int pr = point(c, curve, qx, qy, pt);
  if (pr < 0) {
    kat_fail(c, id, "malformed point");
    return;
  }
  const char *res = case_get(cs, "Result");
  const int expect_ok = res == NULL || res[0] == 'P';
  switch (kind) {
    case EC_KEYPAIR:
    case EC_SIGGEN: {
      if (fixed(c, case_get(cs, "d"), d, nb) != 0) {
        kat_fail(c, id, "malformed d");
        return;
      }
      int st = fm_ec_key_import_private(curve, d, nb, NULL, 0, &key);
      if (st == FM_OK) st = fm_ec_key_export_public(key, 0, got, sizeof got, &got_len);
      if (st != FM_OK) {
        kat_fail(c, id, "private key import returned %s", fm_strerror(st));
      } else if (kat_compare(c, id, "Q", got, got_len, pt, 1 + 2 * nb) == 0 &&
                 kind == EC_SIGGEN) {
        kat_bytes msg;
        if (kat_hex_decode(c, case_get(cs, "Msg"), 0, &msg) < 0 ||
            fixed(c, case_get(cs, "R"), sig, nb) != 0 || fixed(c, case_get(cs, "S"), sig + nb, nb)) {
          kat_fail(c, id, "malformed Msg, R or S");
        } else if ((st = fm_ecdsa_verify(key, hash, msg.p, msg.n, sig, 2 * nb)) != FM_OK) {
          kat_fail(c, id, "the file's signature does not verify: %s", fm_strerror(st));
        } else {
          kat_pass(c);
        }
      }
      break;
    }
    case EC_PKV: {
      const int st = pr == 0 ? fm_ec_key_import_public(curve, pt, 1 + 2 * nb, &key) : FM_ERR_BAD_KEY;
      if (expect_ok && st != FM_OK) kat_fail(c, id, "valid key refused: %s", fm_strerror(st));
      else if (!expect_ok && st != FM_ERR_BAD_KEY)
        kat_fail(c, id, "invalid key: expected FM_ERR_BAD_KEY, got %s", fm_strerror(st));
      else kat_pass(c);
      break;
    }
    case EC_SIGVER: {
      kat_bytes msg;
      int st = pr == 0 ? fm_ec_key_import_public(curve, pt, 1 + 2 * nb, &key) : FM_ERR_BAD_KEY;
      if (st == FM_OK) {
        if (kat_hex_decode(c, case_get(cs, "Msg"), 0, &msg) < 0) {
          kat_fail(c, id, "malformed Msg");
          break;
        }
        st = fixed(c, case_get(cs, "R"), sig, nb) == 0 && fixed(c, case_get(cs, "S"), sig + nb, nb) == 0
                 ? fm_ecdsa_verify(key, hash, msg.p, msg.n, sig, 2 * nb)
                 : FM_ERR_VERIFY;
      }
      if (expect_ok && st != FM_OK) kat_fail(c, id, "valid signature rejected: %s", fm_strerror(st));
      else if (!expect_ok && st == FM_OK) kat_fail(c, id, "invalid signature accepted");
      else kat_pass(c);
      break;
    }
    case EC_CDH: {
      uint8_t z[FM_EC_MAX_BYTES], want[FM_EC_MAX_BYTES];
      size_t z_len = 0;
      if (fixed(c, case_get(cs, "dIUT"), d, nb) != 0 || fixed(c, case_get(cs, "ZIUT"), want, nb) != 0) {
        kat_fail(c, id, "malformed dIUT or ZIUT");
        break;
      }
      int st = fm_ec_key_import_private(curve, d, nb, NULL, 0, &key);
      if (st == FM_OK) st = fm_ecdh(key, pt, 1 + 2 * nb, z, sizeof z, &z_len);
      if (st != FM_OK) kat_fail(c, id, "ECDH returned %s", fm_strerror(st));
      else kat_compare(c, id, "Z", z, z_len, want, nb);
      break;
    }
  }
  fm_ec_key_free(key);
}

int kat_cavp_ec(kat_ctx *c, const rsp_file *f) {
  ec_kind kind;
  const char *last;
  if (rsp_has_key(f, "ZIUT")) {
    kind = EC_CDH, last = "ZIUT";
    kat_set_kind(c, "CAVP ECC CDH primitive");
  } else if (rsp_has_key(f, "Msg") && rsp_has_key(f, "Result")) {
    kind = EC_SIGVER, last = "Result";
    kat_set_kind(c, "CAVP ECDSA SigVer");
  } else if (rsp_has_key(f, "Msg")) {
    kind = EC_SIGGEN, last = "S";
    kat_set_kind(c, "CAVP ECDSA SigGen");
  } else if (rsp_has_key(f, "Result")) {
    kind = EC_PKV, last = "Result";
    kat_set_kind(c, "CAVP ECDSA PKV");
  } else {
    kind = EC_KEYPAIR, last = "Qy";
    kat_set_kind(c, "CAVP ECDSA KeyPair");
  }
  const char *section = "";
  ec_case cs = {.n = 0};
  for (size_t i = 0; i < f->n; i++) {
    const rsp_line *l = &f->lines[i];
    if (l->type == RSP_SECTION) {
      /* Curve sections; KeyPair's "[B.4.2 Key Pair Generation ...]" is not one. */
      if (l->val == NULL && (l->key[1] == '-')) section = l->key;
      cs.n = 0;
      continue;
    }
    if (l->type != RSP_KV) continue;
    if (strcasecmp(l->key, "N") == 0 && kind == EC_KEYPAIR) continue;
    if (cs.n == EC_MAX_KEYS) return kat_error(c, "%s:%d: case with too many lines", c->path, l->line);
    cs.kv[cs.n++] = l;
    if (strcasecmp(l->key, last) != 0) continue;
    char id[96];
    snprintf(id, sizeof id, "[%s] line %d", section, l->line);
    const fm_ec_curve curve = curve_of(section);
    const char *hname = "";
    const fm_hash_alg hash = hash_of(section, &hname);
    if (curve == 0) {
      kat_skip(c, "curve %.*s is not offered (P-224, P-256, P-384, P-521 only)",
               (int)strcspn(section, ","), section);
    } else if ((kind == EC_SIGGEN || kind == EC_SIGVER) && hash == 0) {
      kat_skip(c, "hash %s is not offered with ECDSA (SHA-256/384/512 only)", hname);
    } else {
      run_case(c, kind, curve, hash, &cs, id);
    }
    cs.n = 0;
    kat_arena_reset(c);
  }
  return 0;
}
