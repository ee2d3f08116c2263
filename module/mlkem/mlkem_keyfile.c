/* ML-KEM key files (fipsmod/keyfile.h): SubjectPublicKeyInfo and OneAsymmetricKey with the
 * private-key CHOICE of draft-ietf-lamps-kyber-certificates (seed, expandedKey, both), in DER
 * and PEM. The structure is module/pqkey.c; this file derives and checks the key material with
 * the module's own ML-KEM services: KeyGen_internal for a seed (fm_mlkem_keygen_from_seed), the
 * checks of FIPS 203 7.2 and 7.3 for ek and dk.
 *
 * Secrets: the seed d || z and dk. They are copied at public offsets, compared in constant time
 * (fm_ct_memeq, whose verdict alone is released) and wiped from every buffer that held them. */
#include <assert.h>
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
static_assert(FM_MLKEM_MAX_DK_LEN <= PQKEY_MAX_EXPANDED && FM_MLKEM_MAX_EK_LEN <= PQKEY_MAX_PUBLIC,
              "pqkey's buffers hold every ML-KEM key");

/* ek sits inside dk at 384k = dk_len - ek_len - 64 (FIPS 203 Algorithm 16, step 3:
 * dk = dk_PKE || ek || H(ek) || z). */
static size_t ek_offset(const pqkey_shape *sh) {
  return (size_t)sh->expanded_len - sh->public_len - 64;
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

/* derive_at and prepare are the ML-KEM parts of the services (module/pqkey.h). */
static int derive_at(size_t which, const pqkey_parts *parts, uint8_t *pub, uint8_t *expanded) {
  return derive(k_params[which], &k_shapes[which], parts, pub, expanded);
}

static int prepare(size_t which, fm_key_format format, const uint8_t *key, size_t key_len,
                   uint8_t *expanded) {
  const fm_mlkem_param param = k_params[which];
  const pqkey_shape *sh = &k_shapes[which];
  uint8_t ek[FM_MLKEM_MAX_EK_LEN];
  switch (format) {
    case FM_KEY_SPKI_PUBLIC: return fm_mlkem_check_ek(param, key, key_len);
    case FM_KEY_PKCS8_EXPANDED: return fm_mlkem_check_dk(param, key, key_len);
    case FM_KEY_PKCS8_BOTH:
      return fm_mlkem_keygen_from_seed(param, key, key_len, ek, sh->public_len, expanded,
                                       sh->expanded_len);
    default: return FM_OK; /* the seed form: any 64 bytes are a seed */
  }
}

int fm_mlkem_key_decode(const uint8_t *in, size_t in_len, fm_mlkem_param *param,
                        fm_key_format *format, uint8_t *seed, size_t seed_cap, uint8_t *dk,
                        size_t dk_cap, uint8_t *ek, size_t ek_cap) {
  if (param != NULL) *param = (fm_mlkem_param)0;
  size_t which = 0;
  const int st = pqkey_decode_service(in, in_len, k_shapes, SHAPE_COUNT, derive_at, param != NULL,
                                      &which, format, seed, seed_cap, dk, dk_cap, ek, ek_cap);
  if (st == FM_OK) *param = k_params[which];
  return st;
}

int fm_mlkem_key_encode(fm_mlkem_param param, fm_key_format format, const uint8_t *key,
                        size_t key_len, fm_key_encoding encoding, uint8_t *out, size_t out_cap,
                        size_t *out_len) {
  size_t which = 0;
  while (which < SHAPE_COUNT && k_params[which] != param) which++;
  return pqkey_encode_service(k_shapes, SHAPE_COUNT, which, prepare, FM_ERR_LENGTH, format, key,
                              key_len, encoding, out, out_cap, out_len);
}
