/* What a call leaves on the stack below its caller, compared between two runs that differ only
 * in their secrets (test_aes_stack, test_gcm_residue; test_sha_residue does the same for HMAC).
 *
 * residue_differing(setup, run, what) calls setup(0), then run() on a stack area zeroed first,
 * and copies the area; then the same with setup(1). |setup| puts one of two sets of secrets (key,
 * plaintext) into buffers whose addresses do not change, so return addresses, pointers, lengths
 * and counters are the same in both runs: a byte of the area that differs was computed from the
 * secrets. It returns how many bytes differ and prints where they are.
 *
 * The area is read by a function whose frame lies where the module's frames were (called from
 * the same function at the same depth), through an uninitialized local array that an empty asm
 * claims to write. residue_depth() says how deep below its caller a call wrote (informational:
 * what a stack wipe has to cover). A planted residue checks that the scan sees what a returned
 * function left (residue_self_check). */
#ifndef FIPSMOD_TESTS_AES_STACK_RESIDUE_H
#define FIPSMOD_TESTS_AES_STACK_RESIDUE_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "module/aes/internal.h"
#include "tests/common/test_util.h"

/* The wipe that the module runs after its AES and GCM bulk kernels, and 4 KiB beyond it, so that
 * a frame deeper than the wipe leaves secrets where the scan sees them. A test of deeper services
 * defines its own scan before including this header. */
#ifndef RESIDUE_SCAN
#define RESIDUE_SCAN (AES_BULK_STACK_WIPE + 4096)
#endif

typedef void (*residue_setup_fn)(int which);
typedef void (*residue_run_fn)(void);

/* The functions that write and read the area, and the planted residue, are not instrumented by
 * ASan: its redzones and fake stack frames would move their arrays away from where the module's
 * frames were. The copy is a byte loop, not memcpy (which ASan intercepts and checks). */
static __attribute__((noinline, no_sanitize_address)) void residue_fill_area(uint8_t value) {
  volatile uint8_t area[RESIDUE_SCAN];
  for (size_t i = 0; i < sizeof area; i++) area[i] = value;
  __asm__ __volatile__("" : : "r"(area) : "memory");
}

static __attribute__((noinline, no_sanitize_address)) void residue_snapshot(uint8_t *dst) {
  uint8_t area[RESIDUE_SCAN];
  __asm__ __volatile__("" : : "r"(area) : "memory");
  const volatile uint8_t *src = area;
  for (size_t i = 0; i < sizeof area; i++) dst[i] = src[i];
  __asm__ __volatile__("" : : "r"(area) : "memory");
}

static uint8_t g_residue_scan[RESIDUE_SCAN];

/* residue_one_run fills the area with |fill|, runs, and copies the area to g_residue_scan. No
 * value that differs between the two runs is live in it, so no register the module's functions
 * save on entry holds one. */
static __attribute__((noinline)) void residue_one_run(residue_run_fn run, uint8_t fill) {
  /* The registers may still hold the previous run's values (setup's). */
  TEST_ZERO_GENERAL_REGISTERS();
  residue_fill_area(fill);
  run();
  residue_snapshot(g_residue_scan);
  __asm__ __volatile__("" : : : "memory");
}

/* residue_differing returns how many bytes of the area differ between the runs with secrets 0
 * and 1, and prints them (8 bytes a line) when |what| is not NULL. Offset 0 is the deepest byte
 * of the area; RESIDUE_SCAN - 1 lies just below the caller's frame. */
static size_t residue_differing(residue_setup_fn setup, residue_run_fn run, const char *what) {
  static uint8_t scan[2][RESIDUE_SCAN];
  for (int k = 0; k < 2; k++) {
    setup(k);
    residue_one_run(run, 0);
    memcpy(scan[k], g_residue_scan, RESIDUE_SCAN);
  }
  size_t n = 0, first = RESIDUE_SCAN, last = 0;
  for (size_t i = 0; i < RESIDUE_SCAN; i++) {
    if (scan[0][i] != scan[1][i]) {
      n++;
      if (i < first) first = i;
      last = i;
    }
  }
  if (n != 0 && what != NULL) {
    fprintf(stderr, "%s: %zu secret-dependent bytes left on the stack, %zu..%zu bytes below "
            "the caller\n", what, n, RESIDUE_SCAN - last, RESIDUE_SCAN - first);
    int lines = 0;
    for (size_t i = 0; i < RESIDUE_SCAN && lines < 24; i += 8) {
      if (memcmp(scan[0] + i, scan[1] + i, 8) == 0) continue;
      uint64_t x, y;
      memcpy(&x, scan[0] + i, 8);
      memcpy(&y, scan[1] + i, 8);
      fprintf(stderr, "  %zu below: %016llx / %016llx\n", RESIDUE_SCAN - i,
              (unsigned long long)x, (unsigned long long)y);
      lines++;
    }
  }
  return n;
}

/* residue_check_path runs check(path, &depth) (the residue checks of one CPU path) and prints
 * whether the path left residue and how deep below the caller its calls wrote. */
static void residue_check_path(const char *path, void (*check)(const char *, size_t *)) {
  size_t depth = 0;
  const int failures = test_failures;
  check(path, &depth);
  fprintf(stderr, "%s: %s, deepest stack use %zu bytes below the caller\n", path,
          test_failures == failures ? "no residue" : "RESIDUE", depth);
}

/* residue_depth returns how many bytes below its caller |run| (after setup(0)) wrote: the
 * deepest byte of the area that two fills (0x00, 0xff) do not both keep. */
static size_t residue_depth(residue_setup_fn setup, residue_run_fn run) {
  static uint8_t scan[2][RESIDUE_SCAN];
  for (int f = 0; f < 2; f++) {
    setup(0);
    residue_one_run(run, f ? 0xff : 0x00);
    memcpy(scan[f], g_residue_scan, RESIDUE_SCAN);
  }
  for (size_t i = 0; i < RESIDUE_SCAN; i++) {
    if (scan[0][i] != 0x00 || scan[1][i] != 0xff) return RESIDUE_SCAN - i;
  }
  return 0;
}

/* The self-check: a function that copies its secret into its own frame and returns. */
static uint8_t g_residue_planted[16];
static __attribute__((noinline)) void residue_planted_setup(int which) {
  for (int i = 0; i < 16; i++) g_residue_planted[i] = (uint8_t)(which ? 0xa5 ^ (i * 29) : i * 7);
}
static __attribute__((noinline, no_sanitize_address)) void residue_leave_in_frame(void) {
  volatile uint8_t frame[256];
  for (size_t i = 0; i < sizeof frame; i++) frame[i] = g_residue_planted[i % 16];
  __asm__ __volatile__("" : : "r"(frame) : "memory");
}

/* residue_self_check: the scan sees a planted residue (at least 256 bytes differ), so that a
 * pass elsewhere means something. */
static inline void residue_self_check(void) {
  CHECK(residue_differing(residue_planted_setup, residue_leave_in_frame, NULL) >= 240);
}

#endif
