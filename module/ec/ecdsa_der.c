/* DER ECDSA signatures: ECDSA-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER } (RFC 3279 2.2.3,
 * X9.62), to and from the r || s form of fipsmod/ec.h. Signatures are public: this code may
 * branch on them. Neither direction changes a value (no low-s normalization). */
#include <string.h>

#include "module/der.h"
#include "module/ec/internal.h"
#include "module/internal.h"

/* in_range is true when the |nb|-byte big-endian number at |v| is in [1, n-1]. */
static bool in_range(const ec_curve *c, const uint8_t *v, size_t nb) {
  uint64_t x[EC_MAX_LIMBS];
  ec_limbs_from_be(c->limbs, x, v, nb);
  return !ec_limbs_is_zero(c->limbs, x) && ec_limbs_lt(c->limbs, x, c->n.m);
}

static int sig_to_der_checked(fm_ec_curve curve, const uint8_t *sig, size_t sig_len, uint8_t *der,
                              size_t cap, size_t *der_len) {
  int st = fm_service_gate();
  if (st == FM_OK && (sig == NULL || der_len == NULL || (der == NULL && cap > 0)))
    st = FM_ERR_BAD_ARGUMENT;
  const ec_curve *c = ec_curve_get(curve);
  if (st == FM_OK && c == NULL) st = FM_ERR_UNSUPPORTED;
  if (st == FM_OK && sig_len != 2 * c->bytes) st = FM_ERR_LENGTH;
  if (st == FM_OK && (!in_range(c, sig, c->bytes) || !in_range(c, sig + c->bytes, c->bytes)))
    st = FM_ERR_OUT_OF_RANGE;
  if (der_len != NULL) *der_len = 0;
  if (st != FM_OK) return fm_refuse(st, der, der == NULL ? 0 : cap);
  const der_uint r = der_uint_of(sig, c->bytes), s = der_uint_of(sig + c->bytes, c->bytes);
  const size_t body = der_uint_len(r) + der_uint_len(s);
  const size_t need = der_header_len(body) + body;
  *der_len = need;
  if (der == NULL && cap == 0) return FM_OK; /* a length query */
  if (cap < need) {
    fm_refuse(FM_ERR_BUFFER_TOO_SMALL, der, cap);
    *der_len = need;
    return FM_ERR_BUFFER_TOO_SMALL;
  }
  der_out w = {der, 0};
  der_put_header(&w, DER_SEQUENCE, body);
  der_put_uint(&w, r);
  der_put_uint(&w, s);
  return FM_OK;
}

/* get_int takes an INTEGER off |s| (minimal: X.690 8.3.2) and returns its magnitude, without the
 * sign byte, in |mag|; *negative says whether it is below zero. */
static int get_int(der_span *s, der_span *mag, bool *negative) {
  der_span v;
  int st = der_get(s, DER_INTEGER, &v);
  if (st != FM_OK) return st;
  if (v.n == 0) return FM_ERR_PARSE;
  if (v.n > 1 && ((v.p[0] == 0x00 && (v.p[1] & 0x80) == 0) || (v.p[0] == 0xff && (v.p[1] & 0x80) != 0)))
    return FM_ERR_PARSE; /* the first nine bits are all equal: not minimal */
  *negative = (v.p[0] & 0x80) != 0;
  if (v.n > 1 && v.p[0] == 0) {
    v.p++;
    v.n--;
  }
  *mag = v;
  return FM_OK;
}

/* put_scalar writes the magnitude |m| as |nb| big-endian bytes at |out|, or returns false when it
 * does not fit or is not in [1, n-1]. */
static bool put_scalar(const ec_curve *c, der_span m, bool negative, uint8_t *out) {
  if (negative || m.n > c->bytes) return false;
  memset(out, 0, c->bytes - m.n);
  memcpy(out + (c->bytes - m.n), m.p, m.n);
  return in_range(c, out, c->bytes);
}

static int sig_from_der_checked(fm_ec_curve curve, const uint8_t *der, size_t der_len,
                                uint8_t *sig, size_t cap, size_t *sig_len) {
  int st = fm_service_gate();
  if (st == FM_OK && (sig == NULL || sig_len == NULL || (der == NULL && der_len > 0)))
    st = FM_ERR_BAD_ARGUMENT;
  const ec_curve *c = ec_curve_get(curve);
  if (st == FM_OK && c == NULL) st = FM_ERR_UNSUPPORTED;
  if (st == FM_OK && cap < 2 * c->bytes) st = FM_ERR_BUFFER_TOO_SMALL;
  der_span in = {der, der_len}, seq, r, s;
  bool r_neg = false, s_neg = false;
  if (st == FM_OK) st = der_get(&in, DER_SEQUENCE, &seq);
  if (st == FM_OK && in.n != 0) st = FM_ERR_PARSE; /* trailing data */
  if (st == FM_OK) st = get_int(&seq, &r, &r_neg);
  if (st == FM_OK) st = get_int(&seq, &s, &s_neg);
  if (st == FM_OK && seq.n != 0) st = FM_ERR_PARSE; /* a third element */
  if (st == FM_OK && (!put_scalar(c, r, r_neg, sig) || !put_scalar(c, s, s_neg, sig + c->bytes)))
    st = FM_ERR_OUT_OF_RANGE;
  if (st != FM_OK) {
    const size_t most = cap < FM_EC_MAX_SIG_BYTES ? cap : FM_EC_MAX_SIG_BYTES;
    return fm_refuse2(st, sig, sig != NULL ? most : 0, sig_len,
                      sig_len != NULL ? sizeof(*sig_len) : 0);
  }
  *sig_len = 2 * c->bytes;
  return FM_OK;
}

/* Both are informational (a format conversion, no security service): the indicator is left as
 * it was. */
int fm_ecdsa_sig_to_der(fm_ec_curve curve, const uint8_t *sig, size_t sig_len, uint8_t *der,
                        size_t cap, size_t *der_len) {
  const uint8_t ind = fm_tl_indicator; /* read before the call (argument order is unspecified) */
  return fm_indicator_keep(ind, sig_to_der_checked(curve, sig, sig_len, der, cap, der_len));
}

int fm_ecdsa_sig_from_der(fm_ec_curve curve, const uint8_t *der, size_t der_len, uint8_t *sig,
                          size_t cap, size_t *sig_len) {
  const uint8_t ind = fm_tl_indicator;
  return fm_indicator_keep(ind, sig_from_der_checked(curve, der, der_len, sig, cap, sig_len));
}
