/* ML-DSA key files (fipsmod/keyfile.h): SubjectPublicKeyInfo and OneAsymmetricKey with the
 * private-key CHOICE of RFC 9881 (seed, expandedKey, both), in DER and PEM. The structure is
 * module/pqkey.c; this file derives and checks the key material: KeyGen_internal with its
 * pairwise test for a seed (fm_mldsa_keygen_from_seed), and for an expanded sk the recomputation
 * of its public key (mldsa_pk_from_sk), which also checks s1, s2, t0 and tr.
 *
 * Secrets: the seed xi and sk. They are copied at public offsets, compared in constant time
 * (fm_ct_memeq, whose verdict alone is released) and wiped from every buffer that held them. */
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

static void wipe(void *p, size_t len) {
  if (p != NULL) fm_zeroize(p, len);
}

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

int fm_mldsa_key_decode(const uint8_t *in, size_t in_len, fm_mldsa_param *param,
                        fm_key_format *format, uint8_t *seed, size_t seed_cap, uint8_t *sk,
                        size_t sk_cap, uint8_t *pk, size_t pk_cap) {
  int st = fm_service_gate();
  if (st == FM_OK &&
      (param == NULL || format == NULL || (in == NULL && in_len > 0) ||
       (seed == NULL && seed_cap > 0) || (sk == NULL && sk_cap > 0) || (pk == NULL && pk_cap > 0)))
    st = FM_ERR_BAD_ARGUMENT;
  if (st == FM_OK && (fm_buffers_overlap(in, in_len, seed, seed_cap) ||
                      fm_buffers_overlap(in, in_len, sk, sk_cap) ||
                      fm_buffers_overlap(in, in_len, pk, pk_cap) ||
                      fm_buffers_overlap(seed, seed_cap, sk, sk_cap) ||
                      fm_buffers_overlap(seed, seed_cap, pk, pk_cap) ||
                      fm_buffers_overlap(sk, sk_cap, pk, pk_cap)))
    st = FM_ERR_OVERLAP;
  if (param != NULL) *param = (fm_mldsa_param)0;
  if (format != NULL) *format = (fm_key_format)0;

  size_t which = 0, buf_len = 0;
  uint8_t *buf = NULL;
  pqkey_parts parts;
  memset(&parts, 0, sizeof parts);
  if (st == FM_OK) st = pqkey_decode(in, in_len, k_shapes, SHAPE_COUNT, &which, &parts, &buf,
                                     &buf_len);
  const pqkey_shape *sh = &k_shapes[which];
  if (st == FM_OK && ((seed != NULL && seed_cap < sh->seed_len) ||
                      (sk != NULL && sk_cap < sh->expanded_len) ||
                      (pk != NULL && pk_cap < sh->public_len)))
    st = FM_ERR_BUFFER_TOO_SMALL;

  uint8_t pk_buf[MAX_PK], sk_buf[MAX_SK];
  if (st == FM_OK) st = derive(k_params[which], sh, &parts, pk_buf, sk_buf);
  if (st == FM_OK) {
    const bool priv = parts.format != FM_KEY_SPKI_PUBLIC;
    const bool has_seed = parts.format == FM_KEY_PKCS8_PRIVATE || parts.format == FM_KEY_PKCS8_BOTH;
    wipe(seed, seed_cap);
    wipe(sk, sk_cap);
    if (seed != NULL && has_seed) memcpy(seed, parts.seed.p, sh->seed_len);
    if (sk != NULL && priv) memcpy(sk, sk_buf, sh->expanded_len);
    if (pk != NULL) memcpy(pk, pk_buf, sh->public_len);
    *param = k_params[which];
    *format = parts.format;
  }
  fm_zeroize(sk_buf, sizeof sk_buf);
  fm_zeroize(&parts, sizeof parts);
  if (buf != NULL) {
    fm_zeroize(buf, buf_len);
    free(buf);
  }
  if (st != FM_OK) {
    if (param != NULL) *param = (fm_mldsa_param)0;
    if (format != NULL) *format = (fm_key_format)0;
    wipe(seed, seed_cap);
    wipe(sk, sk_cap);
    return fm_refuse(st, pk, pk_cap);
  }
  fm_indicator_approved();
  return FM_OK;
}

int fm_mldsa_key_encode(fm_mldsa_param param, fm_key_format format, const uint8_t *key,
                        size_t key_len, fm_key_encoding encoding, uint8_t *out, size_t out_cap,
                        size_t *out_len) {
  int st = fm_service_gate();
  if (st == FM_OK &&
      (key == NULL || out_len == NULL || (out == NULL && out_cap > 0) ||
       (format != FM_KEY_SPKI_PUBLIC && format != FM_KEY_PKCS8_PRIVATE &&
        format != FM_KEY_PKCS8_EXPANDED && format != FM_KEY_PKCS8_BOTH) ||
       (encoding != FM_KEY_DER && encoding != FM_KEY_PEM)))
    st = FM_ERR_BAD_ARGUMENT;
  if (out_len != NULL) *out_len = 0;
  size_t which = 0;
  while (which < SHAPE_COUNT && k_params[which] != param) which++;
  if (st == FM_OK && which == SHAPE_COUNT) st = FM_ERR_UNSUPPORTED;
  if (st == FM_OK && fm_buffers_overlap(key, key_len, out, out_cap)) st = FM_ERR_OVERLAP;
  if (st != FM_OK) return fm_refuse(st, out, out == NULL ? 0 : out_cap);

  const pqkey_shape *sh = &k_shapes[which];
  const size_t want = format == FM_KEY_SPKI_PUBLIC      ? sh->public_len
                      : format == FM_KEY_PKCS8_EXPANDED ? sh->expanded_len
                                                        : sh->seed_len;
  if (key_len != want) st = FM_ERR_KEY_SIZE;
  uint8_t pk[MAX_PK], sk[MAX_SK];
  if (st == FM_OK) {
    switch (format) {
      case FM_KEY_PKCS8_EXPANDED: st = check_sk(param, key, pk); break;
      case FM_KEY_PKCS8_BOTH:
        st = fm_mldsa_keygen_from_seed(param, key, pk, sh->public_len, sk, sh->expanded_len);
        break;
      default: break; /* any 32 bytes are a seed; pk has no check but its length */
    }
  }
  if (st == FM_OK) {
    const uint8_t *seed = format == FM_KEY_PKCS8_PRIVATE || format == FM_KEY_PKCS8_BOTH ? key
                                                                                          : NULL;
    const uint8_t *expanded = format == FM_KEY_PKCS8_BOTH       ? sk
                              : format == FM_KEY_PKCS8_EXPANDED ? key
                                                                : NULL;
    st = pqkey_encode(sh, format, seed, expanded, key, encoding, out, out_cap, out_len);
  }
  fm_zeroize(sk, sizeof sk);
  if (st != FM_OK) {
    const size_t keep = st == FM_ERR_BUFFER_TOO_SMALL ? *out_len : 0;
    fm_refuse(st, out, out == NULL ? 0 : out_cap);
    *out_len = keep;
    return st;
  }
  fm_indicator_approved();
  return FM_OK;
}
