/* Key derivation functions on HMAC (module/sha): HKDF (RFC 5869, SP 800-56C Rev. 2 two-step),
 * the SP 800-108r1 counter-mode KDF, and PBKDF2 (SP 800-132).
 *
 * Each keys one HMAC context once and clones it for every PRF call (an hmac_ctx holds the
 * state after the inner key block and the chaining value after the outer one, so a clone costs
 * a copy of the hash family's part, not two compressions); HKDF's extract is one HMAC over the
 * IKM in place. Every context, PRF output and intermediate value is wiped
 * before return. */
#include <string.h>

#include "fipsmod/kdf.h"
#include "module/approval.h"
#include "module/internal.h"
#include "module/sha/internal.h"

/* digest_len is hLen for the hashes the KDFs take (every SHA-2 and SHA-3 hash: SP 800-56C Rev. 2
 * section 7, SP 800-108r1 section 4 and SP 800-132 section 5.3 allow any approved hash in the
 * HMAC), 0 for anything else. */
static size_t digest_len(fm_hash_alg alg) { return sha_alg_digest_len(alg); }

static bool in_null(const void *p, size_t len) { return p == NULL && len != 0; }

/* kdf_gate is the state check of every KDF service: the module state, then the KDF's CAST |id|
 * and the CAST of the HMAC it runs on (one load each once they have passed). */
static int kdf_gate(fm_selftest_id id, fm_hash_alg alg) {
  int st = fm_service_gate_tested(id);
  if (st == FM_OK && (st = hmac_selftest_ensure(alg)) != FM_OK) fm_indicator_not_approved();
  return st;
}

/* out_overlaps is true when |out| overlaps the input [p, p+len). */
static bool out_overlaps(const uint8_t *out, size_t out_len, const void *p, size_t len) {
  return len != 0 && fm_buffers_overlap(out, out_len, p, len);
}

/* ---- HKDF --------------------------------------------------------------------------------- */

/* hkdf_extract_raw: RFC 5869 2.2 step 1, PRK = HMAC-Hash(salt, IKM); an empty salt is hLen
 * zeros, which as an HMAC key is the same as the empty key (K0 is zero-padded either way). One
 * HMAC over the IKM in place (hmac_internal_nowipe: no context, no copy of the IKM); an IKM
 * that would take the inner hash past SHA-2's length limit is refused as the context would. */
static int hkdf_extract_raw(fm_hash_alg alg, const uint8_t *salt, size_t salt_len,
                            const uint8_t *ikm, size_t ikm_len, uint8_t *prk) {
  if (sha_alg_family(alg) != SHA_FAMILY_SHA3 &&
      ikm_len > SHA2_MAX_INPUT_BYTES - sha_alg_block_len(alg)) {
    return FM_ERR_LENGTH;
  }
  return hmac_internal_nowipe(alg, salt, salt_len, ikm, ikm_len, prk);
}

/* hkdf_expand_raw: RFC 5869 2.3: T(0) = empty, T(i) = HMAC-Hash(PRK, T(i-1) || info || i). */
static int hkdf_expand_raw(fm_hash_alg alg, size_t hlen, const uint8_t *prk, size_t prk_len,
                           const uint8_t *info, size_t info_len, uint8_t *out, size_t out_len) {
  hmac_ctx base, c;
  uint8_t t[FM_MAX_DIGEST_LEN];
  int st = hmac_ctx_init_nowipe(&base, alg, prk, prk_len);
  size_t done = 0;
  for (unsigned i = 1; st == FM_OK && done < out_len; i++) {
    const uint8_t ctr = (uint8_t)i;
    hmac_ctx_clone(&c, &base);
    if (i > 1) st = hmac_ctx_update_nowipe(&c, t, hlen);
    if (st == FM_OK) st = hmac_ctx_update_nowipe(&c, info, info_len);
    if (st == FM_OK) st = hmac_ctx_update_nowipe(&c, &ctr, 1);
    if (st == FM_OK) st = hmac_ctx_final_nowipe(&c, t);
    if (st != FM_OK) break;
    const size_t take = out_len - done < hlen ? out_len - done : hlen;
    sha_copy_gpr(out + done, t, take);
    done += take;
  }
  hmac_ctx_wipe(&base);
  hmac_ctx_wipe(&c);
  sha_zeroize_fixed(t, sizeof t);
  return st;
}

int fm_hkdf_extract(fm_hash_alg alg, const uint8_t *salt, size_t salt_len, const uint8_t *ikm,
                    size_t ikm_len, uint8_t *prk, size_t prk_len) {
  int st = kdf_gate(FM_ST_HKDF_SHA256_KAT, alg);
  const size_t hlen = digest_len(alg);
  if (st == FM_OK) {
    if (prk == NULL || in_null(salt, salt_len) || in_null(ikm, ikm_len)) {
      st = FM_ERR_BAD_ARGUMENT;
    } else if (hlen == 0) {
      st = FM_ERR_UNSUPPORTED;
    } else if (prk_len < hlen) {
      st = FM_ERR_BUFFER_TOO_SMALL;
    } else if (out_overlaps(prk, hlen, salt, salt_len) || out_overlaps(prk, hlen, ikm, ikm_len)) {
      st = FM_ERR_OVERLAP;
    }
  }
  if (st == FM_OK) st = hkdf_extract_raw(alg, salt, salt_len, ikm, ikm_len, prk);
  hmac_kdf_stack_wipe();
  /* Only the hLen bytes the call would write are wiped; a too-small buffer is not touched. */
  if (st != FM_OK) return fm_refuse(st, prk, (hlen != 0 && prk_len >= hlen) ? hlen : 0);
  if (!fm_approval_hkdf_extract(ikm_len)) fm_indicator_not_approved();
  return FM_OK;
}

/* Calls with parameters outside the approved set (kdf.h "Approved parameters", whose rules live
 * in module/approval.c) run and are marked not approved for the service indicator. */

/* hkdf_out_ok: RFC 5869 2.3, L <= 255 * HashLen. */
static bool hkdf_out_ok(size_t hlen, size_t out_len) {
  return out_len != 0 && hlen != 0 && out_len <= 255 * hlen;
}

int fm_hkdf_expand(fm_hash_alg alg, const uint8_t *prk, size_t prk_len, const uint8_t *info,
                   size_t info_len, uint8_t *out, size_t out_len) {
  int st = kdf_gate(FM_ST_HKDF_SHA256_KAT, alg);
  const size_t hlen = digest_len(alg);
  if (st == FM_OK) {
    if (prk == NULL || out == NULL || in_null(info, info_len)) {
      st = FM_ERR_BAD_ARGUMENT;
    } else if (hlen == 0) {
      st = FM_ERR_UNSUPPORTED;
    } else if (!hkdf_out_ok(hlen, out_len) || prk_len < hlen) {
      st = FM_ERR_LENGTH;
    } else if (out_overlaps(out, out_len, prk, prk_len) ||
               out_overlaps(out, out_len, info, info_len)) {
      st = FM_ERR_OVERLAP;
    }
  }
  if (st == FM_OK) st = hkdf_expand_raw(alg, hlen, prk, prk_len, info, info_len, out, out_len);
  hmac_kdf_stack_wipe();
  if (st != FM_OK) return fm_refuse(st, out, hkdf_out_ok(hlen, out_len) ? out_len : 0);
  if (!fm_approval_hkdf_expand(out_len)) fm_indicator_not_approved();
  return FM_OK;
}

int fm_hkdf(fm_hash_alg alg, const uint8_t *ikm, size_t ikm_len, const uint8_t *salt,
            size_t salt_len, const uint8_t *info, size_t info_len, uint8_t *out, size_t out_len) {
  int st = kdf_gate(FM_ST_HKDF_SHA256_KAT, alg);
  const size_t hlen = digest_len(alg);
  if (st == FM_OK) {
    if (out == NULL || in_null(ikm, ikm_len) || in_null(salt, salt_len) ||
        in_null(info, info_len)) {
      st = FM_ERR_BAD_ARGUMENT;
    } else if (hlen == 0) {
      st = FM_ERR_UNSUPPORTED;
    } else if (!hkdf_out_ok(hlen, out_len)) {
      st = FM_ERR_LENGTH;
    } else if (out_overlaps(out, out_len, ikm, ikm_len) ||
               out_overlaps(out, out_len, salt, salt_len) ||
               out_overlaps(out, out_len, info, info_len)) {
      st = FM_ERR_OVERLAP;
    }
  }
  uint8_t prk[FM_MAX_DIGEST_LEN];
  if (st == FM_OK) st = hkdf_extract_raw(alg, salt, salt_len, ikm, ikm_len, prk);
  if (st == FM_OK) st = hkdf_expand_raw(alg, hlen, prk, hlen, info, info_len, out, out_len);
  sha_zeroize_fixed(prk, sizeof prk);
  hmac_kdf_stack_wipe();
  if (st != FM_OK) return fm_refuse(st, out, hkdf_out_ok(hlen, out_len) ? out_len : 0);
  if (!fm_approval_hkdf(ikm_len, out_len)) fm_indicator_not_approved();
  return FM_OK;
}

/* ---- SP 800-108r1 counter mode ------------------------------------------------------------ */

/* kbkdf_out_ok: n = ceil(L / h) <= 2^r - 1 (SP 800-108r1 4.1, step 2). */
static bool kbkdf_out_ok(size_t hlen, unsigned ctr_bits, size_t out_len) {
  if (out_len == 0 || hlen == 0) return false;
  const uint64_t n = ((uint64_t)out_len + hlen - 1) / hlen;
  return n <= ((((uint64_t)1) << ctr_bits) - 1);
}

static bool ctr_bits_ok(unsigned r) { return r == 8 || r == 16 || r == 24 || r == 32; }

int fm_kbkdf_ctr_hmac(fm_hash_alg alg, const uint8_t *key, size_t key_len, const uint8_t *fixed,
                      size_t fixed_len, size_t ctr_pos, unsigned ctr_bits, uint8_t *out,
                      size_t out_len) {
  int st = kdf_gate(FM_ST_KBKDF_HMAC_SHA256_KAT, alg);
  const size_t hlen = digest_len(alg);
  const bool r_ok = ctr_bits_ok(ctr_bits);
  if (st == FM_OK) {
    if (out == NULL || in_null(key, key_len) || in_null(fixed, fixed_len) || ctr_pos > fixed_len ||
        !r_ok) {
      st = FM_ERR_BAD_ARGUMENT;
    } else if (hlen == 0) {
      st = FM_ERR_UNSUPPORTED;
    } else if (!kbkdf_out_ok(hlen, ctr_bits, out_len)) {
      st = FM_ERR_LENGTH;
    } else if (out_overlaps(out, out_len, key, key_len) ||
               out_overlaps(out, out_len, fixed, fixed_len)) {
      st = FM_ERR_OVERLAP;
    }
  }
  if (st != FM_OK) {
    return fm_refuse(st, out, (r_ok && kbkdf_out_ok(hlen, ctr_bits, out_len)) ? out_len : 0);
  }
  hmac_ctx base, c;
  uint8_t k[FM_MAX_DIGEST_LEN];
  st = hmac_ctx_init_nowipe(&base, alg, key, key_len);
  const size_t rbytes = ctr_bits / 8;
  size_t done = 0;
  /* Step 4: for i = 1 to n, K(i) = PRF(K_IN, [i]_2 placed in the fixed data); result = the
   * leftmost L bits of K(1) || ... || K(n). */
  for (uint32_t i = 1; st == FM_OK && done < out_len; i++) {
    uint8_t ctr[4];
    for (size_t b = 0; b < rbytes; b++) ctr[b] = (uint8_t)(i >> (8 * (rbytes - 1 - b)));
    hmac_ctx_clone(&c, &base);
    st = hmac_ctx_update_nowipe(&c, fixed, ctr_pos);
    if (st == FM_OK) st = hmac_ctx_update_nowipe(&c, ctr, rbytes);
    if (st == FM_OK) {
      st = hmac_ctx_update_nowipe(&c, fixed != NULL ? fixed + ctr_pos : NULL, fixed_len - ctr_pos);
    }
    if (st == FM_OK) st = hmac_ctx_final_nowipe(&c, k);
    if (st != FM_OK) break;
    const size_t take = out_len - done < hlen ? out_len - done : hlen;
    sha_copy_gpr(out + done, k, take);
    done += take;
  }
  hmac_ctx_wipe(&base);
  hmac_ctx_wipe(&c);
  sha_zeroize_fixed(k, sizeof k);
  hmac_kdf_stack_wipe();
  if (st != FM_OK) return fm_refuse(st, out, out_len);
  if (!fm_approval_kbkdf(key_len, out_len)) fm_indicator_not_approved();
  return FM_OK;
}

/* ---- PBKDF2 ------------------------------------------------------------------------------- */

static bool pbkdf2_out_ok(size_t hlen, size_t out_len) {
  return out_len != 0 && hlen != 0 && (uint64_t)out_len <= (uint64_t)UINT32_MAX * hlen;
}

/* pbkdf2_first sets |u| and |t| to U_1 = PRF(P, S || INT(i)) of block |i|, with |c| a clone of
 * the keyed |base|. */
static int pbkdf2_first(hmac_ctx *c, const hmac_ctx *base, const uint8_t *salt, size_t salt_len,
                        uint32_t i, uint8_t *u, uint8_t *t, size_t hlen) {
  const uint8_t be[4] = {(uint8_t)(i >> 24), (uint8_t)(i >> 16), (uint8_t)(i >> 8), (uint8_t)i};
  hmac_ctx_clone(c, base);
  int st = hmac_ctx_update_nowipe(c, salt, salt_len);
  if (st == FM_OK) st = hmac_ctx_update_nowipe(c, be, 4);
  if (st == FM_OK) st = hmac_ctx_final_nowipe(c, u);
  sha_copy_gpr(t, u, hlen);
  return st;
}

/* pbkdf2_rest runs iterations |j| .. |iterations| - 1 of one block one PRF call at a time (the
 * hashes hmac_ctx_iterate has no direct path for), with the self-test check every 1024. */
static int pbkdf2_rest(hmac_ctx *c, const hmac_ctx *base, uint8_t *u, uint8_t *t, size_t hlen,
                       uint64_t j, uint64_t iterations, uint64_t epoch) {
  int st = FM_OK;
  for (; st == FM_OK && j < iterations; j++) {
    hmac_ctx_clone(c, base);
    st = hmac_ctx_update_nowipe(c, u, hlen);
    if (st == FM_OK) st = hmac_ctx_final_nowipe(c, u);
    for (size_t b = 0; b < hlen; b++) t[b] ^= u[b];
    if ((j & 1023) == 0 && !fm_service_may_continue(epoch)) st = FM_ERR_NOT_OPERATIONAL;
  }
  return st;
}

int fm_pbkdf2_hmac(fm_hash_alg alg, const uint8_t *password, size_t password_len,
                   const uint8_t *salt, size_t salt_len, uint64_t iterations, uint8_t *out,
                   size_t out_len) {
  int st = kdf_gate(FM_ST_PBKDF2_HMAC_SHA256_KAT, alg);
  const size_t hlen = digest_len(alg);
  if (st == FM_OK) {
    if (out == NULL || in_null(password, password_len) || in_null(salt, salt_len) ||
        iterations == 0) {
      st = FM_ERR_BAD_ARGUMENT;
    } else if (hlen == 0) {
      st = FM_ERR_UNSUPPORTED;
    } else if (!pbkdf2_out_ok(hlen, out_len)) {
      st = FM_ERR_LENGTH;
    } else if (out_overlaps(out, out_len, password, password_len) ||
               out_overlaps(out, out_len, salt, salt_len)) {
      st = FM_ERR_OVERLAP;
    }
  }
  if (st != FM_OK) return fm_refuse(st, out, pbkdf2_out_ok(hlen, out_len) ? out_len : 0);

  hmac_ctx base, c;
  /* Two output blocks at a time where two remain: their iteration chains are independent, and
   * the direct path runs them interleaved (hmac_ctx_iterate2), which fills the gaps of one
   * chain's latency-bound compressions with the other's. */
  uint8_t u[2][FM_MAX_DIGEST_LEN], t[2][FM_MAX_DIGEST_LEN];
  const uint64_t epoch = fm_service_epoch();
  st = hmac_ctx_init_nowipe(&base, alg, password, password_len);
  size_t done = 0;
  /* SP 800-132 5.3 step 4 (RFC 8018 5.2): T_i = U_1 ^ ... ^ U_C, U_1 = PRF(P, S || INT(i)),
   * U_j = PRF(P, U_{j-1}). */
  for (uint32_t i = 1; st == FM_OK && done < out_len;) {
    const unsigned lanes = out_len - done > hlen ? 2 : 1;
    for (unsigned l = 0; st == FM_OK && l < lanes; l++) {
      st = pbkdf2_first(&c, &base, salt, salt_len, i + l, u[l], t[l], hlen);
    }
    /* The remaining iterations in slices of 1024 on the direct path (hmac_ctx_iterate,
     * hmac_ctx_iterate2), each slice followed by the self-test check below; else one PRF call
     * at a time. */
    uint64_t j = 1;
    while (st == FM_OK && j < iterations) {
      const uint64_t n = iterations - j < 1024 ? iterations - j : 1024;
      const bool direct = lanes == 2 ? hmac_ctx_iterate2(&base, u[0], t[0], u[1], t[1], n)
                                     : hmac_ctx_iterate(&base, u[0], t[0], n);
      if (!direct) break;
      j += n;
      if (j < iterations && !fm_service_may_continue(epoch)) st = FM_ERR_NOT_OPERATIONAL;
    }
    for (unsigned l = 0; st == FM_OK && l < lanes; l++) {
      st = pbkdf2_rest(&c, &base, u[l], t[l], hlen, j, iterations, epoch);
    }
    /* Every 1024 iterations and per output block: a self-test run that began meanwhile stops
     * the call (internal.h). */
    if (st == FM_OK && !fm_service_may_continue(epoch)) st = FM_ERR_NOT_OPERATIONAL;
    if (st != FM_OK) break;
    for (unsigned l = 0; l < lanes; l++) {
      const size_t take = out_len - done < hlen ? out_len - done : hlen;
      sha_copy_gpr(out + done, t[l], take);
      done += take;
    }
    i += lanes;
  }
  hmac_ctx_wipe(&base);
  hmac_ctx_wipe(&c);
  sha_zeroize_fixed(u, sizeof u);
  sha_zeroize_fixed(t, sizeof t);
  hmac_kdf_stack_wipe();
  if (st != FM_OK) return fm_refuse(st, out, out_len);
  if (!fm_approval_pbkdf2(password_len, salt_len, iterations, out_len)) {
    fm_indicator_not_approved();
  }
  return FM_OK;
}
