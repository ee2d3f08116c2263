/* The module's life cycle, status names, CPU dispatch and the shared constant-time helpers. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#if defined(__aarch64__)
#include <asm/hwcap.h>
#include <sys/auxv.h>
#endif

#include "fipsmod/fipsmod.h"
#include "module/internal.h"
#include "module/internal.h"
#include "tests/common/test_util.h"

static void test_loaded_module_is_operational(void) {
  CHECK_EQ_INT(fm_module_state(), FM_STATE_OPERATIONAL);
  CHECK(strncmp(fm_module_version(), "fipsmod ", 8) == 0);
  CHECK(strcmp(fm_module_state_name(FM_STATE_ERROR), "ERROR") == 0);
  CHECK(strcmp(fm_module_state_name(FM_STATE_OPERATIONAL), "OPERATIONAL") == 0);
  CHECK(strcmp(fm_module_state_name((fm_state)42), "unknown") == 0);
}

static void test_every_status_has_a_distinct_name(void) {
  const char *names[32] = {0};
  for (int code = 0; code >= FM_ERR_IO; code--) {
    const char *n = fm_strerror(code);
    CHECK(strcmp(n, "unknown status") != 0);
    for (int j = 0; j > code; j--) CHECK(strcmp(names[-j], n) != 0);
    names[-code] = n;
  }
  CHECK(strcmp(fm_strerror(FM_ERR_IO - 1), "unknown status") == 0);
  CHECK(strcmp(fm_strerror(1), "unknown status") == 0);
  CHECK(strstr(fm_strerror(FM_ERR_NOT_OPERATIONAL), "FM_ERR_NOT_OPERATIONAL") != NULL);
}

static void test_cpu_features_in_use_are_detected(void) {
  const uint32_t arm_features = FM_CPU_ARM_AES | FM_CPU_ARM_PMULL | FM_CPU_ARM_SHA2 | FM_CPU_ARM_SHA512;
  uint32_t detected = 0, in_use = 0;
  CHECK_EQ_INT(fm_module_cpu_features(&detected, &in_use), FM_OK);
  CHECK((in_use & ~detected) == 0);
  CHECK_EQ_INT(fm_module_cpu_features(NULL, NULL), FM_OK);
  const char *env = getenv("FIPSMOD_CPU");
  if (env != NULL && strcmp(env, "portable") == 0) {
    CHECK_EQ_INT(in_use, 0);
    CHECK(strstr(fm_module_cpu_paths(), "portable") != NULL);
  } else {
    CHECK_EQ_INT(in_use, detected & ~arm_features);
  }
  /* The ARMv8 features are reported, never used (no path exists for them yet). */
  CHECK((in_use & arm_features) == 0);
#if defined(__aarch64__)
  /* They are the kernel's HWCAP bits, as libc's getauxval reads them too. */
  const unsigned long hwcap = getauxval(AT_HWCAP);
  CHECK_EQ_INT(!!(detected & FM_CPU_ARM_AES), !!(hwcap & HWCAP_AES));
  CHECK_EQ_INT(!!(detected & FM_CPU_ARM_PMULL), !!(hwcap & HWCAP_PMULL));
  CHECK_EQ_INT(!!(detected & FM_CPU_ARM_SHA2), !!(hwcap & HWCAP_SHA2));
  CHECK_EQ_INT(!!(detected & FM_CPU_ARM_SHA512), !!(hwcap & HWCAP_SHA512));
  CHECK_EQ_INT(detected & ~arm_features, 0);
#else
  CHECK_EQ_INT(detected & arm_features, 0);
#endif
  CHECK(strcmp(fm_module_cpu_feature_name(FM_CPU_ARM_PMULL), "pmull") == 0);
  CHECK(strcmp(fm_module_cpu_feature_name(FM_CPU_AESNI), "aesni") == 0);
  CHECK(strcmp(fm_module_cpu_feature_name(1u << 30), "unknown") == 0);
  CHECK(strcmp(fm_module_cpu_feature_name(FM_CPU_VPCLMULQDQ), "vpclmulqdq") == 0);
  CHECK(strcmp(fm_module_cpu_feature_name(FM_CPU_AVX512IFMA), "avx512ifma") == 0);
  /* The wide features come only with the register state and base features they need. */
  const uint32_t clmul_base = FM_CPU_PCLMULQDQ | FM_CPU_AVX2;
  if (detected & FM_CPU_VPCLMULQDQ) CHECK((detected & clmul_base) == clmul_base);
  if (detected & FM_CPU_AVX512IFMA) CHECK(detected & FM_CPU_AVX512);
}

/* run_in_child runs fn in a forked child and returns its exit status (0 = its checks passed). */
static int run_in_child(void (*fn)(void)) {
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    fn();
    _exit(test_failures == 0 ? 0 : 1);
  }
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) != pid) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void child_cleanup_switches_services_off(void) {
  CHECK_EQ_INT(fm_module_cleanup(), FM_OK);
  CHECK_EQ_INT(fm_module_state(), FM_STATE_UNINITIALIZED);
  uint8_t out[32];
  memset(out, 0xAA, sizeof out);
  CHECK_EQ_INT(fm_sha256("abc", 3, out), FM_ERR_NOT_OPERATIONAL);
  CHECK(test_is_all_zero(out, sizeof out));
  CHECK_EQ_INT(fm_module_cleanup(), FM_OK); /* twice is harmless */
  CHECK_EQ_INT(fm_module_state(), FM_STATE_UNINITIALIZED);
}

static void child_error_state_is_final(void) {
  fm_module_force_error_for_testing();
  CHECK_EQ_INT(fm_module_state(), FM_STATE_ERROR);
  CHECK(fm_module_error_reason() != NULL);
  CHECK_EQ_INT(fm_module_cleanup(), FM_OK);
  CHECK_EQ_INT(fm_module_state(), FM_STATE_ERROR);
  CHECK_EQ_INT(fm_module_begin_selftest(), FM_ERR_NOT_OPERATIONAL);
  uint8_t out[32];
  memset(out, 0xAA, sizeof out);
  CHECK_EQ_INT(fm_sha256("abc", 3, out), FM_ERR_NOT_OPERATIONAL);
  CHECK(test_is_all_zero(out, sizeof out));
}

static void test_state_transitions(void) {
  CHECK_EQ_INT(run_in_child(child_cleanup_switches_services_off), 0);
  CHECK_EQ_INT(run_in_child(child_error_state_is_final), 0);
  CHECK_EQ_INT(fm_module_state(), FM_STATE_OPERATIONAL); /* the parent is untouched */
}

static void test_ct_helpers_agree_with_plain_comparisons(void) {
  static const uint64_t vals[] = {0, 1, 2, 0x7fffffffffffffffull, 0x8000000000000000ull,
                                  0xfffffffffffffffeull, 0xffffffffffffffffull, 12345};
  const size_t n = sizeof vals / sizeof vals[0];
  for (size_t i = 0; i < n; i++) {
    CHECK_EQ_INT(ct_is_zero_u64(vals[i]), vals[i] == 0 ? ~0ull : 0);
    for (size_t j = 0; j < n; j++) {
      uint64_t a = vals[i], b = vals[j];
      CHECK(ct_eq_u64(a, b) == (a == b ? ~0ull : 0));
      CHECK(ct_lt_u64(a, b) == (a < b ? ~0ull : 0));
      CHECK(ct_select_u64(ct_lt_u64(a, b), a, b) == (a < b ? a : b));
      uint32_t a32 = (uint32_t)a, b32 = (uint32_t)b;
      CHECK(ct_eq_u32(a32, b32) == (a32 == b32 ? ~0u : 0));
    }
  }
  uint8_t x[40], y[40];
  memset(x, 7, sizeof x);
  memcpy(y, x, sizeof y);
  CHECK_EQ_INT(fm_ct_memeq(x, y, sizeof x), 1);
  for (size_t i = 0; i < sizeof x; i++) {
    y[i] ^= 0x80;
    CHECK_EQ_INT(fm_ct_memeq(x, y, sizeof x), 0);
    y[i] ^= 0x80;
  }
  CHECK_EQ_INT(fm_ct_memeq(x, y, 0), 1);
  fm_zeroize(x, sizeof x);
  CHECK(test_is_all_zero(x, sizeof x));
  CHECK(fm_buffers_bad_overlap(x, x + 1, 16));
  CHECK(!fm_buffers_bad_overlap(x, x, 16));
  CHECK(!fm_buffers_bad_overlap(x, x + 16, 16));
  CHECK(!fm_buffers_overlap(x, 0, x, 16));
}

static const test_case cases[] = {
  TEST_CASE(loaded_module_is_operational),
  TEST_CASE(every_status_has_a_distinct_name),
  TEST_CASE(cpu_features_in_use_are_detected),
  TEST_CASE(state_transitions),
  TEST_CASE(ct_helpers_agree_with_plain_comparisons),
};

int main(int argc, char **argv) {
  return TEST_RUN(argc, argv, "test_module_lifecycle", cases);
}
