/* The RNG's small draws and DRBG calls leave no secret in the vector registers xmm0-xmm15 when
 * they return ("residue"): a signal frame or the next function's spill would write it
 * to memory.
 *
 * libfipsmod.so is loaded with dlopen (the library as shipped, with its own memory functions).
 * Each call runs through a trampoline that zeroes xmm0-15, calls the function and stores the
 * sixteen registers right after it returns, with no compiled code in between. The test then looks
 * for any 6 consecutive bytes of what the call produced (its output, and for the explicit DRBG
 * the new Key and V read from the caller-allocated state) anywhere in the registers. The draws
 * are repeated across a batch refill and a reseed, so the slow paths run too.
 * Usage: test_rand_residue <libfipsmod.so> */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "fipsmod/fipsmod.h"
#include "module/rand/internal.h"
#include "tests/common/test_util.h"

#define WINDOW 6

typedef void (*thunk_fn)(void *);

/* call_and_dump zeroes xmm0-15, calls fn(arg) and stores xmm0-15 to |dump| (256 bytes). The
 * stack pointer is moved below the red zone and aligned before the call; r12 keeps it, r13 the
 * dump pointer (both callee-saved, so they survive the call). */
__attribute__((noinline)) static void call_and_dump(thunk_fn fn, void *arg, uint8_t dump[256]) {
  register uint8_t *d __asm__("r13") = dump;
  register void *a __asm__("rdi") = arg;
  __asm__ __volatile__(
      "pxor %%xmm0, %%xmm0\n\tpxor %%xmm1, %%xmm1\n\tpxor %%xmm2, %%xmm2\n\tpxor %%xmm3, %%xmm3\n\t"
      "pxor %%xmm4, %%xmm4\n\tpxor %%xmm5, %%xmm5\n\tpxor %%xmm6, %%xmm6\n\tpxor %%xmm7, %%xmm7\n\t"
      "pxor %%xmm8, %%xmm8\n\tpxor %%xmm9, %%xmm9\n\tpxor %%xmm10, %%xmm10\n\tpxor %%xmm11, %%xmm11\n\t"
      "pxor %%xmm12, %%xmm12\n\tpxor %%xmm13, %%xmm13\n\tpxor %%xmm14, %%xmm14\n\t"
      "pxor %%xmm15, %%xmm15\n\t"
      "mov %%rsp, %%r12\n\t"
      "sub $256, %%rsp\n\t"
      "and $-16, %%rsp\n\t"
      "call *%[fn]\n\t"
      "mov %%r12, %%rsp\n\t"
      "movdqu %%xmm0, 0(%%r13)\n\tmovdqu %%xmm1, 16(%%r13)\n\tmovdqu %%xmm2, 32(%%r13)\n\t"
      "movdqu %%xmm3, 48(%%r13)\n\tmovdqu %%xmm4, 64(%%r13)\n\tmovdqu %%xmm5, 80(%%r13)\n\t"
      "movdqu %%xmm6, 96(%%r13)\n\tmovdqu %%xmm7, 112(%%r13)\n\tmovdqu %%xmm8, 128(%%r13)\n\t"
      "movdqu %%xmm9, 144(%%r13)\n\tmovdqu %%xmm10, 160(%%r13)\n\tmovdqu %%xmm11, 176(%%r13)\n\t"
      "movdqu %%xmm12, 192(%%r13)\n\tmovdqu %%xmm13, 208(%%r13)\n\tmovdqu %%xmm14, 224(%%r13)\n\t"
      "movdqu %%xmm15, 240(%%r13)"
      : "+r"(a)
      : [fn] "r"(fn), "r"(d)
      : "rax", "rcx", "rdx", "rsi", "r8", "r9", "r10", "r11", "r12", "memory", "cc", "xmm0",
        "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11",
        "xmm12", "xmm13", "xmm14", "xmm15");
}

/* leaks returns 1 when some WINDOW consecutive bytes of |secret| occur in |dump|. Windows of
 * zeros are skipped (zeroed registers are not residue). */
static int leaks(const uint8_t dump[256], const uint8_t *secret, size_t len) {
  for (size_t s = 0; s + WINDOW <= len; s++) {
    if (test_is_all_zero(secret + s, WINDOW)) continue;
    /* Registers one at a time: a window never straddles two of them. */
    for (size_t r = 0; r < 16; r++) {
      for (size_t o = 0; o + WINDOW <= 16; o++) {
        if (memcmp(dump + 16 * r + o, secret + s, WINDOW) == 0) return 1;
      }
    }
  }
  return 0;
}

/* The library's functions, found with dlsym. */
static int (*p_uuid_v4)(uint8_t *);
static int (*p_uuid_v4_string)(char *);
static int (*p_uuid_v7_string)(char *);
static int (*p_uuid_format)(const uint8_t *, char *);
static int (*p_rand_u64)(uint64_t *);
static int (*p_rand_u32)(uint32_t *);
static int (*p_rand_bytes)(uint8_t *, size_t);
static int (*p_rand_reseed)(void);
static int (*p_drbg_instantiate)(fm_ctr_drbg *, unsigned, const uint8_t *, size_t,
                                 const uint8_t *, size_t, const uint8_t *, size_t);
static int (*p_drbg_generate)(fm_ctr_drbg *, uint8_t *, size_t, const uint8_t *, size_t,
                              const uint8_t *, size_t);
static int (*p_drbg_reseed)(fm_ctr_drbg *, const uint8_t *, size_t, const uint8_t *, size_t);

static uint8_t g_out[256];
static char g_str[FM_UUID_STRING_LEN + 1];
static int g_err;
static size_t g_len;
static fm_ctr_drbg g_drbg;
static unsigned g_flags;
static const uint8_t g_seed[48] = {9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 11, 12, 13, 14, 15, 16,
                                   17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32,
                                   33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48};

static void t_uuid_v4(void *a) { (void)a; g_err |= p_uuid_v4(g_out); }
static void t_uuid_v4_string(void *a) { (void)a; g_err |= p_uuid_v4_string(g_str); }
static void t_uuid_v7_string(void *a) { (void)a; g_err |= p_uuid_v7_string(g_str); }
static void t_uuid_format(void *a) { (void)a; g_err |= p_uuid_format(g_out, g_str); }
static void t_rand_u64(void *a) { (void)a; g_err |= p_rand_u64((uint64_t *)(void *)g_out); }
static void t_rand_u32(void *a) { (void)a; g_err |= p_rand_u32((uint32_t *)(void *)g_out); }
static void t_rand_bytes(void *a) { (void)a; g_err |= p_rand_bytes(g_out, g_len); }
static void t_rand_reseed(void *a) { (void)a; g_err |= p_rand_reseed(); }
static void t_drbg_instantiate(void *a) {
  (void)a;
  g_err |= p_drbg_instantiate(&g_drbg, g_flags, g_seed, 48, (g_flags & FM_DRBG_USE_DF) ? g_seed : NULL,
                              (g_flags & FM_DRBG_USE_DF) ? 16 : 0, NULL, 0);
}
static void t_drbg_generate(void *a) {
  (void)a;
  g_err |= p_drbg_generate(&g_drbg, g_out, g_len, NULL, 0, a != NULL ? g_seed : NULL, a != NULL ? 20 : 0);
}
static void t_drbg_reseed(void *a) { (void)a; g_err |= p_drbg_reseed(&g_drbg, g_seed, 48, g_seed, 7); }

/* drbg_secrets copies Key and V out of the caller-allocated state (module/rand/internal.h's
 * layout). */
static void drbg_secrets(uint8_t kv[48]) {
  const ctr_drbg_state *st = (const ctr_drbg_state *)(const void *)&g_drbg;
  memcpy(kv, st->key, 32);
  memcpy(kv + 32, st->v, 16);
}

static int g_checks, g_leaks;

static void check(const char *what, thunk_fn fn, void *arg, const uint8_t *secret, size_t len,
                  int with_state) {
  uint8_t dump[256];
  g_err = 0;
  call_and_dump(fn, arg, dump);
  CHECK_EQ_INT(g_err, FM_OK);
  int leak = secret != NULL && len != 0 && leaks(dump, secret, len);
  if (with_state) {
    uint8_t kv[48];
    drbg_secrets(kv);
    leak |= leaks(dump, kv, sizeof(kv));
  }
  g_checks++;
  if (leak) {
    g_leaks++;
    if (g_leaks <= 10) fprintf(stderr, "residue in the vector registers after %s\n", what);
  }
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s <libfipsmod.so>\n", argv[0]);
    return 2;
  }
  void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (h == NULL) {
    fprintf(stderr, "dlopen: %s\n", dlerror());
    return 1;
  }
#define LOAD(p, name) CHECK((*(void **)&p = dlsym(h, name)) != NULL)
  LOAD(p_uuid_v4, "fm_uuid_v4");
  LOAD(p_uuid_v4_string, "fm_uuid_v4_string");
  LOAD(p_uuid_v7_string, "fm_uuid_v7_string");
  LOAD(p_uuid_format, "fm_uuid_format");
  LOAD(p_rand_u64, "fm_rand_u64");
  LOAD(p_rand_u32, "fm_rand_u32");
  LOAD(p_rand_bytes, "fm_rand_bytes");
  LOAD(p_rand_reseed, "fm_rand_reseed");
  LOAD(p_drbg_instantiate, "fm_ctr_drbg_instantiate");
  LOAD(p_drbg_generate, "fm_ctr_drbg_generate");
  LOAD(p_drbg_reseed, "fm_ctr_drbg_reseed");
  if (test_failures != 0) return test_main_result("test_rand_residue");

  /* Small draws, over more than one batch (4096 bytes) so that refills happen. */
  for (int i = 0; i < 600; i++) {
    check("fm_uuid_v4", t_uuid_v4, NULL, g_out, 16, 0);
    check("fm_rand_u64", t_rand_u64, NULL, g_out, 8, 0);
    check("fm_uuid_v4_string", t_uuid_v4_string, NULL, (const uint8_t *)g_str, 36, 0);
    check("fm_uuid_v7_string", t_uuid_v7_string, NULL, (const uint8_t *)g_str, 36, 0);
    check("fm_uuid_format", t_uuid_format, NULL, (const uint8_t *)g_str, 36, 0);
    if (i % 100 == 0) check("fm_rand_reseed", t_rand_reseed, NULL, NULL, 0, 0);
  }
  for (int i = 0; i < 1100; i++) check("fm_rand_u32", t_rand_u32, NULL, g_out, 4, 0);
  /* Byte draws of every length up to 200 (the fused short generate, the general path). */
  for (g_len = 1; g_len <= 200; g_len++) check("fm_rand_bytes", t_rand_bytes, NULL, g_out, g_len, 0);
  /* The explicit DRBG, with and without the df, with and without additional input. */
  for (g_flags = 0; g_flags <= FM_DRBG_USE_DF; g_flags += FM_DRBG_USE_DF) {
    check("fm_ctr_drbg_instantiate", t_drbg_instantiate, NULL, NULL, 0, 1);
    for (g_len = 1; g_len <= 200; g_len += 7) {
      check("fm_ctr_drbg_generate", t_drbg_generate, NULL, g_out, g_len, 1);
      check("fm_ctr_drbg_generate (ai)", t_drbg_generate, (void *)1, g_out, g_len, 1);
    }
    check("fm_ctr_drbg_reseed", t_drbg_reseed, NULL, NULL, 0, 1);
  }
  fprintf(stderr, "%d calls checked, %d left residue\n", g_checks, g_leaks);
  CHECK_EQ_INT(g_leaks, 0);
  return test_main_result("test_rand_residue");
}
