/* AES known answers: CAVP AESAVS KAT (GFSbox, KeySbox, VarKey, VarTxt), MMT and MCT files for
 * ECB and CBC, ACVP-AES-ECB/CBC (AFT, MCT) and Wycheproof AES-CBC-PKCS5, with 128-, 192- and
 * 256-bit keys. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cli/kat/kat_internal.h"
#include "fipsmod/aes.h"

enum { MODE_ECB = 1, MODE_CBC = 2 };

/* aes_crypt runs one ECB or CBC operation over whole blocks. |iv| is updated (CBC chaining). */
static int aes_crypt(int mode, int encrypt, const uint8_t *key, size_t key_len, uint8_t *iv,
                     const uint8_t *in, uint8_t *out, size_t len) {
  fm_aes_key ks;
  int rc = fm_aes_key_init(&ks, key, key_len);
  if (rc != FM_OK) return rc;
  if (mode == MODE_ECB) {
    rc = encrypt ? fm_aes_ecb_encrypt(&ks, in, out, len) : fm_aes_ecb_decrypt(&ks, in, out, len);
  } else {
    rc = encrypt ? fm_aes_cbc_encrypt(&ks, iv, in, out, len)
                 : fm_aes_cbc_decrypt(&ks, iv, in, out, len);
  }
  fm_aes_key_wipe(&ks);
  return rc;
}

/* aes_mct_round runs the inner 1000 iterations of the AESAVS Monte Carlo test (section 6.4)
 * for one outer iteration: from key/iv/input it produces the last two outputs (out[998],
 * out[999]) and, for CBC, the chaining value. ECB: out[j] = E(K, in[j]), in[j+1] = out[j].
 * CBC: out[j] = E(K, in[j] ^ chain), in[j+1] = (j == 0 ? IV : out[j-1]). Decryption mirrors
 * both with D(). */
static int aes_mct_round(int mode, int encrypt, const uint8_t *key, size_t key_len,
                         const uint8_t iv[16], const uint8_t in0[16], uint8_t last2[32]) {
  fm_aes_key ks;
  int rc = fm_aes_key_init(&ks, key, key_len);
  if (rc != FM_OK) return rc;
  uint8_t in[16], out[16], prev[16], chain[16];
  memcpy(in, in0, 16);
  memcpy(chain, iv, 16);
  memset(prev, 0, sizeof(prev));
  for (int j = 0; j < 1000 && rc == FM_OK; j++) {
    if (mode == MODE_ECB) {
      rc = encrypt ? fm_aes_ecb_encrypt(&ks, in, out, 16) : fm_aes_ecb_decrypt(&ks, in, out, 16);
      memcpy(prev, out, 16);
      memcpy(in, out, 16);
      if (j == 998) memcpy(last2, out, 16);
    } else {
      /* The module carries the chaining value in |chain| across one-block calls. */
      uint8_t next_in[16];
      memcpy(next_in, j == 0 ? iv : prev, 16);
      rc = encrypt ? fm_aes_cbc_encrypt(&ks, chain, in, out, 16)
                   : fm_aes_cbc_decrypt(&ks, chain, in, out, 16);
      memcpy(prev, out, 16);
      memcpy(in, next_in, 16);
      if (j == 998) memcpy(last2, out, 16);
    }
  }
  memcpy(last2 + 16, out, 16);
  fm_aes_key_wipe(&ks);
  return rc;
}

/* mct_next derives the next outer iteration's key, IV and input (AESAVS 6.4.1/6.4.2). */
static void mct_next(int mode, uint8_t *key, size_t key_len, uint8_t iv[16], uint8_t in[16],
                     const uint8_t last2[32]) {
  /* Key ^= the last key_len bytes of out[998] || out[999]. */
  for (size_t i = 0; i < key_len; i++) key[i] ^= last2[32 - key_len + i];
  if (mode == MODE_ECB) {
    memcpy(in, last2 + 16, 16);
  } else {
    memcpy(iv, last2 + 16, 16);
    memcpy(in, last2, 16);
  }
}

static int mode_from_comments(const rsp_file *f) {
  if (rsp_comment_has(f, "for ECB")) return MODE_ECB;
  if (rsp_comment_has(f, "for CBC")) return MODE_CBC;
  return 0;
}

int kat_cavp_aes(kat_ctx *c, const rsp_file *f) {
  static const char *const start[] = {"COUNT", NULL};
  rsp_walk w;
  rsp_case cs;
  int rc;
  int mode = mode_from_comments(f);
  if (mode == 0) {
    /* Without the AESAVS header, IV lines tell CBC from ECB; any other mode is refused. */
    for (size_t i = 0; i < f->n; i++) {
      if (f->lines[i].type == RSP_COMMENT && strstr(f->lines[i].val, "test data for ")) {
        return kat_error(c, "%s:%d: AES mode \"%s\" not offered by the runner", c->path,
                         f->lines[i].line, strstr(f->lines[i].val, "for ") + 4);
      }
    }
    mode = rsp_has_key(f, "IV") ? MODE_CBC : MODE_ECB;
  }
  int mct = rsp_comment_has(f, "MCT");
  kat_set_kind(c, "CAVP AES-%s %s", mode == MODE_ECB ? "ECB" : "CBC", mct ? "MCT" : "KAT/MMT");
  rsp_walk_init(&w, f, start, NULL);
  /* MCT chain state: what the previous COUNT predicts for this one. */
  uint8_t nkey[32], niv[16], nin[16];
  int have_next = 0;
  const char *chain_section = NULL;
  while ((rc = rsp_next_case(c, &w, &cs)) == 1) {
    int encrypt;
    if (strcasecmp(cs.section, "ENCRYPT") == 0) {
      encrypt = 1;
    } else if (strcasecmp(cs.section, "DECRYPT") == 0) {
      encrypt = 0;
    } else {
      return kat_error(c, "%s:%d: case %s is not in an [ENCRYPT] or [DECRYPT] section", c->path,
                       cs.line, cs.id);
    }
    kat_bytes key, iv = {0}, pt, ct;
    if (rsp_hex(c, &w, &cs, "KEY", &key) < 0 || rsp_hex(c, &w, &cs, "PLAINTEXT", &pt) < 0 ||
        rsp_hex(c, &w, &cs, "CIPHERTEXT", &ct) < 0) {
      return -1;
    }
    if (mode == MODE_CBC && rsp_hex(c, &w, &cs, "IV", &iv) < 0) return -1;
    if (key.n != 16 && key.n != 24 && key.n != 32) {
      return kat_error(c, "%s:%d: KEY of %zu bytes in case %s", c->path, cs.line, key.n, cs.id);
    }
    if (pt.n != ct.n || pt.n % 16 != 0 || pt.n == 0 || (mode == MODE_CBC && iv.n != 16)) {
      return kat_error(c, "%s:%d: PLAINTEXT/CIPHERTEXT/IV lengths are not whole matching blocks "
                       "in case %s", c->path, cs.line, cs.id);
    }
    const kat_bytes *in = encrypt ? &pt : &ct, *want = encrypt ? &ct : &pt;
    const char *what = encrypt ? "CIPHERTEXT" : "PLAINTEXT";
    if (!mct) {
      uint8_t *out = kat_alloc(c, in->n);
      uint8_t ivb[16] = {0};
      if (out == NULL) return -1;
      if (mode == MODE_CBC) memcpy(ivb, iv.p, 16);
      int r = aes_crypt(mode, encrypt, key.p, key.n, ivb, in->p, out, in->n);
      if (r != FM_OK) {
        kat_fail(c, cs.id, "AES returned %s", fm_strerror(r));
      } else {
        kat_compare(c, cs.id, what, out, in->n, want->p, want->n);
      }
    } else {
      if (in->n != 16) {
        return kat_error(c, "%s:%d: MCT input must be one block", c->path, cs.line);
      }
      if (chain_section != cs.section) have_next = 0;
      chain_section = cs.section;
      /* The file's own KEY/IV/input must be what the previous COUNT derives (AESAVS 6.4). */
      int chain_bad = have_next && (memcmp(nkey, key.p, key.n) != 0 || memcmp(nin, in->p, 16) != 0 ||
                                    (mode == MODE_CBC && memcmp(niv, iv.p, 16) != 0));
      uint8_t last2[32];
      uint8_t ivb[16] = {0};
      if (mode == MODE_CBC) memcpy(ivb, iv.p, 16);
      int r = aes_mct_round(mode, encrypt, key.p, key.n, ivb, in->p, last2);
      if (r != FM_OK) {
        kat_fail(c, cs.id, "AES returned %s", fm_strerror(r));
      } else if (chain_bad) {
        kat_fail(c, cs.id, "MCT chaining: KEY/IV/%s differ from those derived from the previous "
                 "COUNT", encrypt ? "PLAINTEXT" : "CIPHERTEXT");
      } else {
        kat_compare(c, cs.id, what, last2 + 16, 16, want->p, want->n);
      }
      /* Derive the next COUNT from this one's file values, so one mismatch is reported at most
       * twice (here and as the next COUNT's chaining). */
      memcpy(nkey, key.p, key.n);
      memcpy(nin, in->p, 16);
      memcpy(niv, ivb, 16);
      memcpy(last2 + 16, want->p, 16);
      mct_next(mode, nkey, key.n, niv, nin, last2);
      have_next = r == FM_OK;
    }
    kat_arena_reset(c);
  }
  return rc;
}

/* pkcs7_unpad returns the plaintext length after removing PKCS#5/#7 padding, or -1 when the
 * padding is malformed. Runs over a public test vector, so it need not be constant time. */
static long pkcs7_unpad(const uint8_t *p, size_t n) {
  if (n == 0 || n % 16 != 0) return -1;
  uint8_t pad = p[n - 1];
  if (pad == 0 || pad > 16) return -1;
  for (size_t i = 0; i < pad; i++) {
    if (p[n - 1 - i] != pad) return -1;
  }
  return (long)(n - pad);
}

/* Wycheproof IndCpaTest for AES-CBC-PKCS5: "valid" cases must encrypt to ct and decrypt back;
 * "invalid" ones (bad padding, wrong lengths) must fail to decrypt and unpad. */
int kat_wp_aes_cbc_pkcs5(kat_ctx *c, json_t *root) {
  kat_set_kind(c, "Wycheproof AES-CBC-PKCS5");
  json_t *groups = kj_array(c, root, "testGroups", "file");
  if (groups == NULL) return -1;
  size_t gi, ti;
  json_t *g, *t;
  json_array_foreach(groups, gi, g) {
    char where[64], id[96];
    snprintf(where, sizeof(where), "testGroups[%zu]", gi);
    long key_bits;
    if (kj_int(c, g, "keySize", where, &key_bits) < 0) return -1;
    json_t *tests = kj_array(c, g, "tests", where);
    if (tests == NULL) return -1;
    json_array_foreach(tests, ti, t) {
      kj_test_id(NULL, t, id, sizeof(id));
      kat_bytes key, iv, msg, ct;
      const char *result;
      if (kj_hex(c, t, "key", id, &key) < 0 || kj_hex(c, t, "iv", id, &iv) < 0 ||
          kj_hex(c, t, "msg", id, &msg) < 0 || kj_hex(c, t, "ct", id, &ct) < 0 ||
          kj_str(c, t, "result", id, &result) < 0) {
        return -1;
      }
      int valid = strcmp(result, "valid") == 0;
      if (!valid && strcmp(result, "invalid") != 0 && strcmp(result, "acceptable") != 0) {
        return kat_error(c, "%s: %s: unknown result \"%s\"", c->path, id, result);
      }
      if ((key.n != 16 && key.n != 24 && key.n != 32) || (size_t)key_bits != key.n * 8) {
        return kat_error(c, "%s: %s: key size %zu bytes", c->path, id, key.n);
      }
      if (iv.n != 16) {
        /* Wycheproof marks wrong IV sizes invalid: the module's API cannot even take them. */
        if (valid) {
          kat_fail(c, id, "valid case with a %zu-byte IV cannot be run", iv.n);
        } else {
          kat_pass(c);
        }
        kat_arena_reset(c);
        continue;
      }
      /* Decrypt and unpad: the direction every case (valid or not) can be checked in. */
      uint8_t ivb[16];
      long plen = -1;
      uint8_t *pt = kat_alloc(c, ct.n);
      if (pt == NULL) return -1;
      int drc = FM_ERR_LENGTH;
      if (ct.n % 16 == 0 && ct.n > 0) {
        memcpy(ivb, iv.p, 16);
        drc = aes_crypt(MODE_CBC, 0, key.p, key.n, ivb, ct.p, pt, ct.n);
        if (drc == FM_OK) plen = pkcs7_unpad(pt, ct.n);
      }
      int decrypted = drc == FM_OK && plen >= 0;
      if (valid) {
        /* Encrypt with padding too. */
        size_t padded = (msg.n / 16 + 1) * 16;
        uint8_t *in = kat_alloc(c, padded), *out = kat_alloc(c, padded);
        if (in == NULL || out == NULL) return -1;
        memcpy(in, msg.p, msg.n);
        memset(in + msg.n, (int)(padded - msg.n), padded - msg.n);
        memcpy(ivb, iv.p, 16);
        int erc = aes_crypt(MODE_CBC, 1, key.p, key.n, ivb, in, out, padded);
        if (erc != FM_OK) {
          kat_fail(c, id, "encrypt returned %s", fm_strerror(erc));
        } else if (padded != ct.n || memcmp(out, ct.p, ct.n) != 0) {
          kat_compare(c, id, "ct", out, padded, ct.p, ct.n);
        } else if (!decrypted || (size_t)plen != msg.n || memcmp(pt, msg.p, msg.n) != 0) {
          kat_fail(c, id, "decrypt/unpad of a valid ciphertext did not give msg (%s)",
                   drc != FM_OK ? fm_strerror(drc) : "bad padding or wrong plaintext");
        } else {
          kat_pass(c);
        }
      } else if (strcmp(result, "acceptable") == 0) {
        kat_pass(c);
      } else if (decrypted && (size_t)plen == msg.n && memcmp(pt, msg.p, msg.n) == 0) {
        kat_fail(c, id, "invalid ciphertext decrypted and unpadded to msg");
      } else if (decrypted) {
        kat_fail(c, id, "invalid ciphertext decrypted with valid padding");
      } else {
        kat_pass(c);
      }
      kat_arena_reset(c);
    }
  }
  return 0;
}
