/* How the RNG services refuse a call ("wipe on error overruns" and "overlap"): the module state
 * is checked first, then the arguments, and a refusal wipes only what the call could
 * legitimately have written.
 *
 * 1. Huge claimed lengths on small buffers: each output buffer ends at a PROT_NONE guard page, so
 *    a wipe (or a write) past what the caller really has is a crash. Every case runs in a child
 *    process: a crash fails it. In OPERATIONAL and in ERROR.
 * 2. fm_ctr_drbg_generate refuses an output that overlaps its own state (FM_ERR_OVERLAP), writes
 *    nothing and leaves the state as it was; an output right next to the state is fine.
 *    fm_ctr_drbg_instantiate refuses inputs that lie inside the state.
 * 3. In ERROR, NULL arguments get FM_ERR_NOT_OPERATIONAL (state first), and outputs of valid
 *    length are wiped. */
#define _GNU_SOURCE
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fipsmod/fipsmod.h"
#include "module/internal.h"
#include "tests/common/test_util.h"
#include "tests/rand/rand_test_util.h"

#define SMALL 256

/* guarded returns a buffer of |len| bytes (0xaa) that ends where a PROT_NONE page begins. */
static uint8_t *guarded(size_t len) {
  size_t ps = (size_t)sysconf(_SC_PAGESIZE);
  size_t span = (len + ps - 1) / ps * ps;
  uint8_t *m = mmap(NULL, span + ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) return NULL;
  mprotect(m + span, ps, PROT_NONE);
  uint8_t *p = m + span - len;
  memset(p, 0xaa, len);
  return p;
}

static int all_aa(const uint8_t *p, size_t len) {
  for (size_t i = 0; i < len; i++) {
    if (p[i] != 0xaa) return 0;
  }
  return 1;
}

static const uint8_t g_entropy[48] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
                                      17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32,
                                      33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48};

static const size_t g_huge[] = {FM_DRBG_MAX_REQUEST + 1, (size_t)1 << 32, (size_t)PTRDIFF_MAX,
                                (size_t)PTRDIFF_MAX + 1, SIZE_MAX};
#define NHUGE (sizeof(g_huge) / sizeof(g_huge[0]))

/* huge_lengths makes every call with a claimed length that is too long for the small buffer;
 * |error_state| runs them in ERROR. Returns 0 when each was refused as expected and the buffer
 * (up to its guard page) is as it was. */
static int huge_lengths(int error_state) {
  fm_ctr_drbg d, d_pr;
  if (fm_ctr_drbg_instantiate(&d, 0, g_entropy, 48, NULL, 0, NULL, 0) != FM_OK) return 10;
  if (fm_ctr_drbg_instantiate(&d_pr, FM_DRBG_USE_DF | FM_DRBG_PREDICTION_RESISTANCE, g_entropy,
                              48, g_entropy, 16, NULL, 0) != FM_OK)
    return 11;
  if (error_state) fm_module_force_error_for_testing();
  const int not_op = FM_ERR_NOT_OPERATIONAL;
  uint8_t *buf = guarded(SMALL);
  if (buf == NULL) return 12;
  for (size_t i = 0; i < NHUGE; i++) {
    size_t n = g_huge[i];
    /* DRBG generate: out_len above the maximum; also together with other faults. */
    if (fm_ctr_drbg_generate(&d, buf, n, NULL, 0, NULL, 0) != (error_state ? not_op : FM_ERR_LENGTH))
      return 20;
    if (fm_ctr_drbg_generate(&d, buf, n, g_entropy, 48, NULL, 0) !=
        (error_state ? not_op : FM_ERR_LENGTH))
      return 21;
    if (fm_ctr_drbg_generate(&d_pr, buf, n, g_entropy, 1, NULL, 0) !=
        (error_state ? not_op : FM_ERR_LENGTH))
      return 22;
    if (fm_ctr_drbg_generate(&d, buf, n, NULL, 0, g_entropy, n) !=
        (error_state ? not_op : FM_ERR_LENGTH))
      return 23;
    if (!all_aa(buf, SMALL)) return 24;
    /* Process RNG: no object is larger than PTRDIFF_MAX bytes. */
    if (n > (size_t)PTRDIFF_MAX) {
      if (fm_rand_bytes(buf, n) != (error_state ? not_op : FM_ERR_LENGTH)) return 30;
      if (fm_rand_bytes_with_input(buf, n, g_entropy, 4) != (error_state ? not_op : FM_ERR_LENGTH))
        return 31;
      if (fm_rand_bytes_with_input(buf, n, g_entropy, n) != (error_state ? not_op : FM_ERR_LENGTH))
        return 32;
      if (!all_aa(buf, SMALL)) return 33;
    }
    /* Huge input lengths with a valid output: the output (16 bytes) is wiped, the input not read
     * (the inputs here are 48 bytes long). */
    uint8_t *out16 = guarded(16);
    if (out16 == NULL) return 40;
    if (fm_rand_bytes_with_input(out16, 16, g_entropy, n) != (error_state ? not_op : FM_ERR_LENGTH))
      return 41;
    if (!test_is_all_zero(out16, 16)) return 42;
    memset(out16, 0xaa, 16);
    if (fm_ctr_drbg_generate(&d, out16, 16, NULL, 0, g_entropy, n) !=
        (error_state ? not_op : FM_ERR_LENGTH))
      return 43;
    if (!test_is_all_zero(out16, 16)) return 44;
    fm_ctr_drbg tmp;
    if (fm_ctr_drbg_instantiate(&tmp, FM_DRBG_USE_DF, g_entropy, n, g_entropy, 16, NULL, 0) !=
        (error_state ? not_op : FM_ERR_LENGTH))
      return 45;
    if (fm_ctr_drbg_reseed(&d, g_entropy, n, NULL, 0) != (error_state ? not_op : FM_ERR_LENGTH))
      return 46;
    uint8_t u[FM_UUID_LEN];
    if (fm_uuid_parse("00000000-0000-0000-0000-000000000000", n, u) !=
        (error_state ? not_op : FM_ERR_PARSE))
      return 47;
  }
  return 0;
}

static int huge_lengths_operational(void) { return huge_lengths(0); }
static int huge_lengths_error(void) { return huge_lengths(1); }

/* The state first: in ERROR, NULL arguments are not what the caller hears about. */
static int error_state_order(void) {
  fm_module_force_error_for_testing();
  const int not_op = FM_ERR_NOT_OPERATIONAL;
  if (fm_rand_bytes(NULL, 1) != not_op) return 10;
  if (fm_rand_bytes_with_input(NULL, 1, NULL, 5) != not_op) return 11;
  if (fm_rand_u32(NULL) != not_op || fm_rand_u64(NULL) != not_op) return 12;
  if (fm_rand_uniform(0, NULL) != not_op) return 13;
  if (fm_uuid_v4(NULL) != not_op || fm_uuid_v7(NULL) != not_op) return 14;
  if (fm_uuid_v4_string(NULL) != not_op || fm_uuid_v7_string(NULL) != not_op) return 15;
  if (fm_uuid_format(NULL, NULL) != not_op || fm_uuid_parse(NULL, 0, NULL) != not_op) return 16;
  if (fm_uuid_version(NULL, NULL) != not_op) return 17;
  if (fm_ctr_drbg_instantiate(NULL, 0, NULL, 0, NULL, 0, NULL, 0) != not_op) return 18;
  if (fm_ctr_drbg_reseed(NULL, NULL, 0, NULL, 0) != not_op) return 19;
  if (fm_ctr_drbg_generate(NULL, NULL, 1, NULL, 0, NULL, 0) != not_op) return 20;
  if (fm_rand_reseed() != not_op || fm_rand_enable_fork_unsafe_buffering(5) != not_op) return 21;
  /* Outputs of valid length are wiped. */
  uint8_t b[40];
  uint32_t w32 = 7;
  uint64_t w64 = 7;
  int version = 7;
  memset(b, 0xaa, sizeof(b));
  if (fm_uuid_format(b, (char *)b) != not_op || !test_is_all_zero(b, 37)) return 30;
  memset(b, 0xaa, sizeof(b));
  if (fm_uuid_parse("x", 1, b) != not_op || !test_is_all_zero(b, 16)) return 31;
  if (fm_rand_u32(&w32) != not_op || w32 != 0 || fm_rand_u64(&w64) != not_op || w64 != 0) return 32;
  w64 = 7;
  if (fm_rand_uniform(10, &w64) != not_op || w64 != 0) return 33;
  if (fm_uuid_version(b, &version) != not_op || version != 0) return 34;
  return 0;
}

/* The overlap checks of the DRBG state. */
static void test_overlap(void) {
  struct {
    _Alignas(64) uint8_t before[64];
    fm_ctr_drbg d;
    uint8_t after[64];
  } s;
  CHECK_EQ_INT(fm_ctr_drbg_instantiate(&s.d, 0, g_entropy, 48, NULL, 0, NULL, 0), FM_OK);
  fm_ctr_drbg copy;
  memcpy(&copy, &s.d, sizeof(copy));
  uint8_t *d = (uint8_t *)&s.d;
  /* Inside, straddling the start, straddling the end, the whole state. */
  CHECK_EQ_INT(fm_ctr_drbg_generate(&s.d, d + 16, 32, NULL, 0, NULL, 0), FM_ERR_OVERLAP);
  CHECK_EQ_INT(fm_ctr_drbg_generate(&s.d, s.before + 32, 64, NULL, 0, NULL, 0), FM_ERR_OVERLAP);
  CHECK_EQ_INT(fm_ctr_drbg_generate(&s.d, d + sizeof(s.d) - 8, 16, NULL, 0, NULL, 0),
               FM_ERR_OVERLAP);
  CHECK_EQ_INT(fm_ctr_drbg_generate(&s.d, d, sizeof(s.d), NULL, 0, NULL, 0), FM_ERR_OVERLAP);
  CHECK(memcmp(&copy, &s.d, sizeof(copy)) == 0); /* nothing written, the state unchanged */
  /* Right next to the state, on either side: not an overlap. */
  CHECK_EQ_INT(fm_ctr_drbg_generate(&s.d, s.before, sizeof(s.before), NULL, 0, NULL, 0), FM_OK);
  CHECK_EQ_INT(fm_ctr_drbg_generate(&s.d, s.after, sizeof(s.after), NULL, 0, NULL, 0), FM_OK);
  /* Instantiate from inputs inside the state. */
  memcpy(d + 100, g_entropy, 48);
  CHECK_EQ_INT(fm_ctr_drbg_instantiate(&s.d, 0, d + 100, 48, NULL, 0, NULL, 0), FM_ERR_OVERLAP);
  CHECK(test_is_all_zero(&s.d, sizeof(s.d))); /* refused: left wiped */
  CHECK_EQ_INT(fm_ctr_drbg_instantiate(&s.d, FM_DRBG_USE_DF, g_entropy, 48, d, 16, NULL, 0),
               FM_ERR_OVERLAP);
  CHECK_EQ_INT(fm_ctr_drbg_instantiate(&s.d, 0, g_entropy, 48, NULL, 0, d + 8, 8), FM_ERR_OVERLAP);
  CHECK_EQ_INT(fm_ctr_drbg_instantiate(&s.d, 0, s.before, 48, NULL, 0, s.after, 8), FM_OK);
  fm_ctr_drbg_uninstantiate(&s.d);
}

static void run(const char *name, int (*fn)(void)) {
  int st = rt_run_child(name, fn, 60, NULL, 0);
  if (st != 0) {
    test_failures++;
    fprintf(stderr, "scenario %s failed: status %d\n", name, st);
  }
}

static void test_huge_lengths_operational(void) {
  run("huge_lengths_operational", huge_lengths_operational);
}
static void test_huge_lengths_error(void) { run("huge_lengths_error", huge_lengths_error); }
static void test_error_state_order(void) { run("error_state_order", error_state_order); }

static const test_case cases[] = {
  TEST_CASE(huge_lengths_operational),
  TEST_CASE(huge_lengths_error),
  TEST_CASE(error_state_order),
  TEST_CASE(overlap),
};

int main(int argc, char **argv) { return TEST_RUN(argc, argv, "test_rand_refuse", cases); }
