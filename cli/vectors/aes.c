/* AES known answers: CAVP AESAVS KAT (GFSbox, KeySbox, VarKey, VarTxt), MMT and MCT files for
 * ECB and CBC, ACVP-AES-ECB/CBC (AFT, MCT) and Wycheproof AES-CBC-PKCS5, with 128-, 192- and
 * 256-bit keys. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cli/vectors/internal.h"
#include "fipsmod/aes.h"
#include "fipsmod/rand.h"

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
int kat_wp_aes_cbc_pkcs5(kat_ctx *c, json_t *root, const vec_call *v) {
  (void)v;
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

/* ---- ACVP -------------------------------------------------------------------------------- */

/* ACVP-AES-ECB, -CBC and -CTR 1.0 (draft-celi-acvp-symmetric): AFT, MCT (ECB, CBC) and the CTR
 * counter tests (processed as AFTs, symmetric/sections/04-testtypes.adoc), with 128-, 192- and
 * 256-bit keys; CTR payloads that are not whole bytes are not served (the API takes bytes).
 *
 * CTR counter direction and wrap (symmetric/sections/06-test-vectors.adoc, property_grid_prompt_misc;
 * 05-capabilities.adoc): a CTR group says "incremental" and "overflow" (the registration's
 * "incrementalCounter" and "overflowCounter"; both spellings are read). The module's counter
 * only increments (FM_AES_CTR128: the whole block, big-endian, mod 2^128, SP 800-38A B.1), so a
 * group with a decrementing counter is left out: answering it with the module's counter would
 * be wrong, and building a decrementing CTR here from ECB would test the runner, not the module.
 * An overflowing incrementing counter is what FM_AES_CTR128 does: it wraps FF..FF to 00..00.
 * "performCounterTests": false means the two flags are not used (the 05-capabilities NOTE). */
static int crypt_once(int mode, int enc, const fm_aes_key *ks, uint8_t iv[16], const uint8_t *in,
                      uint8_t *out, size_t len) {
  if (mode == ACVP_ECB) return enc ? fm_aes_ecb_encrypt(ks, in, out, len) : fm_aes_ecb_decrypt(ks, in, out, len);
  if (mode == ACVP_CBC) {
    return enc ? fm_aes_cbc_encrypt(ks, iv, in, out, len) : fm_aes_cbc_decrypt(ks, iv, in, out, len);
  }
  return fm_aes_ctr(ks, FM_AES_CTR128, iv, in, out, len);
}

/* mct: the ECB and CBC Monte Carlo tests of symmetric/sections/04-testtypes.adoc (AES-ECB-MCT,
 * AES-CBC-MCT, encrypt and decrypt): 100 outer rounds of 1000 chained operations; each round
 * outputs key, iv (CBC), the round's first input and its last output, then shuffles the key
 * with the last outputs (AES_KEY_SHUFFLE) and chains. */
static int mct(kat_ctx *c, int mode, int enc, const kat_bytes *key0, const uint8_t *iv0,
               const uint8_t *in0, json_t *results) {
  uint8_t key[32], iv[16] = {0}, in[16], out[16] = {0}, prev[16] = {0}, chain[16];
  size_t kl = key0->n;
  const char *in_name = enc ? "pt" : "ct", *out_name = enc ? "ct" : "pt";
  memcpy(key, key0->p, kl);
  memcpy(in, in0, 16);
  if (iv0) memcpy(iv, iv0, 16);
  fm_aes_key ks;
  int rc = FM_OK;
  for (int i = 0; i < 100 && rc == FM_OK; i++) {
    json_t *o = json_object();
    ar_hex(o, "key", key, kl);
    if (mode == ACVP_CBC) ar_hex(o, "iv", iv, 16);
    ar_hex(o, in_name, in, 16);
    rc = fm_aes_key_init(&ks, key, kl);
    memcpy(chain, iv, 16);
    for (int j = 0; j < 1000 && rc == FM_OK; j++) {
      uint8_t next_in[16] = {0};
      if (mode == ACVP_CBC) memcpy(next_in, j == 0 ? iv : out, 16); /* out = out[j-1] */
      memcpy(prev, out, 16);
      rc = crypt_once(mode, enc, &ks, chain, in, out, 16);
      if (mode == ACVP_ECB) {
        memcpy(in, out, 16);
      } else {
        memcpy(in, next_in, 16);
      }
    }
    fm_aes_key_wipe(&ks);
    ar_hex(o, out_name, out, 16);
    json_array_append_new(results, o);
    /* AES_KEY_SHUFFLE: Key ^= the last kl bytes of out[998] || out[999] (prev = out[998]). */
    uint8_t last2[32];
    memcpy(last2, prev, 16);
    memcpy(last2 + 16, out, 16);
    for (size_t k = 0; k < kl; k++) key[k] ^= last2[32 - kl + k];
    if (mode == ACVP_ECB) {
      memcpy(in, out, 16);
    } else {
      memcpy(iv, out, 16);
      memcpy(in, prev, 16);
    }
    ar_progress_note(c, "MCT round %d", i + 1);
  }
  if (rc != FM_OK) return rc;
  return FM_OK;
}

/* ctr_advanced_right: fm_aes_ctr advances its counter block by the blocks it used (aes.h);
 * with FM_AES_CTR128 that is start + ceil(len / 16) mod 2^128 (SP 800-38A B.1, the standard
 * incrementing function on the whole block). 1 when |after| is that. */
static int ctr_advanced_right(const uint8_t start[16], const uint8_t after[16], size_t len) {
  uint8_t want[16];
  unsigned long long add = (unsigned long long)(len / 16 + (len % 16 != 0));
  unsigned carry = 0;
  for (int i = 15; i >= 0; i--) {
    unsigned s = start[i] + (unsigned)(add & 0xff) + carry;
    want[i] = (uint8_t)s;
    carry = s >> 8;
    add >>= 8;
  }
  return memcmp(want, after, 16) == 0;
}

/* ctr_flag reads one counter flag of group |g| (else of the vector set |set|) under either of
 * its two names. Returns 0 (set *out), 1 when absent, -1 when malformed or the two names
 * disagree. */
static int ctr_flag(kat_ctx *c, json_t *set, json_t *g, const char *name, const char *cap_name,
                    const char *where, int *out) {
  json_t *holders[2] = {g, set};
  for (int h = 0; h < 2; h++) {
    int a = 0, b = 0;
    int ra = av_bool_opt(c, holders[h], name, where, &a);
    int rb = av_bool_opt(c, holders[h], cap_name, where, &b);
    if (ra < 0 || rb < 0) return -1;
    if (ra == 0 && rb == 0 && a != b) {
      return kat_error(c, "%s: %s: \"%s\" and \"%s\" disagree", c->path, where, name, cap_name);
    }
    if (ra == 0 || rb == 0) {
      *out = ra == 0 ? a : b;
      return 0;
    }
  }
  return 1;
}

int acvp_aes(kat_ctx *c, json_t *set, json_t *groups, const vec_call *v) {
  const int mode = v->arg;
  size_t gi, ti;
  json_t *g, *t;
  json_array_foreach(json_object_get(set, "testGroups"), gi, g) {
    char where[64], id[96];
    snprintf(where, sizeof(where), "testGroups[%zu]", gi);
    const char *type, *dir;
    long long key_bits;
    if (kj_str(c, g, "testType", where, &type) < 0 || kj_str(c, g, "direction", where, &dir) < 0 ||
        av_int(c, g, "keyLen", where, &key_bits) < 0) {
      return -1;
    }
    json_t *tests = kj_array(c, g, "tests", where);
    if (tests == NULL) return -1;
    long n = (long)json_array_size(tests);
    int enc = strcmp(dir, "encrypt") == 0;
    if (!enc && strcmp(dir, "decrypt") != 0) {
      return kat_error(c, "%s: %s: unknown direction \"%s\"", c->path, where, dir);
    }
    int is_mct = strcmp(type, "MCT") == 0;
    if (key_bits != 128 && key_bits != 192 && key_bits != 256) {
      return kat_error(c, "%s: %s: keyLen %lld", c->path, where, key_bits);
    }
    if (!(strcmp(type, "AFT") == 0 || (is_mct && mode != ACVP_CTR) ||
          (strcmp(type, "CTR") == 0 && mode == ACVP_CTR))) {
      kat_skip_n(c, n, "test type \"%s\" is not known for this mode", type);
      continue;
    }
    if (mode == ACVP_CTR) {
      int perform = 1, incremental = 1, overflow = 0;
      if (ctr_flag(c, set, g, "performCounterTests", "performCounterTests", where, &perform) < 0 ||
          ctr_flag(c, set, g, "incremental", "incrementalCounter", where, &incremental) < 0 ||
          ctr_flag(c, set, g, "overflow", "overflowCounter", where, &overflow) < 0) {
        return -1;
      }
      if (perform && !incremental) {
        kat_skip_n(c, n, "CTR group with a decrementing counter (incremental false): the "
                   "module's counter only increments (FM_AES_CTR128, FM_AES_CTR32)");
        continue;
      }
      /* overflow true: FM_AES_CTR128 wraps the 128-bit counter mod 2^128, as asked; each test
       * below also checks the counter the module hands back (ctr_advanced_right). */
      (void)overflow;
    }
    const char *in_name = enc ? "pt" : "ct", *out_name = enc ? "ct" : "pt";
    json_t *rg = ar_group(g);
    json_array_foreach(tests, ti, t) {
      kj_test_id(g, t, id, sizeof(id));
      kat_bytes key, iv = {0}, in;
      long long bits = -1;
      int has_iv = json_object_get(t, "iv") != NULL;
      if (kj_hex(c, t, "key", id, &key) < 0 || kj_hex(c, t, in_name, id, &in) < 0 ||
          (has_iv && kj_hex(c, t, "iv", id, &iv) < 0) ||
          av_int_opt(c, t, "payloadLen", id, &bits) < 0) {
        json_decref(rg);
        return -1;
      }
      if (bits < 0) bits = (long long)in.n * 8;
      if (key.n * 8 != (size_t)key_bits || (has_iv && iv.n != 16) ||
          (mode == ACVP_CBC && !has_iv) || (mode == ACVP_CTR && !enc && !has_iv) ||
          (unsigned long long)bits > (unsigned long long)in.n * 8 ||
          (mode != ACVP_CTR && (in.n % 16 != 0 || bits != (long long)in.n * 8)) ||
          (is_mct && in.n != 16)) {
        json_decref(rg);
        return kat_error(c, "%s: %s: key, iv or %s lengths are malformed", c->path, id, in_name);
      }
      json_t *rt = ar_test(t);
      int rc = FM_OK, ok = 1;
      if (bits % 8 != 0) {
        kat_skip(c, "CTR payload of %lld bits: the module encrypts whole bytes", bits);
        ok = 0;
      } else if (is_mct) {
        json_t *results = json_array();
        rc = mct(c, mode, enc, &key, has_iv ? iv.p : NULL, in.p, results);
        json_object_set_new(rt, "resultsArray", results);
      } else {
        size_t len = (size_t)(bits / 8);
        uint8_t ivb[16] = {0};
        uint8_t *out = kat_alloc(c, len);
        if (out == NULL) {
          json_decref(rt);
          json_decref(rg);
          return -1;
        }
        if (has_iv) {
          memcpy(ivb, iv.p, 16);
        } else if (mode == ACVP_CTR) {
          /* The module's own IV (ivGen internal): a random 96-bit nonce and a 32-bit block
           * counter of 1 (RFC 3686 4), which no message of this size can wrap. */
          rc = fm_rand_bytes(ivb, 12);
          ivb[12] = ivb[13] = ivb[14] = 0;
          ivb[15] = 1;
          if (rc == FM_OK) ar_hex(rt, "iv", ivb, 16);
        }
        uint8_t start[16];
        memcpy(start, ivb, 16);
        if (rc == FM_OK) {
          fm_aes_key ks;
          rc = fm_aes_key_init(&ks, key.p, key.n);
          if (rc == FM_OK) rc = crypt_once(mode, enc, &ks, ivb, in.p, out, len);
          fm_aes_key_wipe(&ks);
        }
        if (rc == FM_OK && mode == ACVP_CTR && !ctr_advanced_right(start, ivb, len)) {
          kat_fail(c, id, "the module's counter did not advance to IV + blocks mod 2^128");
          ok = 0;
        } else if (rc == FM_OK) {
          ar_hex(rt, out_name, out, len);
        }
      }
      if (rc != FM_OK) {
        kat_fail(c, id, "AES returned %s", fm_strerror(rc));
        ok = 0;
      }
      if (ok) {
        ar_add_test(c, rg, rt);
      } else {
        json_decref(rt);
      }
      ar_progress_tick(c);
      kat_arena_reset(c);
    }
    ar_add_group(groups, rg);
  }
  return 0;
}

/* ---- kat mode: the module's own CTR IVs ------------------------------------------------ */

/* check_ctr_iv: a CTR test answered under the module's own IV: decrypting the response's ct
 * under that IV must give the prompt's pt. */
static int check_ctr_iv(kat_ctx *c, json_t *pt_test, json_t *rt, const char *id) {
  kat_bytes key, pt, iv, ct;
  if (kj_hex(c, pt_test, "key", id, &key) < 0 || kj_hex(c, pt_test, "pt", id, &pt) < 0 ||
      kj_hex(c, rt, "iv", id, &iv) < 0 || kj_hex(c, rt, "ct", id, &ct) < 0) {
    return -1;
  }
  uint8_t *out = kat_alloc(c, ct.n);
  if (out == NULL) return -1;
  fm_aes_key ks;
  int r = iv.n == 16 ? fm_aes_key_init(&ks, key.p, key.n) : FM_ERR_LENGTH;
  if (r == FM_OK) r = fm_aes_ctr(&ks, FM_AES_CTR128, iv.p, ct.p, out, ct.n);
  fm_aes_key_wipe(&ks);
  if (r != FM_OK) {
    kat_fail(c, id, "checking the module's IV: AES-CTR returned %s", fm_strerror(r));
  } else {
    kat_compare(c, id, "pt (decrypted under the module's IV)", out, ct.n, pt.p, pt.n);
  }
  return 0;
}

int acvp_aes_check_ctr_iv(kat_ctx *c, const vec_call *v, json_t *pg, json_t *pt, json_t *et,
                          json_t *rt, const char *id) {
  (void)pg;
  (void)et;
  if (v->arg != ACVP_CTR || !json_object_get(rt, "iv") || pt == NULL || json_object_get(pt, "iv")) {
    return 0;
  }
  return check_ctr_iv(c, pt, rt, id) < 0 ? -1 : 1;
}
