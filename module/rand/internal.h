/* What module/rand offers the rest of the module (the self-tests, RSA key generation) and what
 * its files share: the CTR_DRBG mechanism without the public API's gate and checks, the entropy
 * source with its SP 800-90B health tests, the per-thread states of the process RNG, and the
 * test-only entry points. */
#ifndef FIPSMOD_MODULE_RAND_INTERNAL_H
#define FIPSMOD_MODULE_RAND_INTERNAL_H

#include <assert.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fipsmod/drbg.h"
#include "module/internal.h"
#include "module/aes/internal.h"

/* ---- CTR_DRBG mechanism (ctr_drbg.c) ----------------------------------------------------- */

#define CTR_DRBG_KEY_LEN 32
#define CTR_DRBG_BLOCK_LEN 16
#define CTR_DRBG_SEED_LEN 48
#define CTR_DRBG_MAGIC 0x43445242u /* "CDRB": the state is instantiated */

/* ctr_drbg_state is the working state of one AES-256 CTR_DRBG (SP 800-90Ar1 10.2.1.1): Key (and
 * its expanded schedule, kept so that a generate request expands the key only once), V and the
 * reseed counter. The fused short generate (AES-NI, up to 64 bytes) expands Key on the fly and
 * leaves |ks| stale; whatever uses |ks| next rebuilds it first. Everything but |flags|, |magic|
 * and |ks_stale| is secret. */
typedef struct ctr_drbg_state {
  aes_ks ks;                       /* schedule of |key|, unless |ks_stale| */
  uint8_t key[CTR_DRBG_KEY_LEN];   /* Key */
  uint8_t v[CTR_DRBG_BLOCK_LEN];   /* V */
  uint64_t reseed_counter;         /* requests since the last (re)seed, plus one */
  uint32_t flags;                  /* FM_DRBG_USE_DF | FM_DRBG_PREDICTION_RESISTANCE */
  uint32_t magic;                  /* CTR_DRBG_MAGIC when instantiated */
  uint32_t ks_stale;               /* 1: |ks| is not the schedule of |key| */
} ctr_drbg_state;

static_assert(sizeof(ctr_drbg_state) <= sizeof(fm_ctr_drbg), "fm_ctr_drbg too small");
static_assert(_Alignof(ctr_drbg_state) <= _Alignof(fm_ctr_drbg), "fm_ctr_drbg misaligned");

/* ctr_drbg_instantiate_nodf (10.2.1.3.1) seeds |st| from exactly 48 bytes of |entropy| (secret)
 * and |pers_len| <= 48 bytes of personalization. No argument checks. */
void ctr_drbg_instantiate_nodf(ctr_drbg_state *st, const uint8_t entropy[CTR_DRBG_SEED_LEN],
                               const uint8_t *pers, size_t pers_len);

/* ctr_drbg_reseed_nodf (10.2.1.4.1) reseeds |st| from 48 bytes of |entropy| (secret) and
 * |ai_len| <= 48 bytes of additional input. No argument checks. */
void ctr_drbg_reseed_nodf(ctr_drbg_state *st, const uint8_t entropy[CTR_DRBG_SEED_LEN],
                          const uint8_t *ai, size_t ai_len);

/* ctr_drbg_generate_nodf (10.2.1.5.1, steps 2-7) writes |out_len| <= FM_DRBG_MAX_REQUEST bytes
 * (secret) and updates |st|; |ai_len| <= 48. It does not check the reseed counter (the caller
 * reseeds on its own schedule) but does increment it. No argument checks. */
void ctr_drbg_generate_nodf(ctr_drbg_state *st, uint8_t *out, size_t out_len, const uint8_t *ai,
                            size_t ai_len);

/* ctr_drbg_wipe zeroizes |st| (SP 800-90Ar1 9.4). */
void ctr_drbg_wipe(ctr_drbg_state *st);

/* ---- Vector-register residue ---------------------------------------------------------------
 * The compiler moves 16-byte blocks (memcpy of a key, a vectorized xor) through xmm registers,
 * and nothing clears them on return: a signal frame or the next function's spill then writes the
 * secret to memory. The DRBG's generate, reseed and instantiate functions (ctr_drbg.c) end with
 * fm_wipe_vector_registers (module/internal.h: every register the CPU has, zmm16-31 included,
 * which libc's copies use in a program linked with libfipsmod.a); the UUID formatting, on the
 * hot path of the string draws and with no libc call, with rand_wipe_vector_regs below (xmm0-15,
 * the registers its own code uses). The word draws' fast paths use general registers only and
 * need neither. (The AES kernels clear their own registers: module/aes.) */

/* rand_wipe_vector_regs zeroes xmm0-15 with legacy-SSE zero idioms (module/internal.h), and with
 * AVX2 in use also the upper bits of ymm0-15/zmm0-15, by vzeroupper, which leaves the upper state
 * clean for the SSE code that follows. */
#if defined(__x86_64__)
static inline void rand_wipe_vector_regs(void) {
  fm_clear_sse_registers();
  if (fm_cpu_use(FM_CPU_AVX2)) __asm__ __volatile__("vzeroupper" : : : FM_XMM0_15, "memory");
}
#elif defined(__aarch64__)
/* aarch64: v0-v31 (module/internal.h). */
static inline void rand_wipe_vector_regs(void) { fm_clear_neon_registers(); }
#else
#error "module/rand/internal.h clears the vector registers of x86-64 and aarch64 only"
#endif

/* ---- Entropy source and health tests (entropy.c) ----------------------------------------- */

/* The SP 800-90B continuous health tests run on the byte stream of the source (one sample = one
 * byte, assessed min-entropy H = 8 bits per sample; false-positive rate alpha = 2^-40 per test
 * decision, 90B 4.4):
 *  - repetition count test (4.4.1): cutoff C = 1 + ceil(40 / 8) = 6 identical bytes in a row;
 *  - adaptive proportion test (4.4.2): window W = 512, cutoff C = 1 + CRITBINOM(W, 2^-H, 1 - alpha)
 *    = 1 + 18 = 19: 18 is the least k with P[Binomial(512, 2^-8) <= k] >= 1 - 2^-40
 *    (P[X >= 18] = 4.9e-12 > 2^-40 = 9.1e-13, P[X >= 19] = 4.9e-13 <= 2^-40). The test fails
 *    when the window's first sample has occurred C = 19 times (counting itself);
 *    tests/rand/test_rand_apt.c recomputes C from the binomial distribution and checks both
 *    sides of the boundary;
 *  - plus a continuous comparison of consecutive 16-byte blocks within one request.
 * A context holds the tests' running state for one stream of requests (one per thread). */
#define ENTROPY_RCT_CUTOFF 6
#define ENTROPY_APT_WINDOW 512
#define ENTROPY_APT_CUTOFF 19
#define ENTROPY_STARTUP_SAMPLES 1024

typedef struct entropy_health {
  uint32_t rct_count; /* length of the current run of rct_last */
  uint32_t apt_count; /* occurrences of apt_first in the current window */
  uint32_t apt_pos;   /* samples seen in the current window (0 = a new window starts) */
  uint8_t rct_last;   /* the last sample (secret, wiped with the context) */
  uint8_t apt_first;  /* the window's first sample (secret) */
  uint8_t started;    /* rct_last is valid */
  uint8_t reserved;
} entropy_health;

/* entropy_health_init resets |h| to the start of a stream. */
void entropy_health_init(entropy_health *h);

/* fm_entropy_get fills |out| (|len| bytes, secret) from the entropy source (the getrandom system
 * call, issued directly; it blocks until the kernel's pool is seeded; EINTR and short reads are
 * retried, ENOSYS and any other error fail the source) and runs the
 * continuous health tests over it with the running state |h|. Returns FM_OK, or FM_ERR_ENTROPY
 * (source error or health-test failure: |out| is wiped, the failure is recorded with
 * fm_selftest_record_conditional, which moves the module to ERROR). Async-signal-safe except for
 * the failure path. */
int fm_entropy_get(entropy_health *h, uint8_t *out, size_t len);

/* fm_entropy_health_passes returns how many seed requests have passed the continuous health
 * tests in this process (public; the self-test report shows it). */
uint64_t fm_entropy_health_passes(void);

/* fm_entropy_startup_test runs the SP 800-90B start-up test (4.3): the continuous tests over
 * ENTROPY_STARTUP_SAMPLES consecutive fresh samples, discarded afterwards. Returns FM_OK or
 * FM_ERR_ENTROPY. It does not record the outcome itself (the power-on runner does). */
int fm_entropy_startup_test(void);

/* ---- The process RNG (rand.c), used by uniform.c and uuid.c ----------------------------- */

/* Bytes one batch refill generates (one generate request per RAND_BATCH_LEN bytes of small
 * draws). */
#define RAND_BATCH_LEN 4096

/* fm_rand_bytes draws of at most RAND_SMALL_DRAW bytes come from the batch; longer ones are
 * generate requests of their own. */
#define RAND_SMALL_DRAW 32

/* rand_take_batch copies |len| (1..64) random bytes (secret) from the calling thread's batch to
 * |out|, wiping each byte it hands out; refills the batch with one generate request when it runs
 * short. Returns FM_OK or an error (|out| wiped). The caller has passed the module gate. */
int rand_take_batch(uint8_t *out, size_t len);

/* rand_take_8 / rand_take_12 / rand_take_16 are rand_take_batch for a fixed length (the copy
 * and the wipe inlined; 12 is a GCM IV). */
int rand_take_8(uint8_t out[8]);
int rand_take_12(uint8_t out[12]);
int rand_take_16(uint8_t out[16]);

/* ---- Fork detection (fork_detect.c), used by rand.c ------------------------------------ */

/* Fork-detection modes of the process RNG. */
enum rand_fork_mode {
  RAND_FORK_WIPEONFORK = 1, /* MADV_WIPEONFORK page verified by a probe child (first state) */
  RAND_FORK_ATFORK = 2,     /* pthread_atfork child handler only */
  RAND_FORK_NONE = 3,       /* no detection: fresh entropy as additional input on every call */
};

/* Where the current fork generation is read (a draw loads the pointer, then the word: both
 * change only at init, in a child and at unload), the mode (enum rand_fork_mode), the
 * fork-unsafe buffering opt-out (fm_rand_enable_fork_unsafe_buffering) and whether cleanup's
 * fence is a membarrier() (then the owners' side of the busy-flag pairing is a plain store). All
 * written by fork_detect.c only. */
extern FM_INTERNAL _Atomic(_Atomic uint64_t *) rand_g_gen_ptr;
extern FM_INTERNAL _Atomic int rand_g_fork_mode;
extern FM_INTERNAL _Atomic int rand_g_fork_unsafe_buffering;
extern FM_INTERNAL bool rand_g_asym;

/* rand_fork_generation_fast is the generation as a steady-state draw sees it (two loads, the
 * pointer with acquire so that the probe's page is seen as written: a plain load on x86-64; 0 in a
 * WIPEONFORK child that has not claimed a number yet, always 0 in NONE mode). */
static inline uint64_t rand_fork_generation_fast(void) {
  _Atomic uint64_t *word = atomic_load_explicit(&rand_g_gen_ptr, memory_order_acquire);
  return atomic_load_explicit(word, memory_order_relaxed);
}

/* rand_fork_detect_init registers the atfork child handler and the membarrier fence and sets the
 * mode (ATFORK, or NONE without the handler). Called once, by rand_init, at load. */
void rand_fork_detect_init(size_t page_size);

/* rand_fork_probe checks, once per process, that the kernel honours MADV_WIPEONFORK (a probe
 * child made by a raw clone()) and if so moves the generation into such a page (WIPEONFORK
 * mode). rand_state_create calls it before the first state is made; it runs no libc function
 * that takes a lock, and a caller that finds another thread probing returns at once. */
void rand_fork_probe(void);

/* rand_fork_generation is the slow path's generation: a WIPEONFORK child claims a fresh number
 * here, and a child registers for membarrier again before it makes a fast draw. Never 0 outside
 * NONE mode. Lock-free and async-signal-safe. */
uint64_t rand_fork_generation(void);

/* rand_fork_states_wipeonfork is true when new state pages are to be marked MADV_WIPEONFORK. */
bool rand_fork_states_wipeonfork(void);

/* rand_fork_fence_all makes every running thread of the process execute a full fence
 * (membarrier) when rand_g_asym is set; nothing otherwise. Cleanup's side of the busy flags. */
void rand_fork_fence_all(void);

/* rand_fork_set_mode switches the mode (init, and the test hook). */
void rand_fork_set_mode(int mode);

/* rand_fork_detect_unload unmaps the generation page (module unload). */
void rand_fork_detect_unload(void);

/* rand_registry_fork_child (rand.c) runs in the child of fork(), from the atfork child handler:
 * it wipes and frees the states of the threads that did not come along. */
void rand_registry_fork_child(void);

/* rand_init (rand.c) initializes the process RNG once (pthread_once): the page size, the pthread
 * key whose destructor frees a thread's state, and fork detection. It runs at load, from the
 * power-on entry (fm_rand_power_on), so that no draw ever waits for it: a first draw from a signal handler inside
 * fork() would otherwise wait on glibc's atfork lock through pthread_atfork. */
void rand_init(void);

/* ---- Test-only entry points ------------------------------------------------------------- */
#if defined(FIPSMOD_TEST_HOOKS)
/* fm_entropy_set_stuck_source_for_testing(1) makes the entropy source return |byte| repeated
 * (a stuck noise source); 0 restores getrandom(2). */
void fm_entropy_set_stuck_source_for_testing(int on, uint8_t byte);

/* fm_entropy_mark_secret_for_testing(1) makes every entropy request that passes the health
 * tests mark its bytes undefined for valgrind memcheck, so constant-time tests follow the
 * entropy into the DRBG state, RSA blinding values and PSS salts. */
void fm_entropy_mark_secret_for_testing(int on);

/* fm_entropy_set_pattern_source_for_testing makes the entropy source return |pattern| (up to 1024
 * bytes) over and over, continuing where the last request stopped; NULL restores getrandom(2).
 * For single-threaded tests. */
void fm_entropy_set_pattern_source_for_testing(const uint8_t *pattern, size_t len);

/* fm_ctr_drbg_state_for_testing copies Key and V of an instantiated |drbg|; returns FM_OK or
 * FM_ERR_STATE. */
int fm_ctr_drbg_state_for_testing(const fm_ctr_drbg *drbg, uint8_t key[32], uint8_t v[16]);

/* fm_ctr_drbg_set_reseed_counter_for_testing sets the reseed counter (to reach the interval). */
int fm_ctr_drbg_set_reseed_counter_for_testing(fm_ctr_drbg *drbg, uint64_t counter);

/* fm_rand_fork_mode_for_testing returns the detected mode (RAND_FORK_*), initializing the RNG. */
int fm_rand_fork_mode_for_testing(void);

/* fm_rand_force_fork_mode_for_testing switches the mode (weaker modes only make sense for tests;
 * call before starting threads). */
void fm_rand_force_fork_mode_for_testing(int mode);

/* Counters of the calling thread's state (0 when it has none): generate requests since the last
 * (re)seed, (re)seeds so far (the first seeding counts), bytes left in the batch. */
uint64_t fm_rand_calls_since_seed_for_testing(void);
uint64_t fm_rand_reseeds_for_testing(void);
uint64_t fm_rand_batch_left_for_testing(void);

/* fm_rand_fork_generation_for_testing returns the current fork generation (starts at 1, changes
 * in each child that draws). */
uint64_t fm_rand_fork_generation_for_testing(void);

/* fm_rand_set_fork_counter_for_testing sets the last generation handed out in this lineage (the
 * next child claims |last| + 1), so that a test can start the counter anywhere (near its wrap,
 * say) without changing its initial value in the code. */
void fm_rand_set_fork_counter_for_testing(uint64_t last);

/* fm_rand_oneoff_draws_for_testing returns how many draws a one-off DRBG served (re-entry from a
 * signal handler, or no state). */
uint64_t fm_rand_oneoff_draws_for_testing(void);

/* fm_uuid_v7_set_last_for_testing sets the last (timestamp, counter) handed out by fm_uuid_v7. */
void fm_uuid_v7_set_last_for_testing(uint64_t ms, uint32_t counter);
/* fm_uuid_clock_span_for_testing is the calling thread's TSC interval of the millisecond it last
 * read (uuid.c's clock): non-zero once a rate is measured, only with an invariant TSC. */
uint64_t fm_uuid_clock_span_for_testing(void);

/* fm_rand_registry_size_for_testing returns the number of live per-thread states. */
size_t fm_rand_registry_size_for_testing(void);

/* fm_rand_unseed_state_for_testing wipes the calling thread's state (DRBG, batch, counters, the
 * seeded word) but sets its fork-generation cookie to the current generation: what a zeroed state
 * looks like when the generation inverts to its cookie. The next draw must seed it before any
 * output. Returns FM_OK, or FM_ERR_STATE when the thread has no state yet. */
int fm_rand_unseed_state_for_testing(void);

/* fm_rand_all_states_zero_for_testing returns true when every registered state reads as zeros
 * (what fm_module_cleanup must leave behind). */
bool fm_rand_all_states_zero_for_testing(void);
#endif

/* rand_cast runs this unit's CAST |id| (rand_cast.c: FM_ST_CTR_DRBG_DF_KAT, _NODF_KAT,
 * _BULK_KAT, _UNINSTANTIATE_KAT and the entropy source's FM_ST_ENTROPY_STARTUP); selftest/ calls
 * it. FM_OK, FM_ERR_SELFTEST for a wrong answer, the failing call's status, or FM_ERR_INTERNAL
 * for an id that is not this unit's. */
int rand_cast(fm_selftest_id id);

#endif
