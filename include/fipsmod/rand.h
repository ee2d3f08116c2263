/** @file
 * The process random number generator.
 *
 * Each thread draws from its own SP 800-90A AES-256 CTR_DRBG (no derivation function; seeded with
 * 48 bytes of full entropy from the getrandom system call that pass SP 800-90B health tests),
 * created on its first draw. libfipsmod.so issues that system call itself (the syscall
 * instruction, not libc's getrandom() or syscall()) and uses its own memcpy/memset, so an
 * LD_PRELOAD library can neither feed the DRBGs nor see the bytes they hand out. A thread's DRBG is reseeded every 4096 generate requests, after fork() (the child
 * never repeats the parent's output), and on fm_rand_reseed. Thread exit zeroizes the thread's
 * state; fm_module_cleanup() and process exit zeroize every state, after which every function
 * here returns FM_ERR_NOT_OPERATIONAL at once, from any thread.
 *
 * Every function is thread-safe and may be called from a signal handler that interrupted another
 * draw on the same thread (the nested draw uses a one-off DRBG from fresh entropy: never the same
 * bytes twice), or that interrupted fork() or any other code: no draw, not even a thread's
 * first, waits on a lock. Unloading libfipsmod.so (dlclose) unmaps the RNG's memory and deletes
 * its pthread key; loading and unloading it repeatedly leaks nothing. Every function starts with the module's state gate: outside OPERATIONAL it wipes
 * its outputs and returns FM_ERR_NOT_OPERATIONAL. FM_ERR_ENTROPY means the entropy source or its
 * health tests failed; the module is then in the ERROR state. Every function checks the module
 * state first, then its arguments. On any error the outputs are wiped (only as far as the call
 * could have written them). Every output is secret. */
#ifndef FIPSMOD_RAND_H
#define FIPSMOD_RAND_H

#include <stddef.h>
#include <stdint.h>
#include "fipsmod/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The most additional input fm_rand_bytes_with_input takes (the DRBG's seedlen). */
#define FM_RAND_MAX_ADDITIONAL_INPUT 48

/** fm_rand_bytes writes |len| random bytes to |out|. A draw of 1 to 32 bytes is taken from the
 * calling thread's batch, as fm_rand_u64's are (see there); a longer one is split into requests
 * of at most 65536 bytes, each one generate call. Returns FM_OK; FM_ERR_BAD_ARGUMENT (out NULL with
 * len > 0); FM_ERR_LENGTH (len > PTRDIFF_MAX, larger than any object: |out| is not touched);
 * FM_ERR_ENTROPY; FM_ERR_NOT_OPERATIONAL. len 0 returns FM_OK. */
FM_MUST_CHECK
FM_API int fm_rand_bytes(uint8_t *out, size_t len);

/** fm_rand_bytes_with_input is fm_rand_bytes with additional input |ai| (0..48 bytes, public or
 * secret) mixed into the first generate request (SP 800-90Ar1 10.2.1.5.1, step 2).
 * FM_ERR_BAD_ARGUMENT (NULL with a non-zero length); FM_ERR_LENGTH (ai_len > 48); otherwise as
 * fm_rand_bytes. */
FM_MUST_CHECK
FM_API int fm_rand_bytes_with_input(uint8_t *out, size_t len, const uint8_t *ai, size_t ai_len);

/** fm_rand_reseed reseeds the calling thread's DRBG from the entropy source now and drops its
 * batch. Returns FM_OK, FM_ERR_ENTROPY or FM_ERR_NOT_OPERATIONAL. */
FM_MUST_CHECK
FM_API int fm_rand_reseed(void);

/** fm_rand_enable_fork_unsafe_buffering(1) declares that the process will not draw random bytes in
 * a child after fork() without first calling fm_rand_reseed there. It only matters where the
 * kernel offers no fork detection (no working MADV_WIPEONFORK, and a fork that bypasses
 * pthread_atfork): the RNG then stops mixing fresh OS entropy into every request. 0 restores the
 * default. The flag is an atomic; calls from any thread take effect at the next draw. Returns
 * FM_OK, FM_ERR_BAD_ARGUMENT (not 0 or 1) or FM_ERR_NOT_OPERATIONAL. */
FM_MUST_CHECK
FM_API int fm_rand_enable_fork_unsafe_buffering(int enable);

/** fm_rand_u32 / fm_rand_u64 write a uniformly random word to |*out|, taken from the calling
 * thread's batch of random bytes (refilled with one generate request when empty; each byte is
 * wiped as it is handed out; the batch is dropped on fork, reseed, cleanup and error).
 * FM_ERR_BAD_ARGUMENT (NULL); otherwise as fm_rand_bytes. */
FM_MUST_CHECK
FM_API int fm_rand_u32(uint32_t *out);
FM_MUST_CHECK
FM_API int fm_rand_u64(uint64_t *out);

/** fm_rand_uniform writes a uniformly random value in [0, bound) to |*out|, without bias
 * (multiply-and-reject on 64-bit draws from the batch; the bound is public, the value secret).
 * FM_ERR_BAD_ARGUMENT (NULL out); FM_ERR_OUT_OF_RANGE (bound 0); otherwise as fm_rand_u64. */
FM_MUST_CHECK
FM_API int fm_rand_uniform(uint64_t bound, uint64_t *out);

#ifdef __cplusplus
}
#endif
#endif
