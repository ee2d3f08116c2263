/* `fipsmod keygen`, `pubkey`, `sign` and `verify`: RSA, EC, ML-KEM and ML-DSA keys in PKCS#8,
 * PKCS#1, SEC1 and SPKI files (cli/anykey.c finds the type) and signatures over files (RSA PSS
 * and PKCS#1 v1.5, ECDSA in DER, pure ML-DSA), through the public API.
 *
 * Options take one dash or two (-out or --out), as openssl users type them. Exit status: 0 on
 * success (verify: the signature is valid), 1 when the operation failed (verify: the signature is
 * not valid), 2 on a usage error or an unreadable file. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/anykey.h"
#include "cli/commands.h"
#include "cli/io.h"
#include "cli/keyinfo.h"
#include "cli/options.h"
#include "cli/pass.h"
#include "fipsmod/fipsmod.h"

/* emit writes |n| encoded bytes to |path| (standard output when NULL) as |cmd|'s output, a
 * private-key file (mode 0600, replaced by a rename) when |private_file|, then wipes them. */
static int emit(const char *cmd, uint8_t *out, size_t n, int private_file, const char *path) {
  int rc = cli_write_all(path, out, n, private_file);
  cli_wipe_free(out, n);
  if (rc != 0) {
    fprintf(stderr, "fipsmod %s: cannot write %s\n", cmd, path ? path : "standard output");
    return 2;
  }
  return 0;
}

/* encode_key encodes |key| (or, for ML-KEM and ML-DSA, the key material |raw|: the seed for a
 * private format, the public key for SPKI) as |format| (PEM unless |der|) into a new buffer. */
static int encode_key(const cli_key *key, const uint8_t *raw, size_t raw_len, fm_key_format format,
                      int der, uint8_t **out, size_t *out_len) {
  const fm_key_encoding enc = der ? FM_KEY_DER : FM_KEY_PEM;
  size_t need = 0;
  int st = FM_ERR_BAD_ARGUMENT;
  *out = NULL;
  *out_len = 0;
  for (int pass = 0; pass < 2; pass++) {
    uint8_t *buf = pass == 0 ? NULL : *out;
    const size_t cap = pass == 0 ? 0 : need;
    switch (key->type) {
      case CLI_KEY_RSA: st = fm_rsa_key_encode(key->rsa, format, enc, buf, cap, &need); break;
      case CLI_KEY_EC: st = fm_ec_key_encode(key->ec, format, enc, buf, cap, &need); break;
      case CLI_KEY_MLKEM:
        st = fm_mlkem_key_encode(key->kem, format, raw, raw_len, enc, buf, cap, &need);
        break;
      case CLI_KEY_MLDSA:
        st = fm_mldsa_key_encode(key->dsa, format, raw, raw_len, enc, buf, cap, &need);
        break;
    }
    if (st != FM_OK) break;
    if (pass == 0 && (*out = malloc(need ? need : 1)) == NULL) st = FM_ERR_NO_MEMORY;
    if (st != FM_OK) break;
  }
  if (st != FM_OK) {
    cli_wipe_free(*out, need);
    *out = NULL;
    return st;
  }
  *out_len = need;
  return FM_OK;
}

/* How keygen encrypts the key it writes (--encrypt): pass NULL for a plain key. */
struct key_crypt {
  uint8_t *pass;
  size_t pass_len;
  uint64_t iterations; /* 0: the module's default */
};

/* encrypt_key replaces the PKCS#8 DER in *out (*n bytes) by its encryption (PEM unless |der|),
 * wiping the plain one. */
static int encrypt_key(const struct key_crypt *c, int der, uint8_t **out, size_t *n) {
  const fm_key_encoding enc = der ? FM_KEY_DER : FM_KEY_PEM;
  fm_pkcs8_params p = {0};
  p.iterations = c->iterations;
  size_t need = 0;
  int st = fm_pkcs8_encrypt(*out, *n, c->pass, c->pass_len, &p, enc, NULL, 0, &need);
  uint8_t *e = st == FM_OK ? malloc(need) : NULL;
  if (st == FM_OK && e == NULL) st = FM_ERR_NO_MEMORY;
  if (st == FM_OK) st = fm_pkcs8_encrypt(*out, *n, c->pass, c->pass_len, &p, enc, e, need, &need);
  cli_wipe_free(*out, *n);
  *out = NULL;
  *n = 0;
  if (st != FM_OK) {
    free(e);
    return st;
  }
  *out = e;
  *n = need;
  return FM_OK;
}

/* save_key writes |key| as encode_key encodes it to |path|, encrypted when |crypt| has a
 * passphrase: 1 when encoding failed (the reason is printed), 2 when the file cannot be
 * written. */
static int save_key(const char *cmd, const cli_key *key, const uint8_t *raw, size_t raw_len,
                    fm_key_format format, int der, const char *path,
                    const struct key_crypt *crypt) {
  uint8_t *out = NULL;
  size_t n = 0;
  const int encrypt = crypt != NULL && crypt->pass != NULL;
  int st = encode_key(key, raw, raw_len, format, der || encrypt, &out, &n);
  if (st == FM_OK && encrypt) st = encrypt_key(crypt, der, &out, &n);
  if (st != FM_OK) {
    cli_report_status(cmd, st);
    return 1;
  }
  const int private_file = format != FM_KEY_PKCS1_PUBLIC && format != FM_KEY_SPKI_PUBLIC;
  return emit(cmd, out, n, private_file, path);
}

static const char k_keygen_usage[] =
    "usage: fipsmod keygen (--rsa BITS|--ec CURVE|--ml-kem N|--ml-dsa N) [--out FILE] [--pkcs1]\n"
    "                      [--der] [--encrypt --passout SRC [--iter N]]\n"
    "  Generates a key and writes it as PKCS#8 PEM (--der: DER) to FILE (mode 0600, replaced by\n"
    "  a rename) or standard output:\n"
    "    --rsa BITS   an RSA key, BITS = 2048, 3072 or 4096, e = 65537 (--pkcs1: PKCS#1\n"
    "                 RSAPrivateKey);\n"
    "    --ec CURVE   an EC key, CURVE = P-256, P-384, P-521 or P-224 (or prime256v1, ...);\n"
    "    --ml-kem N   an ML-KEM key, N = 512, 768 or 1024, in the seed form;\n"
    "    --ml-dsa N   an ML-DSA key, N = 44, 65 or 87, in the seed form.\n"
    "  --encrypt writes encrypted PKCS#8 (\"ENCRYPTED PRIVATE KEY\": PBES2, PBKDF2-HMAC-SHA256\n"
    "  with a 16-byte random salt and N iterations, default 600000, and AES-256-CBC), with the\n"
    "  passphrase --passout names, as openssl genpkey -aes-256-cbc writes it.\n" CLI_PASS_LINES
    "  Exit status: 0 written, 1 generation failed or the module is not\n"
    "  operational (the reason is printed), 2 usage error or unwritable file.\n";

/* keygen_pq makes an ML-KEM (|kem|) or ML-DSA key of parameter |n| and writes it in seed form. */
static int keygen_pq(int kem, int n, int der, const char *out, const struct key_crypt *crypt) {
  cli_key key = {0};
  key.type = kem ? CLI_KEY_MLKEM : CLI_KEY_MLDSA;
  key.kem = (fm_mlkem_param)n;
  key.dsa = (fm_mldsa_param)n;
  size_t pub_len = 0, priv_len = 0;
  if (kem) {
    if (fm_mlkem_sizes(key.kem, &pub_len, &priv_len, NULL) != FM_OK) return 2;
  } else {
    pub_len = fm_mldsa_public_key_len(key.dsa);
    priv_len = fm_mldsa_private_key_len(key.dsa);
  }
  uint8_t seed[FM_MLKEM_SEED_LEN];
  const size_t seed_len = kem ? FM_MLKEM_SEED_LEN : FM_MLDSA_SEED_LEN;
  uint8_t *pub = malloc(pub_len), *priv = malloc(priv_len);
  int st = pub == NULL || priv == NULL ? FM_ERR_NO_MEMORY : FM_OK;
  if (st == FM_OK)
    st = kem ? fm_mlkem_keygen(key.kem, pub, pub_len, priv, priv_len, seed, seed_len)
             : fm_mldsa_keygen(key.dsa, pub, pub_len, priv, priv_len, seed);
  cli_wipe_free(priv, priv_len);
  free(pub);
  int rc = 1;
  if (st != FM_OK)
    cli_report_status("keygen", st);
  else
    rc = save_key("keygen", &key, seed, seed_len, FM_KEY_PKCS8_PRIVATE, der, out, crypt);
  fm_cleanse(seed, sizeof seed);
  return rc;
}

/* keygen_run makes and writes the key the options ask for. */
static int keygen_run(const char *bits, const char *curve, const char *kem, const char *dsa,
                      int pkcs1, int der, const char *out, const struct key_crypt *crypt);

int cmd_keygen(int argc, char **argv) {
  if (cli_wants_help(argc, argv)) return cli_print_help(k_keygen_usage);
  static const char *const valued[] = {"rsa", "ec", "ml-kem", "ml-dsa", "out", "passout", "iter",
                                       NULL};
  const char *bits = NULL, *curve = NULL, *kem = NULL, *dsa = NULL, *out = NULL;
  const char *passout = NULL, *iter = NULL;
  int pkcs1 = 0, der = 0, encrypt = 0;
  for (int i = 1; i < argc; i++) {
    if (cli_opt_is(argv[i], "rsa") && i + 1 < argc) {
      bits = argv[++i];
    } else if (cli_opt_is(argv[i], "ec") && i + 1 < argc) {
      curve = argv[++i];
    } else if (cli_opt_is(argv[i], "ml-kem") && i + 1 < argc) {
      kem = argv[++i];
    } else if (cli_opt_is(argv[i], "ml-dsa") && i + 1 < argc) {
      dsa = argv[++i];
    } else if (cli_opt_is(argv[i], "out") && i + 1 < argc) {
      out = argv[++i];
    } else if (cli_opt_is(argv[i], "pkcs1")) {
      pkcs1 = 1;
    } else if (cli_opt_is(argv[i], "der")) {
      der = 1;
    } else if (cli_opt_is(argv[i], "encrypt")) {
      encrypt = 1;
    } else if (cli_opt_is(argv[i], "passout") && i + 1 < argc) {
      passout = argv[++i];
    } else if (cli_opt_is(argv[i], "iter") && i + 1 < argc) {
      iter = argv[++i];
    } else {
      return cli_bad_arg("keygen", k_keygen_usage, argv[i], valued);
    }
  }
  const int kinds = (bits != NULL) + (curve != NULL) + (kem != NULL) + (dsa != NULL);
  if (kinds == 0)
    return cli_bad_usage("keygen", k_keygen_usage,
                         "one of --rsa BITS, --ec CURVE, --ml-kem N or --ml-dsa N is required");
  if (kinds > 1)
    return cli_bad_usage("keygen", k_keygen_usage,
                         "--rsa, --ec, --ml-kem and --ml-dsa exclude each other");
  if (pkcs1 && bits == NULL) return cli_bad_usage("keygen", k_keygen_usage, "--pkcs1 is for --rsa");
  if (encrypt && passout == NULL)
    return cli_bad_usage("keygen", k_keygen_usage, "--encrypt needs --passout SRC");
  if (!encrypt && (passout != NULL || iter != NULL))
    return cli_bad_usage("keygen", k_keygen_usage, "--passout and --iter are for --encrypt");
  if (encrypt && pkcs1)
    return cli_bad_usage("keygen", k_keygen_usage,
                         "--encrypt writes PKCS#8: it excludes --pkcs1");
  struct key_crypt crypt = {NULL, 0, 0};
  if (iter != NULL) {
    char *end = NULL;
    const unsigned long long v = strtoull(iter, &end, 10);
    if (iter[0] < '1' || iter[0] > '9' || *end != '\0' || v > FM_PKCS8_MAX_ITERATIONS)
      return cli_bad_usage("keygen", k_keygen_usage, "--iter takes 1 to %u, not %s",
                           (unsigned)FM_PKCS8_MAX_ITERATIONS, iter);
    crypt.iterations = v;
  }
  if (encrypt) {
    const int rc = cli_pass_read("keygen", "--passout", passout, &crypt.pass, &crypt.pass_len);
    if (rc != 0) return rc;
    if (crypt.pass_len == 0) {
      cli_pass_free(crypt.pass, crypt.pass_len);
      fprintf(stderr, "fipsmod keygen: --passout %s: an empty passphrase protects nothing\n",
              strncmp(passout, "pass:", 5) == 0 ? "pass:" : passout);
      return CLI_EXIT_USAGE;
    }
  }
  const int rc = keygen_run(bits, curve, kem, dsa, pkcs1, der, out, &crypt);
  cli_pass_free(crypt.pass, crypt.pass_len);
  return rc;
}

static int keygen_run(const char *bits, const char *curve, const char *kem, const char *dsa,
                      int pkcs1, int der, const char *out, const struct key_crypt *crypt) {
  if (curve != NULL) {
    cli_key key = {0};
    key.type = CLI_KEY_EC;
    if (cli_curve_from_name(curve, &key.curve) != 0)
      return cli_bad_usage("keygen", k_keygen_usage,
                           "unsupported curve %s (P-256, P-384, P-521 or P-224)", curve);
    int st = fm_ec_key_generate(key.curve, &key.ec);
    if (st != FM_OK) {
      cli_report_status("keygen", st);
      return 1;
    }
    int rc = save_key("keygen", &key, NULL, 0, FM_KEY_PKCS8_PRIVATE, der, out, crypt);
    cli_key_free(&key);
    return rc;
  }
  if (kem != NULL) {
    if (strcmp(kem, "512") != 0 && strcmp(kem, "768") != 0 && strcmp(kem, "1024") != 0)
      return cli_bad_usage("keygen", k_keygen_usage,
                           "unsupported ML-KEM parameter set %s (512, 768 or 1024)", kem);
    return keygen_pq(1, atoi(kem), der, out, crypt);
  }
  if (dsa != NULL) {
    if (strcmp(dsa, "44") != 0 && strcmp(dsa, "65") != 0 && strcmp(dsa, "87") != 0)
      return cli_bad_usage("keygen", k_keygen_usage,
                           "unsupported ML-DSA parameter set %s (44, 65 or 87)", dsa);
    return keygen_pq(0, atoi(dsa), der, out, crypt);
  }
  if (strcmp(bits, "2048") != 0 && strcmp(bits, "3072") != 0 && strcmp(bits, "4096") != 0)
    return cli_bad_usage("keygen", k_keygen_usage, "unsupported RSA size %s (2048, 3072 or 4096)",
                         bits);
  cli_key key = {0};
  key.type = CLI_KEY_RSA;
  int st = fm_rsa_key_generate((unsigned)atoi(bits), &key.rsa);
  if (st != FM_OK) {
    cli_report_status("keygen", st);
    return 1;
  }
  int rc = save_key("keygen", &key, NULL, 0, pkcs1 ? FM_KEY_PKCS1_PRIVATE : FM_KEY_PKCS8_PRIVATE,
                    der, out, crypt);
  cli_key_free(&key);
  return rc;
}

static const char k_pubkey_usage[] =
    "usage: fipsmod pubkey KEY [--passin SRC] [--out FILE] [--pkcs1] [--der]\n"
    "  Writes the public key of KEY (an RSA, EC, ML-KEM or ML-DSA key; PEM or DER; PKCS#1, SEC1,\n"
    "  PKCS#8 or SPKI) as SubjectPublicKeyInfo PEM (--pkcs1: PKCS#1 RSAPublicKey, RSA only;\n"
    "  --der: DER) to FILE or standard output. --passin: the passphrase of an encrypted PKCS#8\n"
    "  KEY.\n" CLI_PASS_LINES
    "  Exit status: 0 written, 1 failed or the module is not operational (the\n"
    "  reason is printed), 2 usage error or unreadable key.\n";

int cmd_pubkey(int argc, char **argv) {
  if (cli_wants_help(argc, argv)) return cli_print_help(k_pubkey_usage);
  static const char *const valued[] = {"out", "passin", NULL};
  const char *in = NULL, *out = NULL, *passin = NULL;
  int pkcs1 = 0, der = 0;
  for (int i = 1; i < argc; i++) {
    if (cli_opt_is(argv[i], "out") && i + 1 < argc) {
      out = argv[++i];
    } else if (cli_opt_is(argv[i], "passin") && i + 1 < argc) {
      passin = argv[++i];
    } else if (cli_opt_is(argv[i], "pkcs1")) {
      pkcs1 = 1;
    } else if (cli_opt_is(argv[i], "der")) {
      der = 1;
    } else if (in == NULL && (argv[i][0] != '-' || strcmp(argv[i], "-") == 0)) {
      in = argv[i];
    } else {
      return cli_bad_arg("pubkey", k_pubkey_usage, argv[i], valued);
    }
  }
  if (in == NULL) return cli_bad_usage("pubkey", k_pubkey_usage, "no KEY file given");
  cli_key key;
  int rc = cli_key_load("pubkey", in, pkcs1 ? CLI_KEY_RSA : 0, passin, &key);
  if (rc != 0) return rc;
  rc = save_key("pubkey", &key, key.pub, key.pub_len,
                pkcs1 ? FM_KEY_PKCS1_PUBLIC : FM_KEY_SPKI_PUBLIC, der, out, NULL);
  cli_key_free(&key);
  return rc;
}

/* How a PSS salt length is given (--saltlen, as openssl's rsa_pss_saltlen). */
enum salt_kind {
  SALT_AUTO,   /* verify: any length the encoding allows (FM_RSA_PSS_SALT_LEN_ANY) */
  SALT_DIGEST, /* as long as the hash: sign's default */
  SALT_MAX,    /* verify: the longest that fits, emLen - hLen - 2 (RFC 8017 9.1.1 step 3) */
  SALT_BYTES,  /* exactly salt_bytes bytes */
};

/* The options sign and verify share. */
struct sig_opts {
  const char *key, *hash_name, *sig, *out, *file, *saltlen, *context, *passin;
  int pss, pkcs1, ecdsa, mldsa, deterministic;
  int validate_key; /* sign: fm_rsa_key_validate before signing */
  int hex, base64; /* sign: write the signature as one line of hex or base64 */
  fm_hash_alg hash;
  size_t hash_len;
  enum salt_kind salt;
  size_t salt_bytes;
  uint8_t ctx[FM_MLDSA_MAX_CONTEXT_LEN]; /* --context, decoded */
  size_t ctx_len;
};

static const char k_sign_usage[] =
    "usage: fipsmod sign --key KEY [--passin SRC] (--pss [--saltlen N|digest]|--pkcs1|--ecdsa)\n"
    "                    --hash H [--validate-key] [--out SIG] [--hex|--base64] FILE\n"
    "       fipsmod sign --key KEY [--passin SRC] --ml-dsa [--context HEX] [--deterministic]\n"
    "                    [--out SIG] [--hex|--base64] FILE\n"
    "  Signs FILE (\"-\": standard input) with the private KEY (PEM or DER; PKCS#1, SEC1 or\n"
    "  PKCS#8): RSASSA-PSS with MGF1 and a fresh salt as long as the hash (--saltlen N: N bytes,\n"
    "  at most the hash's length, FIPS 186-5), RSASSA-PKCS1-v1_5, ECDSA (FIPS 186-5; the\n"
    "  signature in DER, as openssl dgst -sign writes it) or pure ML-DSA (FIPS 204; hedged\n"
    "  unless --deterministic; --context: up to 255 bytes in hex, empty by default).\n" CLI_HASH_LINE
    "  Writes the raw signature (--hex: one line of lower-case hex; --base64: one line of RFC\n"
    "  4648 base64) to SIG or standard output. --passin: the passphrase of an encrypted PKCS#8\n"
    "  KEY.\n"
    "  An RSA KEY is checked at load for consistency (every check of SP 800-56B Rev. 2\n"
    "  6.4.1.2.1 but the primality of p and q, which the key's generation vouches for: see the\n"
    "  security policy); --validate-key also tests p and q for primality (Miller-Rabin) first.\n"
    CLI_PASS_LINES
    "  Exit status: 0 signed, 1 signing failed or the module is not\n"
    "  operational (the reason is printed), 2 usage error or unreadable input.\n";

static const char k_verify_usage[] =
    "usage: fipsmod verify --key KEY [--passin SRC]\n"
    "                      (--pss [--saltlen N|digest|max|auto]|--pkcs1|--ecdsa) --hash H\n"
    "                      --sig SIG FILE\n"
    "       fipsmod verify --key KEY [--passin SRC] --ml-dsa [--context HEX] --sig SIG FILE\n"
    "  Verifies the signature SIG (raw or DER, or hex or base64 text as sign --hex/--base64\n"
    "  writes it) over FILE (\"-\": standard input) with KEY (a private or a public key, PEM or\n"
    "  DER): RSA PSS or PKCS#1 v1.5, ECDSA (a DER signature, as openssl dgst -sign writes it),\n"
    "  or pure ML-DSA under the context --context (hex, up to 255 bytes; empty by default).\n"
    CLI_HASH_LINE
    "  PSS takes a salt of any length (--saltlen auto, the default, as openssl's), or exactly N\n"
    "  bytes, the hash's length (digest) or the longest that fits (max). A valid signature\n"
    "  whose salt is longer than the hash is not an approved verification (FIPS 186-5): verify\n"
    "  says so on stderr. --passin: the passphrase of an encrypted PKCS#8 KEY.\n" CLI_PASS_LINES
    "  Exit status: 0 the signature is valid; 1 it is not, or the module is not operational (the\n"
    "  reason is printed); 2 usage error or unreadable input.\n";

/* parse_saltlen reads --saltlen's value: N (decimal bytes), digest, max or auto. */
static int parse_saltlen(const char *s, struct sig_opts *o) {
  if (strcmp(s, "auto") == 0) {
    o->salt = SALT_AUTO;
  } else if (strcmp(s, "digest") == 0) {
    o->salt = SALT_DIGEST;
  } else if (strcmp(s, "max") == 0) {
    o->salt = SALT_MAX;
  } else {
    if (*s < '0' || *s > '9' || strlen(s) > 5) return -1;
    char *end;
    unsigned long v = strtoul(s, &end, 10);
    if (*end != '\0') return -1;
    o->salt = SALT_BYTES;
    o->salt_bytes = (size_t)v;
  }
  return 0;
}

/* parse_sig_opts reads sign's (|verify| 0) or verify's options; on a mistake it says which
 * (cli_bad_usage) and returns CLI_EXIT_USAGE. */
static int parse_sig_opts(int argc, char **argv, int verify, struct sig_opts *o) {
  const char *cmd = verify ? "verify" : "sign";
  const char *usage = verify ? k_verify_usage : k_sign_usage;
  static const char *const valued_sign[] = {"key",     "hash",    "out",
                                            "saltlen", "context", "passin", NULL};
  static const char *const valued_verify[] = {"key",     "hash",    "sig",
                                              "saltlen", "context", "passin", NULL};
  memset(o, 0, sizeof *o);
  o->salt = verify ? SALT_AUTO : SALT_DIGEST;
  for (int i = 1; i < argc; i++) {
    if (cli_opt_is(argv[i], "key") && i + 1 < argc) {
      o->key = argv[++i];
    } else if (cli_opt_is(argv[i], "passin") && i + 1 < argc) {
      o->passin = argv[++i];
    } else if (cli_opt_is(argv[i], "hash") && i + 1 < argc) {
      o->hash_name = argv[++i];
    } else if (verify && cli_opt_is(argv[i], "sig") && i + 1 < argc) {
      o->sig = argv[++i];
    } else if (!verify && cli_opt_is(argv[i], "out") && i + 1 < argc) {
      o->out = argv[++i];
    } else if (cli_opt_is(argv[i], "saltlen") && i + 1 < argc) {
      o->saltlen = argv[++i];
      if (parse_saltlen(o->saltlen, o) != 0)
        return cli_bad_usage(cmd, usage, "--saltlen takes N (bytes), digest, max or auto, not %s",
                             o->saltlen);
    } else if (!verify && cli_opt_is(argv[i], "hex")) {
      o->hex = 1;
    } else if (!verify && cli_opt_is(argv[i], "base64")) {
      o->base64 = 1;
    } else if (cli_opt_is(argv[i], "context") && i + 1 < argc) {
      o->context = argv[++i];
    } else if (!verify && cli_opt_is(argv[i], "deterministic")) {
      o->deterministic = 1;
    } else if (!verify && cli_opt_is(argv[i], "validate-key")) {
      o->validate_key = 1;
    } else if (cli_opt_is(argv[i], "ecdsa")) {
      o->ecdsa = 1;
    } else if (cli_opt_is(argv[i], "ml-dsa")) {
      o->mldsa = 1;
    } else if (cli_opt_is(argv[i], "pss")) {
      o->pss = 1;
    } else if (cli_opt_is(argv[i], "pkcs1")) {
      o->pkcs1 = 1;
    } else if (o->file == NULL && (argv[i][0] != '-' || strcmp(argv[i], "-") == 0)) {
      o->file = argv[i];
    } else {
      return cli_bad_arg(cmd, usage, argv[i], verify ? valued_verify : valued_sign);
    }
  }
  if (o->hex && o->base64)
    return cli_bad_usage(cmd, usage, "--hex and --base64 exclude each other");
  if (o->pss && o->pkcs1) return cli_bad_usage(cmd, usage, "--pss and --pkcs1 exclude each other");
  if (o->pss + o->pkcs1 + o->ecdsa + o->mldsa > 1)
    return cli_bad_usage(cmd, usage, "--pss, --pkcs1, --ecdsa and --ml-dsa exclude each other");
  if (!o->pss && !o->pkcs1 && !o->ecdsa && !o->mldsa)
    return cli_bad_usage(cmd, usage, "--pss, --pkcs1, --ecdsa or --ml-dsa is required");
  if (o->key == NULL) return cli_bad_usage(cmd, usage, "--key KEY is required");
  if (o->mldsa && o->hash_name != NULL)
    return cli_bad_usage(cmd, usage, "--hash is not for --ml-dsa (pure ML-DSA signs the message)");
  if (!o->mldsa && o->context != NULL)
    return cli_bad_usage(cmd, usage, "--context is for --ml-dsa");
  if (!o->mldsa && o->deterministic)
    return cli_bad_usage(cmd, usage, "--deterministic is for --ml-dsa");
  if (o->validate_key && !o->pss && !o->pkcs1)
    return cli_bad_usage(cmd, usage, "--validate-key is for RSA keys (--pss or --pkcs1)");
  if (o->context != NULL) {
    const size_t n = strlen(o->context);
    if (n % 2 != 0 || n > 2 * sizeof o->ctx || cli_hex_decode(o->context, n, o->ctx) != 0)
      return cli_bad_usage(cmd, usage, "--context takes up to 255 bytes in hex, not %s",
                           o->context);
    o->ctx_len = n / 2;
  }
  if (!o->mldsa && o->hash_name == NULL) return cli_bad_usage(cmd, usage, "--hash H is required");
  if (verify && o->sig == NULL) return cli_bad_usage(cmd, usage, "--sig SIG is required");
  if (o->file == NULL) return cli_bad_usage(cmd, usage, "no FILE given (\"-\": standard input)");
  /* A salt is PSS's; signing draws one of at most hLen bytes (FIPS 186-5 5.4 (g)). */
  if (o->saltlen != NULL && !o->pss) return cli_bad_usage(cmd, usage, "--saltlen is for --pss");
  if (!verify && (o->salt == SALT_AUTO || o->salt == SALT_MAX))
    return cli_bad_usage(cmd, usage, "--saltlen %s is for verify: signing takes N or digest",
                         o->saltlen);
  if (!o->mldsa && cli_hash_from_name(o->hash_name, &o->hash, &o->hash_len) != 0)
    return cli_bad_usage(cmd, usage, "unsupported hash %s (this module offers %s)", o->hash_name,
                         cli_hash_list());
  if (o->salt == SALT_DIGEST) {
    o->salt = SALT_BYTES;
    o->salt_bytes = o->hash_len;
  }
  return 0;
}

/* salt_len_for is the salt_len argument of fm_rsa_verify_pss for |o| and |key|. */
static size_t salt_len_for(const struct sig_opts *o, const fm_rsa_key *key) {
  if (o->salt == SALT_BYTES) return o->salt_bytes;
  size_t bits = 0;
  if (o->salt == SALT_AUTO || fm_rsa_key_bits(key, &bits) != FM_OK) return FM_RSA_PSS_SALT_LEN_ANY;
  /* RFC 8017 9.1.1: emLen = ceil((modBits - 1) / 8), and sLen <= emLen - hLen - 2. */
  const size_t em_len = (bits - 1 + 7) / 8;
  return em_len >= o->hash_len + 2 ? em_len - o->hash_len - 2 : 0;
}


/* sig_key_type is the key type the scheme of |o| needs. */
static cli_key_type sig_key_type(const struct sig_opts *o) {
  return o->ecdsa ? CLI_KEY_EC : o->mldsa ? CLI_KEY_MLDSA : CLI_KEY_RSA;
}

int cmd_sign(int argc, char **argv) {
  if (cli_wants_help(argc, argv)) return cli_print_help(k_sign_usage);
  struct sig_opts o;
  int rc = parse_sig_opts(argc, argv, 0, &o);
  if (rc != 0) return rc;
  cli_key key;
  rc = cli_key_load_flags("sign", o.key, sig_key_type(&o), o.passin,
                          FM_KEY_DECODE_RSA_CONSISTENCY_ONLY, &key);
  if (rc != 0) return rc;
  if (!key.is_private) {
    fprintf(stderr, "fipsmod sign: %s is a public key: signing needs the private key\n", o.key);
    cli_key_free(&key);
    return 2;
  }
  if (o.validate_key) {
    const int vst = fm_rsa_key_validate(key.rsa);
    if (vst != FM_OK) {
      fprintf(stderr, "fipsmod sign: %s: --validate-key: %s\n", o.key, fm_strerror(vst));
      cli_key_free(&key);
      return 1;
    }
  }
  uint8_t *msg = NULL, sig[FM_MLDSA_MAX_SIGNATURE_LEN];
  size_t msg_len = 0, sig_len = 0;
  if (cli_read_all(o.file, &msg, &msg_len) != 0) {
    fprintf(stderr, "fipsmod sign: cannot read %s\n", o.file);
    cli_key_free(&key);
    return 2;
  }
  int st;
  if (o.pss) {
    st = fm_rsa_sign_pss(key.rsa, o.hash, msg, msg_len, o.salt_bytes, sig, sizeof sig, &sig_len);
  } else if (o.pkcs1) {
    st = fm_rsa_sign_pkcs1v15(key.rsa, o.hash, msg, msg_len, sig, sizeof sig, &sig_len);
  } else if (o.ecdsa) {
    /* r || s, then the DER ECDSA-Sig-Value openssl writes and reads. */
    uint8_t rs[FM_EC_MAX_SIG_BYTES];
    size_t rs_len = 0;
    st = fm_ecdsa_sign(key.ec, o.hash, msg, msg_len, rs, sizeof rs, &rs_len);
    if (st == FM_OK) st = fm_ecdsa_sig_to_der(key.curve, rs, rs_len, sig, sizeof sig, &sig_len);
  } else {
    st = fm_mldsa_sign(key.dsa, key.priv, key.priv_len, msg, msg_len, o.ctx_len ? o.ctx : NULL,
                       o.ctx_len,
                       o.deterministic ? FM_MLDSA_SIGN_DETERMINISTIC : FM_MLDSA_SIGN_HEDGED, sig,
                       sizeof sig, &sig_len);
  }
  free(msg);
  cli_key_free(&key);
  if (st == FM_ERR_LENGTH && o.pss && o.salt_bytes > o.hash_len) {
    fprintf(stderr,
            "fipsmod sign: --saltlen %zu is longer than the hash (%zu bytes): FIPS 186-5 "
            "allows at most the hash's length\n",
            o.salt_bytes, o.hash_len);
    return 2;
  }
  if (st == FM_ERR_UNSUPPORTED && o.ecdsa) {
    fprintf(stderr, "fipsmod sign: ECDSA signs with sha256, sha384 or sha512, not %s\n",
            o.hash_name);
    return 2;
  }
  if (st != FM_OK) {
    cli_report_status("sign", st);
    if (st == FM_ERR_INTERNAL && (o.pss || o.pkcs1) && !o.validate_key)
      fprintf(stderr, "fipsmod sign: the signature failed its check with the public key, as an "
                      "invalid key's (p or q not prime) does: --validate-key tests the key\n");
    return 1;
  }
  char text[2 * sizeof sig + 1];
  const uint8_t *out = sig;
  size_t out_len = sig_len;
  if (o.hex || o.base64) {
    out_len = o.hex ? 2 * sig_len : cli_base64_encode(sig, sig_len, text);
    if (o.hex) cli_hex_encode(sig, sig_len, text);
    text[out_len++] = '\n';
    out = (const uint8_t *)text;
  }
  if (cli_write_all(o.out, out, out_len, 0) != 0) {
    fprintf(stderr, "fipsmod sign: cannot write %s\n", o.out ? o.out : "standard output");
    return 2;
  }
  return 0;
}

/* as_text replaces |*sig| by the bytes its hex or base64 text decodes to, when it is such text. */
static void as_text(uint8_t **sig, size_t *sig_len) {
  uint8_t *raw = NULL;
  size_t raw_len = 0;
  if (cli_text_decode(*sig, *sig_len, &raw, &raw_len) == 0) {
    free(*sig);
    *sig = raw;
    *sig_len = raw_len;
  }
}

/* verify_ecdsa checks a DER (or hex or base64 DER) ECDSA signature: a signature that is not one
 * (malformed DER, r or s out of range) does not verify, as openssl's. */
static int verify_ecdsa(const cli_key *key, const struct sig_opts *o, const uint8_t *msg,
                        size_t msg_len, uint8_t **sig, size_t *sig_len) {
  uint8_t rs[FM_EC_MAX_SIG_BYTES];
  size_t rs_len = 0;
  int st = fm_ecdsa_sig_from_der(key->curve, *sig, *sig_len, rs, sizeof rs, &rs_len);
  if (st == FM_ERR_PARSE) {
    as_text(sig, sig_len);
    st = fm_ecdsa_sig_from_der(key->curve, *sig, *sig_len, rs, sizeof rs, &rs_len);
  }
  if (st == FM_ERR_PARSE || st == FM_ERR_OUT_OF_RANGE) return FM_ERR_VERIFY;
  if (st != FM_OK) return st;
  return fm_ecdsa_verify(key->ec, o->hash, msg, msg_len, rs, rs_len);
}

int cmd_verify(int argc, char **argv) {
  if (cli_wants_help(argc, argv)) return cli_print_help(k_verify_usage);
  struct sig_opts o;
  int rc = parse_sig_opts(argc, argv, 1, &o);
  if (rc != 0) return rc;
  cli_key key;
  rc = cli_key_load("verify", o.key, sig_key_type(&o), o.passin, &key);
  if (rc != 0) return rc;
  uint8_t *msg = NULL, *sig = NULL;
  size_t msg_len = 0, sig_len = 0;
  if (cli_read_all(o.file, &msg, &msg_len) != 0 || cli_read_all(o.sig, &sig, &sig_len) != 0) {
    fprintf(stderr, "fipsmod verify: cannot read %s\n", msg == NULL ? o.file : o.sig);
    free(msg);
    cli_key_free(&key);
    return 2;
  }
  int st;
  if (o.pss || o.pkcs1) {
    /* A signature is exactly the modulus' length; any other file is its hex or base64 text. */
    size_t k = 0;
    if (fm_rsa_key_size(key.rsa, &k) == FM_OK && sig_len != k) as_text(&sig, &sig_len);
    st = o.pss ? fm_rsa_verify_pss(key.rsa, o.hash, msg, msg_len, salt_len_for(&o, key.rsa), sig,
                                   sig_len)
               : fm_rsa_verify_pkcs1v15(key.rsa, o.hash, msg, msg_len, sig, sig_len);
  } else if (o.ecdsa) {
    st = verify_ecdsa(&key, &o, msg, msg_len, &sig, &sig_len);
  } else {
    if (sig_len != fm_mldsa_signature_len(key.dsa)) as_text(&sig, &sig_len);
    st = fm_mldsa_verify(key.dsa, key.pub, key.pub_len, msg, msg_len, o.ctx_len ? o.ctx : NULL,
                         o.ctx_len, sig, sig_len);
    /* A signature of the wrong length is not a valid one. */
    if (st == FM_ERR_LENGTH) st = FM_ERR_VERIFY;
  }
  fm_indicator ind = FM_INDICATOR_NONE;
  const int ind_ok = fm_service_indicator(&ind) == FM_OK;
  free(msg);
  free(sig);
  cli_key_free(&key);
  if (st == FM_OK) {
    (void)puts("Verified OK");
    /* Valid, but outside the approved set (a salt longer than the hash, a key under 2048
     * bits): the module's indicator says so, and so does the command. */
    if (ind_ok && ind != FM_INDICATOR_APPROVED)
      fprintf(stderr,
              "fipsmod verify: not an approved verification (the module's service "
              "indicator: %s)%s\n",
              fm_service_indicator_name(ind),
              o.pss ? ": a salt longer than the hash, or a key under 2048 bits" : "");
    return cli_stdout_done("verify", CLI_EXIT_OK);
  }
  if (st == FM_ERR_VERIFY) {
    (void)puts("Verification failure");
    return cli_stdout_done("verify", CLI_EXIT_FAILED);
  }
  cli_report_status("verify", st);
  return st == FM_ERR_NOT_OPERATIONAL ? 1 : 2;
}
