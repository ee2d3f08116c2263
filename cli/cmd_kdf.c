/* `fipsmod kdf hkdf|pbkdf2|kbkdf OPTIONS`: a key derived through kdf.h, printed as one line of
 * hex or written raw to a file of mode 0600.
 *
 * Secrets (the HKDF and KBKDF key, the password) are best read from files (--key-file,
 * --pass-file): a command line is visible to other users. Public inputs (salt, info, fixed data)
 * are given in hex. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/io.h"
#include "cli/options.h"
#include "fipsmod/fipsmod.h"

/* The largest key the command derives: HKDF's bound at SHA-512 (255 * 64). */
#define MAX_KDF_OUT (255u * 64u)

static const char k_kdf_usage[] =
    "usage: fipsmod kdf hkdf|pbkdf2|kbkdf --hash H --length N [--out FILE] OPTIONS\n"
    "  Derives N bytes and prints them as one line of hex, or writes them raw to FILE (mode\n"
    "  0600). Hex values may be empty.\n" CLI_HASH_LINE
    "  hkdf   (--key KEYHEX|--key-file FILE) [--salt HEX] [--info HEX]\n"
    "         RFC 5869 HKDF, extract then expand (SP 800-56C Rev. 2): the input keying material,\n"
    "         salt (default: none, hLen zero bytes) and info; N at most 255 * hLen.\n"
    "  pbkdf2 (--pass PASS|--pass-file FILE) --salt HEX --iter C\n"
    "         SP 800-132 PBKDF2 with HMAC: the password (a file's first line, without its line\n"
    "         end), salt and iteration count.\n"
    "  kbkdf  (--key KEYHEX|--key-file FILE) [--fixed HEX | --label HEX --context HEX]\n"
    "         [--ctr-bits 8|16|24|32] [--ctr-after]\n"
    "         SP 800-108r1 counter mode with HMAC: the key derivation key and the fixed data, "
    "given\n"
    "         whole (--fixed) or as Label || 0x00 || Context || [L]_32 (--label, --context, as\n"
    "         OpenSSL's KBKDF builds it); a counter of 32 bits (--ctr-bits) before the fixed data\n"
    "         (--ctr-after: after it).\n"
    "  Inputs outside the approved set (a key or password too short, a salt under 16 bytes for\n"
    "  PBKDF2, fewer than 1000 iterations, N under 14) still derive; kdf says on stderr that the\n"
    "  derivation is not approved.\n" CLI_EXIT_TEXT;

/* A byte string from the command line or a file. */
struct bytes {
  uint8_t *p;
  size_t len;
};

/* hex_arg decodes the hex value of |opt| into |b|. Returns 0, or -1 after the usage message. */
static int hex_arg(const char *opt, const char *hex, struct bytes *b) {
  const size_t n = strlen(hex);
  b->len = n / 2;
  b->p = malloc(b->len + 1);
  if (b->p != NULL && cli_hex_decode(hex, n, b->p) == 0) return 0;
  cli_wipe_free(b->p, b->len + 1);
  b->p = NULL;
  cli_bad_usage("kdf", k_kdf_usage, "%s takes hex, not %s", opt, hex);
  return -1;
}

/* file_arg reads |path| whole into |b|; |first_line| keeps the text before the first line end
 * (a password file). Returns 0, or -1 after a message. */
static int file_arg(const char *path, int first_line, struct bytes *b) {
  if (cli_read_all(path, &b->p, &b->len) != 0) {
    fprintf(stderr, "fipsmod kdf: cannot read %s: %s\n", path, strerror(errno));
    return -1;
  }
  if (first_line) {
    const size_t whole = b->len;
    const uint8_t *nl = memchr(b->p, '\n', b->len);
    if (nl != NULL) b->len = (size_t)(nl - b->p);
    if (b->len > 0 && b->p[b->len - 1] == '\r') b->len--;
    /* What follows the first line is not used: wipe it now, as bytes_free wipes len + 1. */
    (void)fm_cleanse(b->p + b->len, whole - b->len);
  }
  return 0;
}

static void bytes_free(struct bytes *b) {
  /* read_all and hex_arg both leave room for one byte more than len. */
  cli_wipe_free(b->p, b->len + 1);
  b->p = NULL;
}

/* parse_size reads a decimal count 1..max. */
static int parse_size(const char *s, unsigned long long max, unsigned long long *out) {
  if (*s < '0' || *s > '9') return -1;
  errno = 0;
  char *end;
  const unsigned long long v = strtoull(s, &end, 10);
  if (errno != 0 || *end != '\0' || v == 0 || v > max) return -1;
  *out = v;
  return 0;
}

int cmd_kdf(int argc, char **argv) {
  if (cli_wants_help(argc, argv)) return cli_print_help(k_kdf_usage);
  if (argc < 2) return cli_bad_usage("kdf", k_kdf_usage, "name the KDF: hkdf, pbkdf2 or kbkdf");
  const char *kdf = argv[1];
  const int hkdf = strcmp(kdf, "hkdf") == 0, pbkdf2 = strcmp(kdf, "pbkdf2") == 0,
            kbkdf = strcmp(kdf, "kbkdf") == 0;
  if (!hkdf && !pbkdf2 && !kbkdf)
    return cli_bad_usage("kdf", k_kdf_usage, "unsupported KDF %s (hkdf, pbkdf2 or kbkdf)", kdf);
  const char *hash_name = NULL, *length = NULL, *out = NULL, *key = NULL, *key_file = NULL,
             *salt = NULL, *info = NULL, *pass = NULL, *pass_file = NULL, *iter = NULL,
             *fixed = NULL, *label = NULL, *context = NULL, *ctr_bits = NULL;
  int ctr_after = 0;
  struct {
    const char *name;
    const char **value;
    int hkdf, pbkdf2, kbkdf; /* which KDFs take it */
  } opts[] = {
      {"hash", &hash_name, 1, 1, 1},
      {"length", &length, 1, 1, 1},
      {"out", &out, 1, 1, 1},
      {"key", &key, 1, 0, 1},
      {"key-file", &key_file, 1, 0, 1},
      {"salt", &salt, 1, 1, 0},
      {"info", &info, 1, 0, 0},
      {"pass", &pass, 0, 1, 0},
      {"pass-file", &pass_file, 0, 1, 0},
      {"iter", &iter, 0, 1, 0},
      {"fixed", &fixed, 0, 0, 1},
      {"label", &label, 0, 0, 1},
      {"context", &context, 0, 0, 1},
      {"ctr-bits", &ctr_bits, 0, 0, 1},
  };
  for (int i = 2; i < argc; i++) {
    size_t k = 0;
    for (; k < sizeof opts / sizeof opts[0]; k++)
      if (cli_opt_is(argv[i], opts[k].name)) break;
    if (k < sizeof opts / sizeof opts[0] && i + 1 == argc) {
      return cli_bad_usage("kdf", k_kdf_usage, "%s needs a value", argv[i]);
    } else if (k < sizeof opts / sizeof opts[0]) {
      if (!(hkdf ? opts[k].hkdf : pbkdf2 ? opts[k].pbkdf2 : opts[k].kbkdf))
        return cli_bad_usage("kdf", k_kdf_usage, "%s is not an option of kdf %s", argv[i], kdf);
      *opts[k].value = argv[++i];
    } else if (kbkdf && cli_opt_is(argv[i], "ctr-after")) {
      ctr_after = 1;
    } else {
      return cli_bad_arg("kdf", k_kdf_usage, argv[i], NULL);
    }
  }
  fm_hash_alg alg;
  size_t hlen;
  unsigned long long out_len = 0, iterations = 0, r = 32;
  if (hash_name == NULL) return cli_bad_usage("kdf", k_kdf_usage, "--hash H is required");
  if (cli_hash_from_name(hash_name, &alg, &hlen) != 0)
    return cli_bad_usage("kdf", k_kdf_usage, "unsupported hash %s (this module offers %s)",
                         hash_name, cli_hash_list());
  if (length == NULL || parse_size(length, MAX_KDF_OUT, &out_len) != 0)
    return cli_bad_usage("kdf", k_kdf_usage, "--length takes a number of bytes from 1 to %u",
                         MAX_KDF_OUT);
  if ((hkdf || kbkdf) && (key == NULL) == (key_file == NULL))
    return cli_bad_usage("kdf", k_kdf_usage, "give one of --key and --key-file");
  if (pbkdf2 && (pass == NULL) == (pass_file == NULL))
    return cli_bad_usage("kdf", k_kdf_usage, "give one of --pass and --pass-file");
  if (pbkdf2 && salt == NULL) return cli_bad_usage("kdf", k_kdf_usage, "--salt HEX is required");
  if (pbkdf2 && (iter == NULL || parse_size(iter, UINT64_C(1) << 32, &iterations) != 0))
    return cli_bad_usage("kdf", k_kdf_usage, "--iter takes a count from 1 to 4294967296");
  if (kbkdf && fixed != NULL && (label != NULL || context != NULL))
    return cli_bad_usage("kdf", k_kdf_usage, "give --fixed or --label and --context, not both");
  if (kbkdf && (label == NULL) != (context == NULL))
    return cli_bad_usage("kdf", k_kdf_usage, "--label and --context go together");
  if (ctr_bits != NULL && (parse_size(ctr_bits, 32, &r) != 0 || r % 8 != 0))
    return cli_bad_usage("kdf", k_kdf_usage, "--ctr-bits takes 8, 16, 24 or 32");

  struct bytes secret = {0}, salt_b = {0}, info_b = {0}, label_b = {0}, context_b = {0};
  int rc = CLI_EXIT_USAGE;
  uint8_t *dk = malloc((size_t)out_len);
  if (dk == NULL) {
    fprintf(stderr, "fipsmod kdf: out of memory\n");
    return CLI_EXIT_FAILED;
  }
  if (key != NULL && hex_arg("--key", key, &secret) != 0) goto done;
  if (key_file != NULL && file_arg(key_file, 0, &secret) != 0) goto done;
  if (pass != NULL) {
    secret.len = strlen(pass);
    secret.p = malloc(secret.len + 1);
    if (secret.p == NULL) goto done;
    memcpy(secret.p, pass, secret.len);
  }
  if (pass_file != NULL && file_arg(pass_file, 1, &secret) != 0) goto done;
  if (salt != NULL && hex_arg("--salt", salt, &salt_b) != 0) goto done;
  if (info != NULL && hex_arg("--info", info, &info_b) != 0) goto done;
  if (fixed != NULL && hex_arg("--fixed", fixed, &info_b) != 0) goto done;
  if (label != NULL &&
      (hex_arg("--label", label, &label_b) != 0 || hex_arg("--context", context, &context_b) != 0))
    goto done;
  if (label != NULL) {
    /* SP 800-108r1 4: Label || 0x00 || Context || [L]_32, L the output length in bits. */
    info_b.len = label_b.len + 1 + context_b.len + 4;
    info_b.p = malloc(info_b.len + 1);
    if (info_b.p == NULL) goto done;
    memcpy(info_b.p, label_b.p, label_b.len);
    info_b.p[label_b.len] = 0;
    memcpy(info_b.p + label_b.len + 1, context_b.p, context_b.len);
    const uint32_t bits = (uint32_t)(out_len * 8);
    uint8_t *l = info_b.p + label_b.len + 1 + context_b.len;
    l[0] = (uint8_t)(bits >> 24);
    l[1] = (uint8_t)(bits >> 16);
    l[2] = (uint8_t)(bits >> 8);
    l[3] = (uint8_t)bits;
  }
  int st;
  if (hkdf) {
    st = fm_hkdf(alg, secret.p, secret.len, salt_b.p, salt_b.len, info_b.p, info_b.len, dk,
                 (size_t)out_len);
  } else if (pbkdf2) {
    st = fm_pbkdf2_hmac(alg, secret.p, secret.len, salt_b.p, salt_b.len, iterations, dk,
                        (size_t)out_len);
  } else {
    st = fm_kbkdf_ctr_hmac(alg, secret.p, secret.len, info_b.p, info_b.len,
                           ctr_after ? info_b.len : 0, (unsigned)r, dk, (size_t)out_len);
  }
  fm_indicator ind = FM_INDICATOR_NONE;
  const int ind_ok = fm_service_indicator(&ind) == FM_OK;
  if (st != FM_OK) {
    cli_report_status("kdf", st);
    rc = CLI_EXIT_FAILED;
    goto done;
  }
  if (ind_ok && ind != FM_INDICATOR_APPROVED)
    fprintf(stderr,
            "fipsmod kdf: not an approved derivation (the module's service indicator: "
            "%s): see the approved parameters in `fipsmod kdf --help`\n",
            fm_service_indicator_name(ind));
  if (out != NULL && strcmp(out, "-") != 0) {
    rc = CLI_EXIT_OK;
    if (cli_write_all(out, dk, (size_t)out_len, 1) != 0) {
      fprintf(stderr, "fipsmod kdf: cannot write %s: %s\n", out, strerror(errno));
      rc = CLI_EXIT_USAGE;
    }
  } else {
    char *hex = malloc(2 * (size_t)out_len + 1);
    if (hex == NULL) {
      rc = CLI_EXIT_FAILED;
      goto done;
    }
    cli_hex_encode(dk, (size_t)out_len, hex);
    hex[2 * out_len] = '\n';
    (void)fwrite(hex, 1, 2 * (size_t)out_len + 1, stdout);
    cli_wipe_free((uint8_t *)hex, 2 * (size_t)out_len + 1);
    rc = cli_stdout_done("kdf", CLI_EXIT_OK);
  }
done:
  cli_wipe_free(dk, (size_t)out_len);
  bytes_free(&secret);
  bytes_free(&salt_b);
  bytes_free(&info_b);
  bytes_free(&label_b);
  bytes_free(&context_b);
  return rc;
}
