/* Keccak leaves no state-derived bytes on the stack ("residue"): after each entry point of
 * module/sha3/internal.h that permutes (the one-shot SHA3 and SHAKE, absorb and squeeze, the
 * bare permutations), the stack below the caller holds nothing that depends on the input. The
 * same sequence runs twice, with two random secret inputs and everything else equal, each time on
 * a stack area zeroed first, and what the two runs left there is compared byte by byte: a byte
 * that differs was computed from the input (return addresses, pointers and lengths are equal in
 * both runs). Outputs and states live in static storage, wiped by the test, so only the stack is
 * compared. Same method as tests/sha/test_sha_residue.c. */
#include <string.h>

#include "fipsmod/module.h"
#include "module/sha3/internal.h"
#include "tests/common/test_util.h"

#define SCAN 8192

static uint8_t g_in[2][300];
static uint8_t g_cur[300]; /* the run's input: one address, so that pointers are equal */
static uint8_t g_out[400];
static keccak_state g_state;
static uint64_t g_lanes[4][25];

static __attribute__((noinline)) void clear_area(void) {
  volatile uint8_t area[SCAN];
  for (size_t i = 0; i < sizeof area; i++) area[i] = 0;
  __asm__ __volatile__("" : : "r"(area) : "memory");
}

static __attribute__((noinline)) void snapshot(uint8_t *dst) {
  uint8_t area[SCAN];
  __asm__ __volatile__("" : : "r"(area) : "memory");
  memcpy(dst, area, sizeof area);
  __asm__ __volatile__("" : : "r"(area) : "memory");
}

enum op { OP_SHAKE256, OP_SHA3_256, OP_STREAM, OP_F1600, OP_X4, OP_X4_BLOCKS };

static __attribute__((noinline)) void run(enum op op) {
  switch (op) {
    case OP_SHAKE256: shake256(g_out, sizeof g_out, g_cur, sizeof g_cur); break;
    case OP_SHA3_256: sha3_digest(256, g_cur, sizeof g_cur, g_out); break;
    case OP_STREAM:
      shake128_init(&g_state);
      keccak_absorb(&g_state, g_cur, 17);
      keccak_absorb(&g_state, g_cur + 17, sizeof g_cur - 17);
      keccak_squeeze(&g_state, g_out, 5);
      keccak_squeeze_blocks(&g_state, g_out + 5, 2);
      keccak_wipe(&g_state);
      break;
    case OP_F1600:
      memcpy(g_lanes[0], g_cur, 200);
      keccak_f1600(g_lanes[0]);
      break;
    case OP_X4:
      for (int i = 0; i < 4; i++) memcpy(g_lanes[i], g_cur + 25 * i, 200);
      keccak_f1600_x4(g_lanes);
      break;
    case OP_X4_BLOCKS: /* a sampler's blocks: no wipe between them, one after the last */
      for (int i = 0; i < 4; i++) memcpy(g_lanes[i], g_cur + 25 * i, 200);
      keccak_f1600_x4_nowipe(g_lanes);
      keccak_f1600_x4_nowipe(g_lanes);
      keccak_x4_wipe_stack();
      break;
  }
  memset(g_out, 0, sizeof g_out);
  memset(g_lanes, 0, sizeof g_lanes);
}

static uint8_t g_snap[SCAN];

/* one_run takes the same arguments in both runs: only g_cur differs. It zeroes the general
 * registers first, so that no register a function below it saves on entry holds a value of its
 * caller's that differs between the two runs (the two call sites keep different addresses). */
static __attribute__((noinline)) void one_run(enum op op) {
  TEST_ZERO_GENERAL_REGISTERS();
  clear_area();
  run(op);
  snapshot(g_snap);
  /* Not a tail call: snapshot's frame starts where clear_area's did, below this one, rather
   * than over this frame's saved registers (the caller's, which differ between the runs). */
  __asm__ __volatile__("" : : : "memory");
}

static void check_op(enum op op, const char *name) {
  static uint8_t a[SCAN];
  memcpy(g_cur, g_in[0], sizeof g_cur);
  one_run(op);
  memcpy(a, g_snap, SCAN);
  memcpy(g_cur, g_in[1], sizeof g_cur);
  one_run(op);
  size_t differ = 0, first = SCAN;
  for (size_t i = 0; i < SCAN; i++) {
    if (a[i] != g_snap[i]) {
      differ++;
      if (first == SCAN) first = i;
    }
  }
  if (differ != 0) {
    fprintf(stderr, "%s: %zu input-dependent stack bytes (the first %zu bytes below the top)\n",
            name, differ, SCAN - first);
  }
  CHECK(differ == 0);
}

static void test_no_residue(void) {
  test_rng rng;
  test_rng_seed(&rng, "test_keccak_residue");
  test_rng_bytes(&rng, g_in[0], sizeof g_in[0]);
  test_rng_bytes(&rng, g_in[1], sizeof g_in[1]);
  /* The module's start-up (linked in by this reference) chooses the CPU paths. */
  CHECK(fm_module_state() == FM_STATE_OPERATIONAL);
  /* A first call through the PLT runs the dynamic linker's resolver, which saves registers on
   * the stack: run every operation once so that both compared runs bind nothing. */
  for (int op = OP_SHAKE256; op <= OP_X4_BLOCKS; op++) one_run((enum op)op);
  check_op(OP_SHAKE256, "shake256");
  check_op(OP_SHA3_256, "sha3_digest");
  check_op(OP_STREAM, "absorb/squeeze");
  check_op(OP_F1600, "keccak_f1600");
  check_op(OP_X4, "keccak_f1600_x4");
  check_op(OP_X4_BLOCKS, "keccak_f1600_x4_nowipe and keccak_x4_wipe_stack");
}

/* The scan sees what a returned function left: a planted residue is found. */
static __attribute__((noinline)) void plant(const uint8_t *src) {
  volatile uint8_t area[256];
  for (size_t i = 0; i < sizeof area; i++) area[i] = src[i];
  __asm__ __volatile__("" : : "r"(area) : "memory");
}

static void test_scan_sees_residue(void) {
  static uint8_t a[SCAN], b[SCAN];
  memset(g_in[0], 1, sizeof g_in[0]);
  memset(g_in[1], 2, sizeof g_in[1]);
  clear_area();
  plant(g_in[0]);
  snapshot(a);
  clear_area();
  plant(g_in[1]);
  snapshot(b);
  CHECK(memcmp(a, b, SCAN) != 0);
}

int main(int argc, char **argv) {
  static const test_case cases[] = {TEST_CASE(no_residue), TEST_CASE(scan_sees_residue)};
  return TEST_RUN(argc, argv, "test_keccak_residue", cases);
}
