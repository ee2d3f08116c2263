/* AES-GCM leaves no secret on the stack (the project standard: stack intermediates are CSPs).
 * The kernels GCM runs (the stitched VAES/VPCLMULQDQ kernels, the AES CTR and GHASH kernels
 * that do the rest) spill key stream, cipher states, GHASH partial sums and powers of H to
 * their frames, where C cannot name them; gcm.c wipes the stack below it after them.
 *
 * Each case runs one GCM service twice, with two random keys and plaintexts and everything else
 * equal (IV, AAD, lengths, buffer addresses), each time on a stack area zeroed first, and
 * compares what the two runs left below the caller (tests/aes/stack_residue.h): a byte that
 * differs was computed from the key or the plaintext. Services: key set-up, one-shot seal (a
 * counter-IV key, and a caller-given IV), open (with a 96-bit IV, and a 60-byte one that GHASH
 * turns into J0), and the streaming encrypt and decrypt (AAD and
 * text in uneven pieces); lengths from one block (which never reaches the stitched kernels,
 * 16-block passes) to 8 KiB with a tail, AAD from none to 1 KiB. Every (AES, GHASH) path this
 * machine has is walked (gcm_test_paths.h); registered again with FIPSMOD_CPU=portable. The
 * stack depth each service reached is printed, for sizing the wipe. */
#include <stdlib.h>
#include <string.h>

#include "fipsmod/gcm.h"
#include "tests/aes/stack_residue.h"
#include "tests/gcm/gcm_test_paths.h"

enum { MAX_TEXT = 8192 + 100, MAX_AAD = 1024 };

static uint8_t g_keys[2][32], g_texts[2][MAX_TEXT];
static const uint8_t k_iv[12] = {0xca, 0xfe, 0xba, 0xbe, 0xfa, 0xce, 0xdb, 0xad, 0xde, 0xca, 0xf8, 0x88};
static const uint8_t k_fixed[FM_GCM_FIXED_LEN] = {1, 2, 3, 4};
/* A 60-byte IV: J0 = GHASH_H(IV || 0 || len), which depends on H. */
static const uint8_t k_iv60[60] = {0x93, 0x13, 0x22, 0x5d, 0xf8, 0x84, 0x06, 0xe5, 0x55, 0x90, 0x9c,
                                   0x5a, 0xff, 0x52, 0x69, 0xaa, 0x6a, 0x7a, 0x95, 0x38, 0x53, 0x4f,
                                   0x7d, 0xa1, 0xe4, 0xc3, 0x03, 0xd2, 0xa3, 0x18, 0xa7, 0x28, 0xc3,
                                   0xc0, 0xc9, 0x51, 0x56, 0x80, 0x95, 0x39, 0xfc, 0xf0, 0xe2, 0x42,
                                   0x9a, 0x6b, 0x52, 0x54, 0x16, 0xae, 0xdb, 0xf5, 0xa0, 0xde, 0x6a,
                                   0x57, 0xa6, 0x37, 0xb3, 0x9b};
static uint8_t g_aad[MAX_AAD];

/* What a run reads and writes: the same addresses in both runs. */
static uint8_t g_key[32], g_pt[MAX_TEXT], g_ct[MAX_TEXT], g_out[MAX_TEXT], g_tag[16], g_iv[12];
static uint8_t g_out_tag[16]; /* the tag a run computes (public, but not on the stack) */
static fm_gcm_key g_gk;
static fm_gcm_ctx g_ctx;
static size_t g_klen, g_len, g_aad_len;

/* setup_text: key and plaintext |which|, the key object built, and the ciphertext and tag that
 * open and the streaming decryption check. */
static void setup_text(int which) {
  memcpy(g_key, g_keys[which], sizeof g_key);
  memcpy(g_pt, g_texts[which], g_len);
  CHECK_EQ_INT(fm_gcm_key_init_counter_iv(&g_gk, g_key, g_klen, k_fixed), FM_OK);
  /* The IVs fm_gcm_seal generates are public, but their invocation field starts at a base the
   * DRBG draws for each key: fix it, so that the two runs differ in the key and the text only. */
  gcm_set_iv_base_for_testing(&g_gk, 0x0123456789abcdefull);
  CHECK_EQ_INT(fm_gcm_seal_with_iv(&g_gk, k_iv, sizeof k_iv, g_aad, g_aad_len, g_pt, g_len, g_ct,
                                   g_tag, 16),
               FM_OK);
  memset(g_out, 0, sizeof g_out);
}

/* setup_text_iv60: as setup_text, the message sealed under the 60-byte IV. */
static void setup_text_iv60(int which) {
  setup_text(which);
  CHECK_EQ_INT(fm_gcm_seal_with_iv(&g_gk, k_iv60, sizeof k_iv60, g_aad, g_aad_len, g_pt, g_len,
                                   g_ct, g_tag, 16),
               FM_OK);
}

static void setup_key(int which) { memcpy(g_key, g_keys[which], sizeof g_key); }

static __attribute__((noinline)) void run_key_init(void) {
  CHECK_EQ_INT(fm_gcm_key_init(&g_gk, g_key, g_klen), FM_OK);
  __asm__ __volatile__("" : : : "memory");
}

static __attribute__((noinline)) void run_seal(void) {
  CHECK_EQ_INT(fm_gcm_seal(&g_gk, g_iv, g_aad, g_aad_len, g_pt, g_len, g_out, g_out_tag, 16),
               FM_OK);
  __asm__ __volatile__("" : : : "memory");
}

static __attribute__((noinline)) void run_seal_with_iv(void) {
  CHECK_EQ_INT(fm_gcm_seal_with_iv(&g_gk, k_iv, sizeof k_iv, g_aad, g_aad_len, g_pt, g_len, g_out,
                                   g_out_tag, 16),
               FM_OK);
  __asm__ __volatile__("" : : : "memory");
}

static __attribute__((noinline)) void run_open(void) {
  CHECK_EQ_INT(fm_gcm_open(&g_gk, k_iv, sizeof k_iv, g_aad, g_aad_len, g_ct, g_len, g_tag, 16, g_out),
               FM_OK);
  __asm__ __volatile__("" : : : "memory");
}

static __attribute__((noinline)) void run_open_iv60(void) {
  CHECK_EQ_INT(fm_gcm_open(&g_gk, k_iv60, sizeof k_iv60, g_aad, g_aad_len, g_ct, g_len, g_tag, 16,
                           g_out),
               FM_OK);
  __asm__ __volatile__("" : : : "memory");
}

/* The streamed text in three pieces: a partial block, the bulk, the rest. */
static void stream_text(const uint8_t *in) {
  const size_t a = g_len < 5 ? g_len : 5, b = (g_len - a) * 3 / 4;
  CHECK_EQ_INT(fm_gcm_update(&g_ctx, in, g_out, a), FM_OK);
  CHECK_EQ_INT(fm_gcm_update(&g_ctx, in + a, g_out + a, b), FM_OK);
  CHECK_EQ_INT(fm_gcm_update(&g_ctx, in + a + b, g_out + a + b, g_len - a - b), FM_OK);
}

static void stream_aad(void) {
  const size_t a = g_aad_len / 3;
  CHECK_EQ_INT(fm_gcm_aad(&g_ctx, g_aad, a), FM_OK);
  CHECK_EQ_INT(fm_gcm_aad(&g_ctx, g_aad + a, g_aad_len - a), FM_OK);
}

static __attribute__((noinline)) void run_stream_encrypt(void) {
  CHECK_EQ_INT(fm_gcm_encrypt_init_with_iv(&g_ctx, &g_gk, k_iv, sizeof k_iv), FM_OK);
  stream_aad();
  stream_text(g_pt);
  CHECK_EQ_INT(fm_gcm_encrypt_final(&g_ctx, g_out_tag, 16), FM_OK);
  __asm__ __volatile__("" : : : "memory");
}

static __attribute__((noinline)) void run_stream_decrypt(void) {
  CHECK_EQ_INT(fm_gcm_decrypt_init(&g_ctx, &g_gk, k_iv, sizeof k_iv), FM_OK);
  stream_aad();
  stream_text(g_ct);
  CHECK_EQ_INT(fm_gcm_decrypt_final(&g_ctx, g_tag, 16), FM_OK);
  __asm__ __volatile__("" : : : "memory");
}

typedef struct service {
  const char *name;
  residue_setup_fn setup;
  residue_run_fn run;
} service;

static const service k_services[] = {
  {"fm_gcm_seal", setup_text, run_seal},
  {"fm_gcm_seal_with_iv", setup_text, run_seal_with_iv},
  {"fm_gcm_open", setup_text, run_open},
  {"fm_gcm_open, 60-byte IV", setup_text_iv60, run_open_iv60},
  {"streaming encrypt", setup_text, run_stream_encrypt},
  {"streaming decrypt", setup_text, run_stream_decrypt},
};

/* check_services runs every service at each text and AAD length, for every key size, on the
 * current path; |depth| collects the deepest stack use seen. */
static void check_services(const char *path, size_t *depth) {
  /* Up to 240 and 240: the longest one-shot gcm.c runs without a context (GCM_SHORT_MAX), with
   * key streams of 5, 8, 14 and 16 blocks and GHASH inputs of up to 31 blocks; 256: the
   * shortest that takes the stitched kernel. */
  static const size_t lens[] = {16, 64, 100, 200, 240, 256, 1350, 8192 + 100};
  static const size_t aads[] = {0, 13, 64, 240, 1024};
  for (size_t kl = 16; kl <= 32; kl += 8) {
    g_klen = kl;
    for (size_t l = 0; l < sizeof lens / sizeof lens[0]; l++) {
      for (size_t a = 0; a < sizeof aads / sizeof aads[0]; a++) {
        g_len = lens[l];
        g_aad_len = aads[a];
        for (size_t s = 0; s < sizeof k_services / sizeof k_services[0]; s++) {
          char what[160];
          snprintf(what, sizeof what, "%s, AES-%zu, %s, %zu bytes, %zu of AAD", path, 8 * kl,
                   k_services[s].name, g_len, g_aad_len);
          const size_t n = residue_differing(k_services[s].setup, k_services[s].run, what);
          CHECK_EQ_INT(n, 0);
          const size_t d = residue_depth(k_services[s].setup, k_services[s].run);
          if (d > *depth) *depth = d;
        }
      }
    }
    char what[96];
    snprintf(what, sizeof what, "%s, AES-%zu, fm_gcm_key_init", path, 8 * kl);
    CHECK_EQ_INT(residue_differing(setup_key, run_key_init, what), 0);
  }
}

static void test_stack(void) {
  gcm_path paths[12];
  const int n = gcm_test_paths(paths);
  for (int i = 0; i < n; i++) {
    char path[64];
    snprintf(path, sizeof path, "%s + %s", aes_test_path_name(paths[i].aes),
             ghash_test_path_name(paths[i].ghash));
    gcm_use_path(paths[i]);
    residue_check_path(path, check_services);
  }
  gcm_use_all_paths();
  fm_gcm_key_wipe(&g_gk);
  fm_gcm_ctx_wipe(&g_ctx);
}

/* The scan sees what a returned function left in its frame. */
static void test_scan_sees_residue(void) { residue_self_check(); }

static const test_case cases[] = {
  TEST_CASE(stack),
  TEST_CASE(scan_sees_residue),
};

int main(int argc, char **argv) {
  test_rng rng;
  test_rng_seed(&rng, "test_gcm_residue");
  test_rng_bytes(&rng, g_keys, sizeof g_keys);
  test_rng_bytes(&rng, g_texts, sizeof g_texts);
  test_rng_bytes(&rng, g_aad, sizeof g_aad);
  return TEST_RUN(argc, argv, "test_gcm_residue", cases);
}
