/* The private exponent of a CRT-form test key (p, q, dmp1, dmq1, iqmp, e without d), which
 * fm_rsa_key_import_private and _nd need: d = e^-1 mod lambda(n), lambda(n) = lcm(p-1, q-1).
 * Test-vector arithmetic in the command, outside the module: public test keys only, so it need
 * not be constant time. Limited to e < 2^64 and gcd(p-1, q-1) < 2^64, which lets every step but
 * one multiplication use a one-word divisor:
 *   d = (1 + k * lambda) / e with k = -lambda^-1 mod e  (then e * d = 1 + k * lambda). */
#include <stdlib.h>
#include <string.h>

#include "cli/acvp/acvp_bn.h"

typedef unsigned __int128 u128;

typedef struct {
  uint32_t *w; /* little-endian limbs */
  size_t n;
} bn;

static int bn_alloc(bn *a, size_t n) {
  a->w = calloc(n ? n : 1, sizeof(uint32_t));
  a->n = n ? n : 1;
  return a->w ? 0 : -1;
}

static void bn_trim(bn *a) {
  while (a->n > 1 && a->w[a->n - 1] == 0) a->n--;
}

static int bn_from_bytes(bn *a, const uint8_t *p, size_t len) {
  if (bn_alloc(a, (len + 3) / 4 + 1) < 0) return -1;
  for (size_t i = 0; i < len; i++) {
    size_t bit = (len - 1 - i) * 8;
    a->w[bit / 32] |= (uint32_t)p[i] << (bit % 32);
  }
  bn_trim(a);
  return 0;
}

static int bn_is_zero(const bn *a) { return a->n == 1 && a->w[0] == 0; }

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

static void bn_sub1(bn *a) {
  for (size_t i = 0; i < a->n; i++) {
    if (a->w[i]-- != 0) break;
  }
  bn_trim(a);
}

static void bn_shr1(bn *a) {
  for (size_t i = 0; i < a->n; i++) {
    a->w[i] = (a->w[i] >> 1) | (i + 1 < a->n ? a->w[i + 1] << 31 : 0);
  }
  bn_trim(a);
}

static int bn_mul(bn *r, const bn *a, const bn *b) {
  if (bn_alloc(r, a->n + b->n) < 0) return -1;
  for (size_t i = 0; i < a->n; i++) {
    uint64_t carry = 0;
    for (size_t j = 0; j < b->n; j++) {
      uint64_t t = (uint64_t)a->w[i] * b->w[j] + r->w[i + j] + carry;
      r->w[i + j] = (uint32_t)t;
      carry = t >> 32;
    }
    r->w[i + b->n] = (uint32_t)carry;
  }
  bn_trim(r);
  return 0;
}

/* a = a * m + add (a has a spare limb pair allocated by the caller) */
static void bn_mul_add_u64(bn *a, uint64_t m, uint64_t add, size_t cap) {
  u128 carry = add;
  size_t i;
  for (i = 0; i < a->n; i++) {
    u128 t = (u128)a->w[i] * m + carry;
    a->w[i] = (uint32_t)t;
    carry = t >> 32;
  }
  while (carry && i < cap) {
    a->w[i++] = (uint32_t)carry;
    carry >>= 32;
  }
  a->n = i;
  bn_trim(a);
}

/* a /= d; returns the remainder */
static uint64_t bn_div_u64(bn *a, uint64_t d) {
  u128 rem = 0;
  for (size_t i = a->n; i-- > 0;) {
    u128 cur = rem << 32 | a->w[i];
    a->w[i] = (uint32_t)(cur / d);
    rem = cur % d;
  }
  bn_trim(a);
  return (uint64_t)rem;
}

static uint64_t bn_mod_u64(const bn *a, uint64_t d) {
  u128 rem = 0;
  for (size_t i = a->n; i-- > 0;) rem = (rem << 32 | a->w[i]) % d;
  return (uint64_t)rem;
}

/* gcd by the binary method; returns it when it fits in 64 bits, else 0 */
static uint64_t bn_gcd_u64(const bn *x, const bn *y) {
  bn a, b;
  if (bn_alloc(&a, x->n) < 0 || bn_alloc(&b, y->n) < 0) {
    free(a.w);
    return 0;
  }
  memcpy(a.w, x->w, x->n * 4);
  memcpy(b.w, y->w, y->n * 4);
  unsigned shift = 0;
  while (!bn_is_zero(&a) && !bn_is_zero(&b) && !(a.w[0] & 1) && !(b.w[0] & 1)) {
    bn_shr1(&a);
    bn_shr1(&b);
    shift++;
  }
  while (!bn_is_zero(&a)) {
    while (!(a.w[0] & 1)) bn_shr1(&a);
    while (!(b.w[0] & 1)) bn_shr1(&b);
    if (bn_cmp(&a, &b) >= 0) {
      bn_sub(&a, &b);
    } else {
      bn_sub(&b, &a);
    }
  }
  uint64_t g = 0;
  if (b.n <= 2 && shift < 64) {
    g = ((uint64_t)(b.n > 1 ? b.w[1] : 0) << 32 | b.w[0]);
    if (shift && (g >> (64 - shift)) != 0) g = 0;
    else g <<= shift;
  }
  free(a.w);
  free(b.w);
  return g;
}

/* inverse of a mod m (m < 2^64, gcd 1), or 0 */
static uint64_t inv_u64(uint64_t a, uint64_t m) {
  __int128 t = 0, nt = 1;
  u128 r = m, nr = a % m;
  while (nr != 0) {
    u128 q = r / nr, tmp = r - q * nr;
    __int128 tt = t - (__int128)q * nt;
    t = nt;
    nt = tt;
    r = nr;
    nr = tmp;
  }
  if (r != 1) return 0;
  if (t < 0) t += m;
  return (uint64_t)t;
}

int acvp_rsa_private_exponent(const uint8_t *e, size_t e_len, const uint8_t *p, size_t p_len,
                              const uint8_t *q, size_t q_len, uint8_t *d, size_t d_cap,
                              size_t *d_len) {
  while (e_len > 0 && e[0] == 0) {
    e++;
    e_len--;
  }
  if (e_len == 0 || e_len > 8 || d_cap == 0) return -1;
  uint64_t ev = 0;
  for (size_t i = 0; i < e_len; i++) ev = ev << 8 | e[i];
  if (ev < 3 || !(ev & 1)) return -1;
  bn pm = {0}, qm = {0}, lam = {0};
  int rc = -1;
  if (bn_from_bytes(&pm, p, p_len) < 0 || bn_from_bytes(&qm, q, q_len) < 0) goto out;
  if (bn_is_zero(&pm) || bn_is_zero(&qm)) goto out;
  bn_sub1(&pm);
  bn_sub1(&qm);
  uint64_t g = bn_gcd_u64(&pm, &qm);
  if (g == 0 || bn_mul(&lam, &pm, &qm) < 0) goto out;
  if (bn_div_u64(&lam, g) != 0) goto out;
  uint64_t lmod = bn_mod_u64(&lam, ev);
  uint64_t inv = inv_u64(lmod, ev);
  if (inv == 0) goto out;
  uint64_t k = inv == 0 ? 0 : ev - inv; /* k * lambda = -1 mod e */
  /* room for lambda * k + 1 */
  size_t cap = lam.n + 3;
  uint32_t *w = realloc(lam.w, cap * sizeof(uint32_t));
  if (w == NULL) goto out;
  lam.w = w;
  memset(lam.w + lam.n, 0, (cap - lam.n) * sizeof(uint32_t));
  bn_mul_add_u64(&lam, k, 1, cap);
  if (bn_div_u64(&lam, ev) != 0) goto out;
  size_t bytes = lam.n * 4;
  while (bytes > 1 && ((lam.w[(bytes - 1) / 4] >> (((bytes - 1) % 4) * 8)) & 0xff) == 0) bytes--;
  if (bytes > d_cap) goto out;
  for (size_t i = 0; i < bytes; i++) {
    d[bytes - 1 - i] = (uint8_t)(lam.w[i / 4] >> ((i % 4) * 8));
  }
  *d_len = bytes;
  rc = 0;
out:
  if (pm.w) memset(pm.w, 0, pm.n * 4);
  if (qm.w) memset(qm.w, 0, qm.n * 4);
  if (lam.w) memset(lam.w, 0, lam.n * 4);
  free(pm.w);
  free(qm.w);
  free(lam.w);
  return rc;
}
