/* The service gate on every function of fipsmod/aes.h: in a child process whose module has been
 * forced into ERROR (fm_module_force_error_for_testing), each call returns
 * FM_ERR_NOT_OPERATIONAL and zeroes its output, and fm_aes_key_wipe still zeroizes the schedule.
 * A length that is invalid in itself (SIZE_MAX on a 64-byte buffer) is not used to zero anything:
 * the state is checked first, but the refusal must not write past the buffer. The parent checks
 * that the same calls succeed while OPERATIONAL. */
#define _GNU_SOURCE
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fipsmod/aes.h"
#include "module/internal.h"
#include "tests/common/test_util.h"

#define FILL 0xa5

static void run_all(const fm_aes_key *k, int want) {
  uint8_t key[32] = {1, 2, 3}, in[64] = {0}, out[64], iv[16] = {0}, ks[16];
  unsigned used;
  fm_aes_key fresh;

  memset(&fresh, FILL, sizeof fresh);
  CHECK_EQ_INT(fm_aes_key_init(&fresh, key, 32), want);
  if (want != FM_OK) CHECK(test_is_all_zero(&fresh, sizeof fresh));
  fm_aes_key_wipe(&fresh);

  memset(out, FILL, sizeof out);
  CHECK_EQ_INT(fm_aes_ecb_encrypt(k, in, out, 64), want);
  if (want != FM_OK) CHECK(test_is_all_zero(out, 64));

  memset(out, FILL, sizeof out);
  CHECK_EQ_INT(fm_aes_ecb_decrypt(k, in, out, 64), want);
  if (want != FM_OK) CHECK(test_is_all_zero(out, 64));

  memset(out, FILL, sizeof out);
  CHECK_EQ_INT(fm_aes_cbc_encrypt(k, iv, in, out, 64), want);
  if (want != FM_OK) CHECK(test_is_all_zero(out, 64));

  memset(out, FILL, sizeof out);
  CHECK_EQ_INT(fm_aes_cbc_decrypt(k, iv, in, out, 64), want);
  if (want != FM_OK) CHECK(test_is_all_zero(out, 64));

  memset(out, FILL, sizeof out);
  CHECK_EQ_INT(fm_aes_ctr(k, FM_AES_CTR128, iv, in, out, 50), want);
  if (want != FM_OK) CHECK(test_is_all_zero(out, 50));

  memset(out, FILL, sizeof out);
  memset(ks, FILL, sizeof ks);
  used = 16;
  CHECK_EQ_INT(fm_aes_ctr_stream(k, FM_AES_CTR32, iv, ks, &used, in, out, 50), want);
  if (want != FM_OK) {
    CHECK(test_is_all_zero(out, 50));
    CHECK(test_is_all_zero(ks, sizeof ks));
    CHECK_EQ_INT(used, 16);
  }

  /* Zeroization stays available outside OPERATIONAL. */
  fm_aes_key copy;
  memcpy(&copy, k, sizeof copy);
  CHECK_EQ_INT(fm_aes_key_wipe(&copy), want);
  CHECK(test_is_all_zero(&copy, sizeof copy));
}

/* run_huge: in ERROR, calls that claim SIZE_MAX bytes of a 64-byte buffer are refused with
 * FM_ERR_NOT_OPERATIONAL and leave the buffer alone. */
static void run_huge(const fm_aes_key *k) {
  uint8_t in[64] = {0}, out[64], iv[16] = {0}, ks[16];
  unsigned used = 16;
  memset(out, FILL, sizeof out);
  CHECK_EQ_INT(fm_aes_ecb_encrypt(k, in, out, SIZE_MAX), FM_ERR_NOT_OPERATIONAL);
  CHECK_EQ_INT(fm_aes_ecb_decrypt(k, in, out, SIZE_MAX), FM_ERR_NOT_OPERATIONAL);
  CHECK_EQ_INT(fm_aes_cbc_encrypt(k, iv, in, out, SIZE_MAX), FM_ERR_NOT_OPERATIONAL);
  CHECK_EQ_INT(fm_aes_cbc_decrypt(k, iv, in, out, SIZE_MAX - 15), FM_ERR_NOT_OPERATIONAL);
  CHECK_EQ_INT(fm_aes_ctr(k, FM_AES_CTR128, iv, in, out, SIZE_MAX), FM_ERR_NOT_OPERATIONAL);
  CHECK_EQ_INT(fm_aes_ctr(k, FM_AES_CTR32, iv, in, out, (size_t)1 << 40), FM_ERR_NOT_OPERATIONAL);
  CHECK_EQ_INT(fm_aes_ctr_stream(k, FM_AES_CTR32, iv, ks, &used, in, out, SIZE_MAX),
               FM_ERR_NOT_OPERATIONAL);
  for (size_t i = 0; i < sizeof out; i++) CHECK_EQ_INT(out[i], FILL);
}

int main(void) {
  fm_aes_key k;
  const uint8_t key[16] = {0x2b, 0x7e, 0x15, 0x16};
  CHECK_EQ_INT(fm_aes_key_init(&k, key, 16), FM_OK);
  run_all(&k, FM_OK);

  fflush(NULL);
  pid_t pid = fork();
  CHECK(pid >= 0);
  if (pid == 0) {
    fm_module_force_error_for_testing();
    CHECK_EQ_INT(fm_module_state(), FM_STATE_ERROR);
    run_all(&k, FM_ERR_NOT_OPERATIONAL);
    run_huge(&k);
    fflush(NULL);
    _exit(test_failures == 0 ? 0 : 1);
  }
  int status = 0;
  CHECK(waitpid(pid, &status, 0) == pid);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  fm_aes_key_wipe(&k);
  return test_main_result("test_aes_gate");
}
