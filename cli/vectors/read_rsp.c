/* The CAVP response-file reader: `#` comments, `[section]` and `[key = value]` headers, and
 * `key = value` lines, CRLF or LF. Cases are cut at the file's own case keys (COUNT, Len, ...). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/vectors/internal.h"

/* Files larger than this are not vector files; refuse them instead of exhausting memory. */
#define RSP_MAX_FILE_BYTES (256u << 20)

static char *trim(char *s) {
  while (*s == ' ' || *s == '\t') s++;
  size_t n = strlen(s);
  while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r')) s[--n] = '\0';
  return s;
}

int kat_read_text(kat_ctx *c, const char *path, char **out, size_t *out_len) {
  FILE *fp = fopen(path, "rb");
  if (fp == NULL) return kat_error(c, "%s: cannot open", path);
  size_t cap = 1 << 16, len = 0;
  char *buf = malloc(cap + 1);
  if (buf == NULL) {
    fclose(fp);
    return kat_error(c, "%s: out of memory", path);
  }
  for (;;) {
    if (len == cap) {
      if (cap >= RSP_MAX_FILE_BYTES) {
        free(buf);
        fclose(fp);
        return kat_error(c, "%s: larger than %u MiB, not a vector file", path,
                         RSP_MAX_FILE_BYTES >> 20);
      }
      char *nb = realloc(buf, 2 * cap + 1);
      if (nb == NULL) {
        free(buf);
        fclose(fp);
        return kat_error(c, "%s: out of memory", path);
      }
      buf = nb;
      cap *= 2;
    }
    size_t got = fread(buf + len, 1, cap - len, fp);
    len += got;
    if (got == 0) break;
  }
  int bad = ferror(fp);
  fclose(fp);
  if (bad) {
    free(buf);
    return kat_error(c, "%s: read error", path);
  }
  buf[len] = '\0';
  for (size_t i = 0; i < len; i++) {
    if (buf[i] == '\0') {
      size_t line = 1;
      for (size_t j = 0; j < i; j++) line += buf[j] == '\n';
      free(buf);
      return kat_error(c, "%s:%zu: binary data (NUL byte) in a text vector file", path, line);
    }
  }
  *out = buf;
  *out_len = len;
  return 0;
}

int rsp_parse(kat_ctx *c, const char *path, rsp_file *f) {
  memset(f, 0, sizeof(*f));
  size_t len = 0;
  if (kat_read_text(c, path, &f->buf, &len) < 0) return -1;
  size_t n_lines = 1;
  for (size_t i = 0; i < len; i++) n_lines += f->buf[i] == '\n';
  f->lines = calloc(n_lines, sizeof(*f->lines));
  if (f->lines == NULL) return kat_error(c, "%s: out of memory", path);

  char *p = f->buf;
  for (int line = 1; p != NULL && *p != '\0'; line++) {
    char *nl = strchr(p, '\n');
    if (nl) *nl = '\0';
    char *s = trim(p);
    p = nl ? nl + 1 : NULL;
    if (*s == '\0') continue;
    rsp_line *l = &f->lines[f->n];
    l->line = line;
    if (*s == '#') {
      l->type = RSP_COMMENT;
      l->val = s + 1;
      f->n++;
      continue;
    }
    if (*s == '[') {
      size_t sl = strlen(s);
      if (s[sl - 1] != ']') return kat_error(c, "%s:%d: section header without ']'", path, line);
      s[sl - 1] = '\0';
      char *inner = s + 1;
      char *eq = strchr(inner, '=');
      l->type = RSP_SECTION;
      if (eq) {
        *eq = '\0';
        l->key = trim(inner);
        l->val = trim(eq + 1);
      } else {
        l->key = trim(inner);
        l->val = NULL;
      }
      f->n++;
      continue;
    }
    char *eq = strchr(s, '=');
    if (eq == NULL && strcmp(s, "FAIL") == 0) {
      /* GCMVS decrypt files (gcmDecrypt*.rsp) mark a case whose tag must be rejected with a
       * bare FAIL line: kept as the key FAIL with an empty value. */
      l->type = RSP_KV;
      l->key = s;
      l->val = s + 4;
      f->n++;
      continue;
    }
    if (eq == NULL) {
      /* NIST's own files hold a few stray words (RSADPComponent800_56B.txt has a lone "d"):
       * such a line sets no value, so it is ignored and reported. A case that loses a value
       * this way still fails as malformed when the value is needed. */
      if (c->report->ignored_lines++ == 0) c->report->first_ignored_line = line;
      continue;
    }
    *eq = '\0';
    l->type = RSP_KV;
    l->key = trim(s);
    l->val = trim(eq + 1);
    if (*l->key == '\0') return kat_error(c, "%s:%d: `= value` without a key", path, line);
    f->n++;
  }
  return 0;
}

void rsp_free(rsp_file *f) {
  free(f->buf);
  free(f->lines);
  memset(f, 0, sizeof(*f));
}

int rsp_has_key(const rsp_file *f, const char *key) {
  for (size_t i = 0; i < f->n; i++) {
    if (f->lines[i].type == RSP_KV && strcasecmp(f->lines[i].key, key) == 0) return 1;
  }
  return 0;
}

int rsp_comment_has(const rsp_file *f, const char *text) {
  for (size_t i = 0; i < f->n; i++) {
    if (f->lines[i].type == RSP_COMMENT && strstr(f->lines[i].val, text) != NULL) return 1;
  }
  return 0;
}

static int in_list(const char *const *list, const char *key) {
  for (; list != NULL && *list != NULL; list++) {
    if (strcasecmp(*list, key) == 0) return 1;
  }
  return 0;
}

void rsp_walk_init(rsp_walk *w, const rsp_file *f, const char *const *start_keys,
                   const char *const *sticky_keys) {
  memset(w, 0, sizeof(*w));
  w->f = f;
  w->start_keys = start_keys;
  w->sticky_keys = sticky_keys;
  w->section = "";
}

static void set_sticky(rsp_walk *w, const rsp_line *l) {
  for (int i = 0; i < w->n_sticky; i++) {
    if (strcasecmp(w->sticky[i]->key, l->key) == 0) {
      w->sticky[i] = l;
      return;
    }
  }
  if (w->n_sticky < RSP_MAX_STICKY) w->sticky[w->n_sticky++] = l;
}

static void case_id(const rsp_walk *w, rsp_case *cs, const rsp_line *start) {
  size_t o = 0;
  cs->id[0] = '\0';
  if (w->section[0] != '\0') {
    o += (size_t)snprintf(cs->id + o, sizeof(cs->id) - o, "[%s] ", w->section);
  }
  for (int i = 0; i < w->n_attrs && o < sizeof(cs->id); i++) {
    /* Only the headers that tell sections apart, not the length headers of DRBG files. */
    if (w->n_attrs > 2 && i > 0) break;
    o += (size_t)snprintf(cs->id + o, sizeof(cs->id) - o, "[%s = %s] ", w->attrs[i]->key,
                          w->attrs[i]->val);
  }
  if (o < sizeof(cs->id)) {
    snprintf(cs->id + o, sizeof(cs->id) - o, "%s = %.24s (line %d)", start->key, start->val,
             start->line);
  }
}

int rsp_next_case(kat_ctx *c, rsp_walk *w, rsp_case *cs) {
  const rsp_file *f = w->f;
  memset(cs, 0, sizeof(*cs));
  for (; w->pos < f->n; w->pos++) {
    const rsp_line *l = &f->lines[w->pos];
    if (l->type == RSP_COMMENT) continue;
    if (l->type == RSP_SECTION) {
      if (cs->n_kv > 0) break; /* the case ends at the header */
      if (!w->last_was_header) {
        w->n_attrs = 0;
        w->n_sticky = 0;
      }
      if (l->val == NULL) {
        w->section = l->key;
        w->n_attrs = 0;
      } else if (w->n_attrs < RSP_MAX_ATTRS) {
        w->attrs[w->n_attrs++] = l;
      }
      w->last_was_header = 1;
      continue;
    }
    w->last_was_header = 0;
    if (in_list(w->start_keys, l->key)) {
      if (cs->n_kv > 0) break; /* the next case begins */
      cs->line = l->line;
      case_id(w, cs, l);
      cs->kv[cs->n_kv++] = l;
      continue;
    }
    if (in_list(w->sticky_keys, l->key)) {
      /* A new key (or seed) belongs to the cases after it: end the current case first. */
      if (cs->n_kv > 0) break;
      set_sticky(w, l);
      continue;
    }
    if (cs->n_kv == 0) {
      return kat_error(c, "%s:%d: `%s` outside any case (expected a %s line first)", c->path,
                       l->line, l->key, w->start_keys[0]);
    }
    if (cs->n_kv == RSP_MAX_CASE_LINES) {
      return kat_error(c, "%s:%d: case starting at line %d has too many lines", c->path, l->line,
                       cs->line);
    }
    cs->kv[cs->n_kv++] = l;
  }
  if (cs->n_kv == 0) return 0;
  cs->section = w->section;
  cs->n_attrs = w->n_attrs;
  memcpy(cs->attrs, w->attrs, sizeof(cs->attrs));
  return 1;
}

const rsp_line *rsp_get_line(const rsp_walk *w, const rsp_case *cs, const char *key) {
  /* The first occurrence: NIST's files repeat some keys after a case's answer as stray
   * leftovers (RSADPComponent800_56B.txt ends COUNT = 20 with an empty "d = "). Repeated keys
   * that carry meaning (DRBG AdditionalInput) are read in order from cs->kv by their runner. */
  for (int i = 0; i < cs->n_kv; i++) {
    if (strcasecmp(cs->kv[i]->key, key) == 0) return cs->kv[i];
  }
  for (int i = 0; i < w->n_sticky; i++) {
    if (strcasecmp(w->sticky[i]->key, key) == 0) return w->sticky[i];
  }
  return NULL;
}

const char *rsp_get(const rsp_walk *w, const rsp_case *cs, const char *key) {
  const rsp_line *l = rsp_get_line(w, cs, key);
  return l ? l->val : NULL;
}

const char *rsp_attr(const rsp_case *cs, const char *key) {
  for (int i = 0; i < cs->n_attrs; i++) {
    if (strcasecmp(cs->attrs[i]->key, key) == 0) return cs->attrs[i]->val;
  }
  return NULL;
}

static int rsp_hex_impl(kat_ctx *c, const rsp_walk *w, const rsp_case *cs, const char *key,
                        kat_bytes *out, int optional, int odd_ok) {
  const rsp_line *l = rsp_get_line(w, cs, key);
  if (l == NULL) {
    if (optional) {
      out->p = kat_alloc(c, 1);
      out->n = 0;
      return out->p ? 0 : -1;
    }
    return kat_error(c, "%s:%d: case %s has no `%s`", c->path, cs->line, cs->id, key);
  }
  if (kat_hex_decode(c, l->val, odd_ok, out) < 0) {
    return kat_error(c, "%s:%d: `%s` is not an even number of hex digits", c->path, l->line, key);
  }
  return 0;
}

int rsp_hex(kat_ctx *c, const rsp_walk *w, const rsp_case *cs, const char *key, kat_bytes *out) {
  return rsp_hex_impl(c, w, cs, key, out, 0, 0);
}

int rsp_num(kat_ctx *c, const rsp_walk *w, const rsp_case *cs, const char *key, kat_bytes *out) {
  /* Odd digit counts: the NIST RSA files drop a leading zero from some numbers. */
  return rsp_hex_impl(c, w, cs, key, out, 0, 1);
}

int rsp_hex_opt(kat_ctx *c, const rsp_walk *w, const rsp_case *cs, const char *key,
                kat_bytes *out) {
  return rsp_hex_impl(c, w, cs, key, out, 1, 0);
}

int rsp_long(kat_ctx *c, const rsp_walk *w, const rsp_case *cs, const char *key, long *out) {
  const rsp_line *l = rsp_get_line(w, cs, key);
  if (l == NULL) return kat_error(c, "%s:%d: case %s has no `%s`", c->path, cs->line, cs->id, key);
  if (kat_parse_long(l->val, out) < 0) {
    return kat_error(c, "%s:%d: `%s` is not a number", c->path, l->line, key);
  }
  return 0;
}

int rsp_has_section(const rsp_file *f, const char *text) {
  for (size_t i = 0; i < f->n; i++) {
    if (f->lines[i].type == RSP_SECTION && strstr(f->lines[i].key, text) != NULL) return 1;
  }
  return 0;
}
