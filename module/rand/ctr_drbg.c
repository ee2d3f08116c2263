/* SP 800-90A Rev.1 CTR_DRBG, AES-256, with and without the block cipher derivation function.
 *
 * The counter field is the whole 128-bit block (ctr_len = blocklen), so "V = (V + 1) mod 2^blocklen"
 * is exactly the counter of aes_ctr128_blocks, and one CTR call yields the output blocks and the
 * three blocks the following CTR_DRBG_Update needs, under the same key. The expanded schedule of
 * Key is kept in the state, so a generate request expands one key: the new one, at the end. The
 * exception is a short request (up to 64 bytes) on a CPU with AES-NI: it expands Key on the fly,
 * interleaved with its own rounds (faster, see module/aes/drbg_expand.h), and marks the kept
 * schedule stale; the next request that needs the schedule rebuilds it.
 *
 * The mechanism functions (ctr_drbg_*) take valid arguments; the public fm_ctr_drbg_* functions
 * check lengths and state against the limits of 10.2.1 Table 3 first. */
#include <string.h>

#include "module/internal.h"
#include "module/rand/internal.h"

static_assert(CTR_DRBG_SEED_LEN == FM_DRBG_SEED_LEN, "seedlen");
static_assert(CTR_DRBG_KEY_LEN + CTR_DRBG_BLOCK_LEN == CTR_DRBG_SEED_LEN, "seedlen = keylen+outlen");

/* ---- CTR_DRBG_Update ----------------------------------------------------------------------
 * 10.2.1.2: temp = E(K, V+1) || E(K, V+2) || E(K, V+3); temp ^= provided_data; Key = leftmost
 * 256 bits, V = rightmost 128 bits. */

/* set_key_v installs temp (already xored with provided data) as the new Key and V and wipes it. */
static void set_key_v(ctr_drbg_state *st, uint8_t temp[CTR_DRBG_SEED_LEN]) {
  memcpy(st->key, temp, CTR_DRBG_KEY_LEN);
  memcpy(st->v, temp + CTR_DRBG_KEY_LEN, CTR_DRBG_BLOCK_LEN);
  aes_ks_init_encrypt(&st->ks, st->key, CTR_DRBG_KEY_LEN);
  st->ks_stale = 0;
  fm_zeroize(temp, CTR_DRBG_SEED_LEN);
}

/* fresh_schedule rebuilds |ks| from Key when a fused short generate left it stale. */
static inline void fresh_schedule(ctr_drbg_state *st) {
  if (st->ks_stale) {
    aes_ks_init_encrypt(&st->ks, st->key, CTR_DRBG_KEY_LEN);
    st->ks_stale = 0;
  }
}

/* drop_schedule marks |ks| stale when a fused short generate has moved Key past it, and wipes it
 * then: it is the schedule of a former Key, which backtracking resistance says must not stay in
 * the state. Wiped once per change to stale, not per request. */
static inline void drop_schedule(ctr_drbg_state *st) {
  if (!st->ks_stale) {
    aes_ks_wipe(&st->ks);
    st->ks_stale = 1;
  }
}

/* use_vaes_small is true when a short request takes aes_vaes_drbg_generate_small rather than
 * aes_ni_drbg_generate_small: the CPU has VAES and, in test builds, the bulk path is not capped
 * below it (aes_ni_path, a call, is asked only there: the tests cap it to reach every path). */
static inline bool use_vaes_small(void) {
#if defined(FIPSMOD_TEST_HOOKS)
  return fm_cpu_use(FM_CPU_VAES) && aes_ni_path() >= AES_PATH_VAES_AVX2;
#else
  return fm_cpu_use(FM_CPU_VAES);
#endif
}

static void xor_into(uint8_t *dst, const uint8_t *src, size_t len) {
  for (size_t i = 0; i < len; i++) dst[i] ^= src[i];
}

/* v_plus_one writes V + 1 (mod 2^128, big-endian) to |ctr|: two 64-bit halves, the carry into
 * the high half taken from a mask (V is secret: no branch). */
static inline void v_plus_one(const uint8_t v[CTR_DRBG_BLOCK_LEN], uint8_t ctr[CTR_DRBG_BLOCK_LEN]) {
  uint64_t hi, lo;
  memcpy(&hi, v, 8);
  memcpy(&lo, v + 8, 8);
  hi = __builtin_bswap64(hi);
  lo = __builtin_bswap64(lo) + 1;
  hi += ct_is_zero_u64(lo) & 1; /* the low half wrapped to zero: carry one */
  hi = __builtin_bswap64(hi);
  lo = __builtin_bswap64(lo);
  memcpy(ctr, &hi, 8);
  memcpy(ctr + 8, &lo, 8);
}

/* ctr_drbg_update is 10.2.1.2 with |provided| (exactly seedlen bytes, or NULL for zeros). */
static void ctr_drbg_update(ctr_drbg_state *st, const uint8_t *provided) {
  uint8_t temp[CTR_DRBG_SEED_LEN];
  uint8_t ctr[CTR_DRBG_BLOCK_LEN];
  /* Steps 2.1-2.2: the first block is E(K, V+1); the CTR call continues with V+2, V+3. */
  fresh_schedule(st);
  v_plus_one(st->v, ctr);
  aes_ctr128_blocks(&st->ks, ctr, NULL, temp, 3);
  /* Step 4. */
  if (provided != NULL) xor_into(temp, provided, CTR_DRBG_SEED_LEN);
  /* Steps 5-6. */
  set_key_v(st, temp);
  fm_zeroize(ctr, sizeof(ctr));
}

/* zero_key_state sets Key = 0^keylen and V = 0^outlen (10.2.1.3.x, steps 3-4). */
static void zero_key_state(ctr_drbg_state *st) {
  memset(st->key, 0, sizeof(st->key));
  memset(st->v, 0, sizeof(st->v));
  aes_ks_init_encrypt(&st->ks, st->key, CTR_DRBG_KEY_LEN);
  st->ks_stale = 0;
}

/* ---- Block_Cipher_df (10.3.2) and BCC (10.3.3) -------------------------------------------
 * S = L || N || input_string || 0x80 || 0^pad, where input_string is the concatenation of up to
 * three caller buffers; it is streamed block by block, never assembled in memory. */

typedef struct df_input {
  const uint8_t *p[3];
  size_t len[3];
} df_input;

/* df_stream produces the bytes of S from position |pos| on: returns the byte at pos. Called in
 * order; |total| is the length of S without padding (8 + input length + 1). */
static uint8_t df_byte(const df_input *in, const uint8_t ln[8], size_t total_in, size_t pos) {
  if (pos < 8) return ln[pos];
  pos -= 8;
  if (pos < total_in) {
    for (int k = 0; k < 3; k++) {
      if (pos < in->len[k]) return in->p[k][pos];
      pos -= in->len[k];
    }
  }
  if (pos == total_in) return 0x80;
  return 0;
}

/* block_cipher_df derives seedlen (48) bytes from the input strings (10.3.2). */
static void block_cipher_df(const df_input *in, uint8_t out[CTR_DRBG_SEED_LEN]) {
  size_t total_in = in->len[0] + in->len[1] + in->len[2];
  /* Step 2: L and N as 32-bit big-endian byte counts (public lengths). */
  uint8_t ln[8] = {(uint8_t)(total_in >> 24), (uint8_t)(total_in >> 16),
                   (uint8_t)(total_in >> 8),  (uint8_t)total_in,
                   0, 0, 0, CTR_DRBG_SEED_LEN};
  /* Steps 3-4: S padded to a multiple of outlen. */
  size_t s_len = 8 + total_in + 1;
  s_len = (s_len + CTR_DRBG_BLOCK_LEN - 1) / CTR_DRBG_BLOCK_LEN * CTR_DRBG_BLOCK_LEN;

  /* Step 8: K = leftmost keylen bits of 0x00010203...1F. */
  uint8_t k[CTR_DRBG_KEY_LEN];
  for (unsigned i = 0; i < CTR_DRBG_KEY_LEN; i++) k[i] = (uint8_t)i;
  aes_ks ks;
  aes_ks_init_encrypt(&ks, k, sizeof(k));

  /* Steps 9-10: temp = BCC(K, IV_i || S) for i = 0, 1, 2 until keylen + outlen bits. */
  uint8_t temp[CTR_DRBG_SEED_LEN];
  for (uint32_t i = 0; i < CTR_DRBG_SEED_LEN / CTR_DRBG_BLOCK_LEN; i++) {
    /* BCC (10.3.3): chaining value = E(K, chain ^ block) over IV || S; the first block is the
     * IV (i as 32 bits, then zeros) and the chaining value starts at zero, so chain = E(K, IV). */
    uint8_t chain[CTR_DRBG_BLOCK_LEN] = {(uint8_t)(i >> 24), (uint8_t)(i >> 16), (uint8_t)(i >> 8),
                                         (uint8_t)i};
    aes_encrypt_block(&ks, chain, chain);
    for (size_t pos = 0; pos < s_len; pos += CTR_DRBG_BLOCK_LEN) {
      for (size_t j = 0; j < CTR_DRBG_BLOCK_LEN; j++) chain[j] ^= df_byte(in, ln, total_in, pos + j);
      aes_encrypt_block(&ks, chain, chain);
    }
    memcpy(temp + CTR_DRBG_BLOCK_LEN * i, chain, CTR_DRBG_BLOCK_LEN);
    fm_zeroize(chain, sizeof(chain));
  }

  /* Steps 11-12: K = leftmost keylen bits of temp, X = the next outlen bits. */
  aes_ks_init_encrypt(&ks, temp, CTR_DRBG_KEY_LEN);
  uint8_t x[CTR_DRBG_BLOCK_LEN];
  memcpy(x, temp + CTR_DRBG_KEY_LEN, sizeof(x));
  /* Steps 13-15: X = E(K, X) repeated until seedlen bits; return them. */
  for (size_t off = 0; off < CTR_DRBG_SEED_LEN; off += CTR_DRBG_BLOCK_LEN) {
    aes_encrypt_block(&ks, x, x);
    memcpy(out + off, x, CTR_DRBG_BLOCK_LEN);
  }
  fm_zeroize(x, sizeof(x));
  fm_zeroize(temp, sizeof(temp));
  aes_ks_wipe(&ks);
}

/* ---- The mechanism (no argument checks) -------------------------------------------------- */

/* pad_to_seedlen copies |len| <= 48 bytes to |out| and fills the rest with zeros (10.2.1.3.1
 * step 2, 10.2.1.4.1 step 2, 10.2.1.5.1 step 2.1). */
static void pad_to_seedlen(uint8_t out[CTR_DRBG_SEED_LEN], const uint8_t *in, size_t len) {
  memset(out, 0, CTR_DRBG_SEED_LEN);
  if (len != 0) memcpy(out, in, len);
}

void ctr_drbg_instantiate_nodf(ctr_drbg_state *st, const uint8_t entropy[CTR_DRBG_SEED_LEN],
                               const uint8_t *pers, size_t pers_len) {
  uint8_t seed[CTR_DRBG_SEED_LEN];
  /* 10.2.1.3.1 steps 1-2: seed_material = entropy_input ^ (pers || 0^(seedlen - len)). */
  pad_to_seedlen(seed, pers, pers_len);
  xor_into(seed, entropy, CTR_DRBG_SEED_LEN);
  /* Steps 3-4: Key = 0, V = 0. Step 5: update. Step 6: reseed_counter = 1. */
  zero_key_state(st);
  ctr_drbg_update(st, seed);
  st->reseed_counter = 1;
  st->flags = 0;
  st->magic = CTR_DRBG_MAGIC;
  fm_zeroize(seed, sizeof(seed));
  fm_wipe_vector_registers();
}

void ctr_drbg_reseed_nodf(ctr_drbg_state *st, const uint8_t entropy[CTR_DRBG_SEED_LEN],
                          const uint8_t *ai, size_t ai_len) {
  uint8_t seed[CTR_DRBG_SEED_LEN];
  /* 10.2.1.4.1 steps 1-2: seed_material = entropy_input ^ (ai || 0^(seedlen - len)). */
  pad_to_seedlen(seed, ai, ai_len);
  xor_into(seed, entropy, CTR_DRBG_SEED_LEN);
  /* Steps 3-4: update; reseed_counter = 1. */
  ctr_drbg_update(st, seed);
  st->reseed_counter = 1;
  fm_zeroize(seed, sizeof(seed));
  fm_wipe_vector_registers();
}

/* generate_with_provided is 10.2.1.5.x steps 3-7 once the additional input has been turned into
 * |provided| (seedlen bytes, or NULL for none) and mixed in (step 2). */
static void generate_with_provided(ctr_drbg_state *st, uint8_t *out, size_t out_len,
                                   const uint8_t *provided) {
  if (out_len <= 4 * CTR_DRBG_BLOCK_LEN && fm_cpu_use(FM_CPU_AESNI)) {
    /* Steps 4-6 in one pass that expands Key while it encrypts: the output blocks and the
     * update's three blocks go through each round together; no schedule is read, and the new
     * Key's is not built until something needs it. No secret is left on the stack. */
    if (use_vaes_small()) {
      aes_vaes_drbg_generate_small(st->v, st->key, out, out_len, provided);
    } else {
      aes_ni_drbg_generate_small(st->v, st->key, out, out_len, provided);
    }
    drop_schedule(st);
    /* Step 7. */
    st->reseed_counter++;
    return;
  }
  fresh_schedule(st);
  uint8_t ctr[CTR_DRBG_BLOCK_LEN];
  /* Room for up to four output blocks and the three update blocks, so that a small request is
   * one CTR call. */
  uint8_t buf[7 * CTR_DRBG_BLOCK_LEN];
  size_t nblocks = (out_len + CTR_DRBG_BLOCK_LEN - 1) / CTR_DRBG_BLOCK_LEN;
  size_t used;
  v_plus_one(st->v, ctr);
  uint8_t *temp; /* the three blocks for step 6 */
  if (nblocks <= 4) {
    /* Step 4: V = V + 1, output_block = E(Key, V), for each block; then (step 6) the update's
     * E(Key, V+1..V+3) continue the same counter. */
    used = (nblocks + 3) * CTR_DRBG_BLOCK_LEN;
    aes_ctr128_blocks(&st->ks, ctr, NULL, buf, nblocks + 3);
    if (out_len != 0) memcpy(out, buf, out_len);
    temp = buf + nblocks * CTR_DRBG_BLOCK_LEN;
  } else {
    size_t full = out_len / CTR_DRBG_BLOCK_LEN;
    size_t rem = out_len % CTR_DRBG_BLOCK_LEN;
    aes_ctr128_blocks(&st->ks, ctr, NULL, out, full);
    size_t extra = rem != 0 ? 1 : 0;
    used = (extra + 3) * CTR_DRBG_BLOCK_LEN;
    aes_ctr128_blocks(&st->ks, ctr, NULL, buf, extra + 3);
    if (rem != 0) memcpy(out + full * CTR_DRBG_BLOCK_LEN, buf, rem);
    temp = buf + extra * CTR_DRBG_BLOCK_LEN;
  }
  /* Step 5 is the truncation above. Step 6: CTR_DRBG_Update(additional_input, Key, V). */
  if (provided != NULL) xor_into(temp, provided, CTR_DRBG_SEED_LEN);
  memcpy(st->key, temp, CTR_DRBG_KEY_LEN);
  memcpy(st->v, temp + CTR_DRBG_KEY_LEN, CTR_DRBG_BLOCK_LEN);
  aes_ks_init_encrypt(&st->ks, st->key, CTR_DRBG_KEY_LEN);
  /* Step 7. */
  st->reseed_counter++;
  fm_zeroize(buf, used);
  fm_zeroize(ctr, sizeof(ctr));
}

void ctr_drbg_generate_nodf(ctr_drbg_state *st, uint8_t *out, size_t out_len, const uint8_t *ai,
                            size_t ai_len) {
  if (ai_len == 0) {
    /* Step 2: no additional input; provided data is 0^seedlen (no update here). */
    generate_with_provided(st, out, out_len, NULL);
  } else {
    /* Step 2.1: pad the additional input to seedlen; step 2.2: update with it. */
    uint8_t provided[CTR_DRBG_SEED_LEN];
    pad_to_seedlen(provided, ai, ai_len);
    ctr_drbg_update(st, provided);
    generate_with_provided(st, out, out_len, provided);
    fm_zeroize(provided, sizeof(provided));
  }
  /* Key, V and output blocks went through xmm (the copies, the xor with the provided data). */
  fm_wipe_vector_registers();
}

void ctr_drbg_wipe(ctr_drbg_state *st) { fm_zeroize(st, sizeof(*st)); }

/* ---- Derivation-function variants ------------------------------------------------------- */

static void instantiate_df(ctr_drbg_state *st, const uint8_t *entropy, size_t entropy_len,
                           const uint8_t *nonce, size_t nonce_len, const uint8_t *pers,
                           size_t pers_len) {
  /* 10.2.1.3.2 steps 1-2: seed_material = df(entropy_input || nonce || pers, seedlen). */
  df_input in = {{entropy, nonce, pers}, {entropy_len, nonce_len, pers_len}};
  uint8_t seed[CTR_DRBG_SEED_LEN];
  block_cipher_df(&in, seed);
  /* Steps 3-6. */
  zero_key_state(st);
  ctr_drbg_update(st, seed);
  st->reseed_counter = 1;
  fm_zeroize(seed, sizeof(seed));
}

static void reseed_df(ctr_drbg_state *st, const uint8_t *entropy, size_t entropy_len,
                      const uint8_t *ai, size_t ai_len) {
  /* 10.2.1.4.2 steps 1-2: seed_material = df(entropy_input || additional_input, seedlen). */
  df_input in = {{entropy, ai, NULL}, {entropy_len, ai_len, 0}};
  uint8_t seed[CTR_DRBG_SEED_LEN];
  block_cipher_df(&in, seed);
  /* Steps 3-4. */
  ctr_drbg_update(st, seed);
  st->reseed_counter = 1;
  fm_zeroize(seed, sizeof(seed));
}

static void generate_df(ctr_drbg_state *st, uint8_t *out, size_t out_len, const uint8_t *ai,
                        size_t ai_len) {
  if (ai_len == 0) {
    /* 10.2.1.5.2 step 2: no additional input: 0^seedlen, no update. */
    generate_with_provided(st, out, out_len, NULL);
    return;
  }
  /* Step 2.1: additional_input = df(additional_input, seedlen); step 2.2: update with it. */
  df_input in = {{ai, NULL, NULL}, {ai_len, 0, 0}};
  uint8_t provided[CTR_DRBG_SEED_LEN];
  block_cipher_df(&in, provided);
  ctr_drbg_update(st, provided);
  /* Steps 3-8 (step 6 reuses the derived additional input). */
  generate_with_provided(st, out, out_len, provided);
  fm_zeroize(provided, sizeof(provided));
}

/* ---- The public API ------------------------------------------------------------------------ */

static ctr_drbg_state *as_state(fm_ctr_drbg *d) { return (ctr_drbg_state *)(void *)d; }

/* bad_ptr is true for a NULL buffer with a non-zero length. */
static bool bad_ptr(const void *p, size_t len) { return p == NULL && len != 0; }

/* check_entropy_len applies Table 3: with the df, 32..max bytes; without, exactly seedlen. */
static int check_entropy_len(uint32_t flags, size_t len) {
  if (flags & FM_DRBG_USE_DF) {
    return (len >= FM_DRBG_MIN_ENTROPY_LEN && len <= FM_DRBG_MAX_INPUT_LEN) ? FM_OK
                                                                            : FM_ERR_LENGTH;
  }
  return len == CTR_DRBG_SEED_LEN ? FM_OK : FM_ERR_LENGTH;
}

/* check_input_len bounds personalization and additional input: max_personalization_string_length
 * and max_additional_input_length are seedlen without the df (10.2.1, Table 3). */
static int check_input_len(uint32_t flags, size_t len) {
  size_t max = (flags & FM_DRBG_USE_DF) ? FM_DRBG_MAX_INPUT_LEN : CTR_DRBG_SEED_LEN;
  return len <= max ? FM_OK : FM_ERR_LENGTH;
}

int fm_ctr_drbg_instantiate(fm_ctr_drbg *drbg, unsigned flags, const uint8_t *entropy,
                            size_t entropy_len, const uint8_t *nonce, size_t nonce_len,
                            const uint8_t *pers, size_t pers_len) {
  /* The state is this call's output: every refusal leaves it wiped (and not instantiated). */
  int st_gate = fm_service_gate();
  if (st_gate != FM_OK) return fm_refuse(st_gate, drbg, sizeof(*drbg));
  fm_indicator_not_approved(); /* caller-seeded: a testing interface, never approved */
  if (drbg == NULL) return FM_ERR_BAD_ARGUMENT;
  ctr_drbg_state *st = as_state(drbg);
  if ((flags & ~(unsigned)(FM_DRBG_USE_DF | FM_DRBG_PREDICTION_RESISTANCE)) != 0 ||
      bad_ptr(entropy, entropy_len) || entropy == NULL || bad_ptr(nonce, nonce_len) ||
      bad_ptr(pers, pers_len)) {
    return fm_refuse(FM_ERR_BAD_ARGUMENT, drbg, sizeof(*drbg));
  }
  /* 9.1 step 1-3: the requested security strength is 256 (the only one offered); step 4: the
   * personalization string length. Entropy and nonce lengths per Table 3 and 8.6.7. */
  int err = check_entropy_len(flags, entropy_len);
  if (err == FM_OK) err = check_input_len(flags, pers_len);
  if (err == FM_OK && (flags & FM_DRBG_USE_DF) &&
      (nonce_len < FM_DRBG_MIN_NONCE_LEN || nonce_len > FM_DRBG_MAX_INPUT_LEN)) {
    err = FM_ERR_LENGTH;
  }
  /* Without the df there is no nonce (10.2.1.3.1 takes none). */
  if (err == FM_OK && !(flags & FM_DRBG_USE_DF) && nonce_len != 0) err = FM_ERR_BAD_ARGUMENT;
  /* The inputs are read after the state is wiped: none may lie inside it (lengths checked). */
  if (err == FM_OK && (fm_buffers_overlap(entropy, entropy_len, drbg, sizeof(*drbg)) ||
                       fm_buffers_overlap(nonce, nonce_len, drbg, sizeof(*drbg)) ||
                       fm_buffers_overlap(pers, pers_len, drbg, sizeof(*drbg)))) {
    err = FM_ERR_OVERLAP;
  }
  if (err != FM_OK) return fm_refuse(err, drbg, sizeof(*drbg));
  fm_zeroize(drbg, sizeof(*drbg));

  if (flags & FM_DRBG_USE_DF) {
    instantiate_df(st, entropy, entropy_len, nonce, nonce_len, pers, pers_len);
  } else {
    ctr_drbg_instantiate_nodf(st, entropy, pers, pers_len);
  }
  st->flags = flags;
  st->magic = CTR_DRBG_MAGIC;
  fm_wipe_vector_registers();
  return FM_OK;
}

/* reseed_checked is 9.2 steps 1-6 once the state is known to be instantiated. */
static int reseed_checked(ctr_drbg_state *st, const uint8_t *entropy, size_t entropy_len,
                          const uint8_t *ai, size_t ai_len) {
  if (entropy == NULL || bad_ptr(ai, ai_len)) return FM_ERR_BAD_ARGUMENT;
  int err = check_entropy_len(st->flags, entropy_len);
  if (err == FM_OK) err = check_input_len(st->flags, ai_len);
  if (err != FM_OK) return err;
  if (st->flags & FM_DRBG_USE_DF) {
    reseed_df(st, entropy, entropy_len, ai, ai_len);
  } else {
    ctr_drbg_reseed_nodf(st, entropy, ai, ai_len);
  }
  fm_wipe_vector_registers();
  return FM_OK;
}

int fm_ctr_drbg_reseed(fm_ctr_drbg *drbg, const uint8_t *entropy, size_t entropy_len,
                       const uint8_t *ai, size_t ai_len) {
  int err = fm_service_gate();
  if (err != FM_OK) return err;
  fm_indicator_not_approved(); /* caller-seeded: a testing interface, never approved */
  if (drbg == NULL) return FM_ERR_BAD_ARGUMENT;
  ctr_drbg_state *st = as_state(drbg);
  if (st->magic != CTR_DRBG_MAGIC) return FM_ERR_STATE;
  return reseed_checked(st, entropy, entropy_len, ai, ai_len);
}

int fm_ctr_drbg_generate(fm_ctr_drbg *drbg, uint8_t *out, size_t out_len, const uint8_t *entropy,
                         size_t entropy_len, const uint8_t *ai, size_t ai_len) {
  /* A refusal wipes |out| only once |out_len| is known to be a length the call could have
   * written: a claimed length above the maximum (what made the call fail) never touches memory,
   * and an output that overlaps the state is not written at all (the state is left as it was). */
  const size_t wipe_len = out_len <= FM_DRBG_MAX_REQUEST ? out_len : 0;
  int err = fm_service_gate();
  if (err != FM_OK) return fm_refuse(err, out, wipe_len);
  fm_indicator_not_approved(); /* caller-seeded: a testing interface, never approved */
  if (bad_ptr(out, out_len)) return FM_ERR_BAD_ARGUMENT;
  /* 9.3.1 step 2: requested_number_of_bits > max_number_of_bits_per_request. */
  if (out_len > FM_DRBG_MAX_REQUEST) return FM_ERR_LENGTH;
  if (drbg == NULL || bad_ptr(entropy, entropy_len) || bad_ptr(ai, ai_len)) {
    return fm_refuse(FM_ERR_BAD_ARGUMENT, out, out_len);
  }
  if (fm_buffers_overlap(out, out_len, drbg, sizeof(*drbg))) return FM_ERR_OVERLAP;
  ctr_drbg_state *st = as_state(drbg);
  if (st->magic != CTR_DRBG_MAGIC) {
    err = FM_ERR_STATE;
  } else if (entropy_len != 0 && !(st->flags & FM_DRBG_PREDICTION_RESISTANCE)) {
    /* 9.3.1 step 5: prediction resistance requested from an instance without it. */
    err = FM_ERR_BAD_ARGUMENT;
  } else if ((err = check_input_len(st->flags, ai_len)) != FM_OK) {
    /* 9.3.1 step 4: additional input too long. */
  } else if (entropy_len != 0) {
    /* 9.3.1 step 7: prediction resistance: reseed with the fresh entropy and the additional
     * input (7.1), then generate with no additional input (7.4). */
    err = check_entropy_len(st->flags, entropy_len);
    if (err == FM_OK) {
      err = reseed_checked(st, entropy, entropy_len, ai, ai_len);
      ai = NULL;
      ai_len = 0;
    }
  } else if (st->reseed_counter > FM_DRBG_RESEED_INTERVAL) {
    /* 10.2.1.5.x step 1: reseed_counter > reseed_interval: a reseed is required. */
    err = FM_ERR_RESEED_REQUIRED;
  }
  if (err != FM_OK) return fm_refuse(err, out, out_len);
  if (st->flags & FM_DRBG_USE_DF) {
    generate_df(st, out, out_len, ai, ai_len);
  } else {
    ctr_drbg_generate_nodf(st, out, out_len, ai, ai_len);
  }
  fm_wipe_vector_registers();
  return FM_OK;
}

int fm_ctr_drbg_uninstantiate(fm_ctr_drbg *drbg) {
  fm_indicator_not_approved(); /* part of the caller-seeded testing interface */
  if (drbg != NULL) fm_zeroize(drbg, sizeof(*drbg));
  return FM_OK;
}

#if defined(FIPSMOD_TEST_HOOKS)
static const ctr_drbg_state *as_cstate(const fm_ctr_drbg *d) {
  return (const ctr_drbg_state *)(const void *)d;
}

int fm_ctr_drbg_state_for_testing(const fm_ctr_drbg *drbg, uint8_t key[32], uint8_t v[16]) {
  const ctr_drbg_state *st = as_cstate(drbg);
  if (st->magic != CTR_DRBG_MAGIC) return FM_ERR_STATE;
  memcpy(key, st->key, CTR_DRBG_KEY_LEN);
  memcpy(v, st->v, CTR_DRBG_BLOCK_LEN);
  return FM_OK;
}

int fm_ctr_drbg_set_reseed_counter_for_testing(fm_ctr_drbg *drbg, uint64_t counter) {
  ctr_drbg_state *st = as_state(drbg);
  if (st->magic != CTR_DRBG_MAGIC) return FM_ERR_STATE;
  st->reseed_counter = counter;
  return FM_OK;
}
#endif
