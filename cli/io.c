/* File and text helpers the subcommands share (see io.h). */
#define _GNU_SOURCE
#include "cli/io.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/options.h"
#include "fipsmod/util.h"

void cli_wipe_free(uint8_t *p, size_t n) {
  if (p == NULL) return;
  (void)fm_cleanse(p, n);
  free(p);
}

int cli_read_all(const char *path, uint8_t **out, size_t *out_len) {
  FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
  if (f == NULL) return -1;
  size_t cap = 4096, n = 0;
  uint8_t *buf = malloc(cap);
  int too_big = 0;
  while (buf != NULL) {
    size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (n < cap) break;
    if (cap >= CLI_MAX_INPUT) {
      too_big = 1;
      break;
    }
    uint8_t *bigger = malloc(cap * 2);
    if (bigger != NULL) memcpy(bigger, buf, n);
    cli_wipe_free(buf, n);
    buf = bigger;
    cap *= 2;
  }
  const int saved = buf == NULL ? ENOMEM : too_big ? EFBIG : ferror(f) ? EIO : 0;
  if (f != stdin) fclose(f);
  if (saved != 0) {
    cli_wipe_free(buf, n);
    errno = saved;
    return -1;
  }
  *out = buf;
  *out_len = n;
  return 0;
}

/* write_fd writes |n| bytes to |fd|; 0 when all were written. */
static int write_fd(int fd, const uint8_t *p, size_t n) {
  size_t done = 0;
  while (done < n) {
    ssize_t w = write(fd, p + done, n - done);
    if (w < 0 && errno == EINTR) continue;
    if (w == 0) errno = ENOSPC;
    if (w <= 0) return -1;
    done += (size_t)w;
  }
  return 0;
}

/* The temporary file is created with O_EXCL (mkstemp), so never an existing file or a
 * symlink's target; a symlink at |path| is replaced by the rename, its target left untouched. */
int cli_replace_file(const char *path, const uint8_t *p, size_t n, unsigned mode) {
  const size_t len = strlen(path);
  char *tmp = malloc(len + sizeof ".XXXXXX");
  if (tmp == NULL) return -1;
  memcpy(tmp, path, len);
  memcpy(tmp + len, ".XXXXXX", sizeof ".XXXXXX");
  int fd = mkstemp(tmp);
  if (fd < 0) {
    free(tmp);
    return -1;
  }
  int ok = fchmod(fd, (mode_t)mode) == 0 && write_fd(fd, p, n) == 0 && fsync(fd) == 0;
  int saved = errno;
  ok = close(fd) == 0 && ok;
  ok = ok && rename(tmp, path) == 0;
  if (!ok) {
    if (saved == 0) saved = errno;
    (void)unlink(tmp);
    errno = saved;
  }
  free(tmp);
  return ok ? 0 : -1;
}

int cli_write_all(const char *path, const uint8_t *p, size_t n, int private_file) {
  if (path == NULL || strcmp(path, "-") == 0) {
    return fwrite(p, 1, n, stdout) == n && fflush(stdout) == 0 ? 0 : -1;
  }
  if (private_file) return cli_replace_file(path, p, n, 0600);
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return -1;
  const int ok = write_fd(fd, p, n) == 0;
  const int saved = errno;
  const int closed = close(fd) == 0;
  if (!ok) errno = saved;
  return closed && ok ? 0 : -1;
}

int cli_stdout_done(const char *cmd, int rc) {
  /* A write that failed earlier left its errno (ENOSPC, EPIPE) unless something since set
   * another: the message names it when it can, and says EIO otherwise. */
  if (fflush(stdout) == 0 && !ferror(stdout)) return rc;
  fprintf(stderr, "fipsmod %s: cannot write standard output: %s\n", cmd,
          strerror(errno ? errno : EIO));
  return CLI_EXIT_USAGE;
}

/* The hash names users type, lower-cased: openssl's (sha256, sha512-224, sha3-256), the
 * specifications' (SHA-256, SHA-512/224) and ACVP's (SHA2-256, SHA2-512/224). The ids past
 * SHA-512 are the fixed fm_hash_alg values of SHA-224, SHA-512/224, SHA-512/256 and SHA3: a
 * module that does not offer one answers FM_ERR_UNSUPPORTED, and so does the name. The first
 * name of each row is the one messages use. */
static const struct {
  int id;
  const char *names[4];
} k_hash_names[] = {
    {FM_HASH_SHA256, {"sha256", "sha-256", "sha2-256", NULL}},
    {FM_HASH_SHA384, {"sha384", "sha-384", "sha2-384", NULL}},
    {FM_HASH_SHA512, {"sha512", "sha-512", "sha2-512", NULL}},
    {4, {"sha224", "sha-224", "sha2-224", NULL}},
    {5, {"sha512-224", "sha-512/224", "sha2-512/224", "sha512/224"}},
    {6, {"sha512-256", "sha-512/256", "sha2-512/256", "sha512/256"}},
    {7, {"sha3-224", NULL, NULL, NULL}},
    {8, {"sha3-256", NULL, NULL, NULL}},
    {9, {"sha3-384", NULL, NULL, NULL}},
    {10, {"sha3-512", NULL, NULL, NULL}},
};

#define N_HASH_NAMES (sizeof k_hash_names / sizeof k_hash_names[0])

int cli_hash_from_name(const char *name, fm_hash_alg *alg, size_t *digest_len) {
  for (size_t i = 0; i < N_HASH_NAMES; i++) {
    for (size_t j = 0; j < 4 && k_hash_names[i].names[j] != NULL; j++) {
      if (strcasecmp(name, k_hash_names[i].names[j]) != 0) continue;
      *alg = (fm_hash_alg)k_hash_names[i].id;
      return fm_hash_digest_len(*alg, digest_len) == FM_OK ? 0 : -1;
    }
  }
  return -1;
}

const char *cli_hash_name(fm_hash_alg alg) {
  for (size_t i = 0; i < N_HASH_NAMES; i++)
    if (k_hash_names[i].id == (int)alg) return k_hash_names[i].names[0];
  return "?";
}

const char *cli_hash_list(void) {
  /* Built once: the module's offer does not change while the process runs. */
  static char list[160];
  if (list[0] != '\0') return list;
  size_t len = 0;
  for (size_t i = 0; i < N_HASH_NAMES; i++) {
    size_t dlen;
    if (fm_hash_digest_len((fm_hash_alg)k_hash_names[i].id, &dlen) != FM_OK) continue;
    const int w =
        snprintf(list + len, sizeof list - len, "%s%s", len ? ", " : "", k_hash_names[i].names[0]);
    if (w < 0 || (size_t)w >= sizeof list - len) break;
    len += (size_t)w;
  }
  return list;
}

static const char k_hex[] = "0123456789abcdef";
static const char k_b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

void cli_hex_encode(const uint8_t *in, size_t n, char *text) {
  for (size_t i = 0; i < n; i++) {
    text[2 * i] = k_hex[in[i] >> 4];
    text[2 * i + 1] = k_hex[in[i] & 15];
  }
}

size_t cli_base64_encode(const uint8_t *in, size_t n, char *text) {
  size_t o = 0, i = 0;
  for (; i + 3 <= n; i += 3) {
    const uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 | in[i + 2];
    text[o++] = k_b64[v >> 18];
    text[o++] = k_b64[(v >> 12) & 63];
    text[o++] = k_b64[(v >> 6) & 63];
    text[o++] = k_b64[v & 63];
  }
  if (i < n) {
    /* RFC 4648 section 4: the last 1 or 2 bytes, padded with '='. */
    const uint32_t v = (uint32_t)in[i] << 16 | (i + 1 < n ? (uint32_t)in[i + 1] << 8 : 0);
    text[o++] = k_b64[v >> 18];
    text[o++] = k_b64[(v >> 12) & 63];
    text[o++] = i + 1 < n ? k_b64[(v >> 6) & 63] : '=';
    text[o++] = '=';
  }
  return o;
}

/* in_range is -1 (all ones) when lo <= c <= hi, else 0, without a branch: both differences are
 * negative only inside the range, and the arithmetic shift spreads the sign. Keys come through
 * the two decoders below (hex HMAC and KDF keys, PEM private keys), so neither branches on a
 * character nor indexes a table with it. */
static int in_range(int c, int lo, int hi) { return ((lo - 1 - c) & (c - (hi + 1))) >> 8; }

/* hex_value is the value of a hex digit, or -1. */
static int hex_value(char ch) {
  const int c = (unsigned char)ch;
  return -1 + (in_range(c, '0', '9') & (c - '0' + 1)) + (in_range(c, 'a', 'f') & (c - 'a' + 11)) +
         (in_range(c, 'A', 'F') & (c - 'A' + 11));
}

int cli_hex_decode(const char *text, size_t len, uint8_t *out) {
  if (len % 2 != 0) return -1;
  int bad = 0; /* the sign bit of any -1: tested once, after the last digit */
  for (size_t i = 0; i < len; i += 2) {
    const int hi = hex_value(text[i]), lo = hex_value(text[i + 1]);
    bad |= hi | lo;
    out[i / 2] = (uint8_t)((unsigned)hi << 4 | (unsigned)lo); /* hi, lo may be -1: shift unsigned */
  }
  return bad < 0 ? -1 : 0;
}

/* b64_value is the value of an RFC 4648 base64 digit, or -1. */
static int b64_value(char ch) {
  const int c = (unsigned char)ch;
  return -1 + (in_range(c, 'A', 'Z') & (c - 'A' + 1)) + (in_range(c, 'a', 'z') & (c - 'a' + 27)) +
         (in_range(c, '0', '9') & (c - '0' + 53)) + (in_range(c, '+', '+') & 63) +
         (in_range(c, '/', '/') & 64);
}

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

int cli_base64_decode(const char *text, size_t len, uint8_t *out, size_t *out_len) {
  uint32_t acc = 0;
  size_t o = 0, digits = 0, pad = 0;
  for (size_t i = 0; i < len; i++) {
    const char c = text[i];
    if (is_space(c)) continue;
    if (c == '=') {
      pad++;
      digits++;
      continue;
    }
    const int v = b64_value(c);
    if (v < 0 || pad > 0) return -1; /* nothing but '=' after the first '=' */
    acc = acc << 6 | (uint32_t)v;
    digits++;
    if (digits % 4 == 0) {
      out[o++] = (uint8_t)(acc >> 16);
      out[o++] = (uint8_t)(acc >> 8);
      out[o++] = (uint8_t)acc;
      acc = 0;
    }
  }
  if (digits % 4 != 0 || pad > 2) return -1;
  if (pad > 0) {
    /* The last group: 4 - pad digits carry 3 - pad bytes. */
    acc <<= 6 * pad;
    out[o++] = (uint8_t)(acc >> 16);
    if (pad == 1) out[o++] = (uint8_t)(acc >> 8);
  }
  *out_len = o;
  return 0;
}

int cli_text_decode(const uint8_t *text, size_t len, uint8_t **out, size_t *out_len) {
  const char *t = (const char *)text;
  size_t start = 0, end = len;
  while (start < end && is_space(t[start])) start++;
  while (end > start && is_space(t[end - 1])) end--;
  /* Room for either: hex gives len / 2 bytes, base64 3 * len / 4. */
  const size_t cap = end - start + 3;
  uint8_t *buf = malloc(cap);
  if (buf == NULL) return -1;
  if (cli_hex_decode(t + start, end - start, buf) == 0 && end > start) {
    *out = buf;
    *out_len = (end - start) / 2;
    return 0;
  }
  if (end > start && cli_base64_decode(t + start, end - start, buf, out_len) == 0) {
    *out = buf;
    return 0;
  }
  cli_wipe_free(buf, cap);
  return -1;
}
