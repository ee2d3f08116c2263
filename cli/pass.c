/* Passphrase sources (see pass.h). */
#define _POSIX_C_SOURCE 200809L /* O_CLOEXEC, read */

#include "cli/pass.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/io.h"
#include "cli/options.h"
#include "fipsmod/fipsmod.h"

/* The longest passphrase taken (openssl takes up to 1024 bytes from a file or descriptor). */
#define PASS_MAX 1024

void cli_pass_free(uint8_t *pass, size_t len) { cli_wipe_free(pass, len); }

/* first_line reads from |fd| up to the first line ending (or PASS_MAX bytes, or the end) into
 * |buf|; returns its length, or -1 on a read error. One byte at a time, so that a descriptor
 * shared with other readers loses nothing past the line. */
static long first_line(int fd, uint8_t *buf) {
  size_t n = 0;
  while (n < PASS_MAX) {
    uint8_t c;
    const ssize_t r = read(fd, &c, 1);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return -1;
    if (r == 0 || c == '\n') break;
    buf[n++] = c;
  }
  if (n > 0 && buf[n - 1] == '\r') n--;
  return (long)n;
}

int cli_pass_read(const char *cmd, const char *opt, const char *spec, uint8_t **pass,
                  size_t *len) {
  *pass = NULL;
  *len = 0;
  uint8_t *buf = malloc(PASS_MAX + 1);
  if (buf == NULL) {
    fprintf(stderr, "fipsmod %s: out of memory\n", cmd);
    return CLI_EXIT_USAGE;
  }
  long n = -1;
  const char *what = NULL;
  if (strncmp(spec, "pass:", 5) == 0) {
    const size_t l = strlen(spec + 5);
    if (l <= PASS_MAX) {
      memcpy(buf, spec + 5, l);
      n = (long)l;
    } else {
      what = "longer than 1024 bytes";
    }
  } else if (strncmp(spec, "env:", 4) == 0) {
    const char *v = getenv(spec + 4);
    if (v == NULL) {
      what = "no such environment variable";
    } else if (strlen(v) > PASS_MAX) {
      what = "longer than 1024 bytes";
    } else {
      n = (long)strlen(v);
      memcpy(buf, v, (size_t)n);
    }
  } else if (strncmp(spec, "file:", 5) == 0) {
    const int fd = open(spec + 5, O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
      n = first_line(fd, buf);
      close(fd);
    }
    if (n < 0) what = strerror(errno);
  } else if (strncmp(spec, "fd:", 3) == 0) {
    char *end = NULL;
    errno = 0;
    const long fd = strtol(spec + 3, &end, 10);
    if (spec[3] == '\0' || *end != '\0' || fd < 0 || fd > 1048576 || errno != 0) {
      what = "not a descriptor number";
    } else {
      n = first_line((int)fd, buf);
      if (n < 0) what = strerror(errno);
    }
  } else {
    fprintf(stderr,
            "fipsmod %s: %s takes pass:TEXT, env:VAR, file:PATH or fd:N, not \"%.40s%s\"\n", cmd,
            opt, spec, strlen(spec) > 40 ? "..." : "");
    cli_wipe_free(buf, PASS_MAX + 1);
    return CLI_EXIT_USAGE;
  }
  if (n < 0) {
    /* Only the source's kind and name are shown, never a pass: value. */
    const char *colon = strchr(spec, ':');
    fprintf(stderr, "fipsmod %s: %s %.*s%s: %s\n", cmd, opt,
            (int)(colon - spec + 1), spec, strncmp(spec, "pass:", 5) == 0 ? "..." : colon + 1,
            what ? what : "cannot read");
    cli_wipe_free(buf, PASS_MAX + 1);
    return CLI_EXIT_USAGE;
  }
  *pass = buf;
  *len = (size_t)n;
  /* cli_pass_free wipes *len bytes: wipe the rest of the buffer now. */
  fm_cleanse(buf + n, PASS_MAX + 1 - (size_t)n);
  return 0;
}
