/* Shared helpers of the module: zeroization, constant-time comparison, overlap checks and the
 * names of status codes. */
#include <string.h>

#include "module/internal.h"

#if defined(FIPSMOD_TEST_HOOKS) && __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define FM_HAVE_MEMCHECK 1
#endif

/* FM_ZEROIZE_SHORT: up to this many bytes fm_zeroize stores 8 bytes at a time itself; a string
 * store (the module's memset on x86-64, module/mem.c) pays a start-up of some 30 cycles that
 * dominates the short wipes of a tag, a block or a context that every service call makes. */
#define FM_ZEROIZE_SHORT 256

void fm_zeroize(void *p, size_t len) {
  if (len == 0) return;
  if (len <= FM_ZEROIZE_SHORT) {
    unsigned char *d = p;
    /* The empty asm on the pointer keeps the compiler from turning the loops into a memset
     * call (or vector stores: no vector register is involved). */
    for (; len >= 8; len -= 8, d += 8) {
      const uint64_t z = 0;
      __builtin_memcpy(d, &z, 8);
      __asm__("" : "+r"(d));
    }
    for (; len > 0; len--, d++) {
      *d = 0;
      __asm__("" : "+r"(d));
    }
  } else {
    memset(p, 0, len);
  }
  /* The barrier claims to read |p|, so the stores above are not dead. */
  __asm__ __volatile__("" : : "r"(p) : "memory");
}

int fm_ct_memeq(const void *a, const void *b, size_t len) {
  const volatile uint8_t *x = a, *y = b;
  uint8_t acc = 0;
  for (size_t i = 0; i < len; i++) acc |= x[i] ^ y[i];
  return (int)(1 & ct_is_zero_u32(acc));
}

int fm_refuse(int status, void *out, size_t len) {
  fm_indicator_not_approved();
  if (out != NULL && len != 0) fm_zeroize(out, len);
  return status;
}

int fm_refuse2(int status, void *out1, size_t len1, void *out2, size_t len2) {
  fm_refuse(status, out1, len1);
  return fm_refuse(status, out2, len2);
}

void fm_declassify(const void *p, size_t len) {
#if defined(FM_HAVE_MEMCHECK)
  (void)VALGRIND_MAKE_MEM_DEFINED(p, len);
#else
  (void)p;
  (void)len;
#endif
}

#if defined(FIPSMOD_TEST_HOOKS)
void fm_mark_secret_for_testing(const void *p, size_t len) {
#if defined(FM_HAVE_MEMCHECK)
  (void)VALGRIND_MAKE_MEM_UNDEFINED(p, len);
#else
  (void)p;
  (void)len;
#endif
}
#endif

const char *fm_strerror(int status) {
  switch (status) {
    case FM_OK: return "FM_OK: success";
    case FM_ERR_BAD_ARGUMENT: return "FM_ERR_BAD_ARGUMENT: invalid argument";
    case FM_ERR_NOT_OPERATIONAL: return "FM_ERR_NOT_OPERATIONAL: module is not operational";
    case FM_ERR_ENTROPY: return "FM_ERR_ENTROPY: entropy source failure";
    case FM_ERR_BAD_KEY: return "FM_ERR_BAD_KEY: malformed or inconsistent key";
    case FM_ERR_VERIFY: return "FM_ERR_VERIFY: verification failed";
    case FM_ERR_NO_MEMORY: return "FM_ERR_NO_MEMORY: out of memory";
    case FM_ERR_KEY_SIZE: return "FM_ERR_KEY_SIZE: unsupported key size";
    case FM_ERR_BUFFER_TOO_SMALL: return "FM_ERR_BUFFER_TOO_SMALL: output buffer too small";
    case FM_ERR_OVERLAP: return "FM_ERR_OVERLAP: input and output overlap";
    case FM_ERR_STATE: return "FM_ERR_STATE: context used out of order";
    case FM_ERR_LENGTH: return "FM_ERR_LENGTH: invalid length";
    case FM_ERR_RESEED_REQUIRED: return "FM_ERR_RESEED_REQUIRED: DRBG reseed required";
    case FM_ERR_UNSUPPORTED: return "FM_ERR_UNSUPPORTED: unsupported parameter";
    case FM_ERR_PARSE: return "FM_ERR_PARSE: malformed input text";
    case FM_ERR_OUT_OF_RANGE: return "FM_ERR_OUT_OF_RANGE: value out of range";
    case FM_ERR_SELFTEST: return "FM_ERR_SELFTEST: self-test failed";
    case FM_ERR_KEYGEN: return "FM_ERR_KEYGEN: key generation failed";
    case FM_ERR_INTERNAL: return "FM_ERR_INTERNAL: internal consistency check failed";
    case FM_ERR_DECRYPT: return "FM_ERR_DECRYPT: wrong passphrase or corrupt ciphertext";
    case FM_ERR_PASSPHRASE: return "FM_ERR_PASSPHRASE: an encrypted key needs a passphrase";
    case FM_ERR_IO: return "FM_ERR_IO: the file could not be read";
  }
  return "unknown status";
}
