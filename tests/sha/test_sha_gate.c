/* The service gate on every SHA-2 and HMAC function: once the module is in ERROR, each returns
 * FM_ERR_NOT_OPERATIONAL and wipes what it would have written (outputs, and contexts, which may
 * hold key-derived secrets), even for calls that would otherwise succeed. ERROR is final for the
 * process, so the checks run in a forked child. fm_hash_digest_len is the documented exception:
 * it reports a constant and answers in every state. */
#define _GNU_SOURCE
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fipsmod/hmac.h"
#include "fipsmod/module.h"
#include "fipsmod/sha.h"
#include "module/internal.h"
#include "tests/common/test_util.h"

static const fm_hash_alg k_algs[3] = {FM_HASH_SHA256, FM_HASH_SHA384, FM_HASH_SHA512};
static const uint8_t k_key[] = "gate key";
static const uint8_t k_msg[] = "gate message";

/* wiped_exactly is true when the first |dl| of the |len| bytes at p are zero and the rest still
 * hold the 0xaa fill: the refusal wiped the digest length the call could have written, no more
 * (a claimed out_len is not trusted). */
static int wiped_exactly(const uint8_t *p, size_t dl, size_t len) {
  if (!test_is_all_zero(p, dl)) return 0;
  for (size_t i = dl; i < len; i++)
    if (p[i] != 0xaa) return 0;
  return 1;
}

static void check_refused_in_error_state(void) {
  /* Live contexts made while OPERATIONAL, and a valid tag, so that only the state differs. */
  fm_sha_ctx sctx[3];
  fm_hmac_ctx hctx[3];
  uint8_t tags[3][64];
  for (int a = 0; a < 3; a++) {
    CHECK_EQ_INT(fm_sha_init(&sctx[a], k_algs[a]), FM_OK);
    CHECK_EQ_INT(fm_hmac_init(&hctx[a], k_algs[a], k_key, sizeof k_key), FM_OK);
    CHECK_EQ_INT(fm_hmac(k_algs[a], k_key, sizeof k_key, k_msg, sizeof k_msg, tags[a], 64), FM_OK);
  }

  fm_module_force_error_for_testing();
  CHECK_EQ_INT(fm_module_state(), FM_STATE_ERROR);

  uint8_t out[64];
  for (int a = 0; a < 3; a++) {
    fm_hash_alg alg = k_algs[a];
    size_t dl = 0;
    CHECK_EQ_INT(fm_hash_digest_len(alg, &dl), FM_OK);

    /* Hashing. */
    memset(out, 0xaa, sizeof out);
    CHECK_EQ_INT(fm_sha_digest(alg, k_msg, sizeof k_msg, out, sizeof out), FM_ERR_NOT_OPERATIONAL);
    CHECK(wiped_exactly(out, dl, sizeof out));

    fm_sha_ctx fresh;
    memset(&fresh, 0xaa, sizeof fresh);
    CHECK_EQ_INT(fm_sha_init(&fresh, alg), FM_ERR_NOT_OPERATIONAL);
    CHECK(test_is_all_zero(&fresh, sizeof fresh));

    fm_sha_ctx copy = sctx[a];
    CHECK_EQ_INT(fm_sha_update(&copy, k_msg, sizeof k_msg), FM_ERR_NOT_OPERATIONAL);
    CHECK(test_is_all_zero(&copy, sizeof copy));

    copy = sctx[a];
    memset(out, 0xaa, sizeof out);
    CHECK_EQ_INT(fm_sha_final(&copy, out, sizeof out), FM_ERR_NOT_OPERATIONAL);
    CHECK(wiped_exactly(out, dl, sizeof out));
    CHECK(test_is_all_zero(&copy, sizeof copy));

    copy = sctx[a];
    CHECK_EQ_INT(fm_sha_wipe(&copy), FM_ERR_NOT_OPERATIONAL);
    CHECK(test_is_all_zero(&copy, sizeof copy)); /* zeroization still happens */

    /* HMAC. */
    fm_hmac_ctx hfresh;
    memset(&hfresh, 0xaa, sizeof hfresh);
    CHECK_EQ_INT(fm_hmac_init(&hfresh, alg, k_key, sizeof k_key), FM_ERR_NOT_OPERATIONAL);
    CHECK(test_is_all_zero(&hfresh, sizeof hfresh));

    fm_hmac_ctx hcopy = hctx[a];
    CHECK_EQ_INT(fm_hmac_update(&hcopy, k_msg, sizeof k_msg), FM_ERR_NOT_OPERATIONAL);
    CHECK(test_is_all_zero(&hcopy, sizeof hcopy));

    hcopy = hctx[a];
    memset(out, 0xaa, sizeof out);
    CHECK_EQ_INT(fm_hmac_final(&hcopy, out, sizeof out), FM_ERR_NOT_OPERATIONAL);
    CHECK(wiped_exactly(out, dl, sizeof out));
    CHECK(test_is_all_zero(&hcopy, sizeof hcopy));

    hcopy = hctx[a];
    CHECK_EQ_INT(fm_hmac_wipe(&hcopy), FM_ERR_NOT_OPERATIONAL);
    CHECK(test_is_all_zero(&hcopy, sizeof hcopy));

    memset(out, 0xaa, sizeof out);
    CHECK_EQ_INT(fm_hmac(alg, k_key, sizeof k_key, k_msg, sizeof k_msg, out, sizeof out),
                 FM_ERR_NOT_OPERATIONAL);
    CHECK(wiped_exactly(out, dl, sizeof out));

    /* The right tag is not confirmed either. */
    CHECK_EQ_INT(fm_hmac_verify(alg, k_key, sizeof k_key, k_msg, sizeof k_msg, tags[a], dl),
                 FM_ERR_NOT_OPERATIONAL);
  }

  /* The fixed-length shorthands. */
  memset(out, 0xaa, sizeof out);
  CHECK_EQ_INT(fm_sha256(k_msg, sizeof k_msg, out), FM_ERR_NOT_OPERATIONAL);
  CHECK(test_is_all_zero(out, 32));
  memset(out, 0xaa, sizeof out);
  CHECK_EQ_INT(fm_sha384(k_msg, sizeof k_msg, out), FM_ERR_NOT_OPERATIONAL);
  CHECK(test_is_all_zero(out, 48));
  memset(out, 0xaa, sizeof out);
  CHECK_EQ_INT(fm_sha512(k_msg, sizeof k_msg, out), FM_ERR_NOT_OPERATIONAL);
  CHECK(test_is_all_zero(out, 64));

  /* The gate comes before argument checks: bad arguments get the same answer. */
  CHECK_EQ_INT(fm_sha_digest((fm_hash_alg)0, NULL, 1, NULL, 0), FM_ERR_NOT_OPERATIONAL);
  CHECK_EQ_INT(fm_hmac_verify(FM_HASH_SHA256, NULL, 1, NULL, 1, NULL, 0), FM_ERR_NOT_OPERATIONAL);
  CHECK_EQ_INT(fm_sha_update(NULL, NULL, 1), FM_ERR_NOT_OPERATIONAL);

  /* Not a service: answers in every state. */
  size_t n = 0;
  CHECK_EQ_INT(fm_hash_digest_len(FM_HASH_SHA512, &n), FM_OK);
  CHECK_EQ_INT(n, 64);
}

int main(void) {
  /* Before the fork: the module is OPERATIONAL and the services work (so the child's refusals
   * are due to the state, not to a module that never came up). */
  uint8_t d[32];
  CHECK_EQ_INT(fm_module_state(), FM_STATE_OPERATIONAL);
  CHECK_EQ_INT(fm_sha256("abc", 3, d), FM_OK);

  fflush(NULL);
  pid_t pid = fork();
  CHECK(pid >= 0);
  if (pid == 0) {
    check_refused_in_error_state();
    _exit(test_failures == 0 ? 0 : 1);
  }
  int status = 0;
  CHECK(waitpid(pid, &status, 0) == pid);
  CHECK(WIFEXITED(status));
  CHECK_EQ_INT(WEXITSTATUS(status), 0);
  /* The parent is untouched by the child's ERROR. */
  CHECK_EQ_INT(fm_module_state(), FM_STATE_OPERATIONAL);
  CHECK_EQ_INT(fm_sha256("abc", 3, d), FM_OK);
  return test_main_result("test_sha_gate");
}
