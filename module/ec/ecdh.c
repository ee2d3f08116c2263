/* The ECC CDH primitive (SP 800-56A Rev. 3 5.7.1.2): Z = x(d * Q) for the caller's private key and
 * a peer's public key that passes full validation (5.6.2.3.3) first. Constant time in d and Z;
 * the peer point is public. */
#include <string.h>

#include "module/ec/internal.h"
#include "module/internal.h"

/* ecdh_shared_x writes x(d * Q) for the key's d and a validated Montgomery-form Q to z (bytes
 * octets) and returns FM_OK, or FM_ERR_VERIFY when the product is the point at infinity. */
static int ecdh_shared_x(const fm_ec_key *key, const uint64_t *qx, const uint64_t *qy,
                         uint8_t *z) {
  const ec_curve *c = key->curve;
  ec_point p;
  uint64_t x[EC_MAX_LIMBS], y[EC_MAX_LIMBS];
  ec_scalar_mul_affine(c, &p, key->d, qx, qy);
  /* Step 2: the point at infinity means no shared secret; that it failed is public. */
  const uint64_t finite = ec_point_to_affine(c, x, y, &p);
  int st = FM_ERR_VERIFY;
  if (fm_declassify_u64(finite)) {
    ec_mod_from_mont(c, &c->p, x, x);
    ec_limbs_to_be(z, c->bytes, x); /* step 3: Z = x_P as an octet string of the field's length */
    st = FM_OK;
  }
  fm_zeroize(&p, sizeof p);
  fm_zeroize(x, sizeof x);
  fm_zeroize(y, sizeof y);
  return st;
}

int fm_ecdh(const fm_ec_key *key, const uint8_t *peer, size_t peer_len, uint8_t *z, size_t cap,
            size_t *z_len) {
  int st = fm_service_gate_tested(FM_ST_ECDH_KAT);
  if (st == FM_OK && (!ec_key_valid(key) || !key->has_private || peer == NULL || z == NULL ||
                      z_len == NULL))
    st = FM_ERR_BAD_ARGUMENT;
  if (st == FM_OK && cap < key->curve->bytes) st = FM_ERR_BUFFER_TOO_SMALL;
  uint64_t qx[EC_MAX_LIMBS], qy[EC_MAX_LIMBS];
  if (st == FM_OK) st = ec_decode_point(key->curve, peer, peer_len, qx, qy);
  if (st == FM_OK) {
    st = ecdh_shared_x(key, qx, qy, z);
    ec_stack_wipe();
  }
  if (st != FM_OK) {
    const size_t most = ec_key_valid(key) ? key->curve->bytes : FM_EC_MAX_BYTES;
    return fm_refuse2(st, z, z != NULL ? (cap < most ? cap : most) : 0, z_len,
                      z_len != NULL ? sizeof(*z_len) : 0);
  }
  *z_len = key->curve->bytes;
  return FM_OK;
}
