/** @file
 * fipsmod module life cycle and CPU paths.
 *
 * States: UNINITIALIZED -> SELF_TEST -> OPERATIONAL | ERROR. The power-on self-tests run from an
 * ELF constructor when the library is loaded. ERROR is final for the process. After
 * fm_module_cleanup() the module is UNINITIALIZED for the rest of the process: every CSP has been
 * zeroized and every service returns FM_ERR_NOT_OPERATIONAL.
 *
 * Every service checks in one order: the module state first (outside OPERATIONAL:
 * FM_ERR_NOT_OPERATIONAL), then its arguments (FM_ERR_BAD_ARGUMENT, FM_ERR_LENGTH, ...). A refused
 * call wipes the outputs it could have written, never more than a length it has checked. The
 * functions of this header work in every state. */
#ifndef FIPSMOD_MODULE_H
#define FIPSMOD_MODULE_H

#include <stdint.h>
#include "fipsmod/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  FM_STATE_UNINITIALIZED = 0,
  FM_STATE_SELF_TEST = 1,
  FM_STATE_OPERATIONAL = 2,
  FM_STATE_ERROR = 3,
} fm_state;

/** fm_module_state returns the current state (never fails; not a status). Thread-safe. */
FM_API fm_state fm_module_state(void);

/** fm_module_state_name returns "UNINITIALIZED", "SELF_TEST", "OPERATIONAL" or "ERROR". */
FM_API const char *fm_module_state_name(fm_state state);

/** fm_module_version returns the module's version string, e.g. "fipsmod 0.2.0" (never fails). */
FM_API const char *fm_module_version(void);

/** fm_module_cleanup zeroizes every CSP the module holds (every thread's DRBG state, batches) and
 * moves the module to UNINITIALIZED for the rest of the process. Later calls to any service, from
 * any thread, return FM_ERR_NOT_OPERATIONAL. In ERROR, which is final, it zeroizes and leaves the
 * state as it is. During an on-demand self-test run (fm_selftest_run on another thread) the run
 * stops with FM_ERR_NOT_OPERATIONAL and no test is recorded as failed. Returns FM_OK; calling it
 * twice is harmless. Works in every state. Thread-safe. */
FM_API int fm_module_cleanup(void);

/** CPU features the module can use. */
enum {
  FM_CPU_AESNI = 1u << 0,
  FM_CPU_VAES = 1u << 1,
  FM_CPU_PCLMULQDQ = 1u << 2,
  FM_CPU_SHANI = 1u << 3,
  FM_CPU_BMI2 = 1u << 4,
  FM_CPU_ADX = 1u << 5,
  FM_CPU_AVX2 = 1u << 6,
  FM_CPU_AVX512 = 1u << 7, /**< AVX-512F + VL + BW (for 512-bit VAES) */
  FM_CPU_VPCLMULQDQ = 1u << 8,  /**< carry-less multiply on 256-bit registers (GHASH) */
  FM_CPU_AVX512IFMA = 1u << 9,  /**< 52-bit multiply-add (big-number Montgomery kernels) */
  /* aarch64, from the kernel's HWCAP: detected and reported, not used (no ARMv8
   * crypto-extension path exists yet, so they are never in |in_use|). */
  FM_CPU_ARM_AES = 1u << 16,    /**< AES instructions (HWCAP_AES) */
  FM_CPU_ARM_PMULL = 1u << 17,  /**< 64-bit polynomial multiply (HWCAP_PMULL) */
  FM_CPU_ARM_SHA2 = 1u << 18,   /**< SHA-256 instructions (HWCAP_SHA2) */
  FM_CPU_ARM_SHA512 = 1u << 19, /**< SHA-512 instructions (HWCAP_SHA512) */
};

/** fm_module_cpu_features writes the features the CPU has (|detected|) and those the module uses
 * (|in_use|: none when FIPSMOD_CPU=portable was set at load; the variable is read with
 * secure_getenv, so a setuid or setgid program ignores it). Either pointer may be NULL.
 * Returns FM_OK. Works in every state. */
FM_MUST_CHECK
FM_API int fm_module_cpu_features(uint32_t *detected, uint32_t *in_use);

/** fm_module_cpu_feature_name returns the short name of one FM_CPU_* bit ("aesni", ...), or
 * "unknown". */
FM_API const char *fm_module_cpu_feature_name(uint32_t feature);

/** fm_module_cpu_paths returns a one-line description of the code paths chosen at load, e.g.
 * "aes=vaes-avx512 sha256=sha-ni bn=mulx-adx" or "portable (FIPSMOD_CPU=portable)". */
FM_API const char *fm_module_cpu_paths(void);

#ifdef __cplusplus
}
#endif
#endif
