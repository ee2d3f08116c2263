/* What module/aes offers the rest of the module (the DRBG uses these directly, without the
 * public API's gate and argument checks), and what the files of module/aes share.
 * Keys, schedules, counters and all outputs are secret; lengths, block counts and pointers are
 * public. None of these functions checks its arguments: callers pass valid schedules, lengths
 * and buffers (in and out either identical or disjoint). */
#ifndef FIPSMOD_MODULE_AES_INTERNAL_H
#define FIPSMOD_MODULE_AES_INTERNAL_H

#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "module/internal.h"

/* aes_ks is an AES key schedule for the path chosen at load. Layout by |impl|:
 *   AES_IMPL_AESNI:    words[0..2*(rounds+1)) the FIPS 197 round keys as 16-byte blocks;
 *                      words[64..64+2*(rounds+1)) the decryption round keys (Equivalent Inverse
 *                      Cipher, FIPS 197 5.3.5), present only after aes_ks_add_decrypt.
 *   AES_IMPL_PORTABLE: words[0..8*(rounds+1)) the round keys in bitsliced form (8 words per
 *                      round key, see aes_portable.c); decryption uses the same words.
 * |rounds| and |impl| are public. */
typedef struct aes_ks {
  _Alignas(64) uint64_t words[128];
  uint32_t rounds; /* 10, 12 or 14 (AES-128, -192, -256) */
  uint32_t impl;   /* which path built it: AES_IMPL_* */
} aes_ks;

enum {
  AES_IMPL_NONE = 0,
  AES_IMPL_PORTABLE = 0x50b5, /* bitsliced, constant time */
  AES_IMPL_AESNI = 0xae51,    /* AES-NI round keys; bulk work may use VAES */
};

/* Offset (in 64-bit words) of the AES-NI decryption round keys inside aes_ks.words. */
#define AES_NI_DEC_OFFSET 64
static_assert(8 * 15 <= 128, "bitsliced AES-256 schedule must fit aes_ks.words");
static_assert(AES_NI_DEC_OFFSET + 2 * 15 <= 128, "AES-NI schedules must fit aes_ks.words");

/* ---- For the whole module ------------------------------------------------------------- */
/* The functions of this section leave no secret on the stack: after a kernel that spills (the
 * bitsliced code always; on AES-NI schedules only aes_ctr128_blocks's 256-bit VAES loop, see
 * aes_ni_bulk_spills) each wipes the stack below it (aes_bulk_stack_wipe). */

/* aes_ks_init_encrypt builds an encryption schedule from a 16-, 24- or 32-byte |key| (secret).
 * Returns 1 on success, 0 for another length (then |ks| is zeroized). Cheap enough to call per
 * 16-byte draw (AES-NI: about 100 instructions for AES-256). */
int aes_ks_init_encrypt(aes_ks *ks, const uint8_t *key, size_t key_len);

/* aes_encrypt_block encrypts one block (in and out may alias). */
void aes_encrypt_block(const aes_ks *ks, const uint8_t in[16], uint8_t out[16]);

/* aes_ctr128_blocks computes out[i] = in[i] ^ E(ctr + i) for |nblocks| blocks, the counter being
 * the whole 128-bit big-endian block (wrapping mod 2^128); in == NULL writes the key stream
 * itself. On return |ctr| is one past the last counter used. in and out may alias exactly. The
 * counter is treated as secret (no branch depends on its value). */
void aes_ctr128_blocks(const aes_ks *ks, uint8_t ctr[16], const uint8_t *in, uint8_t *out,
                       size_t nblocks);

/* aes_ks_wipe zeroizes |ks|. */
void aes_ks_wipe(aes_ks *ks);

/* ---- Used by the public API (aes.c) and the self-tests ---------------------------------- */

/* aes_ks_add_decrypt adds what decryption needs to an encryption schedule (AES-NI: the
 * InvMixColumns'd round keys; the portable path needs nothing). */
void aes_ks_add_decrypt(aes_ks *ks);

/* aes_ecb_encrypt_blocks encrypts |nblocks| independent blocks (SP 800-38A 6.1). */
void aes_ecb_encrypt_blocks(const aes_ks *ks, const uint8_t *in, uint8_t *out, size_t nblocks);

/* aes_ecb_decrypt_blocks decrypts |nblocks| independent blocks; needs aes_ks_add_decrypt. */
void aes_ecb_decrypt_blocks(const aes_ks *ks, const uint8_t *in, uint8_t *out, size_t nblocks);

/* aes_cbc_encrypt_blocks: CBC encryption (SP 800-38A 6.2); |iv| becomes the last ciphertext
 * block. */
void aes_cbc_encrypt_blocks(const aes_ks *ks, uint8_t iv[16], const uint8_t *in, uint8_t *out,
                            size_t nblocks);

/* aes_cbc_decrypt_blocks: CBC decryption; |iv| becomes the last ciphertext block. Needs
 * aes_ks_add_decrypt. */
void aes_cbc_decrypt_blocks(const aes_ks *ks, uint8_t iv[16], const uint8_t *in, uint8_t *out,
                            size_t nblocks);

/* aes_ctr32_blocks is aes_ctr128_blocks with only the last 32 bits of |ctr| incremented
 * (big-endian, wrapping mod 2^32; the first 96 bits never change). */
void aes_ctr32_blocks(const aes_ks *ks, uint8_t ctr[16], const uint8_t *in, uint8_t *out,
                      size_t nblocks);

/* ---- Inside module/aes only: the two implementations ------------------------------------- */

/* AES_UNROLL fully unrolls a loop with a constant trip count (blocks in flight, the rounds of a
 * serial chain) at every optimization level, so that blocks and round keys stay in registers. */
#if defined(__clang__)
/* The unrolling is a speed hint: at -O0/-O1 clang may decline it, which must not fail a
 * -Werror build. */
#pragma clang diagnostic ignored "-Wpass-failed"
#define AES_UNROLL _Pragma("clang loop unroll(full)")
#else
#define AES_UNROLL _Pragma("GCC unroll 16")
#endif

/* The bulk paths of the AES-NI schedule, chosen per call. */
enum {
  AES_PATH_AESNI = 1,       /* 128-bit AES-NI, 8 blocks in flight */
  AES_PATH_VAES_AVX2 = 2,   /* VAES on 256-bit registers */
  AES_PATH_VAES_AVX512 = 3, /* VAES on 512-bit registers */
};

/* aes_ni_path returns the AES_PATH_* that bulk work on an AES-NI schedule takes (public). */
int aes_ni_path(void);

#if defined(FIPSMOD_TEST_HOOKS)
/* aes_limit_path_for_testing caps the bulk path (AES_PATH_*, 0 = no cap) so that tests reach
 * every path this CPU has. Test builds only; not thread-safe against concurrent AES calls. */
void aes_limit_path_for_testing(int max_path);
#endif

/* The portable path (aes_portable.c): bitsliced, four blocks per pass, constant time. Arguments
 * as for the aes_* functions above; |width| is 32 or 128. */

/* aes_portable_init builds a bitsliced schedule from a 16-, 24- or 32-byte |key| (secret). */
void aes_portable_init(aes_ks *ks, const uint8_t *key, size_t key_len);

/* aes_portable_ecb_encrypt encrypts |nblocks| independent blocks. */
void aes_portable_ecb_encrypt(const aes_ks *ks, const uint8_t *in, uint8_t *out, size_t nblocks);

/* aes_portable_ecb_decrypt decrypts |nblocks| independent blocks (the inverse cipher). */
void aes_portable_ecb_decrypt(const aes_ks *ks, const uint8_t *in, uint8_t *out, size_t nblocks);

/* aes_portable_cbc_encrypt: CBC encryption, one block per pass (the chain is serial). */
void aes_portable_cbc_encrypt(const aes_ks *ks, uint8_t iv[16], const uint8_t *in, uint8_t *out,
                              size_t nblocks);

/* aes_portable_cbc_decrypt: CBC decryption, four blocks per pass. */
void aes_portable_cbc_decrypt(const aes_ks *ks, uint8_t iv[16], const uint8_t *in, uint8_t *out,
                              size_t nblocks);

/* aes_portable_ctr: CTR with a |width|-bit counter; in == NULL writes the key stream. */
void aes_portable_ctr(const aes_ks *ks, int width, uint8_t ctr[16], const uint8_t *in, uint8_t *out,
                      size_t nblocks);

/* The AES-NI path (aes_ni.c): callable only when fm_cpu_use(FM_CPU_AESNI). Arguments as for the
 * aes_* functions above. The mode functions pick the bulk width with aes_ni_path(). */

/* aes_ni_init builds the AES-NI encryption round keys from a 16-, 24- or 32-byte |key|
 * (secret). */
void aes_ni_init(aes_ks *ks, const uint8_t *key, size_t key_len);

/* aes_ni_add_decrypt adds the Equivalent Inverse Cipher's round keys (FIPS 197 5.3.5). */
void aes_ni_add_decrypt(aes_ks *ks);

/* aes_ni_encrypt_block encrypts one block (in and out may alias). */
void aes_ni_encrypt_block(const aes_ks *ks, const uint8_t in[16], uint8_t out[16]);

/* aes_ni_ecb_encrypt encrypts |nblocks| independent blocks. */
void aes_ni_ecb_encrypt(const aes_ks *ks, const uint8_t *in, uint8_t *out, size_t nblocks);

/* aes_ni_ecb_decrypt decrypts |nblocks| independent blocks (needs aes_ni_add_decrypt). */
void aes_ni_ecb_decrypt(const aes_ks *ks, const uint8_t *in, uint8_t *out, size_t nblocks);

/* aes_ni_bulk_spills returns whether ECB or CTR on |nblocks| blocks (public) takes a loop that
 * spills secrets to its frame: the VAES loops on 256-bit registers, where the eight states, the
 * counters and the byte shuffle fill the 16 ymm registers (objdump of libfipsmod.so: gcc 12 keeps
 * 320-640 bytes of states and counter blocks on the stack in ctr256_run and the ECB and CBC
 * loops, clang 14 128 bytes; test_aes_stack sees 410-550 secret-dependent bytes after them). The
 * 512-bit loops keep theirs in 32 zmm registers (only their zeroized round-key arrays are in
 * memory) and the 128-bit ones spill nothing for ECB and CTR. The caller wipes the stack after a
 * call that spilled (AES_BULK_STACK_WIPE). Inline: the block count decides first, so that a
 * short request pays no call. */
#define AES_VAES_MIN_BLOCKS 16 /* the fewest blocks the VAES loops take (aes_ni.c) */

/* aes_qmask4 is the AVX-512 mask, one bit a 64-bit element, of the first |n| blocks (public) of a
 * four-block 512-bit register: none for n <= 0, all for n >= 4 (the masked loads and stores of
 * the 512-bit GCM, GHASH and CTR tails). */
static inline uint8_t aes_qmask4(long n) {
  return n <= 0 ? 0 : n >= 4 ? 0xff : (uint8_t)((1u << (2 * n)) - 1);
}
static inline bool aes_ni_bulk_spills(size_t nblocks) {
  return nblocks >= AES_VAES_MIN_BLOCKS && aes_ni_path() == AES_PATH_VAES_AVX2;
}

/* aes_ni_cbc_encrypt: CBC encryption, one serial chain on 128-bit registers. */
void aes_ni_cbc_encrypt(const aes_ks *ks, uint8_t iv[16], const uint8_t *in, uint8_t *out,
                        size_t nblocks);

/* aes_ni_cbc_decrypt: CBC decryption (needs aes_ni_add_decrypt). */
void aes_ni_cbc_decrypt(const aes_ks *ks, uint8_t iv[16], const uint8_t *in, uint8_t *out,
                        size_t nblocks);

/* aes_ni_ctr: CTR with a |width|-bit counter (32 or 128); in == NULL writes the key stream. */
void aes_ni_ctr(const aes_ks *ks, int width, uint8_t ctr[16], const uint8_t *in, uint8_t *out,
                size_t nblocks);

/* aes_ni_drbg_generate_small is SP 800-90Ar1 10.2.1.5.1 steps 4-6 (without the reseed counter)
 * of the AES-256 CTR_DRBG for |out_len| <= 64 bytes in one pass, on 128-bit AES-NI registers: with
 * |key| = Key (32 bytes) and |v| = V, it writes E(Key, V+1..) truncated to |out_len| bytes to
 * |out|, then the update: temp = E(Key, V+n+1..V+n+3) ^ |provided| (48 bytes, or NULL for
 * 0^seedlen), the new Key to |key| and the new V to |v|. Key's schedule is expanded on the fly,
 * interleaved with the rounds (drbg_expand.h); no schedule is read or written, so a schedule the
 * caller keeps of Key is stale afterwards. Key, V, provided data and output are secret; |out_len|
 * is public. Only when fm_cpu_use(FM_CPU_AESNI). In drbg_ni.c. */
void aes_ni_drbg_generate_small(uint8_t v[16], uint8_t key[32], uint8_t *out, size_t out_len,
                                const uint8_t *provided);

/* aes_vaes_drbg_generate_small is aes_ni_drbg_generate_small on 256-bit VAES registers, the
 * blocks two per register (drbg_vaes.c). Only when fm_cpu_use(FM_CPU_AESNI | FM_CPU_VAES). */
void aes_vaes_drbg_generate_small(uint8_t v[16], uint8_t key[32], uint8_t *out, size_t out_len,
                                  const uint8_t *provided);

/* AES_DRBG_STACK_WIPE is how many bytes of stack aes_drbg_stack_wipe zeroizes below its
 * caller's frame: where the fused generate's frame just was. With 15 round keys and up to 7
 * blocks live, the compiler may spill round keys or cipher states there (secret), and C cannot
 * name those slots; the wipe covers them. In optimized builds the largest such frame, return
 * address, saved registers and 32-byte alignment included, is under 500 bytes with gcc 12 and
 * clang 14 (the VAES kernel for 3-4 blocks). Sanitizer instrumentation and -O0 keep the schedule
 * in memory instead: frames near 2 KiB with gcc 12 and ASan, 4.4 KiB with gcc 12 at -O0 (the VAES
 * kernel), hence 8 KiB there. test_drbg_stack scans 4 KiB beyond this size after each kernel, in
 * both kinds of build, so that a larger frame shows. A multiple of 16. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
#define AES_INSTRUMENTED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__) || !defined(__OPTIMIZE__)
#define AES_INSTRUMENTED 1
#endif
#if defined(AES_INSTRUMENTED)
#define AES_DRBG_STACK_WIPE 8192
#else
#define AES_DRBG_STACK_WIPE 640
#endif
static_assert(AES_DRBG_STACK_WIPE % 16 == 0, "the wipe stores 16 bytes at a time");

/* aes_drbg_stack_wipe zeroizes AES_DRBG_STACK_WIPE bytes of stack just below its caller's frame,
 * where a fused generate that the caller has just called may have spilled round keys or blocks
 * (stack_wipe.c). */
void aes_drbg_stack_wipe(void);

/* AES_BULK_STACK_WIPE is how many bytes of stack aes_bulk_stack_wipe zeroizes below its caller's
 * frame: where the frames of the bulk kernels just were. The kernels spill what does not fit in
 * the vector registers, and C cannot name those slots (fm_zeroize of the broadcast round-key and
 * power arrays reaches only the arrays): the 256-bit stitched GCM kernel (16 ymm registers for
 * eight cipher states, three GHASH sums and temporaries) spills cipher states, key stream and
 * GHASH sums; the 512-bit one and the VAES CTR/ECB/CBC loops spill cipher states and counter
 * blocks; the PCLMULQDQ GHASH loop the powers of H; the 8-block CBC decryption
 * blocks; the bitsliced AES and the portable GHASH their state words. Measured with objdump of
 * libfipsmod.so and with test_gcm_residue / test_aes_stack (which print the depth each service
 * reached): the deepest frames are the stitched GCM kernels', up to 2288 bytes (gcm_vaes.c's
 * AES-256 encryption kernel, gcc 12 -O2, with tail_pass's 200 below; 1672 for gcm_vaes256.c's
 * encryption kernel) plus 32-byte realignment, saved
 * registers and return addresses below gcm.c's caller of the wipe (test_gcm_residue, without the
 * wipe, with an earlier 2304-byte frame: secret-dependent bytes down to 2.7 KiB below the
 * service's caller, whose frames above ctx_text take about 400 of them); 3 KiB leaves room. Sanitizer instrumentation and -O0 keep
 * every intermediate in memory: -fstack-usage gives the 512-bit GCM kernel 5.8 KiB at -O0 with
 * gcc 12, with the pass and multiply helpers' frames (0.8 and 0.4 KiB) below it, hence 8 KiB
 * there (clang 14 at -O0, which no preset builds, takes 10 KiB for the kernel alone). The tests scan 4 KiB
 * beyond this size, so that a larger frame shows. A multiple of 128 (stack_wipe.c). */
#if defined(AES_INSTRUMENTED)
#define AES_BULK_STACK_WIPE 8192
#else
#define AES_BULK_STACK_WIPE 3072
#endif

/* aes_bulk_stack_wipe zeroizes AES_BULK_STACK_WIPE bytes of stack just below its caller's frame
 * (stack_wipe.c: 64-byte stores where AVX-512 is in use, 32-byte ones where the CPU has AVX2,
 * else 16-byte ones). The public services
 * of aes.c and gcm.c call it once, at the end of a call in which a kernel that spills ran (they
 * say which); their short messages, whose kernels keep every secret in registers, pay no wipe.
 * Inlined, so that the wipe lies below the service's own frame. */
#if FM_HAVE_X86_64_PATHS
void aes_bulk_stack_wipe_sse(void);
void aes_bulk_stack_wipe_avx2(void);
void aes_bulk_stack_wipe_avx512(void);
/* aes_bulk_stack_wipe_from is aes_bulk_stack_wipe (AVX-512 stores) from |low| up only: the part
 * of its area at or above |low| rounded down to 64 bytes (all of it when |low| lies below the
 * area, the top 64 bytes at least). |low| is the lowest stack address the kernels that ran may
 * have written (gcm_vaes512_crypt_all), so what they spilled is wiped and no more. */
void aes_bulk_stack_wipe_from(uintptr_t low);
static inline __attribute__((always_inline)) void aes_bulk_stack_wipe(void) {
  if (fm_cpu_use(FM_CPU_AVX512)) {
    aes_bulk_stack_wipe_avx512();
  } else if (fm_cpu_use(FM_CPU_AVX2)) {
    aes_bulk_stack_wipe_avx2();
  } else {
    aes_bulk_stack_wipe_sse();
  }
}
#else
/* Elsewhere the wipe stores 16 bytes at a time from general-purpose registers. */
void aes_bulk_stack_wipe_generic(void);
static inline __attribute__((always_inline)) void aes_bulk_stack_wipe(void) {
  aes_bulk_stack_wipe_generic();
}
#endif

/* AES_STACK_WIPE_MIN_BLOCKS: below this many blocks the AES-NI kernels (one to seven blocks in
 * flight, round keys as memory operands) and the carry-less GHASH tails keep their secrets in
 * registers; from it on the 8-block CBC decryption and the PCLMULQDQ and 256-bit VPCLMULQDQ
 * GHASH loops spill. test_aes_stack and test_gcm_residue check both sides of it.
 * AES_STACK_WIPE_ALWAYS: sanitizer instrumentation and -O0 keep every kernel's intermediates
 * in memory, so those builds wipe after every service, whatever ran. */
#define AES_STACK_WIPE_MIN_BLOCKS 8
#if defined(AES_INSTRUMENTED)
#define AES_STACK_WIPE_ALWAYS 1
#else
#define AES_STACK_WIPE_ALWAYS 0
#endif

/* aes_ni_sse_ecb_encrypt: ECB encryption on 128-bit registers, eight blocks in flight (also the
 * VAES code's tail). */
void aes_ni_sse_ecb_encrypt(const aes_ks *ks, const uint8_t *in, uint8_t *out, size_t nblocks);

/* aes_ni_sse_ecb_decrypt: ECB decryption on 128-bit registers, eight blocks in flight. */
void aes_ni_sse_ecb_decrypt(const aes_ks *ks, const uint8_t *in, uint8_t *out, size_t nblocks);

/* aes_ni_sse_cbc_decrypt: CBC decryption on 128-bit registers, eight blocks in flight. */
void aes_ni_sse_cbc_decrypt(const aes_ks *ks, uint8_t iv[16], const uint8_t *in, uint8_t *out,
                            size_t nblocks);

/* aes_ni_sse_ctr: CTR on 128-bit registers, eight blocks in flight; 1..4 blocks take one 4-wide
 * pass (the DRBG's short draws). */
void aes_ni_sse_ctr(const aes_ks *ks, int width, uint8_t ctr[16], const uint8_t *in, uint8_t *out,
                    size_t nblocks);

/* The VAES code (aes_vaes.c): the aes_ni_vaes512_* functions only when
 * fm_cpu_use(FM_CPU_VAES | FM_CPU_AVX512), the aes_ni_vaes256_* ones when fm_cpu_use(FM_CPU_VAES).
 * Sixteen blocks per pass; shorter tails go to the aes_ni_sse_* functions. */

/* aes_ni_vaes512_ecb: ECB on 512-bit registers; |decrypt| selects the inverse cipher. */
void aes_ni_vaes512_ecb(const aes_ks *ks, int decrypt, const uint8_t *in, uint8_t *out,
                        size_t nblocks);

/* aes_ni_vaes512_cbc_decrypt: CBC decryption on 512-bit registers. */
void aes_ni_vaes512_cbc_decrypt(const aes_ks *ks, uint8_t iv[16], const uint8_t *in, uint8_t *out,
                                size_t nblocks);

/* aes_ni_vaes512_ctr: CTR on 512-bit registers, counters built in vector registers. */
void aes_ni_vaes512_ctr(const aes_ks *ks, int width, uint8_t ctr[16], const uint8_t *in,
                        uint8_t *out, size_t nblocks);

/* aes_ni_vaes512_ctr32_stream: the key stream of |nblocks| (1..16) inc32 counter blocks from
 * |ctr| (left unchanged) into |out|, in one pass on four registers: the rounds of the sixteen run
 * side by side, and the stores are masked to the nblocks blocks (nothing past them is written). */
void aes_ni_vaes512_ctr32_stream(const aes_ks *ks, const uint8_t ctr[16], uint8_t *out,
                                 size_t nblocks);

/* aes_ni_vaes256_ecb: ECB on 256-bit registers; |decrypt| selects the inverse cipher. */
void aes_ni_vaes256_ecb(const aes_ks *ks, int decrypt, const uint8_t *in, uint8_t *out,
                        size_t nblocks);

/* aes_ni_vaes256_cbc_decrypt: CBC decryption on 256-bit registers. */
void aes_ni_vaes256_cbc_decrypt(const aes_ks *ks, uint8_t iv[16], const uint8_t *in, uint8_t *out,
                                size_t nblocks);

/* aes_ni_vaes256_ctr: CTR on 256-bit registers, counters built in vector registers. */
void aes_ni_vaes256_ctr(const aes_ks *ks, int width, uint8_t ctr[16], const uint8_t *in,
                        uint8_t *out, size_t nblocks);

/* ---- Clearing the vector registers ------------------------------------------------------
 * The kernels hold round keys, counter blocks, key stream and (fused DRBG) Key, V and output in
 * vector registers, and the ABI lets a function return with anything in them. Left there, they
 * reach memory whenever the registers are saved: the lazy-binding trampoline of the caller's next
 * call, a signal frame, a core dump. So every kernel that held secrets in vector registers ends by
 * zeroing the registers it may have used (all of the ones its target could give it), after its
 * last store. Zeroing idioms; they cost a few cycles. The asm also clobbers memory, so that no
 * store of a secret is moved after it, and says which registers it clobbers, so that the compiler
 * keeps nothing in them across it. */

#if FM_HAVE_X86_64_PATHS
/* The clears themselves are module/internal.h's: fm_clear_sse_registers (AES-NI code without
 * AVX), fm_clear_avx_registers (the VAES paths), fm_clear_avx512_registers (the 512-bit ones). */

/* aes_clear_portable_registers is the clear of the portable code (aes_portable.c, whose copies
 * the compiler vectorizes with SSE2, and the portable GCM). */
static inline __attribute__((always_inline)) void aes_clear_portable_registers(void) {
  fm_clear_sse_registers();
}
#elif defined(__aarch64__)
/* aes_clear_portable_registers zeroes v0-v31, which the compiler's vectorized copies use. */
static inline __attribute__((always_inline)) void aes_clear_portable_registers(void) {
  fm_clear_neon_registers();
}
#else
#error "module/aes/internal.h clears the vector registers of x86-64 and aarch64 only"
#endif

/* aes_ctr_state is a counter block as a host-order 128-bit integer in two words, for the x86-64
 * fast paths (little-endian host, GCC/Clang builtins). The helpers below never branch on its
 * value: it may be secret (the DRBG's V). */
typedef struct aes_ctr_state {
  uint64_t hi, lo;
} aes_ctr_state;

/* aes_ctr_load reads a big-endian counter block. */
static inline aes_ctr_state aes_ctr_load(const uint8_t ctr[16]) {
  uint64_t hi, lo;
  memcpy(&hi, ctr, 8);
  memcpy(&lo, ctr + 8, 8);
  return (aes_ctr_state){__builtin_bswap64(hi), __builtin_bswap64(lo)};
}

/* aes_ctr_store writes |c| back as a big-endian counter block. */
static inline void aes_ctr_store(uint8_t ctr[16], aes_ctr_state c) {
  const uint64_t hi = __builtin_bswap64(c.hi), lo = __builtin_bswap64(c.lo);
  memcpy(ctr, &hi, 8);
  memcpy(ctr + 8, &lo, 8);
}

/* aes_ctr_add returns c + n: mod 2^128 for width 128; for width 32 only the low 32 bits change
 * (mod 2^32). The carry is computed with add-with-carry arithmetic, not a branch. */
static inline aes_ctr_state aes_ctr_add(aes_ctr_state c, uint64_t n, int width) {
  if (width == 32) {
    c.lo = (c.lo & 0xffffffff00000000ull) | (uint32_t)(c.lo + n);
  } else {
    __extension__ unsigned __int128 v = ((unsigned __int128)c.hi << 64 | c.lo) + n;
    c.hi = (uint64_t)(v >> 64);
    c.lo = (uint64_t)v;
  }
  return c;
}

/* ==== GCM (SP 800-38D): GHASH and the mode (ghash*.c, gcm*.c) ============================
 * GHASH works on the "reflected" form of a field element: the 16 bytes of a block read as one
 * big-endian 128-bit integer, kept as two host words {lo, hi}. In that form the GCM product
 * X * H is a Montgomery product (modulus x^128 + x^127 + x^126 + x^121 + 1, R = x^128) of X and
 * H' = H * x, so the key holds H' and its powers; ghash.c says why. Everything here is secret
 * (H, its powers, the hash state, the data) except lengths and block counts. */

/* ghash_key holds the powers of H' that the paths use: hdesc[j] = H'^(16 - j), so hdesc[15] is
 * H' itself and the last n entries are the multipliers of an n-block aggregated pass. |npow| is
 * how many of them were computed (16 on CPUs with PCLMULQDQ, 1 on the portable path). */
typedef struct ghash_key {
  _Alignas(64) uint64_t hdesc[16][2]; /* {lo, hi} each */
  uint32_t npow;
} ghash_key;

/* ghash_key_init derives |gk| from the hash subkey H = E_K(0^128) (|h|, 16 bytes). */
void ghash_key_init(ghash_key *gk, const uint8_t h[16]);

/* ghash_blocks absorbs |nblocks| whole 16-byte blocks at |in| into the state |y| ({lo, hi}
 * reflected form): y = (y ^ X_i) * H for each block (SP 800-38D 6.4). Picks the widest path the
 * CPU allows: VPCLMULQDQ on 512- or 256-bit registers, PCLMULQDQ, or the portable
 * constant-time multiply. */
void ghash_blocks(const ghash_key *gk, uint64_t y[2], const uint8_t *in, size_t nblocks);

/* ghash_blocks_portable is the portable path alone (no table, no secret-dependent branch: the
 * carry-less products come from integer multiplies of operands with holes). */
void ghash_blocks_portable(const ghash_key *gk, uint64_t y[2], const uint8_t *in, size_t nblocks);

/* ghash_mul_portable sets |y| = y * H'^1 (one Montgomery product, the portable way). */
void ghash_mul_portable(uint64_t y[2], const uint64_t h[2]);

/* The GHASH paths (ghash_clmul.c), for dispatch and tests. */
enum {
  GHASH_PATH_PORTABLE = 0,
  GHASH_PATH_CLMUL = 1,       /* PCLMULQDQ, 8 blocks per reduction */
  GHASH_PATH_VPCLMUL256 = 2,  /* VPCLMULQDQ on 256-bit registers, 8 blocks per reduction */
  GHASH_PATH_VPCLMUL512 = 3,  /* VPCLMULQDQ on 512-bit registers, 16 blocks per reduction */
};

/* ghash_path returns the GHASH_PATH_* that ghash_blocks takes on this CPU (public). */
int ghash_path(void);

/* ghash_clmul_powers fills gk->hdesc from H' = hdesc[15] with PCLMULQDQ (fm_cpu_use(PCLMULQDQ)). */
void ghash_clmul_powers(ghash_key *gk);

/* ghash_clmul_blocks, ghash_vpclmul256_blocks, ghash_vpclmul512_blocks: the fast paths; need
 * gk->npow == 16 and the CPU features of their path. */
void ghash_clmul_blocks(const ghash_key *gk, uint64_t y[2], const uint8_t *in, size_t nblocks);
void ghash_vpclmul256_blocks(const ghash_key *gk, uint64_t y[2], const uint8_t *in, size_t nblocks);
void ghash_vpclmul512_blocks(const ghash_key *gk, uint64_t y[2], const uint8_t *in, size_t nblocks);

#if defined(FIPSMOD_TEST_HOOKS)
/* ghash_limit_path_for_testing caps the GHASH path (a GHASH_PATH_*, -1 = no cap) so that tests
 * reach every path this CPU has. Test builds only; not thread-safe against concurrent use. */
void ghash_limit_path_for_testing(int max_path);
#endif

#if defined(FIPSMOD_TEST_HOOKS)
struct fm_gcm_key;
/* gcm_set_invocations_for_testing sets the invocation count of a GCM key (gcm.c), so that tests
 * reach the SP 800-38D 8.3 limit. Test builds only. */
void gcm_set_invocations_for_testing(struct fm_gcm_key *k, uint64_t n);
/* gcm_set_iv_base_for_testing sets a counter key's first invocation field (drawn from the DRBG
 * at key set-up), so that a test can run one service twice with the same IVs. */
void gcm_set_iv_base_for_testing(struct fm_gcm_key *k, uint64_t base);
#endif

/* ghash_key_path returns the GHASH_PATH_* that ghash_blocks takes for |gk| (its powers, the CPU,
 * and in test builds the cap of ghash_limit_path_for_testing). */
int ghash_key_path(const ghash_key *gk);

/* gcm_vaes512_crypt is GCM's bulk step stitched on 512-bit registers (gcm_vaes.c): for the first
 * 16 * floor(nblocks / 16) blocks it writes out = in ^ E(ctr + i) (inc32 counters, |ctr| left one
 * past the last) and absorbs the ciphertext (|in| when |decrypt|, else |out|) into the GHASH state
 * |y|, the AES rounds of one 16-block pass interleaved with the carry-less multiplies of the
 * previous (encryption) or the same (decryption) pass. Returns the blocks done. in and out may
 * alias exactly. Only when aes_ni_path() is AES_PATH_VAES_AVX512 and ghash_key_path() is
 * GHASH_PATH_VPCLMUL512. */
size_t gcm_vaes512_crypt(const aes_ks *ks, const ghash_key *gk, uint8_t ctr[16], uint64_t y[2],
                         const uint8_t *in, uint8_t *out, size_t nblocks, int decrypt);

/* gcm_vaes512_crypt_all is gcm_vaes512_crypt for all |nblocks| blocks (any count, 0 included):
 * the blocks after the last 16-block pass run in one more pass under masks. When |stream| is not
 * NULL it also writes the key stream block E(ctr + nblocks) there (the partial block that follows
 * the whole ones) and leaves |ctr| one past it. Same conditions and aliasing rule. Returns the
 * lowest stack address its kernels may have written (their frames, the red zone below the
 * deepest included), or UINTPTR_MAX when no kernel ran: the stack between it and the caller's
 * frame holds the secrets the kernels spilled, which aes_bulk_stack_wipe_from wipes. */
uintptr_t gcm_vaes512_crypt_all(const aes_ks *ks, const ghash_key *gk, uint8_t ctr[16],
                                uint64_t y[2], const uint8_t *in, uint8_t *out, size_t nblocks,
                                uint8_t *stream, int decrypt);

/* gcm_vaes256_crypt is gcm_vaes512_crypt on 256-bit registers (gcm_vaes256.c), also in 16-block
 * passes: it does the first 16 * floor(nblocks / 16) blocks and returns how many. Same arguments,
 * counters and aliasing rule. Only when fm_cpu_use(FM_CPU_AESNI | FM_CPU_VAES), ghash_path() is
 * GHASH_PATH_VPCLMUL256 or GHASH_PATH_VPCLMUL512 (VPCLMULQDQ present) and gk->npow == 16; gcm.c
 * takes it when aes_ni_path() is AES_PATH_VAES_AVX2 and ghash_key_path() is
 * GHASH_PATH_VPCLMUL256. */
size_t gcm_vaes256_crypt(const aes_ks *ks, const ghash_key *gk, uint8_t ctr[16], uint64_t y[2],
                         const uint8_t *in, uint8_t *out, size_t nblocks, int decrypt);

/* ---- GCM blocks and one-shots (gcm.c, gcm_oneshot.c) ------------------------------------- */

#if FM_HAVE_X86_64_PATHS
#include <emmintrin.h>
#endif

/* j0_block writes IV || 0^24 || |last| (J0 = IV || 0^31 || 1, and the counters after it) to
 * |out| (public). On x86-64 in one 16-byte store: the AES code reads the block back at once as
 * one 16-byte load, which the CPU forwards from a single store but not from the several that a
 * copy and a byte store make (it then waits for them to reach the cache). */
static inline void j0_block(uint8_t out[16], const uint8_t iv[12], uint8_t last) {
#if FM_HAVE_X86_64_PATHS
  uint64_t a;
  uint32_t b;
  memcpy(&a, iv, 8);
  memcpy(&b, iv + 8, 4);
  const __m128i v = _mm_set_epi64x((long long)((uint64_t)b | ((uint64_t)last << 56)), (long long)a);
  _mm_storeu_si128((__m128i *)(void *)out, v);
#else
  memcpy(out, iv, 12);
  out[12] = 0;
  out[13] = 0;
  out[14] = 0;
  out[15] = last;
#endif
}

/* block_store writes the block of the little-endian words |lo| (bytes 0-7) and |hi| (8-15): on
 * x86-64 in one 16-byte store, which the GHASH code's 16-byte load that follows can be forwarded
 * from (see j0_block). */
static inline void block_store(uint8_t out[16], uint64_t lo, uint64_t hi) {
#if FM_HAVE_X86_64_PATHS
  _mm_storeu_si128((__m128i *)(void *)out, _mm_set_epi64x((long long)hi, (long long)lo));
#else
  memcpy(out, &lo, 8);
  memcpy(out + 8, &hi, 8);
#endif
}

/* le_get_upto8 returns the |n| (0..8, public) bytes at |p| as a little-endian word, zero above
 * them: in at most three loads whose sizes are n's bits, with no loop over the bytes. A loop that
 * ORs each byte into a word of a two-word array keeps the array in memory, and each byte's
 * read-modify-write then waits on the one before through the store buffer (about 15 ns for a
 * 13-byte AAD rest on a Sapphire Rapids core). The module's targets are little-endian hosts. */
static inline uint64_t le_get_upto8(const uint8_t *p, size_t n) {
  static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "le_get_upto8 reads host words");
  uint64_t v = 0;
  if (n == 8) {
    memcpy(&v, p, 8);
    return v;
  }
  if (n & 4) {
    uint32_t t;
    memcpy(&t, p, 4);
    v = t;
  }
  if (n & 2) {
    uint16_t t;
    memcpy(&t, p + (n & 4), 2);
    v |= (uint64_t)t << (8 * (n & 4));
  }
  if (n & 1) v |= (uint64_t)p[n & 6] << (8 * (n & 6));
  return v;
}

/* le_put_upto8 stores the low |n| (0..8, public) bytes of the little-endian word |v| at |p| and
 * nothing else, le_get_upto8's way. */
static inline void le_put_upto8(uint8_t *p, size_t n, uint64_t v) {
  if (n == 8) {
    memcpy(p, &v, 8);
    return;
  }
  if (n & 4) {
    const uint32_t t = (uint32_t)v;
    memcpy(p, &t, 4);
  }
  if (n & 2) {
    const uint16_t t = (uint16_t)(v >> (8 * (n & 4)));
    memcpy(p + (n & 4), &t, 2);
  }
  if (n & 1) p[n & 6] = (uint8_t)(v >> (8 * (n & 6)));
}

/* le_get_block reads the |n| (0..16, public) bytes at |p| as the little-endian words *lo (bytes
 * 0-7) and *hi (8-15), zero past n; le_put_block stores the first |n| bytes of such a block. */
static inline void le_get_block(const uint8_t *p, size_t n, uint64_t *lo, uint64_t *hi) {
  *lo = le_get_upto8(p, n < 8 ? n : 8);
  *hi = n > 8 ? le_get_upto8(p + 8, n - 8) : 0;
}
static inline void le_put_block(uint8_t *p, size_t n, uint64_t lo, uint64_t hi) {
  le_put_upto8(p, n < 8 ? n : 8, lo);
  if (n > 8) le_put_upto8(p + 8, n - 8, hi);
}

/* le_mask_upto8 is the mask of a word's low |n| (0..8, public) bytes. */
static inline uint64_t le_mask_upto8(size_t n) {
  return n >= 8 ? ~(uint64_t)0 : ((uint64_t)1 << (8 * n)) - 1;
}

/* GCM_SHORT_MAX: the most bytes each of AAD and text that gcm_short_one_shot takes. */
#define GCM_SHORT_MAX 240

/* gcm_short_one_shot and gcm_stitched_one_shot (x86-64; gcm_vaes512_crypt_all's conditions)
 * seal (|decrypt| 0) or open a message under the 96-bit |iv| with the schedule |ks| and GHASH key
 * |gh|, writing |len| bytes to |out| and the full tag to |full|. Never inlined; they wipe what
 * they wrote but not the stack below them, which their caller wipes (AES_BULK_STACK_WIPE;
 * gcm_stitched_one_shot returns gcm_vaes512_crypt_all's lowest address, for
 * aes_bulk_stack_wipe_from). */
void gcm_short_one_shot(const aes_ks *ks, const ghash_key *gh, const uint8_t iv[12],
                        const uint8_t *aad, size_t aad_len, const uint8_t *in, uint8_t *out,
                        size_t len, int decrypt, uint8_t full[16]);
uintptr_t gcm_stitched_one_shot(const aes_ks *ks, const ghash_key *gh, const uint8_t iv[12],
                                const uint8_t *aad, size_t aad_len, const uint8_t *in,
                                uint8_t *out, size_t len, int decrypt, uint8_t full[16]);


/* aes_cast runs this unit's CAST |id| (aes_cast.c): the AES tests FM_ST_AES128_ECB_ENC_KAT ..
 * FM_ST_AES192_BULK_KAT and the GCM tests FM_ST_AES128_GCM_ENC_KAT .. FM_ST_AES192_GCM_KAT,
 * through the public services; selftest/ calls it. FM_OK, FM_ERR_SELFTEST for a wrong answer, the
 * failing call's status, or FM_ERR_INTERNAL for an id that is not this unit's. */
int aes_cast(fm_selftest_id id);

/* aes_cast_constants_probe returns the address of one of the CASTs' vectors, which the integrity
 * check must find inside the segments it hashes. */
const void *aes_cast_constants_probe(void);

#endif
