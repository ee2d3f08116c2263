/* ML-KEM key files (fipsmod/keyfile.h): SubjectPublicKeyInfo and OneAsymmetricKey with the
 * private-key CHOICE of draft-ietf-lamps-kyber-certificates (seed, expandedKey, both), in DER
 * and PEM. The structure is module/pqkey.c; this file derives and checks the key material with
 * the module's own ML-KEM services: KeyGen_internal for a seed (fm_mlkem_keygen_from_seed), the
 * checks of FIPS 203 7.2 and 7.3 for ek and dk.
 *
 * Secrets: the seed d || z and dk. They are copied at public offsets, compared in constant time
 * (fm_ct_memeq, whose verdict alone is released) and wiped from every buffer that held them. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "fipsmod/keyfile.h"
#include "module/internal.h"
#include "module/pqkey.h"

/* id-alg-ml-kem-512, -768, -1024: 2.16.840.1.101.3.4.4.1, .2, .3. Row i is k_params[i]. */
static const pqkey_shape k_shapes[] = {
    {9, {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x04, 0x01}, FM_MLKEM_SEED_LEN,
     FM_MLKEM512_DK_LEN, FM_MLKEM512_EK_LEN},
    {9, {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x04, 0x02}, FM_MLKEM_SEED_LEN,
     FM_MLKEM768_DK_LEN, FM_MLKEM768_EK_LEN},
    {9, {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x04, 0x03}, FM_MLKEM_SEED_LEN,
     FM_MLKEM1024_DK_LEN, FM_MLKEM1024_EK_LEN},
};
static const fm_mlkem_param k_params[] = {FM_MLKEM_512, FM_MLKEM_768, FM_MLKEM_1024};
#define SHAPE_COUNT (sizeof k_shapes / sizeof k_shapes[0])

/* ek sits inside dk at 384k = dk_len - ek_len - 64 (FIPS 203 Algorithm 16, step 3:
 * dk = dk_PKE || ek || H(ek) || z). */
static size_t ek_offset(const pqkey_shape *sh) {
  return (size_t)sh->expanded_len - sh->public_len - 64;
}

static void wipe(void *p, size_t len) {
  if (p != NULL) fm_zeroize(p, len);
}

/* derive fills |ek| and |dk| (the parameter set's lengths) from the parts of a key file, with
 * every check: FM_OK, FM_ERR_BAD_KEY, or a status of the services it calls. */
static int derive(fm_mlkem_param param, const pqkey_shape *sh, const pqkey_parts *parts,
                  uint8_t *ek, uint8_t *dk) {
  int st;
  switch (parts->format) {
    case FM_KEY_SPKI_PUBLIC:
      st = fm_mlkem_check_ek(param, parts->pub.p, parts->pub.n); /* 7.2 */
      if (st == FM_OK) memcpy(ek, parts->pub.p, sh->public_len);
      return st;
    case FM_KEY_PKCS8_EXPANDED:
      st = fm_mlkem_check_dk(param, parts->expanded.p, parts->expanded.n); /* 7.3 */
      /* The ek inside dk is what Encaps will be given: it must pass 7.2 too. ek is public. */
      if (st == FM_OK) {
        memcpy(ek, parts->expanded.p + ek_offset(sh), sh->public_len);
        fm_declassify(ek, sh->public_len);
        st = fm_mlkem_check_ek(param, ek, sh->public_len);
      }
      if (st == FM_OK) memcpy(dk, parts->expanded.p, sh->expanded_len);
      return st;
    default: /* the seed form, or both */
      st = fm_mlkem_keygen_from_seed(param, parts->seed.p, parts->seed.n, ek, sh->public_len, dk,
                                     sh->expanded_len);
      if (st == FM_OK && parts->format == FM_KEY_PKCS8_BOTH &&
          !fm_declassify_u64((uint64_t)fm_ct_memeq(dk, parts->expanded.p, sh->expanded_len)))
        st = FM_ERR_BAD_KEY; /* the verdict is public; the bytes are not */
      return st;
  }
}

int fm_mlkem_key_decode(const uint8_t *in, size_t in_len, fm_mlkem_param *param,
                        fm_key_format *format, uint8_t *seed, size_t seed_cap, uint8_t *dk,
                        size_t dk_cap, uint8_t *ek, size_t ek_cap) {
  int st = fm_service_gate();
  if (st == FM_OK &&
      (param == NULL || format == NULL || (in == NULL && in_len > 0) ||
       (seed == NULL && seed_cap > 0) || (dk == NULL && dk_cap > 0) || (ek == NULL && ek_cap > 0)))
    st = FM_ERR_BAD_ARGUMENT;
  if (st == FM_OK && (fm_buffers_overlap(in, in_len, seed, seed_cap) ||
                      fm_buffers_overlap(in, in_len, dk, dk_cap) ||
                      fm_buffers_overlap(in, in_len, ek, ek_cap) ||
                      fm_buffers_overlap(seed, seed_cap, dk, dk_cap) ||
                      fm_buffers_overlap(seed, seed_cap, ek, ek_cap) ||
                      fm_buffers_overlap(dk, dk_cap, ek, ek_cap)))
    st = FM_ERR_OVERLAP;
  if (param != NULL) *param = (fm_mlkem_param)0;
  if (format != NULL) *format = (fm_key_format)0;

  size_t which = 0, buf_len = 0;
  uint8_t *buf = NULL;
  pqkey_parts parts;
  memset(&parts, 0, sizeof parts);
  if (st == FM_OK) st = pqkey_decode(in, in_len, k_shapes, SHAPE_COUNT, &which, &parts, &buf,
                                     &buf_len);
  const pqkey_shape *sh = &k_shapes[which];
  if (st == FM_OK && ((seed != NULL && seed_cap < sh->seed_len) ||
                      (dk != NULL && dk_cap < sh->expanded_len) ||
                      (ek != NULL && ek_cap < sh->public_len)))
    st = FM_ERR_BUFFER_TOO_SMALL;

  uint8_t ek_buf[FM_MLKEM_MAX_EK_LEN], dk_buf[FM_MLKEM_MAX_DK_LEN];
  if (st == FM_OK) st = derive(k_params[which], sh, &parts, ek_buf, dk_buf);
  if (st == FM_OK) {
    const bool priv = parts.format != FM_KEY_SPKI_PUBLIC;
    const bool has_seed = parts.format == FM_KEY_PKCS8_PRIVATE || parts.format == FM_KEY_PKCS8_BOTH;
    wipe(seed, seed_cap);
    wipe(dk, dk_cap);
    if (seed != NULL && has_seed) memcpy(seed, parts.seed.p, sh->seed_len);
    if (dk != NULL && priv) memcpy(dk, dk_buf, sh->expanded_len);
    if (ek != NULL) memcpy(ek, ek_buf, sh->public_len);
    *param = k_params[which];
    *format = parts.format;
  }
  fm_zeroize(dk_buf, sizeof dk_buf);
  fm_zeroize(&parts, sizeof parts);
  if (buf != NULL) {
    fm_zeroize(buf, buf_len);
    free(buf);
  }
  if (st != FM_OK) {
    if (param != NULL) *param = (fm_mlkem_param)0;
    if (format != NULL) *format = (fm_key_format)0;
    wipe(seed, seed_cap);
    wipe(dk, dk_cap);
    return fm_refuse(st, ek, ek_cap);
  }
  fm_indicator_approved();
  return FM_OK;
}

int fm_mlkem_key_encode(fm_mlkem_param param, fm_key_format format, const uint8_t *key,
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
  if (key_len != want) st = FM_ERR_LENGTH;
  uint8_t ek[FM_MLKEM_MAX_EK_LEN], dk[FM_MLKEM_MAX_DK_LEN];
  if (st == FM_OK) {
    switch (format) {
      case FM_KEY_SPKI_PUBLIC: st = fm_mlkem_check_ek(param, key, key_len); break;
      case FM_KEY_PKCS8_EXPANDED: st = fm_mlkem_check_dk(param, key, key_len); break;
      case FM_KEY_PKCS8_BOTH:
        st = fm_mlkem_keygen_from_seed(param, key, key_len, ek, sh->public_len, dk,
                                       sh->expanded_len);
        break;
      default: break; /* the seed form: any 64 bytes are a seed */
    }
  }
  if (st == FM_OK) {
    const uint8_t *seed = format == FM_KEY_PKCS8_PRIVATE || format == FM_KEY_PKCS8_BOTH ? key
                                                                                          : NULL;
    const uint8_t *expanded = format == FM_KEY_PKCS8_BOTH       ? dk
                              : format == FM_KEY_PKCS8_EXPANDED ? key
                                                                : NULL;
    st = pqkey_encode(sh, format, seed, expanded, key, encoding, out, out_cap, out_len);
  }
  fm_zeroize(dk, sizeof dk);
  if (st != FM_OK) {
    const size_t keep = st == FM_ERR_BUFFER_TOO_SMALL ? *out_len : 0;
    fm_refuse(st, out, out == NULL ? 0 : out_cap);
    *out_len = keep;
    return st;
  }
  fm_indicator_approved();
  return FM_OK;
}
