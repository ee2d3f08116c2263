/* `fipsmod dgst --hash H [--hmac KEYHEX|--hmac-key FILE] [FILE...]`: the digest (or the HMAC
 * tag) of each FILE, one line each in sha256sum's format, so that `sha256sum -c` reads it.
 * Files are read in pieces, never whole; "-" (and no FILE at all) is standard input. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/io.h"
#include "cli/options.h"
#include "fipsmod/fipsmod.h"

static const char k_dgst_usage[] =
    "usage: fipsmod dgst --hash H [--hmac KEYHEX|--hmac-key FILE] [FILE...]\n"
    "  Prints the digest of each FILE (\"-\" or none: standard input), or with --hmac its\n"
    "  HMAC tag under the key given in hex (--hmac) or read raw from a file (--hmac-key), one\n"
    "  line per file as sha256sum writes it: \"<hex>  <name>\" (a name with a backslash or a\n"
    "  newline is escaped and the line starts with a backslash).\n" CLI_HASH_LINE
    "  An HMAC key under 112 bits works, but is not an approved use: dgst says so on stderr.\n"
    "  An unreadable FILE is reported and the others are still hashed.\n" CLI_EXIT_TEXT;

/* One running digest or tag. */
struct dgst {
  fm_hash_alg alg;
  const uint8_t *key; /* HMAC key, or NULL for a plain digest */
  size_t key_len;
  fm_sha_ctx sha;
  fm_hmac_ctx hmac;
};

static int dgst_init(struct dgst *d) {
  return d->key != NULL ? fm_hmac_init(&d->hmac, d->alg, d->key, d->key_len)
                        : fm_sha_init(&d->sha, d->alg);
}

static int dgst_update(struct dgst *d, const uint8_t *p, size_t n) {
  return d->key != NULL ? fm_hmac_update(&d->hmac, p, n) : fm_sha_update(&d->sha, p, n);
}

static int dgst_final(struct dgst *d, uint8_t *out, size_t len) {
  return d->key != NULL ? fm_hmac_final(&d->hmac, out, len) : fm_sha_final(&d->sha, out, len);
}

static void dgst_wipe(struct dgst *d) {
  (void)(d->key != NULL ? fm_hmac_wipe(&d->hmac) : fm_sha_wipe(&d->sha));
}

/* print_line writes "<hex>  <name>" as sha256sum does: a name holding a backslash or a newline
 * is written with those escaped (\\ and \n) and the line starts with a backslash. */
static void print_line(const uint8_t *md, size_t md_len, const char *name) {
  char hex[2 * FM_MAX_DIGEST_LEN];
  cli_hex_encode(md, md_len, hex);
  const int escape = strpbrk(name, "\\\n") != NULL;
  if (escape) putchar('\\');
  fwrite(hex, 1, 2 * md_len, stdout);
  fputs("  ", stdout);
  for (const char *c = name; *c != '\0'; c++) {
    if (escape && *c == '\\') {
      fputs("\\\\", stdout);
    } else if (escape && *c == '\n') {
      fputs("\\n", stdout);
    } else {
      putchar(*c);
    }
  }
  putchar('\n');
}

/* hash_file digests one file and clears |*approved| when the module's indicator says the
 * service was not approved. Returns CLI_EXIT_OK, CLI_EXIT_USAGE (unreadable) or CLI_EXIT_FAILED
 * (the module refused). */
static int hash_file(struct dgst *d, size_t md_len, const char *path, int *approved) {
  FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
  if (f == NULL) {
    fprintf(stderr, "fipsmod dgst: cannot read %s: %s\n", path, strerror(errno));
    return CLI_EXIT_USAGE;
  }
  int st = dgst_init(d);
  uint8_t buf[65536];
  size_t n;
  while (st == FM_OK && (n = fread(buf, 1, sizeof buf, f)) > 0) st = dgst_update(d, buf, n);
  const int read_error = ferror(f);
  const int saved = errno;
  if (f != stdin) fclose(f);
  uint8_t md[FM_MAX_DIGEST_LEN];
  if (st == FM_OK && !read_error) {
    /* The final call wipes the context and sets the indicator; read it before anything else
     * calls the module. */
    st = dgst_final(d, md, sizeof md);
    fm_indicator ind;
    if (st == FM_OK && fm_service_indicator(&ind) == FM_OK && ind != FM_INDICATOR_APPROVED)
      *approved = 0;
  } else {
    dgst_wipe(d);
  }
  if (read_error) {
    fprintf(stderr, "fipsmod dgst: cannot read %s: %s\n", path, strerror(saved ? saved : EIO));
    return CLI_EXIT_USAGE;
  }
  if (st != FM_OK) {
    cli_report_status("dgst", st);
    return CLI_EXIT_FAILED;
  }
  print_line(md, md_len, path);
  return CLI_EXIT_OK;
}

/* dgst_files is cmd_dgst once its arguments are sorted out. */
static int dgst_files(const char *hash_name, const char *hmac_hex, const char *hmac_file,
                      const char *const *files, int n_files) {
  if (hash_name == NULL) return cli_bad_usage("dgst", k_dgst_usage, "--hash H is required");
  struct dgst d;
  memset(&d, 0, sizeof d);
  size_t md_len = 0;
  if (cli_hash_from_name(hash_name, &d.alg, &md_len) != 0)
    return cli_bad_usage("dgst", k_dgst_usage, "unsupported hash %s (this module offers %s)",
                         hash_name, cli_hash_list());
  if (hmac_hex != NULL && hmac_file != NULL)
    return cli_bad_usage("dgst", k_dgst_usage, "--hmac and --hmac-key exclude each other");
  uint8_t *key = NULL;
  size_t key_len = 0;
  if (hmac_hex != NULL) {
    key_len = strlen(hmac_hex) / 2;
    key = malloc(key_len + 1);
    if (key == NULL || cli_hex_decode(hmac_hex, strlen(hmac_hex), key) != 0) {
      cli_wipe_free(key, key_len + 1);
      return cli_bad_usage("dgst", k_dgst_usage, "--hmac takes the key in hex");
    }
  } else if (hmac_file != NULL && cli_read_all(hmac_file, &key, &key_len) != 0) {
    fprintf(stderr, "fipsmod dgst: cannot read %s: %s\n", hmac_file, strerror(errno));
    return CLI_EXIT_USAGE;
  }
  if (hmac_hex != NULL || hmac_file != NULL) {
    /* An empty key is a key: key stays non-NULL so that HMAC, not the plain hash, runs. */
    d.key = key;
    d.key_len = key_len;
  }
  int rc = CLI_EXIT_OK, approved = 1;
  for (int i = 0; i < n_files; i++) {
    const int r = hash_file(&d, md_len, files[i], &approved);
    /* The first failure decides: a refusal (1) outranks an unreadable file (2) only if first. */
    if (rc == CLI_EXIT_OK) rc = r;
    if (r == CLI_EXIT_FAILED) break;
  }
  cli_wipe_free(key, key_len + 1);
  if (!approved)
    fprintf(stderr, "fipsmod dgst: not an approved service (the module's service indicator)%s\n",
            d.key != NULL ? ": an HMAC key under 112 bits" : "");
  return cli_stdout_done("dgst", rc);
}

int cmd_dgst(int argc, char **argv) {
  if (cli_wants_help(argc, argv)) return cli_print_help(k_dgst_usage);
  static const char *const valued[] = {"hash", "hmac", "hmac-key", NULL};
  const char *hash_name = NULL, *hmac_hex = NULL, *hmac_file = NULL;
  /* Options and files in any order, as sha256sum takes them; "--" ends the options. */
  const char **files = malloc((size_t)argc * sizeof *files);
  if (files == NULL) {
    fprintf(stderr, "fipsmod dgst: out of memory\n");
    return CLI_EXIT_FAILED;
  }
  int n_files = 0, options_done = 0;
  for (int i = 1; i < argc; i++) {
    if (options_done || argv[i][0] != '-' || strcmp(argv[i], "-") == 0) {
      files[n_files++] = argv[i];
    } else if (strcmp(argv[i], "--") == 0) {
      options_done = 1;
    } else if (cli_opt_is(argv[i], "hash") && i + 1 < argc) {
      hash_name = argv[++i];
    } else if (cli_opt_is(argv[i], "hmac") && i + 1 < argc) {
      hmac_hex = argv[++i];
    } else if (cli_opt_is(argv[i], "hmac-key") && i + 1 < argc) {
      hmac_file = argv[++i];
    } else {
      free(files);
      return cli_bad_arg("dgst", k_dgst_usage, argv[i], valued);
    }
  }
  if (n_files == 0) files[n_files++] = "-";
  const int rc = dgst_files(hash_name, hmac_hex, hmac_file, files, n_files);
  free(files);
  return rc;
}
