/* What the directories of the module share: zeroization, constant-time helpers, the service
 * gate and the CPU paths. Nothing here is exported from libfipsmod.so. */
#ifndef FIPSMOD_MODULE_INTERNAL_H
#define FIPSMOD_MODULE_INTERNAL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fipsmod/module.h"
#include "fipsmod/status.h"

/* ---- Zeroization ------------------------------------------------------------------------- */

/* fm_zeroize sets |len| bytes at |p| to zero with a write the compiler cannot remove (the store
 * is followed by a compiler barrier that claims to read the memory). NULL with len 0 is fine. */
void fm_zeroize(void *p, size_t len);

/* ---- Constant-time helpers ----------------------------------------------------------------
 * Masks are all-ones (true) or all-zeros (false). None of these branch on their arguments. */

/* ct_value_barrier_u64 hides |x| from the optimizer so it cannot turn mask arithmetic back into
 * a branch. */
static inline uint64_t ct_value_barrier_u64(uint64_t x) {
  __asm__("" : "+r"(x));
  return x;
}
static inline uint32_t ct_value_barrier_u32(uint32_t x) {
  __asm__("" : "+r"(x));
  return x;
}

/* ct_msb_mask_u64 spreads the top bit of |x| over the word. */
static inline uint64_t ct_msb_mask_u64(uint64_t x) {
  /* The barrier on the result too: clang otherwise turns code that uses the mask back into a
   * branch on it. */
  return ct_value_barrier_u64(0u - (ct_value_barrier_u64(x) >> 63));
}

/* ct_is_zero_u64 is all-ones when x == 0: ~x & (x - 1) has its top bit set only for x == 0. The
 * barrier on the result (inside ct_msb_mask_u64) keeps the compiler from turning code that uses
 * the mask back into a branch or a selected address. */
static inline uint64_t ct_is_zero_u64(uint64_t x) {
  return ct_msb_mask_u64(~x & (x - 1));
}

/* ct_eq_u64 is all-ones when a == b. */
static inline uint64_t ct_eq_u64(uint64_t a, uint64_t b) { return ct_is_zero_u64(a ^ b); }

/* ct_lt_u64 is all-ones when a < b (unsigned): the borrow out of a - b (Hacker's Delight 2-13),
 * computed without a compare. */
static inline uint64_t ct_lt_u64(uint64_t a, uint64_t b) {
  return ct_msb_mask_u64((~a & b) | (~(a ^ b) & (a - b)));
}

/* ct_select_u64 returns a where mask is all-ones and b where it is zero. The barrier on the mask
 * stops the compiler from proving it is one of two values and emitting a cmov of addresses. */
static inline uint64_t ct_select_u64(uint64_t mask, uint64_t a, uint64_t b) {
  mask = ct_value_barrier_u64(mask);
  return (mask & a) | (~mask & b);
}

static inline uint32_t ct_is_zero_u32(uint32_t x) {
  return ct_value_barrier_u32(0u - (ct_value_barrier_u32(~x & (x - 1)) >> 31));
}
static inline uint32_t ct_eq_u32(uint32_t a, uint32_t b) { return ct_is_zero_u32(a ^ b); }
static inline uint32_t ct_select_u32(uint32_t mask, uint32_t a, uint32_t b) {
  mask = ct_value_barrier_u32(mask);
  return (mask & a) | (~mask & b);
}

/* fm_declassify tells a constant-time checker that the |len| bytes at |p|, computed from secrets,
 * are public from here on (a released signature, the fact that a number is invertible). In
 * test-hooks builds under valgrind it marks them defined for memcheck; elsewhere, and in
 * libfipsmod itself, it does nothing. fm_declassify_u64 does the same for one word and returns
 * it. The one declassify helper of the module (module/util.c). */
void fm_declassify(const void *p, size_t len);
static inline uint64_t fm_declassify_u64(uint64_t v) {
  fm_declassify(&v, sizeof v);
  return ct_value_barrier_u64(v);
}

/* fm_ct_memeq returns 1 when the |len| bytes at a and b are equal, 0 otherwise, in time that
 * depends only on len. */
int fm_ct_memeq(const void *a, const void *b, size_t len);

/* fm_buffers_overlap is true when [a, a+alen) and [b, b+blen) share a byte (pointers are public).
 * Inline: the one-shot services make several of these checks in every call. */
static inline bool fm_buffers_overlap(const void *a, size_t alen, const void *b, size_t blen) {
  const uintptr_t pa = (uintptr_t)a, pb = (uintptr_t)b;
  if (alen == 0 || blen == 0) return false;
  return pa < pb + blen && pb < pa + alen;
}

/* fm_buffers_bad_overlap is true when in and out overlap but are not the same pointer (the in-place
 * case is allowed by every cipher in the module). */
static inline bool fm_buffers_bad_overlap(const void *in, const void *out, size_t len) {
  return in != out && fm_buffers_overlap(in, len, out, len);
}

/* ---- Life cycle and the service gate ------------------------------------------------------ */

/* FM_INTERNAL marks a variable that one file of the module defines and others read: hidden, so
 * that the readers load it directly (one instruction) rather than through an address first. */
#define FM_INTERNAL __attribute__((visibility("hidden")))

/* The module state (module.c). Services read it through fm_module_operational; only module.c
 * writes it. */
extern FM_INTERNAL _Atomic int fm_g_module_state;

/* fm_module_operational_slow decides for a state other than OPERATIONAL (module.c): true only in
 * SELF_TEST on the thread running the self-tests. */
bool fm_module_operational_slow(int state);

/* fm_module_operational is true when services may run: OPERATIONAL, or SELF_TEST on the thread
 * running the self-tests. Inline, so that the steady state costs one relaxed load of a word that
 * only changes on transitions (nobody writes it while the module is OPERATIONAL). */
static inline bool fm_module_operational(void) {
  int st = atomic_load_explicit(&fm_g_module_state, memory_order_relaxed);
  if (__builtin_expect(st == FM_STATE_OPERATIONAL, 1)) return true;
  return fm_module_operational_slow(st);
}

/* fm_module_operational_fast is the common case of fm_module_operational alone: true only in
 * OPERATIONAL. A service whose fast path must make no call can test it first and send every other
 * case to a slow path that calls fm_module_operational. */
static inline bool fm_module_operational_fast(void) {
  return atomic_load_explicit(&fm_g_module_state, memory_order_relaxed) == FM_STATE_OPERATIONAL;
}

/* fm_selftest_thread_enter/leave mark the calling thread as the one running self-tests: while
 * the module is in SELF_TEST, services called from that thread pass the gate (so known-answer
 * tests run through the public entry points) and services called from any other thread are
 * refused. */
void fm_selftest_thread_enter(void);
void fm_selftest_thread_leave(void);

/* fm_selftest_thread_active is true on the thread marked by fm_selftest_thread_enter. */
bool fm_selftest_thread_active(void);

/* fm_module_enter_error moves the module to ERROR (final). |why| names the failure for the
 * report; it must be a string constant. Thread-safe; the first reason is kept. */
void fm_module_enter_error(const char *why);

/* fm_module_error_reason returns the first reason given to fm_module_enter_error, or NULL. */
const char *fm_module_error_reason(void);

/* ---- Refusing a call ----------------------------------------------------------------------
 * Every service checks in one order: the module state first, then its arguments (NULL, lengths,
 * overlap, key state), then runs. A refused call wipes every output it could legitimately have
 * written and nothing else: a length that is itself what made the call fail is never used to
 * touch memory (the caller's buffer may be smaller than what it claimed). */

/* The calling thread's service indicator (module/indicator.c; fipsmod/indicator.h): an
 * fm_indicator value. Only its own thread touches it. */
extern __thread uint8_t fm_tl_indicator __attribute__((tls_model("initial-exec"), visibility("hidden")));

/* The value an approved service leaves in the indicator (module/indicator.c): APPROVED in the
 * validated form, libfipsmod.so; NOT_APPROVED in libfipsmod.a, which cannot carry the integrity
 * test and is not the validated module (policy, section 2). Set once at power-on, before the
 * first service runs; zero (NONE) before that. */
extern FM_INTERNAL uint8_t fm_g_indicator_approved;

/* fm_indicator_set_form sets fm_g_indicator_approved for the form the module is in: whether the
 * integrity test applies to it (the shared library) or not (the static archive). Called once, by
 * the power-on self-tests before any test runs (selftest/). The internal test library, a static
 * form built with test hooks, behaves as the shared library, whose services it tests. */
void fm_indicator_set_form(bool integrity_applies);

/* fm_indicator_approved marks the calling thread's current service approved (the gate does it):
 * approved in the validated form, not approved in the static archive. */
static inline void fm_indicator_approved(void) { fm_tl_indicator = fm_g_indicator_approved; }

/* fm_indicator_not_approved marks the calling thread's current service not approved: called by
 * every refusal and where a service runs with parameters outside the approved set. */
static inline void fm_indicator_not_approved(void) { fm_tl_indicator = 2; /* NOT_APPROVED */ }

/* fm_indicator_keep sets the calling thread's indicator back to |saved| (read from fm_tl_indicator
 * when the call began) and returns |status|: informational functions that check the state or
 * refuse like a service give no security service, so they leave the indicator as it was. */
static inline int fm_indicator_keep(uint8_t saved, int status) {
  fm_tl_indicator = saved;
  return status;
}

/* fm_service_gate returns FM_OK when services may run (fm_module_operational) and
 * FM_ERR_NOT_OPERATIONAL otherwise. It starts the call's indicator as approved; a refusal or a
 * non-approved parameter turns it to not approved. */
static inline int fm_service_gate(void) {
  if (!fm_module_operational()) {
    fm_indicator_not_approved();
    return FM_ERR_NOT_OPERATIONAL;
  }
  fm_indicator_approved();
  return FM_OK;
}

/* fm_refuse wipes |len| bytes at |out| (nothing when out is NULL or len is 0), marks the call
 * not approved for the service indicator and returns |status|. Pass only a length the call has
 * checked, or 0. */
int fm_refuse(int status, void *out, size_t len);

/* fm_refuse2 is fm_refuse for a call with two outputs (a buffer and the length it wrote, say). */
int fm_refuse2(int status, void *out1, size_t len1, void *out2, size_t len2);

/* ---- Services that overlap a self-test run ------------------------------------------------
 * While the module is in SELF_TEST no service outputs data (ISO/IEC 19790 7.10.1): the gate
 * refuses every call that starts then (other than the self-test thread's own), a self-test
 * callback runs as an ordinary caller (refused), and a service already in flight when a run
 * begins does not release what it computes. fm_g_selftest_epoch counts the transitions into and
 * out of on-demand runs (odd while one is in progress; module.c writes it, under the runner's
 * lock). A service whose work can be long (bulk AES and GCM, long DRBG draws, PBKDF2) reads
 * fm_service_epoch once after the gate, and fm_service_may_continue after each slice of its
 * work (a slice is at most FM_SERVICE_SLICE bytes, or the equivalent in time) and before it
 * returns: when it is false, a run began (or came and went) during the call, so the call wipes
 * every output and returns FM_ERR_NOT_OPERATIONAL. The cost in the steady state is one load of a
 * word that only runs write. Short services (a few blocks, a word draw) rely on the gate alone:
 * what they write lands within their one call. */
extern FM_INTERNAL _Atomic uint64_t fm_g_selftest_epoch;

/* FM_SERVICE_SLICE: the longest piece of bulk work between two fm_service_may_continue checks
 * (64 KiB: tens of microseconds on the fast paths, under a millisecond on the portable ones). */
#define FM_SERVICE_SLICE ((size_t)64 * 1024)

/* fm_service_epoch returns the epoch a service started in; on the self-test thread, and outside
 * a run, an even number. A service that reads an odd epoch on any other thread overlaps a run. */
static inline uint64_t fm_service_epoch(void) {
  return atomic_load_explicit(&fm_g_selftest_epoch, memory_order_acquire);
}

/* fm_service_may_continue is true when a service that started in |epoch| may go on and release
 * output: services may run (fm_module_operational), and no on-demand self-test run has begun
 * since, unless the caller is the self-test thread itself (whose known-answer tests go through
 * the services). */
bool fm_service_may_continue_slow(uint64_t epoch);
static inline bool fm_service_may_continue(uint64_t epoch) {
  const uint64_t now = atomic_load_explicit(&fm_g_selftest_epoch, memory_order_acquire);
  if (__builtin_expect(fm_module_operational_fast() && now == epoch && (epoch & 1) == 0, 1)) {
    return true;
  }
  return fm_service_may_continue_slow(epoch);
}

/* fm_module_begin_selftest moves OPERATIONAL to SELF_TEST for an on-demand run (FM_OK, also when
 * already in SELF_TEST); FM_ERR_NOT_OPERATIONAL from UNINITIALIZED or ERROR. For selftest/ only. */
int fm_module_begin_selftest(void);

/* fm_module_end_selftest ends an on-demand run whose outcome is |status| and returns the run's
 * status: FM_OK moves SELF_TEST back to OPERATIONAL (FM_OK), unless the module was switched off
 * during the run (FM_ERR_NOT_OPERATIONAL, the state left as it is); FM_ERR_SELFTEST (a test
 * failed) moves it to ERROR; FM_ERR_NOT_OPERATIONAL (the run found the module switched off under
 * it) changes nothing. */
int fm_module_end_selftest(int status);

/* ---- CPU paths (cpu.c) ------------------------------------------------------------------- */

/* fm_cpu_detect detects the CPU's features (CPUID and XGETBV only: no libc call, no thread-local
 * variable) and puts all of them in use; called first by the power-on entry, so that the first
 * integrity check runs on the fast SHA-256 path. */
void fm_cpu_detect(void);

/* fm_cpu_init detects the CPU's features and applies FIPSMOD_CPU (read with secure_getenv, so a
 * setuid or setgid program ignores it); called once by the power-on entry, after the first check
 * and before the self-tests. */
void fm_cpu_init(void);

/* fm_cpu_invariant_tsc is true when the CPU's time-stamp counter runs at a constant rate whatever
 * the power state (x86-64 only) and FIPSMOD_CPU is not "portable" (cpu.c). */
bool fm_cpu_invariant_tsc(void);

/* The features in use (cpu.c): written once by fm_cpu_init, read-only afterwards. */
extern FM_INTERNAL uint32_t fm_g_cpu_in_use;

/* FM_HAVE_X86_64_PATHS: the fast paths (every FM_CPU_* feature is an x86-64 one) are built. On
 * other architectures (aarch64) their sources are not compiled (the sources.cmake files) and only
 * the portable twins run. */
#if defined(__x86_64__)
#define FM_HAVE_X86_64_PATHS 1
#else
#define FM_HAVE_X86_64_PATHS 0
#endif

#if defined(__aarch64__)
/* fm_stack_wipe_area zeroes |len| bytes at |p| (a stack wipe's own array: 16-byte aligned, |len|
 * a non-zero multiple of 16) with pair stores of the zero register from inline asm: the compiler
 * can neither drop them nor make them a memset call, and no vector register is involved. The
 * x86-64 wipes store from SSE/AVX registers instead (in each wipe's file). */
static inline __attribute__((always_inline)) void fm_stack_wipe_area(void *p, size_t len) {
  __asm__ __volatile__(
      "add x10, %[a], %[n]\n\t"
      "mov x9, %[a]\n"
      "1:\n\t"
      "stp xzr, xzr, [x9], #16\n\t"
      "cmp x9, x10\n\t"
      "b.ne 1b"
      :
      : [a] "r"(p), [n] "r"(len)
      : "x9", "x10", "cc", "memory");
}

/* fm_clear_neon_registers zeroes the 32 SIMD registers v0-v31, where the compiler's vectorized
 * code (copies, loops) leaves secrets that a signal frame could spill. v8-v15 are callee-saved in
 * part (AAPCS64): naming them as clobbers makes the compiler restore the caller's values
 * afterwards, never this code's. */
static inline __attribute__((always_inline)) void fm_clear_neon_registers(void) {
  __asm__ __volatile__(
      "movi v0.16b, #0\n\tmovi v1.16b, #0\n\tmovi v2.16b, #0\n\tmovi v3.16b, #0\n\t"
      "movi v4.16b, #0\n\tmovi v5.16b, #0\n\tmovi v6.16b, #0\n\tmovi v7.16b, #0\n\t"
      "movi v8.16b, #0\n\tmovi v9.16b, #0\n\tmovi v10.16b, #0\n\tmovi v11.16b, #0\n\t"
      "movi v12.16b, #0\n\tmovi v13.16b, #0\n\tmovi v14.16b, #0\n\tmovi v15.16b, #0\n\t"
      "movi v16.16b, #0\n\tmovi v17.16b, #0\n\tmovi v18.16b, #0\n\tmovi v19.16b, #0\n\t"
      "movi v20.16b, #0\n\tmovi v21.16b, #0\n\tmovi v22.16b, #0\n\tmovi v23.16b, #0\n\t"
      "movi v24.16b, #0\n\tmovi v25.16b, #0\n\tmovi v26.16b, #0\n\tmovi v27.16b, #0\n\t"
      "movi v28.16b, #0\n\tmovi v29.16b, #0\n\tmovi v30.16b, #0\n\tmovi v31.16b, #0"
      :
      :
      : "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10", "v11", "v12", "v13",
        "v14", "v15", "v16", "v17", "v18", "v19", "v20", "v21", "v22", "v23", "v24", "v25", "v26",
        "v27", "v28", "v29", "v30", "v31", "memory");
}
#endif

#if FM_HAVE_X86_64_PATHS
/* ---- Clearing vector registers (x86-64) ----------------------------------------------------
 * Zeroing idioms, which need no execution unit. The asm clobbers memory, so that no store of a
 * secret moves after it, and names the registers it zeroes, so that the compiler keeps nothing
 * in them across it. FM_XMM0_15 is the clobber list of xmm0-15 (naming them covers ymm0-15 and
 * zmm0-15 too). */
#define FM_XMM0_15                                                                          \
  "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", \
      "xmm11", "xmm12", "xmm13", "xmm14", "xmm15"

/* fm_clear_sse_registers zeroes xmm0-15 with legacy-SSE pxor: for code built for baseline x86-64
 * (no AVX). It leaves bits 128 and up of the AVX registers as they were. */
static inline __attribute__((always_inline)) void fm_clear_sse_registers(void) {
  __asm__ __volatile__(
      "pxor %%xmm0, %%xmm0\n\tpxor %%xmm1, %%xmm1\n\tpxor %%xmm2, %%xmm2\n\t"
      "pxor %%xmm3, %%xmm3\n\tpxor %%xmm4, %%xmm4\n\tpxor %%xmm5, %%xmm5\n\t"
      "pxor %%xmm6, %%xmm6\n\tpxor %%xmm7, %%xmm7\n\tpxor %%xmm8, %%xmm8\n\t"
      "pxor %%xmm9, %%xmm9\n\tpxor %%xmm10, %%xmm10\n\tpxor %%xmm11, %%xmm11\n\t"
      "pxor %%xmm12, %%xmm12\n\tpxor %%xmm13, %%xmm13\n\tpxor %%xmm14, %%xmm14\n\t"
      "pxor %%xmm15, %%xmm15"
      :
      :
      : FM_XMM0_15, "memory");
}

/* FM_VEX_ZERO_0_15 zeroes xmm0-15 with VEX xors, each of which clears its whole register
 * (ymm/zmm bits 128 and up too): the same effect as vzeroall, which is microcoded and measured
 * 13 cycles against 5 for these xors and a vzeroupper (Sapphire Rapids). */
#define FM_VEX_ZERO_0_15                                                                       \
  "vpxor %%xmm0, %%xmm0, %%xmm0\n\tvpxor %%xmm1, %%xmm1, %%xmm1\n\t"                           \
  "vpxor %%xmm2, %%xmm2, %%xmm2\n\tvpxor %%xmm3, %%xmm3, %%xmm3\n\t"                           \
  "vpxor %%xmm4, %%xmm4, %%xmm4\n\tvpxor %%xmm5, %%xmm5, %%xmm5\n\t"                           \
  "vpxor %%xmm6, %%xmm6, %%xmm6\n\tvpxor %%xmm7, %%xmm7, %%xmm7\n\t"                           \
  "vpxor %%xmm8, %%xmm8, %%xmm8\n\tvpxor %%xmm9, %%xmm9, %%xmm9\n\t"                           \
  "vpxor %%xmm10, %%xmm10, %%xmm10\n\tvpxor %%xmm11, %%xmm11, %%xmm11\n\t"                     \
  "vpxor %%xmm12, %%xmm12, %%xmm12\n\tvpxor %%xmm13, %%xmm13, %%xmm13\n\t"                     \
  "vpxor %%xmm14, %%xmm14, %%xmm14\n\tvpxor %%xmm15, %%xmm15, %%xmm15\n\t"

/* fm_clear_avx_registers zeroes ymm0-15 (all of zmm0-15 too), then vzeroupper. Only where the
 * CPU has AVX. It does not touch zmm16-31: see fm_clear_avx512_registers. */
static inline __attribute__((always_inline)) void fm_clear_avx_registers(void) {
  __asm__ __volatile__(FM_VEX_ZERO_0_15 "vzeroupper" : : : FM_XMM0_15, "memory");
}

/* fm_clear_avx512_registers zeroes all 32 zmm registers: VEX xors for zmm0-15, and an EVEX xor
 * (which zeroes the whole register) for each of zmm16-31, which VEX cannot name; then
 * vzeroupper. Only in functions whose target includes AVX-512F (the compiler hands out zmm16-31
 * only there). */
static inline __attribute__((always_inline, target("avx512f"))) void fm_clear_avx512_registers(
    void) {
  __asm__ __volatile__(
      FM_VEX_ZERO_0_15
      "vpxord %%xmm16, %%xmm16, %%xmm16\n\tvpxord %%xmm17, %%xmm17, %%xmm17\n\t"
      "vpxord %%xmm18, %%xmm18, %%xmm18\n\tvpxord %%xmm19, %%xmm19, %%xmm19\n\t"
      "vpxord %%xmm20, %%xmm20, %%xmm20\n\tvpxord %%xmm21, %%xmm21, %%xmm21\n\t"
      "vpxord %%xmm22, %%xmm22, %%xmm22\n\tvpxord %%xmm23, %%xmm23, %%xmm23\n\t"
      "vpxord %%xmm24, %%xmm24, %%xmm24\n\tvpxord %%xmm25, %%xmm25, %%xmm25\n\t"
      "vpxord %%xmm26, %%xmm26, %%xmm26\n\tvpxord %%xmm27, %%xmm27, %%xmm27\n\t"
      "vpxord %%xmm28, %%xmm28, %%xmm28\n\tvpxord %%xmm29, %%xmm29, %%xmm29\n\t"
      "vpxord %%xmm30, %%xmm30, %%xmm30\n\tvpxord %%xmm31, %%xmm31, %%xmm31\n\t"
      "vzeroupper"
      :
      :
      : FM_XMM0_15, "xmm16", "xmm17", "xmm18", "xmm19", "xmm20", "xmm21", "xmm22", "xmm23",
        "xmm24", "xmm25", "xmm26", "xmm27", "xmm28", "xmm29", "xmm30", "xmm31", "memory");
}
#endif

/* fm_wipe_vector_registers zeroes every vector register the CPU has (as the OS saves them:
 * xmm0-15, ymm0-15 with AVX, zmm0-31 with AVX-512F, whatever FIPSMOD_CPU says; v0-v31 on
 * aarch64). The compiler's copies and vectorized loops, libc's memcpy and memset and the AVX2
 * and AVX-512 kernels leave secrets there, and nothing clears them on return: a signal frame, a
 * context switch's save area or the caller's next spill would write them to memory. The units'
 * stack wipes (module/stack_wipe.h, module/sha/hmac.c) end with it, so every service that ends
 * with one leaves no secret in a register (tests/module/test_vreg_residue). cpu.c. */
void fm_wipe_vector_registers(void);

/* fm_cpu_use returns true when the module should use the FM_CPU_* feature(s) in |features| (all
 * of them detected and FIPSMOD_CPU not "portable"). Inline: one load. Without the x86-64 paths it
 * is the constant false, so that every call of a fast kernel is compiled out (at -O0 too: a
 * constant condition is folded) and no such kernel is referenced. */
#if FM_HAVE_X86_64_PATHS
static inline bool fm_cpu_use(uint32_t features) {
  return (fm_g_cpu_in_use & features) == features;
}
#else
#define fm_cpu_use(features) ((void)(features), false)
#endif

/* The names of the kernels each algorithm folder chose at load, for fm_module_cpu_paths (cpu.c
 * joins them; each folder defines its own and reads only fm_cpu_use). Public, constant strings. */
const char *sha256_path_name(void); /* module/sha: "sha-ni+avx512-pad", "sha-ni" or "portable" */
const char *sha512_path_name(void); /* module/sha */
const char *bn_path_name(void);     /* module/bn: the Montgomery kernels, e.g. "mulx+ifma" */
const char *mlkem_path_name(void);  /* module/mlkem: the NTT kernels, "avx2" or "portable" */
const char *mldsa_path_name(void);  /* module/mldsa: the NTT kernels, "avx2" or "portable" */
const char *keccak_path_name(void); /* module/sha3: Keccak-f[1600], "bmi2" or "portable" */
const char *ec_path_name(void);     /* module/ec: the field products, e.g. "mulx+adx+ifma" */

/* ---- Hooks the life cycle calls in the other parts of the module ------------------------- */

/* fm_selftest_first_check runs, before anything else at load, the HMAC-SHA-256 known-answer test
 * (on the internal HMAC code) and the integrity check (selftest/). It calls no libc function
 * through the GOT and touches no thread-local variable: both depend on the writable segment's
 * relocations and .dynamic, which the MAC covers, so a damaged copy fails here before its
 * damage is used. Returns FM_OK, or FM_ERR_SELFTEST with *failed the failing test's name (it is
 * recorded in the report when the report is first read). */
int fm_selftest_first_check(const char **failed);

/* fm_selftest_power_on runs the power-on self-tests (selftest/). Returns FM_OK or an error. */
int fm_selftest_power_on(void);

/* Self-test identities. Each names exactly one row of the self-test table in selftest/, which
 * alone holds the names, algorithms and kinds the report shows (selftest/kat.c checks at compile
 * time that every id has one row) and says when each runs: at power-on (the integrity test with
 * the HMAC-SHA-256 KAT before it, and what the DRBG needs) or before the first use of its
 * algorithm (every other CAST). Tests run in this order. The algorithm folders name a test by its
 * id: a conditional test when they record its outcome, a CAST when they ensure it has passed. */
typedef enum fm_selftest_id {
  FM_ST_HMAC_SHA256_KAT,
  FM_ST_INTEGRITY,
  FM_ST_SHA256_KAT,
  FM_ST_SHA384_KAT,
  FM_ST_SHA512_KAT,
  FM_ST_HMAC_SHA384_KAT,
  FM_ST_HMAC_SHA512_KAT,
  FM_ST_AES128_ECB_ENC_KAT,
  FM_ST_AES128_ECB_DEC_KAT,
  FM_ST_AES128_CBC_ENC_KAT,
  FM_ST_AES128_CBC_DEC_KAT,
  FM_ST_AES128_CTR_ENC_KAT,
  FM_ST_AES128_CTR_DEC_KAT,
  FM_ST_AES256_ECB_ENC_KAT,
  FM_ST_AES256_ECB_DEC_KAT,
  FM_ST_AES256_CBC_ENC_KAT,
  FM_ST_AES256_CBC_DEC_KAT,
  FM_ST_AES256_CTR_ENC_KAT,
  FM_ST_AES256_CTR_DEC_KAT,
  /* Long inputs, for the bulk kernels (VAES, 16 blocks a pass, and the 8-block loops). */
  FM_ST_AES128_ECB_ENC_BULK_KAT,
  FM_ST_AES128_ECB_DEC_BULK_KAT,
  FM_ST_AES128_CBC_DEC_BULK_KAT,
  FM_ST_AES128_CTR_BULK_KAT,
  FM_ST_AES128_CTR32_BULK_KAT,
  FM_ST_AES256_ECB_ENC_BULK_KAT,
  FM_ST_AES256_ECB_DEC_BULK_KAT,
  FM_ST_AES256_CBC_DEC_BULK_KAT,
  FM_ST_AES256_CTR_BULK_KAT,
  FM_ST_AES256_CTR32_BULK_KAT,
  FM_ST_AES128_GCM_ENC_KAT,
  FM_ST_AES128_GCM_DEC_KAT,
  FM_ST_AES256_GCM_ENC_KAT,
  FM_ST_AES256_GCM_DEC_KAT,
  /* AES-192: one test per kind (the report's size, FM_SELFTEST_MAX_ENTRIES, is part of the ABI),
   * each running every mode and direction. */
  FM_ST_AES192_KAT,      /* ECB, CBC, CTR: FIPS 197 C.2 and SP 800-38A F.1.3-F.5.4 */
  FM_ST_AES192_BULK_KAT, /* ECB, CBC decryption, CTR (both widths) on long inputs */
  FM_ST_AES192_GCM_KAT,  /* GCM encryption and decryption */
  FM_ST_HKDF_SHA256_KAT,
  FM_ST_KBKDF_HMAC_SHA256_KAT,
  FM_ST_PBKDF2_HMAC_SHA256_KAT,
  FM_ST_CTR_DRBG_DF_KAT,
  FM_ST_CTR_DRBG_NODF_KAT,
  FM_ST_CTR_DRBG_BULK_KAT, /* a generate beyond the short fused kernels */
  FM_ST_CTR_DRBG_UNINSTANTIATE_KAT,
  FM_ST_ENTROPY_STARTUP,
  FM_ST_RSA_VERIFY_KAT,
  FM_ST_RSA_SIGN_KAT, /* deferred: runs before the first use of an RSA private key */
  FM_ST_MLDSA_KEYGEN_KAT, /* ML-DSA-44 KeyGen_internal from a fixed seed */
  FM_ST_MLDSA_SIGN_KAT,   /* ML-DSA-44 deterministic Sign_internal */
  FM_ST_MLDSA_VERIFY_KAT, /* ML-DSA-44 Verify_internal of a known signature */
  FM_ST_ECDSA_SIGN_KAT,
  FM_ST_ECDSA_VERIFY_KAT,
  FM_ST_ECDH_KAT,
  FM_ST_MLKEM768_KAT, /* ML-KEM-768 KeyGen, Encaps, Decaps and implicit rejection */
  FM_ST_SHA2_TRUNCATED_KAT, /* SHA-224, SHA-512/224 and SHA-512/256 (module/sha) */
  FM_ST_SHA3_KAT,           /* SHA3-256, for the SHA3-* hashes (module/sha3) */
  FM_ST_SHAKE_KAT,          /* SHAKE128 and SHAKE256 (module/sha3) */
  FM_ST_HMAC_SHA3_KAT,      /* HMAC-SHA3-256, for HMAC with every SHA3-* (module/sha3) */
  /* Conditional tests: recorded by their service each time it runs. */
  FM_ST_ENTROPY_HEALTH, /* SP 800-90B RCT/APT on every seed request */
  FM_ST_RSA_PCT,        /* RSA key generation's pairwise consistency test */
  FM_ST_MLDSA_PCT,      /* ML-DSA key generation's pairwise consistency test */
  FM_ST_ECDSA_PCT,      /* EC key generation's pairwise consistency test */
  FM_ST_MLKEM_PCT,      /* ML-KEM key generation's pairwise consistency test */
  FM_ST_ENTROPY_SOURCE, /* the kernel source itself failed (getrandom error); recorded only
                           then, so listed last, from then on */
  FM_ST_COUNT           /* not an id: how many there are */
} fm_selftest_id;

/* fm_g_selftest_passed[id] is 1 once test |id| (a power-on test or one that runs before first
 * use) has passed in this process, so that its algorithm's services may run; "not yet" is zero
 * (.bss). Written only by selftest/power_on.c (a release store under its run lock, after the test
 * or the test's whole group passed); read by fm_selftest_ensure with an acquire load. */
extern FM_INTERNAL _Atomic uint8_t fm_g_selftest_passed[FM_ST_COUNT];

/* fm_selftest_ensure_slow is fm_selftest_ensure's path for a test that has not passed yet
 * (selftest/power_on.c). */
int fm_selftest_ensure_slow(fm_selftest_id id);

/* fm_selftest_ensure makes sure the self-test |id| has passed in this process before its
 * algorithm is used (FIPS 140-3 IG 10.3.A), running it first if it has not: a test that runs
 * before first use runs then, together with every other test of its group (selftest/kat.c's
 * SELFTEST_GROUPS: all AES modes, all GCM directions), so that one flag covers a family's
 * services. Returns FM_OK (one acquire load, inline, once the test has passed; at once on the
 * thread running self-tests) or FM_ERR_NOT_OPERATIONAL when a test failed (the module is then in
 * ERROR) or the module is not operational. Callers of the same algorithm on other threads wait
 * while its tests run: they output nothing before the tests have passed. It does not touch the
 * service indicator. Thread-safe. The algorithm folders' only way to reach a CAST; |id| is a
 * constant of the calling service. */
static inline int fm_selftest_ensure(fm_selftest_id id) {
  if (__builtin_expect(atomic_load_explicit(&fm_g_selftest_passed[id], memory_order_acquire), 1))
    return FM_OK;
  return fm_selftest_ensure_slow(id);
}

/* fm_service_gate_tested is fm_service_gate for a service whose algorithm has a CAST: the state
 * first, then the CAST (fm_selftest_ensure(id)). FM_OK, or FM_ERR_NOT_OPERATIONAL with the call
 * marked not approved. */
static inline int fm_service_gate_tested(fm_selftest_id id) {
  int st = fm_service_gate();
  if (__builtin_expect(st == FM_OK, 1)) st = fm_selftest_ensure(id);
  if (st != FM_OK) fm_indicator_not_approved();
  return st;
}

/* fm_selftest_expect is the known-answer comparison for the CASTs that the algorithm units keep
 * beside their code (module/<alg>/): FM_OK when the |len| bytes at |got| equal those at
 * |expected| (compared in constant time), FM_ERR_SELFTEST otherwise, and in test-hooks builds a
 * deliberately wrong expectation while the running test is the one FIPSMOD_BREAK_TEST names.
 * len is at most FM_SELFTEST_MAX_EXPECTED: a CAST of a longer output (a signature, a ciphertext)
 * compares its SHA-256 or SHA3-256 digest. fm_selftest_expected_copy copies a known input whose
 * corruption must make the test fail (a signature a verification CAST checks), flipping one byte
 * when the running test is being broken. fm_selftest_breaking is true while the running test is
 * the one FIPSMOD_BREAK_TEST names (test-hooks builds; always false otherwise), for a CAST whose
 * failure is not a wrong expected value (the entropy start-up test feeds a stuck source). All
 * three run only inside a self-test (selftest/power_on.c). */
#define FM_SELFTEST_MAX_EXPECTED 2048
int fm_selftest_expect(const void *got, const void *expected, size_t len);
void fm_selftest_expected_copy(void *dst, const void *src, size_t len);
bool fm_selftest_breaking(void);

/* fm_selftest_record_conditional records the outcome of the conditional self-test |id| in the
 * report. A failure (status != FM_OK) also moves the module to ERROR, with the test's name as the
 * reason. Thread-safe; takes the report's lock (not async-signal-safe). */
void fm_selftest_record_conditional(fm_selftest_id id, int status);

/* fm_rand_power_on initializes the process RNG (module/rand/): called once by the power-on entry
 * after the first check passed, so that no draw ever initializes it. */
void fm_rand_power_on(void);

/* fm_rand_module_cleanup zeroizes every per-thread secret of the module (the DRBG states and
 * their small-draw batches, module/rand/) and switches the RNG off. Called by fm_module_cleanup,
 * by the exit handler and on entering ERROR. */
void fm_rand_module_cleanup(void);


/* ---- Test-only entry points ---------------------------------------------------------------
 * They exist only in test-hooks builds (the internal test library, libfipsmod_testhooks.so),
 * never in libfipsmod.so or libfipsmod.a. */
#if defined(FIPSMOD_TEST_HOOKS)
/* fm_module_force_error_for_testing moves the module to ERROR as a failed self-test would. */
void fm_module_force_error_for_testing(void);

/* fm_mark_secret_for_testing tells valgrind memcheck that the |len| bytes at |p| are secret
 * (undefined), so that a constant-time test sees every branch or index that depends on them. The
 * opposite of fm_declassify; nothing without valgrind. */
void fm_mark_secret_for_testing(const void *p, size_t len);
#endif

#endif
