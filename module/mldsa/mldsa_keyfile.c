/* ML-DSA key files (fipsmod/keyfile.h): SubjectPublicKeyInfo and OneAsymmetricKey with the
 * private-key CHOICE of RFC 9881 (seed, expandedKey, both), in DER and PEM. The structure is
 * module/pqkey.c; this file derives and checks the key material: KeyGen_internal with its
 * pairwise test for a seed (fm_mldsa_keygen_from_seed), and for an expanded sk the recomputation
 * of its public key (mldsa_pk_from_sk), which also checks s1, s2, t0 and tr.
 *
 * Secrets: the seed xi and sk. They are copied at public offsets, compared in constant time
 * (fm_ct_memeq, whose verdict alone is released) and wiped from every buffer that held them. */
#include <assert.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "fipsmod/keyfile.h"
#include "module/internal.h"
#include "module/mldsa/internal.h"
#include "module/pqkey.h"

/* id-ml-dsa-44, -65, -87: 2.16.840.1.101.3.4.3.17, .18, .19 (RFC 9881). Row i is k_params[i]. */
static const pqkey_shape k_shapes[] = {
    {9, {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x11}, FM_MLDSA_SEED_LEN,
     FM_MLDSA_44_PRIVATE_KEY_LEN, FM_MLDSA_44_PUBLIC_KEY_LEN},
    {9, {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x12}, FM_MLDSA_SEED_LEN,
     FM_MLDSA_65_PRIVATE_KEY_LEN, FM_MLDSA_65_PUBLIC_KEY_LEN},
    {9, {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x13}, FM_MLDSA_SEED_LEN,
     FM_MLDSA_87_PRIVATE_KEY_LEN, FM_MLDSA_87_PUBLIC_KEY_LEN},
};
static const fm_mldsa_param k_params[] = {FM_MLDSA_44, FM_MLDSA_65, FM_MLDSA_87};
#define SHAPE_COUNT (sizeof k_shapes / sizeof k_shapes[0])
#define MAX_PK FM_MLDSA_87_PUBLIC_KEY_LEN
#define MAX_SK FM_MLDSA_87_PRIVATE_KEY_LEN
static_assert(MAX_SK <= PQKEY_MAX_EXPANDED && MAX_PK <= PQKEY_MAX_PUBLIC,
              "pqkey's buffers hold every ML-DSA key");

/* check_sk recomputes pk from sk (p's lengths) and checks sk against it, after the key-generation
 * self-test (the same computation). */
static int check_sk(fm_mldsa_param param, const uint8_t *sk, uint8_t *pk) {
  int st = fm_service_gate_tested(FM_ST_MLDSA_KEYGEN_KAT);
  if (st == FM_OK) st = mldsa_pk_from_sk(mldsa_params_get((int)param), pk, sk);
  return st;
}

/* derive fills |pk| and |sk| (the parameter set's lengths) from the parts of a key file, with
 * every check: FM_OK, FM_ERR_BAD_KEY, or a status of the services it calls. */
static int derive(fm_mldsa_param param, const pqkey_shape *sh, const pqkey_parts *parts,
                  uint8_t *pk, uint8_t *sk) {
  int st;
  switch (parts->format) {
    case FM_KEY_SPKI_PUBLIC:
      memcpy(pk, parts->pub.p, sh->public_len); /* FIPS 204 has no check of pk but its length */
      return FM_OK;
    case FM_KEY_PKCS8_EXPANDED:
      st = check_sk(param, parts->expanded.p, pk);
      if (st == FM_OK) memcpy(sk, parts->expanded.p, sh->expanded_len);
      return st;
    default: /* the seed form, or both */
      st = fm_mldsa_keygen_from_seed(param, parts->seed.p, pk, sh->public_len, sk,
                                     sh->expanded_len);
      if (st == FM_OK && parts->format == FM_KEY_PKCS8_BOTH &&
          !fm_declassify_u64((uint64_t)fm_ct_memeq(sk, parts->expanded.p, sh->expanded_len)))
        st = FM_ERR_BAD_KEY; /* the verdict is public; the bytes are not */
      return st;
  }
}

/* derive_at and prepare are the ML-DSA parts of the services (module/pqkey.h). */
static int derive_at(size_t which, const pqkey_parts *parts, uint8_t *pub, uint8_t *expanded) {
  return derive(k_params[which], &k_shapes[which], parts, pub, expanded);
}

static int prepare(size_t which, fm_key_format format, const uint8_t *key, size_t key_len,
                   uint8_t *expanded) {
  (void)key_len; /* the service has checked it */
  const fm_mldsa_param param = k_params[which];
  const pqkey_shape *sh = &k_shapes[which];
  uint8_t pk[MAX_PK]; /* public: scratch for the recomputed or derived public key */
  switch (format) {
    case FM_KEY_PKCS8_EXPANDED: return check_sk(param, key, pk);
    case FM_KEY_PKCS8_BOTH:
      return fm_mldsa_keygen_from_seed(param, key, pk, sh->public_len, expanded,
                                       sh->expanded_len);
    default: return FM_OK; /* any 32 bytes are a seed; pk has no check but its length */
  }
}

int fm_mldsa_key_decode(const uint8_t *in, size_t in_len, fm_mldsa_param *param,
                        fm_key_format *format, uint8_t *seed, size_t seed_cap, uint8_t *sk,
                        size_t sk_cap, uint8_t *pk, size_t pk_cap) {
  if (param != NULL) *param = (fm_mldsa_param)0;
  size_t which = 0;
  const int st = pqkey_decode_service(in, in_len, k_shapes, SHAPE_COUNT, derive_at, param != NULL,
                                      &which, format, seed, seed_cap, sk, sk_cap, pk, pk_cap);
  if (st == FM_OK) *param = k_params[which];
  return st;
}

int fm_mldsa_key_encode(fm_mldsa_param param, fm_key_format format, const uint8_t *key,
                        size_t key_len, fm_key_encoding encoding, uint8_t *out, size_t out_cap,
                        size_t *out_len) {
  size_t which = 0;
  while (which < SHAPE_COUNT && k_params[which] != param) which++;
  return pqkey_encode_service(k_shapes, SHAPE_COUNT, which, prepare, FM_ERR_KEY_SIZE, format,
                              key, key_len, encoding, out, out_cap, out_len);
}
