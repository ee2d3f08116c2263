/* Refused SHA-2 and HMAC calls with a huge claimed output length ("wipe on
 * error overruns"): each output buffer is exactly the digest length and ends at a page boundary,
 * followed by an inaccessible guard page, while the call claims SIZE_MAX (or 2^40) bytes. A
 * refused call may wipe only what it could legitimately have written (the digest length), so a
 * wipe of the claimed length faults on the guard page and kills the test. Checked while
 * OPERATIONAL (calls refused for a bad argument or length) and, in a forked child, in ERROR
 * (every call refused by the state gate). Each refusal must also have wiped the digest-length
 * bytes it could have written. */
#define _GNU_SOURCE
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fipsmod/hmac.h"
#include "fipsmod/module.h"
#include "fipsmod/sha.h"
#include "module/internal.h"
#include "tests/common/test_util.h"

static const fm_hash_alg k_algs[3] = {FM_HASH_SHA256, FM_HASH_SHA384, FM_HASH_SHA512};
static const size_t k_dlen[3] = {32, 48, 64};
static const size_t k_huge[2] = {SIZE_MAX, (size_t)1 << 40};
static const uint8_t k_key[] = "huge key";
static const uint8_t k_msg[] = "huge message";

static uint8_t *g_pages; /* two pages: the first readable and writable, the second PROT_NONE */
static size_t g_page;

/* guarded returns a |len|-byte buffer that ends where the guard page begins, filled with 0xaa. */
static uint8_t *guarded(size_t len) {
  uint8_t *p = g_pages + g_page - len;
  memset(p, 0xaa, len);
  return p;
}

static void setup(void) {
  g_page = (size_t)sysconf(_SC_PAGESIZE);
  void *m = mmap(NULL, 2 * g_page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  CHECK(m != MAP_FAILED);
  g_pages = m;
  CHECK(mprotect(g_pages + g_page, g_page, PROT_NONE) == 0);
}

/* check_refusals makes every refused call with a huge out_len; |want| is the status expected
 * from the calls whose arguments are otherwise bad (FM_ERR_NOT_OPERATIONAL in ERROR). */
static void check_refusals(int in_error) {
  for (int a = 0; a < 3; a++) {
    fm_hash_alg alg = k_algs[a];
    size_t dl = k_dlen[a];
    for (int h = 0; h < 2; h++) {
      size_t huge = k_huge[h];
      uint8_t *out;

      /* fm_sha_digest: data NULL with a length (BAD_ARGUMENT), a message too long (LENGTH). */
      out = guarded(dl);
      CHECK_EQ_INT(fm_sha_digest(alg, NULL, 1, out, huge),
                   in_error ? FM_ERR_NOT_OPERATIONAL : FM_ERR_BAD_ARGUMENT);
      CHECK(test_is_all_zero(out, dl));
      out = guarded(dl);
      CHECK_EQ_INT(fm_sha_digest(alg, k_msg, SIZE_MAX, out, huge),
                   in_error ? FM_ERR_NOT_OPERATIONAL : FM_ERR_LENGTH);
      CHECK(test_is_all_zero(out, dl));

      /* fm_sha_final on a NULL context, on a dead context, and (in ERROR) on a live one. */
      out = guarded(dl);
      CHECK_EQ_INT(fm_sha_final(NULL, out, huge),
                   in_error ? FM_ERR_NOT_OPERATIONAL : FM_ERR_BAD_ARGUMENT);
      fm_sha_ctx sctx;
      memset(&sctx, 0, sizeof sctx);
      out = guarded(dl);
      CHECK_EQ_INT(fm_sha_final(&sctx, out, huge),
                   in_error ? FM_ERR_NOT_OPERATIONAL : FM_ERR_STATE);

      /* fm_hmac: key NULL with a length, data NULL with a length, key too long. */
      out = guarded(dl);
      CHECK_EQ_INT(fm_hmac(alg, NULL, 1, k_msg, sizeof k_msg, out, huge),
                   in_error ? FM_ERR_NOT_OPERATIONAL : FM_ERR_BAD_ARGUMENT);
      CHECK(test_is_all_zero(out, dl));
      out = guarded(dl);
      CHECK_EQ_INT(fm_hmac(alg, k_key, sizeof k_key, NULL, 1, out, huge),
                   in_error ? FM_ERR_NOT_OPERATIONAL : FM_ERR_BAD_ARGUMENT);
      CHECK(test_is_all_zero(out, dl));
      out = guarded(dl);
      CHECK_EQ_INT(fm_hmac(alg, k_key, SIZE_MAX, k_msg, sizeof k_msg, out, huge),
                   in_error ? FM_ERR_NOT_OPERATIONAL : FM_ERR_LENGTH);
      CHECK(test_is_all_zero(out, dl));

      /* fm_hmac_final on a NULL and a dead context. */
      out = guarded(dl);
      CHECK_EQ_INT(fm_hmac_final(NULL, out, huge),
                   in_error ? FM_ERR_NOT_OPERATIONAL : FM_ERR_BAD_ARGUMENT);
      fm_hmac_ctx hctx;
      memset(&hctx, 0, sizeof hctx);
      out = guarded(dl);
      CHECK_EQ_INT(fm_hmac_final(&hctx, out, huge),
                   in_error ? FM_ERR_NOT_OPERATIONAL : FM_ERR_STATE);
    }
    /* An unknown algorithm: nothing could have been written, nothing may be touched. */
    uint8_t *out = guarded(1);
    CHECK_EQ_INT(fm_sha_digest((fm_hash_alg)0, k_msg, sizeof k_msg, out, SIZE_MAX),
                 in_error ? FM_ERR_NOT_OPERATIONAL : FM_ERR_UNSUPPORTED);
    out = guarded(1);
    CHECK_EQ_INT(fm_hmac((fm_hash_alg)11, k_key, sizeof k_key, k_msg, sizeof k_msg, out, SIZE_MAX),
                 in_error ? FM_ERR_NOT_OPERATIONAL : FM_ERR_UNSUPPORTED);
  }
}

/* In ERROR, a live context's final is refused by the gate: the digest-length bytes are wiped,
 * nothing past them. */
static void check_live_contexts_in_error(fm_sha_ctx sctx[3], fm_hmac_ctx hctx[3]) {
  for (int a = 0; a < 3; a++) {
    uint8_t *out = guarded(k_dlen[a]);
    CHECK_EQ_INT(fm_sha_final(&sctx[a], out, SIZE_MAX), FM_ERR_NOT_OPERATIONAL);
    CHECK(test_is_all_zero(out, k_dlen[a]));
    CHECK(test_is_all_zero(&sctx[a], sizeof sctx[a]));
    out = guarded(k_dlen[a]);
    CHECK_EQ_INT(fm_hmac_final(&hctx[a], out, SIZE_MAX), FM_ERR_NOT_OPERATIONAL);
    CHECK(test_is_all_zero(out, k_dlen[a]));
    CHECK(test_is_all_zero(&hctx[a], sizeof hctx[a]));
  }
}

int main(void) {
  setup();
  CHECK_EQ_INT(fm_module_state(), FM_STATE_OPERATIONAL);
  check_refusals(0);

  /* A successful call with a huge claimed length writes exactly the digest length. */
  for (int a = 0; a < 3; a++) {
    uint8_t *out = guarded(k_dlen[a]);
    CHECK_EQ_INT(fm_sha_digest(k_algs[a], k_msg, sizeof k_msg, out, SIZE_MAX), FM_OK);
    out = guarded(k_dlen[a]);
    CHECK_EQ_INT(fm_hmac(k_algs[a], k_key, sizeof k_key, k_msg, sizeof k_msg, out, SIZE_MAX),
                 FM_OK);
  }

  fflush(NULL);
  pid_t pid = fork();
  CHECK(pid >= 0);
  if (pid == 0) {
    fm_sha_ctx sctx[3];
    fm_hmac_ctx hctx[3];
    for (int a = 0; a < 3; a++) {
      CHECK_EQ_INT(fm_sha_init(&sctx[a], k_algs[a]), FM_OK);
      CHECK_EQ_INT(fm_hmac_init(&hctx[a], k_algs[a], k_key, sizeof k_key), FM_OK);
    }
    fm_module_force_error_for_testing();
    CHECK_EQ_INT(fm_module_state(), FM_STATE_ERROR);
    check_refusals(1);
    check_live_contexts_in_error(sctx, hctx);
    _exit(test_failures == 0 ? 0 : 1);
  }
  int status = 0;
  CHECK(waitpid(pid, &status, 0) == pid);
  CHECK(WIFEXITED(status));
  if (WIFSIGNALED(status)) fprintf(stderr, "ERROR-state child killed by signal %d\n", WTERMSIG(status));
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  return test_main_result("test_sha_hugelen");
}
