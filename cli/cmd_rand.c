/* `fipsmod rand N [--hex|--base64] [--out FILE]` and `fipsmod uuid [--count N] [--v4|--v7]`:
 * draws through rand.h and uuid.h. Options take one dash or two (cli/options.h). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/io.h"
#include "cli/options.h"
#include "fipsmod/rand.h"
#include "fipsmod/util.h"
#include "fipsmod/uuid.h"

/* The most either command produces in one run: enough for any script, small enough that a
 * typo cannot fill a disk. */
#define MAX_RAND_BYTES (UINT64_C(1) << 32)
#define MAX_UUIDS 100000000ull

static const char k_rand_usage[] =
    "usage: fipsmod rand N [--hex|--base64] [--out FILE]\n"
    "  N random bytes (0 to 4294967296) from the module's DRBG, raw unless --hex (lower-case\n"
    "  hex, one line) or --base64 (RFC 4648, one line); to standard output unless --out.\n"
    "  Options take one dash or two (-hex, --hex).\n" CLI_EXIT_TEXT;

static const char k_uuid_usage[] =
    "usage: fipsmod uuid [--count N] [--v4|--v7]\n"
    "  N (default 1, at most 100000000) RFC 9562 UUIDs, version 4 (random, the default) or\n"
    "  version 7 (time-ordered, strictly increasing), one per line.\n"
    "  Options take one dash or two (-count, --count).\n" CLI_EXIT_TEXT;

/* parse_count accepts a plain decimal number 0..max (no sign, no suffix). */
static int parse_count(const char *s, unsigned long long max, unsigned long long *out) {
  if (s == NULL || *s < '0' || *s > '9') return -1;
  errno = 0;
  char *end;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno != 0 || *end != '\0' || v > max) return -1;
  *out = v;
  return 0;
}

enum rand_format { RAND_RAW, RAND_HEX, RAND_BASE64 };

/* encode writes |n| bytes of |in| as text into |text| and returns its length. Base64 takes
 * whole groups of 3 bytes except in the last chunk, which pads. */
static size_t encode(enum rand_format fmt, const uint8_t *in, size_t n, char *text) {
  if (fmt == RAND_BASE64) return cli_base64_encode(in, n, text);
  cli_hex_encode(in, n, text);
  return 2 * n;
}

int cmd_rand(int argc, char **argv) {
  if (cli_wants_help(argc, argv)) return cli_print_help(k_rand_usage);
  const char *count = NULL, *out_path = NULL;
  enum rand_format fmt = RAND_RAW;
  for (int i = 1; i < argc; i++) {
    if (cli_opt_is(argv[i], "hex") && fmt == RAND_RAW) {
      fmt = RAND_HEX;
    } else if (cli_opt_is(argv[i], "base64") && fmt == RAND_RAW) {
      fmt = RAND_BASE64;
    } else if (cli_opt_is(argv[i], "out") && i + 1 < argc && out_path == NULL) {
      out_path = argv[++i];
    } else if (count == NULL && argv[i][0] != '-') {
      count = argv[i];
    } else if (cli_opt_is(argv[i], "hex") || cli_opt_is(argv[i], "base64")) {
      return cli_bad_usage("rand", k_rand_usage, "give one of --hex and --base64");
    } else if (cli_opt_is(argv[i], "out") && out_path != NULL) {
      return cli_bad_usage("rand", k_rand_usage, "--out given twice");
    } else {
      static const char *const valued[] = {"out", NULL};
      return cli_bad_arg("rand", k_rand_usage, argv[i], valued);
    }
  }
  unsigned long long n;
  if (parse_count(count, MAX_RAND_BYTES, &n) < 0) {
    fprintf(stderr, "fipsmod rand: N must be a number of bytes from 0 to %llu\n",
            (unsigned long long)MAX_RAND_BYTES);
    return CLI_EXIT_USAGE;
  }
  FILE *out = stdout;
  if (out_path != NULL && strcmp(out_path, "-") != 0) {
    out = fopen(out_path, fmt == RAND_RAW ? "wb" : "w");
    if (out == NULL) {
      fprintf(stderr, "fipsmod rand: cannot write %s: %s\n", out_path, strerror(errno));
      return CLI_EXIT_USAGE;
    }
  }
  /* 4095 bytes: a whole number of base64 groups, so only the last chunk pads. */
  uint8_t buf[4095];
  char text[2 * sizeof(buf) + 4];
  int status = CLI_EXIT_OK;
  while (n > 0) {
    size_t chunk = n > sizeof(buf) ? sizeof(buf) : (size_t)n;
    int rc = fm_rand_bytes(buf, chunk);
    if (rc != FM_OK) {
      cli_report_status("rand", rc);
      status = CLI_EXIT_FAILED;
      break;
    }
    int ok;
    if (fmt == RAND_RAW) {
      ok = fwrite(buf, 1, chunk, out) == chunk;
    } else {
      size_t len = encode(fmt, buf, chunk, text);
      ok = fwrite(text, 1, len, out) == len;
    }
    if (!ok) {
      fprintf(stderr, "fipsmod rand: cannot write %s: %s\n",
              out_path ? out_path : "standard output", strerror(errno ? errno : EIO));
      status = CLI_EXIT_USAGE;
      break;
    }
    n -= chunk;
  }
  /* The bytes are secret until the caller publishes them: do not leave copies behind. */
  if (fm_cleanse(buf, sizeof(buf)) != FM_OK || fm_cleanse(text, sizeof(text)) != FM_OK)
    status = CLI_EXIT_FAILED;
  if (status == CLI_EXIT_OK && fmt != RAND_RAW) fputc('\n', out);
  errno = 0;
  const int lost = ferror(out);
  if ((out == stdout ? fflush(out) != 0 : fclose(out) != 0) || lost) {
    if (status == CLI_EXIT_OK)
      fprintf(stderr, "fipsmod rand: cannot write %s: %s\n",
              out_path ? out_path : "standard output", strerror(errno ? errno : EIO));
    if (status != CLI_EXIT_FAILED) status = CLI_EXIT_USAGE;
  }
  return status;
}

int cmd_uuid(int argc, char **argv) {
  if (cli_wants_help(argc, argv)) return cli_print_help(k_uuid_usage);
  unsigned long long n = 1;
  int v7 = 0;
  for (int i = 1; i < argc; i++) {
    if (cli_opt_is(argv[i], "v7")) {
      v7 = 1;
    } else if (cli_opt_is(argv[i], "v4")) {
      v7 = 0;
    } else if (cli_opt_is(argv[i], "count") && i + 1 < argc) {
      if (parse_count(argv[++i], MAX_UUIDS, &n) < 0) {
        fprintf(stderr, "fipsmod uuid: --count must be a number from 0 to %llu\n", MAX_UUIDS);
        return CLI_EXIT_USAGE;
      }
    } else {
      static const char *const valued[] = {"count", NULL};
      return cli_bad_arg("uuid", k_uuid_usage, argv[i], valued);
    }
  }
  char s[FM_UUID_STRING_LEN + 1];
  for (unsigned long long i = 0; i < n; i++) {
    int rc = v7 ? fm_uuid_v7_string(s) : fm_uuid_v4_string(s);
    if (rc != FM_OK) {
      cli_report_status("uuid", rc);
      return CLI_EXIT_FAILED;
    }
    if (puts(s) == EOF) break;
  }
  return cli_stdout_done("uuid", CLI_EXIT_OK);
}
