/* The fixed-width field kernels of module/ec/, inline so that ec_field.c and the group law in
 * ec_point.c instantiate them for a constant limb count (4, 6 or 9) and the compiler unrolls
 * them. Constant time: no value drives a branch or an address; the final corrections are
 * selected by mask. For ec_field.c and the group law (ec_point.c, ec_verify.c) only. */
#ifndef FIPSMOD_MODULE_EC_FIELD_INLINE_H
#define FIPSMOD_MODULE_EC_FIELD_INLINE_H

#include <stdint.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "module/ec/internal.h"
#include "module/internal.h"

typedef unsigned __int128 u128;

/* sub_borrow sets r = a - b over |limbs| words and returns the borrow out (0 or 1); add_carry
 * sets r = a + b and returns the carry out. The x86-64 carry intrinsics compile to one sbb or adc
 * chain (the u128 form they replace took about four times the instructions); elsewhere the
 * 128-bit form computes the same. */
static inline __attribute__((always_inline)) uint64_t sub_borrow(uint64_t *r, const uint64_t *a,
                                                                  const uint64_t *b,
                                                                  const unsigned limbs) {
#if defined(__x86_64__)
  unsigned char borrow = 0;
  _Pragma("GCC unroll 9")
  for (unsigned i = 0; i < limbs; i++) {
    unsigned long long d;
    borrow = _subborrow_u64(borrow, a[i], b[i], &d);
    r[i] = (uint64_t)d;
  }
  return borrow;
#else
  uint64_t borrow = 0;
  _Pragma("GCC unroll 9")
  for (unsigned i = 0; i < limbs; i++) {
    const u128 d = (u128)a[i] - b[i] - borrow;
    r[i] = (uint64_t)d;
    borrow = (uint64_t)(d >> 64) & 1;
  }
  return borrow;
#endif
}

static inline __attribute__((always_inline)) uint64_t add_carry(uint64_t *r, const uint64_t *a,
                                                                 const uint64_t *b,
                                                                 const unsigned limbs) {
#if defined(__x86_64__)
  unsigned char carry = 0;
  _Pragma("GCC unroll 9")
  for (unsigned i = 0; i < limbs; i++) {
    unsigned long long s;
    carry = _addcarry_u64(carry, a[i], b[i], &s);
    r[i] = (uint64_t)s;
  }
  return carry;
#else
  uint64_t carry = 0;
  _Pragma("GCC unroll 9")
  for (unsigned i = 0; i < limbs; i++) {
    const u128 s = (u128)a[i] + b[i] + carry;
    r[i] = (uint64_t)s;
    carry = (uint64_t)(s >> 64);
  }
  return carry;
#endif
}

/* mont_mul_k: CIOS Montgomery multiplication (Koc, Acar and Kaliski 1996). With a, b < m the
 * running value stays below 2m, one word and one bit past the limbs; the final subtraction of m
 * is selected by mask. */
static inline __attribute__((always_inline)) void mont_mul_k(const ec_mod *md, uint64_t *r,
                                                              const uint64_t *a,
                                                              const uint64_t *b,
                                                              const unsigned limbs) {
  const uint64_t *m = md->m;
  uint64_t t[EC_MAX_LIMBS + 2] = {0};
  _Pragma("GCC unroll 9")
  for (unsigned i = 0; i < limbs; i++) {
    u128 c = 0;
    _Pragma("GCC unroll 9")
    for (unsigned j = 0; j < limbs; j++) {
      c = (u128)a[j] * b[i] + t[j] + (uint64_t)(c >> 64);
      t[j] = (uint64_t)c;
    }
    c = (u128)t[limbs] + (uint64_t)(c >> 64);
    t[limbs] = (uint64_t)c;
    t[limbs + 1] = (uint64_t)(c >> 64);
    const uint64_t q = t[0] * md->n0;
    c = (u128)q * m[0] + t[0];
    _Pragma("GCC unroll 9")
    for (unsigned j = 1; j < limbs; j++) {
      c = (u128)q * m[j] + t[j] + (uint64_t)(c >> 64);
      t[j - 1] = (uint64_t)c;
    }
    c = (u128)t[limbs] + (uint64_t)(c >> 64);
    t[limbs - 1] = (uint64_t)c;
    t[limbs] = t[limbs + 1] + (uint64_t)(c >> 64);
  }
  uint64_t s[EC_MAX_LIMBS];
  const uint64_t borrow = sub_borrow(s, t, m, limbs);
  /* t < m exactly when the subtraction borrows and no top word is left to absorb it. */
  const uint64_t keep = ct_is_zero_u64(t[limbs]) & (0u - borrow);
  _Pragma("GCC unroll 9")
  for (unsigned j = 0; j < limbs; j++) r[j] = ct_select_u64(keep, t[j], s[j]);
}

/* mod_add_k and mod_sub_k correct with m ANDed with a mask rather than by computing both
 * candidates and selecting one: a - b wraps exactly when it borrows, and then m is added back;
 * a + b - m is the sum reduced unless it went below zero (no carry out of the sum and a borrow
 * out of the subtraction), and then m is added back. */
static inline __attribute__((always_inline)) void mod_add_k(const ec_mod *md, uint64_t *r,
                                                             const uint64_t *a, const uint64_t *b,
                                                             const unsigned limbs) {
  uint64_t t[EC_MAX_LIMBS], mm[EC_MAX_LIMBS];
  const uint64_t carry = add_carry(t, a, b, limbs);
  const uint64_t borrow = sub_borrow(t, t, md->m, limbs);
  /* The top word of the difference is carry - borrow: all-ones (-1) when it went below zero. */
  const uint64_t fix = ct_value_barrier_u64(carry - borrow);
  _Pragma("GCC unroll 9")
  for (unsigned j = 0; j < limbs; j++) mm[j] = md->m[j] & fix;
  (void)add_carry(r, t, mm, limbs);
}

static inline __attribute__((always_inline)) void mod_sub_k(const ec_mod *md, uint64_t *r,
                                                             const uint64_t *a, const uint64_t *b,
                                                             const unsigned limbs) {
  uint64_t t[EC_MAX_LIMBS], mm[EC_MAX_LIMBS];
  const uint64_t borrow = sub_borrow(t, a, b, limbs);
  /* a < b: the difference wrapped, add m back. */
  const uint64_t fix = ct_value_barrier_u64(0u - borrow);
  _Pragma("GCC unroll 9")
  for (unsigned j = 0; j < limbs; j++) mm[j] = md->m[j] & fix;
  (void)add_carry(r, t, mm, limbs);
}

#endif
