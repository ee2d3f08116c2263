/* Key files of any algorithm the commands take (see anykey.h). */
#include "cli/anykey.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/io.h"
#include "cli/keyinfo.h"
#include "cli/options.h"

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
  if (key->rsa != NULL) (void)fm_rsa_key_free(key->rsa);
  if (key->ec != NULL) (void)fm_ec_key_free(key->ec);
  cli_wipe_free(key->priv, key->priv_len);
  cli_wipe_free(key->pub, key->pub_len);
  memset(key, 0, sizeof *key);
}

/* try_pq decodes an ML-KEM (|kem|) or ML-DSA key into |key|. */
static int try_pq(int kem, const uint8_t *in, size_t n, cli_key *key) {
  const size_t priv_cap = kem ? FM_MLKEM_MAX_DK_LEN : FM_MLDSA_87_PRIVATE_KEY_LEN;
  const size_t pub_cap = kem ? FM_MLKEM_MAX_EK_LEN : FM_MLDSA_87_PUBLIC_KEY_LEN;
  uint8_t *priv = malloc(priv_cap), *pub = malloc(pub_cap);
  if (priv == NULL || pub == NULL) {
    free(priv);
    free(pub);
    return FM_ERR_NO_MEMORY;
  }
  fm_key_format format = 0;
  fm_mlkem_param kp = 0;
  fm_mldsa_param dp = 0;
  int st = kem ? fm_mlkem_key_decode(in, n, &kp, &format, NULL, 0, priv, priv_cap, pub, pub_cap)
               : fm_mldsa_key_decode(in, n, &dp, &format, NULL, 0, priv, priv_cap, pub, pub_cap);
  if (st != FM_OK) {
    cli_wipe_free(priv, priv_cap);
    free(pub);
    return st;
  }
  key->type = kem ? CLI_KEY_MLKEM : CLI_KEY_MLDSA;
  key->kem = kp;
  key->dsa = dp;
  key->is_private = format != FM_KEY_SPKI_PUBLIC;
  size_t ek = 0, dk = 0;
  if (kem) {
    if (fm_mlkem_sizes(kp, &ek, &dk, NULL) != FM_OK) {
      cli_wipe_free(priv, priv_cap);
      free(pub);
      return FM_ERR_UNSUPPORTED;
    }
  } else {
    ek = fm_mldsa_public_key_len(dp);
    dk = fm_mldsa_private_key_len(dp);
  }
  key->pub = pub;
  key->pub_len = ek;
  if (key->is_private) {
    key->priv = priv;
    key->priv_len = dk;
    /* The buffer was priv_cap long: wipe its tail now, free it whole later. */
    fm_cleanse(priv + dk, priv_cap - dk);
  } else {
    cli_wipe_free(priv, priv_cap);
  }
  return FM_OK;
}

/* decode_any tries each decoder; the status is the first that is neither FM_ERR_UNSUPPORTED nor
 * FM_ERR_PARSE (a key of that algorithm the module refused), else FM_ERR_UNSUPPORTED when any
 * decoder recognised the structure, else FM_ERR_PARSE. */
static int decode_any(const uint8_t *in, size_t n, cli_key *key) {
  int seen_unsupported = 0, st;
  st = fm_rsa_key_decode(in, n, &key->rsa);
  if (st == FM_OK) {
    key->type = CLI_KEY_RSA;
    return fm_rsa_key_is_private(key->rsa, &key->is_private);
  }
  if (st != FM_ERR_UNSUPPORTED && st != FM_ERR_PARSE) return st;
  seen_unsupported |= st == FM_ERR_UNSUPPORTED;
  st = fm_ec_key_decode(in, n, &key->ec);
  if (st == FM_OK) {
    key->type = CLI_KEY_EC;
    if ((st = fm_ec_key_curve(key->ec, &key->curve)) != FM_OK) return st;
    uint8_t d[FM_EC_MAX_BYTES];
    size_t d_len = 0;
    key->is_private = fm_ec_key_export_private(key->ec, d, sizeof d, &d_len) == FM_OK;
    fm_cleanse(d, sizeof d);
    return FM_OK;
  }
  if (st != FM_ERR_UNSUPPORTED && st != FM_ERR_PARSE) return st;
  seen_unsupported |= st == FM_ERR_UNSUPPORTED;
  for (int kem = 1; kem >= 0; kem--) {
    st = try_pq(kem, in, n, key);
    if (st == FM_OK) return FM_OK;
    if (st != FM_ERR_UNSUPPORTED && st != FM_ERR_PARSE) return st;
    seen_unsupported |= st == FM_ERR_UNSUPPORTED;
  }
  return seen_unsupported ? FM_ERR_UNSUPPORTED : FM_ERR_PARSE;
}

int cli_key_load(const char *cmd, const char *path, cli_key_type want, cli_key *key) {
  memset(key, 0, sizeof *key);
  uint8_t *buf = NULL;
  size_t n = 0;
  if (cli_read_all(path, &buf, &n) != 0) {
    fprintf(stderr, "fipsmod %s: cannot read %s: %s\n", cmd, path, strerror(errno ? errno : EIO));
    return CLI_EXIT_USAGE;
  }
  const int st = decode_any(buf, n, key);
  char what[200];
  const char *want_name = want != 0 ? cli_key_type_name(want) : NULL;
  const int described = st != FM_OK &&
                        (st == FM_ERR_UNSUPPORTED || st == FM_ERR_BAD_KEY || st == FM_ERR_PARSE) &&
                        cli_key_describe_for(buf, n, want_name, what, sizeof what);
  cli_wipe_free(buf, n);
  if (st != FM_OK) cli_key_free(key);
  if (st == FM_ERR_NOT_OPERATIONAL || st == FM_ERR_KEYGEN) {
    /* The module refused, not the file: say why, and exit as every refusal does. */
    cli_report_status(cmd, st);
    return CLI_EXIT_FAILED;
  }
  if (described) {
    fprintf(stderr, "fipsmod %s: %s: %s (%s)\n", cmd, path, what, fm_strerror(st));
    return CLI_EXIT_USAGE;
  }
  if (st != FM_OK) {
    fprintf(stderr, "fipsmod %s: %s: %s\n", cmd, path, fm_strerror(st));
    return CLI_EXIT_USAGE;
  }
  if (want != 0 && key->type != want) {
    cli_key_what(key, what, sizeof what);
    fprintf(stderr, "fipsmod %s: %s: %s, not %s (%s)\n", cmd, path, what, want_name,
            fm_strerror(FM_ERR_UNSUPPORTED));
    cli_key_free(key);
    return CLI_EXIT_USAGE;
  }
  return 0;
}
