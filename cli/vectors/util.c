/* Case bookkeeping, the per-case arena and hex helpers of the KAT runner. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/vectors/internal.h"

void *kat_alloc(kat_ctx *c, size_t n) {
  if (c->arena_len == c->arena_cap) {
    size_t cap = c->arena_cap ? 2 * c->arena_cap : 32;
    void **a = realloc(c->arena, cap * sizeof(*a));
    if (a == NULL) {
      kat_error(c, "%s: out of memory", c->path);
      return NULL;
    }
    c->arena = a;
    c->arena_cap = cap;
  }
  void *p = calloc(1, n ? n : 1);
  if (p == NULL) {
    kat_error(c, "%s: out of memory (%zu bytes)", c->path, n);
    return NULL;
  }
  c->arena[c->arena_len++] = p;
  return p;
}

void kat_arena_reset(kat_ctx *c) {
  for (size_t i = 0; i < c->arena_len; i++) free(c->arena[i]);
  c->arena_len = 0;
}

int kat_error(kat_ctx *c, const char *fmt, ...) {
  kat_report *r = c->report;
  if (!r->error) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->errmsg, sizeof(r->errmsg), fmt, ap);
    va_end(ap);
    r->error = 1;
  }
  return -1;
}

void kat_set_kind(kat_ctx *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(c->report->kind, sizeof(c->report->kind), fmt, ap);
  va_end(ap);
}

void kat_pass(kat_ctx *c) { c->report->pass++; }

void kat_fail(kat_ctx *c, const char *id, const char *fmt, ...) {
  kat_report *r = c->report;
  r->fail++;
  if (r->n_failures < KAT_MAX_FAILURES) {
    kat_failure *f = &r->failures[r->n_failures++];
    snprintf(f->id, sizeof(f->id), "%s", id);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->msg, sizeof(f->msg), fmt, ap);
    va_end(ap);
  }
}

static void skip_record(kat_ctx *c, long n, const char *reason) {
  kat_report *r = c->report;
  r->skip += n;
  for (int i = 0; i < r->n_skip_reasons; i++) {
    if (strcmp(r->skips[i].reason, reason) == 0) {
      r->skips[i].count += n;
      return;
    }
  }
  if (r->n_skip_reasons < KAT_MAX_SKIP_REASONS) {
    kat_skip_reason *s = &r->skips[r->n_skip_reasons++];
    snprintf(s->reason, sizeof(s->reason), "%s", reason);
    s->count = n;
  } else {
    r->skips_unlisted += n;
  }
}

void kat_skip(kat_ctx *c, const char *reason_fmt, ...) {
  char reason[200];
  va_list ap;
  va_start(ap, reason_fmt);
  vsnprintf(reason, sizeof(reason), reason_fmt, ap);
  va_end(ap);
  skip_record(c, 1, reason);
}

void kat_skip_n(kat_ctx *c, long n, const char *reason_fmt, ...) {
  char reason[200];
  va_list ap;
  va_start(ap, reason_fmt);
  vsnprintf(reason, sizeof(reason), reason_fmt, ap);
  va_end(ap);
  if (n > 0) skip_record(c, n, reason);
}

void kat_hex_string(const uint8_t *p, size_t n, char *out, size_t cap) {
  static const char digits[] = "0123456789abcdef";
  size_t o = 0;
  if (cap == 0) return;
  for (size_t i = 0; i < n; i++) {
    if (o + 2 >= cap || (o + 5 >= cap && i + 1 < n)) {
      if (o + 4 <= cap) {
        memcpy(out + o, "...", 3);
        o += 3;
      }
      break;
    }
    out[o++] = digits[p[i] >> 4];
    out[o++] = digits[p[i] & 15];
  }
  out[o] = '\0';
}

int kat_compare(kat_ctx *c, const char *id, const char *what, const uint8_t *got, size_t got_len,
                const uint8_t *want, size_t want_len) {
  if (got_len == want_len && (want_len == 0 || memcmp(got, want, want_len) == 0)) {
    kat_pass(c);
    return 1;
  }
  char g[100], w[100];
  kat_hex_string(got, got_len, g, sizeof(g));
  kat_hex_string(want, want_len, w, sizeof(w));
  kat_fail(c, id, "%s mismatch: expected %s (%zu bytes), got %s (%zu bytes)", what, w, want_len,
           g, got_len);
  return 0;
}

static int hex_digit(int ch) {
  if (ch >= '0' && ch <= '9') return ch - '0';
  if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
  if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
  return -1;
}

int kat_hex_decode(kat_ctx *c, const char *hex, int odd_ok, kat_bytes *out) {
  while (*hex == ' ' || *hex == '\t') hex++;
  size_t len = strlen(hex);
  while (len > 0 && (hex[len - 1] == ' ' || hex[len - 1] == '\t')) len--;
  for (size_t i = 0; i < len; i++) {
    if (hex_digit((unsigned char)hex[i]) < 0) return -1;
  }
  if ((len & 1) && !odd_ok) return -1;
  size_t n = (len + 1) / 2;
  uint8_t *p = kat_alloc(c, n);
  if (p == NULL) return -1;
  /* An odd digit count is a number whose leading zero digit was dropped. */
  size_t i = 0, o = 0;
  if (len & 1) {
    p[o++] = (uint8_t)hex_digit((unsigned char)hex[0]);
    i = 1;
  }
  for (; i < len; i += 2) {
    p[o++] = (uint8_t)(hex_digit((unsigned char)hex[i]) << 4 | hex_digit((unsigned char)hex[i + 1]));
  }
  out->p = p;
  out->n = n;
  return 0;
}

int kat_parse_long(const char *s, long *out) {
  while (*s == ' ' || *s == '\t') s++;
  if (*s == '\0') return -1;
  errno = 0;
  char *end;
  long v = strtol(s, &end, 10);
  while (*end == ' ' || *end == '\t') end++;
  if (errno != 0 || *end != '\0') return -1;
  *out = v;
  return 0;
}

void kat_wipe(void *p, size_t n) {
  volatile uint8_t *v = p;
  while (n--) *v++ = 0;
}

kat_bytes kat_num_strip(kat_bytes b) {
  while (b.n > 1 && b.p[0] == 0) {
    b.p++;
    b.n--;
  }
  return b;
}

size_t kat_num_bits(kat_bytes b) {
  b = kat_num_strip(b);
  if (b.n == 0 || (b.n == 1 && b.p[0] == 0)) return 0;
  size_t bits = (b.n - 1) * 8;
  for (uint8_t top = b.p[0]; top; top >>= 1) bits++;
  return bits;
}

int kat_num_cmp(kat_bytes a, kat_bytes b) {
  a = kat_num_strip(a);
  b = kat_num_strip(b);
  if (a.n != b.n) return a.n < b.n ? -1 : 1;
  int r = memcmp(a.p, b.p, a.n);
  return r < 0 ? -1 : r > 0;
}
