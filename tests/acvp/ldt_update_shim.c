/* An LD_PRELOAD library for the LDT check (tests/kat/CMakeLists.txt, acvp-ldt-one-update): it
 * stands in front of libfipsmod.so's fm_sha_update, forwards every call, and at exit writes the
 * largest length one call was given to the file named by FIPSMOD_LDT_SHIM_OUT. The ACVP SHA
 * spec (sha/sections/04-testtypes.adoc, LD_test) asks for the large message in a single
 * Update() call; the test compares that largest length with the LDT's full length. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

typedef int (*update_fn)(void *ctx, const void *data, size_t len);

static size_t largest;

int fm_sha_update(void *ctx, const void *data, size_t len);
int fm_sha_update(void *ctx, const void *data, size_t len) {
  static update_fn next;
  if (next == NULL) next = (update_fn)dlsym(RTLD_NEXT, "fm_sha_update");
  if (len > largest) largest = len;
  return next ? next(ctx, data, len) : -1;
}

__attribute__((destructor)) static void report(void) {
  const char *path = getenv("FIPSMOD_LDT_SHIM_OUT");
  FILE *f = path ? fopen(path, "w") : NULL;
  if (f) {
    fprintf(f, "%zu\n", largest);
    fclose(f);
  }
}
