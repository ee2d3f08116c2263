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

int cli_hash_from_name(const char *name, fm_hash_alg *alg, size_t *digest_len) {
  static const struct {
    const char *name;
    fm_hash_alg alg;
  } k_names[] = {
      {"sha256", FM_HASH_SHA256},
      {"sha384", FM_HASH_SHA384},
      {"sha512", FM_HASH_SHA512},
  };
  for (size_t i = 0; i < sizeof k_names / sizeof k_names[0]; i++) {
    if (strcmp(name, k_names[i].name) == 0) {
      *alg = k_names[i].alg;
      return fm_hash_digest_len(*alg, digest_len) == FM_OK ? 0 : -1;
    }
  }
  return -1;
}
