/* The module's own memcpy, memmove, memset and memcmp, for libfipsmod.so only.
 *
 * Every copy and wipe of a secret (DRBG states, batch bytes, keys, fm_zeroize) is a call to one
 * of these four, written by the programmer or emitted by the compiler. Bound to libc's, they go
 * through the PLT, and an LD_PRELOAD library could read every secret the module moves or keep
 * fm_zeroize from wiping anything. Defined here with hidden visibility, they are what the linker
 * binds every such call inside libfipsmod.so to: the library imports none of them (check with
 * readelf -r; tests/rand/test_rand_preload.c checks the behaviour) and exports none.
 *
 * Not part of libfipsmod.a or the internal test library: there these definitions would replace
 * the memcpy of the whole program that links them. The top-level CMakeLists.txt adds this file
 * to the shared libraries alone.
 *
 * On x86-64 the bodies are string instructions in inline asm, so the compiler cannot recognise
 * them as a copy loop and turn them back into a call to themselves. On aarch64 they are loops of
 * 8-byte (aligned) or 1-byte moves through general-purpose registers, with an empty asm on the
 * index that keeps the compiler from recognising the idiom (or vectorizing the loop into SIMD
 * registers, where a copy would leave its bytes). They are not constant time in the
 * data (memcmp stops at the first difference, as its contract says); the module compares secrets
 * with fm_ct_memeq. */
#include <stddef.h>

#include <stdint.h>

#if !defined(__x86_64__) && !defined(__aarch64__)
#error "module/mem.c is written for x86-64 and aarch64"
#endif

#define FM_MEM_FN __attribute__((visibility("hidden"), used))

FM_MEM_FN void *memcpy(void *restrict dst, const void *restrict src, size_t n);
FM_MEM_FN void *memmove(void *dst, const void *src, size_t n);
FM_MEM_FN void *memset(void *dst, int c, size_t n);
FM_MEM_FN int memcmp(const void *a, const void *b, size_t n);

#if defined(__x86_64__)
/* rep movsb: the fast-string microcode (ERMSB, FSRM for short lengths) makes it as fast as an
 * unrolled vector copy on current CPUs, and it moves the bytes through no vector register, so a
 * copy leaves no secret in xmm/ymm/zmm for a signal frame to spill. The direction flag is clear
 * on entry to any function (System V ABI). */
void *memcpy(void *restrict dst, const void *restrict src, size_t n) {
  void *d = dst;
  __asm__ __volatile__("rep movsb" : "+D"(d), "+S"(src), "+c"(n) : : "memory");
  return dst;
}

/* memmove copies forwards when that cannot overwrite a source byte before it is read (dst below
 * src, or no overlap), otherwise backwards with the direction flag set for the one instruction. */
void *memmove(void *dst, const void *src, size_t n) {
  unsigned char *d = dst;
  const unsigned char *s = src;
  if (n == 0 || d == s) return dst;
  if ((size_t)(d - s) >= n) { /* d < s (wraps to a huge value) or d >= s + n */
    __asm__ __volatile__("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
  } else {
    d += n - 1;
    s += n - 1;
    __asm__ __volatile__("std\n\trep movsb\n\tcld" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
  }
  return dst;
}

/* rep stosb: fm_zeroize's wipe, as fast as a vector fill and through no vector register. */
void *memset(void *dst, int c, size_t n) {
  void *d = dst;
  __asm__ __volatile__("rep stosb" : "+D"(d), "+c"(n) : "a"(c) : "memory");
  return dst;
}

#else
/* FM_MEM_KEEP hides the loop index from the optimizer: no idiom recognition, no vectorization. */
#define FM_MEM_KEEP(i) __asm__("" : "+r"(i))

/* fm_word: 8-byte moves are possible when both pointers have the same alignment mod 8. */
typedef uint64_t __attribute__((may_alias)) fm_word;

/* copy_forward copies n bytes from s to d, lowest address first. */
static inline void copy_forward(unsigned char *d, const unsigned char *s, size_t n) {
  size_t i = 0;
  if ((((uintptr_t)d ^ (uintptr_t)s) & 7) == 0) {
    for (; i < n && ((uintptr_t)(d + i) & 7) != 0; i++) {
      FM_MEM_KEEP(i);
      d[i] = s[i];
    }
    for (; n - i >= 8; i += 8) {
      FM_MEM_KEEP(i);
      *(fm_word *)(void *)(d + i) = *(const fm_word *)(const void *)(s + i);
    }
  }
  for (; i < n; i++) {
    FM_MEM_KEEP(i);
    d[i] = s[i];
  }
}

void *memcpy(void *restrict dst, const void *restrict src, size_t n) {
  copy_forward(dst, src, n);
  return dst;
}

/* memmove copies forwards when that cannot overwrite a source byte before it is read (dst below
 * src, or no overlap), otherwise backwards, one byte at a time. */
void *memmove(void *dst, const void *src, size_t n) {
  unsigned char *d = dst;
  const unsigned char *s = src;
  if (n == 0 || d == s) return dst;
  if ((size_t)(d - s) >= n) { /* d < s (wraps to a huge value) or d >= s + n */
    copy_forward(d, s, n);
  } else {
    for (size_t i = n; i > 0; i--) {
      FM_MEM_KEEP(i);
      d[i - 1] = s[i - 1];
    }
  }
  return dst;
}

/* memset: fm_zeroize's wipe, 8-byte stores once aligned. */
void *memset(void *dst, int c, size_t n) {
  unsigned char *d = dst;
  const unsigned char b = (unsigned char)c;
  const uint64_t w = 0x0101010101010101ull * b;
  size_t i = 0;
  for (; i < n && ((uintptr_t)(d + i) & 7) != 0; i++) {
    FM_MEM_KEEP(i);
    d[i] = b;
  }
  for (; n - i >= 8; i += 8) {
    FM_MEM_KEEP(i);
    *(fm_word *)(void *)(d + i) = w;
  }
  for (; i < n; i++) {
    FM_MEM_KEEP(i);
    d[i] = b;
  }
  return dst;
}
#endif

/* memcmp compares byte by byte; the empty asm on the index keeps the loop from being recognised
 * as a comparison idiom and replaced with a call. */
int memcmp(const void *a, const void *b, size_t n) {
  const unsigned char *x = a, *y = b;
  for (size_t i = 0; i < n; i++) {
    __asm__("" : "+r"(i));
    if (x[i] != y[i]) return (int)x[i] - (int)y[i];
  }
  return 0;
}
