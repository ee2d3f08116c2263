/* No secret stays in the vector registers after an AES kernel returns: the
 * ABI lets a callee leave them as they are, and a later lazy-binding trampoline, signal frame or
 * context switch saves them to memory.
 *
 * Each check zeroes every vector register, makes one call, and stores every vector register into
 * a buffer at once after it returns (inline asm, nothing in between): zmm0-31 where the CPU has
 * AVX-512F, ymm0-15 where it has AVX, xmm0-15 otherwise. The buffer must hold no 16-byte piece of
 * the key schedule, at any byte offset: the round keys as the schedule stores them (AES-NI: the
 * FIPS 197 round keys and the decryption ones; portable: the bitsliced words). The calls: key
 * set-up, ECB, CBC and CTR (both widths, one-shot and streamed) through the public API, for block
 * counts that reach each path's short and wide loops and their tails; the internal entry points
 * the DRBG uses; and the fused CTR_DRBG kernels (AES-NI and VAES), after which neither the round
 * keys of the old Key nor the new Key, the new V or an output block may be in a register. Every
 * path of this machine is walked (aes_test_paths.h). The dump is shown to see a value left in a
 * register (a planted one), so that a pass means something. */
#include <stdlib.h>
#include <string.h>

#include "fipsmod/aes.h"
#include "tests/aes/aes_test_paths.h"
#include "tests/common/test_util.h"
#include "tests/common/vreg_dump.h"

enum { DUMP_MAX = VREG_DUMP_MAX, MAX_SECRETS = 160 };

/* Which registers this CPU has: 0 xmm0-15, 1 ymm0-15, 2 zmm0-31. Set once in main. */
static int g_kind;
static uint8_t g_dump[DUMP_MAX];
static uint8_t g_secret[MAX_SECRETS][16];
static int g_nsecret;
static test_rng g_rng;

/* dump_registers stores the vector registers into g_dump and returns how many bytes it wrote;
 * zero_registers zeroes them before a call (tests/common/vreg_dump.h). */
#define dump_registers() vreg_dump(g_kind, g_dump)
#define zero_registers() vreg_zero(g_kind)

/* RUN makes the call |call| between zero_registers and dump_registers and checks the dump. */
#define RUN(what, call)                           \
  do {                                            \
    zero_registers();                             \
    call;                                         \
    const size_t dumped_ = dump_registers();      \
    check_dump(what, dumped_);                    \
  } while (0)

static const char *g_context = "";

/* found_in returns how many secrets occur (at any byte offset) in the |len| bytes at |mem|. */
static int found_in(const uint8_t *mem, size_t len) {
  int hits = 0;
  for (int s = 0; s < g_nsecret; s++) {
    for (size_t off = 0; off + 16 <= len; off++) {
      if (memcmp(mem + off, g_secret[s], 16) == 0) {
        hits++;
        break;
      }
    }
  }
  return hits;
}

static void check_dump(const char *what, size_t len) {
  const int hits = found_in(g_dump, len);
  if (hits != 0) {
    fprintf(stderr, "%s, %s: %d secret(s) left in the vector registers:", g_context, what, hits);
    const size_t reg = vreg_size(g_kind);
    for (size_t r = 0; r < len / reg; r++) {
      if (found_in(g_dump + r * reg, reg) != 0) fprintf(stderr, " %zu", r);
    }
    fprintf(stderr, "\n");
  }
  CHECK_EQ_INT(hits, 0);
}

static void add_secret(const uint8_t *p) {
  if (test_is_all_zero(p, 16)) return; /* unused schedule words */
  CHECK(g_nsecret < MAX_SECRETS);
  if (g_nsecret < MAX_SECRETS) memcpy(g_secret[g_nsecret++], p, 16);
}

/* add_schedule adds every 16-byte piece of the schedule of |key| (with the decryption round
 * keys), as the module builds it on this path. */
static void add_schedule(const uint8_t *key, size_t klen) {
  aes_ks ks;
  CHECK_EQ_INT(aes_ks_init_encrypt(&ks, key, klen), 1);
  aes_ks_add_decrypt(&ks);
  for (size_t off = 0; off + 16 <= sizeof ks.words; off += 16) {
    add_secret((const uint8_t *)ks.words + off);
  }
  aes_ks_wipe(&ks);
}

/* The public API and the internal entry points, for one key, on the current path. */
static void check_modes(size_t klen) {
  static const size_t counts[] = {1, 3, 4, 8, 13, 16, 37};
  uint8_t key[32], iv[16], ksbuf[16], in[16 * 37], out[16 * 37];
  test_rng_bytes(&g_rng, key, klen);
  g_nsecret = 0;
  add_schedule(key, klen);
  fm_aes_key k;
  int st = FM_ERR_INTERNAL;
  RUN("fm_aes_key_init", st = fm_aes_key_init(&k, key, klen));
  CHECK_EQ_INT(st, FM_OK);
  aes_ks ks;
  CHECK_EQ_INT(aes_ks_init_encrypt(&ks, key, klen), 1);
  const int failures_before = test_failures;
  for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
    const size_t len = 16 * counts[c];
    test_rng_bytes(&g_rng, in, len);
    test_rng_bytes(&g_rng, iv, 12);
    memset(iv + 12, 0, 4);
    RUN("ECB encrypt", st |= fm_aes_ecb_encrypt(&k, in, out, len));
    RUN("ECB decrypt", st |= fm_aes_ecb_decrypt(&k, in, out, len));
    RUN("CBC encrypt", st |= fm_aes_cbc_encrypt(&k, iv, in, out, len));
    RUN("CBC decrypt", st |= fm_aes_cbc_decrypt(&k, iv, in, out, len));
    RUN("CTR128", st |= fm_aes_ctr(&k, FM_AES_CTR128, iv, in, out, len - 3));
    RUN("CTR32", st |= fm_aes_ctr(&k, FM_AES_CTR32, iv, in, out, len));
    unsigned used = 16;
    RUN("CTR32 stream",
        st |= fm_aes_ctr_stream(&k, FM_AES_CTR32, iv, ksbuf, &used, in, out, len - 5));
    RUN("aes_encrypt_block", aes_encrypt_block(&ks, in, out));
    RUN("aes_ctr128_blocks", aes_ctr128_blocks(&ks, iv, in, out, counts[c]));
    RUN("aes_ctr128_blocks key stream", aes_ctr128_blocks(&ks, iv, NULL, out, counts[c]));
    if (test_failures != failures_before) {
      fprintf(stderr, "  (%s, AES-%zu, %zu blocks)\n", g_context, 8 * klen, counts[c]);
      break;
    }
  }
  CHECK_EQ_INT(st, FM_OK); /* every fm_aes_* call above succeeded (any failure sets its bits) */
  RUN("aes_ks_init_encrypt", aes_ks_init_encrypt(&ks, key, klen));
  aes_ks_wipe(&ks);
  fm_aes_key_wipe(&k);
}

/* The fused CTR_DRBG kernels: the old Key's round keys, then the new Key, the new V and each
 * output block. */
static void check_fused(int vaes) {
  uint8_t key[32], v[16], out[64], provided[48];
  const int failures_before = test_failures;
  for (size_t len = 0; len <= 64; len += 8) {
    for (int p = 0; p <= 1; p++) {
      test_rng_bytes(&g_rng, key, sizeof key);
      test_rng_bytes(&g_rng, v, sizeof v);
      test_rng_bytes(&g_rng, provided, sizeof provided);
      g_nsecret = 0;
      aes_ks ks;
      CHECK_EQ_INT(aes_ks_init_encrypt(&ks, key, sizeof key), 1);
      for (int r = 0; r < 15; r++) add_secret((const uint8_t *)ks.words + 16 * r);
      aes_ks_wipe(&ks);
      /* The kernel overwrites key and v: the new ones are added after it ran, and the dump is
       * checked again with them. */
      if (vaes) {
        zero_registers();
        aes_vaes_drbg_generate_small(v, key, out, len, p ? provided : NULL);
      } else {
        zero_registers();
        aes_ni_drbg_generate_small(v, key, out, len, p ? provided : NULL);
      }
      const size_t dumped = dump_registers();
      add_secret(key);
      add_secret(key + 16);
      add_secret(v);
      for (size_t b = 0; b + 16 <= len; b += 16) add_secret(out + b);
      check_dump(vaes ? "aes_vaes_drbg_generate_small" : "aes_ni_drbg_generate_small", dumped);
      if (test_failures != failures_before) {
        fprintf(stderr, "  (%zu bytes, provided %d)\n", len, p);
        return;
      }
    }
  }
}

/* The dump sees a value that a call leaves in a register. */
static __attribute__((noinline)) void leave_in_xmm7(const uint8_t secret[16]) {
  __asm__ __volatile__("movdqu (%0), %%xmm7" : : "r"(secret) : "xmm7");
}

int main(void) {
  test_rng_seed(&g_rng, "test_aes_residue");
  g_kind = vreg_kind();
  fprintf(stderr, "registers dumped: %s\n", vreg_name(g_kind));

  g_context = "self-check";
  g_nsecret = 0;
  uint8_t planted[16];
  for (int i = 0; i < 16; i++) planted[i] = (uint8_t)(0x5a ^ (i * 37));
  add_secret(planted);
  zero_registers();
  leave_in_xmm7(planted);
  CHECK_EQ_INT(found_in(g_dump, dump_registers()), 1);

  int paths[3];
  const int n = aes_test_paths(paths);
  for (int i = 0; i < n; i++) {
    g_context = aes_test_path_name(paths[i]);
    aes_limit_path_for_testing(paths[i]);
    check_modes(16);
    check_modes(24);
    check_modes(32);
  }
  aes_limit_path_for_testing(0);
  if (fm_cpu_use(FM_CPU_AESNI)) {
    g_context = "fused AES-NI";
    check_fused(0);
  } else {
    fprintf(stderr, "fused AES-NI kernel: CPU path not in use here, skipped\n");
  }
  if (fm_cpu_use(FM_CPU_AESNI | FM_CPU_VAES)) {
    g_context = "fused VAES";
    check_fused(1);
  } else {
    fprintf(stderr, "fused VAES kernel: CPU path not in use here, skipped\n");
  }
  return test_main_result("test_aes_residue");
}
