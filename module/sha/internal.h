/* What module/sha offers the rest of the module: SHA-2 (FIPS 180-4), the hash-generic context
 * over SHA-2 and SHA-3 (module/sha3) and HMAC (FIPS 198-1) over both, without the public API's
 * service gate and argument checks.
 *
 * Callers inside the boundary (the integrity check, the self-tests, RSA padding, the DRBG) use
 * these directly. They never fail on a valid call; the preconditions each states are the
 * caller's to keep. Message bytes are treated as secret by every function here (no branch or
 * memory index depends on them); lengths are public. HMAC keys, the key-derived chaining values
 * in an HMAC context, and every digest or tag written are secret.
 *
 * Length limit: every hash here takes at most SHA2_MAX_INPUT_BYTES (2^61 - 1) bytes of input in
 * total, which keeps the bit count below 2^64 (FIPS 180-4 section 5.1.1 allows up to 2^64 - 1
 * bits for SHA-256 and 2^128 - 1 for SHA-384/512; the module caps both at the smaller bound).
 * The raw one-shot functions take a length that addresses real memory, which on x86-64 is far
 * below that bound; the context functions count and refuse with FM_ERR_LENGTH.
 *
 * Everything here is reentrant: distinct states and contexts may be used from distinct threads.
 * The core (sha256.c, sha256_shani.c, sha512.c, sha.c, hmac.c) references nothing of the module's
 * life cycle (no state gate, self-test or RNG): only fm_zeroize and the CPU path word, so the
 * post-link injector is built from it alone. The public services are sha_service.c and
 * hmac_service.c. The HMAC entry points leave no key-derived state in their callees' stack
 * frames (hmac.c, "Stack residue"), and the SHA-NI and AVX2 kernels clear the vector registers
 * they used before returning.
 * Typical uses: the integrity check keys an hmac_ctx (FM_HASH_SHA256) once, feeds each hashed
 * segment with hmac_ctx_update and ends with hmac_ctx_final; RSA padding hashes with
 * sha_digest_internal or the sha_ctx functions; the self-tests call the public services. */
#ifndef FIPSMOD_MODULE_SHA_INTERNAL_H
#define FIPSMOD_MODULE_SHA_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fipsmod/hmac.h"
#include "fipsmod/sha.h"
#include "module/sha3/internal.h"

#if defined(__x86_64__)
#include <emmintrin.h>
#endif

#define SHA256_BLOCK_LEN 64
#define SHA512_BLOCK_LEN 128
#define SHA2_MAX_INPUT_BYTES ((UINT64_C(1) << 61) - 1)

/* ---- Compression functions ----------------------------------------------------------------
 * Each processes |nblocks| whole blocks at |p| into the chaining value |h|, with no per-block
 * call overhead. nblocks may be 0. */

/* sha256_blocks runs the SHA-256 compression function (FIPS 180-4 6.2.2) on each block, using
 * SHA-NI when fm_cpu_use(FM_CPU_SHANI) and the portable code otherwise. */
void sha256_blocks(uint32_t h[8], const uint8_t *p, size_t nblocks);

/* sha256_blocks_portable is the constant-time C compression function (any CPU). */
void sha256_blocks_portable(uint32_t h[8], const uint8_t *p, size_t nblocks);

/* sha256_blocks_shani is the SHA-NI compression function. Call it only when
 * fm_cpu_use(FM_CPU_SHANI) is true (it needs the SHA and SSE4.1 extensions). */
void sha256_blocks_shani(uint32_t h[8], const uint8_t *p, size_t nblocks);

/* sha256_shani_final ends a hash with SHA-NI: from the chaining value |h| after the first
 * |total| - |len| bytes of a |total|-byte message, it compresses its last |len| bytes at |p| and
 * the padding, and writes the first |out_len| (32 or 28) bytes of the digest to |out|, with the
 * state in registers throughout and the padding built in a register. sha256_shani_hmac is
 * HMAC-SHA-256 (|dlen| 32) or HMAC-SHA-224 (28, |iv| SHA-224's) the same way, with the key K0 of
 * |k0_len| <= 64 bytes (FIPS 198-1 step 1 or 2 done: a longer key already hashed) and the |len|
 * bytes of text at |p|; sha256_shani_hmac_final ends one from the keyed states |inner| (after
 * the first |total| - |len| bytes of the inner input, the key block included) and |outer| (after
 * the key block) with the last |len| bytes at |p|. Call them only when
 * fm_cpu_use(FM_CPU_SHANI | FM_CPU_AVX512). */
void sha256_shani_final(const uint32_t h[8], const uint8_t *p, size_t len, uint64_t total,
                        uint8_t *out, size_t out_len);
void sha256_shani_hmac(const uint32_t iv[8], const uint8_t *k0, size_t k0_len, const uint8_t *p,
                       size_t len, uint8_t *out, size_t dlen);
void sha256_shani_hmac_final(const uint32_t inner[8], const uint32_t outer[8], const uint8_t *p,
                             size_t len, uint64_t total, uint8_t *out, size_t dlen);

/* sha256_shani_pbkdf2_iterate runs |count| PBKDF2 iterations of HMAC-SHA-256 (hmac.c,
 * iterate256: U = HMAC(P, U), T ^= U) from the keyed states |inner| and |outer|, on U and T in
 * |u| and |t| (bytes, updated), with SHA-NI. Call it only when fm_cpu_use(FM_CPU_SHANI). */
void sha256_shani_pbkdf2_iterate(const uint32_t inner[8], const uint32_t outer[8], uint8_t u[32],
                                 uint8_t t[32], uint64_t count);

/* sha256_shani_pbkdf2_iterate2 is sha256_shani_pbkdf2_iterate on two output blocks' U and T
 * (ua, ta and ub, tb) at once, their compressions interleaved. */
void sha256_shani_pbkdf2_iterate2(const uint32_t inner[8], const uint32_t outer[8], uint8_t ua[32],
                                  uint8_t ta[32], uint8_t ub[32], uint8_t tb[32], uint64_t count);


/* sha512_blocks runs the SHA-512 compression function (FIPS 180-4 6.4.2), used by SHA-384 and
 * SHA-512 alike (they differ only in the initial value and the truncation): the AVX2 + BMI2
 * variant when fm_cpu_use(FM_CPU_AVX2 | FM_CPU_BMI2), the portable code otherwise. */
void sha512_blocks(uint64_t h[8], const uint8_t *p, size_t nblocks);

/* sha512_blocks_portable is the constant-time C compression function (any CPU). */
void sha512_blocks_portable(uint64_t h[8], const uint8_t *p, size_t nblocks);

/* sha512_blocks_avx2 is the AVX2 + BMI2 variant (vector message schedule interleaved with scalar
 * rounds). Call it only when fm_cpu_use(FM_CPU_AVX2 | FM_CPU_BMI2) is true. */
void sha512_blocks_avx2(uint64_t h[8], const uint8_t *p, size_t nblocks);

/* sha512_avx512_final is sha512_finish's AVX2 path with the padding built in registers: from the
 * chaining value |h| after the first |total| - |len| bytes of a |total|-byte message, it
 * compresses its last |len| bytes at |p| (whole blocks, then the tail and FIPS 180-4 5.1.2's
 * padding) into |h|. Call it only when fm_cpu_use(FM_CPU_AVX2 | FM_CPU_BMI2 | FM_CPU_AVX512). */
void sha512_avx512_final(uint64_t h[8], const uint8_t *p, size_t len, uint64_t total);

/* sha256_path_name and sha512_path_name name the compression function the CPU path selects
 * ("sha-ni+avx512-pad": SHA-NI with the last blocks padded in a 512-bit register, "sha-ni" or
 * "portable"; "avx2-bmi2" or "portable"), for the start-up report. */
const char *sha256_path_name(void);
const char *sha512_path_name(void);

/* ---- Streaming states ----------------------------------------------------------------------
 * A state holds the chaining value, the total byte count and the partial block. */

typedef struct sha256_state {
  uint32_t h[8];
  uint64_t nbytes;  /* bytes absorbed so far (public) */
  uint32_t buf_len; /* bytes waiting in buf, < SHA256_BLOCK_LEN */
  uint8_t buf[SHA256_BLOCK_LEN];
} sha256_state;

typedef struct sha512_state {
  uint64_t h[8];
  uint64_t nbytes;
  uint32_t buf_len; /* < SHA512_BLOCK_LEN */
  uint8_t buf[SHA512_BLOCK_LEN];
} sha512_state;

/* sha256_state_init sets |s| to the SHA-256 initial value (FIPS 180-4 5.3.3);
 * sha256_state_init_iv to |iv| (sha224_iv for SHA-224). */
void sha256_state_init(sha256_state *s);
void sha256_state_init_iv(sha256_state *s, const uint32_t iv[8]);

/* sha256_state_update absorbs |len| bytes at |data| (NULL allowed when len is 0). Returns FM_OK,
 * or FM_ERR_LENGTH, leaving |s| unchanged, when the total would pass SHA2_MAX_INPUT_BYTES. */
int sha256_state_update(sha256_state *s, const void *data, size_t len);

/* sha256_state_final pads (FIPS 180-4 5.1.1), writes the 32-byte digest to |out| and wipes |s|. */
void sha256_state_final(sha256_state *s, uint8_t out[32]);

/* sha256_state_final_len is sha256_state_final writing the first |out_len| bytes (28 for
 * SHA-224, or 32; a multiple of 4). */
void sha256_state_final_len(sha256_state *s, uint8_t *out, size_t out_len);

/* sha512_state_init / sha384_state_init set |s| to the SHA-512 / SHA-384 initial value
 * (FIPS 180-4 5.3.5 and 5.3.4). */
void sha512_state_init(sha512_state *s);
void sha384_state_init(sha512_state *s);

/* sha512_state_init_iv sets |s| to |iv| (sha512_224_iv, sha512_256_iv: SHA-512/t, 5.3.6). */
void sha512_state_init_iv(sha512_state *s, const uint64_t iv[8]);

/* sha512_state_update absorbs bytes exactly as sha256_state_update does. */
int sha512_state_update(sha512_state *s, const void *data, size_t len);

/* sha512_state_final pads (FIPS 180-4 5.1.2), writes the first |out_len| bytes of the digest
 * (48 for SHA-384, 64 for SHA-512, 28 or 32 for SHA-512/t; 1..64) to |out| and wipes |s|. */
void sha512_state_final(sha512_state *s, uint8_t *out, size_t out_len);

/* sha256_pad writes the last |tail_len| (< 64) bytes at |tail| and the padding of a message of
 * |total_bytes| bytes (FIPS 180-4 5.1.1) to |block|, and returns how many blocks that is (1 or
 * 2). The caller compresses and wipes them. */
size_t sha256_pad(uint8_t block[2 * SHA256_BLOCK_LEN], const uint8_t *tail, size_t tail_len,
                  uint64_t total_bytes);

/* sha256_finish hashes the last |tail_len| (< 64) bytes at |tail| with the padding of a message
 * of |total_bytes| bytes into |h|: the end of a one-shot hash whose whole blocks went through
 * sha256_blocks. Writes no digest; the caller serializes |h|. Stack copies are wiped. */
void sha256_finish(uint32_t h[8], const uint8_t *tail, size_t tail_len, uint64_t total_bytes);

/* sha512_finish is sha256_finish for SHA-384/512 (tail_len < 128). */
void sha512_finish(uint64_t h[8], const uint8_t *tail, size_t tail_len, uint64_t total_bytes);

/* Initial values (FIPS 180-4 5.3.2-5.3.6). */
extern const uint32_t sha224_iv[8];
extern const uint32_t sha256_iv[8];
extern const uint64_t sha384_iv[8];
extern const uint64_t sha512_iv[8];
extern const uint64_t sha512_224_iv[8];
extern const uint64_t sha512_256_iv[8];

/* ---- One-shot digests ------------------------------------------------------------------- */

/* sha256_digest_internal writes SHA-256(data[0..len)) to |out|. data may be NULL when len is 0. */
void sha256_digest_internal(const void *data, size_t len, uint8_t out[32]);

/* sha384_digest_internal writes SHA-384(data[0..len)) to |out|. */
void sha384_digest_internal(const void *data, size_t len, uint8_t out[48]);

/* sha512_digest_internal writes SHA-512(data[0..len)) to |out|. */
void sha512_digest_internal(const void *data, size_t len, uint8_t out[64]);

/* sha224_digest_internal, sha512_224_digest_internal and sha512_256_digest_internal are the same
 * for SHA-224, SHA-512/224 and SHA-512/256. */
void sha224_digest_internal(const void *data, size_t len, uint8_t out[28]);
void sha512_224_digest_internal(const void *data, size_t len, uint8_t out[28]);
void sha512_256_digest_internal(const void *data, size_t len, uint8_t out[32]);

/* The hash families: which state an fm_hash_alg runs on. */
enum sha_family { SHA_FAMILY_NONE, SHA_FAMILY_256, SHA_FAMILY_512, SHA_FAMILY_SHA3 };

/* sha_alg_family returns the family of |alg| (SHA_FAMILY_NONE for an unknown alg). */
enum sha_family sha_alg_family(fm_hash_alg alg);

/* sha_alg_digest_len returns the digest length of |alg| in bytes, or 0 for an unknown alg. */
size_t sha_alg_digest_len(fm_hash_alg alg);

/* sha_alg_block_len returns the block length of |alg| in bytes (the rate for SHA-3, FIPS 202
 * section 6.1, which HMAC-SHA3 uses as its B), or 0 for an unknown alg. */
size_t sha_alg_block_len(fm_hash_alg alg);

/* sha_digest_internal writes the digest of |alg| (sha_alg_digest_len bytes) to |out|. Returns
 * FM_OK, or FM_ERR_UNSUPPORTED (nothing written) for an unknown alg. */
int sha_digest_internal(fm_hash_alg alg, const void *data, size_t len, uint8_t *out);

/* ---- Algorithm-generic hash context (the layout behind fm_sha_ctx) ----------------------
 * The public functions reach a caller's fm_sha_ctx / fm_hmac_ctx through these types; may_alias
 * exempts those accesses from type-based alias analysis, as the caller's object is declared with
 * the public (opaque) type. */

typedef struct __attribute__((may_alias)) sha_ctx {
  uint32_t magic; /* SHA_CTX_MAGIC while initialized; 0 once wiped or finalized */
  uint32_t alg;   /* fm_hash_alg */
  union {
    sha256_state s256;
    sha512_state s512; /* SHA-384, SHA-512 and SHA-512/t */
    keccak_state k;    /* SHA3-* */
  } u;
} sha_ctx;

#define SHA_CTX_MAGIC 0x53484132u /* "SHA2" */

/* sha_ctx_init starts a hash of |alg|. Returns FM_OK, or FM_ERR_UNSUPPORTED with |c| wiped. */
int sha_ctx_init(sha_ctx *c, fm_hash_alg alg);

/* sha_ctx_update absorbs |len| bytes (data NULL only with len 0). Returns FM_OK; FM_ERR_STATE
 * when |c| is not initialized (zeroed, wiped, finalized); FM_ERR_LENGTH past the length limit.
 * On error |c| is unchanged. */
int sha_ctx_update(sha_ctx *c, const void *data, size_t len);

/* sha_ctx_final writes the digest (sha_alg_digest_len(alg) bytes) to |out| and wipes |c|.
 * Returns FM_OK, or FM_ERR_STATE (nothing written, |c| wiped) when |c| is not initialized. */
int sha_ctx_final(sha_ctx *c, uint8_t *out);

/* sha_ctx_live is true when |c| was initialized and not yet finalized or wiped; a magic word
 * that matches with an alg that does not is treated as garbage. */
bool sha_ctx_live(const sha_ctx *c);

/* sha_ctx_wipe zeroizes |c|, leaving it uninitialized. */
void sha_ctx_wipe(sha_ctx *c);

/* ---- HMAC (FIPS 198-1) ------------------------------------------------------------------
 * The context keeps the inner hash in progress and the chaining value after the outer key block
 * (K0 ^ opad), so the key itself is not kept and final costs one outer compression. */

typedef struct __attribute__((may_alias)) hmac_ctx {
  uint32_t magic; /* HMAC_CTX_MAGIC while keyed; 0 once wiped or finalized */
  uint32_t alg;
  union {
    struct {
      sha256_state inner;
      uint32_t outer[8];
    } s256;
    struct {
      sha512_state inner;
      uint64_t outer[8];
    } s512;
    struct {
      keccak_state inner; /* after K0 ^ ipad and the message so far */
      keccak_state outer; /* after K0 ^ opad (one whole block) */
    } k;
  } u;
} hmac_ctx;

#define HMAC_CTX_MAGIC 0x484d4143u /* "HMAC" */

/* hmac_ctx_iterate runs |count| PBKDF2 iterations (SP 800-132 5.3 step 4: U = PRF(P, U), then
 * T ^= U) with the freshly keyed |base| (hmac_ctx_init, nothing absorbed), updating the digest
 * |u| and the sum |t| (the digest length each) in place. Returns false, touching nothing, for a
 * hash it has no direct path for or a context that absorbed data: the caller then iterates
 * with hmac_ctx_update and hmac_ctx_final, which give the same values. Like the _nowipe
 * functions below, it leaves the stack to the caller's hmac_kdf_stack_wipe. */
bool hmac_ctx_iterate(const hmac_ctx *base, uint8_t *u, uint8_t *t, uint64_t count);

/* hmac_ctx_iterate2 is hmac_ctx_iterate on two output blocks (ua, ta and ub, tb) keyed by the
 * same |base|: HMAC-SHA-256 with SHA-NI runs both chains interleaved, the rest one block after
 * the other on hmac_ctx_iterate's paths. Returns false, touching nothing, where that would. */
bool hmac_ctx_iterate2(const hmac_ctx *base, uint8_t *ua, uint8_t *ta, uint8_t *ub, uint8_t *tb,
                       uint64_t count);

/* hmac_ctx_init_nowipe, hmac_ctx_update_nowipe, hmac_ctx_final_nowipe and hmac_internal_nowipe
 * are hmac_ctx_init, hmac_ctx_update, hmac_ctx_final and hmac_internal without the stack wipe each
 * of those ends with: for a
 * service that chains many of them (the KDFs) and ends with one hmac_kdf_stack_wipe, which
 * zeroizes the stack below its caller deep enough for the caller's own frames too. */
int hmac_ctx_init_nowipe(hmac_ctx *c, fm_hash_alg alg, const uint8_t *key, size_t key_len);
int hmac_internal_nowipe(fm_hash_alg alg, const uint8_t *key, size_t key_len, const void *data,
                         size_t len, uint8_t *out);
int hmac_ctx_update_nowipe(hmac_ctx *c, const void *data, size_t len);
int hmac_ctx_final_nowipe(hmac_ctx *c, uint8_t *out);
void hmac_kdf_stack_wipe(void);

/* hmac_ctx_init keys |c| for |alg| with the secret |key| (any length below the limit; NULL only
 * when key_len is 0). Returns FM_OK, or FM_ERR_UNSUPPORTED with |c| wiped. Stack copies of the
 * key blocks are wiped. */
int hmac_ctx_init(hmac_ctx *c, fm_hash_alg alg, const uint8_t *key, size_t key_len);

/* hmac_ctx_update absorbs message bytes. FM_OK, FM_ERR_STATE or FM_ERR_LENGTH (|c| unchanged). */
int hmac_ctx_update(hmac_ctx *c, const void *data, size_t len);

/* hmac_ctx_final writes the full tag (sha_alg_digest_len(alg) bytes, secret) to |out| and wipes
 * |c|. FM_OK, or FM_ERR_STATE (nothing written, |c| wiped). */
int hmac_ctx_final(hmac_ctx *c, uint8_t *out);

/* hmac_ctx_live is true when |c| is keyed and not yet finalized or wiped (see sha_ctx_live). */
bool hmac_ctx_live(const hmac_ctx *c);

/* hmac_ctx_wipe zeroizes |c|. */
void hmac_ctx_wipe(hmac_ctx *c);

/* hmac_ctx_clone copies the keyed (or live) |src| to |dst|: the header and the part of the union
 * |src|'s hash family uses, through general-purpose registers (a KDF's per-block copy of its
 * keyed base). |dst| is live afterwards exactly when |src| is; wipe it with hmac_ctx_wipe. */
void hmac_ctx_clone(hmac_ctx *dst, const hmac_ctx *src);

/* hmac_sha256_internal writes HMAC-SHA-256(key, data) to |out| in one pass with no copy of the
 * message. key may be NULL when key_len is 0, data when len is 0. */
void hmac_sha256_internal(const uint8_t *key, size_t key_len, const void *data, size_t len,
                          uint8_t out[32]);

/* hmac_sha384_internal / hmac_sha512_internal are the same for SHA-384 and SHA-512. */
void hmac_sha384_internal(const uint8_t *key, size_t key_len, const void *data, size_t len,
                          uint8_t out[48]);
void hmac_sha512_internal(const uint8_t *key, size_t key_len, const void *data, size_t len,
                          uint8_t out[64]);

/* hmac_internal writes the full HMAC tag of |alg| to |out|. FM_OK, or FM_ERR_UNSUPPORTED
 * (nothing written) for an unknown alg. */
int hmac_internal(fm_hash_alg alg, const uint8_t *key, size_t key_len, const void *data,
                  size_t len, uint8_t *out);

/* ---- Self-tests (sha_cast.c, outside the hash core) -------------------------------------- */

/* sha_selftest_ensure makes sure the known-answer test of |alg| has passed (running it first if
 * needed: fm_selftest_ensure, one load once it has). Returns FM_OK or FM_ERR_NOT_OPERATIONAL;
 * FM_OK for an algorithm the module does not offer (the caller refuses it). Every service that
 * hashes with a caller's choice of algorithm (the hash services, RSA) calls it before its first
 * use of |alg|; hmac_selftest_ensure does the same for HMAC with |alg| (the HMAC services, the
 * KDFs). HMAC-SHA-256's test runs at power-on (the integrity check rests on it); the HMAC tests
 * cover the hash they are built on. */
int sha_selftest_ensure(fm_hash_alg alg);
int hmac_selftest_ensure(fm_hash_alg alg);

/* sha_selftest_truncated_kat is the known-answer test FM_ST_SHA2_TRUNCATED_KAT (SHA-224,
 * SHA-512/224, SHA-512/256 through fm_sha_digest); the runner calls it. FM_OK or an error. */
int sha_selftest_truncated_kat(void);

/* sha_cast runs this unit's CAST |id| (an fm_selftest_id: FM_ST_SHA256_KAT, _SHA384_KAT,
 * _SHA512_KAT, _HMAC_SHA256_KAT, _HMAC_SHA384_KAT, _HMAC_SHA512_KAT, _SHA2_TRUNCATED_KAT) through
 * the public services; selftest/ calls it. FM_OK, FM_ERR_SELFTEST for a wrong answer, the failing
 * call's status, or FM_ERR_INTERNAL for an id that is not this unit's. */
int sha_cast(int id);

/* sha_hmac_sha256_core_cast is the HMAC-SHA-256 CAST of the first check at load: the vector of
 * FM_ST_HMAC_SHA256_KAT on the internal HMAC code (no service gate, no thread-local indicator, no
 * libc). FM_OK or FM_ERR_SELFTEST. */
int sha_hmac_sha256_core_cast(void);

/* ---- Byte order helpers (big-endian, as FIPS 180-4 reads words) -------------------------
 * A memcpy to or from a word plus a byte swap compiles to one load or store and one bswap (or a
 * movbe); building words from single bytes tempts the vectorizer into long shuffle sequences. */

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define SHA_BE32(x) (x)
#define SHA_BE64(x) (x)
#else
#define SHA_BE32(x) __builtin_bswap32(x)
#define SHA_BE64(x) __builtin_bswap64(x)
#endif

static inline uint32_t sha_load_be32(const uint8_t *p) {
  uint32_t v;
  memcpy(&v, p, sizeof v);
  return SHA_BE32(v);
}
static inline uint64_t sha_load_be64(const uint8_t *p) {
  uint64_t v;
  memcpy(&v, p, sizeof v);
  return SHA_BE64(v);
}
static inline void sha_store_be32(uint8_t *p, uint32_t v) {
  v = SHA_BE32(v);
  memcpy(p, &v, sizeof v);
}
static inline void sha_store_be64(uint8_t *p, uint64_t v) {
  v = SHA_BE64(v);
  memcpy(p, &v, sizeof v);
}

/* ---- Short copies and wipes of the padding path ---------------------------------------------
 * A one-shot hash of a short message spends as long on its copies and wipes as on its one
 * compression when each is a rep movsb / rep stosb call (module/mem.c: tens of cycles to start on
 * a CPU without fast short stores). The padding path uses these instead. */

/* sha_zeroize_fixed is fm_zeroize for a |len| (a multiple of 8) known at compile time: a few
 * inline stores of a zeroed register (16 bytes each on x86-64, 8 elsewhere; nothing secret goes
 * through the register). The empty asm on the index keeps the compiler from turning the loop
 * into a memset call or a rep stos, and the barrier, which claims to read |p|, keeps the stores
 * from being dropped as dead. */
static inline __attribute__((always_inline)) void sha_zeroize_fixed(void *p, size_t len) {
  uint8_t *d = p;
  size_t i = 0;
#if defined(__x86_64__)
  for (; i + 16 <= len; i += 16) {
    __asm__("" : "+r"(i));
    _mm_storeu_si128((__m128i *)(void *)(d + i), _mm_setzero_si128());
  }
#endif
  for (; i + 8 <= len; i += 8) {
    const uint64_t z = 0;
    __asm__("" : "+r"(i));
    memcpy(d + i, &z, 8);
  }
  __asm__ __volatile__("" : : "r"(p) : "memory");
}

/* sha_copy_gpr copies |n| bytes (a short run: a message tail, a key block, a digest, a keyed
 * state; n is public) from |src| to |dst| (not overlapping) through general-purpose registers
 * only (8-byte words, then the overlapping last 8, 4 or single bytes), so that no message or key
 * byte is left in a vector register; the empty asm keeps the compiler from merging the words into
 * vector moves. The branches depend on n alone. */
static inline __attribute__((always_inline)) void sha_copy_gpr(uint8_t *dst, const uint8_t *src,
                                                                size_t n) {
  if (n >= 8) {
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
      uint64_t v;
      memcpy(&v, src + i, 8);
      __asm__("" : "+r"(v));
      memcpy(dst + i, &v, 8);
    }
    if (i < n) {
      uint64_t v;
      memcpy(&v, src + n - 8, 8);
      __asm__("" : "+r"(v));
      memcpy(dst + n - 8, &v, 8);
    }
  } else if (n >= 4) {
    uint32_t a, b;
    memcpy(&a, src, 4);
    memcpy(&b, src + n - 4, 4);
    __asm__("" : "+r"(a), "+r"(b));
    memcpy(dst, &a, 4);
    memcpy(dst + n - 4, &b, 4);
  } else {
    if (n > 0) dst[0] = src[0];
    if (n > 1) dst[1] = src[1];
    if (n > 2) dst[2] = src[2];
  }
}

#endif
