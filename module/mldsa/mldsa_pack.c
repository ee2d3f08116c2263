/* ML-DSA encodings (FIPS 204 section 7.1): SimpleBitPack / BitPack and their inverses for t1,
 * t0, s1 and s2, z and w1, and HintBitPack / HintBitUnpack.
 *
 * One bit-stream writer and one reader serve every width: values go in little-endian bit order,
 * 256 of them per polynomial, and the widths are public, so the loops depend on nothing secret.
 * The hint codec reads only public data (a signature) and may branch. */
#include <string.h>

#include "module/internal.h"
#include "module/mldsa/internal.h"

/* Both codecs work in groups of eight values, which take exactly |bits| bytes. They are inlined
 * at every call with a constant width, so that the compiler unrolls a group and resolves every
 * test on n and o (counts of bits and bytes, fixed by the width) at compile time. */
#define MLDSA_INLINE static inline __attribute__((always_inline))

/* pack_bits writes the low |bits| bits (bits <= 20) of each of the 256 values (offset - c[i] when
 * negate, c[i] otherwise) as one bit stream of 32 * bits bytes. */
MLDSA_INLINE void pack_bits(uint8_t *out, const mldsa_poly *p, unsigned bits, int32_t offset,
                            int negate) {
  const uint32_t mask = (1u << bits) - 1;
  for (size_t g = 0; g < MLDSA_N; g += 8) {
    uint64_t acc = 0;
    unsigned n = 0;
#pragma GCC unroll 8
    for (size_t i = 0; i < 8; i++) {
      const int32_t c = p->c[g + i];
      acc |= (uint64_t)((uint32_t)(negate ? offset - c : c) & mask) << n;
      n += bits;
      if (n >= 32) {
        out[0] = (uint8_t)acc;
        out[1] = (uint8_t)(acc >> 8);
        out[2] = (uint8_t)(acc >> 16);
        out[3] = (uint8_t)(acc >> 24);
        out += 4;
        acc >>= 32;
        n -= 32;
      }
    }
    for (; n != 0; n -= 8) { /* 8 * bits is a whole number of bytes */
      *out++ = (uint8_t)acc;
      acc >>= 8;
    }
  }
}

/* unpack_bits reads 256 values of |bits| bits (bits <= 20) into p as offset - v (negate) or v,
 * never reading past a group's |bits| bytes. */
MLDSA_INLINE void unpack_bits(mldsa_poly *p, const uint8_t *in, unsigned bits, int32_t offset,
                              int negate) {
  const uint32_t mask = (1u << bits) - 1;
  for (size_t g = 0; g < MLDSA_N; g += 8, in += bits) {
    uint64_t acc = 0;
    unsigned n = 0, o = 0;
#pragma GCC unroll 8
    for (size_t i = 0; i < 8; i++) {
      while (n < bits) {
        if (o + 4 <= bits) {
          const uint32_t w = (uint32_t)in[o] | (uint32_t)in[o + 1] << 8 |
                             (uint32_t)in[o + 2] << 16 | (uint32_t)in[o + 3] << 24;
          acc |= (uint64_t)w << n;
          o += 4;
          n += 32;
        } else {
          acc |= (uint64_t)in[o] << n;
          o += 1;
          n += 8;
        }
      }
      const int32_t v = (int32_t)((uint32_t)acc & mask);
      acc >>= bits;
      n -= bits;
      p->c[g + i] = negate ? offset - v : v;
    }
  }
}

/* The packers and unpackers of t1, t0, s1 and s2 take the AVX2 forms (mldsa_pack_bits_avx2,
 * mldsa_unpack_bits_avx2, the same bytes and values) where the CPU path allows. */
#if defined(__x86_64__)
#define UNPACK_BITS_FAST(p, in, bits, offset, negate)        \
  do {                                                       \
    if (fm_cpu_use(FM_CPU_AVX2)) {                           \
      mldsa_unpack_bits_avx2(p, in, bits, offset, negate);   \
      return;                                                \
    }                                                        \
  } while (0)
#else
#define UNPACK_BITS_FAST(p, in, bits, offset, negate) ((void)0)
#endif

#if defined(__x86_64__)
#define PACK_BITS_FAST(out, p, bits, offset, negate)         \
  do {                                                       \
    if (fm_cpu_use(FM_CPU_AVX2)) {                           \
      mldsa_pack_bits_avx2(out, p, bits, offset, negate);    \
      return;                                                \
    }                                                        \
  } while (0)
#else
#define PACK_BITS_FAST(out, p, bits, offset, negate) ((void)0)
#endif

/* t1: SimpleBitPack(t1, 2^10 - 1) (Algorithm 22). */
void mldsa_pack_t1_portable(uint8_t out[320], const mldsa_poly *t1) {
  pack_bits(out, t1, 10, 0, 0);
}
void mldsa_pack_t1(uint8_t out[320], const mldsa_poly *t1) {
  PACK_BITS_FAST(out, t1, 10, 0, 0);
  mldsa_pack_t1_portable(out, t1);
}
void mldsa_unpack_t1_portable(mldsa_poly *t1, const uint8_t in[320]) {
  unpack_bits(t1, in, 10, 0, 0);
}
void mldsa_unpack_t1(mldsa_poly *t1, const uint8_t in[320]) {
  UNPACK_BITS_FAST(t1, in, 10, 0, 0);
  mldsa_unpack_t1_portable(t1, in);
}

/* t0: BitPack(t0, 2^12 - 1, 2^12) (Algorithm 24). */
void mldsa_pack_t0_portable(uint8_t out[416], const mldsa_poly *t0) {
  pack_bits(out, t0, MLDSA_D, 1 << (MLDSA_D - 1), 1);
}
void mldsa_pack_t0(uint8_t out[416], const mldsa_poly *t0) {
  PACK_BITS_FAST(out, t0, MLDSA_D, 1 << (MLDSA_D - 1), 1);
  mldsa_pack_t0_portable(out, t0);
}
void mldsa_unpack_t0_portable(mldsa_poly *t0, const uint8_t in[416]) {
  unpack_bits(t0, in, MLDSA_D, 1 << (MLDSA_D - 1), 1);
}
void mldsa_unpack_t0(mldsa_poly *t0, const uint8_t in[416]) {
  UNPACK_BITS_FAST(t0, in, MLDSA_D, 1 << (MLDSA_D - 1), 1);
  mldsa_unpack_t0_portable(t0, in);
}

/* s1, s2: BitPack(s, eta, eta). */
void mldsa_pack_eta_portable(const mldsa_params *p, uint8_t *out, const mldsa_poly *s) {
  if (p->eta_bits == 3) pack_bits(out, s, 3, 2, 1); /* public: the parameter set (eta 2 or 4) */
  else pack_bits(out, s, 4, 4, 1);
}
void mldsa_pack_eta(const mldsa_params *p, uint8_t *out, const mldsa_poly *s) {
  PACK_BITS_FAST(out, s, p->eta_bits, p->eta, 1);
  mldsa_pack_eta_portable(p, out, s);
}

void mldsa_unpack_eta_values_portable(const mldsa_params *p, mldsa_poly *s, const uint8_t *in) {
  if (p->eta_bits == 3) unpack_bits(s, in, 3, 2, 1); /* public: the parameter set */
  else unpack_bits(s, in, 4, 4, 1);
}
static void unpack_eta_values(const mldsa_params *p, mldsa_poly *s, const uint8_t *in) {
  UNPACK_BITS_FAST(s, in, p->eta_bits, p->eta, 1);
  mldsa_unpack_eta_values_portable(p, s, in);
}

uint32_t mldsa_unpack_eta(const mldsa_params *p, mldsa_poly *s, const uint8_t *in) {
  unpack_eta_values(p, s, in);
  /* A well-formed key has eta - s in [0, 2 eta]; the decoded value is below 2^eta_bits, so only
   * the upper end needs a check: 2 eta - (eta - s) = eta + s must not be negative. */
  uint32_t bad = 0;
  for (size_t i = 0; i < MLDSA_N; i++) bad |= (uint32_t)((p->eta + s->c[i]) >> 31);
  return ~ct_value_barrier_u32(bad);
}

/* z: BitPack(z, gamma1 - 1, gamma1) (Algorithm 26 packs; ExpandMask's BitUnpack too). */
void mldsa_pack_z_portable(const mldsa_params *p, uint8_t *out, const mldsa_poly *z) {
  if (p->z_bits == 18) pack_bits(out, z, 18, 1 << 17, 1); /* public: the parameter set */
  else pack_bits(out, z, 20, 1 << 19, 1);
}
void mldsa_pack_z(const mldsa_params *p, uint8_t *out, const mldsa_poly *z) {
#if defined(__x86_64__)
  if (fm_cpu_use(FM_CPU_AVX2)) {
    mldsa_pack_z_avx2(p, out, z);
    return;
  }
#endif
  mldsa_pack_z_portable(p, out, z);
}
void mldsa_unpack_z_portable(const mldsa_params *p, mldsa_poly *z, const uint8_t *in) {
  if (p->z_bits == 18) unpack_bits(z, in, 18, 1 << 17, 1); /* public: the parameter set */
  else unpack_bits(z, in, 20, 1 << 19, 1);
}
void mldsa_unpack_z(const mldsa_params *p, mldsa_poly *z, const uint8_t *in) {
#if defined(__x86_64__)
  if (fm_cpu_use(FM_CPU_AVX2)) {
    mldsa_unpack_z_avx2(p, z, in);
    return;
  }
#endif
  mldsa_unpack_z_portable(p, z, in);
}

/* w1: SimpleBitPack(w1, (q-1)/(2 gamma2) - 1) (Algorithm 28). */
void mldsa_pack_w1_portable(const mldsa_params *p, uint8_t *out, const mldsa_poly *w1) {
  const int32_t *c = w1->c;
  if (p->w1_bits == 4) { /* public: the parameter set. Two values a byte. */
    for (size_t i = 0; i < MLDSA_N / 2; i++)
      out[i] = (uint8_t)((c[2 * i] & 15) | (c[2 * i + 1] & 15) << 4);
  } else { /* six bits: four values in three bytes */
    for (size_t i = 0; i < MLDSA_N / 4; i++) {
      const uint32_t v = ((uint32_t)c[4 * i] & 63) | ((uint32_t)c[4 * i + 1] & 63) << 6 |
                         ((uint32_t)c[4 * i + 2] & 63) << 12 |
                         ((uint32_t)c[4 * i + 3] & 63) << 18;
      out[3 * i] = (uint8_t)v;
      out[3 * i + 1] = (uint8_t)(v >> 8);
      out[3 * i + 2] = (uint8_t)(v >> 16);
    }
  }
}

void mldsa_pack_w1(const mldsa_params *p, uint8_t *out, const mldsa_poly *w1) {
#if defined(__x86_64__)
  if (fm_cpu_use(FM_CPU_AVX2)) {
    mldsa_pack_w1_avx2(p, out, w1);
    return;
  }
#endif
  mldsa_pack_w1_portable(p, out, w1);
}

/* The hint: one polynomial at a time, given the running index. The caller packs all k. */
void mldsa_pack_hint(const mldsa_params *p, uint8_t *out, const mldsa_poly *h) {
  /* HintBitPack (Algorithm 20) over the k polynomials at h[0..k-1]: the positions of the ones,
   * then, at omega + i, the running count after polynomial i. h is part of a released
   * signature (public) when this runs. */
  memset(out, 0, (size_t)p->omega + p->k);
  size_t index = 0;
  for (size_t i = 0; i < p->k; i++) {
    /* Eight positions at a time: a mask of the ones (each coefficient is 0 or 1, MakeHint's
     * output), then its set bits in increasing order (few groups hold a one, so this avoids a
     * mispredicted branch per position). */
    for (size_t j = 0; j < MLDSA_N; j += 8) {
      unsigned bits = 0;
      _Pragma("GCC unroll 8") for (unsigned t = 0; t < 8; t++)
        bits |= ((unsigned)h[i].c[j + t] & 1u) << t;
      for (; bits != 0; bits &= bits - 1)
        out[index++] = (uint8_t)(j + (unsigned)__builtin_ctz(bits));
    }
    out[p->omega + i] = (uint8_t)index;
  }
}

int mldsa_unpack_hint(const mldsa_params *p, mldsa_poly *h, const uint8_t *in) {
  /* HintBitUnpack (Algorithm 21): counts non-decreasing and at most omega, positions strictly
   * increasing within each polynomial, unused position bytes zero. 0 means bottom. */
  size_t index = 0;
  for (size_t i = 0; i < p->k; i++) {
    memset(h[i].c, 0, sizeof h[i].c);
    const size_t end = in[p->omega + i];
    if (end < index || end > p->omega) return 0;
    const size_t first = index;
    while (index < end) {
      if (index > first && in[index - 1] >= in[index]) return 0;
      h[i].c[in[index]] = 1;
      index++;
    }
  }
  for (size_t i = index; i < p->omega; i++) {
    if (in[i] != 0) return 0;
  }
  return 1;
}
