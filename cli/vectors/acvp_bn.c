/* The private exponent of a CRT-form test key (p, q, dmp1, dmq1, iqmp, e without d), which
 * fm_rsa_key_import_private and _nd need: d = e^-1 mod lambda(n), lambda(n) = lcm(p-1, q-1)
 * (FIPS 186-5 5.1: d is the inverse of e modulo lcm(p-1, q-1)), for any size of e.
 * Test-vector arithmetic in the command, outside the module: public test keys only, so it need
 * not be constant time (the numbers are wiped before they are freed all the same).
 *
 * Variable-width unsigned numbers, 32-bit little-endian limbs:
 *   g = gcd(p-1, q-1) (Euclid), lambda = (p-1)(q-1) / g,
 *   d = e^-1 mod lambda by the extended Euclidean algorithm, with the Bezout coefficient kept
 *   in [0, lambda) (t_{i+1} = t_{i-1} - q_i t_i mod lambda), so no signed numbers are needed.
 * Division is shift-and-subtract from the aligned top bit: O((bits(a) - bits(b) + 1) * limbs),
 * cheap for Euclid's mostly small quotients. */
#include <stdlib.h>
#include <string.h>

#include "cli/vectors/acvp_bn.h"

typedef struct {
  uint32_t *w; /* little-endian limbs, w[0..cap) allocated, w[n..cap) zero */
  size_t n;    /* used limbs, at least 1; trimmed: w[n-1] != 0 unless the number is 0 */
  size_t cap;
} bn;

static void bn_free(bn *a) {
  if (a->w) {
    volatile uint32_t *v = a->w;
    for (size_t i = 0; i < a->cap; i++) v[i] = 0;
  }
  free(a->w);
  a->w = NULL;
  a->n = a->cap = 0;
}

static int bn_alloc(bn *a, size_t cap) {
  a->cap = cap ? cap : 1;
  a->w = calloc(a->cap, sizeof(uint32_t));
  a->n = 1;
  return a->w ? 0 : -1;
}

static void bn_trim(bn *a) {
  while (a->n > 1 && a->w[a->n - 1] == 0) a->n--;
}

/* bn_copy: r = a, r allocated with room for |cap| limbs (at least a->n). */
static int bn_copy(bn *r, const bn *a, size_t cap) {
  if (bn_alloc(r, cap > a->n ? cap : a->n) < 0) return -1;
  memcpy(r->w, a->w, a->n * sizeof(uint32_t));
  r->n = a->n;
  return 0;
}

static int bn_from_bytes(bn *a, const uint8_t *p, size_t len) {
  if (bn_alloc(a, (len + 3) / 4 + 1) < 0) return -1;
  for (size_t i = 0; i < len; i++) {
    size_t bit = (len - 1 - i) * 8;
    a->w[bit / 32] |= (uint32_t)p[i] << (bit % 32);
  }
  a->n = a->cap;
  bn_trim(a);
  return 0;
}

static int bn_is_zero(const bn *a) { return a->n == 1 && a->w[0] == 0; }
static int bn_is_one(const bn *a) { return a->n == 1 && a->w[0] == 1; }

static size_t bn_bits(const bn *a) {
  if (bn_is_zero(a)) return 0;
  size_t bits = (a->n - 1) * 32;
  for (uint32_t top = a->w[a->n - 1]; top; top >>= 1) bits++;
  return bits;
}

static int bn_cmp(const bn *a, const bn *b) {
  if (a->n != b->n) return a->n < b->n ? -1 : 1;
  for (size_t i = a->n; i-- > 0;) {
    if (a->w[i] != b->w[i]) return a->w[i] < b->w[i] ? -1 : 1;
  }
  return 0;
}

/* a -= b, a >= b */
static void bn_sub(bn *a, const bn *b) {
  uint64_t borrow = 0;
  for (size_t i = 0; i < a->n; i++) {
    uint64_t x = (uint64_t)a->w[i] - (i < b->n ? b->w[i] : 0) - borrow;
    a->w[i] = (uint32_t)x;
    borrow = (x >> 32) & 1;
  }
  bn_trim(a);
}

/* a += b; a->cap must exceed max(a->n, b->n) */
static void bn_add(bn *a, const bn *b) {
  size_t n = a->n > b->n ? a->n : b->n;
  uint64_t carry = 0;
  for (size_t i = 0; i < n; i++) {
    uint64_t x = (uint64_t)a->w[i] + (i < b->n ? b->w[i] : 0) + carry;
    a->w[i] = (uint32_t)x;
    carry = x >> 32;
  }
  a->w[n] = (uint32_t)carry;
  a->n = n + 1;
  bn_trim(a);
}

static void bn_sub1(bn *a) {
  for (size_t i = 0; i < a->n; i++) {
    if (a->w[i]-- != 0) break;
  }
  bn_trim(a);
}

/* a <<= 1; a->cap must exceed a->n */
static void bn_shl1(bn *a) {
  uint32_t carry = 0;
  for (size_t i = 0; i < a->n; i++) {
    uint32_t x = a->w[i];
    a->w[i] = x << 1 | carry;
    carry = x >> 31;
  }
  if (carry) a->w[a->n++] = carry;
}

static void bn_shr1(bn *a) {
  for (size_t i = 0; i < a->n; i++) {
    a->w[i] = (a->w[i] >> 1) | (i + 1 < a->n ? a->w[i + 1] << 31 : 0);
  }
  bn_trim(a);
}

/* r = a * b (r a new number) */
static int bn_mul(bn *r, const bn *a, const bn *b) {
  if (bn_alloc(r, a->n + b->n + 1) < 0) return -1;
  for (size_t i = 0; i < a->n; i++) {
    uint64_t carry = 0;
    for (size_t j = 0; j < b->n; j++) {
      uint64_t t = (uint64_t)a->w[i] * b->w[j] + r->w[i + j] + carry;
      r->w[i + j] = (uint32_t)t;
      carry = t >> 32;
    }
    r->w[i + b->n] = (uint32_t)carry;
  }
  r->n = a->n + b->n;
  bn_trim(r);
  return 0;
}

/* bn_divmod: q = a / b and r = a mod b (both new numbers; q may be NULL), b != 0. Shift and
 * subtract from b aligned with a's top bit. */
static int bn_divmod(bn *q, bn *r, const bn *a, const bn *b) {
  size_t ab = bn_bits(a), bb = bn_bits(b);
  size_t shift = ab > bb ? ab - bb : 0;
  bn s = {0};
  if (bn_copy(r, a, a->n + 1) < 0) return -1;
  if (q != NULL && bn_alloc(q, shift / 32 + 2) < 0) {
    bn_free(r);
    return -1;
  }
  if (ab < bb) return 0; /* q = 0, r = a */
  if (bn_copy(&s, b, a->n + 2) < 0) {
    bn_free(r);
    if (q) bn_free(q);
    return -1;
  }
  for (size_t i = 0; i < shift; i++) bn_shl1(&s);
  for (size_t i = shift + 1; i-- > 0;) {
    if (bn_cmp(r, &s) >= 0) {
      bn_sub(r, &s);
      if (q) q->w[i / 32] |= (uint32_t)1 << (i % 32);
    }
    bn_shr1(&s);
  }
  if (q) {
    q->n = q->cap;
    bn_trim(q);
  }
  bn_free(&s);
  return 0;
}

/* bn_mod_inplace: a = a mod m */
static int bn_mod_inplace(bn *a, const bn *m) {
  bn r = {0};
  if (bn_divmod(NULL, &r, a, m) < 0) return -1;
  bn_free(a);
  *a = r;
  return 0;
}

/* g = gcd(x, y) (Euclid), a new number */
static int bn_gcd(bn *g, const bn *x, const bn *y) {
  bn a = {0}, b = {0}, r = {0};
  if (bn_copy(&a, x, x->n) < 0 || bn_copy(&b, y, y->n) < 0) goto fail;
  while (!bn_is_zero(&b)) {
    if (bn_divmod(NULL, &r, &a, &b) < 0) goto fail;
    bn_free(&a);
    a = b;
    b = r;
    r = (bn){0};
  }
  bn_free(&b);
  *g = a;
  return 0;
fail:
  bn_free(&a);
  bn_free(&b);
  return -1;
}

/* bn_inverse: x = a^-1 mod m (a new number) by the extended Euclidean algorithm with the
 * coefficient of a kept modulo m; 1 when gcd(a, m) != 1, -1 when out of memory. m > 1. */
static int bn_inverse(bn *x, const bn *a, const bn *m) {
  bn r0 = {0}, r1 = {0}, t0 = {0}, t1 = {0}, q = {0}, r2 = {0}, qt = {0};
  int rc = -1;
  if (bn_copy(&r0, m, m->n) < 0 || bn_copy(&r1, a, a->n) < 0 || bn_mod_inplace(&r1, m) < 0 ||
      bn_alloc(&t0, m->n + 2) < 0 || bn_alloc(&t1, m->n + 2) < 0) {
    goto out;
  }
  t1.w[0] = 1; /* invariants: r0 = t0 a (mod m), r1 = t1 a (mod m) */
  while (!bn_is_zero(&r1)) {
    if (bn_divmod(&q, &r2, &r0, &r1) < 0 || bn_mul(&qt, &q, &t1) < 0 ||
        bn_mod_inplace(&qt, m) < 0) {
      goto out;
    }
    /* t2 = t0 - q t1 mod m, in [0, m) */
    if (bn_cmp(&t0, &qt) < 0) bn_add(&t0, m);
    bn_sub(&t0, &qt);
    bn_free(&q);
    bn_free(&qt);
    bn_free(&r0);
    r0 = r1;
    r1 = r2;
    r2 = (bn){0};
    bn tmp = t0; /* (t0, t1) = (t1, t2) */
    t0 = t1;
    t1 = tmp;
  }
  if (!bn_is_one(&r0)) {
    rc = 1;
    goto out;
  }
  *x = t0;
  t0 = (bn){0};
  rc = 0;
out:
  bn_free(&r0);
  bn_free(&r1);
  bn_free(&r2);
  bn_free(&t0);
  bn_free(&t1);
  bn_free(&q);
  bn_free(&qt);
  return rc;
}

int acvp_rsa_private_exponent(const uint8_t *e, size_t e_len, const uint8_t *p, size_t p_len,
                              const uint8_t *q, size_t q_len, uint8_t *d, size_t d_cap,
                              size_t *d_len) {
  bn ev = {0}, pm = {0}, qm = {0}, g = {0}, prod = {0}, lam = {0}, dv = {0};
  int rc = -1;
  if (d_cap == 0 || bn_from_bytes(&ev, e, e_len) < 0 || bn_from_bytes(&pm, p, p_len) < 0 ||
      bn_from_bytes(&qm, q, q_len) < 0) {
    goto out;
  }
  /* e odd and at least 3; p, q at least 3 (so p-1, q-1 are not 0). */
  if (bn_bits(&ev) < 2 || !(ev.w[0] & 1) || bn_bits(&pm) < 2 || bn_bits(&qm) < 2) goto out;
  bn_sub1(&pm);
  bn_sub1(&qm);
  /* lambda(n) = lcm(p-1, q-1) = (p-1)(q-1) / gcd(p-1, q-1) */
  if (bn_gcd(&g, &pm, &qm) < 0 || bn_mul(&prod, &pm, &qm) < 0) goto out;
  bn rem = {0};
  if (bn_divmod(&lam, &rem, &prod, &g) < 0) goto out;
  int exact = bn_is_zero(&rem);
  bn_free(&rem);
  if (!exact || bn_bits(&lam) < 2) goto out;
  if (bn_inverse(&dv, &ev, &lam) != 0) goto out; /* gcd(e, lambda) != 1: no d */
  size_t bytes = (bn_bits(&dv) + 7) / 8;
  if (bytes == 0) bytes = 1;
  if (bytes > d_cap) goto out;
  for (size_t i = 0; i < bytes; i++) {
    d[bytes - 1 - i] = (uint8_t)(dv.w[i / 4] >> ((i % 4) * 8));
  }
  *d_len = bytes;
  rc = 0;
out:
  bn_free(&ev);
  bn_free(&pm);
  bn_free(&qm);
  bn_free(&g);
  bn_free(&prod);
  bn_free(&lam);
  bn_free(&dv);
  return rc;
}
