/* What the libFuzzer targets share: cutting the input into fields, checks that abort (libFuzzer
 * then reports the input as a crash and saves it), hex decoding of the fixed key, and the module
 * state check that every target makes after each input: no input to a parser or decoder may
 * take the module out of OPERATIONAL. */
#ifndef FIPSMOD_TESTS_FUZZ_UTIL_H
#define FIPSMOD_TESTS_FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "fipsmod/fipsmod.h"

/* FUZZ_ASSERT(cond): a property every input must keep. */
#define FUZZ_ASSERT(cond)                                                        \
  do {                                                                           \
    if (!(cond)) {                                                               \
      fprintf(stderr, "%s:%d: FUZZ_ASSERT failed: %s\n", __FILE__, __LINE__, #cond); \
      abort();                                                                   \
    }                                                                            \
  } while (0)

/* The unread part of the input. */
typedef struct fuzz_input {
  const uint8_t *p;
  size_t n;
} fuzz_input;

/* fuzz_byte takes one byte (0 once the input is used up). */
static inline uint8_t fuzz_byte(fuzz_input *in) {
  if (in->n == 0) return 0;
  in->n--;
  return *in->p++;
}

/* fuzz_field takes a field: a 2-byte big-endian length, then that many bytes (fewer when the
 * input ends first). *p is never NULL, also for an empty field. */
static inline void fuzz_field(fuzz_input *in, const uint8_t **p, size_t *n) {
  size_t len = (size_t)fuzz_byte(in) << 8;
  len |= fuzz_byte(in);
  if (len > in->n) len = in->n;
  *p = in->p;
  *n = len;
  in->p += len;
  in->n -= len;
}

/* fuzz_hex decodes a hex constant (even length, lower case) into out; returns its byte count. */
static inline size_t fuzz_hex(const char *hex, uint8_t *out, size_t cap) {
  size_t n = 0;
  for (; hex[0] != '\0' && hex[1] != '\0' && n < cap; hex += 2) {
    unsigned v = 0;
    for (int i = 0; i < 2; i++) {
      char c = hex[i];
      v = v * 16 + (unsigned)(c <= '9' ? c - '0' : c - 'a' + 10);
    }
    out[n++] = (uint8_t)v;
  }
  return n;
}

/* fuzz_require_operational: the module passed its power-on self-tests (called at start) and is
 * still OPERATIONAL (called after each input). */
static inline void fuzz_require_operational(void) {
  FUZZ_ASSERT(fm_module_state() == FM_STATE_OPERATIONAL);
}

#endif
