/* GCM IV uniqueness beyond one key instance (SP 800-38D 8.2.1, 8.3), and keys at any address:
 *   - a counter-IV key inherited by a child of fork() never gives the child an IV: the child's
 *     encryptions with it fail with FM_ERR_STATE and wipe their outputs, in every fork-detection
 *     mode of the RNG; a key the child builds itself seals under IVs other than the parent's;
 *   - a streaming encryption started in the parent cannot be continued in the child;
 *   - building the same key with the same fixed field again does not restart the IVs;
 *   - a memcpy'd key or streaming context is refused (FM_ERR_STATE);
 *   - keys (fm_gcm_key, fm_aes_key) under 16-byte alignment are refused with
 *     FM_ERR_BAD_ARGUMENT at offsets 1..15, never a fault; a context works at any offset. */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fipsmod/aes.h"
#include "fipsmod/gcm.h"
#include "module/internal.h"
#include "module/rand/internal.h"
#include "tests/common/test_util.h"

static const uint8_t k_key[32] = {7, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
                                  16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31};
static const uint8_t k_fixed[4] = {0xca, 0xfe, 0xba, 0xbe};

/* fork_round: the parent seals once before fork(); the child tries its inherited key (must be
 * refused, outputs wiped), continues a streaming encryption the parent started (refused), builds
 * the same key and fixed field again and sends the IV of its first seal through a pipe; the
 * parent seals again. No two of the IVs may be equal. */
static void fork_round(const char *mode_name) {
  static fm_gcm_key k; /* static: 64-byte aligned, and the child's copy stays where it was */
  fm_gcm_ctx c;
  uint8_t pt[32] = {1}, ct[32], tag[16], iv0[12], ivp[12], ivc[12], civ[12];
  CHECK_EQ_INT(fm_gcm_key_init_counter_iv(&k, k_key, 16, k_fixed), FM_OK);
  CHECK_EQ_INT(fm_gcm_seal(&k, iv0, NULL, 0, pt, sizeof pt, ct, tag, 16), FM_OK);
  CHECK_EQ_INT(fm_gcm_encrypt_init(&c, &k, civ), FM_OK);
  int fd[2];
  CHECK(pipe(fd) == 0);
  pid_t pid = fork();
  CHECK(pid >= 0);
  if (pid == 0) {
    close(fd[0]);
    uint8_t iv[12], out[32], t[16];
    int bad = 0;
    memset(iv, 0x55, sizeof iv);
    memset(out, 0x55, sizeof out);
    memset(t, 0x55, sizeof t);
    bad |= fm_gcm_seal(&k, iv, NULL, 0, pt, sizeof pt, out, t, 16) != FM_ERR_STATE;
    bad |= !test_is_all_zero(iv, 12) || !test_is_all_zero(out, 32) || !test_is_all_zero(t, 16);
    fm_gcm_ctx c2;
    bad |= fm_gcm_encrypt_init(&c2, &k, iv) != FM_ERR_STATE;
    memset(out, 0x55, sizeof out);
    bad |= fm_gcm_update(&c, pt, out, sizeof pt) != FM_ERR_STATE;
    bad |= !test_is_all_zero(out, 32);
    /* The key built again in the child, with the same fixed field. */
    bad |= fm_gcm_key_init_counter_iv(&k, k_key, 16, k_fixed) != FM_OK;
    bad |= fm_gcm_seal(&k, iv, NULL, 0, pt, sizeof pt, out, t, 16) != FM_OK;
    bad |= write(fd[1], iv, sizeof iv) != (ssize_t)sizeof iv;
    _exit(bad);
  }
  close(fd[1]);
  CHECK_EQ_INT(fm_gcm_seal(&k, ivp, NULL, 0, pt, sizeof pt, ct, tag, 16), FM_OK);
  CHECK_EQ_INT(fm_gcm_update(&c, pt, ct, sizeof pt), FM_OK); /* the parent goes on */
  CHECK_EQ_INT(fm_gcm_encrypt_final(&c, tag, 16), FM_OK);
  CHECK(read(fd[0], ivc, sizeof ivc) == (ssize_t)sizeof ivc);
  close(fd[0]);
  int status = 0;
  CHECK(waitpid(pid, &status, 0) == pid);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  CHECK(memcmp(ivp, ivc, 12) != 0);
  CHECK(memcmp(iv0, ivc, 12) != 0);
  CHECK(memcmp(iv0, ivp, 12) != 0);
  CHECK(memcmp(civ, ivc, 12) != 0);
  fm_gcm_key_wipe(&k);
  if (test_failures) fprintf(stderr, "  fork detection mode: %s\n", mode_name);
}

static void test_counter_key_after_fork(void) {
  const int mode = fm_rand_fork_mode_for_testing();
  fork_round("as detected");
  /* The weaker modes: the atfork handler's generation, and the process id. */
  fm_rand_force_fork_mode_for_testing(RAND_FORK_ATFORK);
  fork_round("atfork");
  fm_rand_force_fork_mode_for_testing(RAND_FORK_NONE);
  fork_round("none (process id)");
  fm_rand_force_fork_mode_for_testing(mode);
}

/* An RBG key keeps working in the child (its DRBG is reseeded there). */
static void test_rbg_key_after_fork(void) {
  static fm_gcm_key k;
  uint8_t iv[12], tag[16];
  CHECK_EQ_INT(fm_gcm_key_init(&k, k_key, 32), FM_OK);
  pid_t pid = fork();
  CHECK(pid >= 0);
  if (pid == 0) _exit(fm_gcm_seal(&k, iv, NULL, 0, NULL, 0, NULL, tag, 16) != FM_OK);
  int status = 0;
  CHECK(waitpid(pid, &status, 0) == pid);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  fm_gcm_key_wipe(&k);
}

/* The same key and fixed field built again (in the same place, and elsewhere) starts at another
 * invocation field: none of the first IVs of 8 instances equals another. */
static void test_reinit_gives_new_ivs(void) {
  enum { N = 8, PER = 4 };
  static fm_gcm_key k[2];
  uint8_t ivs[N * PER][12], tag[16];
  for (int i = 0; i < N; i++) {
    fm_gcm_key *kk = &k[i % 2];
    CHECK_EQ_INT(fm_gcm_key_init_counter_iv(kk, k_key, 32, k_fixed), FM_OK);
    for (int j = 0; j < PER; j++) {
      CHECK_EQ_INT(fm_gcm_seal(kk, ivs[i * PER + j], NULL, 0, NULL, 0, NULL, tag, 16), FM_OK);
      CHECK_MEM(ivs[i * PER + j], k_fixed, 4);
    }
  }
  for (int a = 0; a < N * PER; a++) {
    for (int b = a + 1; b < N * PER; b++) CHECK(memcmp(ivs[a], ivs[b], 12) != 0);
  }
  fm_gcm_key_wipe(&k[0]);
  fm_gcm_key_wipe(&k[1]);
}

/* A copy of a key or a streaming context is refused; the original goes on working. */
static void test_copies_refused(void) {
  static fm_gcm_key k, copy;
  fm_gcm_ctx c, ccopy;
  uint8_t iv[12], tag[16], pt[16] = {3}, ct[16], back[16];
  for (int counter = 0; counter <= 1; counter++) {
    CHECK_EQ_INT(counter ? fm_gcm_key_init_counter_iv(&k, k_key, 16, k_fixed)
                         : fm_gcm_key_init(&k, k_key, 16),
                 FM_OK);
    memcpy(&copy, &k, sizeof k);
    memset(ct, 0x55, sizeof ct);
    CHECK_EQ_INT(fm_gcm_seal(&copy, iv, NULL, 0, pt, 16, ct, tag, 16), FM_ERR_STATE);
    CHECK(test_is_all_zero(ct, 16) && test_is_all_zero(iv, 12));
    CHECK_EQ_INT(fm_gcm_seal_with_iv(&copy, k_fixed, 4, NULL, 0, pt, 16, ct, tag, 16),
                 FM_ERR_STATE);
    CHECK_EQ_INT(fm_gcm_open(&copy, iv, 12, NULL, 0, ct, 16, tag, 16, back), FM_ERR_STATE);
    CHECK_EQ_INT(fm_gcm_encrypt_init(&c, &copy, iv), FM_ERR_STATE);
    CHECK_EQ_INT(fm_gcm_seal(&k, iv, NULL, 0, pt, 16, ct, tag, 16), FM_OK);
    CHECK_EQ_INT(fm_gcm_open(&k, iv, 12, NULL, 0, ct, 16, tag, 16, back), FM_OK);
    /* A context copied after its start. */
    CHECK_EQ_INT(fm_gcm_encrypt_init(&c, &k, iv), FM_OK);
    memcpy(&ccopy, &c, sizeof c);
    memset(ct, 0x55, sizeof ct);
    CHECK_EQ_INT(fm_gcm_update(&ccopy, pt, ct, 16), FM_ERR_STATE);
    CHECK(test_is_all_zero(ct, 16));
    CHECK_EQ_INT(fm_gcm_update(&c, pt, ct, 16), FM_OK);
    CHECK_EQ_INT(fm_gcm_encrypt_final(&c, tag, 16), FM_OK);
    fm_gcm_key_wipe(&copy);
    fm_gcm_key_wipe(&k);
  }
}

/* Keys at offsets 1..15 from 64-byte alignment: refused with FM_ERR_BAD_ARGUMENT (and wiped),
 * never a fault; an AES schedule built aligned and copied to such an offset is refused in use.
 * A GCM context works at every offset (its state needs no alignment). Such objects are undefined
 * behaviour in C, which UBSan builds rightly refuse, so they skip this test. */
static void test_misaligned_keys(void) {
#if defined(GCM_TEST_NO_MISALIGNED)
  return;
#endif
  enum { SLACK = 128 };
  uint8_t *raw = malloc(sizeof(fm_gcm_key) + SLACK);
  CHECK(raw != NULL);
  uint8_t *base = raw + (64 - ((uintptr_t)raw & 63));
  static fm_aes_key good_aes;
  static fm_gcm_key good_gcm;
  CHECK_EQ_INT(fm_aes_key_init(&good_aes, k_key, 16), FM_OK);
  CHECK_EQ_INT(fm_gcm_key_init(&good_gcm, k_key, 16), FM_OK);
  uint8_t blk[16] = {0}, out[16], iv[12], tag[16], ctr[16] = {0};
  for (size_t off = 1; off < 16; off++) {
    fm_gcm_key *gk = (fm_gcm_key *)(void *)(base + off);
    memset(gk, 0x77, sizeof *gk);
    CHECK_EQ_INT(fm_gcm_key_init(gk, k_key, 16), FM_ERR_BAD_ARGUMENT);
    CHECK(test_is_all_zero(gk, sizeof *gk));
    CHECK_EQ_INT(fm_gcm_key_init_counter_iv(gk, k_key, 32, k_fixed), FM_ERR_BAD_ARGUMENT);
    CHECK_EQ_INT(fm_gcm_seal(gk, iv, NULL, 0, blk, 16, out, tag, 16), FM_ERR_STATE);
    memcpy(gk, &good_gcm, sizeof good_gcm); /* moved: a copy */
    CHECK_EQ_INT(fm_gcm_seal(gk, iv, NULL, 0, blk, 16, out, tag, 16), FM_ERR_STATE);

    fm_aes_key *ak = (fm_aes_key *)(void *)(base + off);
    CHECK_EQ_INT(fm_aes_key_init(ak, k_key, 16), FM_ERR_BAD_ARGUMENT);
    memcpy(ak, &good_aes, sizeof good_aes);
    CHECK_EQ_INT(fm_aes_ecb_encrypt(ak, blk, out, 16), FM_ERR_BAD_ARGUMENT);
    CHECK_EQ_INT(fm_aes_ecb_decrypt(ak, blk, out, 16), FM_ERR_BAD_ARGUMENT);
    CHECK_EQ_INT(fm_aes_cbc_encrypt(ak, ctr, blk, out, 16), FM_ERR_BAD_ARGUMENT);
    CHECK_EQ_INT(fm_aes_ctr(ak, FM_AES_CTR128, ctr, blk, out, 16), FM_ERR_BAD_ARGUMENT);

    fm_gcm_ctx *c = (fm_gcm_ctx *)(void *)(base + off);
    uint8_t t1[16], t2[16], o1[16], o2[16];
    CHECK_EQ_INT(fm_gcm_encrypt_init_with_iv(c, &good_gcm, k_fixed, 4), FM_OK);
    CHECK_EQ_INT(fm_gcm_update(c, blk, o1, 16), FM_OK);
    CHECK_EQ_INT(fm_gcm_encrypt_final(c, t1, 16), FM_OK);
    CHECK_EQ_INT(fm_gcm_seal_with_iv(&good_gcm, k_fixed, 4, NULL, 0, blk, 16, o2, t2, 16), FM_OK);
    CHECK_MEM(o1, o2, 16);
    CHECK_MEM(t1, t2, 16);
    if (test_failures) {
      fprintf(stderr, "  offset %zu\n", off);
      break;
    }
  }
  fm_gcm_key_wipe(&good_gcm);
  fm_aes_key_wipe(&good_aes);
  free(raw);
}

static const test_case cases[] = {
  TEST_CASE(counter_key_after_fork),
  TEST_CASE(rbg_key_after_fork),
  TEST_CASE(reinit_gives_new_ivs),
  TEST_CASE(copies_refused),
  TEST_CASE(misaligned_keys),
};

int main(int argc, char **argv) {
  return TEST_RUN(argc, argv, "test_gcm_iv_unique", cases);
}
