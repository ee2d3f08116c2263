/* The ML-KEM services (include/fipsmod/mlkem.h): the state gate and the unit's CAST, argument
 * checks in the order module/internal.h gives (state, then NULLs and lengths, then the key
 * checks of FIPS 203 section 7), the DRBG draws, the pairwise consistency test at key generation
 * and the service indicator. Every refusal wipes the outputs whose lengths were valid. */
#include <string.h>

#include "fipsmod/mlkem.h"
#include "fipsmod/rand.h"
#include "module/internal.h"
#include "module/mlkem/internal.h"

/* The CAST that covers every ML-KEM service (selftest/: mlkem_selftest_kat). */
#define MLKEM_CAST FM_ST_MLKEM768_KAT

/* lookup: the parameter set, or NULL. */
static const mlkem_params *lookup(fm_mlkem_param param) { return mlkem_params_get((unsigned)param); }

/* wipe_if wipes |buf| when its length was the right one (a wrong length is never written). */
static void wipe_if(void *buf, size_t len, size_t want) {
  if (buf != NULL && len == want) fm_zeroize(buf, len);
}

int fm_mlkem_sizes(fm_mlkem_param param, size_t *ek_len, size_t *dk_len, size_t *ct_len) {
  const mlkem_params *p = lookup(param);
  if (ek_len != NULL) *ek_len = p ? p->ek_len : 0;
  if (dk_len != NULL) *dk_len = p ? p->dk_len : 0;
  if (ct_len != NULL) *ct_len = p ? p->ct_len : 0;
  return p ? FM_OK : FM_ERR_UNSUPPORTED;
}

/* ---- Key generation ------------------------------------------------------------------------ */

int fm_mlkem_keygen(fm_mlkem_param param, uint8_t *ek, size_t ek_len, uint8_t *dk, size_t dk_len,
                    uint8_t *seed_out, size_t seed_len) {
  const mlkem_params *p = lookup(param);
  const size_t ek_want = p ? p->ek_len : 0, dk_want = p ? p->dk_len : 0;
  int st = fm_service_gate_tested(MLKEM_CAST);
  if (st == FM_OK && p == NULL) st = FM_ERR_UNSUPPORTED;
  if (st == FM_OK && (ek == NULL || dk == NULL)) st = FM_ERR_BAD_ARGUMENT;
  if (st == FM_OK && (ek_len != ek_want || dk_len != dk_want)) st = FM_ERR_LENGTH;
  if (st == FM_OK && seed_out != NULL && seed_len != FM_MLKEM_SEED_LEN) st = FM_ERR_LENGTH;
  if (st == FM_OK && (fm_buffers_overlap(ek, ek_len, dk, dk_len) ||
                      (seed_out != NULL && (fm_buffers_overlap(seed_out, seed_len, ek, ek_len) ||
                                            fm_buffers_overlap(seed_out, seed_len, dk, dk_len)))))
    st = FM_ERR_OVERLAP;
  if (st != FM_OK) goto refuse;

  /* FIPS 203 Algorithm 19, steps 1-2: d and z from the approved RBG; a third 32 bytes are the
   * pairwise test's message. */
  uint8_t rnd[96];
  st = fm_rand_bytes(rnd, sizeof rnd);
  if (st == FM_OK) {
    /* The pairwise consistency test (IG 10.3.A) runs on every new key. */
    st = mlkem_keygen_pct(p, rnd, rnd + 32, rnd + 64, ek, dk) ? FM_OK : FM_ERR_KEYGEN;
    mlkem_stack_wipe();
    fm_selftest_record_conditional(FM_ST_MLKEM_PCT, st);
    /* A failed pairwise test has put the module in ERROR: no key leaves it then. */
    if (st == FM_OK && !fm_module_operational()) st = FM_ERR_KEYGEN;
  }
  if (st == FM_OK && seed_out != NULL) memcpy(seed_out, rnd, FM_MLKEM_SEED_LEN);
  fm_zeroize(rnd, sizeof rnd);
  if (st == FM_OK) {
    fm_indicator_approved();
    return FM_OK;
  }
refuse:
  wipe_if(ek, ek_len, ek_want);
  wipe_if(dk, dk_len, dk_want);
  wipe_if(seed_out, seed_len, FM_MLKEM_SEED_LEN);
  return fm_refuse(st, NULL, 0);
}

int fm_mlkem_keygen_from_seed(fm_mlkem_param param, const uint8_t *seed, size_t seed_len,
                              uint8_t *ek, size_t ek_len, uint8_t *dk, size_t dk_len) {
  const mlkem_params *p = lookup(param);
  const size_t ek_want = p ? p->ek_len : 0, dk_want = p ? p->dk_len : 0;
  int st = fm_service_gate_tested(MLKEM_CAST);
  if (st == FM_OK && p == NULL) st = FM_ERR_UNSUPPORTED;
  if (st == FM_OK && (seed == NULL || ek == NULL || dk == NULL)) st = FM_ERR_BAD_ARGUMENT;
  if (st == FM_OK && (seed_len != FM_MLKEM_SEED_LEN || ek_len != ek_want || dk_len != dk_want))
    st = FM_ERR_LENGTH;
  if (st == FM_OK && fm_buffers_overlap(seed, seed_len, ek, ek_len)) st = FM_ERR_OVERLAP;
  if (st == FM_OK && fm_buffers_overlap(seed, seed_len, dk, dk_len)) st = FM_ERR_OVERLAP;
  if (st == FM_OK && fm_buffers_overlap(ek, ek_len, dk, dk_len)) st = FM_ERR_OVERLAP;
  if (st != FM_OK) {
    wipe_if(ek, ek_len, ek_want);
    wipe_if(dk, dk_len, dk_want);
    return fm_refuse(st, NULL, 0);
  }
  /* Algorithm 16 on (d, z) = seed. */
  mlkem_keygen_internal(p, seed, seed + 32, ek, dk);
  mlkem_stack_wipe();
  return FM_OK;
}

/* ---- Encapsulation ------------------------------------------------------------------------- */

/* encaps_checks: the argument checks and FIPS 203 7.2 (length and modulus check of ek). */
static int encaps_checks(const mlkem_params *p, const uint8_t *ek, size_t ek_len, uint8_t *ct,
                         size_t ct_len, uint8_t *ss, size_t ss_len) {
  if (p == NULL) return FM_ERR_UNSUPPORTED;
  if (ek == NULL || ct == NULL || ss == NULL) return FM_ERR_BAD_ARGUMENT;
  if (ct_len != p->ct_len || ss_len != FM_MLKEM_SHARED_SECRET_LEN) return FM_ERR_LENGTH;
  if (ek_len != p->ek_len) return FM_ERR_LENGTH; /* 7.2, step 1 (type check) */
  if (fm_buffers_overlap(ek, ek_len, ct, ct_len) || fm_buffers_overlap(ek, ek_len, ss, ss_len) ||
      fm_buffers_overlap(ct, ct_len, ss, ss_len))
    return FM_ERR_OVERLAP;
  if (!mlkem_check_ek(p, ek)) return FM_ERR_BAD_KEY; /* 7.2, step 2 (modulus check) */
  return FM_OK;
}

int fm_mlkem_encaps(fm_mlkem_param param, const uint8_t *ek, size_t ek_len, uint8_t *ct,
                    size_t ct_len, uint8_t *ss, size_t ss_len) {
  const mlkem_params *p = lookup(param);
  int st = fm_service_gate_tested(MLKEM_CAST);
  if (st == FM_OK) st = encaps_checks(p, ek, ek_len, ct, ct_len, ss, ss_len);
  uint8_t m[32];
  /* Algorithm 20, step 1: m from the approved RBG. */
  if (st == FM_OK) st = fm_rand_bytes(m, sizeof m);
  if (st == FM_OK) {
    mlkem_encaps_internal(p, ek, m, ct, ss);
    mlkem_stack_wipe();
    fm_zeroize(m, sizeof m);
    fm_indicator_approved();
    return FM_OK;
  }
  fm_zeroize(m, sizeof m);
  if (p != NULL) wipe_if(ct, ct_len, p->ct_len);
  wipe_if(ss, ss_len, FM_MLKEM_SHARED_SECRET_LEN);
  return fm_refuse(st, NULL, 0);
}

int fm_mlkem_encaps_internal(fm_mlkem_param param, const uint8_t *ek, size_t ek_len,
                             const uint8_t *m, size_t m_len, uint8_t *ct, size_t ct_len,
                             uint8_t *ss, size_t ss_len) {
  const mlkem_params *p = lookup(param);
  int st = fm_service_gate_tested(MLKEM_CAST);
  if (st == FM_OK) st = encaps_checks(p, ek, ek_len, ct, ct_len, ss, ss_len);
  if (st == FM_OK && m == NULL) st = FM_ERR_BAD_ARGUMENT;
  if (st == FM_OK && m_len != FM_MLKEM_MESSAGE_LEN) st = FM_ERR_LENGTH;
  if (st == FM_OK && (fm_buffers_overlap(m, m_len, ct, ct_len) ||
                      fm_buffers_overlap(m, m_len, ss, ss_len)))
    st = FM_ERR_OVERLAP;
  if (st != FM_OK) {
    if (p != NULL) wipe_if(ct, ct_len, p->ct_len);
    wipe_if(ss, ss_len, FM_MLKEM_SHARED_SECRET_LEN);
    return fm_refuse(st, NULL, 0);
  }
  mlkem_encaps_internal(p, ek, m, ct, ss);
  mlkem_stack_wipe();
  /* m did not come from the module's RBG (FIPS 203 6.2): a testing interface. */
  fm_indicator_not_approved();
  return FM_OK;
}

/* ---- Decapsulation ------------------------------------------------------------------------- */

int fm_mlkem_decaps(fm_mlkem_param param, const uint8_t *dk, size_t dk_len, const uint8_t *ct,
                    size_t ct_len, uint8_t *ss, size_t ss_len) {
  const mlkem_params *p = lookup(param);
  int st = fm_service_gate_tested(MLKEM_CAST);
  if (st == FM_OK && p == NULL) st = FM_ERR_UNSUPPORTED;
  if (st == FM_OK && (dk == NULL || ct == NULL || ss == NULL)) st = FM_ERR_BAD_ARGUMENT;
  if (st == FM_OK && ss_len != FM_MLKEM_SHARED_SECRET_LEN) st = FM_ERR_LENGTH;
  /* FIPS 203 7.3, steps 1-2: the ciphertext and key type checks. */
  if (st == FM_OK && (ct_len != p->ct_len || dk_len != p->dk_len)) st = FM_ERR_LENGTH;
  if (st == FM_OK && (fm_buffers_overlap(dk, dk_len, ss, ss_len) ||
                      fm_buffers_overlap(ct, ct_len, ss, ss_len)))
    st = FM_ERR_OVERLAP;
  /* Step 3, the hash check, then decapsulation (one call: the check's hash and J share their
   * permutations). */
  if (st == FM_OK && !mlkem_decaps_checked(p, dk, ct, ss)) st = FM_ERR_BAD_KEY;
  if (st != FM_OK) {
    wipe_if(ss, ss_len, FM_MLKEM_SHARED_SECRET_LEN);
    mlkem_stack_wipe();
    return fm_refuse(st, NULL, 0);
  }
  mlkem_stack_wipe();
  return FM_OK;
}

/* ---- Key checks ---------------------------------------------------------------------------- */

int fm_mlkem_check_ek(fm_mlkem_param param, const uint8_t *ek, size_t ek_len) {
  const mlkem_params *p = lookup(param);
  int st = fm_service_gate_tested(MLKEM_CAST);
  if (st == FM_OK && p == NULL) st = FM_ERR_UNSUPPORTED;
  if (st == FM_OK && ek == NULL) st = FM_ERR_BAD_ARGUMENT;
  if (st == FM_OK && ek_len != p->ek_len) st = FM_ERR_LENGTH;
  if (st == FM_OK && !mlkem_check_ek(p, ek)) st = FM_ERR_BAD_KEY;
  return st == FM_OK ? FM_OK : fm_refuse(st, NULL, 0);
}

int fm_mlkem_check_dk(fm_mlkem_param param, const uint8_t *dk, size_t dk_len) {
  const mlkem_params *p = lookup(param);
  int st = fm_service_gate_tested(MLKEM_CAST);
  if (st == FM_OK && p == NULL) st = FM_ERR_UNSUPPORTED;
  if (st == FM_OK && dk == NULL) st = FM_ERR_BAD_ARGUMENT;
  if (st == FM_OK && dk_len != p->dk_len) st = FM_ERR_LENGTH;
  if (st == FM_OK && !mlkem_check_dk(p, dk)) st = FM_ERR_BAD_KEY;
  return st == FM_OK ? FM_OK : fm_refuse(st, NULL, 0);
}
