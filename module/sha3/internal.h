/* What module/sha3 offers the rest of the module: the Keccak-f[1600] permutation and the sponge
 * built on it (FIPS 202), without the public API's service gate and argument checks.
 *
 * ML-KEM (module/mlkem) and ML-DSA (module/mldsa) build on SHAKE and SHA3 through these functions
 * and nothing else of this folder. Every byte absorbed, the state and every byte squeezed are
 * treated as secret: no branch or memory index depends on them. Lengths are public. Nothing here
 * fails on a valid call, and everything is reentrant (distinct states on distinct threads). */
#ifndef FIPSMOD_MODULE_SHA3_INTERNAL_H
#define FIPSMOD_MODULE_SHA3_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

/* Rates in bytes (FIPS 202 section 6: r = 1600 - 2c). */
#define SHAKE128_RATE 168
#define SHAKE256_RATE 136
#define SHA3_224_RATE 144
#define SHA3_256_RATE 136
#define SHA3_384_RATE 104
#define SHA3_512_RATE 72

/* Domain separation and the first padding bit (FIPS 202 section 6.1 and 6.2, Appendix B.2):
 * SHA3 appends 01, SHAKE 1111, then pad10*1 adds the leading 1. */
#define KECCAK_DSEP_SHA3 0x06
#define KECCAK_DSEP_SHAKE 0x1f

/* keccak_f1600 applies the 24-round permutation Keccak-f[1600] (FIPS 202 section 3.3, Algorithm 7)
 * to the 25 lanes |a| (lane x + 5y at a[x + 5*y], little-endian bytes), on the fastest path the
 * CPU allows. keccak_f1600_portable is its constant-time C twin. */
void keccak_f1600(uint64_t a[25]);
void keccak_f1600_portable(uint64_t a[25]);

/* keccak_f1600_x4 applies the permutation to four independent states at once (the AVX2 path
 * interleaves them; the portable path runs them one after the other). */
void keccak_f1600_x4(uint64_t a[4][25]);
/* keccak_f1600_x4_nowipe is keccak_f1600_x4 leaving the permutation's stack residue; a caller
 * that uses it calls keccak_x4_wipe_stack, from the same function, before it returns (once after
 * any number of blocks). */
void keccak_f1600_x4_nowipe(uint64_t a[4][25]);
void keccak_x4_wipe_stack(void);
#if defined(__x86_64__)
/* The interleaved forms (keccak_x4_avx2.c); call them only when fm_cpu_use(FM_CPU_AVX2), and
 * fm_cpu_use(FM_CPU_AVX512) for the second. They leave state-derived bytes in their frame: the
 * module calls them only through keccak_f1600_x4 and keccak_f1600_x4_nowipe (see there). */
void keccak_f1600_x4_avx2(uint64_t a[4][25]);
void keccak_f1600_x4_avx512vl(uint64_t a[4][25]);
#endif

/* A sponge in progress. */
typedef struct keccak_state {
  uint64_t a[25];     /* the state (secret) */
  uint32_t rate;      /* bytes per block (public) */
  uint32_t pos;       /* bytes absorbed into, or squeezed from, the current block (public) */
  uint8_t dsep;       /* domain-separation byte */
  uint8_t squeezing;  /* 0 while absorbing; 1 once padded */
} keccak_state;

/* keccak_init starts a sponge of |rate| bytes (a multiple of 8, below 200) with domain byte |dsep|. */
void keccak_init(keccak_state *s, uint32_t rate, uint8_t dsep);

/* sha3_init starts SHA3-|bits| (224, 256, 384 or 512); shake128_init and shake256_init start the
 * XOFs. */
void sha3_init(keccak_state *s, unsigned bits);
void shake128_init(keccak_state *s);
void shake256_init(keccak_state *s);

/* keccak_absorb absorbs |len| bytes. Call it only before the first keccak_squeeze. */
void keccak_absorb(keccak_state *s, const uint8_t *in, size_t len);

/* keccak_squeeze writes the next |len| bytes of output; the first call pads (FIPS 202 5.1). Any
 * number of calls of any lengths give the same stream as one call of their total length. For
 * SHA3-n, squeeze n/8 bytes once. */
void keccak_squeeze(keccak_state *s, uint8_t *out, size_t len);

/* keccak_squeeze_blocks squeezes |nblocks| whole blocks (nblocks * rate bytes) into |out|, for a
 * state that has squeezed nothing yet or only whole blocks (the samplers of ML-KEM and ML-DSA). */
void keccak_squeeze_blocks(keccak_state *s, uint8_t *out, size_t nblocks);

/* keccak_msg describes a one-shot sponge: m.out receives the first m.out_len bytes of the sponge
 * with domain byte m.dsep over the message piece[0] || piece[1] (a piece of length 0 may be
 * NULL). ML-KEM's lane pool (module/mlkem) runs several at once. */
typedef struct keccak_msg {
  const uint8_t *piece[2];
  size_t len[2];
  uint8_t dsep;
  uint8_t *out;
  size_t out_len;
} keccak_msg;

/* keccak_wipe zeroizes the state. */
void keccak_wipe(keccak_state *s);

/* One-shot forms. |out| may alias nothing of |in|. */
void sha3_digest(unsigned bits, const uint8_t *in, size_t len, uint8_t *out);
void shake128(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len);
void shake256(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len);

/* keccak_path_name names the permutation the CPU path selects, for the start-up report. */
const char *keccak_path_name(void);

/* The first-use known-answer tests of this unit (sha3_cast.c), run by selftest/ for
 * FM_ST_SHA3_KAT, FM_ST_SHAKE_KAT and FM_ST_HMAC_SHA3_KAT. Each returns FM_OK or an error. */
int sha3_selftest_sha3_kat(void);
int sha3_selftest_shake_kat(void);
int sha3_selftest_hmac_kat(void);

#endif
