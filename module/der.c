/* DER and PEM for the key-file codecs and the DER ECDSA signatures (module/der.h, which says what
 * is public and what is secret). */
#include "module/der.h"

#include <stdlib.h>

#include "module/internal.h"

/* ---- Reading ---------------------------------------------------------------------------------- */

int der_peek_tag(const der_span *s) {
  if (s->n == 0) return -1;
  fm_declassify(s->p, 1); /* structure */
  return s->p[0];
}

int der_get(der_span *s, uint8_t tag, der_span *body) {
  if (s->n < 2) return FM_ERR_PARSE;
  fm_declassify(s->p, 2); /* the tag and the first length byte: structure */
  if (s->p[0] != tag) return FM_ERR_PARSE;
  size_t len, hdr;
  uint8_t b = s->p[1];
  if (b < 0x80) {
    len = b;
    hdr = 2;
  } else {
    size_t nb = b & 0x7fu;
    /* 0x80 is the indefinite form (BER only); over 3 bytes of length exceeds DER_MAX_LEN. */
    if (nb == 0 || nb > 3 || s->n < 2 + nb) return FM_ERR_PARSE;
    fm_declassify(s->p + 2, nb); /* the long form's length bytes */
    if (s->p[2] == 0) return FM_ERR_PARSE;
    len = 0;
    for (size_t i = 0; i < nb; i++) len = (len << 8) | s->p[2 + i];
    if (len < 0x80) return FM_ERR_PARSE; /* the short form was required */
    hdr = 2 + nb;
  }
  if (len > s->n - hdr) return FM_ERR_PARSE;
  body->p = s->p + hdr;
  body->n = len;
  s->p += hdr + len;
  s->n -= hdr + len;
  return FM_OK;
}

int der_get_uint(der_span *s, der_span *out) {
  der_span v;
  int st = der_get(s, DER_INTEGER, &v);
  if (st != FM_OK) return st;
  if (v.n == 0) return FM_ERR_PARSE;
  fm_declassify(v.p, v.n < 2 ? v.n : 2); /* the first byte (and the one after a sign byte) */
  if ((v.p[0] & 0x80) != 0) return FM_ERR_PARSE; /* negative */
  if (v.n > 1 && v.p[0] == 0) {
    if ((v.p[1] & 0x80) == 0) return FM_ERR_PARSE; /* a leading zero that is not a sign byte */
    v.p++;
    v.n--;
  }
  *out = v;
  return FM_OK;
}

int der_get_version(der_span *s, uint8_t want) {
  der_span v;
  int st = der_get(s, DER_INTEGER, &v);
  if (st != FM_OK) return st;
  if (v.n != 1) return FM_ERR_PARSE;
  fm_declassify(v.p, 1);
  return v.p[0] == want ? FM_OK : FM_ERR_UNSUPPORTED;
}

bool der_equals(der_span s, const uint8_t *want, size_t n) {
  fm_declassify(s.p, s.n); /* the caller's word: public */
  if (s.n != n) return false;
  for (size_t i = 0; i < n; i++)
    if (s.p[i] != want[i]) return false;
  return true;
}

/* ---- Writing ---------------------------------------------------------------------------------- */

void der_put_byte(der_out *w, uint8_t b) {
  if (w->p) w->p[w->len] = b;
  w->len++;
}

void der_put_bytes(der_out *w, const uint8_t *b, size_t n) {
  if (w->p)
    for (size_t i = 0; i < n; i++) w->p[w->len + i] = b[i];
  w->len += n;
}

void der_put_header(der_out *w, uint8_t tag, size_t len) {
  der_put_byte(w, tag);
  if (len < 0x80) {
    der_put_byte(w, (uint8_t)len);
  } else if (len < 0x100) {
    der_put_byte(w, 0x81);
    der_put_byte(w, (uint8_t)len);
  } else if (len < 0x10000) {
    der_put_byte(w, 0x82);
    der_put_byte(w, (uint8_t)(len >> 8));
    der_put_byte(w, (uint8_t)len);
  } else {
    der_put_byte(w, 0x83);
    der_put_byte(w, (uint8_t)(len >> 16));
    der_put_byte(w, (uint8_t)(len >> 8));
    der_put_byte(w, (uint8_t)len);
  }
}

size_t der_header_len(size_t len) {
  return len < 0x80 ? 2 : len < 0x100 ? 3 : len < 0x10000 ? 4 : 5;
}

der_uint der_uint_of(const uint8_t *p, size_t len) {
  uint64_t seen = 0, zeros = 0;
  for (size_t i = 0; i + 1 < len; i++) {
    seen |= ~ct_is_zero_u64(p[i]);
    zeros += 1 & ~seen;
  }
  fm_declassify(&zeros, sizeof zeros);
  der_uint u = {p + zeros, len - (size_t)zeros, false};
  uint64_t top = (uint64_t)(u.p[0] >> 7);
  fm_declassify(&top, sizeof top);
  u.sign_byte = top != 0;
  return u;
}

static size_t uint_body_len(der_uint u) { return u.n + (u.sign_byte ? 1 : 0); }

size_t der_uint_len(der_uint u) { return der_header_len(uint_body_len(u)) + uint_body_len(u); }

void der_put_uint(der_out *w, der_uint u) {
  der_put_header(w, DER_INTEGER, uint_body_len(u));
  if (u.sign_byte) der_put_byte(w, 0);
  der_put_bytes(w, u.p, u.n);
}

/* ---- PEM (RFC 7468) ----------------------------------------------------------------------------
 * Base64 (RFC 4648 4) without tables: a character's 6-bit value, and whether it is one, come from
 * range masks, so a private key's text never indexes memory. */

/* b64_value returns the value of |c| (0..63) and sets *valid to all-ones when c is a base64
 * character, else 0. Branch-free in c. */
static uint32_t b64_value(uint8_t c, uint32_t *valid) {
  uint32_t x = c;
  /* in_range is all-ones when lo <= x <= hi: two borrows, no compare. */
#define IN_RANGE(lo, hi) \
  ((uint32_t)ct_lt_u64((uint64_t)x, (uint64_t)(hi) + 1) & ~(uint32_t)ct_lt_u64((uint64_t)x, (lo)))
  uint32_t upper = IN_RANGE('A', 'Z'), lower = IN_RANGE('a', 'z'), digit = IN_RANGE('0', '9');
  uint32_t plus = ct_eq_u32(x, '+'), slash = ct_eq_u32(x, '/');
#undef IN_RANGE
  *valid = upper | lower | digit | plus | slash;
  return (upper & (x - 'A')) | (lower & (x - 'a' + 26)) | (digit & (x - '0' + 52)) | (plus & 62u) |
         (slash & 63u);
}

/* b64_char returns the base64 character of the 6-bit value v, branch-free in v. */
static uint8_t b64_char(uint32_t v) {
  uint32_t lt26 = (uint32_t)ct_lt_u64(v, 26), lt52 = (uint32_t)ct_lt_u64(v, 52);
  uint32_t lt62 = (uint32_t)ct_lt_u64(v, 62), is62 = ct_eq_u32(v, 62), is63 = ct_eq_u32(v, 63);
  uint32_t c = (lt26 & (v + 'A')) | (~lt26 & lt52 & (v - 26 + 'a')) |
               (~lt52 & lt62 & (v - 52 + '0')) | (is62 & '+') | (is63 & '/');
  return (uint8_t)c;
}

static bool is_space(uint8_t c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

uint8_t pem_public_byte(const uint8_t *in, size_t i) {
  fm_declassify(in + i, 1);
  return in[i];
}

/* at returns true when |s| (nlen bytes) is at in[i..), reading (and declassifying) the input only
 * up to the first difference. */
static bool at(const uint8_t *in, size_t len, size_t i, const char *s, size_t nlen) {
  if (i > len || len - i < nlen) return false;
  for (size_t k = 0; k < nlen; k++)
    if (pem_public_byte(in, i + k) != (uint8_t)s[k]) return false;
  return true;
}

/* text_eq is true when p[0..n) is the string s (the bytes were declassified by the scan). */
static bool text_eq(const uint8_t *p, size_t n, const char *s) {
  size_t i = 0;
  for (; i < n && s[i] != '\0'; i++)
    if (p[i] != (uint8_t)s[i]) return false;
  return i == n && s[i] == '\0';
}

static size_t text_len(const char *s) {
  size_t n = 0;
  while (s[n] != '\0') n++;
  return n;
}

static const char k_begin[] = "-----BEGIN ", k_end[] = "-----END ", k_dashes[] = "-----";
#define BEGIN_LEN (sizeof k_begin - 1)
#define END_LEN (sizeof k_end - 1)
#define DASHES_LEN (sizeof k_dashes - 1)

/* find_begin finds the first BEGIN line at or after |from| and returns where its label starts
 * and its length (the label ends at the next '-', 64 characters at most), or false. */
static bool find_begin(const uint8_t *in, size_t len, size_t from, size_t *label, size_t *label_len) {
  size_t b = from;
  while (b + BEGIN_LEN <= len && !at(in, len, b, k_begin, BEGIN_LEN)) b++;
  if (b + BEGIN_LEN > len) return false;
  const size_t l = b + BEGIN_LEN;
  size_t le = l;
  while (le < len && le - l <= 64 && pem_public_byte(in, le) != '-') le++;
  if (!at(in, len, le, k_dashes, DASHES_LEN)) return false;
  *label = l;
  *label_len = le - l;
  return true;
}

/* skip_block returns the position after the END line of the block labelled |skip| whose body
 * starts at |body|, or 0 when there is none. The block is public (domain parameters). */
static size_t skip_block(const uint8_t *in, size_t len, size_t body, const char *skip) {
  const size_t sl = text_len(skip);
  for (size_t e = body; e + END_LEN + sl + DASHES_LEN <= len; e++) {
    if (at(in, len, e, k_end, END_LEN) && at(in, len, e + END_LEN, skip, sl) &&
        at(in, len, e + END_LEN + sl, k_dashes, DASHES_LEN))
      return e + END_LEN + sl + DASHES_LEN;
  }
  return 0;
}

int pem_decode(const uint8_t *in, size_t len, const pem_label *labels, size_t count,
               const char *skip, uint8_t **der, size_t *der_len, size_t *which) {
  /* The BEGIN line: the first "-----BEGIN " (RFC 7468 2: text before it is ignored), past one
   * block labelled |skip|. */
  size_t label = 0, label_len = 0;
  if (!find_begin(in, len, 0, &label, &label_len)) return FM_ERR_PARSE;
  if (skip != NULL && text_eq(in + label, label_len, skip)) {
    const size_t after = skip_block(in, len, label + label_len + DASHES_LEN, skip);
    if (after == 0 || !find_begin(in, len, after, &label, &label_len)) return FM_ERR_PARSE;
  }
  size_t w = count;
  for (size_t i = 0; i < count; i++)
    if (text_eq(in + label, label_len, labels[i])) w = i;
  if (w == count) {
    /* Well-formed PEM of something else (a certificate, an encrypted key, another algorithm). */
    return FM_ERR_UNSUPPORTED;
  }
  const size_t body = label + label_len + DASHES_LEN;
  /* The END line, from the end: white space, "-----", the label, "-----END ". */
  size_t t = len;
  while (t > body && is_space(pem_public_byte(in, t - 1))) t--;
  const size_t end_len = END_LEN + label_len + DASHES_LEN;
  if (t - body < end_len) return FM_ERR_PARSE;
  const size_t e = t - end_len;
  if (!at(in, len, e, k_end, END_LEN) || !at(in, len, e + END_LEN, labels[w], label_len) ||
      !at(in, len, t - DASHES_LEN, k_dashes, DASHES_LEN)) {
    return FM_ERR_PARSE;
  }
  /* Legacy OpenSSL encryption (RFC 1421 headers, "Proc-Type: 4,ENCRYPTED") is not offered. The
   * first bytes of the body are compared in constant time: in a key they are base64 of its DER
   * header, but only the verdict is released. */
  {
    static const char proc[] = "Proc-Type:";
    size_t h = body;
    while (h < e && is_space(pem_public_byte(in, h))) h++;
    if (e - h >= sizeof proc - 1 &&
        fm_declassify_u64((uint64_t)fm_ct_memeq(in + h, proc, sizeof proc - 1)) != 0) {
      return FM_ERR_UNSUPPORTED;
    }
  }

  const size_t text = e - body;
  if (text / 4 * 3 > DER_MAX_LEN) return FM_ERR_PARSE;
  uint8_t *out = malloc(text / 4 * 3 + 3);
  if (out == NULL) return FM_ERR_NO_MEMORY;
  uint32_t bad = 0, acc = 0;
  size_t nchars = 0, npad = 0, o = 0;
  for (size_t i = body; i < e; i++) {
    uint8_t c = in[i];
    /* Line structure is public: which bytes are white space or padding is declassified. */
    uint32_t space = ct_eq_u32(c, ' ') | ct_eq_u32(c, '\t') | ct_eq_u32(c, '\r') | ct_eq_u32(c, '\n');
    uint32_t pad = ct_eq_u32(c, '=');
    fm_declassify(&space, sizeof space);
    fm_declassify(&pad, sizeof pad);
    if (space) continue;
    if (pad) {
      npad++;
      continue;
    }
    uint32_t valid;
    uint32_t v = b64_value(c, &valid);
    bad |= ~valid;
    bad |= (uint32_t)(npad != 0); /* data after padding */
    acc = (acc << 6) | (v & 63u);
    nchars++;
    if (nchars % 4 == 0) {
      out[o++] = (uint8_t)(acc >> 16);
      out[o++] = (uint8_t)(acc >> 8);
      out[o++] = (uint8_t)acc;
      acc = 0;
    }
  }
  /* RFC 4648 3.5: the final quantum is 2 or 3 characters with 2 or 1 '=', or none. */
  size_t rem = nchars % 4;
  if ((rem == 0 && npad != 0) || rem == 1 || (rem == 2 && npad != 2) || (rem == 3 && npad != 1))
    bad = 1;
  if (rem == 2) {
    out[o++] = (uint8_t)(acc >> 4);
    bad |= acc & 0xfu; /* the unused bits must be zero (canonical encoding) */
  } else if (rem == 3) {
    out[o++] = (uint8_t)(acc >> 10);
    out[o++] = (uint8_t)(acc >> 2);
    bad |= acc & 0x3u;
  }
  acc = 0;
  fm_declassify(&bad, sizeof bad); /* whether the text is well-formed is public */
  if (bad != 0 || o == 0) {
    fm_zeroize(out, text / 4 * 3 + 3);
    free(out);
    return FM_ERR_PARSE;
  }
  *which = w;
  *der = out;
  *der_len = o;
  return FM_OK;
}

size_t pem_len(size_t der_len, const char *label) {
  size_t chars = (der_len + 2) / 3 * 4, lines = (chars + 63) / 64;
  size_t l = text_len(label);
  return (BEGIN_LEN + l + DASHES_LEN + 1) + chars + lines + (END_LEN + l + DASHES_LEN + 1);
}

static void put_text(uint8_t *out, size_t *o, const char *s) {
  for (size_t i = 0; s[i] != '\0'; i++) out[(*o)++] = (uint8_t)s[i];
}

void pem_write(const uint8_t *der, size_t der_len, const char *label, uint8_t *out) {
  size_t o = 0, col = 0;
  put_text(out, &o, k_begin);
  put_text(out, &o, label);
  put_text(out, &o, "-----\n");
  for (size_t i = 0; i < der_len; i += 3) {
    uint32_t b0 = der[i], b1 = i + 1 < der_len ? der[i + 1] : 0, b2 = i + 2 < der_len ? der[i + 2] : 0;
    uint32_t v = (b0 << 16) | (b1 << 8) | b2;
    uint8_t c[4] = {b64_char(v >> 18), b64_char((v >> 12) & 63u), b64_char((v >> 6) & 63u),
                    b64_char(v & 63u)};
    if (i + 1 >= der_len) c[2] = '=';
    if (i + 2 >= der_len) c[3] = '=';
    for (int k = 0; k < 4; k++) {
      out[o++] = c[k];
      if (++col == 64) {
        out[o++] = '\n';
        col = 0;
      }
    }
    v = b0 = b1 = b2 = 0;
  }
  if (col != 0) out[o++] = '\n';
  put_text(out, &o, k_end);
  put_text(out, &o, label);
  put_text(out, &o, "-----\n");
}
