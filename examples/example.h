/* What every example shares: a check that prints the failing call and its status, and the
 * module's own standing before anything runs. Each example exits 0 only when everything it
 * demonstrates worked, so ctest runs them as tests. */
#ifndef FIPSMOD_EXAMPLE_H
#define FIPSMOD_EXAMPLE_H

#include <stdio.h>
#include <stdlib.h>

#include <fipsmod/fipsmod.h>

/* TRY(call): the call must return FM_OK; otherwise name it and its status and exit 1. */
#define TRY(call)                                                                   \
  do {                                                                              \
    int try_st_ = (call);                                                           \
    if (try_st_ != FM_OK) {                                                         \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                 \
              fm_strerror(try_st_));                                                \
      exit(1);                                                                      \
    }                                                                               \
  } while (0)

/* EXPECT(cond, what): a property the example shows; exit 1 when it does not hold. */
#define EXPECT(cond, what)                                                          \
  do {                                                                              \
    if (!(cond)) {                                                                  \
      fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, what);            \
      exit(1);                                                                      \
    }                                                                               \
  } while (0)

/* example_require_operational: a program using a FIPS module checks, once, that the module came
 * up (its self-tests ran when the library was loaded). */
static inline void example_require_operational(void) {
  if (fm_module_state() != FM_STATE_OPERATIONAL) {
    fprintf(stderr, "fipsmod is %s, not operational\n", fm_module_state_name(fm_module_state()));
    exit(1);
  }
}

static inline void example_print_hex(const char *label, const uint8_t *p, size_t n) {
  printf("%s", label);
  for (size_t i = 0; i < n; i++) printf("%02x", p[i]);
  printf("\n");
}

#endif
