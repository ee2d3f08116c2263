/* CPU feature detection and the FIPSMOD_CPU override.
 *
 * Detection runs once, from the power-on entry, before any algorithm runs; afterwards the
 * feature words are only read. This is the module's only CPUID and XGETBV: every algorithm asks
 * fm_cpu_use (module/internal.h), and a ctest (tests/module, cpuid_only_in_cpu) checks the
 * built objects for the instructions. FIPSMOD_CPU=portable makes every algorithm take its portable,
 * constant-time path, so that every test can run on both paths of the same machine. It is read
 * with secure_getenv: a setuid or setgid program ignores it, so whoever starts such a program
 * cannot choose its code paths.
 *
 * The fast paths are x86-64's. On aarch64 they are not built (FM_HAVE_X86_64_PATHS,
 * module/internal.h); detection reads the kernel's HWCAP from the auxiliary vector
 * (/proc/self/auxv, by direct system calls, as the first check requires) and reports the ARMv8
 * crypto extensions (FM_CPU_ARM_*), which no path uses yet, so they are never in use.
 *
 * Life-cycle code: it knows the algorithm folders only through module/internal.h (their path
 * names included). */
#define _GNU_SOURCE
#if defined(__x86_64__)
#include <cpuid.h>
#elif defined(__aarch64__)
#include <asm/hwcap.h>
#include <elf.h>
#include <fcntl.h>

#include "module/syscall.h"
#endif
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "module/internal.h"

/* Written once by fm_cpu_init (the constructor, single-threaded); read-only afterwards. */
static uint32_t g_detected;
uint32_t fm_g_cpu_in_use; /* read by fm_cpu_use (module/internal.h) */
#if defined(__x86_64__)
/* The vector registers the OS keeps for this process, whatever FIPSMOD_CPU says (libc's copies
 * use them either way): 0 xmm0-15, 1 ymm0-15 (AVX), 2 zmm0-31 (AVX-512F). For
 * fm_wipe_vector_registers; set by fm_cpu_detect. */
static int g_vreg_kind;
#endif
static bool g_forced_portable;

#if defined(__x86_64__)
/* xgetbv(0): which register states the OS saves; AVX needs XMM|YMM, AVX-512 also opmask/ZMM. */
static uint64_t read_xcr0(void) {
  uint32_t eax, edx;
  __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
  return ((uint64_t)edx << 32) | eax;
}

static uint32_t detect_features(void) {
  unsigned a, b, c, d;
  uint32_t f = 0;
  /* Three CPUIDs in all (leaves 0, 1 and 7): under a hypervisor each one can trap, at several
   * microseconds a time, at every load. */
  const unsigned max_leaf = __get_cpuid_max(0, NULL);
  if (max_leaf < 1) return 0;
  __cpuid(1, a, b, c, d);
  const bool osxsave = (c >> 27) & 1;
  if ((c >> 25) & 1) f |= FM_CPU_AESNI;
  if ((c >> 1) & 1) f |= FM_CPU_PCLMULQDQ;
  const bool sse41 = (c >> 19) & 1, ssse3 = (c >> 9) & 1;
  if (!sse41 || !ssse3) f &= ~(uint32_t)(FM_CPU_AESNI | FM_CPU_PCLMULQDQ);
  uint64_t xcr0 = osxsave ? read_xcr0() : 0;
  const bool ymm_ok = (xcr0 & 0x6) == 0x6, zmm_ok = (xcr0 & 0xe6) == 0xe6;
  /* AVX (ECX bit 28) with the YMM state saved: the registers are ymm0-15. */
  g_vreg_kind = ((c >> 28) & 1) && ymm_ok ? 1 : 0;
  if (max_leaf >= 7) {
    __cpuid_count(7, 0, a, b, c, d);
    if (((b >> 5) & 1) && ymm_ok) f |= FM_CPU_AVX2;
    /* FM_CPU_BMI2 also stands for BMI1 (EBX bit 3: ANDN, used by module/sha3 with RORX). */
    if (((b >> 8) & 1) && ((b >> 3) & 1)) f |= FM_CPU_BMI2;
    if ((b >> 19) & 1) f |= FM_CPU_ADX;
    if ((b >> 29) & 1 && sse41 && ssse3) f |= FM_CPU_SHANI;
    if (((c >> 9) & 1) && ymm_ok && (f & FM_CPU_AVX2) && (f & FM_CPU_AESNI)) f |= FM_CPU_VAES;
    /* VPCLMULQDQ: ECX bit 10, on YMM registers (the OS must save them) next to PCLMULQDQ. */
    if (((c >> 10) & 1) && ymm_ok && (f & FM_CPU_AVX2) && (f & FM_CPU_PCLMULQDQ))
      f |= FM_CPU_VPCLMULQDQ;
    const bool avx512f = (b >> 16) & 1, avx512vl = (b >> 31) & 1, avx512bw = (b >> 30) & 1;
    if (avx512f && avx512vl && avx512bw && zmm_ok) f |= FM_CPU_AVX512;
    if (avx512f && zmm_ok && g_vreg_kind == 1) g_vreg_kind = 2;
    /* AVX512IFMA: EBX bit 21, usable only with the AVX-512 register state above. */
    if (((b >> 21) & 1) && (f & FM_CPU_AVX512)) f |= FM_CPU_AVX512IFMA;
  }
  return f;
}
#elif defined(__aarch64__)
/* The HWCAP word of the auxiliary vector, read from /proc/self/auxv by direct system calls (no
 * libc function, which a preloaded library could replace, decides what is detected); 0 when the
 * file cannot be read. The vector is (type, value) pairs of 64-bit words up to AT_NULL. */
static uint64_t read_hwcap(void) {
  static const char path[] = "/proc/self/auxv";
  const long fd = fm_syscall6(SYS_openat, AT_FDCWD, (long)path, O_RDONLY | O_CLOEXEC, 0, 0, 0);
  if (fd < 0) return 0;
  uint64_t pair[2], hwcap = 0;
  size_t have = 0;
  for (;;) {
    const long n = fm_syscall(SYS_read, fd, (long)((uint8_t *)pair + have), (long)(sizeof pair - have));
    if (n <= 0) break;
    have += (size_t)n;
    if (have < sizeof pair) continue;
    have = 0;
    if (pair[0] == AT_NULL) break;
    if (pair[0] == AT_HWCAP) {
      hwcap = pair[1];
      break;
    }
  }
  (void)fm_syscall(SYS_close, fd, 0, 0);
  return hwcap;
}

static uint32_t detect_features(void) {
  const uint64_t hwcap = read_hwcap();
  uint32_t f = 0;
  if (hwcap & HWCAP_AES) f |= FM_CPU_ARM_AES;
  if (hwcap & HWCAP_PMULL) f |= FM_CPU_ARM_PMULL;
  if (hwcap & HWCAP_SHA2) f |= FM_CPU_ARM_SHA2;
  if (hwcap & HWCAP_SHA512) f |= FM_CPU_ARM_SHA512;
  return f;
}
#else
#error "module/cpu.c detects features on x86-64 and aarch64 only"
#endif

/* The detected features that a built path can use: only they are ever in use. */
#define FM_CPU_USABLE                                                                          \
  (FM_CPU_AESNI | FM_CPU_VAES | FM_CPU_PCLMULQDQ | FM_CPU_SHANI | FM_CPU_BMI2 | FM_CPU_ADX |   \
   FM_CPU_AVX2 | FM_CPU_AVX512 | FM_CPU_VPCLMULQDQ | FM_CPU_AVX512IFMA)

/* Set by fm_cpu_detect: fm_cpu_init then applies FIPSMOD_CPU without asking CPUID again (each
 * CPUID can trap to a hypervisor). */
static bool g_detect_done;

void fm_cpu_detect(void) {
  g_detected = detect_features();
  fm_g_cpu_in_use = g_detected & FM_CPU_USABLE;
  g_detect_done = true;
}

void fm_cpu_init(void) {
  if (!g_detect_done) fm_cpu_detect();
  const char *env = secure_getenv("FIPSMOD_CPU");
  g_forced_portable = env != NULL && strcmp(env, "portable") == 0;
  fm_g_cpu_in_use = g_forced_portable ? 0 : g_detected & FM_CPU_USABLE;
}

/* fm_wipe_vector_registers (module/internal.h), with module/internal.h's clears: the AVX-512 one
 * in a function of its own, whose target allows it. */
#if defined(__x86_64__)
__attribute__((noinline, target("avx512f"))) static void wipe_zmm0_31(void) {
  fm_clear_avx512_registers();
}

__attribute__((noinline, target("avx"))) static void wipe_ymm0_15(void) {
  fm_clear_avx_registers();
}
#endif

void fm_wipe_vector_registers(void) {
#if defined(__x86_64__)
  /* The CPU's register file is public. */
  if (g_vreg_kind == 2) wipe_zmm0_31();
  else if (g_vreg_kind == 1) wipe_ymm0_15();
  else fm_clear_sse_registers();
#elif defined(__aarch64__)
  fm_clear_neon_registers();
#endif
}

/* fm_cpu_invariant_tsc: CPUID leaf 0x80000007, EDX bit 8, asked on the first call rather than at
 * load (each CPUID can trap to a hypervisor, and only module/rand/uuid.c's clock asks). A race
 * between two first callers stores the same answer. */
bool fm_cpu_invariant_tsc(void) {
#if defined(__x86_64__)
  static _Atomic int answer; /* 0: not asked yet; 1: yes; 2: no */
  int a = atomic_load_explicit(&answer, memory_order_relaxed);
  if (a == 0) {
    unsigned eax, ebx, ecx, edx = 0;
    const bool has = !g_forced_portable &&
                     (unsigned)__get_cpuid_max(0x80000000u, NULL) >= 0x80000007u &&
                     __get_cpuid(0x80000007u, &eax, &ebx, &ecx, &edx) && ((edx >> 8) & 1);
    a = has ? 1 : 2;
    atomic_store_explicit(&answer, a, memory_order_relaxed);
  }
  return a == 1;
#else
  return false;
#endif
}

int fm_module_cpu_features(uint32_t *detected, uint32_t *in_use) {
  if (detected) *detected = g_detected;
  if (in_use) *in_use = fm_g_cpu_in_use;
  return FM_OK;
}

const char *fm_module_cpu_feature_name(uint32_t feature) {
  switch (feature) {
    case FM_CPU_AESNI: return "aesni";
    case FM_CPU_VAES: return "vaes";
    case FM_CPU_PCLMULQDQ: return "pclmulqdq";
    case FM_CPU_SHANI: return "sha-ni";
    case FM_CPU_BMI2: return "bmi2";
    case FM_CPU_ADX: return "adx";
    case FM_CPU_AVX2: return "avx2";
    case FM_CPU_AVX512: return "avx512";
    case FM_CPU_VPCLMULQDQ: return "vpclmulqdq";
    case FM_CPU_AVX512IFMA: return "avx512ifma";
    case FM_CPU_ARM_AES: return "aes";
    case FM_CPU_ARM_PMULL: return "pmull";
    case FM_CPU_ARM_SHA2: return "sha2";
    case FM_CPU_ARM_SHA512: return "sha512";
  }
  return "unknown";
}

const char *fm_module_cpu_paths(void) {
  /* Built on first call from the words above, which no longer change; a race between two first
   * callers writes the same bytes. */
  static char paths[224];
  const char *aes = fm_cpu_use(FM_CPU_VAES | FM_CPU_AVX512) ? "vaes-avx512"
                    : fm_cpu_use(FM_CPU_VAES)              ? "vaes-avx2"
                    : fm_cpu_use(FM_CPU_AESNI)             ? "aes-ni"
                                                           : "portable-bitsliced";
  snprintf(paths, sizeof paths, "aes=%s sha256=%s sha512=%s sha3=%s bn=%s ec=%s mlkem=%s mldsa=%s%s",
           aes, sha256_path_name(), sha512_path_name(), keccak_path_name(), bn_path_name(),
           ec_path_name(), mlkem_path_name(), mldsa_path_name(),
           g_forced_portable ? " (FIPSMOD_CPU=portable)" : "");
  return paths;
}
