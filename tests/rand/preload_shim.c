/* An LD_PRELOAD library that tries to feed and read the module's RNG, for
 * test_rand_preload.
 *
 * - getrandom, getentropy, syscall(SYS_getrandom) and read return a fixed pseudo-random stream
 *   (the same in every process), which passes the SP 800-90B health tests: a module that takes
 *   its entropy through them draws the same bytes in every process.
 * - memcpy, memmove, memset and memcmp do their job, and remember the call sites they were
 *   called from (return addresses, in a lock-free set: the interposers make no call of their own).
 * shim_report (found by the test with dlsym) counts the calls of each kind and the call sites
 * that lie inside a given library. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

/* ---- The fixed stream -------------------------------------------------------------------- */
static _Atomic uint64_t g_stream_pos;
static _Atomic unsigned long g_entropy_calls; /* getrandom, getentropy, syscall(getrandom), read */

static uint8_t stream_byte(uint64_t i) {
  uint64_t z = i + 0x9e3779b97f4a7c15ull; /* splitmix64 of the position */
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return (uint8_t)(z ^ (z >> 31));
}

static void fill_stream(void *buf, size_t len) {
  volatile uint8_t *p = buf;
  uint64_t at = atomic_fetch_add(&g_stream_pos, len);
  for (size_t i = 0; i < len; i++) p[i] = stream_byte(at + i);
}

ssize_t getrandom(void *buf, size_t len, unsigned flags) {
  (void)flags;
  atomic_fetch_add(&g_entropy_calls, 1);
  fill_stream(buf, len);
  return (ssize_t)len;
}

int getentropy(void *buf, size_t len) {
  atomic_fetch_add(&g_entropy_calls, 1);
  fill_stream(buf, len);
  return 0;
}

/* read: a module reading /dev/urandom or /dev/random would get the stream too (the test's
 * children read nothing themselves). */
ssize_t read(int fd, void *buf, size_t len) {
  (void)fd;
  atomic_fetch_add(&g_entropy_calls, 1);
  fill_stream(buf, len);
  return (ssize_t)len;
}

long syscall(long nr, ...) {
  va_list ap;
  va_start(ap, nr);
  long a[6];
  for (int i = 0; i < 6; i++) a[i] = va_arg(ap, long);
  va_end(ap);
  if (nr == SYS_getrandom) {
    atomic_fetch_add(&g_entropy_calls, 1);
    fill_stream((void *)a[0], (size_t)a[1]);
    return a[1];
  }
  static long (*real)(long, ...);
  if (real == NULL) real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
  return real(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}

/* ---- The memory functions ---------------------------------------------------------------- */
#define SITES 4096 /* a power of two */
static _Atomic uintptr_t g_sites[SITES];
static _Atomic unsigned long g_mem_calls;

static void note_site(uintptr_t ra) {
  atomic_fetch_add_explicit(&g_mem_calls, 1, memory_order_relaxed);
  size_t h = (size_t)((ra * 0x9e3779b97f4a7c15ull) >> 52) & (SITES - 1);
  for (size_t n = 0; n < SITES; n++, h = (h + 1) & (SITES - 1)) {
    uintptr_t cur = atomic_load_explicit(&g_sites[h], memory_order_relaxed);
    if (cur == ra) return;
    if (cur == 0) {
      uintptr_t expect = 0;
      if (atomic_compare_exchange_strong(&g_sites[h], &expect, ra) || expect == ra) return;
    }
  }
}

/* Byte loops through volatile pointers: the compiler cannot turn them into calls to the very
 * functions they implement. */
void *memcpy(void *dst, const void *src, size_t n) {
  note_site((uintptr_t)__builtin_return_address(0));
  volatile uint8_t *d = dst;
  const volatile uint8_t *s = src;
  for (size_t i = 0; i < n; i++) d[i] = s[i];
  return dst;
}

void *memmove(void *dst, const void *src, size_t n) {
  note_site((uintptr_t)__builtin_return_address(0));
  volatile uint8_t *d = dst;
  const volatile uint8_t *s = src;
  if ((uintptr_t)d < (uintptr_t)s) {
    for (size_t i = 0; i < n; i++) d[i] = s[i];
  } else {
    for (size_t i = n; i > 0; i--) d[i - 1] = s[i - 1];
  }
  return dst;
}

void *memset(void *dst, int c, size_t n) {
  note_site((uintptr_t)__builtin_return_address(0));
  volatile uint8_t *d = dst;
  for (size_t i = 0; i < n; i++) d[i] = (uint8_t)c;
  return dst;
}

int memcmp(const void *a, const void *b, size_t n) {
  note_site((uintptr_t)__builtin_return_address(0));
  const volatile uint8_t *x = a, *y = b;
  for (size_t i = 0; i < n; i++) {
    if (x[i] != y[i]) return (int)x[i] - (int)y[i];
  }
  return 0;
}

/* shim_report returns the number of entropy calls the shim served, and writes the number of
 * memory-function calls and of distinct call sites whose object's file name contains |lib|. */
unsigned long shim_report(const char *lib, unsigned long *mem_calls, unsigned long *lib_sites) {
  unsigned long in_lib = 0;
  for (size_t i = 0; i < SITES; i++) {
    uintptr_t ra = atomic_load(&g_sites[i]);
    Dl_info info;
    if (ra != 0 && dladdr((void *)ra, &info) != 0 && info.dli_fname != NULL &&
        strstr(info.dli_fname, lib) != NULL) {
      in_lib++;
    }
  }
  *mem_calls = atomic_load(&g_mem_calls);
  *lib_sites = in_lib;
  return atomic_load(&g_entropy_calls);
}
