/* An LD_PRELOAD shim that lies about the page size: sysconf(_SC_PAGESIZE), getpagesize() and
 * getauxval(AT_PAGESZ) answer $SHIM_PAGESIZE (test_rand_pagesize). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <sys/auxv.h>
#include <unistd.h>

static long shim_value(void) {
  const char *v = getenv("SHIM_PAGESIZE");
  return v != NULL ? atol(v) : -1;
}

long sysconf(int name) {
  static long (*real)(int);
  if (real == NULL) real = (long (*)(int))dlsym(RTLD_NEXT, "sysconf");
  if (name == _SC_PAGESIZE && shim_value() >= 0) return shim_value();
  return real(name);
}

int getpagesize(void) { return (int)(shim_value() >= 0 ? shim_value() : 4096); }

unsigned long getauxval(unsigned long type) {
  static unsigned long (*real)(unsigned long);
  if (real == NULL) real = (unsigned long (*)(unsigned long))dlsym(RTLD_NEXT, "getauxval");
  if (type == AT_PAGESZ && shim_value() >= 0) return (unsigned long)shim_value();
  return real(type);
}
