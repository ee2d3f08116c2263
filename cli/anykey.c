/* Key files of any algorithm the commands take (see anykey.h). */
#include "cli/anykey.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/io.h"
#include "cli/keyinfo.h"
#include "cli/options.h"
#include "cli/pass.h"

const char *cli_curve_name(fm_ec_curve curve) {
  switch (curve) {
    case FM_EC_P224: return "P-224";
    case FM_EC_P256: return "P-256";
    case FM_EC_P384: return "P-384";
    case FM_EC_P521: return "P-521";
  }
  return "an unknown curve";
}

int cli_curve_from_name(const char *name, fm_ec_curve *curve) {
  static const struct {
    const char *a, *b;
    fm_ec_curve c;
  } k[] = {{"P-224", "secp224r1", FM_EC_P224},
           {"P-256", "prime256v1", FM_EC_P256},
           {"P-384", "secp384r1", FM_EC_P384},
           {"P-521", "secp521r1", FM_EC_P521}};
  for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
    if (strcasecmp(name, k[i].a) == 0 || strcasecmp(name, k[i].b) == 0) {
      *curve = k[i].c;
      return 0;
    }
  }
  return -1;
}

const char *cli_key_type_name(cli_key_type type) {
  switch (type) {
    case CLI_KEY_RSA: return "an RSA key";
    case CLI_KEY_EC: return "an EC key";
    case CLI_KEY_MLKEM: return "an ML-KEM key";
    case CLI_KEY_MLDSA: return "an ML-DSA key";
  }
  return "a key";
}

void cli_key_what(const cli_key *key, char *out, size_t cap) {
  size_t bits = 0;
  switch (key->type) {
    case CLI_KEY_RSA:
      if (fm_rsa_key_bits(key->rsa, &bits) == FM_OK)
        snprintf(out, cap, "an RSA key (%zu bits)", bits);
      else
        snprintf(out, cap, "an RSA key");
      return;
    case CLI_KEY_EC: snprintf(out, cap, "an EC key (%s)", cli_curve_name(key->curve)); return;
    case CLI_KEY_MLKEM: snprintf(out, cap, "an ML-KEM-%d key", (int)key->kem); return;
    case CLI_KEY_MLDSA: snprintf(out, cap, "an ML-DSA-%d key", (int)key->dsa); return;
  }
  snprintf(out, cap, "a key");
}

void cli_key_free(cli_key *key) {
  if (key->handle != NULL) {
    /* The handle owns the keys and buffers the other fields point to. */
    (void)fm_key_free(key->handle);
  } else {
    if (key->rsa != NULL) (void)fm_rsa_key_free(key->rsa);
    if (key->ec != NULL) (void)fm_ec_key_free(key->ec);
    cli_wipe_free(key->priv, key->priv_len);
    cli_wipe_free(key->pub, key->pub_len);
  }
  memset(key, 0, sizeof *key);
}

/* from_view fills |key| from the loaded handle |h| (which it then owns). */
static int from_view(fm_key *h, cli_key *key) {
  fm_key_view v;
  key->handle = h;
  int st = fm_key_get(h, &v);
  if (st != FM_OK) return st;
  key->is_private = v.is_private;
  /* The handle's keys are const for its readers; cli_key keeps them for the signing calls,
   * which take const pointers, and never frees them itself. */
  key->rsa = (fm_rsa_key *)(uintptr_t)v.rsa;
  key->ec = (fm_ec_key *)(uintptr_t)v.ec;
  key->kem = v.mlkem;
  key->dsa = v.mldsa;
  key->priv = (uint8_t *)(uintptr_t)v.priv;
  key->priv_len = v.priv_len;
  key->pub = (uint8_t *)(uintptr_t)v.pub;
  key->pub_len = v.pub_len;
  switch (v.type) {
    case FM_KEY_TYPE_RSA: key->type = CLI_KEY_RSA; return FM_OK;
    case FM_KEY_TYPE_EC: key->type = CLI_KEY_EC; return fm_ec_key_curve(v.ec, &key->curve);
    case FM_KEY_TYPE_MLKEM: key->type = CLI_KEY_MLKEM; return FM_OK;
    case FM_KEY_TYPE_MLDSA: key->type = CLI_KEY_MLDSA; return FM_OK;
    default: return FM_ERR_UNSUPPORTED;
  }
}

/* key_type_text names an algorithm fm_key_decode found but the module does not take. */
static const char *key_type_text(fm_key_type t) {
  switch (t) {
    case FM_KEY_TYPE_RSA_PSS: return "an RSASSA-PSS key (id-RSASSA-PSS)";
    case FM_KEY_TYPE_ED25519: return "an Ed25519 key";
    case FM_KEY_TYPE_ED448: return "an Ed448 key";
    case FM_KEY_TYPE_X25519: return "an X25519 key";
    case FM_KEY_TYPE_X448: return "an X448 key";
    case FM_KEY_TYPE_DSA: return "a DSA key";
    case FM_KEY_TYPE_DH: return "a Diffie-Hellman key";
    default: return NULL;
  }
}

/* pbe_text names an encryption scheme of an EncryptedPrivateKeyInfo the module does not read. */
static const char *pbe_text(fm_pbe_scheme s) {
  switch (s) {
    case FM_PBE_PBES1: return "PBES1 (PKCS#5 v1.5: DES or RC2 with MD2, MD5 or SHA-1)";
    case FM_PBE_PKCS12: return "a PKCS#12 scheme (pbeWithSHAAnd3-KeyTripleDES-CBC, ...)";
    case FM_PBE_PBES2_SCRYPT: return "PBES2 with scrypt";
    case FM_PBE_PBES2_OTHER_KDF: return "PBES2 with an unknown key derivation function";
    case FM_PBE_PBES2_PBKDF2_SHA1: return "PBES2 with PBKDF2-hmacWithSHA1";
    case FM_PBE_PBES2_PBKDF2_OTHER_PRF: return "PBES2 with PBKDF2 and an unknown PRF";
    case FM_PBE_PBES2_DES_EDE3_CBC: return "PBES2 with des-ede3-cbc";
    case FM_PBE_PBES2_OTHER_CIPHER: return "PBES2 with a cipher other than AES-CBC";
    case FM_PBE_OTHER: return "an unknown encryption algorithm";
    default: return NULL;
  }
}

/* explain says on stderr why |path| (|buf|, |n| bytes) was refused with |st|, naming what it
 * holds; returns the exit status. */
static int explain(const char *cmd, const char *path, const uint8_t *buf, size_t n, int st,
                   fm_key_type found, const char *want_name, int had_pass) {
  char what[200];
  if (st == FM_ERR_NOT_OPERATIONAL || st == FM_ERR_KEYGEN) {
    /* The module refused, not the file: say why, and exit as every refusal does. */
    cli_report_status(cmd, st);
    return CLI_EXIT_FAILED;
  }
  if (st == FM_ERR_PASSPHRASE) {
    fprintf(stderr,
            "fipsmod %s: %s: an encrypted PKCS#8 key, and no passphrase: give it with --passin "
            "(%s)\n",
            cmd, path, fm_strerror(st));
    return CLI_EXIT_USAGE;
  }
  if (st == FM_ERR_DECRYPT) {
    fprintf(stderr, "fipsmod %s: %s: an encrypted PKCS#8 key that %s (%s)\n", cmd, path,
            had_pass ? "this passphrase does not open, or a corrupt one" : "cannot be decrypted",
            fm_strerror(st));
    return CLI_EXIT_USAGE;
  }
  fm_pkcs8_params pbe;
  size_t cap = 0;
  const int pst = fm_pkcs8_decrypt(buf, n, NULL, 0, NULL, 0, &cap, &pbe);
  const char *scheme = pst == FM_ERR_UNSUPPORTED ? pbe_text(pbe.scheme) : NULL;
  if (scheme != NULL) {
    fprintf(stderr,
            "fipsmod %s: %s: an encrypted PKCS#8 key with %s; this module reads PBES2 with "
            "PBKDF2-HMAC-SHA-2 and AES-CBC (openssl pkcs8 -topk8 -v2 aes-256-cbc rewrites it) "
            "(%s)\n",
            cmd, path, scheme, fm_strerror(st));
    return CLI_EXIT_USAGE;
  }
  if (pst != FM_OK && pst != FM_ERR_UNSUPPORTED && pst != FM_ERR_PARSE) {
    /* An EncryptedPrivateKeyInfo whose parameters the module refuses (an iteration count over
     * the bound, a salt or IV of a bad length). */
    fprintf(stderr, "fipsmod %s: %s: an encrypted PKCS#8 key the module refuses: %s\n", cmd,
            path, fm_strerror(pst));
    return CLI_EXIT_USAGE;
  }
  const char *type = key_type_text(found);
  if (pst == FM_OK) {
    /* The file decrypted; the key inside is what was refused. */
    fprintf(stderr, "fipsmod %s: %s: an encrypted PKCS#8 file holding %s (%s)\n", cmd, path,
            type != NULL ? type : "a key the module refuses", fm_strerror(st));
    return CLI_EXIT_USAGE;
  }
  if ((st == FM_ERR_UNSUPPORTED || st == FM_ERR_BAD_KEY || st == FM_ERR_PARSE) &&
      cli_key_describe_for(buf, n, want_name, what, sizeof what)) {
    fprintf(stderr, "fipsmod %s: %s: %s (%s)\n", cmd, path, what, fm_strerror(st));
    return CLI_EXIT_USAGE;
  }
  if (type != NULL) {
    fprintf(stderr, "fipsmod %s: %s: %s, which this module does not take (%s)\n", cmd, path,
            type, fm_strerror(st));
    return CLI_EXIT_USAGE;
  }
  fprintf(stderr, "fipsmod %s: %s: %s\n", cmd, path, fm_strerror(st));
  return CLI_EXIT_USAGE;
}

int cli_key_load(const char *cmd, const char *path, cli_key_type want, const char *passin,
                 cli_key *key) {
  return cli_key_load_flags(cmd, path, want, passin, 0, key);
}

int cli_key_load_flags(const char *cmd, const char *path, cli_key_type want, const char *passin,
                       unsigned flags, cli_key *key) {
  memset(key, 0, sizeof *key);
  uint8_t *buf = NULL, *pass = NULL;
  size_t n = 0, pass_len = 0;
  if (passin != NULL) {
    const int rc = cli_pass_read(cmd, "--passin", passin, &pass, &pass_len);
    if (rc != 0) return rc;
  }
  if (cli_read_all(path, &buf, &n) != 0) {
    fprintf(stderr, "fipsmod %s: cannot read %s: %s\n", cmd, path, strerror(errno ? errno : EIO));
    cli_pass_free(pass, pass_len);
    return CLI_EXIT_USAGE;
  }
  fm_key *h = NULL;
  fm_key_type found = FM_KEY_TYPE_NONE;
  int st = fm_key_decode_ex(buf, n, pass, pass_len, flags, &h, &found);
  cli_pass_free(pass, pass_len);
  if (st == FM_OK) st = from_view(h, key);
  const char *want_name = want != 0 ? cli_key_type_name(want) : NULL;
  if (st != FM_OK) {
    const int rc = explain(cmd, path, buf, n, st, found, want_name, passin != NULL);
    cli_wipe_free(buf, n);
    if (h != NULL && key->handle == NULL) (void)fm_key_free(h);
    cli_key_free(key);
    return rc;
  }
  cli_wipe_free(buf, n);
  if (want != 0 && key->type != want) {
    char what[200];
    cli_key_what(key, what, sizeof what);
    fprintf(stderr, "fipsmod %s: %s: %s, not %s (%s)\n", cmd, path, what, want_name,
            fm_strerror(FM_ERR_UNSUPPORTED));
    cli_key_free(key);
    return CLI_EXIT_USAGE;
  }
  return 0;
}
