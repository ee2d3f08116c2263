/* HMAC (FIPS 198-1) with SHA-2 and SHA-3: the internal one-shot and context
 * functions (part of the SHA-2 core, which knows nothing of the module's life cycle: the public
 * services of include/fipsmod/hmac.h are in hmac_service.c).
 *
 * Keying hashes K0 ^ ipad and K0 ^ opad once each and keeps only the two chaining values: the
 * inner hash then continues over the message, and the outer hash needs a single compression of
 * the inner digest and its padding. The one-shot functions hash the caller's message in place;
 * the only copies are of the key block, the message tail and the inner digest, all on the stack
 * and all wiped. Keys and everything derived from them are secret; key and message lengths are
 * public. */
#include <assert.h>
#if defined(__x86_64__)
#if defined(__x86_64__)
#include <emmintrin.h>
#endif
#endif
#include <string.h>

#include "module/internal.h"
#include "module/sha/internal.h"

static_assert(sizeof(hmac_ctx) <= sizeof(fm_hmac_ctx), "hmac_ctx does not fit fm_hmac_ctx");
static_assert(_Alignof(hmac_ctx) <= _Alignof(fm_hmac_ctx),
              "hmac_ctx alignment exceeds fm_hmac_ctx");

#define IPAD 0x36
#define OPAD 0x5c

/* ---- Stack residue --------------------------------------------------------------------------
 * The compression functions work on key-derived chaining values, and the compiler spills some
 * of the working variables (and keeps the vector message schedule's registers' contents) in
 * their frames, which C cannot name and so cannot wipe. Every HMAC entry point below therefore
 * ends with hmac_stack_wipe, which zeroizes HMAC_STACK_WIPE bytes just below its caller's frame:
 * where the frames of everything the entry point called just were. The deepest chain is
 * hmac_ctx_update -> sha512_state_update -> sha512_blocks -> sha512_blocks_avx2: measured with
 * test_sha_residue, a 1 KiB wipe still leaves 80 (gcc 12) and 96 (clang 14) key-dependent bytes
 * at -O2 there, 1.5 KiB leaves 8 (clang 14, HMAC-SHA-384/512, whose context switches on the
 * hash family), 2 KiB leaves none on any path. Sanitizer instrumentation and -O0 keep far more
 * in memory, so those builds wipe more. test_sha_residue checks it on every path. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
#define FM_SHA_INSTRUMENTED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__) || !defined(__OPTIMIZE__)
#define FM_SHA_INSTRUMENTED 1
#endif
#if defined(FM_SHA_INSTRUMENTED)
#define HMAC_STACK_WIPE 8192
#else
#define HMAC_STACK_WIPE 2048
#endif

/* Not instrumented by ASan, whose redzones around |area| would leave part of the region
 * unwiped. One rep stosb over the area from inline asm (as hmac_kdf_stack_wipe below: the
 * fast-string microcode clears 2 KiB in a fraction of the time of 128 16-byte stores), so that
 * the area is the function's only local and the stores cannot be dropped. */
__attribute__((noinline, no_sanitize_address)) static void hmac_stack_wipe(void) {
#if defined(__x86_64__)
  __m128i area[HMAC_STACK_WIPE / 16];
  void *d = area;
  size_t n = sizeof area;
  __asm__ __volatile__("rep stosb" : "+D"(d), "+c"(n) : "a"(0) : "memory");
  __asm__ __volatile__("" : : "r"(area) : "memory");
#else
  _Alignas(16) uint8_t area[HMAC_STACK_WIPE];
  fm_stack_wipe_area(area, sizeof area);
#endif
  fm_wipe_vector_registers(); /* the key's pads went through them */
}

/* ---- HMAC-SHA-256 ------------------------------------------------------------------------ */

/* hmac256_work holds every stack intermediate of one HMAC-SHA-256 computation, so that one wipe
 * at the end clears them all (the one-shot path is short enough for separate wipes to show). */
typedef struct hmac256_work {
  uint32_t inner[8]; /* chaining value of H((K0 ^ ipad) || text) */
  uint32_t outer[8]; /* chaining value of H((K0 ^ opad) || ...) */
  _Alignas(16) uint8_t pads[2 * SHA256_BLOCK_LEN]; /* K0 ^ ipad, K0 ^ opad */
  _Alignas(16) uint8_t last[2 * SHA256_BLOCK_LEN]; /* the padded tail, then the outer block */
} hmac256_work;

/* hmac256_key_schedule sets w->inner and w->outer to the chaining values after K0 ^ ipad and
 * K0 ^ opad (the key-derived secrets). */
static void hmac256_key_schedule(hmac256_work *w, fm_hash_alg alg, const uint8_t *key,
                                 size_t key_len) {
  uint8_t *ipad = w->pads, *opad = w->pads + SHA256_BLOCK_LEN;
  const uint32_t *iv = alg == FM_HASH_SHA224 ? sha224_iv : sha256_iv;
  const size_t dlen = sha_alg_digest_len(alg);
  /* FIPS 198-1 section 4, steps 1-3: K0 is the key, or its digest when longer than a block,
   * padded with zeros to the block length. */
  sha_zeroize_fixed(ipad, SHA256_BLOCK_LEN);
  if (key_len > SHA256_BLOCK_LEN) {
    (void)sha_digest_internal(alg, key, key_len, ipad);
    (void)dlen;
  } else {
    sha_copy_gpr(ipad, key, key_len);
  }
  /* Steps 4 and 7: K0 ^ ipad and K0 ^ opad. */
  for (size_t i = 0; i < SHA256_BLOCK_LEN; i++) {
    opad[i] = ipad[i] ^ OPAD;
    ipad[i] ^= IPAD;
  }
  /* Steps 5 and 8, first block of each. The two compressions are independent, so the CPU
   * overlaps them. */
  memcpy(w->inner, iv, sizeof w->inner);
  memcpy(w->outer, iv, sizeof w->outer);
  sha256_blocks(w->inner, ipad, 1);
  sha256_blocks(w->outer, opad, 1);
}

/* hmac256_finish ends both hashes: the inner one with its last |tail_len| (< 64) bytes at |tail|
 * and the padding of a |total|-byte input (step 6), then the outer one over the |dlen|-byte
 * inner digest (32, or 28 for SHA-224; steps 8-9), writing the |dlen|-byte tag to |out|. */
static void hmac256_finish(hmac256_work *w, const uint8_t *tail, size_t tail_len, uint64_t total,
                           size_t dlen, uint8_t *out) {
  sha256_blocks(w->inner, w->last, sha256_pad(w->last, tail, tail_len, total));
  /* The outer input is one key block and the inner digest: one block with padding. */
  sha_zeroize_fixed(w->last, SHA256_BLOCK_LEN);
  for (size_t i = 0; i < dlen / 4; i++) sha_store_be32(w->last + 4 * i, w->inner[i]);
  w->last[dlen] = 0x80;
  sha_store_be64(w->last + SHA256_BLOCK_LEN - 8, (uint64_t)(SHA256_BLOCK_LEN + dlen) << 3);
  sha256_blocks(w->outer, w->last, 1);
  for (size_t i = 0; i < dlen / 4; i++) sha_store_be32(out + 4 * i, w->outer[i]);
}

static void hmac256_family_nowipe(fm_hash_alg alg, const uint8_t *key, size_t key_len,
                                  const void *data, size_t len, uint8_t *out) {
  if (fm_cpu_use(FM_CPU_SHANI | FM_CPU_AVX512)) {
    /* FIPS 198-1 steps 1-2 for a key longer than a block: K0 is its digest. */
    const uint32_t *iv = alg == FM_HASH_SHA224 ? sha224_iv : sha256_iv;
    const size_t dlen = sha_alg_digest_len(alg);
    if (key_len > SHA256_BLOCK_LEN) {
      uint8_t k0[32];
      (void)sha_digest_internal(alg, key, key_len, k0);
      sha256_shani_hmac(iv, k0, dlen, data, len, out, dlen);
      sha_zeroize_fixed(k0, sizeof k0);
    } else {
      sha256_shani_hmac(iv, key, key_len, data, len, out, dlen);
    }
    return;
  }
  hmac256_work w;
  const uint8_t *p = data;
  size_t full = len / SHA256_BLOCK_LEN;
  hmac256_key_schedule(&w, alg, key, key_len);
  /* Step 6: H((K0 ^ ipad) || text), whole blocks read in place. */
  sha256_blocks(w.inner, p, full);
  hmac256_finish(&w, full > 0 ? p + full * SHA256_BLOCK_LEN : p, len % SHA256_BLOCK_LEN,
                 (uint64_t)len + SHA256_BLOCK_LEN, sha_alg_digest_len(alg), out);
  sha_zeroize_fixed(&w, sizeof w);
}

static void hmac256_family(fm_hash_alg alg, const uint8_t *key, size_t key_len, const void *data,
                           size_t len, uint8_t *out) {
  hmac256_family_nowipe(alg, key, key_len, data, len, out);
  hmac_stack_wipe();
}

void hmac_sha256_internal(const uint8_t *key, size_t key_len, const void *data, size_t len,
                          uint8_t out[32]) {
  hmac256_family(FM_HASH_SHA256, key, key_len, data, len, out);
}

/* ---- HMAC-SHA-384 and HMAC-SHA-512 ------------------------------------------------------- */

/* sha512_family_iv is the initial value of |alg| of the SHA-512 family. */
static const uint64_t *sha512_family_iv(fm_hash_alg alg) {
  switch (alg) {
    case FM_HASH_SHA384: return sha384_iv;
    case FM_HASH_SHA512_224: return sha512_224_iv;
    case FM_HASH_SHA512_256: return sha512_256_iv;
    default: return sha512_iv;
  }
}

/* hmac512_key_schedule is hmac256_key_schedule for the SHA-512 family (SHA-384, SHA-512,
 * SHA-512/t): a long key is hashed with the HMAC's own hash |alg|, step 2. */
static void hmac512_key_schedule(fm_hash_alg alg, const uint8_t *key, size_t key_len,
                                 uint64_t inner[8], uint64_t outer[8]) {
  uint8_t block[SHA512_BLOCK_LEN];
  const uint64_t *iv = sha512_family_iv(alg);
  const size_t dlen = sha_alg_digest_len(alg);
  /* Steps 1-3: K0. */
  sha_zeroize_fixed(block, SHA512_BLOCK_LEN);
  if (key_len > SHA512_BLOCK_LEN) {
    (void)sha_digest_internal(alg, key, key_len, block);
    (void)dlen;
  } else {
    sha_copy_gpr(block, key, key_len);
  }
  /* Steps 4-5: hash K0 ^ ipad. */
  for (size_t i = 0; i < SHA512_BLOCK_LEN; i++) block[i] ^= IPAD;
  memcpy(inner, iv, 64);
  sha512_blocks(inner, block, 1);
  /* Steps 7-8: K0 ^ opad, reached from K0 ^ ipad without rebuilding K0. */
  for (size_t i = 0; i < SHA512_BLOCK_LEN; i++) block[i] ^= IPAD ^ OPAD;
  memcpy(outer, iv, 64);
  sha512_blocks(outer, block, 1);
  sha_zeroize_fixed(block, sizeof block);
}

/* hmac512_outer absorbs the first |dlen| bytes of the inner digest |inner_h| into |outer| with
 * the padding of a 128 + dlen byte message and writes the |dlen|-byte tag to |out|. */
static void hmac512_outer(uint64_t outer[8], const uint64_t inner_h[8], size_t dlen,
                          uint8_t *out) {
  _Alignas(16) uint8_t block[SHA512_BLOCK_LEN];
  /* The first dlen bytes of the inner digest over a zeroed block (SHA-384 and SHA-512/t
   * truncate; SHA-512/224 ends in half a word), then the padding. */
  sha_zeroize_fixed(block, sizeof block);
  size_t i = 0;
  for (; i + 8 <= dlen; i += 8) sha_store_be64(block + i, inner_h[i / 8]);
  if (i < dlen) sha_store_be32(block + i, (uint32_t)(inner_h[i / 8] >> 32));
  block[dlen] = 0x80;
  sha_store_be64(block + SHA512_BLOCK_LEN - 8, (uint64_t)(SHA512_BLOCK_LEN + dlen) << 3);
  sha512_blocks(outer, block, 1);
  /* The tag: whole words, then the half word SHA-512/224 ends in. */
  i = 0;
  for (; i + 8 <= dlen; i += 8) sha_store_be64(out + i, outer[i / 8]);
  if (i < dlen) sha_store_be32(out + i, (uint32_t)(outer[i / 8] >> 32));
  sha_zeroize_fixed(block, sizeof block);
}

static void hmac512_family_nowipe(fm_hash_alg alg, const uint8_t *key, size_t key_len,
                                  const void *data, size_t len, uint8_t *out) {
  uint64_t inner[8], outer[8];
  const uint8_t *p = data;
  const size_t dlen = sha_alg_digest_len(alg);
  size_t full = len / SHA512_BLOCK_LEN;
  hmac512_key_schedule(alg, key, key_len, inner, outer);
  sha512_blocks(inner, p, full);
  sha512_finish(inner, full > 0 ? p + full * SHA512_BLOCK_LEN : p, len % SHA512_BLOCK_LEN,
                (uint64_t)len + SHA512_BLOCK_LEN);
  hmac512_outer(outer, inner, dlen, out);
  sha_zeroize_fixed(inner, sizeof inner);
  sha_zeroize_fixed(outer, sizeof outer);
}

static void hmac512_family(fm_hash_alg alg, const uint8_t *key, size_t key_len,
                           const void *data, size_t len, uint8_t *out) {
  hmac512_family_nowipe(alg, key, key_len, data, len, out);
  hmac_stack_wipe();
}

void hmac_sha384_internal(const uint8_t *key, size_t key_len, const void *data, size_t len,
                          uint8_t out[48]) {
  hmac512_family(FM_HASH_SHA384, key, key_len, data, len, out);
}

void hmac_sha512_internal(const uint8_t *key, size_t key_len, const void *data, size_t len,
                          uint8_t out[64]) {
  hmac512_family(FM_HASH_SHA512, key, key_len, data, len, out);
}

/* ---- HMAC-SHA3 ----------------------------------------------------------------------------
 * FIPS 198-1 with SHA3-d: B is the rate (FIPS 202 section 6.1; SP 800-224 draft and the ACVP
 * HMAC-SHA3 specification use the same), so each padded key block is exactly one absorbed block
 * and the two keyed states stand right after a permutation. */

/* hmac_sha3_key_schedule sets |inner| and |outer| to SHA3-|alg| after K0 ^ ipad and K0 ^ opad. */
static void hmac_sha3_key_schedule(fm_hash_alg alg, const uint8_t *key, size_t key_len,
                                   keccak_state *inner, keccak_state *outer) {
  uint8_t block[SHA3_224_RATE]; /* the largest rate of the four */
  const unsigned bits = (unsigned)(8 * sha_alg_digest_len(alg));
  const size_t rate = sha_alg_block_len(alg);
  /* Steps 1-3: K0. */
  if (key_len > rate) {
    sha3_digest(bits, key, key_len, block);
    memset(block + bits / 8, 0, rate - bits / 8);
  } else {
    if (key_len > 0) memcpy(block, key, key_len);
    memset(block + key_len, 0, rate - key_len);
  }
  /* Steps 4-5 and 7-8. */
  for (size_t i = 0; i < rate; i++) block[i] ^= IPAD;
  sha3_init(inner, bits);
  keccak_absorb(inner, block, rate);
  for (size_t i = 0; i < rate; i++) block[i] ^= IPAD ^ OPAD;
  sha3_init(outer, bits);
  keccak_absorb(outer, block, rate);
  fm_zeroize(block, sizeof block);
}

/* hmac_sha3_finish ends the inner hash (step 6), absorbs its digest into |outer| and writes the
 * tag (steps 8-9). Both states are wiped. */
static void hmac_sha3_finish(keccak_state *inner, keccak_state *outer, size_t dlen, uint8_t *out) {
  uint8_t d[FM_SHA3_512_DIGEST_LEN];
  keccak_squeeze(inner, d, dlen);
  keccak_absorb(outer, d, dlen);
  keccak_squeeze(outer, out, dlen);
  fm_zeroize(d, sizeof d);
  keccak_wipe(inner);
  keccak_wipe(outer);
}

static void hmac_sha3_nowipe(fm_hash_alg alg, const uint8_t *key, size_t key_len,
                             const void *data, size_t len, uint8_t *out) {
  keccak_state inner, outer;
  hmac_sha3_key_schedule(alg, key, key_len, &inner, &outer);
  if (len > 0) keccak_absorb(&inner, data, len);
  hmac_sha3_finish(&inner, &outer, sha_alg_digest_len(alg), out);
}

int hmac_internal_nowipe(fm_hash_alg alg, const uint8_t *key, size_t key_len, const void *data,
                         size_t len, uint8_t *out) {
  switch (sha_alg_family(alg)) {
    case SHA_FAMILY_256: hmac256_family_nowipe(alg, key, key_len, data, len, out); return FM_OK;
    case SHA_FAMILY_512: hmac512_family_nowipe(alg, key, key_len, data, len, out); return FM_OK;
    case SHA_FAMILY_SHA3: hmac_sha3_nowipe(alg, key, key_len, data, len, out); return FM_OK;
    case SHA_FAMILY_NONE: break;
  }
  return FM_ERR_UNSUPPORTED;
}

int hmac_internal(fm_hash_alg alg, const uint8_t *key, size_t key_len, const void *data,
                  size_t len, uint8_t *out) {
  switch (sha_alg_family(alg)) {
    case SHA_FAMILY_256: hmac256_family(alg, key, key_len, data, len, out); return FM_OK;
    case SHA_FAMILY_512: hmac512_family(alg, key, key_len, data, len, out); return FM_OK;
    case SHA_FAMILY_SHA3:
      hmac_sha3_nowipe(alg, key, key_len, data, len, out);
      hmac_stack_wipe();
      return FM_OK;
    case SHA_FAMILY_NONE: break;
  }
  return FM_ERR_UNSUPPORTED;
}

/* ---- Internal context ------------------------------------------------------------------- */

int hmac_ctx_init_nowipe(hmac_ctx *c, fm_hash_alg alg, const uint8_t *key, size_t key_len) {
  switch (sha_alg_family(alg)) {
    case SHA_FAMILY_256: {
      hmac256_work w;
      hmac256_key_schedule(&w, alg, key, key_len);
      memcpy(c->u.s256.inner.h, w.inner, sizeof w.inner);
      memcpy(c->u.s256.outer, w.outer, sizeof w.outer);
      sha_zeroize_fixed(&w, sizeof w);
      /* The inner hash has absorbed the one key block. */
      c->u.s256.inner.nbytes = SHA256_BLOCK_LEN;
      c->u.s256.inner.buf_len = 0;
      break;
    }
    case SHA_FAMILY_512:
      hmac512_key_schedule(alg, key, key_len, c->u.s512.inner.h, c->u.s512.outer);
      c->u.s512.inner.nbytes = SHA512_BLOCK_LEN;
      c->u.s512.inner.buf_len = 0;
      break;
    case SHA_FAMILY_SHA3:
      hmac_sha3_key_schedule(alg, key, key_len, &c->u.k.inner, &c->u.k.outer);
      break;
    case SHA_FAMILY_NONE: hmac_ctx_wipe(c); return FM_ERR_UNSUPPORTED;
  }
  c->alg = (uint32_t)alg;
  c->magic = HMAC_CTX_MAGIC;
  return FM_OK;
}

int hmac_ctx_init(hmac_ctx *c, fm_hash_alg alg, const uint8_t *key, size_t key_len) {
  const int st = hmac_ctx_init_nowipe(c, alg, key, key_len);
  hmac_stack_wipe();
  return st;
}

bool hmac_ctx_live(const hmac_ctx *c) {
  return c->magic == HMAC_CTX_MAGIC && sha_alg_digest_len((fm_hash_alg)c->alg) != 0;
}

int hmac_ctx_update_nowipe(hmac_ctx *c, const void *data, size_t len) {
  if (!hmac_ctx_live(c)) return FM_ERR_STATE;
  switch (sha_alg_family((fm_hash_alg)c->alg)) {
    case SHA_FAMILY_256: return sha256_state_update(&c->u.s256.inner, data, len);
    case SHA_FAMILY_512: return sha512_state_update(&c->u.s512.inner, data, len);
    case SHA_FAMILY_SHA3:
      if (len > 0) keccak_absorb(&c->u.k.inner, data, len);
      return FM_OK;
    case SHA_FAMILY_NONE: break;
  }
  return FM_ERR_STATE;
}

int hmac_ctx_update(hmac_ctx *c, const void *data, size_t len) {
  const int st = hmac_ctx_update_nowipe(c, data, len);
  hmac_stack_wipe();
  return st;
}

int hmac_ctx_final_nowipe(hmac_ctx *c, uint8_t *out) {
  if (!hmac_ctx_live(c)) {
    hmac_ctx_wipe(c);
    return FM_ERR_STATE;
  }
  const size_t dlen = sha_alg_digest_len((fm_hash_alg)c->alg);
  switch (sha_alg_family((fm_hash_alg)c->alg)) {
    case SHA_FAMILY_256: {
      const sha256_state *in = &c->u.s256.inner;
      if (fm_cpu_use(FM_CPU_SHANI | FM_CPU_AVX512)) {
        sha256_shani_hmac_final(in->h, c->u.s256.outer, in->buf, in->buf_len, in->nbytes, out,
                                dlen);
        break;
      }
      hmac256_work w;
      memcpy(w.inner, in->h, sizeof w.inner);
      memcpy(w.outer, c->u.s256.outer, sizeof w.outer);
      hmac256_finish(&w, in->buf, in->buf_len, in->nbytes, dlen, out);
      sha_zeroize_fixed(&w, sizeof w);
      break;
    }
    case SHA_FAMILY_512: {
      sha512_state *in = &c->u.s512.inner;
      sha512_finish(in->h, in->buf, in->buf_len, in->nbytes);
      hmac512_outer(c->u.s512.outer, in->h, dlen, out);
      break;
    }
    case SHA_FAMILY_SHA3: hmac_sha3_finish(&c->u.k.inner, &c->u.k.outer, dlen, out); break;
    case SHA_FAMILY_NONE: break;
  }
  hmac_ctx_wipe(c);
  return FM_OK;
}

int hmac_ctx_final(hmac_ctx *c, uint8_t *out) {
  const int st = hmac_ctx_final_nowipe(c, out);
  hmac_stack_wipe();
  return st;
}

/* The KDFs (module/kdf) run many HMAC steps per call on the _nowipe functions and wipe once, at
 * the end of the service: deep enough for their own frames (two contexts and a block) above the
 * HMAC chain that hmac_stack_wipe covers. test_kdf_residue checks it on every path. */
#if defined(FM_SHA_INSTRUMENTED)
#define KDF_STACK_WIPE 16384
#else
#define KDF_STACK_WIPE 4096
#endif

/* One rep stosb over the area (fast-string microcode, ERMSB: about a quarter of the time of the
 * same bytes in 16-byte stores, 4 KiB measured at about 50 against 210 cycles), from inline asm
 * so that the area is the function's only local and the stores cannot be dropped. */
__attribute__((noinline, no_sanitize_address)) void hmac_kdf_stack_wipe(void) {
#if defined(__x86_64__)
  __m128i area[KDF_STACK_WIPE / 16];
  void *d = area;
  size_t n = sizeof area;
  __asm__ __volatile__("rep stosb" : "+D"(d), "+c"(n) : "a"(0) : "memory");
  __asm__ __volatile__("" : : "r"(area) : "memory");
#else
  _Alignas(16) uint8_t area[KDF_STACK_WIPE];
  fm_stack_wipe_area(area, sizeof area);
#endif
  fm_wipe_vector_registers();
}

static_assert(sizeof(hmac_ctx) % 8 == 0, "hmac_ctx_wipe stores whole words");

void hmac_ctx_wipe(hmac_ctx *c) { sha_zeroize_fixed(c, sizeof *c); }

void hmac_ctx_clone(hmac_ctx *dst, const hmac_ctx *src) {
  switch (sha_alg_family((fm_hash_alg)src->alg)) {
    case SHA_FAMILY_256:
      sha_copy_gpr((uint8_t *)&dst->u.s256, (const uint8_t *)&src->u.s256, sizeof src->u.s256);
      break;
    case SHA_FAMILY_512:
      sha_copy_gpr((uint8_t *)&dst->u.s512, (const uint8_t *)&src->u.s512, sizeof src->u.s512);
      break;
    case SHA_FAMILY_SHA3:
    case SHA_FAMILY_NONE: memcpy(dst, src, sizeof *dst); return;
  }
  dst->alg = src->alg;
  dst->magic = src->magic;
}

/* ---- PBKDF2's iteration ------------------------------------------------------------------
 * U_j = HMAC(P, U_{j-1}) for a message of exactly one digest: the inner hash is one compression
 * of a block that holds U and its fixed padding (the key block before it makes the length
 * B + hlen), the outer one compression of the inner digest likewise. Two blocks on the stack
 * are all there is: each digest is written straight into the next block, no buffering, no
 * context copies, and the stack is wiped once at the end, not twice an iteration. */

/* iterate256 runs |count| iterations from the keyed states |inner| and |outer|. */
static void iterate256(const uint32_t inner[8], const uint32_t outer[8], uint8_t *u, uint8_t *t,
                       uint64_t count) {
  uint8_t a[SHA256_BLOCK_LEN], b[SHA256_BLOCK_LEN];
  uint32_t h[8];
  memset(a, 0, sizeof a);
  a[32] = 0x80;
  sha_store_be64(a + SHA256_BLOCK_LEN - 8, (uint64_t)(SHA256_BLOCK_LEN + 32) << 3);
  memcpy(b, a, sizeof b);
  memcpy(a, u, 32);
  for (uint64_t j = 0; j < count; j++) {
    memcpy(h, inner, sizeof h);
    sha256_blocks(h, a, 1);
    for (int i = 0; i < 8; i++) sha_store_be32(b + 4 * i, h[i]);
    memcpy(h, outer, sizeof h);
    sha256_blocks(h, b, 1);
    for (int i = 0; i < 8; i++) sha_store_be32(a + 4 * i, h[i]);
    for (int i = 0; i < 32; i++) t[i] ^= a[i];
  }
  memcpy(u, a, 32);
  sha_zeroize_fixed(a, sizeof a);
  sha_zeroize_fixed(b, sizeof b);
  sha_zeroize_fixed(h, sizeof h);
}

/* iterate512 is iterate256 for SHA-384 (|dlen| 48) and SHA-512 (64): each digest's first dlen
 * bytes (whole words) are stored straight into the next block. */
static void iterate512(const uint64_t inner[8], const uint64_t outer[8], size_t dlen, uint8_t *u,
                       uint8_t *t, uint64_t count) {
  _Alignas(16) uint8_t a[SHA512_BLOCK_LEN], b[SHA512_BLOCK_LEN];
  uint64_t h[8];
  sha_zeroize_fixed(a, sizeof a);
  a[dlen] = 0x80;
  sha_store_be64(a + SHA512_BLOCK_LEN - 8, (uint64_t)(SHA512_BLOCK_LEN + dlen) << 3);
  memcpy(b, a, sizeof b);
  sha_copy_gpr(a, u, dlen);
  for (uint64_t j = 0; j < count; j++) {
    memcpy(h, inner, sizeof h);
    sha512_blocks(h, a, 1);
    for (size_t i = 0; i < dlen / 8; i++) sha_store_be64(b + 8 * i, h[i]);
    memcpy(h, outer, sizeof h);
    sha512_blocks(h, b, 1);
    for (size_t i = 0; i < dlen / 8; i++) sha_store_be64(a + 8 * i, h[i]);
    for (size_t i = 0; i < dlen; i++) t[i] ^= a[i];
  }
  sha_copy_gpr(u, a, dlen);
  sha_zeroize_fixed(a, sizeof a);
  sha_zeroize_fixed(b, sizeof b);
  sha_zeroize_fixed(h, sizeof h);
}

bool hmac_ctx_iterate(const hmac_ctx *base, uint8_t *u, uint8_t *t, uint64_t count) {
  if (!hmac_ctx_live(base)) return false;
  switch ((fm_hash_alg)base->alg) {
    case FM_HASH_SHA256:
      if (base->u.s256.inner.nbytes != SHA256_BLOCK_LEN || base->u.s256.inner.buf_len != 0) {
        return false;
      }
      if (fm_cpu_use(FM_CPU_SHANI)) {
        sha256_shani_pbkdf2_iterate(base->u.s256.inner.h, base->u.s256.outer, u, t, count);
      } else {
        iterate256(base->u.s256.inner.h, base->u.s256.outer, u, t, count);
      }
      break;
    case FM_HASH_SHA384:
    case FM_HASH_SHA512:
      if (base->u.s512.inner.nbytes != SHA512_BLOCK_LEN || base->u.s512.inner.buf_len != 0) {
        return false;
      }
      iterate512(base->u.s512.inner.h, base->u.s512.outer, sha_alg_digest_len((fm_hash_alg)base->alg),
                 u, t, count);
      break;
    default: return false;
  }
  return true;
}

bool hmac_ctx_iterate2(const hmac_ctx *base, uint8_t *ua, uint8_t *ta, uint8_t *ub, uint8_t *tb,
                       uint64_t count) {
#if FM_HAVE_X86_64_PATHS
  if (hmac_ctx_live(base) && (fm_hash_alg)base->alg == FM_HASH_SHA256 &&
      base->u.s256.inner.nbytes == SHA256_BLOCK_LEN && base->u.s256.inner.buf_len == 0 &&
      fm_cpu_use(FM_CPU_SHANI)) {
    sha256_shani_pbkdf2_iterate2(base->u.s256.inner.h, base->u.s256.outer, ua, ta, ub, tb, count);
    return true;
  }
#endif
  /* Both blocks share |base|: either both have a direct path or neither. */
  return hmac_ctx_iterate(base, ua, ta, count) && hmac_ctx_iterate(base, ub, tb, count);
}
