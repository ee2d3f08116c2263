/* `fipsmod keygen`, `pubkey`, `sign` and `verify`: RSA keys in PKCS#8/PKCS#1/SPKI files and
 * signatures over files, through rsa.h and keyfile.h.
 *
 * Options take one dash or two (-out or --out), as openssl users type them. Exit status: 0 on
 * success (verify: the signature is valid), 1 when the operation failed (verify: the signature is
 * not valid), 2 on a usage error or an unreadable file. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/io.h"
#include "cli/keyinfo.h"
#include "cli/options.h"
#include "fipsmod/fipsmod.h"

/* load_key reads a key file (PEM or DER; PKCS#1, PKCS#8 or SPKI). */
static int load_key(const char *cmd, const char *path, fm_rsa_key **key) {
  uint8_t *buf = NULL;
  size_t n = 0;
  if (cli_read_all(path, &buf, &n) != 0) {
    fprintf(stderr, "fipsmod %s: cannot read %s: %s\n", cmd, path, strerror(errno ? errno : EIO));
    return 2;
  }
  int st = fm_rsa_key_decode(buf, n, key);
  char what[200];
  const int described = (st == FM_ERR_UNSUPPORTED || st == FM_ERR_BAD_KEY || st == FM_ERR_PARSE) &&
                        cli_key_describe(buf, n, what, sizeof what);
  cli_wipe_free(buf, n);
  if (st == FM_ERR_NOT_OPERATIONAL) {
    /* The module refused, not the file: say why, and exit as every refusal does. */
    cli_report_status(cmd, st);
    return 1;
  }
  if (described) {
    fprintf(stderr, "fipsmod %s: %s: %s (%s)\n", cmd, path, what, fm_strerror(st));
    return 2;
  }
  if (st != FM_OK) {
    fprintf(stderr, "fipsmod %s: %s: %s\n", cmd, path, fm_strerror(st));
    return 2;
  }
  return 0;
}

/* save_key writes |key| as |format| (PEM unless |der|) to |path|. */
static int save_key(const char *cmd, const fm_rsa_key *key, fm_key_format format, int der,
                    const char *path) {
  fm_key_encoding enc = der ? FM_KEY_DER : FM_KEY_PEM;
  size_t need = 0;
  int st = fm_rsa_key_encode(key, format, enc, NULL, 0, &need);
  uint8_t *out = st == FM_OK ? malloc(need) : NULL;
  if (st == FM_OK && out == NULL) st = FM_ERR_NO_MEMORY;
  if (st == FM_OK) st = fm_rsa_key_encode(key, format, enc, out, need, &need);
  if (st != FM_OK) {
    cli_report_status(cmd, st);
    cli_wipe_free(out, need);
    return 1;
  }
  int private_file = format == FM_KEY_PKCS1_PRIVATE || format == FM_KEY_PKCS8_PRIVATE;
  int rc = cli_write_all(path, out, need, private_file);
  cli_wipe_free(out, need);
  if (rc != 0) {
    fprintf(stderr, "fipsmod %s: cannot write %s\n", cmd, path ? path : "standard output");
    return 2;
  }
  return 0;
}

static const char k_keygen_usage[] =
    "usage: fipsmod keygen --rsa BITS [--out FILE] [--pkcs1] [--der]\n"
    "  Generates an RSA key (BITS = 2048, 3072 or 4096; e = 65537) and writes it as PKCS#8\n"
    "  PEM (--pkcs1: PKCS#1 RSAPrivateKey; --der: DER) to FILE (mode 0600) or standard output.\n"
    "  Exit status: 0 written, 1 generation failed or the module is not\n"
    "  operational (the reason is printed), 2 usage error or unwritable file.\n";

int cmd_keygen(int argc, char **argv) {
  if (cli_wants_help(argc, argv)) return cli_print_help(k_keygen_usage);
  static const char *const valued[] = {"rsa", "out", NULL};
  const char *bits = NULL, *out = NULL;
  int pkcs1 = 0, der = 0;
  for (int i = 1; i < argc; i++) {
    if (cli_opt_is(argv[i], "rsa") && i + 1 < argc) {
      bits = argv[++i];
    } else if (cli_opt_is(argv[i], "out") && i + 1 < argc) {
      out = argv[++i];
    } else if (cli_opt_is(argv[i], "pkcs1")) {
      pkcs1 = 1;
    } else if (cli_opt_is(argv[i], "der")) {
      der = 1;
    } else {
      return cli_bad_arg("keygen", k_keygen_usage, argv[i], valued);
    }
  }
  if (bits == NULL) return cli_bad_usage("keygen", k_keygen_usage, "--rsa BITS is required");
  if (strcmp(bits, "2048") != 0 && strcmp(bits, "3072") != 0 && strcmp(bits, "4096") != 0)
    return cli_bad_usage("keygen", k_keygen_usage, "unsupported RSA size %s (2048, 3072 or 4096)",
                         bits);
  fm_rsa_key *key = NULL;
  int st = fm_rsa_key_generate((unsigned)atoi(bits), &key);
  if (st != FM_OK) {
    cli_report_status("keygen", st);
    return 1;
  }
  int rc = save_key("keygen", key, pkcs1 ? FM_KEY_PKCS1_PRIVATE : FM_KEY_PKCS8_PRIVATE, der, out);
  (void)fm_rsa_key_free(key);
  return rc;
}

static const char k_pubkey_usage[] =
    "usage: fipsmod pubkey KEY [--out FILE] [--pkcs1] [--der]\n"
    "  Writes the public key of KEY (PEM or DER; PKCS#1, PKCS#8 or SPKI) as SubjectPublicKeyInfo\n"
    "  PEM (--pkcs1: PKCS#1 RSAPublicKey; --der: DER) to FILE or standard output.\n"
    "  Exit status: 0 written, 1 failed or the module is not operational (the\n"
    "  reason is printed), 2 usage error or unreadable key.\n";

int cmd_pubkey(int argc, char **argv) {
  if (cli_wants_help(argc, argv)) return cli_print_help(k_pubkey_usage);
  static const char *const valued[] = {"out", NULL};
  const char *in = NULL, *out = NULL;
  int pkcs1 = 0, der = 0;
  for (int i = 1; i < argc; i++) {
    if (cli_opt_is(argv[i], "out") && i + 1 < argc) {
      out = argv[++i];
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
  fm_rsa_key *key = NULL;
  int rc = load_key("pubkey", in, &key);
  if (rc != 0) return rc;
  rc = save_key("pubkey", key, pkcs1 ? FM_KEY_PKCS1_PUBLIC : FM_KEY_SPKI_PUBLIC, der, out);
  (void)fm_rsa_key_free(key);
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
  const char *key, *hash_name, *sig, *out, *file, *saltlen;
  int pss, pkcs1;
  int hex, base64; /* sign: write the signature as one line of hex or base64 */
  fm_hash_alg hash;
  size_t hash_len;
  enum salt_kind salt;
  size_t salt_bytes;
};

static const char k_sign_usage[] =
    "usage: fipsmod sign --key KEY (--pss [--saltlen N|digest]|--pkcs1) --hash H [--out SIG]\n"
    "                    [--hex|--base64] FILE\n"
    "  Signs FILE (\"-\": standard input) with the private KEY (PEM or DER, PKCS#1 or PKCS#8):\n"
    "  RSASSA-PSS with MGF1 and a fresh salt as long as the hash (--saltlen N: N bytes, at most\n"
    "  the hash's length, FIPS 186-5), or RSASSA-PKCS1-v1_5.\n" CLI_HASH_LINE
    "  Writes the raw signature (--hex: one line of lower-case hex; --base64: one line of RFC\n"
    "  4648 base64) to SIG or standard output.\n"
    "  Exit status: 0 signed, 1 signing failed or the module is not\n"
    "  operational (the reason is printed), 2 usage error or unreadable input.\n";

static const char k_verify_usage[] =
    "usage: fipsmod verify --key KEY (--pss [--saltlen N|digest|max|auto]|--pkcs1) --hash H\n"
    "                      --sig SIG FILE\n"
    "  Verifies the signature SIG (raw, or hex or base64 text as sign --hex/--base64 writes it)\n"
    "  over FILE (\"-\": standard input) with KEY (a private or a public key, PEM or\n"
    "  DER).\n" CLI_HASH_LINE
    "  PSS takes a salt of any length (--saltlen auto, the default, as openssl's), or exactly N\n"
    "  bytes, the hash's length (digest) or the longest that fits (max). A valid signature\n"
    "  whose salt is longer than the hash is not an approved verification (FIPS 186-5): verify\n"
    "  says so on stderr.\n"
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
  static const char *const valued_sign[] = {"key", "hash", "out", "saltlen", NULL};
  static const char *const valued_verify[] = {"key", "hash", "sig", "saltlen", NULL};
  memset(o, 0, sizeof *o);
  o->salt = verify ? SALT_AUTO : SALT_DIGEST;
  for (int i = 1; i < argc; i++) {
    if (cli_opt_is(argv[i], "key") && i + 1 < argc) {
      o->key = argv[++i];
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
  if (!o->pss && !o->pkcs1) return cli_bad_usage(cmd, usage, "--pss or --pkcs1 is required");
  if (o->key == NULL) return cli_bad_usage(cmd, usage, "--key KEY is required");
  if (o->hash_name == NULL) return cli_bad_usage(cmd, usage, "--hash H is required");
  if (verify && o->sig == NULL) return cli_bad_usage(cmd, usage, "--sig SIG is required");
  if (o->file == NULL) return cli_bad_usage(cmd, usage, "no FILE given (\"-\": standard input)");
  /* A salt is PSS's; signing draws one of at most hLen bytes (FIPS 186-5 5.4 (g)). */
  if (o->saltlen != NULL && !o->pss) return cli_bad_usage(cmd, usage, "--saltlen is for --pss");
  if (!verify && (o->salt == SALT_AUTO || o->salt == SALT_MAX))
    return cli_bad_usage(cmd, usage, "--saltlen %s is for verify: signing takes N or digest",
                         o->saltlen);
  if (cli_hash_from_name(o->hash_name, &o->hash, &o->hash_len) != 0)
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

int cmd_sign(int argc, char **argv) {
  if (cli_wants_help(argc, argv)) return cli_print_help(k_sign_usage);
  struct sig_opts o;
  int rc = parse_sig_opts(argc, argv, 0, &o);
  if (rc != 0) return rc;
  fm_rsa_key *key = NULL;
  rc = load_key("sign", o.key, &key);
  if (rc != 0) return rc;
  int is_private = 0;
  if (fm_rsa_key_is_private(key, &is_private) == FM_OK && !is_private) {
    fprintf(stderr, "fipsmod sign: %s is a public key: signing needs the private key\n", o.key);
    (void)fm_rsa_key_free(key);
    return 2;
  }
  uint8_t *msg = NULL, sig[2048];
  size_t msg_len = 0, sig_len = 0;
  if (cli_read_all(o.file, &msg, &msg_len) != 0) {
    fprintf(stderr, "fipsmod sign: cannot read %s\n", o.file);
    (void)fm_rsa_key_free(key);
    return 2;
  }
  int st = o.pss
               ? fm_rsa_sign_pss(key, o.hash, msg, msg_len, o.salt_bytes, sig, sizeof sig, &sig_len)
               : fm_rsa_sign_pkcs1v15(key, o.hash, msg, msg_len, sig, sizeof sig, &sig_len);
  free(msg);
  (void)fm_rsa_key_free(key);
  if (st == FM_ERR_LENGTH && o.pss && o.salt_bytes > o.hash_len) {
    fprintf(stderr,
            "fipsmod sign: --saltlen %zu is longer than the hash (%zu bytes): FIPS 186-5 "
            "allows at most the hash's length\n",
            o.salt_bytes, o.hash_len);
    return 2;
  }
  if (st != FM_OK) {
    cli_report_status("sign", st);
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

int cmd_verify(int argc, char **argv) {
  if (cli_wants_help(argc, argv)) return cli_print_help(k_verify_usage);
  struct sig_opts o;
  int rc = parse_sig_opts(argc, argv, 1, &o);
  if (rc != 0) return rc;
  fm_rsa_key *key = NULL;
  rc = load_key("verify", o.key, &key);
  if (rc != 0) return rc;
  uint8_t *msg = NULL, *sig = NULL;
  size_t msg_len = 0, sig_len = 0;
  if (cli_read_all(o.file, &msg, &msg_len) != 0 || cli_read_all(o.sig, &sig, &sig_len) != 0) {
    fprintf(stderr, "fipsmod verify: cannot read %s\n", msg == NULL ? o.file : o.sig);
    free(msg);
    (void)fm_rsa_key_free(key);
    return 2;
  }
  /* A signature is exactly the modulus' length; any other file is its hex or base64 text. */
  size_t k = 0;
  if (fm_rsa_key_size(key, &k) == FM_OK && sig_len != k) {
    uint8_t *raw = NULL;
    size_t raw_len = 0;
    if (cli_text_decode(sig, sig_len, &raw, &raw_len) == 0) {
      free(sig);
      sig = raw;
      sig_len = raw_len;
    }
  }
  int st = o.pss ? fm_rsa_verify_pss(key, o.hash, msg, msg_len, salt_len_for(&o, key), sig, sig_len)
                 : fm_rsa_verify_pkcs1v15(key, o.hash, msg, msg_len, sig, sig_len);
  fm_indicator ind = FM_INDICATOR_NONE;
  const int ind_ok = fm_service_indicator(&ind) == FM_OK;
  free(msg);
  free(sig);
  (void)fm_rsa_key_free(key);
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
