/* The AES services leave no secret on the stack (the project standard: stack intermediates are
 * CSPs). The bulk kernels (VAES on 512- and 256-bit registers, AES-NI eight blocks in flight,
 * the bitsliced portable code) spill cipher states, key stream and round keys to their frames,
 * where C cannot name them; aes.c wipes the stack below it after them.
 *
 * Each case runs one service twice, with two random keys and inputs and everything else equal
 * (IV or counter, lengths, buffer addresses), each time on a stack area zeroed first, and
 * compares what the two runs left below the caller (stack_residue.h): a byte that differs was
 * computed from the key or the input. Services: key set-up, ECB and CBC both ways, CTR with
 * both counter widths, and the streamed CTR; and the internal entries the CTR_DRBG uses
 * (aes_ks_init_encrypt, through the key set-up; aes_ctr128_blocks writing key stream;
 * aes_encrypt_block); block counts that reach each path's short and wide
 * loops and their tails. Every bulk width this machine has is walked (aes_test_paths.h);
 * registered again with FIPSMOD_CPU=portable. (test_aes_residue checks the vector registers.) */
#include <stdlib.h>
#include <string.h>

#include "fipsmod/aes.h"
#include "tests/aes/aes_test_paths.h"
#include "tests/aes/stack_residue.h"

enum { MAX_BLOCKS = 70 };

static uint8_t g_keys[2][32], g_texts[2][16 * MAX_BLOCKS];
static const uint8_t k_iv[16] = {0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7,
                                 0xf8, 0xf9, 0xfa, 0xfb, 0xfc, 0xfd, 0xfe, 0xff};

/* What a run reads and writes: the same addresses in both runs. */
static uint8_t g_key[32], g_in[16 * MAX_BLOCKS], g_out[16 * MAX_BLOCKS], g_iv[16], g_stream[16];
static fm_aes_key g_ak;
static size_t g_klen, g_len;
static int g_op;

enum {
  OP_ECB_ENC,
  OP_ECB_DEC,
  OP_CBC_ENC,
  OP_CBC_DEC,
  OP_CTR32,
  OP_CTR128,
  OP_CTR_STREAM,
  OP_KEY_STREAM,    /* aes_ctr128_blocks with no input: how the CTR_DRBG draws */
  OP_ENCRYPT_BLOCK, /* aes_encrypt_block: the CTR_DRBG's derivation function */
  NOPS
};
static const char *const k_op_names[NOPS] = {
    "ECB encrypt", "ECB decrypt", "CBC encrypt",   "CBC decrypt",
    "CTR32",       "CTR128",      "CTR128 stream", "aes_ctr128_blocks key stream",
    "aes_encrypt_block"};
static aes_ks g_ks;

static void reset_counter(void) {
  memcpy(g_iv, k_iv, sizeof g_iv);
  memset(g_iv + 12, 0, 4); /* room for the 32-bit counter */
}

/* setup_op: key and input |which|. For CTR the input is chosen so that both runs write the
 * same output (input = fixed output ^ the key's key stream): the output is the caller's (public
 * ciphertext, or plaintext the caller gets anyway), and clang keeps the last output byte of a
 * partial block in a register that a later callee saves on the stack. What differs then comes
 * from the key stream or the input. */
static void setup_op(int which) {
  memcpy(g_key, g_keys[which], sizeof g_key);
  CHECK_EQ_INT(fm_aes_key_init(&g_ak, g_key, g_klen), FM_OK);
  CHECK_EQ_INT(aes_ks_init_encrypt(&g_ks, g_key, g_klen), 1);
  memcpy(g_in, g_texts[which], g_len);
  if (g_op == OP_CTR32 || g_op == OP_CTR128 || g_op == OP_CTR_STREAM) {
    reset_counter();
    memset(g_in, 0, g_len);
    CHECK_EQ_INT(fm_aes_ctr(&g_ak, g_op == OP_CTR32 ? FM_AES_CTR32 : FM_AES_CTR128, g_iv, g_in,
                            g_out, g_len),
                 FM_OK);
    for (size_t i = 0; i < g_len; i++) g_in[i] = (uint8_t)(g_texts[0][i] ^ g_out[i]);
  }
  reset_counter();
  memset(g_stream, 0, sizeof g_stream);
  memset(g_out, 0, sizeof g_out);
}

static __attribute__((noinline)) void run_op(void) {
  int st = FM_ERR_INTERNAL;
  unsigned used = 16;
  switch (g_op) {
    case OP_ECB_ENC: st = fm_aes_ecb_encrypt(&g_ak, g_in, g_out, g_len); break;
    case OP_ECB_DEC: st = fm_aes_ecb_decrypt(&g_ak, g_in, g_out, g_len); break;
    case OP_CBC_ENC: st = fm_aes_cbc_encrypt(&g_ak, g_iv, g_in, g_out, g_len); break;
    case OP_CBC_DEC: st = fm_aes_cbc_decrypt(&g_ak, g_iv, g_in, g_out, g_len); break;
    case OP_CTR32: st = fm_aes_ctr(&g_ak, FM_AES_CTR32, g_iv, g_in, g_out, g_len - 3); break;
    case OP_CTR128: st = fm_aes_ctr(&g_ak, FM_AES_CTR128, g_iv, g_in, g_out, g_len); break;
    case OP_CTR_STREAM:
      st = fm_aes_ctr_stream(&g_ak, FM_AES_CTR128, g_iv, g_stream, &used, g_in, g_out, g_len - 5);
      break;
    case OP_KEY_STREAM:
      aes_ctr128_blocks(&g_ks, g_iv, NULL, g_out, g_len / 16);
      st = FM_OK;
      break;
    default:
      aes_encrypt_block(&g_ks, g_in, g_out);
      st = FM_OK;
      break;
  }
  CHECK_EQ_INT(st, FM_OK);
  __asm__ __volatile__("" : : : "memory");
}

static void setup_key(int which) { memcpy(g_key, g_keys[which], sizeof g_key); }

static __attribute__((noinline)) void run_key_init(void) {
  CHECK_EQ_INT(fm_aes_key_init(&g_ak, g_key, g_klen), FM_OK);
  __asm__ __volatile__("" : : : "memory");
}

/* check_services: every service on the current path. */
static void check_services(const char *path, size_t *depth) {
  static const size_t counts[] = {1, 3, 4, 5, 7, 8, 13, 16, 37, MAX_BLOCKS};
  for (size_t kl = 16; kl <= 32; kl += 8) {
    g_klen = kl;
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
      g_len = 16 * counts[c];
      for (g_op = 0; g_op < NOPS; g_op++) {
        char what[128];
        snprintf(what, sizeof what, "%s, AES-%zu, %s, %zu blocks", path, 8 * kl,
                 k_op_names[g_op], counts[c]);
        CHECK_EQ_INT(residue_differing(setup_op, run_op, what), 0);
        const size_t d = residue_depth(setup_op, run_op);
        if (d > *depth) *depth = d;
      }
    }
    char what[96];
    snprintf(what, sizeof what, "%s, AES-%zu, fm_aes_key_init", path, 8 * kl);
    CHECK_EQ_INT(residue_differing(setup_key, run_key_init, what), 0);
  }
}

static void test_stack(void) {
  int paths[3];
  const int n = aes_test_paths(paths);
  for (int i = 0; i < n; i++) {
    aes_limit_path_for_testing(paths[i]);
    residue_check_path(aes_test_path_name(paths[i]), check_services);
  }
  aes_limit_path_for_testing(0);
  fm_aes_key_wipe(&g_ak);
  aes_ks_wipe(&g_ks);
}

/* The scan sees what a returned function left in its frame. */
static void test_scan_sees_residue(void) { residue_self_check(); }

static const test_case cases[] = {
  TEST_CASE(stack),
  TEST_CASE(scan_sees_residue),
};

int main(int argc, char **argv) {
  test_rng rng;
  test_rng_seed(&rng, "test_aes_stack");
  test_rng_bytes(&rng, g_keys, sizeof g_keys);
  test_rng_bytes(&rng, g_texts, sizeof g_texts);
  return TEST_RUN(argc, argv, "test_aes_stack", cases);
}
