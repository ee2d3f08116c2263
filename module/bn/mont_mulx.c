/* The Montgomery kernels built for CPUs with MULX (BMI2): the kernels of mont_kernels.h with
 * every 64x64->128 product taken by the _mulx_u64 intrinsic, which writes any pair of registers
 * and leaves the flags of the surrounding add/adc chain alone.
 *
 * Why not ADX: ADCX/ADOX pay off in operand scanning, where two carry chains run through one
 * row at once. Compilers do not emit them from _addcarryx_u64 (both gcc 12 and clang 14 fall
 * back to ADC and spill the second carry), and product scanning needs only one chain per
 * column, so the kernels use MULX alone and are chosen on BMI2 alone. That also lets the
 * constant-time test run this path under valgrind, which hides ADX from its guest CPU. */
#include <immintrin.h>

#define BN_KERNEL_MULX 1
#include "module/bn/mont_kernels.h"

#define BN_MULX_TARGET __attribute__((target("bmi2")))

/* The common widths get their own copies with n a constant, so the compiler can drop the bounds
 * arithmetic (1024 to 2048 bits: RSA primes and moduli; the module takes no RSA key under 1024
 * bits, so no prime or modulus is under 16 words). Other widths take the generic copy. */
BN_MULX_TARGET void bn_mont_mul_mulx(uint64_t *r, const uint64_t *a, const uint64_t *b,
                                    const uint64_t *N, uint64_t n0, size_t n) {
  switch (n) {
    case 16: bn_kernel_mont_mul(r, a, b, N, n0, 16); return;
    case 24: bn_kernel_mont_mul(r, a, b, N, n0, 24); return;
    case 32: bn_kernel_mont_mul(r, a, b, N, n0, 32); return;
    default: bn_kernel_mont_mul(r, a, b, N, n0, n); return;
  }
}

BN_MULX_TARGET void bn_mont_sqr_mulx(uint64_t *r, const uint64_t *a, const uint64_t *N,
                                    uint64_t n0, size_t n) {
  switch (n) {
    case 16: bn_kernel_mont_sqr(r, a, N, n0, 16); return;
    case 24: bn_kernel_mont_sqr(r, a, N, n0, 24); return;
    case 32: bn_kernel_mont_sqr(r, a, N, n0, 32); return;
    default: bn_kernel_mont_sqr(r, a, N, n0, n); return;
  }
}
